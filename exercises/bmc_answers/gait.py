"""Exact checks of exercise set 4 (grader side: never shipped to students)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from bmc.checks._core import check_sign, check_value, problem
from bmc.checks._gait_inverse_dynamics import _NB4

__all__ = [
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
]



@lru_cache(maxsize=4)
def _result(derivative: str = "central", quasi_static: bool = False):
    from bmc import datasets
    from bmc.newton_euler import lower_limb

    run = datasets.load_running()
    res = lower_limb(run.markers, run.grf, run.freq, run.segments, derivative=derivative,
                     quasi_static=quasi_static)
    return res, run


def check_gait_signs(sign_ankle_moment: Any, sign_power_early: Any,
                     sign_power_late: Any) -> bool:
    """Question: signs of the ankle moment at mid-stance and of the ankle power.

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
    res, _ = _result()
    hint = (f"{_NB4}, section 8 (joint powers): in stance the calf muscles pull the heel up, a "
            "plantarflexor moment "
            "that turns the foot toes-down, clockwise for a runner moving to +x; power = "
            "moment x joint angular velocity is negative while the muscles lengthen "
            "(absorption) and positive while they shorten (generation).")
    check_sign("sign_ankle_moment", sign_ankle_moment, res.moments[int(p.k), 2], hint=hint)
    check_sign("sign_power_early", sign_power_early, res.powers[int(p.k_early), 2], hint=hint)
    return check_sign("sign_power_late", sign_power_late, res.powers[int(p.k_late), 2],
                      hint=hint)


def check_gait_foot_loads(Fa: Any, Ma: Any) -> bool:
    """Question: force (2,) [N] and moment [N m] on the foot at the ankle at sample ``k``.

    Parameters
    ----------
    Fa : array_like, shape (2,)
        Force the shank exerts on the foot at the ankle [N].
    Ma : float
        Moment the shank exerts on the foot at the ankle [N m], counter-clockwise positive.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    k = int(problem("gait").k)
    res, _ = _result()
    hint = (f"{_NB4}, sections 3-4 (Newton-Euler, foot first): its centre of mass is at the "
            "ankle marker "
            "(fraction 0); take second differences (x[k+1] - 2 x[k] + x[k-1]) freq^2 of the "
            "ankle position and of the ankle->toe angle; the ground reaction acts at "
            "(COPx, 0); F_a = m a - m g - GRF with g = (0, -9.80665), then moments about "
            "the centre of mass.")
    check_value("Fa", Fa, res.forces[k, 2], rtol=1e-3, atol=1e-3, unit="N", hint=hint)
    return check_value("Ma", Ma, res.moments[k, 2], rtol=1e-3, atol=1e-4, unit="N m",
                       hint=hint)


def _rmse(res, run) -> np.ndarray:
    from bmc.signals import rmse

    p = problem("gait")
    window = slice(int(p.start), int(p.stop))
    return rmse(res.moments[window], run.true_moments[window])


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
    hint = (f"{_NB4}, section 5 (one sample early): bmc.newton_euler.lower_limb(markers, grf, "
            "freq, segments, derivative=...) with 'diff2' and 'central', then the RMS of "
            "(moments - true_moments) over data[p.start:p.stop], per joint (axis 0).")
    check_value("rmse_diff2", rmse_diff2, _rmse(*_result("diff2")), rtol=1e-3, unit="N m",
                hint=hint)
    return check_value("rmse_central", rmse_central, _rmse(*_result("central")), rtol=1e-3,
                       unit="N m", hint=hint)


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
    return check_value(
        "rmse_quasi", rmse_quasi, _rmse(*_result("central", True)), rtol=1e-3, unit="N m",
        hint=f"{_NB4}, section 6 (the quasi-static approach): lower_limb(..., quasi_static=True) "
        "neglects the linear and angular accelerations of every segment; compare with "
        "true_moments over data[p.start:p.stop].")
