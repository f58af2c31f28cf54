"""Exact checks of exercise set 5 (grader side: never shipped to students)."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_choice, check_sign, check_value, problem
from bmc.checks._reactions import _NB5

__all__ = [
    "check_reactions_E",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]



def _positions(q: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Absolute coordinates p = g(q, z) of eq. (3.1): [x2, y2, th2, x3, y3, th3, x4, ...]."""
    p = problem("reactions")
    (l2, l3), (c2, c3, c4) = p.lengths, p.c
    xh, yh, f2, f3, f4 = q
    s, c = np.sin, np.cos
    x2, y2 = xh + z[0] + c2 * s(f2), yh + z[1] - c2 * c(f2)
    xk, yk = xh + z[0] + l2 * s(f2) + z[2], yh + z[1] - l2 * c(f2) + z[3]
    x3, y3 = xk + c3 * s(f3), yk - c3 * c(f3)
    xa, ya = xk + l3 * s(f3) + z[4], yk - l3 * c(f3) + z[5]
    x4, y4 = xa + c4 * s(f4), ya - c4 * c(f4)
    return np.array([x2, y2, f2, x3, y3, f3, x4, y4, f4])


def _E() -> np.ndarray:
    """E = dg/dz at z = 0; g is affine in z, so differences are exact."""
    q = problem("reactions").q
    base = _positions(q, np.zeros(6))
    return np.stack([_positions(q, np.eye(6)[j]) - base for j in range(6)], axis=1)


def _accelerations(q: np.ndarray, qd: np.ndarray, qdd: np.ndarray) -> np.ndarray:
    """Second time derivative of p (9,), eq. (3.1) differentiated twice at z = 0."""
    p = problem("reactions")
    (l2, l3), (c2, c3, c4) = p.lengths, p.c
    _, _, *phi = q
    _, _, *w = qd
    axh, ayh, *a = qdd

    def term(length, k):  # d^2/dt^2 of (length sin phi_k, -length cos phi_k)
        return length * np.array([a[k] * np.cos(phi[k]) - w[k] ** 2 * np.sin(phi[k]),
                                  a[k] * np.sin(phi[k]) + w[k] ** 2 * np.cos(phi[k])])

    hip = np.array([axh, ayh])
    knee = hip + term(l2, 0)
    ankle = knee + term(l3, 1)
    return np.concatenate([hip + term(c2, 0), [a[0]], knee + term(c3, 1), [a[1]],
                           ankle + term(c4, 2), [a[2]]])


def _paper_lambda(pdd: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Eq. (3.3): each reaction is the bed force minus weight and inertia of what is below."""
    p = problem("reactions")
    m, g = p.masses, p.g
    acc = pdd.reshape(3, 3)[:, :2]
    out = []
    for first in range(3):  # hip: segments 2-4; knee: 3-4; ankle: 4
        below = slice(first, 3)
        out += [R[0] - m[below] @ acc[below, 0],
                R[1] - m[below].sum() * g - m[below] @ acc[below, 1]]
    return np.array(out)


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
    p = problem("reactions")
    return check_value(
        "pdd", pdd, _accelerations(p.q, p.qd, p.qdd), rtol=1e-4, atol=1e-9,
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
    p = problem("reactions")
    expected = _paper_lambda(_accelerations(p.q, p.qd, p.qdd), p.R)
    return check_value(
        "lam", lam, expected, rtol=1e-4, atol=1e-6, unit="N",
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
    fall = np.tile([0.0, -p.g, 0.0], 3)
    flight = _paper_lambda(fall, np.zeros(2))
    scale = p.masses.sum() * p.g
    check_sign("sign_lam2_flight", sign_lam2_flight, flight[1], atol=1e-9 * scale,
               hint=f"{_NB5}, section 3.1, eq. (3.3): in free fall each segment's weight exactly "
               "provides its acceleration; what is left for the joints?")
    support = _paper_lambda(_accelerations(p.q, p.qd, p.qdd), p.R)
    joints = ["hip", "knee", "ankle"]
    return check_choice(
        "largest_vertical", largest_vertical, joints[int(np.argmax(support[1::2]))],
        choices=joints,
        hint="compare lambda2, lambda4 and lambda6: each joint carries the bed force minus "
        "the weight and the inertia of the segments below it.")
