"""Exercise set 6, least-squares inverse dynamics (Kuo 1998): data, answers, public checks.

A student's variant (``problem("least_squares", student=ID)``) has its own trial (the seed
of its postures and torques), its own sensor noise levels ``sd``, its own torque-channel
bias and its own failed force-plate channel ``missing``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import register_problem
from bmc.checks._practice import (
    Output,
    answer_of,
    judged_at_grading,
    practice_function,
    require_answer,
)
from bmc.checks._sections import section

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
    # quiet standing in the course's sign (moments on the foot, shank, thigh): the ankle's
    # plantarflexor moment presses the forefoot down, clockwise, negative (Kuo's: +30 N m)
    tau = np.array([-30.0, 5.0, -8.0]) - 3.0 * rng.standard_normal((n, 3))
    b = np.einsum("kij,kj->ki", A, tau)
    b[:, 0] += bias
    return [
        ("A", A[0], "mixed", "rows [N_O, Fx, Fy, phi2'', phi3'', phi4''] (shank, thigh, HAT) of "
         "A tau = b at one frame of quiet standing (units 1, 1/m, 1/m, 1/(kg m^2) x3)"),
        ("sd", np.asarray(sd, dtype=float), "mixed", "standard deviation of each "
         "measurement error [N m, N, N, rad/s^2, rad/s^2, rad/s^2]"),
        ("missing", int(missing), "-", "row of the force-plate channel that fails in "
         "question 3 (0: N_O, 1: Fx, 2: Fy)"),
        ("A_frames", A, "mixed", f"A at {n} frames of a short trial, shape ({n}, 6, 3)"),
        ("b_frames", b, "mixed", f"b at the same {n} frames, shape ({n}, 6): the force "
         "plate's torque channel N_O carries a constant bias"),
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


# ----------------------------------------------------------------------------- answers
def answer_wls(A: Any, b: Any, var: Any) -> np.ndarray:
    """Kuo's eq. (8) by :func:`bmc.least_squares.weighted_least_squares` (inf: dropped)."""
    from bmc.least_squares import weighted_least_squares

    return weighted_least_squares(A, b, var).tau


def answer_std(A: Any, sd: Any, missing: int | None = None) -> np.ndarray:
    """Return the predicted standard deviations [N m] of the torques.

    ``sqrt(diag((A^T W^-1 A)^-1))`` with ``W = diag(sd^2)``; ``missing`` drops that row
    (infinite variance).
    """
    from bmc.least_squares import weighted_least_squares

    var = np.asarray(sd, dtype=float) ** 2
    if missing is not None:
        var[int(missing)] = np.inf
    # (A^T W^-1 A)^-1 does not depend on b
    return np.sqrt(np.diag(weighted_least_squares(A, np.zeros(len(var)), var).covariance))


def answer_hip_factor(A: Any, sd: Any, missing: int) -> float:
    """Hip standard deviation without the channel ``missing`` over the one with it."""
    return float(answer_std(A, sd, missing)[2] / answer_std(A, sd)[2])


def answer_bias(A_frames: Any, b_frames: Any) -> float:
    """Bias [N m] of the torque channel (row 0, N_O) by Kuo's eq. (10), equal weights."""
    from bmc.least_squares import estimate_bias

    A = np.asarray(A_frames, dtype=float)
    on_torque_row = np.eye(A.shape[1])[:, :1]  # B: the bias adds to row N_O of every frame
    return float(estimate_bias(A, b_frames, np.ones(A.shape[1]), on_torque_row).beta[0, 0])


def _practice_systems() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Two small weighted systems for the practice check of ``wls`` (one row dropped)."""
    rng = np.random.default_rng(1998)
    cases = []
    for rows, cols, drop in ((5, 2, False), (6, 3, True)):
        var = rng.uniform(0.3, 2.5, rows)
        if drop:
            var[2] = np.inf
        cases.append((rng.standard_normal((rows, cols)), rng.standard_normal(rows), var))
    return cases


# ----------------------------------------------------------------------------- checks
_WLS_HINT = section("least_squares.wls", "tau = (A^T W^-1 A)^-1 A^T W^-1 b with W = "
                    "diag(var); an infinite variance means a zero weight 1/var (avoid "
                    "inf/inf), and np.linalg.lstsq on the rows scaled by 1/sd is the stable "
                    "way to solve it")


def check_least_squares_wls(wls: Any) -> bool:
    """Question 1: ``wls(A, b, var)`` on practice systems (the grader uses others)."""
    for i, (A, b, var) in enumerate(_practice_systems()):
        practice_function(
            f"wls(A, b, var) of practice system {i + 1}", wls, topic="least_squares",
            outputs=[Output("tau", (A.shape[1],), "-")],
            expected=lambda d, c=(A, b, var): (answer_wls(*c),),
            call=lambda f, d, c=(A, b, var): f(*(x.copy() for x in c)),
            mistakes=[("no weights (ordinary least squares)",
                       lambda d, c=(A, b, var): (answer_wls(c[0], c[1], np.where(
                           np.isfinite(c[2]), 1.0, np.inf)),)),
                      ("the weights 1/var^2 (rows scaled by 1/var, not 1/sd)",
                       lambda d, c=(A, b, var): (answer_wls(c[0], c[1], c[2] ** 2),))],
            parameter=None, rtol=1e-6, atol=1e-9, hint=_WLS_HINT)
    return True


_STD_HINT = section("least_squares.wls", "X = (A^T W^-1 A)^-1 with W = diag(sd^2); the "
                    "standard deviations are the square roots of its diagonal (not of W)")


def check_least_squares_std(torque_std: Any, std_tau: Any, p: Any = None) -> bool:
    """Question 2: ``torque_std(A, sd)`` (3,) [N m] on the practice data; ``std_tau`` for you."""
    practice_function(
        "torque_std", torque_std, topic="least_squares",
        outputs=[Output("std_tau", (3,), "N m")], expected=lambda d: (answer_std(d.A, d.sd),),
        call=lambda f, d: f(d.A, d.sd),
        mistakes=[("the variances, without the square root",
                   lambda d: (answer_std(d.A, d.sd) ** 2,)),
                  ("W = diag(sd) where diag(sd^2) belongs",
                   lambda d: (answer_std(d.A, np.sqrt(d.sd)),))],
        parameter=None, rtol=1e-3, hint=_STD_HINT)
    return answer_of("std_tau", std_tau, lambda d: torque_std(d.A, d.sd), p, shape=(3,),
                     unit="N m", hint=_STD_HINT, call="torque_std(p.A, p.sd)")


def check_least_squares_drop_channel(hip_factor: Any, factor_hip: Any, can_improve: Any,
                                     p: Any = None) -> bool:
    """Question 3: ``hip_factor(A, sd, missing)`` on the practice data.

    ``can_improve`` (the same for everyone) is judged at grading.
    """
    hint = section("least_squares.missing", "set the variance of channel `missing` (a row "
                   "index) to infinity (its weight to zero) and recompute the covariance")
    practice_function(
        "hip_factor", hip_factor, topic="least_squares",
        outputs=[Output("factor_hip", (), "-")],
        expected=lambda d: (answer_hip_factor(d.A, d.sd, d.missing),),
        call=lambda f, d: f(d.A, d.sd, int(d.missing)),
        mistakes=[("the ratio upside down (with the channel over without it)",
                   lambda d: (1 / answer_hip_factor(d.A, d.sd, d.missing),)),
                  ("the ratio of the variances, not of the standard deviations",
                   lambda d: (answer_hip_factor(d.A, d.sd, d.missing) ** 2,))],
        parameter=None, rtol=1e-3, hint=hint)
    answer_of("factor_hip", factor_hip, lambda d: hip_factor(d.A, d.sd, int(d.missing)), p,
              unit="-", hint=hint, call="hip_factor(p.A, p.sd, p.missing)")
    require_answer("can_improve", can_improve, kind="choice", choices=[True, False],
                   hint=hint)
    judged_at_grading(["can_improve"], "True or False, the same for everyone, which a check "
                      "would give away", right="hip_factor is right on the practice data")
    return True


_BIAS_HINT = section("least_squares.bias", "stack every frame's A[k] block-diagonally, add "
                     "one column for the bias that is 1 on each frame's N_O row (the "
                     "measured N_O is the true one plus beta), and solve the whole "
                     "system at once")


def check_least_squares_bias(bias_estimate: Any, beta: Any, p: Any = None) -> bool:
    """Question 4: ``bias_estimate(A_frames, b_frames)`` [N m] on the practice trial."""
    practice_function(
        "bias_estimate", bias_estimate, topic="least_squares",
        outputs=[Output("beta", (), "N m")],
        expected=lambda d: (answer_bias(d.A_frames, d.b_frames),),
        call=lambda f, d: f(d.A_frames, d.b_frames), parameter=None, rtol=1e-4,
        hint=_BIAS_HINT)
    return answer_of("beta", beta, lambda d: bias_estimate(d.A_frames, d.b_frames), p,
                     unit="N m", hint=_BIAS_HINT, call="bias_estimate(p.A_frames, p.b_frames)")
