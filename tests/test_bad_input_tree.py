"""bmc.tree and bmc.reactions: bad input refused by name (COM on its segment, integer
parents, contact point finite and on its segment)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import reactions
from bmc.models.human import human_model
from bmc.tree import PlanarTree

LEG = {"names": ["thigh", "shank"], "parent": [-1, 0], "attach": [0.0, 0.4],
       "direction": [-1, -1], "lengths": [0.4, 0.4], "com": [0.17, 0.17], "masses": [7.0, 3.0],
       "inertias": [0.1, 0.05]}
MODEL = human_model()
Z = np.zeros(9)
H = MODEL.applied_forces(Z)
VALID = {
    PlanarTree: LEG,
    MODEL.point: {"q": Z, "segment": "foot", "distance": 0.1},
    MODEL.segment_index: {"segment": "foot"},
    MODEL.joint_columns: {"joints": ["knee"]},
    MODEL.applied_forces: {"q": Z, "contact_force": [0.0, 600.0],
                           "contact_point": ("foot", 0.1)},
    reactions.minimal_form: {"model": MODEL, "q": Z, "qd": Z, "h": H},
    reactions.reactions_augmented: {"model": MODEL, "q": Z, "qd": Z, "qdd": Z, "h": H},
    reactions.reactions_classical: {"model": MODEL, "q": Z, "qd": Z, "h": H},
    reactions.reactions_newton_euler: {"model": MODEL, "q": Z, "qd": Z, "qdd": Z,
                                       "contact_force": [0.0, 600.0],
                                       "contact_point": ("foot", 0.1)},
    reactions.inverse_dynamics: {"model": MODEL, "q": Z, "qd": Z, "qdd": Z,
                                 "contact_point": ("foot", 0.1)},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(PlanarTree, TypeError, "names", names="thigh"),
    case(PlanarTree, TypeError, "parent", parent=[-1, 0.0]),        # float index accepted
    case(PlanarTree, TypeError, "parent", parent=[-1, True]),
    case(PlanarTree, TypeError, "parent", parent=None),
    case(PlanarTree, TypeError, "masses", masses=["7", "3"]),
    case(PlanarTree, TypeError, "g", g="9.81"),
    case(MODEL.segment_index, TypeError, "segment", segment=1.5),
    case(MODEL.point, TypeError, "distance", distance="0.1"),
    case(reactions.inverse_dynamics, TypeError, "model", model="human"),
    case(reactions.inverse_dynamics, TypeError, "contact_point", contact_point="foot"),
    case(reactions.inverse_dynamics, TypeError, "contact_point", contact_point=("foot", "0.1")),
    case(reactions.reactions_newton_euler, TypeError, "contact_point",
         contact_point=("foot", None)),
    case(reactions.reactions_augmented, TypeError, "q", q=["0"] * 9),
    # wrong shapes, unknown names
    case(PlanarTree, ValueError, "com", com=[0.17]),
    case(PlanarTree, ValueError, "parent", parent=[-1, 1]),
    case(MODEL.segment_index, ValueError, "segment", segment="toe"),
    case(reactions.inverse_dynamics, ValueError, "q", q=np.zeros(8)),
    case(reactions.inverse_dynamics, ValueError, "contact_point",
         contact_point=("toe", 0.1)),
    case(reactions.minimal_form, ValueError, "h", h=np.zeros(20)),
    case(reactions.reactions_classical, ValueError, "qd", qd=np.zeros((3, 8))),
    # non-finite values, signs
    case(PlanarTree, ValueError, "lengths", lengths=[0.4, -0.4]),
    case(PlanarTree, ValueError, "inertias", inertias=[0.1, np.nan]),
    case(MODEL.point, ValueError, "distance", distance=np.nan),
    case(reactions.inverse_dynamics, ValueError, "qdd", qdd=np.full(9, np.inf)),
    # contact point at NaN returned all-NaN; off the segment gave a wrong answer
    case(reactions.inverse_dynamics, ValueError, "contact_point",
         contact_point=("foot", np.nan)),
    case(reactions.reactions_newton_euler, ValueError, "contact_point",
         contact_point=("foot", np.nan)),
    case(MODEL.applied_forces, ValueError, "contact_point", contact_point=("foot", np.inf)),
    case(reactions.inverse_dynamics, ValueError, "contact_point",
         contact_point=("foot", 10.0)),
    # physics: a 5 m COM on a 0.4 m thigh was accepted
    case(PlanarTree, ValueError, "com", com=[5.0, 0.17]),
    case(PlanarTree, ValueError, "com", com=[0.17, -0.1]),
    case(PlanarTree, ValueError, "g", g=981.0),                         # cm/s^2
    case(MODEL.joint_columns, TypeError, "joints", joints=[1.5]),
    case(MODEL.joint_columns, ValueError, "joint", joints=["toe"]),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{getattr(c[0], '__name__', 'f')}-{c[3]}-{i}"
                              for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    q, qd, qdd = rng.uniform(-1, 1, (3, 10, 9))
    res = reactions.inverse_dynamics(MODEL, q, qd, qdd,
                                     contact_point=("foot", float(rng.uniform(0, 0.2))))
    for value in (res.contact_force, res.contact_moment, res.torques, res.residual):
        assert np.all(np.isfinite(value))
    h = MODEL.applied_forces(q, torques=rng.uniform(-50, 50, (10, 6)))
    assert np.all(np.isfinite(reactions.reactions_augmented(MODEL, q, qd, qdd, h)))
    assert np.all(np.isfinite(reactions.reactions_classical(MODEL, q, qd, h)))
