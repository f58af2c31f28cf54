"""Exact checks of exercise set 5 (grader side: never shipped to students).

Every expected value comes from the student's jumper built by
:func:`bmc.models.human.human_model`: ``E`` and the accelerations from the tree
(:meth:`bmc.tree.PlanarTree.jacobian_z`, :meth:`~bmc.tree.PlanarTree.kinematics`), the
reactions from eq. (3.3) in :func:`bmc.models.human.leg_reactions`. The students' route is
eq. (2.10) with their own ``E``, ``M`` and ``h``; ``tests/test_checks.py`` checks both
routes against finite differences and :func:`bmc.reactions.reactions_augmented`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_choice, check_sign, check_value, problem
from bmc.checks._joint_reactions import _NB5

__all__ = [
    "check_reactions_E",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]



def _model():
    """The student's jumper: :func:`bmc.models.human.human_model`, and its leg indices."""
    from bmc.models.human import human_model, leg_segments

    p = problem("reactions")
    model = human_model(body_mass=p.body_mass, height=p.height)
    return model, list(leg_segments(model))


def _full(model, legs: list[int], leg_q: np.ndarray) -> np.ndarray:
    """The tree's coordinates with the leg's ``[x_H, y_H, phi2, phi3, phi4]``, others 0."""
    q = np.zeros(model.k)
    q[:2] = leg_q[:2]
    q[[2 + i for i in legs]] = leg_q[2:]
    return q


def _E() -> np.ndarray:
    """E = dg/dz of the tree (:meth:`PlanarTree.jacobian_z`), leg rows, hip-knee-ankle columns."""
    model, legs = _model()
    rows = [3 * i + r for i in legs for r in range(3)]
    return model.jacobian_z()[np.ix_(rows, model.joint_columns(["hip", "knee", "ankle"]))]


def _accelerations() -> np.ndarray:
    """pdd (9,): COM accelerations of thigh, shank, foot (:meth:`PlanarTree.kinematics`)."""
    p = problem("reactions")
    model, legs = _model()
    qdd = _full(model, legs, p.qdd)
    _, _, acc = model.kinematics(_full(model, legs, p.q), _full(model, legs, p.qd), qdd)
    return np.concatenate([np.r_[acc[i], qdd[2 + i]] for i in legs])


def _lambda(flight: bool = False) -> np.ndarray:
    """Eq. (3.3) by :func:`bmc.models.human.leg_reactions`; in ``flight``: free fall, R = 0."""
    from bmc.models.human import leg_reactions

    p = problem("reactions")
    model, legs = _model()
    if flight:  # every point accelerates at -g, nothing turns, nothing pushes
        zero = np.zeros(model.k)
        return leg_reactions(model, _full(model, legs, p.q), zero,
                             np.r_[0.0, -model.g, zero[2:]], [0.0, 0.0])
    return leg_reactions(model, *(_full(model, legs, x) for x in (p.q, p.qd, p.qdd)), p.R)


def check_reactions_E(E: Any) -> bool:
    """Question: the (9, 6) matrix ``E = dg/dz`` of the augmented joint coordinates.

    Parameters
    ----------
    E : array_like, shape (9, 6)
        Rows ``[x2, y2, theta2, x3, y3, theta3, x4, y4, theta4]``, columns ``z1 ... z6``
        (hip x, y; knee x, y; ankle x, y).

    Returns
    -------
    bool
        ``True`` if right.
    """
    return check_value(
        "E", E, _E(), rtol=0, atol=1e-9, unit="-",
        hint=f"{_NB5}, section 2.2 and eq. (3.1)-(3.2): a prohibited translation z at a joint "
             "moves every "
        "segment below that joint by the same amount and turns none of them; E holds "
        "the coefficients of z in p = g(q, z).")


def check_reactions_accelerations(pdd: Any) -> bool:
    """Question: absolute accelerations ``pdd = D qdd + gamma`` (9,) at the given state.

    Parameters
    ----------
    pdd : array_like, shape (9,)
        ``[x2'', y2'', theta2'', x3'', ...]`` [m/s^2, rad/s^2].

    Returns
    -------
    bool
        ``True`` if right.
    """
    return check_value(
        "pdd", pdd, _accelerations(), rtol=1e-4, atol=1e-9,
        unit="m/s^2, rad/s^2",
        hint=f"{_NB5}, section 2.2: differentiate x = x_H + c sin(phi), y = y_H - c cos(phi) "
             "twice "
        "(chain rule: phi'' cos(phi) - phi'^2 sin(phi) for x); the shank's centre adds the "
        "whole thigh length l2, the foot's adds l2 and l3; theta_i'' = phi_i''.")


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
    return check_value(
        "lam", lam, _lambda(), rtol=1e-4, atol=1e-6, unit="N",
        hint=f"{_NB5}, section 3, eq. (2.10): lambda = E^T (h - M pdd) with M = diag(m2, m2, "
             "J2, ...) "
        "(the J's do not matter: why?) and h holding the weights (-m g on the y rows) and "
        "the bed force R on the foot's x and y rows.")


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
    flight = _lambda(flight=True)
    scale = p.masses.sum() * p.g
    check_sign("sign_lam2_flight", sign_lam2_flight, flight[1], atol=1e-9 * scale,
               hint=f"{_NB5}, section 3.1, eq. (3.3): in free fall each segment's weight exactly "
               "provides its acceleration; what is left for the joints?")
    support = _lambda()
    joints = ["hip", "knee", "ankle"]
    return check_choice(
        "largest_vertical", largest_vertical, joints[int(np.argmax(support[1::2]))],
        choices=joints,
        hint="compare lambda2, lambda4 and lambda6: each joint carries the bed force minus "
        "the weight and the inertia of the segments below it.")
