"""Checks of exercise set 4: inverse dynamics of the lower limb in running.

The data are van den Bogert's simulated running trial (:func:`bmc.datasets.load_running`);
the expected values come from :func:`bmc.newton_euler.lower_limb` on those data. A
student's variant (``problem("gait", student=ID)``) has its own samples ``k``,
``k_early``, ``k_late`` and its own analysis window ``start:stop``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem

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

_NB4 = "notebooks/04_gait_inverse_dynamics.ipynb"



def check_gait_signs(sign_ankle_moment: Any, sign_power_early: Any, sign_power_late: Any) -> bool:
    """Public check of question 1: three signs.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB4}, ankle moment and power."
    check_form("sign_ankle_moment", sign_ankle_moment, kind="sign", hint=hint)
    check_form("sign_power_early", sign_power_early, kind="sign", hint=hint)
    return check_form("sign_power_late", sign_power_late, kind="sign", hint=hint)


def check_gait_foot_loads(Fa: Any, Ma: Any) -> bool:
    """Public check of question 2: the ankle force (2 numbers [N]) and moment (1 number [N m]).

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB4}, Newton-Euler for the foot."
    check_form("Fa", Fa, shape=(2,), unit="N", hint=hint)
    return check_form("Ma", Ma, unit="N m", hint=hint)


def check_gait_seed_error(rmse_diff2: Any, rmse_central: Any) -> bool:
    """Public check of question 3: two RMSEs of three joints each [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB4}, derivatives of noisy data."
    check_form("rmse_diff2", rmse_diff2, shape=(3,), unit="N m", hint=hint)
    return check_form("rmse_central", rmse_central, shape=(3,), unit="N m", hint=hint)


def check_gait_quasi_static(rmse_quasi: Any) -> bool:
    """Public check of question 4: an RMSE of three joints [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("rmse_quasi", rmse_quasi, shape=(3,), unit="N m",
                      hint=f"{_NB4}, the quasi-static approximation.")
