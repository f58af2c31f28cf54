"""Exact checks of exercise set 5 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._joint_reactions` (``answer_*``: ``Z`` and
the accelerations from the tree, :meth:`bmc.tree.PlanarTree.jacobian_z` and
:meth:`~bmc.tree.PlanarTree.kinematics`, the reactions from eq. (3.3) in
:func:`bmc.models.human.leg_reactions`), here on the student's own jumper. The students'
route is eq. (2.10) with their own ``Z``, ``M_p`` and ``h``; ``tests/test_checks.py`` checks
both routes against finite differences and :func:`bmc.reactions.reactions_augmented`.

``Z`` and the predictions have few possible values (``Z`` holds zeros and ones and is the
same for everyone): their messages name concepts, never an entry or which answer is wrong.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import _fail, _numeric, check_value, problem
from bmc.checks._joint_reactions import (
    _ACC_HINT,
    _LAM_HINT,
    _Z_HINT,
    _degrees,
    _inertial_sign,
    _Z_concept,
    answer_accelerations,
    answer_reactions,
    answer_Z,
)
from bmc.checks._practice import check_group
from bmc.checks._sections import section

__all__ = [
    "check_reactions_Z",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]


def check_reactions_Z(Z: Any) -> bool:
    """Question: the (9, 6) matrix ``Z = dp/dz`` of the augmented joint coordinates.

    Parameters
    ----------
    Z : array_like, shape (9, 6)
        Rows ``[x2, y2, psi2, x3, y3, psi3, x4, y4, psi4]``, columns ``z1 ... z6``
        (hip x, y; knee x, y; ankle x, y).

    Returns
    -------
    bool
        ``True`` if right.
    """
    hint = _Z_HINT
    got = _numeric("Z", Z, shape=(9, 6), unit="-", hint=hint)
    if np.allclose(got, answer_Z(3), rtol=0, atol=1e-9):
        return True
    concept = _Z_concept(got, 3)
    raise _fail("Z", "is not correct yet" + (f": {concept}" if concept else ""), hint)


def check_reactions_accelerations(pdd: Any) -> bool:
    """Question: absolute accelerations ``pdd = D qdd + gamma`` (9,) at the given state.

    Parameters
    ----------
    pdd : array_like, shape (9,)
        ``[x2'', y2'', psi2'', x3'', ...]`` [m/s^2, rad/s^2].

    Returns
    -------
    bool
        ``True`` if right.
    """
    p = problem("reactions")
    return check_value(
        "pdd", pdd, answer_accelerations(p)[0], rtol=1e-4, atol=1e-9,
        unit="m/s^2, rad/s^2",
        mistakes=[("the accelerations with the angles taken in degrees",
                   answer_accelerations(_degrees(p))[0]),
                  ("the accelerations without the hip's own",
                   answer_accelerations(p.modified(qdd=np.r_[0.0, 0.0, p.qdd[2:]]))[0])],
        hint=_ACC_HINT)


def check_reactions_lambda(lam: Any) -> bool:
    """Question: the six joint reactions (6,) [N] by eq. (2.10).

    Parameters
    ----------
    lam : array_like, shape (6,)
        ``[lambda1 ... lambda6]``: x and y at hip, knee, ankle [N].

    Returns
    -------
    bool
        ``True`` if right.
    """
    p = problem("reactions")
    return check_value(
        "lam", lam, answer_reactions(p)[0], rtol=1e-4, atol=1e-6, unit="N",
        mistakes=[("the reactions without the bed force",
                   answer_reactions(p.modified(F_bed=[0.0, 0.0]))[0]),
                  ("the reactions with the weights of the wrong sign",
                   answer_reactions(p.modified(g=-p.g))[0]),
                  ("Z^T (h + M_p pdd): the inertial forces with the wrong sign",
                   _inertial_sign(p)[0])],
        hint=_LAM_HINT)


def check_reactions_predictions(sign_lam2_flight: Any, largest_vertical: Any) -> bool:
    """Question: reactions in free flight, and where the vertical reaction is largest.

    Parameters
    ----------
    sign_lam2_flight : int or str
        Sign of the vertical hip reaction lambda2 in an idealised flight: the bed force is
        zero and every segment's centre of mass accelerates at -g without rotation (in
        real flight the segments rotate and the hip reaction is not zero).
    largest_vertical : {"hip", "knee", "ankle"}
        Joint with the largest vertical reaction at the given support-phase state.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    p = problem("reactions")
    flight = answer_reactions(p, flight=True)[0]
    scale = p.masses.sum() * p.g
    check_group([("sign_lam2_flight", sign_lam2_flight, flight[1] / scale)], kind="sign",
                hint=section("reactions.formulas", "in free fall each segment's weight "
                             "exactly provides its acceleration; what is left for the "
                             "joints?"))
    joints = ["hip", "knee", "ankle"]
    support = answer_reactions(p)[0]
    return check_group(
        [("largest_vertical", largest_vertical, joints[int(np.argmax(support[1::2]))])],
        kind="choice", choices=joints,
        hint=section("reactions.formulas", "compare lambda2, lambda4 and lambda6: each joint "
                     "carries the bed force minus the weight and the inertia of the segments "
                     "below it"))
