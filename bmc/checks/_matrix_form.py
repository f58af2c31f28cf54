"""Checks of exercise set 3: the matrix formalism."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bmc.checks._core import (
    check_function,
    check_value,
    problem,
    register_problem,
)

__all__ = [
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
]


def _rot(axis: str, angle: float) -> np.ndarray:
    """Rotation matrix about a global axis [rad]."""
    c, s = math.cos(angle), math.sin(angle)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _pendulum_3d() -> list[tuple[str, Any, str, str]]:
    """Two cylindrical bars hanging from a fixed point, with consistent 3D kinematics."""
    length, radius, mass = 0.40, 0.03, 2.0
    i_t = mass * (3 * radius**2 + length**2) / 12
    i_a = mass * radius**2 / 2
    inertia = np.array([i_t, i_a, i_t])
    R1 = _rot("z", 0.35) @ _rot("x", 0.20)
    R2 = _rot("z", 0.80) @ _rot("x", -0.15) @ _rot("y", 0.40)
    w1 = np.array([0.6, 1.1, -2.0])     # segment frame [rad/s]
    w2 = np.array([-0.4, 0.9, 2.6])
    wd1 = np.array([1.5, -0.8, 4.0])    # segment frame [rad/s^2]
    wd2 = np.array([-2.2, 1.2, -5.5])
    axis = np.array([0.0, length, 0.0])  # from the distal end to the proximal joint
    j1 = np.zeros(3)
    c1 = j1 - R1 @ axis / 2
    j2 = j1 - R1 @ axis
    c2 = j2 - R2 @ axis / 2
    W1, W2, A1, A2 = R1 @ w1, R2 @ w2, R1 @ wd1, R2 @ wd2

    def acc(wg, ag, r):
        return np.cross(ag, r) + np.cross(wg, np.cross(wg, r))

    a1 = acc(W1, A1, c1 - j1)
    aj2 = acc(W1, A1, j2 - j1)
    a2 = aj2 + acc(W2, A2, c2 - j2)
    return [
        ("mass", [mass, mass], "kg", "masses of bars 1 (upper) and 2 (lower)"),
        ("inertia", [inertia, inertia], "kg m^2",
         "principal moments of inertia about each centre of mass, in the bar's own frame "
         "(x, y along the bar, z)"),
        ("R", [R1, R2], "-", "orientation of each bar: columns are the bar's axes in the "
         "global frame, v_global = R @ v_bar"),
        ("omega", [w1, w2], "rad/s", "angular velocities in each bar's own frame"),
        ("omegadot", [wd1, wd2], "rad/s^2", "angular accelerations in each bar's own frame"),
        ("joint", [j1, j2], "m", "positions of joint 1 (fixed support) and joint 2"),
        ("rcm", [c1, c2], "m", "centre-of-mass positions"),
        ("acm", [a1, a2], "m/s^2", "centre-of-mass accelerations"),
        ("g", 9.81, "m/s^2", "gravitational acceleration, along -y"),
    ]


register_problem(
    "matrix_form",
    "Double pendulum of uniform rods (angles from the downward vertical) and a 3D double "
    "pendulum of two cylindrical bars",
    lambda: [
        ("m", [1.0, 1.0], "kg", "rod masses m1, m2"),
        ("l", [1.0, 0.5], "m", "rod lengths l1, l2"),
        ("g", 9.81, "m/s^2", "gravitational acceleration"),
        ("theta", [np.pi / 10, np.pi / 3], "rad", "rod angles from the downward vertical"),
        ("omega", [2 * np.pi, -6 * np.pi], "rad/s", "rod angular velocities"),
        *[("bars_" + name, value, unit, meaning)
          for name, value, unit, meaning in _pendulum_3d()],
    ],
)


_NB3 = "notebooks/03_matrix_formalism.ipynb"


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
    vectors = [(np.array([1.0, 0.0, 0.0]),), (np.array([0.0, 0.0, 2.0]),),
               (np.array([0.3, -1.2, 2.5]),)]
    expected = [np.cross(v, np.eye(3)).T for (v,) in vectors]  # columns: v x e_j
    return check_function(
        "skew", skew, vectors, expected, unit="-",
        hint=f"{_NB3}, section 5 (the skew operator): write v x w component by component and "
             "read off "
        "the matrix that multiplies w; it is antisymmetric (S^T = -S).")


def _seed_double_pendulum(*, wrong_gravity: bool = False) -> np.ndarray:
    """Angular accelerations of the source's double pendulum, from its own matrices."""
    p = problem("matrix_form")
    (m1, m2), (l1, l2), g = p.m, p.l, p.g
    (t1, t2), (w1, w2) = p.theta, p.omega
    c, s = math.cos(t1 - t2), math.sin(t1 - t2)
    M = np.array([[m1 * l1**2 / 3 + m2 * l1**2, m2 * l1 * l2 * c / 2],
                  [m2 * l1 * l2 * c / 2, m2 * l2**2 / 3]])
    C = np.array([-m2 * l1 * l2 * s * w2**2 / 2, m2 * l1 * l2 * s * w1**2 / 2])
    lever = l2 if wrong_gravity else l1
    G = np.array([-m1 * g * l1 / 2 * math.sin(t1) - m2 * g * lever * math.sin(t1),
                  -m2 * g * l2 / 2 * math.sin(t2)])
    return np.linalg.solve(M, C + G)


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


