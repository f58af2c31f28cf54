"""Exact checks of exercise set 4 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._gait_inverse_dynamics` (``answer_*``, from
:func:`bmc.newton_euler.lower_limb`), here at the student's own samples and window.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_value, problem
from bmc.checks._gait_inverse_dynamics import (
    _foot_inertial_moment,
    answer_ankle_loads,
    answer_rmse,
    answer_signs,
)
from bmc.checks._practice import check_group
from bmc.checks._sections import section

__all__ = [
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
]


def check_gait_signs(sign_ankle_moment: Any, sign_power_early: Any,
                     sign_power_late: Any) -> bool:
    """Question: signs of the ankle moment at mid-stance and of the ankle power.

    Three signs have few possible values: the message names the concept only.

    Parameters
    ----------
    sign_ankle_moment : int or str
        Sign of the moment acting on the foot at the ankle at sample ``k``
        (counter-clockwise positive, the runner moving towards +x).
    sign_power_early, sign_power_late : int or str
        Signs of the ankle joint power at samples ``k_early`` and ``k_late``.

    Returns
    -------
    bool
        ``True`` if all three are right.
    """
    p = problem("gait")
    return check_group(
        [("sign_ankle_moment", sign_ankle_moment, answer_signs(int(p.k), 2)[0]),
         ("sign_power_early", sign_power_early, answer_signs(int(p.k_early), 2)[1]),
         ("sign_power_late", sign_power_late, answer_signs(int(p.k_late), 2)[1])],
        kind="sign",
        hint=section("gait.powers", "in stance the calf muscles pull the heel up, a "
                     "plantarflexor moment that turns the foot toes-down, clockwise for a "
                     "runner moving to +x; power = moment x joint angular velocity is "
                     "negative while the muscles lengthen (absorption) and positive while "
                     "they shorten (generation)"))


def check_gait_foot_loads(Fa: Any, tau_a: Any) -> bool:
    """Question: force (2,) [N] and moment [N m] on the foot at the ankle at sample ``k``.

    Parameters
    ----------
    Fa : array_like, shape (2,)
        Force the shank exerts on the foot at the ankle [N].
    tau_a : float
        Moment the shank exerts on the foot at the ankle [N m], counter-clockwise positive.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    p = problem("gait")
    k = int(p.k)
    right_F, right_M = answer_ankle_loads(k)
    early_F, early_M = answer_ankle_loads(k, derivative="diff2")
    inertial = _foot_inertial_moment(k)
    hint = section("gait.segment", "the foot's centre of mass is at the ankle marker "
                   "(fraction 0); take second differences (x[k+1] - 2 x[k] + x[k-1]) freq^2 "
                   "of the ankle position and of the ankle->toe angle; the ground reaction "
                   "acts at (COPx, 0); F_1 = m a - m g - GRF with g = (0, -9.80665), then "
                   "moments about the centre of mass")
    check_value("Fa", Fa, right_F, rtol=1e-3, atol=1e-3, unit="N", hint=hint,
                mistakes=[("the force with accelerations one sample early", early_F)])
    return check_value("tau_a", tau_a, right_M, rtol=1e-3, atol=1e-4, unit="N m", hint=hint,
                       mistakes=[("the moment with accelerations one sample early",
                                  early_M),
                                 ("the moment with the foot's angle in degrees",
                                  right_M + (np.degrees(1.0) - 1.0) * inertial),
                                 ("the moment with the ground reaction's moment of the "
                                  "wrong sign", 2 * inertial - right_M)])


def _window() -> tuple[int, int]:
    p = problem("gait")
    return int(p.start), int(p.stop)


def check_gait_seed_error(rmse_diff2: Any, rmse_central: Any) -> bool:
    """Question: joint-moment errors with the source's ``np.diff`` and with central differences.

    Parameters
    ----------
    rmse_diff2, rmse_central : array_like, shape (3,)
        Root-mean-square differences [N m] between the computed and the true moments at
        hip, knee, ankle over ``data[start:stop]``, with ``derivative="diff2"`` and
        ``"central"``.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    start, stop = _window()
    hint = section("gait.one_sample", "bmc.newton_euler.lower_limb(markers, grf, freq, "
                   "segments, derivative=...) with 'diff2' and 'central', then the RMS of "
                   "(moments - true_moments) over data[p.start:p.stop], per joint (axis 0)")
    diff2 = answer_rmse(start, stop, derivative="diff2")
    central = answer_rmse(start, stop)
    check_value("rmse_diff2", rmse_diff2, diff2, rtol=1e-3, unit="N m", hint=hint,
                mistakes=[("the mean square, without the square root", diff2**2),
                          ("the error of the central differences", central)])
    return check_value("rmse_central", rmse_central, central, rtol=1e-3, unit="N m",
                       hint=hint, mistakes=[("the mean square, without the square root",
                                             central**2)])


def check_gait_quasi_static(rmse_quasi: Any) -> bool:
    """Question: joint-moment errors when every segment acceleration is neglected.

    Parameters
    ----------
    rmse_quasi : array_like, shape (3,)
        Root-mean-square differences [N m] between the quasi-static and the true moments at
        hip, knee, ankle over ``data[start:stop]``.

    Returns
    -------
    bool
        ``True`` if right.
    """
    start, stop = _window()
    quasi = answer_rmse(start, stop, quasi_static=True)
    return check_value(
        "rmse_quasi", rmse_quasi, quasi, rtol=1e-3, unit="N m",
        mistakes=[("the mean square, without the square root", quasi**2),
                  ("the error with the accelerations kept", answer_rmse(start, stop))],
        hint=section("gait.quasi_static", "lower_limb(..., quasi_static=True) neglects the "
                     "linear and angular accelerations of every segment; compare with "
                     "true_moments over data[p.start:p.stop]"))
