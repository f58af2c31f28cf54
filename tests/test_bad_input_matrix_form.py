"""bmc.matrix_form: bad input refused by name (rotations, inertia tensors)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import matrix_form as mf
from bmc.rotations import rotation_matrix

EYE = np.eye(3)
VALID = {
    mf.assemble: {"mass": [1.0, 1.0], "inertia": [0.01 * EYE] * 2, "R": [EYE, EYE],
                  "rcm": [[0, 0.5, 0], [0, 1.5, 0]], "rp": [[0, 1, 0], [0, 2, 0]],
                  "acm": np.zeros((2, 3)), "omega": np.zeros((2, 3)),
                  "omegadot": np.zeros((2, 3)), "f_ext": np.zeros(3), "p_ext": np.zeros(3)},
}
VALID[mf.joint_loads] = VALID[mf.assemble]
VALID[mf.solve] = {"system": mf.assemble(**VALID[mf.assemble])}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(mf.assemble, TypeError, "mass", mass="1"),
    case(mf.assemble, TypeError, "R", R=None),
    case(mf.assemble, TypeError, "g", g="9.81"),
    case(mf.solve, TypeError, "system", system=np.eye(12)),
    case(mf.joint_loads, ValueError, "frame", frame="local"),
    # wrong shapes and frame counts
    case(mf.assemble, ValueError, "inertia", inertia=[0.01 * EYE]),
    case(mf.assemble, ValueError, "rcm", rcm=np.zeros((2, 2))),
    case(mf.assemble, ValueError, "f_ext", f_ext=np.zeros(2)),
    case(mf.assemble, ValueError, "omega", acm=np.zeros((4, 2, 3)),
         omega=np.zeros((5, 2, 3))),
    # non-finite values and signs
    case(mf.assemble, ValueError, "mass", mass=[1.0, 0.0]),
    case(mf.assemble, ValueError, "omega", omega=[[np.nan, 0, 0], [0, 0, 0]]),
    case(mf.assemble, ValueError, "g", g=-9.81),
    # physics: not a rotation, a reflection, no rigid body's inertia (were accepted)
    case(mf.assemble, ValueError, "R", R=[EYE, 2 * EYE]),
    case(mf.assemble, ValueError, "R", R=[EYE, np.diag([1.0, -1.0, 1.0])]),
    case(mf.assemble, ValueError, "inertia", inertia=[0.01 * EYE, -0.01 * EYE]),
    case(mf.assemble, ValueError, "inertia", inertia=[0.01 * EYE, np.diag([0.01, 0.01, 0.05])]),
    case(mf.joint_loads, ValueError, "R", R=[EYE, 2 * EYE]),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    n_frames, n = 15, 3
    R = rotation_matrix(rng.uniform(-np.pi, np.pi, (n_frames, n, 3)))
    inertia = [np.diag(rng.uniform(0.05, 0.1, 3)) for _ in range(n)]
    F, M = mf.joint_loads(rng.uniform(1, 5, n), inertia, R,
                          *rng.uniform(-1, 1, (5, n_frames, n, 3)),
                          *rng.uniform(-1, 1, (2, n_frames, 3)))
    assert F.shape == (n_frames, n, 3) and np.all(np.isfinite(F)) and np.all(np.isfinite(M))
