"""Exact checks of exercise set 3 (grader side: never shipped to students)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bmc.checks._core import (
    check_function,
    check_value,
    problem,
)
from bmc.checks._matrix_formalism import _NB3

__all__ = [
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
]



_SKEW_CASES = [(np.array([1.0, 0.0, 0.0]),), (np.array([0.0, 0.0, 2.0]),),
               (np.array([0.3, -1.2, 2.5]),)]


def check_matrix_form_skew(skew: Any) -> bool:
    """Question: the skew-symmetric operator, ``skew(v) @ w == np.cross(v, w)``.

    Parameters
    ----------
    skew : callable
        The student's function of a 3-vector returning a (3, 3) matrix.

    Returns
    -------
    bool
        ``True`` if right for several vectors.
    """
    vectors = _SKEW_CASES
    expected = [np.cross(v, np.eye(3)).T for (v,) in vectors]  # columns: v x e_j
    return check_function(
        "skew", skew, vectors, expected, unit="-",
        hint=f"{_NB3}, section 5 (the skew operator): write v x w component by component and "
             "read off "
        "the matrix that multiplies w; it is antisymmetric (S^T = -S).")


def _seed_double_pendulum(*, wrong_gravity: bool = False) -> np.ndarray:
    """Angular accelerations of the source's double pendulum, from its own matrices.

    ``M``, ``C`` and ``G`` of :class:`bmc.models.double_pendulum.DoublePendulum` (the
    source's equations, corrected); ``wrong_gravity`` puts back the source's error, the
    weight of rod 2 acting on joint 1 with the lever ``l2`` instead of ``l1``.
    """
    from bmc.models.double_pendulum import DoublePendulum

    p = problem("matrix_form")
    (m1, m2), (l1, l2) = p.m, p.l
    pend = DoublePendulum(m1, m2, l1, l2, g=p.g)
    rhs = pend.velocity_terms(p.theta, p.omega) + pend.gravity_terms(p.theta)
    if wrong_gravity:
        rhs[0] -= m2 * p.g * (l2 - l1) * math.sin(p.theta[0])
    return np.linalg.solve(pend.mass_matrix(p.theta), rhs)


def _double_pendulum_chain() -> np.ndarray:
    """Return the same accelerations from bmc.PlanarChain (absolute angles from +x)."""
    from bmc.chain import PlanarChain

    p = problem("matrix_form")
    (m1, m2), (l1, l2) = p.m, p.l
    chain = PlanarChain([l1, l2], [l1 / 2, l2 / 2], [m1, m2],
                        [m1 * l1**2 / 12, m2 * l2**2 / 12], g=p.g)
    phi = p.theta - np.pi / 2
    qdd = chain.forward_dynamics(chain.from_segment_angles(phi),
                                 chain.from_segment_angles(p.omega), [0.0, 0.0])
    return chain.to_segment_angles(qdd)


def check_matrix_form_accelerations(thetadd: Any) -> bool:
    """Question: angular accelerations (2,) [rad/s^2] of the double pendulum at rest torques.

    Parameters
    ----------
    thetadd : array_like, shape (2,)
        The student's ``[theta1'', theta2'']``.

    Returns
    -------
    bool
        ``True`` if right.
    """
    return check_value(
        "thetadd", thetadd, _double_pendulum_chain(), unit="rad/s^2",
        hint=f"{_NB3}, section 1 (the double pendulum in matrix form): solve M(q) q'' = C + G "
             "+ Q with np.linalg.solve; "
        "the gravity term of rod 2 acting through joint 1 has the lever l1 (the source's "
        "code wrongly uses l2).")


def check_matrix_form_seed_error(delta: Any) -> bool:
    """Question: effect of the source's gravity-term error on theta1'' [rad/s^2].

    Parameters
    ----------
    delta : float
        theta1'' with the source's ``m2 g l2 sin(theta1)`` minus theta1'' with the correct
        ``m2 g l1 sin(theta1)`` [rad/s^2].

    Returns
    -------
    bool
        ``True`` if right.
    """
    expected = _seed_double_pendulum(wrong_gravity=True)[0] - _seed_double_pendulum()[0]
    return check_value(
        "delta", delta, expected, unit="rad/s^2",
        hint=f"{_NB3}, section 1.1 (an error in the gravity vector): keep M and C, change only "
             "the first "
        "entry of G, solve twice and subtract (wrong minus correct).")


def _bars_joint_loads() -> np.ndarray:
    """Joint loads of the 3D double pendulum by recursive Newton-Euler (bar 2, then 1)."""
    p = problem("matrix_form")
    m, inertia, R = p.bars_mass, p.bars_inertia, p.bars_R
    w, wd, joint, rcm, acm = p.bars_omega, p.bars_omegadot, p.bars_joint, p.bars_rcm, p.bars_acm
    gvec = np.array([0.0, -p.bars_g, 0.0])
    loads = np.zeros((4, 3))
    F_dist, M_dist, r_dist = np.zeros(3), np.zeros(3), rcm[1]   # free end of bar 2
    for k in (1, 0):
        F = m[k] * acm[k] - m[k] * gvec + F_dist                 # F + (-F_dist) + m g = m a
        Ib = np.diag(inertia[k])
        euler = R[k] @ (Ib @ wd[k] + np.cross(w[k], Ib @ w[k]))  # global frame
        Mom = (euler + M_dist - np.cross(joint[k] - rcm[k], F)
               + np.cross(r_dist - rcm[k], F_dist))
        loads[2 * k], loads[2 * k + 1] = F, Mom
        F_dist, M_dist, r_dist = F, Mom, joint[k]
    return loads


def check_matrix_form_double_pendulum_3d(loads: Any) -> bool:
    """Question: joint forces and moments (4, 3) of the 3D double pendulum of two bars.

    Parameters
    ----------
    loads : array_like, shape (4, 3)
        Rows: force and moment at joint 1 on bar 1, force and moment at joint 2 on bar 2,
        global frame [N, N m, N, N m].

    Returns
    -------
    bool
        ``True`` if right.
    """
    return check_value(
        "loads", loads, _bars_joint_loads(), rtol=1e-3, atol=1e-6, unit="N, N m",
        hint=f"{_NB3}, section 6 (3D inverse dynamics): one block row per bar for forces "
             "(global frame) "
        "and one for moments (rotate I omega' + omega x I omega to the global frame with "
        "R); bar 2 receives minus the joint-2 load on bar 1; cross products become skew(r) "
        "@ F, then one np.linalg.solve.")


