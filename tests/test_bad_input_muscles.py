"""bmc.muscles: bad input refused by name; coincident points named as singular."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import muscles as mu

PATH = [(0, (0.0, 0.05)), (1, (0.1, 0.0))]
VALID = {f: {"lengths": [0.3], "q": [0.0], "attachments": PATH}
         for f in (mu.path_points, mu.muscle_length, mu.moment_arms)}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(mu.muscle_length, TypeError, "lengths", lengths="0.3"),
    case(mu.muscle_length, TypeError, "q", q=[None]),
    case(mu.moment_arms, TypeError, "attachments", attachments=None),
    case(mu.moment_arms, TypeError, "attachments", attachments="origin, insertion"),
    case(mu.path_points, TypeError, "attachments", attachments=[(0, ("0", 0)), (1, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (True, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (1.0, (0.1, 0))]),
    # wrong shapes
    case(mu.muscle_length, ValueError, "q", q=[0.0, 0.0]),
    case(mu.muscle_length, ValueError, "attachments", attachments=PATH[:1]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (2, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0, 0)), (1, (0.1, 0))]),
    # non-finite values, signs, units (were accepted)
    case(mu.muscle_length, ValueError, "q", q=[np.nan]),
    case(mu.muscle_length, ValueError, "lengths", lengths=[-0.3]),
    case(mu.muscle_length, ValueError, "lengths", lengths=[30.0]),     # cm
    # singular: two coincident points leave the direction undefined (gave NaN + warning)
    case(mu.moment_arms, ValueError, "attachments", attachments=[(0, (0, 0)), (0, (0, 0))]),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    path = [(0, (0.0, 0.05)), (1, (0.15, 0.02)), (2, (0.05, 0.0))]
    q = rng.uniform(0.1, 2.0, (50, 2))
    assert np.all(np.isfinite(mu.muscle_length([0.3, 0.25], q, path)))
    assert np.all(np.isfinite(mu.moment_arms([0.3, 0.25], q, path)))
