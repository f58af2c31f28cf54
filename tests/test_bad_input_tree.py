"""bmc.tree (bmc.planar) and bmc.reactions: bad input refused by name (COM on its segment, integer
parents, contact point finite and on its segment, arrays of the same frames)."""

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
Q5 = np.zeros((5, 9))           # five frames; the cases below give another argument four
STATE = {"q": Z, "qd": Z, "qdd": Z}
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
    MODEL.kinematics: STATE,
    MODEL.gamma: {"q": Z, "qd": Z},
    MODEL.bias_forces: {"q": Z, "qd": Z},
    MODEL.absolute_coordinates: {"q": Z, "z": np.zeros(12)},
    MODEL.contact_inverse_dynamics: {**STATE, "contact_point": ("foot", 0.1)},
    MODEL.inverse_dynamics: {**STATE, "contact_point": ("foot", 0.1)},
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
    case(reactions.reactions_augmented, TypeError, "model", model="human"),
    case(MODEL.contact_inverse_dynamics, TypeError, "contact_point", contact_point="foot"),
    case(MODEL.contact_inverse_dynamics, TypeError, "contact_point",
         contact_point=("foot", "0.1")),
    case(reactions.reactions_newton_euler, TypeError, "contact_point",
         contact_point=("foot", None)),
    case(reactions.reactions_augmented, TypeError, "q", q=["0"] * 9),
    # wrong shapes, unknown names
    case(PlanarTree, ValueError, "com", com=[0.17]),
    case(PlanarTree, ValueError, "parent", parent=[-1, 1]),
    case(MODEL.segment_index, ValueError, "segment", segment="toe"),
    case(MODEL.contact_inverse_dynamics, ValueError, "q", q=np.zeros(8)),
    case(MODEL.contact_inverse_dynamics, ValueError, "contact_point",
         contact_point=("toe", 0.1)),
    case(reactions.minimal_form, ValueError, "h", h=np.zeros(20)),
    case(reactions.reactions_classical, ValueError, "qd", qd=np.zeros((3, 8))),
    # non-finite values, signs
    case(PlanarTree, ValueError, "lengths", lengths=[0.4, -0.4]),
    case(PlanarTree, ValueError, "inertias", inertias=[0.1, np.nan]),
    case(MODEL.point, ValueError, "distance", distance=np.nan),
    case(MODEL.contact_inverse_dynamics, ValueError, "qdd", qdd=np.full(9, np.inf)),
    # contact point at NaN returned all-NaN; off the segment gave a wrong answer
    case(MODEL.contact_inverse_dynamics, ValueError, "contact_point",
         contact_point=("foot", np.nan)),
    case(reactions.reactions_newton_euler, ValueError, "contact_point",
         contact_point=("foot", np.nan)),
    case(MODEL.applied_forces, ValueError, "contact_point", contact_point=("foot", np.inf)),
    case(MODEL.contact_inverse_dynamics, ValueError, "contact_point",
         contact_point=("foot", 10.0)),
    # physics: a 5 m COM on a 0.4 m thigh was accepted
    case(PlanarTree, ValueError, "com", com=[5.0, 0.17]),
    case(PlanarTree, ValueError, "com", com=[0.17, -0.1]),
    case(PlanarTree, ValueError, "g", g=981.0),                         # cm/s^2
    case(MODEL.joint_columns, TypeError, "joints", joints=[1.5]),
    case(MODEL.joint_columns, ValueError, "joint", joints=["toe"]),
    # arrays of different frames failed with NumPy's "operands could not be broadcast"
    case(MODEL.kinematics, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(MODEL.kinematics, ValueError, "qdd", q=Q5, qd=Q5, qdd=np.zeros((4, 9))),
    case(MODEL.gamma, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(MODEL.bias_forces, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(MODEL.absolute_coordinates, ValueError, "z", q=Q5, z=np.zeros((4, 12))),
    case(MODEL.applied_forces, ValueError, "torques", q=Q5, torques=np.zeros((4, 6))),
    case(MODEL.applied_forces, ValueError, "contact_force", q=Q5,
         contact_force=np.zeros((4, 2))),
    case(MODEL.applied_forces, ValueError, "contact_moment", q=Q5,
         contact_moment=np.zeros(4)),
    case(MODEL.contact_inverse_dynamics, ValueError, "qdd", q=Q5, qdd=np.zeros((4, 9))),
    case(MODEL.contact_inverse_dynamics, ValueError, "contact_force", q=Q5,
         contact_force=np.zeros((4, 2))),
    case(MODEL.contact_inverse_dynamics, ValueError, "contact_moment", q=Q5,
         contact_moment=np.zeros(4)),
    case(MODEL.inverse_dynamics, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(MODEL.contact_inverse_dynamics, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(reactions.minimal_form, ValueError, "h", q=Q5, qd=Q5, h=np.zeros((4, 21))),
    case(reactions.reactions_augmented, ValueError, "qdd", q=Q5, qd=Q5,
         qdd=np.zeros((4, 9))),
    case(reactions.reactions_augmented, ValueError, "h", q=Q5, h=np.zeros((4, 21))),
    case(reactions.reactions_classical, ValueError, "qd", q=Q5, qd=np.zeros((4, 9))),
    case(reactions.reactions_newton_euler, ValueError, "qdd", q=Q5, qdd=np.zeros((4, 9))),
    case(reactions.reactions_newton_euler, ValueError, "contact_force", q=Q5,
         contact_force=np.zeros((4, 2))),
    case(reactions.reactions_newton_euler, ValueError, "contact_moment", q=Q5,
         contact_moment=np.zeros(4)),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{getattr(c[0], '__name__', 'f')}-{c[3]}-{i}"
                              for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_different_frames_are_refused_with_both_counts():
    # the message names every argument with its shape and says what to pass
    with pytest.raises(ValueError) as info:
        MODEL.kinematics(Q5, np.zeros((4, 9)), Q5)
    message = str(info.value)
    for text in ("q (5, 9)", "qd (4, 9)", "qdd (5, 9)", "same number of frames",
                 "or one frame"):
        assert text in message, message


def test_one_frame_goes_with_many(rng):
    # a single frame (a posture, a constant load) broadcasts against N frames
    q, qd, qdd = rng.uniform(-1, 1, (3, 6, 9))
    cp = ("foot", 0.1)
    for args in ((q[0], qd, qdd), (q, qd[0], qdd[0])):
        full = [np.broadcast_to(x, q.shape) for x in args]
        for got, want in zip(MODEL.kinematics(*args), MODEL.kinematics(*full), strict=True):
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(MODEL.gamma(*args[:2]), MODEL.gamma(*full[:2]))
        np.testing.assert_array_equal(MODEL.inverse_dynamics(*args, contact_point=cp),
                                      MODEL.inverse_dynamics(*full, contact_point=cp))
    h = MODEL.applied_forces(q[0], torques=rng.uniform(-50, 50, (6, 6)), contact_moment=2.0,
                             contact_point=cp)
    assert h.shape == (6, 21)


def test_valid_input_gives_finite_output(rng):
    q, qd, qdd = rng.uniform(-1, 1, (3, 10, 9))
    res = MODEL.contact_inverse_dynamics(q, qd, qdd,
                                         contact_point=("foot", float(rng.uniform(0, 0.2))))
    for value in (res.contact_force, res.contact_moment, res.torques, res.residual):
        assert np.all(np.isfinite(value))
    h = MODEL.applied_forces(q, torques=rng.uniform(-50, 50, (10, 6)))
    assert np.all(np.isfinite(reactions.reactions_augmented(MODEL, q, qd, qdd, h)))
    assert np.all(np.isfinite(reactions.reactions_classical(MODEL, q, qd, h)))


@pytest.mark.parametrize("empty", ["q", "contact_moment"])
def test_zero_frames_give_zero_frames_of_reactions(empty):
    # an empty record (or an empty contact moment, broadcast with one frame) is zero frames,
    # and the reactions are zero frames of them; it raised NumPy's "cannot reshape array of
    # size 0" (issue 34's long survey, round 2)
    kwargs = dict(VALID[reactions.reactions_newton_euler])
    if empty == "q":
        kwargs.update({k: np.zeros((0, 9)) for k in ("q", "qd", "qdd")},
                      contact_force=np.zeros((0, 2)))
    else:
        kwargs["contact_moment"] = np.array([])
    lam, moments = reactions.reactions_newton_euler(**kwargs)
    assert lam.shape[0] == moments.shape[0] == 0
    assert lam.shape[1:] == reactions.reactions_newton_euler(
        **VALID[reactions.reactions_newton_euler])[0].shape
