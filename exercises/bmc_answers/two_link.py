"""Exact checks of exercise set 2 (grader side: never shipped to students)."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import (
    check_function,
    check_set,
    check_value,
    problem,
)
from bmc.checks._two_link import _NB2

__all__ = [
    "check_two_link_segmental_mass_matrix",
    "check_two_link_time_scaling",
    "check_two_link_vanishing",
    "check_two_link_velocity_terms",
]



def _two_link_chain(g: float | None = None):
    from bmc.chain import PlanarChain

    p = problem("two_link")
    return PlanarChain(p.lengths, p.com, p.masses, p.inertias, g=p.g if g is None else g)


def check_two_link_velocity_terms(C: Any) -> bool:
    """Question: centripetal and Coriolis torques ``C`` (2,) [N m] at ``q``, ``qd``.

    Parameters
    ----------
    C : array_like, shape (2,)
        The student's velocity terms.

    Returns
    -------
    bool
        ``True`` if right.
    """
    p = problem("two_link")
    return check_value(
        "C", C, _two_link_chain().velocity_terms(p.q, p.qd), unit="N m",
        hint=f"{_NB2}, the M, C, G, E decomposition: C1 = -L1 d2 m2 (2 q1' + q2') q2' "
        "sin(q2) and C2 = L1 d2 m2 q1'^2 sin(q2); only the elbow angle enters.")


_VANISH_CASES = {
    # case: (q, qd) with the condition of the case, other values generic
    "a": ([0.7, 1.1], [0.0, 2.3]),           # alpha1' = 0
    "b": ([0.7, 0.0], [1.4, 2.3]),           # alpha2 = 0
    "c": ([0.7, 1.1], [1.4, 0.0]),           # alpha2' = 0
    "d": ([0.7, np.pi - 1.4], [1.3, -2.6]),  # 2 alpha1 + alpha2 = pi, held: 2 q1' + q2' = 0
}


def check_two_link_vanishing(case: str, answer: Any) -> bool:
    """Question: which velocity terms vanish in the horizontal plane, cases a-d.

    Parameters
    ----------
    case : {"a", "b", "c", "d"}
        a: alpha1' = 0; b: alpha2 = 0; c: alpha2' = 0; d: 2 alpha1 + alpha2 = 180 deg held
        during the movement.
    answer : set of str
        Entries of ``C`` that are zero: a subset of ``{"C1", "C2"}``.

    Returns
    -------
    bool
        ``True`` if right.
    """
    if case not in _VANISH_CASES:
        raise ValueError(f"case must be one of {sorted(_VANISH_CASES)}; got {case!r}")
    q, qd = _VANISH_CASES[case]
    C = _two_link_chain(g=0.0).velocity_terms(q, qd)
    scale = np.abs(_two_link_chain(g=0.0).velocity_terms([0.7, 1.1], [1.4, 2.3])).max()
    zero = {f"C{i + 1}" for i in range(2) if abs(C[i]) < 1e-9 * scale}
    hint = (f"{_NB2}, coupling effects: write C1 and C2 and see which factor (sin q2, q1', "
            "q2', 2 q1' + q2') becomes zero under the condition; for d, differentiate the "
            "condition in time.")
    return check_set(f"vanish_{case}", answer, zero, allowed=["C1", "C2"], hint=hint)


_SEGMENTAL_CASES = [(0.3, 1.2), (-1.2, 0.4), (2.0, 2.0), (0.5, -2.5)]


def check_two_link_segmental_mass_matrix(mass_matrix_segmental: Any) -> bool:
    """Question: mass matrix in segment angles, ``mass_matrix_segmental(theta1, theta2)``.

    Parameters
    ----------
    mass_matrix_segmental : callable
        Returns the (2, 2) mass matrix [kg m^2] for segment angles theta1 = alpha1,
        theta2 = alpha1 + alpha2.

    Returns
    -------
    bool
        ``True`` if right for several configurations.
    """
    chain = _two_link_chain()
    # alpha = S theta with S = d alpha / d theta; kinetic energy gives M_theta = S^T M S.
    S = np.array([[1.0, 0.0], [-1.0, 1.0]])
    expected = [S.T @ chain.mass_matrix(chain.from_segment_angles(c)) @ S
                for c in _SEGMENTAL_CASES]
    return check_function(
        "mass_matrix_segmental", mass_matrix_segmental, _SEGMENTAL_CASES, expected,
        rtol=1e-6, atol=1e-10, unit="kg m^2",
        hint=f"{_NB2}, segment angles: write the centre-of-mass positions with theta1 and "
        "theta2, or substitute alpha1 = theta1, alpha2 = theta2 - theta1 into the kinetic "
        "energy; the coupling entry depends on theta2 - theta1.")


def _min_jerk_torques(duration: float) -> tuple[float, float, float]:
    """Peak |M qdd|, |C| and |G| at the shoulder for a minimum-jerk joint movement."""
    from bmc.kinematics import minimum_jerk

    p = problem("two_link")
    chain = _two_link_chain()
    q, qd, qdd = minimum_jerk(p.q_start, p.q_end, duration, np.linspace(0.0, duration, 401))
    inertial = np.einsum("kij,kj->ki", chain.mass_matrix(q), qdd)
    return (np.abs(inertial[:, 0]).max(), np.abs(chain.velocity_terms(q, qd)[:, 0]).max(),
            np.abs(chain.gravity_terms(q)[:, 0]).max())


def check_two_link_time_scaling(factor_inertial: Any, factor_velocity: Any,
                                factor_gravity: Any) -> bool:
    """Question: how the shoulder torque terms grow from the slow to the fast movement.

    Parameters
    ----------
    factor_inertial, factor_velocity, factor_gravity : float
        Ratios (fast / slow) of the peak magnitudes of ``M qdd``, ``C`` and ``G`` at the
        shoulder, same path, durations ``durations`` [s].

    Returns
    -------
    bool
        ``True`` if all three are right.
    """
    p = problem("two_link")
    slow, fast = (_min_jerk_torques(d) for d in p.durations)
    hint = (f"{_NB2}, numerical simulation of fast and slow movements: on the same path "
            "q(t) = path(t / T), so q' scales with 1/T and q'' with 1/T^2.")
    check_value("factor_inertial", factor_inertial, fast[0] / slow[0], rtol=1e-3, hint=hint)
    check_value("factor_velocity", factor_velocity, fast[1] / slow[1], rtol=1e-3, hint=hint)
    return check_value("factor_gravity", factor_gravity, fast[2] / slow[2], rtol=1e-3,
                       hint=hint)


