"""bmc.newton_euler: bad input refused by name (rotations, inertia tensors, COM fractions)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import newton_euler as ne
from bmc.rotations import rotation_matrix

Z3 = np.zeros(3)
EYE = np.eye(3)
LEGS = np.tile([0, 0.9, 0, 0.45, 0, 0.08, 0.15, 0.0], (10, 1))
GRF = np.tile([0.0, 700.0, 0.0], (10, 1))
SEG = {"mass": [7.0, 3.0, 1.0], "inertia": [0.1, 0.04, 0.005], "com_fraction": [0.43, 0.43, 0.5]}
VALID = {
    ne.invdyn2d: {"rcm": [0, 0.5], "rd": [0, 0], "rp": [0, 1], "acm": [0, 0], "alpha": 0.0,
                  "mass": 2.0, "Icm": 0.1, "Fd": [0, 0], "Md": 0.0},
    ne.invdyn3d: {"rcm": [0, 0.5, 0], "rd": Z3, "rp": [0, 1, 0], "acm": Z3, "omega": Z3,
                  "omegadot": Z3, "R": EYE, "mass": 2.0, "inertia": 0.1 * EYE, "Fd": Z3,
                  "Md": Z3},
    ne.joint_loads3d: {"mass": [1.0, 1.0], "inertia": [0.01 * EYE] * 2, "R": [EYE, EYE],
                       "rcm": [[0, 0.5, 0], [0, 1.5, 0]], "rp": [[0, 1, 0], [0, 2, 0]],
                       "acm": np.zeros((2, 3)), "omega": np.zeros((2, 3)),
                       "omegadot": np.zeros((2, 3)), "f_ext": Z3, "p_ext": Z3},
    ne.lower_limb: {"markers": LEGS, "grf": GRF, "freq": 100.0, "segments": SEG},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(ne.invdyn2d, TypeError, "mass", mass="2"),
    case(ne.invdyn2d, TypeError, "rcm", rcm=[0, True]),
    case(ne.invdyn3d, TypeError, "R", R="identity"),
    case(ne.invdyn3d, TypeError, "mass", mass=None),
    case(ne.invdyn3d, TypeError, "omega", omega=[0, 0, 1j]),
    case(ne.lower_limb, TypeError, "segments", segments=3.0),
    case(ne.lower_limb, TypeError, "freq", freq="100"),
    case(ne.joint_loads3d, TypeError, "mass", mass=["1", "1"]),
    # wrong shapes and frame counts
    case(ne.invdyn2d, ValueError, "rcm", rcm=[0, 0.5, 0]),
    case(ne.invdyn3d, ValueError, "R", R=np.eye(2)),
    case(ne.invdyn3d, ValueError, "inertia", inertia=[0.1, 0.1, 0.1]),
    case(ne.invdyn3d, ValueError, "acm", acm=np.zeros((4, 3)), R=np.stack([EYE] * 5)),
    case(ne.joint_loads3d, ValueError, "inertia", inertia=[0.01 * EYE]),
    case(ne.lower_limb, ValueError, "markers", markers=LEGS[:, :6]),
    case(ne.lower_limb, ValueError, "segments.mass", segments={**SEG, "mass": [7.0, 3.0]}),
    # issue 34's long survey, round 2: a column of moments (N, 1) broadcast into (N, N, 2)
    # loads; the external load's frames were named by invdyn3d's rd; a 10 Hz rate and a
    # mismatched time vector did not say what arrived
    case(ne.invdyn2d, ValueError, "Md", rcm=np.zeros((5, 2)), Md=np.zeros((5, 1))),
    case(ne.invdyn2d, ValueError, "alpha", alpha=np.zeros((5, 1))),
    case(ne.joint_loads3d, ValueError, "p_ext", p_ext=np.zeros((4, 3)),
         **{k: np.zeros((3, 2, 3)) for k in ("rcm", "rp", "acm", "omega", "omegadot")}),
    case(ne.joint_loads3d, ValueError, "mass", mass=[]),  # named inertia's shape (0, 3, 3)
    case(ne.joint_loads3d, ValueError, "f_ext", f_ext=np.zeros((4, 3)),
         R=np.tile(EYE, (3, 2, 1, 1)),
         **{k: np.zeros((3, 2, 3)) for k in ("rcm", "rp", "acm", "omega", "omegadot")}),
    # non-finite values and signs
    case(ne.invdyn2d, ValueError, "Fd", Fd=[np.nan, 0]),
    case(ne.invdyn3d, ValueError, "mass", mass=-2.0),
    case(ne.invdyn3d, ValueError, "Md", Md=[0, np.inf, 0]),
    case(ne.lower_limb, ValueError, "freq", freq=0.0),
    case(ne.joint_loads3d, ValueError, "mass", mass=[1.0, -1.0]),
    # physics: not a rotation, a reflection, no rigid body's inertia (all were accepted)
    case(ne.invdyn3d, ValueError, "R", R=2 * EYE),
    case(ne.invdyn3d, ValueError, "R", R=np.diag([1.0, 1.0, -1.0])),
    case(ne.invdyn3d, ValueError, "inertia", inertia=-0.1 * EYE),
    case(ne.invdyn3d, ValueError, "inertia", inertia=np.diag([0.1, 0.1, 0.5])),
    case(ne.invdyn3d, ValueError, "inertia", inertia=[[0.1, 0.02, 0], [0, 0.1, 0], [0, 0, 0.1]]),
    case(ne.joint_loads3d, ValueError, "R", R=[EYE, 2 * EYE]),
    case(ne.joint_loads3d, ValueError, "inertia", inertia=[0.01 * EYE, -0.01 * EYE]),
    # units: a COM fraction in percent gave knee moments of 7e5 N m
    case(ne.lower_limb, ValueError, "segments.com_fraction",
         segments={**SEG, "com_fraction": [43.0, 43.0, 50.0]}),
    case(ne.lower_limb, ValueError, "segments.com_fraction",
         segments={**SEG, "com_fraction": [-0.1, 0.43, 0.5]}),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_percent_com_fraction_names_the_fraction():
    with pytest.raises(ValueError, match=r"percent: pass \[0\.43, 0\.43, 0\.5\]"):
        ne.lower_limb(LEGS, GRF, 100.0, {**SEG, "com_fraction": [43.0, 43.0, 50.0]})


def test_valid_input_gives_finite_output(rng):
    n = 20
    R = rotation_matrix(rng.uniform(-np.pi, np.pi, (n, 3)))
    moments = rng.uniform(0.05, 0.2, (n, 3))
    inertia = np.diag(moments[0])    # a real body: each moment below the sum of the others
    vecs = rng.uniform(-2, 2, (8, n, 3))
    Fp, Mp = ne.invdyn3d(*vecs[:6], R, 3.0, inertia, *vecs[6:])
    assert np.all(np.isfinite(Fp)) and np.all(np.isfinite(Mp))
    F, M = ne.joint_loads3d([2.0, 1.0], [inertia, inertia], np.stack([R, R], 1),
                            *rng.uniform(-1, 1, (5, n, 2, 3)), vecs[6], vecs[0])
    assert np.all(np.isfinite(F)) and np.all(np.isfinite(M))
    legs = LEGS + rng.normal(0, 0.01, LEGS.shape)
    res = ne.lower_limb(legs, GRF, 100.0, SEG)
    assert np.all(np.isfinite(res.forces)) and np.all(np.isfinite(res.moments))


@pytest.mark.parametrize(("freq", "time"), [(10.0, None), (1000.0, np.arange(10) / 100)])
def test_a_sampling_rate_refused_says_what_arrived(refuses, freq, time):
    message = refuses(ne.lower_limb, {**VALID[ne.lower_limb], "freq": freq, "time": time},
                      ValueError, "freq")
    assert f"got {freq:g} Hz" in message


def test_joint_loads3d_results_share_the_frames():
    # zero frames of rp with one frame of the rest: the forces had one frame and the
    # moments none (issue 34's long survey, round 2, at 100 examples)
    kwargs = {**VALID[ne.joint_loads3d], "rp": np.zeros((0, 2, 3))}
    forces, moments = ne.joint_loads3d(**kwargs)
    assert forces.shape == moments.shape == (0, 2, 3)
