"""Exact checks of exercise set 6 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._least_squares` (``answer_*``, from
:mod:`bmc.least_squares`), here on the student's own data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_function, check_value, problem
from bmc.checks._least_squares import (
    answer_bias,
    answer_hip_factor,
    answer_std,
    answer_wls,
)
from bmc.checks._practice import check_group
from bmc.checks._sections import section

__all__ = [
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
]


def _wls_cases() -> tuple[list[tuple[np.ndarray, ...]], list[np.ndarray]]:
    """The grader's inputs for ``wls`` (other than the practice ones) and their answers."""
    rng = np.random.default_rng(8)
    cases = []
    for rows, cols, drop in ((6, 3, False), (5, 2, False), (6, 3, True)):
        A = rng.standard_normal((rows, cols))
        b = rng.standard_normal(rows)
        var = rng.uniform(0.2, 3.0, rows)
        if drop:
            var[1] = np.inf
        cases.append((A, b, var))
    return cases, [answer_wls(*c) for c in cases]


def check_least_squares_wls(wls: Any) -> bool:
    """Question: ``wls(A, b, var)``, the weighted least-squares estimate of Kuo's eq. (8).

    Parameters
    ----------
    wls : callable
        The student's function: ``A`` (m, n), ``b`` (m,), ``var`` (m,) measurement error
        variances (``np.inf`` removes a measurement); returns ``tau`` (n,).

    Returns
    -------
    bool
        ``True`` if right for several systems, including one with an infinite variance.
    """
    cases, expected = _wls_cases()
    return check_function(
        "wls", wls, cases, expected, rtol=1e-6, atol=1e-9,
        hint=section("least_squares.wls", "tau = (A^T W^-1 A)^-1 A^T W^-1 b with W = "
                     "diag(var); an infinite variance means a zero weight 1/var (avoid "
                     "inf/inf), and np.linalg.lstsq on the rows scaled by 1/sd is the "
                     "stable way to solve it"))


def check_least_squares_std(std_tau: Any) -> bool:
    """Question: predicted standard deviation (3,) [N m] of the estimated joint torques.

    Parameters
    ----------
    std_tau : array_like, shape (3,)
        Square roots of the diagonal of the error covariance, ankle, knee, hip.

    Returns
    -------
    bool
        ``True`` if right.
    """
    p = problem("least_squares")
    right = answer_std(p.A, p.sd)
    return check_value(
        "std_tau", std_tau, right, unit="N m",
        mistakes=[("the variances, not the standard deviations", right**2),
                  ("the standard deviations with W = diag(sd)",
                   answer_std(p.A, np.sqrt(p.sd)))],
        hint=section("least_squares.wls", "X_LS = (A^T W^-1 A)^-1 with W = diag(sd^2); the "
                     "standard deviations are the square roots of its diagonal (not of W)"))


def check_least_squares_drop_channel(factor_hip: Any, can_improve: Any) -> bool:
    """Question: losing one force-plate channel (``p.missing``).

    Parameters
    ----------
    factor_hip : float
        Predicted standard deviation of the hip torque without the force-plate channel
        ``p.missing`` (0: N_O, 1: Fx, 2: Fy) divided by the one with it [-].
    can_improve : bool
        Whether removing a measurement can ever make a torque estimate *more* precise
        (the same for everyone: its message names the concept only).

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    p = problem("least_squares")
    right = answer_hip_factor(p.A, p.sd, int(p.missing))
    check_value("factor_hip", factor_hip, right, rtol=1e-3,
                mistakes=[("the ratio upside down", 1 / right),
                          ("the ratio of the variances", right**2)],
                hint=section("least_squares.missing", "set the variance of channel "
                             "p.missing (a row index) to infinity (its weight to zero) and "
                             "recompute the covariance"))
    ratios = answer_std(p.A, p.sd, int(p.missing)) / answer_std(p.A, p.sd)
    # Information only adds: A^T W^-1 A grows (in the Loewner order) with every measurement.
    return check_group([("can_improve", can_improve, bool(np.any(ratios < 1 - 1e-12)))],
                       kind="choice", choices=[True, False],
                       hint=section("least_squares.missing", "compare A^T W^-1 A with and "
                                    "without one row: removing a row subtracts a positive "
                                    "semi-definite term"))


def check_least_squares_bias(beta: Any) -> bool:
    """Question: constant bias [N m] of the force plate's torque channel (Kuo's eq. 10).

    Parameters
    ----------
    beta : float
        The estimated bias: the measured ``N_O`` is the true one plus ``beta``.

    Returns
    -------
    bool
        ``True`` if right.
    """
    p = problem("least_squares")
    return check_value(
        "beta", beta, answer_bias(p.A_frames, p.b_frames), rtol=1e-4, unit="N m",
        hint=section("least_squares.bias", "stack every frame's A[k] block-diagonally, add "
                     "one column for the bias that is 1 on each frame's N_O row (the "
                     "measured N_O is the true one plus beta), and solve the whole "
                     "system at once"))
