"""bmc.models.human: bad input refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models import human

MODEL = human.human_model()
Z = np.zeros(9)
VALID = {
    human.human_model: {},
    human.leg_reactions: {"model": MODEL, "q": Z, "qd": Z, "qdd": Z,
                          "contact_force": [0.0, 600.0]},
    human.leg_segments: {"model": MODEL},
    human.paper_formulas: {},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    case(human.human_model, TypeError, "body_mass", body_mass="60"),
    case(human.human_model, TypeError, "g", g="9.81"),
    case(human.human_model, ValueError, "sex", sex="m"),
    case(human.human_model, ValueError, "body_mass", body_mass=60000.0),   # g
    case(human.human_model, ValueError, "height", height=170.0),           # cm
    case(human.human_model, ValueError, "height", height=np.nan),
    case(human.leg_reactions, TypeError, "model", model="human"),
    case(human.leg_segments, TypeError, "model", model=None),
    case(human.leg_reactions, ValueError, "q", q=np.zeros(8)),
    case(human.leg_reactions, ValueError, "qdd", qdd=np.full(9, np.nan)),
    case(human.leg_reactions, TypeError, "contact_force", contact_force=["0", "600"]),
    case(human.leg_reactions, ValueError, "contact_force", contact_force=[0.0, 1.0, 2.0]),
    case(human.paper_formulas, TypeError, "misprint", misprint="yes"),
    # arrays of different frames failed with NumPy's "operands could not be broadcast"
    case(human.leg_reactions, ValueError, "qd", q=np.zeros((5, 9)), qd=np.zeros((4, 9))),
    case(human.leg_reactions, ValueError, "contact_force", q=np.zeros((5, 9)),
         contact_force=np.zeros((4, 2))),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    model = human.human_model(body_mass=float(rng.uniform(40, 110)),
                              height=float(rng.uniform(1.5, 2.0)), sex="female")
    q, qd, qdd = rng.uniform(-1, 1, (3, 10, 9))
    out = human.leg_reactions(model, q, qd, qdd, rng.uniform(-300, 900, (10, 2)))
    assert out.shape == (10, 6) and np.all(np.isfinite(out))
