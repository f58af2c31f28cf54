"""bmc.models.stance: bad input refused by name; no huge allocation."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models.stance import stance_example

VALID = {stance_example: {"n_frames": 31}}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    case(stance_example, TypeError, "body_mass", body_mass="70"),
    case(stance_example, TypeError, "height", height=None),
    case(stance_example, TypeError, "duration", duration=0.6j),
    case(stance_example, TypeError, "planar", planar="no"),
    case(stance_example, TypeError, "n_frames", n_frames=30.5),
    case(stance_example, TypeError, "n_frames", n_frames=True),
    case(stance_example, ValueError, "n_frames", n_frames=1),
    case(stance_example, ValueError, "duration", duration=np.nan),
    case(stance_example, ValueError, "body_mass", body_mass=-70.0),
    # units and guards
    case(stance_example, ValueError, "body_mass", body_mass=70000.0),   # g
    case(stance_example, ValueError, "height", height=175.0),           # cm
    case(stance_example, ValueError, "duration", duration=600.0),       # ms: was accepted
    case(stance_example, ValueError, "n_frames", n_frames=10**10),      # was a MemoryError
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


@pytest.mark.parametrize("planar", [False, True])
def test_valid_input_gives_finite_output(rng, planar):
    st = stance_example(body_mass=float(rng.uniform(40, 110)),
                        height=float(rng.uniform(1.5, 2.0)),
                        duration=float(rng.uniform(0.4, 1.0)), n_frames=41, planar=planar)
    for value in vars(st).values():
        if isinstance(value, np.ndarray):
            assert np.all(np.isfinite(value))
