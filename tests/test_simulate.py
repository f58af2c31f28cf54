"""Tests of bmc.simulate: closed forms, conservation laws, convergence order, round trips."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import ellipk

from bmc.chain import PlanarChain
from bmc.simulate import euler, simulate, simulate_chain


def _oscillator(t, y, omega):
    return np.array([y[1], -(omega**2) * y[0]])


def test_simulate_matches_harmonic_oscillator():
    t = np.linspace(0, 10, 101)
    res = simulate(_oscillator, (0, 10), [1.0, 0.0], t_eval=t, args=(2.0,))
    assert res.y.shape == (101, 2)  # time on axis 0
    # DOP853 at rtol 1e-10 over five periods: global error ~1e-9, well inside 1e-8.
    np.testing.assert_allclose(res.y[:, 0], np.cos(2 * t), rtol=0, atol=1e-8)
    np.testing.assert_allclose(res.y[:, 1], -2 * np.sin(2 * t), rtol=0, atol=1e-8)
    assert res.nfev > 0 and isinstance(res.message, str)


def test_euler_is_first_order_and_gains_energy():
    def final_error(dt):
        res = euler(_oscillator, (0, 2), [1.0, 0.0], dt=dt, args=(1.0,))
        return abs(res.y[-1, 0] - np.cos(2.0)), res

    e1, res = final_error(1e-2)
    e2, _ = final_error(5e-3)
    # First order: halving the step halves the error (ratio 2 up to O(dt) terms, 10 %).
    assert 1.8 < e1 / e2 < 2.2
    energy = res.y[:, 0] ** 2 + res.y[:, 1] ** 2
    # Forward Euler on an oscillator multiplies the energy by (1 + dt^2) per step exactly.
    np.testing.assert_allclose(energy[-1], (1 + 1e-4) ** 200, rtol=1e-12)


def test_euler_exact_on_decay_and_t_eval_interpolates():
    res = euler(lambda t, y: -y, (0, 1), [1.0], dt=0.25)
    np.testing.assert_allclose(res.y[:, 0], 0.75 ** np.arange(5), rtol=1e-15)
    half = euler(lambda t, y: -y, (0, 1), [1.0], dt=0.25, t_eval=[0.125])
    np.testing.assert_allclose(half.y, [[(1 + 0.75) / 2]], rtol=1e-15)


def test_rhs_checked_before_integration():
    with pytest.raises(ValueError, match=r"returned shape \(3,\).*y0 has shape \(2,\)"):
        simulate(lambda t, y: np.zeros(3), (0, 1), [0.0, 0.0])
    with pytest.raises(ValueError, match="must return dy/dt.*got None"):
        simulate(lambda t, y: None, (0, 1), [0.0])
    with pytest.raises(ValueError, match="non-finite"):
        simulate(lambda t, y: np.full(1, np.nan), (0, 1), [0.0])
    with pytest.raises(TypeError, match=r"calling fun\(t, y, \*args\) once"):
        simulate(lambda t, y, k: -k * y, (0, 1), [1.0])
    with pytest.raises(TypeError, match="fun must be callable"):
        simulate([1.0], (0, 1), [1.0])
    with pytest.raises(ValueError, match="t_start < t_end"):
        simulate(lambda t, y: -y, (1, 0), [1.0])
    with pytest.raises(ValueError, match="within t_span"):
        simulate(lambda t, y: -y, (0, 1), [1.0], t_eval=[0.0, 2.0])
    with pytest.raises(ValueError, match="dt"):
        euler(lambda t, y: -y, (0, 1), [1.0], dt=-0.1)


def test_free_double_pendulum_keeps_energy():
    arm = PlanarChain([0.5, 0.4], [0.25, 0.2], [3.0, 2.0], [0.06, 0.03])
    res = simulate_chain(arm, np.linspace(0, 5, 501), [-np.pi / 2 + 1.2, 0.8], [0.0, 1.0])
    energy = res.energy
    assert res.q.shape == (501, 2) and res.work.max() == 0.0
    # DOP853 at rtol 1e-10, atol 1e-12: chaotic motion, but energy drift stays ~1e-10.
    np.testing.assert_allclose(energy, energy[0], rtol=1e-8)
    assert res.relative_energy_error < 1e-8


def test_hanging_rod_period_matches_elliptic_integral():
    m, length, theta0 = 2.0, 0.8, 1.0
    inertia_o = m * length**2 / 3
    rod = PlanarChain([length], [length / 2], [m], [m * length**2 / 12])
    period = 4 * np.sqrt(inertia_o / (m * 9.81 * length / 2)) * ellipk(np.sin(theta0 / 2) ** 2)
    res = simulate_chain(rod, [0, period / 4, period / 2], [-np.pi / 2 + theta0], [0.0])
    # Exact pendulum period (any amplitude); integrator error ~1e-10 rad.
    np.testing.assert_allclose(res.q[:, 0], [-np.pi / 2 + theta0, -np.pi / 2,
                                             -np.pi / 2 - theta0], atol=1e-8)
    np.testing.assert_allclose(res.qd[2], 0.0, atol=1e-8)


def test_work_balance_under_torque_and_force():
    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])

    def tau(t, q, qd):
        return np.array([2.0 * np.sin(3 * t), -1.0 - 0.5 * qd[1]])

    res = simulate_chain(arm, np.linspace(0, 2, 201), [0.3, 1.0], [0.0, 0.0], tau=tau,
                         F=[3.0, -2.0])
    # E - E0 = W for exact dynamics; the work is integrated as a state at rtol 1e-10.
    assert res.relative_energy_error < 1e-8
    assert abs(res.work[-1]) > 0.1  # the balance is not trivially zero
    np.testing.assert_allclose(res.tau[:, 0], 2.0 * np.sin(3 * res.t), rtol=1e-14)


def test_round_trip_sampled_inverse_dynamics_torques():
    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    t = np.linspace(0, 1, 1001)
    q = np.column_stack([0.2 + 0.5 * np.sin(2 * t), 1.0 - 0.3 * t**2])
    qd = np.column_stack([np.cos(2 * t), -0.6 * t])
    qdd = np.column_stack([-2 * np.sin(2 * t), np.full_like(t, -0.6)])
    tau = arm.inverse_dynamics(q, qd, qdd)
    res = simulate_chain(arm, t, q[0], qd[0], tau=tau)
    # The cubic spline through 1 ms torque samples has error ~1e-9 N m; over 1 s the
    # angle error stays below 1e-7 rad.
    np.testing.assert_allclose(res.q, q, rtol=0, atol=1e-7)
    np.testing.assert_allclose(res.qdd, qdd, rtol=0, atol=1e-5)


def test_simulate_chain_bad_inputs():
    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    t = np.linspace(0, 1, 11)
    with pytest.raises(ValueError, match=r"q0 \[rad\] must have trailing shape \(2,\)"):
        simulate_chain(arm, t, [0.1], [0.0, 0.0])
    with pytest.raises(ValueError, match="one row per time in t_eval"):
        simulate_chain(arm, t, [0.1, 0.1], [0.0, 0.0], tau=np.zeros((5, 2)))
    with pytest.raises(ValueError, match=r"tau\(t, q, qd\) must return shape \(2,\)"):
        simulate_chain(arm, t, [0.1, 0.1], [0.0, 0.0], tau=lambda t, q, qd: np.zeros(3))
    with pytest.raises(TypeError, match="chain must be a bmc.PlanarChain"):
        simulate_chain("arm", t, [0.1, 0.1], [0.0, 0.0])
    with pytest.raises(ValueError, match="strictly increasing"):
        simulate_chain(arm, t[::-1], [0.1, 0.1], [0.0, 0.0])
