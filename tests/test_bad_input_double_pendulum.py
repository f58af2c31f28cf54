"""bmc.models.double_pendulum: bad input refused by name; Euler never silently explodes."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models.double_pendulum import DoublePendulum, euler_double_pendulum

PEND = DoublePendulum()
VALID = {
    DoublePendulum: {},
    euler_double_pendulum: {"pend": PEND, "y0": [0.1, 0.0, 0.0, 0.0], "t_end": 0.1,
                            "dt": 1e-3},
    PEND.rhs: {"t": 0.0, "y": [0.1, 0.0, 0.0, 0.0]},
    PEND.mass_matrix: {"theta": [0.1, 0.0]},
    PEND.energy: {"theta": [0.1, 0.0], "omega": [0.0, 0.0]},
    PEND.accelerations: {"theta": np.zeros((4, 2)), "omega": np.zeros((4, 2))},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(DoublePendulum, TypeError, "m1", m1="1"),
    case(DoublePendulum, TypeError, "l2", l2=True),
    case(DoublePendulum, TypeError, "g", g=None),
    case(euler_double_pendulum, TypeError, "pend", pend="pendulum"),
    case(euler_double_pendulum, TypeError, "y0", y0=["0.1", 0, 0, 0]),
    case(euler_double_pendulum, TypeError, "y0", y0=[0.1j, 0, 0, 0]),
    case(euler_double_pendulum, TypeError, "dt", dt="1e-3"),
    case(euler_double_pendulum, TypeError, "every", every=1.5),
    case(euler_double_pendulum, TypeError, "every", every=True),
    # wrong shapes, signs, non-finite values
    case(euler_double_pendulum, ValueError, "y0", y0=[0.1, 0.0]),
    case(euler_double_pendulum, ValueError, "y0", y0=[np.nan, 0, 0, 0]),
    case(euler_double_pendulum, ValueError, "t_end", t_end=-1.0),
    case(euler_double_pendulum, ValueError, "t_end", t_end=np.inf),
    case(euler_double_pendulum, ValueError, "dt", dt=0.0),
    case(euler_double_pendulum, ValueError, "every", every=0),
    case(DoublePendulum, ValueError, "m2", m2=-1.0),
    case(DoublePendulum, ValueError, "l1", l1=np.nan),
    case(DoublePendulum, ValueError, "g", g=981.0),                     # cm/s^2
    case(PEND.rhs, ValueError, "y", y=[0.0, 0.0]),
    case(PEND.rhs, TypeError, "y", y=["0.1", 0.0, 0.0, 0.0]),
    case(PEND.rhs, TypeError, "Q", Q=[True, 0.0]),
    case(PEND.rhs, ValueError, "Q", Q=[1.0, 2.0, 3.0]),
    case(PEND.mass_matrix, ValueError, "theta", theta=[0.1]),
    case(PEND.energy, ValueError, "omega", omega=[np.nan, 0.0]),
    # numerical guards: a step longer than the run returned one point; a tiny step tried
    # to allocate 298 GiB (and to loop for hours)
    case(euler_double_pendulum, ValueError, "dt", dt=3.0, t_end=1.0),
    case(euler_double_pendulum, ValueError, "dt", dt=1e-9, t_end=10.0),
    # an unstable step returned 1e252 or "math domain error" without a word
    case(euler_double_pendulum, FloatingPointError, "dt", y0=[1.0, 2.0, 0.0, 0.0], dt=0.2,
         t_end=100.0),
    # solve_ivp's fast path (float arrays, unchecked) returned NaN and inf rates for a
    # non-finite Q or y; a Q of the wrong width or frames raised NumPy's broadcast error
    case(PEND.rhs, ValueError, "Q", y=np.array([0.1, 0.0, 0.0, 0.0]), Q=np.array([0.0, np.nan])),
    case(PEND.rhs, ValueError, "Q", y=np.array([0.1, 0.0, 0.0, 0.0]), Q=np.array([np.inf, 0.0])),
    case(PEND.rhs, ValueError, "y", y=np.array([np.nan, 0.0, 0.0, 0.0])),
    case(PEND.rhs, ValueError, "y", y=np.array([np.inf, 0.0, 0.0, 0.0])),
    case(PEND.accelerations, ValueError, "Q", Q=np.ones((1, 3))),
    case(PEND.accelerations, ValueError, "Q", Q=np.ones((5, 2))),
    # a start spinning at 977 rad/s (rad/s typed as mrad/s?) makes a 8 ms step unstable:
    # the refusal names y0 and its speed too (it named dt alone)
    case(euler_double_pendulum, FloatingPointError, "y0", y0=[1e-4, 0.0, -976.6, 792.7],
         dt=0.00797, t_end=0.2187),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{getattr(c[0], '__name__', 'f')}-{c[3]}-{i}"
                              for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_instability_is_reported_with_its_time():
    # dt = 0.1 s: the state overflows a little after t = 2 s; the error says when
    with pytest.raises(FloatingPointError, match=r"at t = 2\.\d* s|by t = 2\.\d* s"):
        euler_double_pendulum(PEND, [1.0, 2.0, 0.0, 0.0], 10.0, dt=0.1)


def test_valid_input_gives_finite_output(rng):
    for _ in range(5):
        y0 = np.r_[rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2)]
        pend = DoublePendulum(*rng.uniform(0.5, 2.0, 4))
        t, y = euler_double_pendulum(pend, y0, 1.0, dt=1e-3, every=10)
        assert t.shape == (101,) and np.all(np.isfinite(y))
