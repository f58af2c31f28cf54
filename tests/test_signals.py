"""Tests of bmc.signals against closed forms, convergence orders and filter theory."""

import numpy as np
import pytest

from bmc import signals


@pytest.mark.parametrize("n, degree", [(1, 2), (2, 3)])
def test_derivative_exact_on_polynomials(n, degree):
    # Both the central and the one-sided second-order stencils are exact for polynomials
    # of degree 2 (first derivative) and 3 (second derivative): only round-off remains.
    dt = 0.01
    t = 0.3 + dt * np.arange(20)
    c = np.array([0.7, -1.3, 2.1, 0.9])[: degree + 1]
    x = np.polyval(c, t)
    exact = np.polyval(np.polyder(c, n), t)
    np.testing.assert_allclose(signals.derivative(x, dt, n=n), exact, rtol=0, atol=1e-8)


@pytest.mark.parametrize("n", [1, 2])
def test_derivative_second_order_everywhere(n):
    # Halving dt must divide the maximum error, edges included, by about 4 (order 2).
    # A first-order edge (np.diff-like) would give a ratio of 2 at the ends.
    def max_err(dt):
        t = np.arange(0.0, 1.0 + dt / 2, dt)
        # phase 0.5: no derivative vanishes at the ends, so a low-order edge would show
        exact = 2 * np.cos(2 * t + 0.5) if n == 1 else -4 * np.sin(2 * t + 0.5)
        err = np.abs(signals.derivative(np.sin(2 * t + 0.5), dt, n=n) - exact)
        return err.max(), max(err[0], err[-1])

    (e1, edge1), (e2, edge2) = max_err(0.01), max_err(0.005)
    order, edge_order = np.log2(e1 / e2), np.log2(edge1 / edge2)
    # Observed orders within 0.1 of the theoretical 2 (higher-order terms are small here).
    np.testing.assert_allclose([order, edge_order], [2.0, 2.0], atol=0.1)


def test_derivative_is_aligned_in_time():
    # Peak of the second derivative of a Gaussian bump: the central stencil is symmetric,
    # so the estimate is symmetric about the centre sample (no one-sample shift).
    t = np.arange(-50, 51) * 0.01
    acc = signals.derivative(np.exp(-(t**2) / 0.02), 0.01, n=2)
    assert np.argmin(acc) == 50
    np.testing.assert_allclose(acc, acc[::-1], rtol=0, atol=1e-9)  # round-off only


def test_derivative_vectorised_over_columns():
    # Each trailing column is differentiated independently: same as one column at a time.
    t = np.arange(30) * 0.1
    x = np.stack([t**2, np.sin(t), np.cos(3 * t)], axis=1)[:, :, None] * [1.0, -2.0]
    d = signals.derivative(x, 0.1, n=2)
    assert d.shape == x.shape
    np.testing.assert_allclose(d[:, 1, 1], signals.derivative(x[:, 1, 1], 0.1, n=2),
                               rtol=0, atol=1e-12)  # identical arithmetic


def test_derivative_rejects_bad_input():
    with pytest.raises(ValueError, match="dt"):
        signals.derivative(np.arange(5.0), 0.0)
    with pytest.raises(ValueError, match="n .*must be an integer from 1 to 2"):
        signals.derivative(np.arange(5.0), 0.1, n=3)
    with pytest.raises(ValueError, match="at least 4 samples"):
        signals.derivative(np.arange(3.0), 0.1, n=2)
    with pytest.raises(ValueError, match="non-finite"):
        signals.derivative([0.0, np.nan, 1.0, 2.0], 0.1)


def _amplitude(freq, f, cutoff, order=2):
    t = np.arange(int(4 * freq)) / freq
    y = signals.lowpass(np.sin(2 * np.pi * f * t), freq, cutoff, order=order)
    mid = slice(len(t) // 4, 3 * len(t) // 4)  # away from the edge transients
    return np.sqrt(2 * np.mean(y[mid] ** 2)), t, y


def test_lowpass_attenuation_at_cutoff_is_one_half():
    # Butterworth |H(fc)| = 1/sqrt(2) per pass; forward-backward squares it: 1/2.
    # Steady-state amplitude over whole periods, measured to 1e-3.
    amp, _, _ = _amplitude(1000.0, 10.0, 10.0)
    np.testing.assert_allclose(amp, 0.5, atol=1e-3)
    # In the stop band the digital (bilinear) Butterworth gives, for two 2nd-order passes,
    # |H|^2 = 1 / (1 + (tan(pi f / fs) / tan(pi fc / fs))^4); 1 % allows the leftover
    # transient inside the measuring window.
    amp_stop, _, _ = _amplitude(1000.0, 100.0, 10.0)
    ratio = np.tan(np.pi * 100 / 1000) / np.tan(np.pi * 10 / 1000)
    np.testing.assert_allclose(amp_stop, 1.0 / (1.0 + ratio**4), rtol=0.01)


def test_lowpass_has_zero_lag():
    # A sine well inside the pass band comes out with no phase shift: cross-correlation
    # peaks at lag 0 and the output matches the input to the pass-band attenuation.
    amp, t, y = _amplitude(1000.0, 2.0, 20.0)
    x = np.sin(2 * np.pi * 2.0 * t)
    mid = slice(1000, 3000)
    lags = np.arange(-20, 21)
    xc = [np.dot(x[mid], np.roll(y, -k)[mid]) for k in lags]
    assert lags[int(np.argmax(xc))] == 0
    # |H|^2 at f/fc = 0.1 is 1/(1 + 0.1^4) = 0.9999: output equals input within 2e-4.
    np.testing.assert_allclose(y[mid], x[mid], rtol=0, atol=2e-4)


def test_lowpass_rejects_cutoff_above_nyquist():
    with pytest.raises(ValueError, match="Nyquist"):
        signals.lowpass(np.zeros(100), 100.0, 60.0)
    with pytest.raises(ValueError, match="order"):
        signals.lowpass(np.zeros(100), 100.0, 10.0, order=0)


def test_residual_analysis_finds_noise_level_and_sensible_cutoff():
    # White noise of RMS sigma: the fitted line's intercept estimates sigma (Winter), and
    # the chosen cut-off lies above the 3 Hz signal and well below the noise band.
    rng = np.random.default_rng(1)
    freq, sigma = 1000.0, 0.01
    t = np.arange(4000) / freq
    x = np.sin(2 * np.pi * 3 * t) + sigma * rng.standard_normal(t.size)
    res = signals.residual_analysis(x, freq, np.arange(1.0, 201.0))
    np.testing.assert_allclose(res.intercept, sigma, rtol=0.1)  # 4000 samples: ~2 % scatter
    assert 5.0 < res.cutoff < 40.0
    residuals, cutoff = res  # unpacks as (residuals, cutoff)
    assert residuals.shape == (200,) and cutoff == res.cutoff


def test_residual_analysis_per_column():
    # Two columns with different noise levels give two intercepts in that ratio.
    rng = np.random.default_rng(2)
    t = np.arange(4000) / 1000.0
    clean = np.sin(2 * np.pi * 3 * t)[:, None]
    x = clean + rng.standard_normal((t.size, 2)) * [0.01, 0.05]
    res = signals.residual_analysis(x, 1000.0, np.arange(1.0, 201.0))
    assert res.residuals.shape == (200, 2) and res.cutoff.shape == (2,)
    np.testing.assert_allclose(res.intercept, [0.01, 0.05], rtol=0.1)  # as above
    assert res.cutoff[1] < res.cutoff[0]  # more noise, lower cut-off


def test_residual_analysis_rejects_bad_cutoffs():
    with pytest.raises(ValueError, match="increasing"):
        signals.residual_analysis(np.zeros(100), 100.0, [10.0, 5.0, 20.0])
    with pytest.raises(ValueError, match="Nyquist"):
        signals.residual_analysis(np.zeros(100), 100.0, [10.0, 20.0, 50.0])
