"""bmc.kinematics: every bad input refused with a message naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import kinematics as kin

L2 = [0.3, 0.25]
Q = np.array([[0.1, 0.5], [0.2, 0.6], [0.3, 0.7]])
T = np.linspace(0.0, 1.0, 11)

VALID = {
    kin.planar_rotation: {"angle": 0.3},
    kin.forward_kinematics: {"lengths": L2, "q": Q},
    kin.jacobian: {"lengths": L2, "q": Q},
    kin.inverse_kinematics_2link: {"p": [0.3, 0.2], "l1": 0.3, "l2": 0.25},
    kin.joint_rates_2link: {"lengths": L2, "q": Q, "v": np.ones((3, 2))},
    kin.minimum_jerk: {"x0": 0.0, "xf": 1.0, "duration": 1.0, "t": T},
    kin.minimum_jerk_profile: {"s": T},
    kin.minimum_jerk_reach_2link: {"p0": [0.3, 0.1], "pf": [0.2, 0.3], "duration": 1.0,
                                   "t": T, "l1": 0.3, "l2": 0.25},
    kin.segment_angle: {"proximal": [0.0, 0.0], "distal": [1.0, 1.0]},
    kin.cross2: {"a": [1.0, 0.0], "b": [0.0, 1.0]},
    kin.perp: {"v": [1.0, 0.0]},
    kin.lever_kinematics: {"levers": [[0.3, 0.0], [0.3, 0.25]],
                           "axes": np.full((3, 2, 2), 0.5**0.5), "rates": np.ones((3, 2))},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types: text, booleans, complex angles (the imaginary part was dropped), None
    case(kin.planar_rotation, TypeError, "angle", angle="90"),
    case(kin.planar_rotation, TypeError, "angle", angle=True),
    case(kin.planar_rotation, TypeError, "angle", angle=0.3 + 0.2j),
    case(kin.planar_rotation, TypeError, "angle", angle=np.array([0.1, 0.2j])),
    case(kin.planar_rotation, TypeError, "angle", angle=None),
    case(kin.planar_rotation, TypeError, "angle", angle=[0.1, "0.2"]),
    case(kin.planar_rotation, TypeError, "angle", angle=np.array([object()])),
    case(kin.forward_kinematics, TypeError, "lengths", lengths="0.3, 0.25"),
    case(kin.forward_kinematics, TypeError, "q", q=Q + 1j),
    case(kin.forward_kinematics, TypeError, "q", q=[True, False]),
    # issue 34's long survey: an array switch raised NumPy's "truth value is ambiguous";
    # an empty start broadcast the movement to nothing (positions of shape (N, 0))
    case(kin.forward_kinematics, TypeError, "joints", joints=np.array([True, False])),
    case(kin.forward_kinematics, TypeError, "joints", joints="False"),
    case(kin.minimum_jerk, ValueError, "x0", x0=np.array([])),
    case(kin.minimum_jerk, ValueError, "xf", xf=[]),
    # q and lengths disagree: both are named (the message named q alone)
    case(kin.forward_kinematics, ValueError, "lengths", q=np.zeros((2, 3))),
    case(kin.jacobian, TypeError, "q", q=None),
    case(kin.inverse_kinematics_2link, TypeError, "l1", l1="0.3"),
    case(kin.inverse_kinematics_2link, TypeError, "p", p=[0.3, 0.2j]),
    case(kin.joint_rates_2link, TypeError, "v", v="fast"),
    case(kin.minimum_jerk, TypeError, "duration", duration=True),
    case(kin.minimum_jerk, TypeError, "x0", x0="0"),
    case(kin.minimum_jerk_profile, TypeError, "s", s="0.5"),
    case(kin.minimum_jerk_reach_2link, TypeError, "duration", duration="1"),
    case(kin.segment_angle, TypeError, "distal", distal=[1.0, 1.0j]),
    case(kin.cross2, TypeError, "b", b=None),
    case(kin.perp, TypeError, "v", v=["1", "0"]),
    # wrong shapes, frame counts, an empty chain
    case(kin.forward_kinematics, ValueError, "lengths", lengths=[]),
    case(kin.jacobian, ValueError, "lengths", lengths=[]),
    case(kin.forward_kinematics, ValueError, "lengths", lengths=[[0.3, 0.25]]),
    case(kin.forward_kinematics, ValueError, "q", q=Q[:, :1]),
    case(kin.joint_rates_2link, ValueError, "lengths", lengths=[0.3, 0.25, 0.2]),
    case(kin.joint_rates_2link, ValueError, "v", v=np.ones((3, 3))),
    case(kin.inverse_kinematics_2link, ValueError, "p", p=[0.3]),
    case(kin.minimum_jerk, ValueError, "t", t=np.ones((2, 2))),
    case(kin.lever_kinematics, ValueError, "rates", rates=np.ones((4, 2))),
    case(kin.segment_angle, ValueError, "proximal", proximal=[0.0, 0.0, 0.0]),
    case(kin.cross2, ValueError, "a", a=[1.0, 0.0, 0.0]),
    # non-finite values
    case(kin.planar_rotation, ValueError, "angle", angle=np.nan),
    case(kin.forward_kinematics, ValueError, "q", q=np.where(Q > 0.5, np.inf, Q)),
    case(kin.inverse_kinematics_2link, ValueError, "p", p=[np.nan, 0.2]),
    case(kin.minimum_jerk, ValueError, "duration", duration=np.inf),
    case(kin.minimum_jerk_profile, ValueError, "s", s=[0.2, np.nan]),
    case(kin.cross2, ValueError, "a", a=np.array([[0.0, 1.0], [np.nan, 0.0]])),
    case(kin.cross2, ValueError, "b", b=[0.0, np.inf]),
    case(kin.cross2, ValueError, "a", a=[1e200, 0.0], b=[0.0, 1e200]),  # was an overflow
    case(kin.segment_angle, ValueError, "distal", distal=[np.nan, 1.0]),
    # wrong signs
    case(kin.forward_kinematics, ValueError, "lengths", lengths=[0.3, -0.25]),
    case(kin.jacobian, ValueError, "lengths", lengths=[0.0, 0.25]),
    case(kin.inverse_kinematics_2link, ValueError, "l2", l2=-0.25),
    case(kin.minimum_jerk, ValueError, "duration", duration=-1.0),
    case(kin.minimum_jerk_reach_2link, ValueError, "duration", duration=0.0),
    # out of range and singular configurations
    case(kin.inverse_kinematics_2link, ValueError, "p", p=[1.0, 1.0]),       # out of reach
    case(kin.inverse_kinematics_2link, ValueError, "elbow", elbow="sideways"),
    case(kin.minimum_jerk_reach_2link, ValueError, "pf", pf=[2.0, 0.0]),
    case(kin.segment_angle, ValueError, "proximal", distal=[0.0, 0.0]),     # no direction
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


@pytest.mark.parametrize("seed", range(4))
def test_no_nan_or_inf_from_finite_valid_input(seed):
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(0.1, 1.0, 2)
    q = rng.uniform(-4, 4, (20, 2))
    p = kin.forward_kinematics(lengths, q)
    outs = [kin.planar_rotation(q[:, 0]), p, kin.jacobian(lengths, q),
            kin.inverse_kinematics_2link(p, *lengths),
            *kin.minimum_jerk(q[0], q[1], 0.7, np.linspace(-0.1, 0.8, 30)),
            *kin.minimum_jerk_profile(q),
            kin.segment_angle(p, p + 0.1), kin.perp(p), kin.cross2(p, p[::-1])]
    assert all(np.all(np.isfinite(o)) for o in outs)


def test_the_profile_keeps_any_shape_of_s():
    # documented: each output has the shape of s (a column of times stays a column)
    s = np.array([[0.0], [0.5], [2.0]])
    assert all(out.shape == (3, 1) for out in kin.minimum_jerk_profile(s))
