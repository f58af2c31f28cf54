"""Signals sampled in time: finite-difference derivatives, zero-lag low-pass, cut-off choice.

Axis 0 is time everywhere: ``x`` has shape ``(N,)`` or ``(N, ...)`` and every sample of the
trailing dimensions is treated as an independent signal.

- :func:`derivative` computes first or second derivatives with central differences inside
  and second-order one-sided differences at the two ends, so the result has the shape of
  the input, is aligned in time with it, and is exact for polynomials up to degree 2
  (first derivative) or 3 (second derivative).
- :func:`lowpass` is a Butterworth filter run forward and backward (zero phase lag), in
  second-order sections, which stay accurate at high orders and low cut-offs.
- :func:`residual_analysis` chooses a cut-off frequency with Winter's residual analysis and
  warns (:class:`BMCWarning`) when the residuals show no knee.

Notes
-----
``np.diff(x, n=2) / dt**2`` has ``N - 2`` samples and its sample ``i`` estimates the
second derivative at sample ``i + 1`` of ``x``: using it against ``x[i]`` (or padding it
at the end) shifts the acceleration one sample earlier. :func:`derivative` avoids this.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import BMCWarning, as_array, integer, number, positive
from bmc._validation import cutoff_frequency as _cutoff
from bmc._validation import filter_order as _order

__all__ = [
    "BMCWarning",
    "ResidualAnalysis",
    "derivative",
    "lowpass",
    "overall_rmse",
    "residual_analysis",
    "rmse",
]


def __dir__() -> list[str]:
    return sorted(__all__)


def _signal(x: ArrayLike, name: str, minimum: int) -> np.ndarray:
    """Check a signal with time on axis 0 and at least ``minimum`` samples."""
    arr = as_array(x, name)
    if arr.ndim == 0 or arr.shape[0] < minimum:
        raise ValueError(
            f"{name} must have time on axis 0 with at least {minimum} samples; "
            f"got shape {arr.shape}"
        )
    return arr


def derivative(x: ArrayLike, dt: float, *, n: int = 1) -> np.ndarray:
    r"""Differentiate a sampled signal along axis 0 (time).

    Central differences inside the record; second-order one-sided differences at the first
    and last samples, so that the error is :math:`O(\Delta t^2)` everywhere.

    Parameters
    ----------
    x : array_like, shape (N, ...)
        Signal sampled at constant interval, time on axis 0, in any unit [u].
        At least 3 samples for ``n=1`` and 4 for ``n=2``.
    dt : float
        Sampling interval [s] (``1 / freq``).
    n : {1, 2}, optional
        Order of the derivative (keyword-only). Default 1.

    Returns
    -------
    numpy.ndarray, shape (N, ...)
        :math:`d^n x / dt^n` [u/s or u/s^2], aligned sample by sample with ``x``.

    Raises
    ------
    ValueError
        If ``dt`` is not positive, ``n`` is not 1 or 2, ``x`` is too short or not finite.

    Notes
    -----
    Inside: :math:`\dot x_i = (x_{i+1} - x_{i-1}) / (2\Delta t)` and
    :math:`\ddot x_i = (x_{i+1} - 2x_i + x_{i-1}) / \Delta t^2`. At the first sample:
    :math:`\dot x_0 = (-3x_0 + 4x_1 - x_2) / (2\Delta t)` and
    :math:`\ddot x_0 = (2x_0 - 5x_1 + 4x_2 - x_3) / \Delta t^2`; the last sample mirrors
    these. Both stencils are exact for polynomials of degree 2 (``n=1``) and 3 (``n=2``).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(5) * 0.1
    >>> np.round(derivative(t**2, 0.1), 6)
    array([0. , 0.2, 0.4, 0.6, 0.8])
    >>> np.round(derivative(t**3, 0.1, n=2), 6) + 0.0
    array([0. , 0.6, 1.2, 1.8, 2.4])
    """
    n = integer(n, "n", minimum=1, maximum=2, what="order of the derivative")
    step = positive(dt, "dt", unit="s")
    arr = _signal(x, "x", 3 if n == 1 else 4)
    out = np.empty_like(arr)
    if n == 1:
        out[1:-1] = (arr[2:] - arr[:-2]) / (2.0 * step)
        out[0] = (-3.0 * arr[0] + 4.0 * arr[1] - arr[2]) / (2.0 * step)
        out[-1] = (3.0 * arr[-1] - 4.0 * arr[-2] + arr[-3]) / (2.0 * step)
    else:
        out[1:-1] = (arr[2:] - 2.0 * arr[1:-1] + arr[:-2]) / step**2
        out[0] = (2.0 * arr[0] - 5.0 * arr[1] + 4.0 * arr[2] - arr[3]) / step**2
        out[-1] = (2.0 * arr[-1] - 5.0 * arr[-2] + 4.0 * arr[-3] - arr[-4]) / step**2
    return out


def lowpass(x: ArrayLike, freq: float, cutoff: float, *, order: int = 2) -> np.ndarray:
    r"""Zero-lag Butterworth low-pass filter along axis 0 (time).

    The filter runs forward and backward (:func:`scipy.signal.sosfiltfilt`), which cancels
    the phase lag and squares the amplitude response. It is applied as a cascade of
    second-order sections: the single transfer function ``b, a`` of a high order at a low
    cut-off has coefficients that round-off ruins (order 8 at 1 Hz of 1000 Hz gives values
    of 1e42), the sections do not. Where ``b, a`` is well conditioned the two agree to
    round-off.

    Parameters
    ----------
    x : array_like, shape (N, ...)
        Signal, time on axis 0, in any unit [u].
    freq : float
        Sampling frequency [Hz].
    cutoff : float
        Cut-off frequency of one pass [Hz], below ``freq / 2``.
    order : int, optional
        Order of ONE pass (keyword-only), at least 1; the zero-lag result has twice this
        order. Default 2, the usual choice in biomechanics (4th order in total).

    Returns
    -------
    numpy.ndarray, shape (N, ...)
        The filtered signal [u].

    Notes
    -----
    Each pass attenuates a sine at ``cutoff`` to :math:`1/\sqrt{2}` of its amplitude, so
    the two passes attenuate it to 1/2 (-6 dB). Winter (2009, ch. 3) raises the cut-off
    of each pass by 1/0.802 to restore -3 dB for a second-order filter; this function does
    not, so ``cutoff`` is where the zero-lag output is halved.

    References
    ----------
    .. [1] Winter, D. A. (2009). *Biomechanics and Motor Control of Human Movement*
       (4th ed.). Wiley. Chapter 3.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(1000) / 1000.0
    >>> slow = np.sin(2 * np.pi * 2 * t)
    >>> y = lowpass(slow + 0.1 * np.sin(2 * np.pi * 200 * t), 1000.0, 20.0)
    >>> bool(np.max(np.abs(y - slow)[100:-100]) < 1e-3)
    True
    """
    from scipy.signal import butter, sosfiltfilt

    fs = positive(freq, "freq", unit="Hz")
    fc = _cutoff(cutoff, fs)
    k = _order(order)
    arr = _signal(x, "x", 3 * (k + 1) + 1)
    sos = butter(k, fc / (fs / 2.0), output="sos")
    # sosfiltfilt's default padding, 3 (2 sections + 1 - trailing zeros), equals filtfilt's
    # 3 (order + 1) for every order, so the edges are treated as before.
    return sosfiltfilt(sos, arr, axis=0)


@dataclass(frozen=True)
class ResidualAnalysis:
    """Result of :func:`residual_analysis`.

    Unpacks as ``residuals, cutoff = residual_analysis(...)``.

    Attributes
    ----------
    cutoffs : numpy.ndarray, shape (K,)
        Cut-off frequencies tried [Hz].
    residuals : numpy.ndarray, shape (K,) or (K, ...)
        RMS of ``x - lowpass(x, freq, cutoff)`` per cut-off [u], one column per signal.
    intercept : numpy.ndarray, shape () or (...)
        Value at 0 Hz of the straight line fitted to the high-frequency residuals [u]: an
        estimate of the noise RMS.
    slope : numpy.ndarray, shape () or (...)
        Slope of that line [u/Hz].
    cutoff : numpy.ndarray, shape () or (...)
        Chosen cut-off [Hz]: the lowest frequency where the residual falls to the
        intercept (linear interpolation between the cut-offs tried).
    """

    cutoffs: np.ndarray
    residuals: np.ndarray
    intercept: np.ndarray
    slope: np.ndarray
    cutoff: np.ndarray

    def __iter__(self):
        """Yield ``residuals`` then ``cutoff`` (tuple unpacking)."""
        return iter((self.residuals, self.cutoff))


def residual_analysis(
    x: ArrayLike,
    freq: float,
    cutoffs: ArrayLike,
    *,
    order: int = 2,
    fit_from: float | None = None,
) -> ResidualAnalysis:
    """Choose a low-pass cut-off by residual analysis (Winter 2009, ch. 3).

    For each cut-off the signal is filtered with :func:`lowpass` and the RMS of the
    residual ``x - filtered`` is computed. Above the signal's bandwidth the residual is
    mostly noise and falls linearly with the cut-off; the straight line fitted there,
    extrapolated to 0 Hz, estimates the noise RMS. The chosen cut-off is where the
    residual curve meets that level: noise and signal distortion are then balanced.

    Parameters
    ----------
    x : array_like, shape (N,) or (N, ...)
        Signal, time on axis 0, in any unit [u]; each trailing column is analysed alone.
    freq : float
        Sampling frequency [Hz].
    cutoffs : array_like, shape (K,)
        Increasing cut-off frequencies to try [Hz], all below ``freq / 2``, K >= 3.
    order : int, optional
        Order of one filter pass (keyword-only), as in :func:`lowpass`. Default 2.
    fit_from : float, optional
        Lowest cut-off [Hz] used in the straight-line fit (keyword-only). Default: the
        middle of the range, ``(cutoffs[0] + cutoffs[-1]) / 2``.

    Returns
    -------
    ResidualAnalysis
        Cut-offs, residuals, fitted line and chosen cut-off (per column).

    Warns
    -----
    BMCWarning
        When a column shows no knee: its residual at the lowest cut-off tried is within a
        factor sqrt(2) of the fitted noise line (the signal distorted by that filter adds
        less than the noise itself: pure noise, or a signal slower than every cut-off), or
        the chosen cut-off is an end of the range. The cut-off returned is then not a
        balance of noise and distortion; try lower cut-offs or look at the residual plot.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> t = np.arange(2000) / 1000.0
    >>> x = np.sin(2 * np.pi * 3 * t) + 0.01 * rng.standard_normal(t.size)
    >>> res = residual_analysis(x, 1000.0, np.arange(1, 101))
    >>> bool(5 < res.cutoff < 30)
    True
    """
    fs = positive(freq, "freq", unit="Hz")
    fcs = as_array(cutoffs, "cutoffs", unit="Hz", ndim=1)
    if fcs.size < 3 or np.any(np.diff(fcs) <= 0):
        raise ValueError(
            f"cutoffs [Hz] must be at least 3 increasing frequencies; got {fcs!r:.80}"
        )
    for fc in (fcs[0], fcs[-1]):
        _cutoff(fc, fs, "cutoffs")
    start = (0.5 * (fcs[0] + fcs[-1]) if fit_from is None
             else number(fit_from, "fit_from", unit="Hz"))
    fit = fcs >= start
    if fit.sum() < 2:
        raise ValueError(
            f"fit_from [Hz] must leave at least 2 cut-offs for the line fit; got {start:g} Hz "
            f"with cutoffs up to {fcs[-1]:g} Hz"
        )
    arr = _signal(x, "x", 3 * (_order(order) + 1) + 1)
    res = np.stack([rmse(lowpass(arr, fs, fc, order=order), arr) for fc in fcs])
    flat = res.reshape(len(fcs), -1)
    slope, intercept = np.polyfit(fcs[fit], flat[fit], 1)
    chosen = np.empty(flat.shape[1])
    for j in range(flat.shape[1]):
        below = np.nonzero(flat[:, j] <= intercept[j])[0]
        if below.size == 0:
            chosen[j] = fcs[-1]
        elif below[0] == 0:
            chosen[j] = fcs[0]
        else:
            i = below[0]
            r0, r1 = flat[i - 1, j], flat[i, j]
            chosen[j] = fcs[i - 1] + (r0 - intercept[j]) / (r0 - r1) * (fcs[i] - fcs[i - 1])
    _warn_without_knee(fcs, flat, intercept, slope, chosen)
    shape = res.shape[1:]
    return ResidualAnalysis(
        cutoffs=fcs,
        residuals=res,
        intercept=intercept.reshape(shape),
        slope=slope.reshape(shape),
        cutoff=chosen.reshape(shape),
    )


def _warn_without_knee(fcs: np.ndarray, flat: np.ndarray, intercept: np.ndarray,
                       slope: np.ndarray, chosen: np.ndarray) -> None:
    """Warn for each column whose residual curve has no knee in the range tried."""
    line_low = intercept + slope * fcs[0]
    no_knee = ((flat[0] < np.sqrt(2.0) * np.abs(line_low)) | (chosen <= fcs[0])
               | (chosen >= fcs[-1]))
    if np.any(no_knee):
        cols = np.flatnonzero(no_knee)
        which = "" if flat.shape[1] == 1 else f" in column(s) {cols.tolist()[:10]} of x"
        j = int(cols[0])
        warnings.warn(
            f"residual_analysis found no knee{which}: the residual at the lowest cut-off "
            f"({fcs[0]:g} Hz) is {flat[0, j]:.3g}, the noise line there {line_low[j]:.3g}, "
            f"and the chosen cut-off is {chosen[j]:.3g} Hz. x looks like noise alone or its "
            "signal lies below every cut-off tried: try lower cut-offs or a longer record, "
            "and inspect the residual curve before using this cut-off",
            BMCWarning,
            stacklevel=3,
        )


def rmse(estimate: ArrayLike, truth: ArrayLike, *, axis: int = 0) -> np.ndarray:
    """Root-mean-square error over frames (axis 0 by default), channel by channel.

    Parameters
    ----------
    estimate, truth : array_like, shape (N, ...)
        Estimated and exact values, same shape, any unit [u].
    axis : int, optional
        The axis to average over (default 0, time).

    Returns
    -------
    numpy.ndarray, shape (...)
        RMSE per channel [u].

    Examples
    --------
    >>> print(np.round(rmse([[1.0, 0.0], [-1.0, 0.0]], [[0.0, 0.0], [0.0, 2.0]]), 4))
    [1.     1.4142]
    """
    estimate = as_array(estimate, "estimate")
    truth = as_array(truth, "truth")
    axis = integer(axis, "axis", what="the axis to average over")
    if not -max(estimate.ndim, 1) <= axis < max(estimate.ndim, 1):
        raise ValueError(f"axis must name an axis of estimate, which has shape "
                         f"{estimate.shape}; got axis={axis}")
    if estimate.shape != truth.shape:
        raise ValueError(
            f"estimate and truth must have the same shape; got {estimate.shape} and "
            f"{truth.shape}"
        )
    if estimate.ndim == 0 or estimate.shape[axis] == 0:
        raise ValueError(
            f"estimate and truth need at least one frame on axis {axis}; got shape "
            f"{estimate.shape}"
        )
    return np.sqrt(np.mean((estimate - truth) ** 2, axis=axis))


def overall_rmse(estimate: ArrayLike, truth: ArrayLike) -> float:
    r"""One error for several channels: the root of the mean of the squared channel RMSEs.

    With the norm ``||x||^2 = (1/m) sum x_j^2`` (Kuo 1998, eq. 15) this is
    :math:`\sqrt{(\mathrm{rmse}_1^2 + \dots + \mathrm{rmse}_m^2)/m}`.

    Parameters
    ----------
    estimate, truth : array_like, shape (N, m)
        Estimated and exact values [u].

    Returns
    -------
    float
        [u].

    Examples
    --------
    >>> print(round(overall_rmse([[1.0, 0.0], [-1.0, 0.0]], [[0.0, 0.0], [0.0, 2.0]]), 4))
    1.2247
    """
    per_channel = rmse(estimate, truth)
    if per_channel.size == 0:
        raise ValueError(f"estimate and truth need at least one channel; got shape "
                         f"{np.shape(estimate)}")
    return float(np.sqrt(np.mean(per_channel ** 2)))
