"""Exact checks of exercise set 3 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._matrix_formalism` (``answer_*``), here on
the student's own data; the messages name the likely mistake, never the value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_function, check_value, problem
from bmc.checks._matrix_formalism import (
    answer_accelerations,
    answer_bars_loads,
    answer_seed_error,
    answer_skew,
    source_accelerations,
)
from bmc.checks._sections import section

__all__ = [
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
]

#: Inputs the grader calls ``skew(v)`` with.
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
    return check_function(
        "skew", skew, _SKEW_CASES, [answer_skew(v) for (v,) in _SKEW_CASES], unit="-",
        hint=section("matrix.skew", "write v x w component by component and read off the "
                     "matrix that multiplies w; it is antisymmetric (S^T = -S)"))


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
    p = problem("matrix_form")
    return check_value(
        "thetadd", thetadd, answer_accelerations(p)[0], unit="rad/s^2",
        mistakes=[("the accelerations with the source's gravity vector (lever l2 where l1 "
                   "belongs)", source_accelerations(p, wrong_gravity=True))],
        hint=section("matrix.double_pendulum", "solve M(theta) theta'' = -(C + G) with "
                     "np.linalg.solve; the gravity term of rod 2 acting through joint 1 has "
                     "the lever l1 (the source's code wrongly uses l2)"))


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
    return check_value(
        "delta", delta, answer_seed_error(problem("matrix_form"))[0], unit="rad/s^2",
        hint=section("matrix.gravity_error", "keep M and C, change only the first entry of "
                     "G, solve twice and subtract (wrong minus correct)"))


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
    p = problem("matrix_form")
    return check_value(
        "loads", loads, answer_bars_loads(p)[0], rtol=1e-3, atol=1e-6, unit="N, N m",
        mistakes=[("the loads with Euler's equation left in each bar's own frame",
                   answer_bars_loads(p, rotate=False)[0])],
        hint=section("matrix.inverse3d", "one block row per bar for forces (global frame) "
                     "and one for moments (rotate I omega' + omega x I omega to the global "
                     "frame with R); bar 2 receives minus the joint-2 load on bar 1; cross "
                     "products become skew(r) @ F, then one np.linalg.solve"))
