"""Gait inverse dynamics with measurement noise: what noise and the cut-off do to moments.

- :func:`noisy_running` degrades van den Bogert's simulated running trial the way a
  laboratory would measure it: optional decimation, Gaussian noise on the marker
  coordinates, the ground reaction force and the centre of pressure (seeded).
- :func:`noise_explorer` shows hip, knee and ankle moments computed by
  :func:`bmc.newton_euler.lower_limb` from such data, low-pass filtered at a chosen cut-off,
  against the true moments, with sliders for the noise levels and the cut-off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bmc import signals
from bmc._validation import positive
from bmc.plotting import estimates_against_truth
from bmc.widgets._base import explorer
from bmc.widgets._style import series
from bmc.widgets._widget import twinned

__all__ = ["NoisyTrial", "noise_explorer", "noisy_running"]


def __dir__() -> list[str]:
    return sorted(__all__)

_JOINTS = ("hip", "knee", "ankle")


@dataclass(frozen=True)
class NoisyTrial:
    """A (decimated, noisy) copy of the running trial; time on axis 0.

    Attributes
    ----------
    freq : float
        Sampling frequency after decimation [Hz].
    time : numpy.ndarray, shape (N,)
        Sample times [s].
    markers : numpy.ndarray, shape (N, 8)
        Hip, knee, ankle, toe positions with noise [m].
    grf : numpy.ndarray, shape (N, 3)
        Ground reaction force ``Fx, Fy`` [N] and centre of pressure ``x`` [m], with noise.
    true_moments : numpy.ndarray, shape (N, 3)
        True hip, knee, ankle moments [N m] (no noise).
    segments : object
        The trial's segment parameters (unchanged).
    window : slice
        The stance window used for errors: from 250 samples (25 ms) before heel strike to
        500 samples (50 ms) before the end of the original 10 kHz record.
    """

    freq: float
    time: np.ndarray
    markers: np.ndarray
    grf: np.ndarray
    true_moments: np.ndarray
    segments: Any
    window: slice


def noisy_running(
    run: Any = None,
    *,
    step: int = 1,
    marker_noise: float = 0.0,
    force_noise: float = 0.0,
    cop_noise: float = 0.0,
    seed: int = 0,
) -> NoisyTrial:
    """Decimate the running trial and add seeded Gaussian measurement noise.

    The same ``seed`` always draws the same standard-normal pattern, so changing a noise
    level only rescales it: comparisons between levels or cut-offs are not blurred by a
    new random draw.

    Parameters
    ----------
    run : bmc.datasets.Running, optional
        The trial (default: :func:`bmc.datasets.load_running`).
    step : int, optional
        Keep every ``step``-th sample (10 turns 10 kHz into 1 kHz). Default 1.
    marker_noise : float, optional
        Standard deviation of the noise on each marker coordinate [m]. Default 0.
    force_noise : float, optional
        Standard deviation of the noise on ``Fx`` and ``Fy`` [N]. Default 0.
    cop_noise : float, optional
        Standard deviation of the noise on the centre of pressure [m], added only while
        the foot is on the ground (``Fy > 0``). Default 0.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`. Default 0.

    Returns
    -------
    NoisyTrial
        The degraded data with the true moments and the stance window.

    Examples
    --------
    >>> trial = noisy_running(step=10, marker_noise=1e-3, seed=1)  # doctest: +SKIP
    >>> trial.freq, trial.markers.shape  # doctest: +SKIP
    (1000.0, (601, 8))
    """
    if run is None:
        from bmc import datasets

        run = datasets.load_running()
    if not all(hasattr(run, a) for a in ("markers", "grf", "freq")):
        raise TypeError("run must be the running trial of bmc.datasets.load_running() (or "
                        f"None to load it); got {type(run).__name__} {str(run)[:60]!r}")
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step < 1:
        raise ValueError(f"step must be a positive integer (decimation factor); got {step!r}")
    full = np.asarray(run.markers).shape[0]
    # at most: 16 samples left in the stance window, and a rate of 20 Hz (lower_limb's least)
    limit = max(1, min((full - 500 - (run.heel_strike - 250)) // 16, int(run.freq // 20)))
    if step > limit:
        raise ValueError(f"step must be at most {limit} for this trial (16 samples or more in "
                         f"the stance window, {run.freq:g} Hz / step at least 20 Hz); got "
                         f"{step}: 10 turns {run.freq:g} Hz into {run.freq / 10:g} Hz")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or seed < 0):
        raise ValueError(f"seed must be a non-negative integer (or None); got {seed!r}")
    sd_m = positive(marker_noise, "marker_noise", unit="m", allow_zero=True)
    sd_f = positive(force_noise, "force_noise", unit="N", allow_zero=True)
    sd_c = positive(cop_noise, "cop_noise", unit="m", allow_zero=True)
    markers = np.asarray(run.markers, dtype=float)[::step]
    grf = np.array(run.grf, dtype=float)[::step]
    n = markers.shape[0]
    rng = np.random.default_rng(seed)
    z_markers = rng.standard_normal(markers.shape)
    z_force = rng.standard_normal((n, 2))
    z_cop = rng.standard_normal(n)
    contact = grf[:, 1] > 0
    grf[:, :2] += sd_f * z_force
    grf[:, 2] += sd_c * z_cop * contact
    start = -(-(run.heel_strike - 250) // step)  # first kept sample at or after it
    stop = -(-(full - 500) // step)
    return NoisyTrial(
        freq=float(run.freq) / step,
        time=np.asarray(run.time)[::step],
        markers=markers + sd_m * z_markers,
        grf=grf,
        true_moments=np.asarray(run.true_moments)[::step],
        segments=run.segments,
        window=slice(start, stop),
    )


@twinned
def noise_explorer(
    run: Any = None,
    *,
    step: int = 10,
    seed: int = 0,
    interactive: bool = True,
    values: dict[str, float] | None = None,
):
    """Explore how marker and force noise and the low-pass cut-off change joint moments.

    Three panels (hip, knee, ankle) show the true moment and the moment from
    :func:`bmc.newton_euler.lower_limb` on noisy data filtered at the chosen cut-off, over
    the stance window, with the RMS error in each title.

    Parameters
    ----------
    run : bmc.datasets.Running, optional
        The trial (default: :func:`bmc.datasets.load_running`).
    step : int, optional
        Decimation factor (keyword-only); default 10, i.e. 1 kHz, which keeps each update
        fast and is a typical force-plate rate.
    seed : int, optional
        Seed of the noise pattern (keyword-only). Default 0.
    interactive : bool, optional
        Return the ipywidgets explorer (default) or, if ``False``, apply ``values`` once
        and return the figure.
    values : dict, optional
        Values for the controls ``marker_noise`` [mm], ``force_noise`` [N] and ``cutoff``
        [Hz] on the non-interactive path.

    Notes
    -----
    The centre-of-pressure noise is set to twice the marker noise (force plates locate the
    centre of pressure less precisely than cameras locate markers).

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets

    from bmc import datasets, newton_euler

    if run is None:
        run = datasets.load_running()
    clean = noisy_running(run, step=step)
    top = 100.0  # the cut-off slider's maximum [Hz], below the Nyquist frequency
    if clean.freq <= 2 * top:
        raise ValueError(f"step must leave a sampling rate above {2 * top:g} Hz (twice the "
                         f"highest cut-off of the slider, {top:g} Hz); got step = {step}, "
                         f"{clean.freq:g} Hz: take step {int(run.freq // (2 * top + 1))} or "
                         "less")
    win = clean.window
    t = clean.time[win]
    truth = clean.true_moments[win]

    axes, lines = estimates_against_truth(
        t, truth, {"noisy, filtered": series(0, linewidth=1.4)},
        titles=_JOINTS, ylabel="joint moment [N m]", margin=0.3,
    )
    fig = axes[0].figure
    fig.tight_layout()

    shown: dict[str, Any] = {}

    def update(marker_noise: float, force_noise: float, cutoff: float) -> None:
        trial = noisy_running(run, step=step, marker_noise=marker_noise * 1e-3,
                              force_noise=force_noise, cop_noise=2 * marker_noise * 1e-3,
                              seed=seed)
        res = newton_euler.lower_limb(trial.markers, trial.grf, trial.freq, trial.segments,
                                      cutoff=cutoff)
        est = res.moments[win]
        rmse = signals.rmse(est, truth)
        for j, ax in enumerate(axes):
            lines["noisy, filtered"][j].set_ydata(est[:, j])
            ax.set_title(f"{_JOINTS[j]}: RMSE {rmse[j]:.2f} N m")
        shown.update(marker=marker_noise, force=force_noise, cutoff=cutoff, rmse=rmse,
                     peak=np.abs(est).max(axis=0), true_peak=np.abs(truth).max(axis=0))

    def describe() -> str:
        joints = "; ".join(
            f"{name}: RMS error {e:.2f} N m, largest moment {p:.0f} N m (true {q:.0f} N m)"
            for name, e, p, q in zip(_JOINTS, shown["rmse"], shown["peak"],
                                     shown["true_peak"], strict=True))
        return (
            f"Hip, knee and ankle moments over stance, {t[-1] - t[0]:.2f} s: the true moment "
            f"and the moment from data with {shown['marker']:.1f} mm marker noise and "
            f"{shown['force']:.1f} N force noise, low-pass filtered at {shown['cutoff']:g} Hz. "
            f"{joints}.")

    style = {"description_width": "initial"}
    controls = {
        "marker_noise": widgets.FloatSlider(value=1.0, min=0.0, max=3.0, step=0.1,
                                            description="marker noise [mm]", style=style),
        "force_noise": widgets.FloatSlider(value=2.0, min=0.0, max=10.0, step=0.5,
                                           description="force noise [N]", style=style),
        "cutoff": widgets.FloatSlider(value=20.0, min=5.0, max=top, step=2.5,
                                      description="cut-off [Hz]", style=style),
    }
    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
