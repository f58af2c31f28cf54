"""Exercise set 4, inverse dynamics of the lower limb in running: data, answers, checks.

The data are van den Bogert's simulated running trial (:func:`bmc.datasets.load_running`);
the right answers come from :func:`bmc.newton_euler.lower_limb` on those data. A
student's variant (``problem("gait", student=ID)``) has its own samples ``k``,
``k_early``, ``k_late`` and its own analysis window ``start:stop``; the public checks use
the practice samples and window (:func:`~bmc.checks.practice`), the grader the student's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from bmc.checks._core import practice, register_problem
from bmc.checks._practice import (
    Output,
    answer_of,
    judged_at_grading,
    practice_function,
    practice_prediction,
    require_answer,
)
from bmc.checks._sections import section

__all__ = [
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
]

def _gait_entries(k: int = 4000, k_early: int = 3500, k_late: int = 5000, start: int = 2750,
                  stop: int = 5501) -> list[tuple[str, Any, str, str]]:
    """Sample indices of van den Bogert's running trial (10 kHz; contact from sample 3057)."""
    return [
        ("k", k, "-", "index of a mid-stance sample"),
        ("k_early", k_early, "-", "index of an early-stance sample"),
        ("k_late", k_late, "-", "index of a late-stance (push-off) sample"),
        ("start", start, "-", "first sample of the analysis window (before heel strike)"),
        ("stop", stop, "-", "end of the analysis window (exclusive): data[start:stop]"),
        ("g", 9.80665, "m/s^2", "acceleration of free fall used by the simulation"),
    ]


def _gait_variant(rng: np.random.Generator) -> dict[str, int]:
    """Draw a student's samples, each inside the stance phase where its sign question holds.

    In the trial (bmc.newton_euler.lower_limb, central differences) the ankle moment is
    negative from sample 3259 to 5351, the ankle power negative up to 4345 and positive
    from there to 5351: every sample range below keeps a margin of at least 150 samples
    (15 ms). The window starts before heel strike (contact: samples 3057-5123) and ends
    after toe-off; most of the error lies at impact, so its RMSE depends mainly on the
    window's length, which spreads over 2350-3200 samples (two students' RMSEs agree to
    rtol 1e-3 for about 1 % of pairs).
    """
    return {"k": int(rng.integers(3800, 4201)), "k_early": int(rng.integers(3350, 3751)),
            "k_late": int(rng.integers(4700, 5101)), "start": int(rng.integers(2700, 2801)),
            "stop": int(rng.integers(5150, 5901))}


register_problem(
    "gait",
    "Inverse dynamics of the lower limb in running (van den Bogert's simulated trial)",
    _gait_entries, variant=_gait_variant,
)

# ----------------------------------------------------------------------------- answers
@lru_cache(maxsize=4)
def lower_limb_result(derivative: str = "central", quasi_static: bool = False):
    """:func:`bmc.newton_euler.lower_limb` on the running trial, and the trial (cached)."""
    from bmc import datasets
    from bmc.newton_euler import lower_limb

    run = datasets.load_running()
    res = lower_limb(run.markers, run.grf, run.freq, run.segments, derivative=derivative,
                     quasi_static=quasi_static)
    return res, run


def answer_ankle_loads(k: int, *, derivative: str = "central",
                       quasi_static: bool = False) -> tuple[np.ndarray, float]:
    """Force (2,) [N] and moment [N m] of the shank on the foot at the ankle, sample ``k``."""
    res, _ = lower_limb_result(derivative, quasi_static)
    return res.forces[k, 2], float(res.moments[k, 2])


def _foot_inertial_moment(k: int) -> float:
    """I alpha of the foot at sample ``k`` [N m]: the part of tau_a an angle in degrees scales."""
    res, run = lower_limb_result()
    return float(run.segments.inertia[2] * res.angular_acceleration[k, 2])


def answer_rmse(start: int, stop: int, *, derivative: str = "central",
                quasi_static: bool = False) -> np.ndarray:
    """RMS difference (3,) [N m] of computed and true moments over ``data[start:stop]``."""
    from bmc.signals import rmse

    res, run = lower_limb_result(derivative, quasi_static)
    window = slice(int(start), int(stop))
    return rmse(res.moments[window], run.true_moments[window])


def answer_signs(k: int, joint: int) -> tuple[float, float]:
    """Moment [N m] and power [W] at ``joint`` (0 hip, 1 knee, 2 ankle), sample ``k``."""
    res, _ = lower_limb_result()
    return float(res.moments[k, joint]), float(res.powers[k, joint])


#: Samples of the practice predictions of question 1 (mid-stance, early stance).
PRACTICE_SAMPLES = (4000, 3500)


# ----------------------------------------------------------------------------- checks
def check_gait_signs(practice_signs: Any, sign_ankle_moment: Any, sign_power_early: Any,
                     sign_power_late: Any) -> bool:
    """Question 1: the practice signs (knee) are judged; the ankle's at grading."""
    hint = section("gait.powers", "a joint moment acts on the distal segment, counter-"
                   "clockwise positive for a runner moving to +x; power = moment x joint "
                   "angular velocity is negative while the muscles lengthen (absorption) "
                   "and positive while they shorten (generation)")
    if not isinstance(practice_signs, (tuple, list)) or len(practice_signs) != 2:
        require_answer("practice_signs", practice_signs, shape=(2,), hint=hint)
    mid, early = PRACTICE_SAMPLES
    practice_prediction(
        [("practice_signs[0] (knee moment, mid-stance)", practice_signs[0],
          answer_signs(mid, 1)[0], "sign", None),
         ("practice_signs[1] (knee power, early stance)", practice_signs[1],
          answer_signs(early, 1)[1], "sign", None)], hint=hint)
    for name, value in (("sign_ankle_moment", sign_ankle_moment),
                        ("sign_power_early", sign_power_early),
                        ("sign_power_late", sign_power_late)):
        require_answer(name, value, kind="sign", hint=hint)
    judged_at_grading(["sign_ankle_moment", "sign_power_early", "sign_power_late"],
                      "three signs have 27 possible answers, so a check here would give "
                      "them away", right="Your practice signs for the knee are right")
    return True


_LOADS_HINT = section("gait.segment", "the foot's centre of mass is at the ankle marker; "
                      "second differences (x[k+1] - 2 x[k] + x[k-1]) f_s^2 of the ankle "
                      "position and of the ankle->toe angle; the ground reaction acts at "
                      "(COPx, 0); F_1 = m a - m g - GRF with g = (0, -g), then moments "
                      "about the centre of mass")


def _loads_mistakes(k: int, mass: float, g: float) -> list:
    inertial = _foot_inertial_moment(k)
    Fa, tau_a = answer_ankle_loads(k)
    return [("the weight added with the wrong sign (g = (0, -g) points down)",
             lambda d: (Fa - [0.0, 2 * mass * g], tau_a)),
            ("the ground reaction's moment with the wrong sign",
             lambda d: (Fa, 2 * inertial - tau_a)),
            ("the foot's angle in degrees (its angular acceleration 57.3 times too large)",
             lambda d: (Fa, tau_a + (np.degrees(1.0) - 1.0) * inertial)),
            ("accelerations one sample early (np.diff)",
             lambda d: answer_ankle_loads(k, derivative="diff2")),
            ("the foot's accelerations left out (quasi-static)",
             lambda d: answer_ankle_loads(k, quasi_static=True))]


def check_gait_foot_loads(ankle_loads: Any, Fa: Any, tau_a: Any, p: Any = None,
                          run: Any = None) -> bool:
    """Question 2: ``ankle_loads(run, k)`` on the practice sample; ``Fa, tau_a`` for you."""
    _, trial = lower_limb_result()
    data = practice("gait")
    k = int(data.k)
    practice_function(
        "ankle_loads", ankle_loads, topic="gait",
        outputs=[Output("Fa", (2,), "N"), Output("tau_a", (), "N m")],
        expected=lambda d: answer_ankle_loads(int(d.k)),
        call=lambda f, d: f(trial, int(d.k)),
        mistakes=_loads_mistakes(k, float(trial.segments.mass[2]), float(data.g)),
        parameter=None, rtol=1e-3, atol=1e-3, hint=_LOADS_HINT)
    own = run if run is not None else trial

    def mine(data):
        return ankle_loads(own, int(data.k))

    mine.__name__ = "ankle_loads"
    answer_of("Fa", Fa, mine, p, shape=(2,), unit="N", hint=_LOADS_HINT, pick=0,
              call="ankle_loads(run, p.k)")
    return answer_of("tau_a", tau_a, mine, p, unit="N m", hint=_LOADS_HINT, pick=1,
                     call="ankle_loads(run, p.k)")


_RMSE_HINT = section("gait.one_sample", "bmc.newton_euler.lower_limb(run.markers, run.grf, "
                     "run.freq, run.segments, derivative=..., quasi_static=...), then the "
                     "root of the mean square of (moments - run.true_moments) over "
                     "data[start:stop], per joint (axis 0); bmc.signals.rmse does it")


def _rmse_check(moment_rmse: Any, name: str, options: dict[str, Any], hint: str) -> None:
    _, trial = lower_limb_result()
    label = f"moment_rmse(run, start, stop{''.join(f', {k}={v!r}' for k, v in options.items())})"
    mistakes = [("the mean square, without the square root",
                 lambda d: (answer_rmse(d.start, d.stop, **options) ** 2,))]
    if options.get("quasi_static"):
        mistakes.append(("the accelerations kept (quasi_static=True is missing)",
                         lambda d: (answer_rmse(d.start, d.stop),)))
    practice_function(
        label, moment_rmse, topic="gait", outputs=[Output(name, (3,), "N m")],
        expected=lambda d: (answer_rmse(d.start, d.stop, **options),),
        call=lambda f, d: f(trial, int(d.start), int(d.stop), **options),
        mistakes=mistakes, parameter=None, rtol=1e-3, hint=hint)


def check_gait_seed_error(moment_rmse: Any, rmse_diff2: Any, rmse_central: Any,
                          p: Any = None) -> bool:
    """Question 3: ``moment_rmse(run, start, stop, derivative=...)`` on the practice window."""
    _rmse_check(moment_rmse, "rmse_diff2", {"derivative": "diff2"}, _RMSE_HINT)
    _rmse_check(moment_rmse, "rmse_central", {"derivative": "central"}, _RMSE_HINT)
    _rmse_answer(moment_rmse, "rmse_diff2", rmse_diff2, p, {"derivative": "diff2"},
                 _RMSE_HINT)
    return _rmse_answer(moment_rmse, "rmse_central", rmse_central, p,
                        {"derivative": "central"}, _RMSE_HINT)


def _rmse_answer(moment_rmse: Any, name: str, value: Any, data: Any,
                 options: dict[str, Any], hint: str) -> bool:
    """Check that the answer for the student's window is what ``moment_rmse`` gives."""
    _, trial = lower_limb_result()

    def mine(d):
        return moment_rmse(trial, int(d.start), int(d.stop), **options)

    mine.__name__ = "moment_rmse"
    call = "moment_rmse(run, p.start, p.stop" + "".join(
        f", {k}={v!r}" for k, v in options.items()) + ")"
    return answer_of(name, value, mine, data, shape=(3,), unit="N m", hint=hint, call=call)


def check_gait_quasi_static(moment_rmse: Any, rmse_quasi: Any, p: Any = None) -> bool:
    """Question 4: ``moment_rmse(..., quasi_static=True)`` on the practice window."""
    hint = section("gait.quasi_static", "lower_limb(..., quasi_static=True) neglects the "
                   "linear and angular accelerations of every segment; compare with "
                   "run.true_moments over data[start:stop]")
    _rmse_check(moment_rmse, "rmse_quasi", {"quasi_static": True}, hint)
    return _rmse_answer(moment_rmse, "rmse_quasi", rmse_quasi, p, {"quasi_static": True},
                        hint)
