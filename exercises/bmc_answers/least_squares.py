"""Exact checks of exercise set 6 (grader side: never shipped to students)."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import (
    check_choice,
    check_function,
    check_value,
    problem,
)
from bmc.checks._least_squares import _NB6

__all__ = [
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
]


def _wls_cases() -> tuple[list[tuple[np.ndarray, ...]], list[np.ndarray]]:
    from bmc.least_squares import weighted_least_squares

    rng = np.random.default_rng(8)
    cases = []
    for rows, cols, drop in ((6, 3, False), (5, 2, False), (6, 3, True)):
        A = rng.standard_normal((rows, cols))
        b = rng.standard_normal(rows)
        var = rng.uniform(0.2, 3.0, rows)
        if drop:
            var[1] = np.inf
        cases.append((A, b, var))
    return cases, [weighted_least_squares(*c).tau for c in cases]


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
        hint=f"{_NB6}, section 3.3 (weighted least squares): tau = (A^T W^-1 A)^-1 A^T W^-1 b "
             "with "
        "W = diag(var); an infinite variance means a zero weight 1/var (avoid inf/inf), "
        "and np.linalg.lstsq on the rows scaled by 1/sd is the stable way to solve it.")


def _std_tau(var: np.ndarray) -> np.ndarray:
    """Standard deviations [N m] of the estimated torques for variances ``var`` (inf: dropped)."""
    from bmc.least_squares import weighted_least_squares

    A = problem("least_squares").A
    # (A^T W^-1 A)^-1 does not depend on b
    return np.sqrt(np.diag(weighted_least_squares(A, np.zeros(len(A)), var).covariance))


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
    return check_value(
        "std_tau", std_tau, _std_tau(p.sd**2), unit="N m",
        hint=f"{_NB6}, section 3.3 (its covariance): X_LS = (A^T W^-1 A)^-1 with W = "
             "diag(sd^2); the "
        "standard deviations are the square roots of its diagonal (not of W).")


def check_least_squares_drop_channel(factor_hip: Any, can_improve: Any) -> bool:
    """Question: losing one force-plate channel (``p.missing``).

    Parameters
    ----------
    factor_hip : float
        Predicted standard deviation of the hip torque without the force-plate channel
        ``p.missing`` (0: T, 1: Fx, 2: Fy) divided by the one with it [-].
    can_improve : bool
        Whether removing a measurement can ever make a torque estimate *more* precise.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    p = problem("least_squares")
    var = p.sd**2
    dropped = var.copy()
    dropped[int(p.missing)] = np.inf
    ratios = _std_tau(dropped) / _std_tau(var)
    check_value("factor_hip", factor_hip, ratios[2], rtol=1e-3,
                hint=f"{_NB6}, section 8 (missing force-plate channels): set the "
                     "variance of channel p.missing (a row index) to "
                "infinity (its weight to zero) and recompute the covariance.")
    # Information only adds: A^T W^-1 A grows (in the Loewner order) with every measurement.
    return check_choice("can_improve", can_improve, bool(np.any(ratios < 1 - 1e-12)),
                        choices=[True, False],
                        hint="compare A^T W^-1 A with and without one row: removing a row "
                        "subtracts a positive semi-definite term.")


def _bias_estimate() -> float:
    """Bias [N m] of the torque channel (row 0, T) by Kuo's eq. (10), unit weights."""
    from bmc.least_squares import estimate_bias

    p = problem("least_squares")
    A, b = p.A_frames, p.b_frames
    on_torque_row = np.eye(A.shape[1])[:, :1]  # B: the bias adds to row T of every frame
    return float(estimate_bias(A, b, np.ones(A.shape[1]), on_torque_row).beta[0, 0])


def check_least_squares_bias(beta: Any) -> bool:
    """Question: constant bias [N m] of the force plate's torque channel (Kuo's eq. 10).

    Parameters
    ----------
    beta : float
        The estimated bias: the measured ``T`` is the true one plus ``beta``.

    Returns
    -------
    bool
        ``True`` if right.
    """
    return check_value(
        "beta", beta, _bias_estimate(), rtol=1e-4, unit="N m",
        hint=f"{_NB6}, section 9 (bias estimation): stack every frame's A[k] block-"
        "diagonally, add one column for the bias that is 1 on each frame's T row (the "
        "measured T is the true T plus beta), and solve the whole system at once.")
