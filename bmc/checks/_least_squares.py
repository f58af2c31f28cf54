"""Checks of exercise set 6: least-squares inverse dynamics (Kuo 1998).

A student's variant (``problem("least_squares", student=ID)``) has its own trial (the seed
of its postures and torques), its own sensor noise levels ``sd``, its own torque-channel
bias and its own failed force-plate channel ``missing``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem

__all__ = [
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
]


_SD = (1.0, 2.0, 2.0, 0.5, 0.5, 0.5)  # N m, N, N, rad/s^2 x3: Kuo's order of magnitude


def _kuo_entries(seed: int = 1998, sd: tuple[float, ...] = _SD, bias: float = 2.7,
                 missing: int = 0) -> list[tuple[str, Any, str, str]]:
    """Measurement matrices of Kuo's benchmark at quiet standing and a biased mini-trial.

    ``seed`` draws the posture, velocities and torques of the trial, ``sd`` are the
    measurement standard deviations, ``bias`` [N m] is added to the torque channel of every
    frame (no other error: the bias is recoverable exactly), ``missing`` is the force-plate
    channel that fails in question 3.
    """
    from bmc import least_squares
    from bmc.models import standing

    model = standing.FourSegmentModel()
    rng = np.random.default_rng(seed)
    n = 5
    phi = np.array([1.62, 1.52, 1.60]) + 0.05 * rng.standard_normal((n, 3))
    phid = 0.2 * rng.standard_normal((n, 3))
    phidd = np.zeros((n, 3))
    A, _ = least_squares.system(model, phi, phid, phidd, np.zeros((n, 3)))
    tau = np.array([30.0, -5.0, 8.0]) + 3.0 * rng.standard_normal((n, 3))
    b = np.einsum("kij,kj->ki", A, tau)
    b[:, 0] += bias
    return [
        ("A", A[0], "mixed", "rows [T, Fx, Fy, phidd_shank, phidd_thigh, phidd_HAT] of "
         "A tau = b at one frame of quiet standing (units 1, 1/m, 1/m, 1/(kg m^2) x3)"),
        ("sd", np.asarray(sd, dtype=float), "mixed", "standard deviation of each "
         "measurement error [N m, N, N, rad/s^2, rad/s^2, rad/s^2]"),
        ("missing", int(missing), "-", "row of the force-plate channel that fails in "
         "question 3 (0: T, 1: Fx, 2: Fy)"),
        ("A_frames", A, "mixed", f"A at {n} frames of a short trial, shape ({n}, 6, 3)"),
        ("b_frames", b, "mixed", f"b at the same {n} frames, shape ({n}, 6): the force "
         "plate's torque channel T carries a constant bias"),
    ]


def _kuo_variant(rng: np.random.Generator) -> dict[str, Any]:
    """Draw a student's trial (seed), sensors (each sd within +-30 %), bias and failed channel."""
    return {"seed": int(rng.integers(2**31)),
            "sd": tuple(float(s) for s in np.asarray(_SD) * rng.uniform(0.7, 1.3, 6)),
            "bias": float(rng.choice([-1.0, 1.0]) * rng.uniform(1.5, 4.5)),
            "missing": int(rng.integers(0, 3))}


register_problem(
    "least_squares", "Kuo's least-squares inverse dynamics: the four-segment standing body",
    _kuo_entries, variant=_kuo_variant,
)


_NB6 = "notebooks/06_least_squares_inverse_dynamics.ipynb"



def check_least_squares_wls(wls: Any) -> bool:
    """Public check of question 1: a function of (A, b, var) returning the estimate.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    A = np.eye(3)[:, :2]
    return check_form("wls", wls, kind="function", example=(A, np.ones(3), np.ones(3)),
                      shape=(2,), hint=f"{_NB6}, weighted least squares.")


def check_least_squares_std(std_tau: Any) -> bool:
    """Public check of question 2: three standard deviations [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("std_tau", std_tau, shape=(3,), unit="N m",
                      hint=f"{_NB6}, predicted precision.")


def check_least_squares_drop_channel(factor_hip: Any, can_improve: Any) -> bool:
    """Public check of question 3: a ratio [-] and True or False.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB6}, section 8 (missing force-plate channels): the channel p.missing."
    check_form("factor_hip", factor_hip, unit="-", hint=hint)
    return check_form("can_improve", can_improve, kind="choice", choices=[True, False],
                      hint=hint)


def check_least_squares_bias(beta: Any) -> bool:
    """Public check of question 4: one number [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("beta", beta, unit="N m", hint=f"{_NB6}, a constant bias (eq. 10).")
