"""Exact checks of exercise set 2 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._two_link` (``answer_*``, computed with
``bmc.PlanarChain``), here on the student's own data.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bmc.checks._core import check_function, check_value, problem
from bmc.checks._practice import check_group
from bmc.checks._sections import section
from bmc.checks._two_link import (
    _without_coriolis,
    answer_segmental_mass_matrix,
    answer_speedup,
    answer_velocity_terms,
    vanishing,
)

__all__ = [
    "check_two_link_segmental_mass_matrix",
    "check_two_link_time_scaling",
    "check_two_link_vanishing",
    "check_two_link_velocity_terms",
]


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
        "C", C, answer_velocity_terms(p)[0], unit="N m",
        mistakes=[("C without the shoulder's Coriolis part", _without_coriolis(p)[0]),
                  ("C with the angles taken in degrees", answer_velocity_terms(
                      p.modified(q=np.degrees(p.q)))[0])],
        hint=section("two_link.form", "C1 = -l1 d2 m2 (2 q1' + q2') q2' sin(q2) and C2 = l1 "
                     "d2 m2 q1'^2 sin(q2); only the elbow angle enters"))


_VANISH_CASES = {
    # case: (q, qd) with the condition of the case, other values generic
    "a": ([0.7, 1.1], [0.0, 2.3]),           # alpha1' = 0
    "b": ([0.7, 0.0], [1.4, 2.3]),           # alpha2 = 0
    "c": ([0.7, 1.1], [1.4, 0.0]),           # alpha2' = 0
    "d": ([0.7, np.pi - 1.4], [1.3, -2.6]),  # 2 alpha1 + alpha2 = pi, held: 2 q1' + q2' = 0
}


def check_two_link_vanishing(case: str, answer: Any) -> bool:
    """Question: which velocity terms vanish in the horizontal plane, cases a-d.

    A set of two items has four possible values: the message names the concept only.

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
    zero = vanishing(problem("two_link"), *_VANISH_CASES[case])
    return check_group(
        [(f"vanish_{case}", answer, zero)], kind="set", choices=["C1", "C2"],
        hint=section("two_link.horizontal", "write C1 and C2 and see which factor (sin q2, "
                     "q1', q2', 2 q1' + q2') becomes zero under the condition; for d, "
                     "differentiate the condition in time"))


#: Inputs the grader calls ``mass_matrix_segmental(phi1, phi2)`` with.
_SEGMENTAL_CASES = [(0.3, 1.2), (-1.2, 0.4), (2.0, 2.0), (0.5, -2.5)]


def check_two_link_segmental_mass_matrix(mass_matrix_segmental: Any) -> bool:
    """Question: mass matrix in segment angles, ``mass_matrix_segmental(phi1, phi2)``.

    Parameters
    ----------
    mass_matrix_segmental : callable
        Returns the (2, 2) mass matrix [kg m^2] for the segment angles from the forward
        horizontal phi1 = alpha1, phi2 = alpha1 + alpha2 (notebook 2's varphi_1, varphi_2;
        its data argument ``p`` defaults to the student's data).

    Returns
    -------
    bool
        ``True`` if right for several configurations.
    """
    p = problem("two_link")
    expected = [answer_segmental_mass_matrix(p, *c) for c in _SEGMENTAL_CASES]
    return check_function(
        "mass_matrix_segmental", mass_matrix_segmental, _SEGMENTAL_CASES, expected,
        rtol=1e-6, atol=1e-10, unit="kg m^2",
        hint=section("two_link.segment_angles", "write the centre-of-mass positions with "
                     "phi1 and phi2, or substitute alpha1 = phi1, alpha2 = phi2 - phi1 into "
                     "the kinetic energy; the coupling entry depends on phi2 - phi1"))


def check_two_link_time_scaling(factor_inertial: Any, factor_velocity: Any,
                                factor_gravity: Any) -> bool:
    """Question: how the shoulder torque terms grow from the slow to the fast movement.

    Parameters
    ----------
    factor_inertial, factor_velocity, factor_gravity : float
        Ratios (fast / slow) of the peak magnitudes of ``M qdd``, ``C`` and ``G`` at the
        shoulder, same path, durations ``durations`` [s]. ``factor_gravity`` is the same
        for everyone: its message names the concept only.

    Returns
    -------
    bool
        ``True`` if all three are right.
    """
    p = problem("two_link")
    inertial, velocity, gravity = answer_speedup(p)
    hint = section("two_link.reaches", "on the same path q(t) = path(t / t_f), so q' "
                   "scales with 1/t_f and q'' with 1/t_f^2")
    check_value("factor_inertial", factor_inertial, inertial, rtol=1e-3, hint=hint,
                mistakes=[("the ratio of the durations, not its square",
                           math.sqrt(inertial))])
    check_value("factor_velocity", factor_velocity, velocity, rtol=1e-3, hint=hint,
                mistakes=[("the ratio of the durations, not its square",
                           math.sqrt(velocity))])
    return check_value("factor_gravity", factor_gravity, gravity, rtol=1e-3, hint=hint,
                       level="concept")
