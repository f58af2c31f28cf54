"""bmc.simulate: every bad input refused by name; no hang, no silent NaN, no huge allocation."""

from __future__ import annotations

import time

import numpy as np
import pytest

from bmc import simulate as sim
from bmc._validation import BMCWarning
from bmc.chain import PlanarChain


def decay(t, y):
    return -y


def oscillator(t, y):
    return np.array([y[1], -y[0]])


def blows_up(t, y):
    # finite at t = 0, infinite from t = 0.5 s on: the error must say when
    return np.array([np.inf if t >= 0.5 else 1.0])


ROD = PlanarChain([1.0], [0.5], [2.0], [2.0 / 12])
VALID = {
    sim.simulate: {"fun": decay, "t_span": (0.0, 1.0), "y0": [1.0]},
    sim.euler: {"fun": decay, "t_span": (0.0, 1.0), "y0": [1.0], "dt": 0.01},
    sim.simulate_chain: {"chain": ROD, "t_eval": np.linspace(0, 0.2, 5), "q0": [0.0],
                         "qd0": [0.0]},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(sim.simulate, TypeError, "fun", fun="decay"),
    case(sim.simulate, TypeError, "y0", y0="1.0"),
    case(sim.simulate, TypeError, "y0", y0=[True]),
    case(sim.simulate, TypeError, "y0", y0=[1 + 1j]),
    case(sim.simulate, TypeError, "y0", y0=None),
    case(sim.simulate, TypeError, "t_span", t_span=("0", "1")),
    case(sim.simulate, TypeError, "t_span", t_span=None),
    case(sim.simulate, TypeError, "rtol", rtol="1e-6"),
    case(sim.simulate, TypeError, "rtol", rtol=True),
    case(sim.simulate, TypeError, "atol", atol=1e-9j),
    case(sim.simulate, TypeError, "max_step", max_step=None),
    case(sim.simulate, TypeError, "args", args=[1.0]),
    case(sim.simulate, ValueError, "method", method="Euler"),
    case(sim.simulate, ValueError, "method", method=None),
    case(sim.euler, TypeError, "dt", dt="0.01"),
    case(sim.euler, TypeError, "dt", dt=True),
    case(sim.euler, TypeError, "dt", dt=None),
    case(sim.euler, TypeError, "args", args=3.0),
    case(sim.simulate_chain, TypeError, "chain", chain="rod"),
    case(sim.simulate_chain, TypeError, "q0", q0=["0.1"]),
    case(sim.simulate_chain, TypeError, "tau", tau="1.0"),
    # wrong shapes
    case(sim.simulate, ValueError, "y0", y0=[]),
    case(sim.simulate, ValueError, "y0", y0=[[1.0]]),
    case(sim.simulate, ValueError, "t_span", t_span=(0.0, 1.0, 2.0)),
    case(sim.simulate, ValueError, "fun", fun=lambda t, y: np.array([1.0, 2.0])),
    case(sim.simulate, ValueError, "fun", fun=lambda t, y: None),
    case(sim.euler, ValueError, "y0", y0=[]),
    case(sim.simulate_chain, ValueError, "q0", q0=[0.0, 0.0]),
    case(sim.simulate_chain, ValueError, "t_eval", t_eval=[0.0]),
    case(sim.simulate_chain, ValueError, "tau", tau=np.zeros((3, 1))),
    case(sim.simulate_chain, ValueError, "F", F=[1.0, 2.0, 3.0]),
    # non-finite values
    case(sim.simulate, ValueError, "y0", y0=[np.nan]),
    case(sim.simulate, ValueError, "t_span", t_span=(0.0, np.inf)),
    case(sim.simulate, ValueError, "rtol", rtol=np.nan),            # hung in solve_ivp
    case(sim.simulate, ValueError, "atol", atol=np.inf),
    case(sim.simulate, ValueError, "max_step", max_step=np.nan),
    case(sim.simulate, ValueError, "fun", fun=lambda t, y: np.full_like(y, np.nan)),
    case(sim.simulate, ValueError, "t_eval", t_eval=[0.0, np.nan]),
    case(sim.euler, ValueError, "dt", dt=np.nan),
    case(sim.euler, FloatingPointError, "fun", fun=blows_up),
    case(sim.euler, FloatingPointError, "t = 0.5", fun=blows_up),   # the time it happened
    case(sim.simulate_chain, ValueError, "qd0", qd0=[np.nan]),
    # wrong signs and ranges
    case(sim.simulate, ValueError, "t_span", t_span=(1.0, 0.0)),
    case(sim.simulate, ValueError, "rtol", rtol=-1e-6),
    case(sim.simulate, ValueError, "rtol", rtol=0.0),
    case(sim.simulate, ValueError, "rtol", rtol=2.0),
    case(sim.simulate, ValueError, "atol", atol=0.0),
    case(sim.simulate, ValueError, "max_step", max_step=-0.1),
    case(sim.simulate, ValueError, "t_eval", t_eval=[0.0, 2.0]),
    case(sim.simulate, ValueError, "t_eval", t_eval=[0.5, 0.2]),
    case(sim.euler, ValueError, "dt", dt=-0.01),
    case(sim.euler, ValueError, "dt", dt=0.0),
    case(sim.euler, ValueError, "dt", dt=3.0),                       # longer than the run
    case(sim.simulate_chain, ValueError, "t_eval", t_eval=[0.0, 0.2, 0.1]),
    # numerical guards: memory before allocating, steps that cannot end
    case(sim.euler, ValueError, "dt", dt=1e-9, t_span=(0.0, 10.0), y0=[1.0, 0.0, 0.0, 0.0],
         fun=lambda t, y: -y),
    case(sim.simulate, ValueError, "max_step", max_step=1e-12, t_span=(0.0, 1e3)),
    case(sim.simulate_chain, ValueError, "rtol", rtol=np.nan),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_a_huge_euler_run_is_refused_before_allocating_with_the_memory_it_needs():
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"1e\+10 steps x 4 value\(s\) = 298 GiB"):
        sim.euler(lambda t, y: -y, (0.0, 10.0), np.ones(4), dt=1e-9)
    assert time.monotonic() - start < 1.0     # refused, not attempted


def test_nan_tolerance_is_refused_at_once():
    start = time.monotonic()
    with pytest.raises(ValueError, match="rtol must be a finite tolerance"):
        sim.simulate(oscillator, (0.0, 10.0), [1.0, 0.0], rtol=np.nan)
    assert time.monotonic() - start < 1.0


def test_unstable_euler_is_reported_with_the_time():
    # y' = -k y with k dt = 30 > 2: every step multiplies y by -29.
    with pytest.warns(BMCWarning, match=r"grew by a factor .* from t = "):
        sim.euler(lambda t, y: -3000.0 * y, (0.0, 0.1), [1.0], dt=0.01)
    with pytest.raises(FloatingPointError, match=r"non-finite .* at t = \d"):
        sim.euler(lambda t, y: -3000.0 * y, (0.0, 3.0), [1.0], dt=0.01)
    assert sim.BMCWarning is BMCWarning


@pytest.mark.parametrize("seed", range(3))
def test_no_nan_or_inf_from_finite_valid_input(seed):
    rng = np.random.default_rng(seed)
    y0 = rng.normal(size=2)
    t = np.linspace(0.0, float(rng.uniform(0.5, 3.0)), 20)
    outs = [sim.simulate(oscillator, (t[0], t[-1]), y0, t_eval=t).y,
            sim.euler(oscillator, (t[0], t[-1]), y0, dt=float(rng.uniform(1e-3, 1e-2)),
                      t_eval=t).y]
    res = sim.simulate_chain(ROD, t[:8] / 4, [rng.uniform(-3, 3)], [rng.normal()],
                             tau=[rng.normal()])
    outs += [res.q, res.qd, res.qdd, res.energy, res.work]
    assert all(np.all(np.isfinite(o)) for o in outs)


def test_a_slope_that_turns_infinite_is_reported_with_its_time():
    with pytest.raises(FloatingPointError, match=r"non-finite dy/dt \[inf\] at t = ") as info:
        sim.simulate(blows_up, (0.0, 1.0), [0.0])
    # the first stage evaluated at or after 0.5 s (a step spans a few tenths of a second here)
    assert 0.5 <= float(str(info.value).split("at t = ")[1].split(" s")[0]) < 1.0


def test_euler_finds_the_first_non_finite_step_beyond_its_first_block():
    # Finiteness is checked per block of steps: the report must still name the exact step.
    with pytest.raises(FloatingPointError, match=r"non-finite dy/dt \[inf\] at t = 0\.75 s"):
        sim.euler(lambda t, y: np.array([np.inf if t >= 0.75 - 1e-9 else 1.0]), (0.0, 1.0),
                  [0.0], dt=1e-3)


def test_euler_reports_overflow_when_fun_then_fails_on_the_infinite_state():
    # y' = y^2 from 1 blows up at t = 1; Euler's slope overflows at t = 1.6 s, and once y
    # is inf, math.sin refuses it with ValueError (a later step of the same block). The
    # student must hear about the overflow and its time, not a math domain error.
    import math

    def fun(t, y):
        return np.array([y[0] ** 2 + 0.0 * math.sin(y[0])])

    with pytest.raises(FloatingPointError, match=r"non-finite dy/dt \[inf\] at t = 1\.6 s"):
        sim.euler(fun, (0.0, 3.0), [1.0], dt=0.05)


def test_euler_passes_on_an_error_of_fun_at_a_finite_state():
    def fun(t, y):
        if t > 0.5:
            raise KeyError("a bug in fun")
        return -y

    with pytest.raises(KeyError, match="a bug in fun"):
        sim.euler(fun, (0.0, 1.0), [1.0], dt=1e-3)


def test_simulate_keeps_the_warnings_of_a_successful_run():
    import warnings

    def fun(t, y):
        warnings.warn("fun warns", UserWarning, stacklevel=2)
        return -y

    with pytest.warns(UserWarning, match="fun warns"):
        res = sim.simulate(fun, (0.0, 1.0), [1.0])
    assert np.isfinite(res.y).all()
