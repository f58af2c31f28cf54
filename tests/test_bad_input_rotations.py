"""bmc.rotations: every bad input refused with a message naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import rotations as rot

T = np.arange(0.0, 1.0, 0.01)
ANGLES = np.stack([0.3 * T, 0.2 * np.sin(T), 1.5 * T], axis=-1)
R = rot.rotation_matrix(ANGLES)
REFLECTED = R.copy()
REFLECTED[40:, :, 2] *= -1          # a left-handed set of axes from frame 40 on
SCALED = 2.0 * np.broadcast_to(np.eye(3), (10, 3, 3))
SHEARED = R.copy()
SHEARED[5, 0, 1] += 0.1
NAN_R = R.copy()
NAN_R[3, 1, 1] = np.nan

VALID = {
    rot.axis_rotation: {"axis": "z", "angle": 0.3},
    rot.rotation_matrix: {"angles": [0.1, 0.2, 0.3]},
    rot.rotation_kinematics: {"angles": ANGLES, "rates": ANGLES, "accelerations": ANGLES},
    rot.angular_velocity: {"R": R, "dt": 0.01},
    rot.angular_acceleration: {"R": R, "dt": 0.01},
    rot.skew: {"a": [1.0, 2.0, 3.0]},
    rot.point_acceleration: {"omega": [0.0, 0.0, 2.0], "omegadot": [0.0, 0.0, 1.0],
                             "r": [0.5, 0.0, 0.0]},
    rot.vee: {"S": rot.skew([1.0, 2.0, 3.0])},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(rot.point_acceleration, TypeError, "omega", omega="2"),
    case(rot.point_acceleration, ValueError, "r", r=[0.5, 0.0]),
    case(rot.point_acceleration, ValueError, "omegadot", omegadot=[0.0, np.nan, 1.0]),
    case(rot.point_acceleration, ValueError, "r", omega=np.ones((4, 3)), r=np.ones((5, 3))),
    case(rot.axis_rotation, TypeError, "axis", axis=True),
    case(rot.axis_rotation, TypeError, "axis", axis=None),
    case(rot.axis_rotation, TypeError, "axis", axis=1.0),
    case(rot.axis_rotation, TypeError, "angle", angle="90"),
    case(rot.axis_rotation, TypeError, "angle", angle=True),
    case(rot.axis_rotation, TypeError, "angle", angle=0.3 + 0.1j),
    case(rot.axis_rotation, TypeError, "angle", angle=None),
    case(rot.axis_rotation, TypeError, "angle", angle=[0.1, None]),
    case(rot.rotation_matrix, TypeError, "angles", angles="90"),
    case(rot.rotation_matrix, TypeError, "angles", angles=["0.1", "0.2", "0.3"]),
    case(rot.rotation_matrix, TypeError, "angles", angles=[True, False, True]),
    case(rot.rotation_matrix, TypeError, "angles", angles=np.array([0.1, 0.2, 0.3j])),
    case(rot.rotation_matrix, TypeError, "angles", angles=np.array([{}, {}, {}])),
    case(rot.rotation_matrix, TypeError, "sequence", sequence=None),
    case(rot.rotation_matrix, TypeError, "intrinsic", intrinsic="no"),
    case(rot.rotation_matrix, TypeError, "intrinsic", intrinsic=0),
    case(rot.rotation_kinematics, TypeError, "rates", rates="fast"),
    case(rot.rotation_kinematics, TypeError, "intrinsic", intrinsic=None),
    case(rot.angular_velocity, TypeError, "R", R="R"),
    case(rot.angular_velocity, TypeError, "dt", dt="0.01"),
    case(rot.angular_velocity, TypeError, "dt", dt=True),
    case(rot.skew, TypeError, "a", a=[1, 2, 3j]),
    case(rot.vee, TypeError, "S", S=None),
    case(rot.vee, TypeError, "atol", atol="1e-9"),
    # wrong shapes and frame counts
    case(rot.rotation_matrix, ValueError, "angles", angles=[0.1, 0.2]),
    case(rot.rotation_matrix, ValueError, "angles", angles=[[0.1, 0.2, 0.3], [0.1]]),
    case(rot.rotation_kinematics, ValueError, "rates", rates=ANGLES[:, :2]),
    case(rot.angular_velocity, ValueError, "R", R=R[:2]),
    case(rot.angular_velocity, ValueError, "R", R=R[0]),
    case(rot.angular_velocity, ValueError, "R", R=R[:, :2, :2]),
    case(rot.skew, ValueError, "a", a=[1.0, 2.0]),
    case(rot.vee, ValueError, "S", S=np.eye(2)),
    # non-finite values
    case(rot.axis_rotation, ValueError, "angle", angle=np.nan),
    case(rot.rotation_matrix, ValueError, "angles", angles=[0.1, np.inf, 0.3]),
    case(rot.rotation_kinematics, ValueError, "accelerations",
         accelerations=np.where(T[:, None] > 0.5, np.nan, ANGLES)),
    case(rot.angular_velocity, ValueError, "R", R=NAN_R),
    case(rot.angular_velocity, ValueError, "dt", dt=np.nan),
    case(rot.skew, ValueError, "a", a=[np.nan, 0, 0]),
    # wrong signs
    case(rot.angular_velocity, ValueError, "dt", dt=-0.01),
    case(rot.angular_acceleration, ValueError, "dt", dt=0.0),
    # np.gradient read an array dt as sample times (issue 34's long survey, round 2)
    case(rot.angular_acceleration, ValueError, "dt", dt=[0.01, 0.02]),
    case(rot.vee, ValueError, "atol", atol=-1e-9),
    # out of range: not rotations, reflections, unknown axes and sequences
    case(rot.axis_rotation, ValueError, "axis", axis="w"),
    case(rot.axis_rotation, ValueError, "axis", axis=3),
    case(rot.rotation_matrix, ValueError, "sequence", sequence="xxz"),
    case(rot.rotation_matrix, ValueError, "sequence", sequence="xy"),
    case(rot.rotation_kinematics, ValueError, "frame", frame="world"),
    case(rot.angular_velocity, ValueError, "frame", frame=None),
    case(rot.angular_velocity, ValueError, "R", R=REFLECTED),
    case(rot.angular_velocity, ValueError, "R", R=SCALED),
    case(rot.angular_velocity, ValueError, "R", R=SHEARED),
    case(rot.angular_acceleration, ValueError, "R", R=REFLECTED),
    case(rot.vee, ValueError, "S", S=np.eye(3)),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_a_reflection_is_named_with_its_first_frame():
    with pytest.raises(ValueError, match=r"reflection \(det R = -1\) in frame \(40,\)"):
        rot.angular_velocity(REFLECTED, 0.01)


def test_a_scaled_rotation_says_how_to_fix_it():
    with pytest.raises(ValueError, match=r"scaled by 2\b.*divide each column by its length"):
        rot.angular_velocity(SCALED, 0.01)


@pytest.mark.parametrize("seed", range(4))
def test_no_nan_or_inf_from_finite_valid_input(seed):
    rng = np.random.default_rng(seed)
    n = 50
    q = np.cumsum(rng.normal(0, 0.05, (n, 3)), axis=0) * rng.uniform(0.1, 20)
    qd, qdd = rng.normal(0, 5, (n, 3)), rng.normal(0, 50, (n, 3))
    for seq in ("xyz", "zxz", "yzx"):
        for intrinsic in (True, False):
            Rm, w, a = rot.rotation_kinematics(q, qd, qdd, sequence=seq, intrinsic=intrinsic)
            outs = [Rm, w, a, rot.angular_velocity(Rm, 0.01),
                    rot.angular_acceleration(Rm, 0.01, frame="global"),
                    rot.vee(rot.skew(w))]
            assert all(np.all(np.isfinite(o)) for o in outs)


def test_one_number_as_an_array_is_that_number_and_not_rotations_say_what_arrived():
    np.testing.assert_array_equal(rot.angular_acceleration(R, np.array([0.01])),
                                  rot.angular_acceleration(R, 0.01))
    with pytest.raises(ValueError, match=r"got a largest \|R R\^T - I\| entry of 1 "):
        rot.angular_velocity(np.eye(3) * np.ones((5, 1, 1)) / 1000, 0.01)
