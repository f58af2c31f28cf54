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


def _pendulum():
    """Return the problem's double pendulum, :class:`bmc.models.double_pendulum.DoublePendulum`."""
    from bmc.models.double_pendulum import DoublePendulum

    p = problem("matrix_form")
    (m1, m2), (l1, l2) = p.m, p.l
    return DoublePendulum(m1, m2, l1, l2, g=p.g)


def _seed_double_pendulum(*, wrong_gravity: bool = False) -> np.ndarray:
    """Angular accelerations [rad/s^2] of the source's double pendulum, from its own matrices.

    ``M``, ``C`` and ``G`` of :class:`bmc.models.double_pendulum.DoublePendulum` (the
    source's equations, corrected); ``wrong_gravity`` puts back the source's error, the
    weight of rod 2 acting on joint 1 with the lever ``l2`` instead of ``l1``.
    """
    p = problem("matrix_form")
    pend = _pendulum()
    rhs = pend.velocity_terms(p.theta, p.omega) + pend.gravity_terms(p.theta)
    if wrong_gravity:  # the source's error itself, not a formula of the library
        rhs[0] -= pend.m2 * p.g * (pend.l2 - pend.l1) * math.sin(p.theta[0])
    return np.linalg.solve(pend.mass_matrix(p.theta), rhs)


def _double_pendulum_chain() -> np.ndarray:
    """Return the same accelerations [rad/s^2] from the pendulum's :class:`bmc.PlanarChain`."""
    p = problem("matrix_form")
    pend = _pendulum()
    chain = pend.to_chain()
    # angles map with an offset; rates (and accelerations) by the same linear map without it
    qdd = chain.forward_dynamics(pend.to_chain_coordinates(p.theta),
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
    """Joint loads [N, N m] of the 3D double pendulum by recursive Newton-Euler (bar 2, then 1).

    :func:`bmc.newton_euler.joint_loads3d` numbers the segments from the distal end, so the
    bars go in reversed; nothing acts on the free end of bar 2. Rows of the result: force
    and moment at joint 1 on bar 1, then at joint 2 on bar 2, global frame.
    """
    from bmc.newton_euler import joint_loads3d

    p = problem("matrix_form")
    distal_first = slice(None, None, -1)
    F, M = joint_loads3d(
        p.bars_mass[distal_first], [np.diag(i) for i in p.bars_inertia[distal_first]],
        p.bars_R[distal_first], p.bars_rcm[distal_first], p.bars_joint[distal_first],
        p.bars_acm[distal_first], p.bars_omega[distal_first], p.bars_omegadot[distal_first],
        np.zeros(3), p.bars_rcm[1], g=p.bars_g, frame="global")
    return np.stack([F[1], M[1], F[0], M[0]])


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


