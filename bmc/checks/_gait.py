"""Checks of exercise set 4: inverse dynamics of the lower limb in running.

The data are van den Bogert's simulated running trial (:func:`bmc.datasets.load_running`);
the expected values come from :func:`bmc.newton_euler.lower_limb` on those data.
"""

from __future__ import annotations

from typing import Any

from bmc.checks._core import check_form, register_problem

__all__ = [
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
]

register_problem(
    "gait",
    "Inverse dynamics of the lower limb in running (van den Bogert's simulated trial)",
    lambda: [
        ("k", 4000, "-", "index of a mid-stance sample (0.1 s after heel strike)"),
        ("k_early", 3500, "-", "index of an early-stance sample"),
        ("k_late", 5000, "-", "index of a late-stance (push-off) sample"),
        ("start", 2750, "-", "first sample of the analysis window (25 ms before heel "
         "strike)"),
        ("stop", 5501, "-", "end of the analysis window (exclusive): data[start:stop]"),
        ("g", 9.80665, "m/s^2", "acceleration of free fall used by the simulation"),
    ],
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
