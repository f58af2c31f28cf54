"""bmc.signals: every bad input refused with a message naming the argument; no NaN out."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import signals
from bmc._validation import BMCWarning

T = np.arange(400) / 200.0
X = np.sin(2 * np.pi * 2 * T)                      # a valid signal, 200 Hz, 2 s
NAN_AT_7 = X.copy()
NAN_AT_7[7] = np.nan
CUTS = np.arange(1.0, 60.0)

VALID = {
    signals.derivative: {"x": X, "dt": 0.005},
    signals.lowpass: {"x": X, "freq": 200.0, "cutoff": 10.0},
    signals.residual_analysis: {"x": X, "freq": 200.0, "cutoffs": CUTS},
    signals.rmse: {"estimate": X, "truth": X + 0.1},
    signals.overall_rmse: {"estimate": np.c_[X, X], "truth": np.c_[X, X + 0.1]},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


# Values of every kind that must never pass for a number.
WRONG_TYPES = [("'200'", "200"), ("True", True), ("complex", 200 + 1j), ("None", None),
               ("object", object())]
ARRAY_TYPES = [("text", "abc"), ("bools", [True, False] * 20), ("complex", X + 1j),
               ("None inside", [0.0, None] * 20), ("objects", np.array([{}] * 40))]

CASES = [
    # wrong types
    *[case(f, TypeError, "x", x=v) for f in (signals.derivative, signals.lowpass,
                                             signals.residual_analysis) for _, v in ARRAY_TYPES],
    *[case(signals.derivative, TypeError, "dt", dt=v) for _, v in WRONG_TYPES],
    *[case(signals.lowpass, TypeError, "freq", freq=v) for _, v in WRONG_TYPES],
    *[case(signals.lowpass, TypeError, "cutoff", cutoff=v) for _, v in WRONG_TYPES],
    *[case(signals.residual_analysis, TypeError, "freq", freq=v) for _, v in WRONG_TYPES],
    case(signals.residual_analysis, TypeError, "cutoffs", cutoffs="1, 2, 3"),
    case(signals.residual_analysis, TypeError, "fit_from", fit_from="30"),
    case(signals.derivative, TypeError, "n", n=1.0),
    case(signals.derivative, TypeError, "n", n=True),
    case(signals.derivative, TypeError, "n", n="2"),
    case(signals.lowpass, TypeError, "order", order=2.0),
    case(signals.lowpass, TypeError, "order", order=True),
    case(signals.lowpass, TypeError, "order", order="4"),
    case(signals.residual_analysis, TypeError, "order", order=2.5),
    case(signals.rmse, TypeError, "estimate", estimate="1.0"),
    case(signals.rmse, TypeError, "truth", truth=X + 1j),
    case(signals.rmse, TypeError, "axis", axis=0.0),
    case(signals.rmse, TypeError, "axis", axis=True),
    case(signals.overall_rmse, TypeError, "estimate", estimate=None),
    # wrong shapes and frame counts
    case(signals.derivative, ValueError, "x", x=X[:2]),
    case(signals.derivative, ValueError, "x", x=X[:3], n=2),
    case(signals.derivative, ValueError, "x", x=1.0),
    case(signals.derivative, ValueError, "x", x=[[0.0, 1.0], [1.0]]),
    case(signals.derivative, ValueError, "dt", dt=[0.005, 0.005]),
    case(signals.lowpass, ValueError, "x", x=X[:9]),            # shorter than the padding
    case(signals.lowpass, ValueError, "x", x=X[:20], order=8),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=[1.0, 2.0]),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=CUTS[::-1]),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=np.c_[CUTS, CUTS]),
    case(signals.rmse, ValueError, "truth", truth=X[:-1]),
    case(signals.rmse, ValueError, "estimate", estimate=[], truth=[]),
    case(signals.rmse, ValueError, "estimate", estimate=np.zeros((0, 3)),
         truth=np.zeros((0, 3))),
    case(signals.rmse, ValueError, "axis", axis=3),
    case(signals.overall_rmse, ValueError, "estimate", estimate=[], truth=[]),
    # non-finite values
    case(signals.derivative, ValueError, "x", x=NAN_AT_7),
    case(signals.lowpass, ValueError, "x", x=np.where(T > 1, np.inf, X)),
    case(signals.residual_analysis, ValueError, "x", x=NAN_AT_7),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=[1.0, np.nan, 3.0]),
    case(signals.rmse, ValueError, "estimate", estimate=NAN_AT_7),
    case(signals.derivative, ValueError, "dt", dt=np.nan),
    case(signals.derivative, ValueError, "dt", dt=np.inf),
    case(signals.lowpass, ValueError, "freq", freq=np.nan),
    case(signals.lowpass, ValueError, "cutoff", cutoff=np.inf),
    case(signals.residual_analysis, ValueError, "fit_from", fit_from=np.nan),
    # wrong signs
    case(signals.derivative, ValueError, "dt", dt=-0.005),
    case(signals.derivative, ValueError, "dt", dt=0.0),
    case(signals.lowpass, ValueError, "freq", freq=-200.0),
    case(signals.lowpass, ValueError, "cutoff", cutoff=-10.0),
    case(signals.lowpass, ValueError, "order", order=0),
    case(signals.lowpass, ValueError, "order", order=-2),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=np.arange(-5.0, 60.0)),
    # out of range
    case(signals.derivative, ValueError, "n", n=3),
    case(signals.derivative, ValueError, "n", n=0),
    case(signals.lowpass, ValueError, "cutoff", cutoff=100.0),   # at Nyquist
    case(signals.lowpass, ValueError, "cutoff", cutoff=150.0),
    case(signals.residual_analysis, ValueError, "cutoffs", cutoffs=np.arange(1.0, 150.0)),
    case(signals.residual_analysis, ValueError, "fit_from", fit_from=1000.0),
    # implausible units: a cut-off in rad/s (2 pi 10) or a sampling rate in kHz
    case(signals.lowpass, ValueError, "cutoff", cutoff=2 * np.pi * 20, freq=200.0),
    case(signals.lowpass, ValueError, "cutoff", freq=0.2),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_high_order_low_cutoff_stays_bounded():
    # The transfer-function form gave 1e42 here; second-order sections keep a low-pass of a
    # unit-bounded signal within the signal's range (Butterworth overshoot is a few %).
    rng = np.random.default_rng(1)
    x = rng.standard_normal(5000)
    y = signals.lowpass(x, 1000.0, 1.0, order=8)
    assert np.all(np.isfinite(y)) and np.max(np.abs(y)) < np.max(np.abs(x))


@pytest.mark.parametrize(("order", "cutoff"), [(1, 10.0), (2, 6.0), (2, 20.0), (3, 15.0),
                                               (4, 10.0), (4, 40.0)])
def test_sections_equal_the_transfer_function_where_it_is_well_conditioned(order, cutoff):
    from scipy.signal import butter, filtfilt

    rng = np.random.default_rng(order)
    x = np.cumsum(rng.standard_normal((2000, 2)), axis=0)
    b, a = butter(order, cutoff / 250.0)
    old = filtfilt(b, a, x, axis=0)     # the former implementation, same padding
    # Two factorisations of one filter: they agree to round-off amplified by the poles'
    # conditioning (measured below 1e-10 relative; 1e-8 leaves room for other BLAS builds).
    np.testing.assert_allclose(signals.lowpass(x, 500.0, cutoff, order=order), old,
                               rtol=0, atol=1e-8 * np.max(np.abs(x)))


def test_residual_analysis_warns_that_pure_noise_has_no_knee():
    noise = np.random.default_rng(0).standard_normal(2000)
    with pytest.warns(BMCWarning, match="no knee"):
        signals.residual_analysis(noise, 1000.0, np.arange(1.0, 101.0))
    assert signals.BMCWarning is BMCWarning


def test_residual_analysis_is_silent_with_a_knee():
    rng = np.random.default_rng(0)
    t = np.arange(2000) / 1000.0
    x = np.sin(2 * np.pi * 3 * t) + 0.01 * rng.standard_normal(t.size)
    res = signals.residual_analysis(x, 1000.0, np.arange(1.0, 101.0))   # warnings are errors
    assert 5 < res.cutoff < 30


@pytest.mark.parametrize("seed", range(4))
def test_no_nan_or_inf_from_finite_valid_input(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 400))
    x = np.cumsum(rng.standard_normal((n, 2)), axis=0) * 10.0 ** rng.uniform(-3, 3)
    freq = float(rng.uniform(50, 2000))
    outs = [signals.derivative(x, 1 / freq), signals.derivative(x, 1 / freq, n=2),
            signals.lowpass(x, freq, freq * rng.uniform(0.001, 0.45),
                            order=int(rng.integers(1, 9))),
            signals.rmse(x, x[::-1]), signals.overall_rmse(x, 0 * x)]
    assert all(np.all(np.isfinite(o)) for o in outs)
