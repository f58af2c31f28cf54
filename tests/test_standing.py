"""Tests of bmc.models.standing (Kuo's standing body and sway) against independent truths."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models import standing


# --------------------------------------------------------------------------- the model
@pytest.fixture(scope="module")
def lagrangian(kuo_model):
    """Equations of motion and ground reaction derived with sympy, independently.

    The Lagrangian in segment angles gives M and h; the ground reaction comes from the time
    derivatives of the total linear momentum and of the angular momentum about the plate
    origin. Nothing here uses PlanarChain or the model's Jacobians.
    """
    import sympy as sp

    q, qd, qdd = sp.symbols("q0:3"), sp.symbols("qd0:3"), sp.symbols("qdd0:3")

    def dt(expr):  # total time derivative along the motion, by the chain rule
        return sum(expr.diff(q[i]) * qd[i] + expr.diff(qd[i]) * qdd[i] for i in range(3))

    l1, *lengths = (sp.Float(v) for v in kuo_model.lengths)
    com = [sp.Float(v) for v in kuo_model.com]
    m = [sp.Float(v) for v in kuo_model.masses]
    inertia = [sp.Float(v) for v in kuo_model.inertias]
    g = sp.Float(kuo_model.g)
    f1 = sp.Float(kuo_model.foot_angle)
    coms, joint = [], sp.Matrix([l1 * sp.cos(f1), l1 * sp.sin(f1)])
    for k in range(3):
        e = sp.Matrix([sp.cos(q[k]), sp.sin(q[k])])
        coms.append(joint + com[k + 1] * e)
        joint = joint + lengths[k] * e
    vel = [c.applyfunc(dt) for c in coms]
    kinetic = sum(
        m[k + 1] * vel[k].dot(vel[k]) / 2 + inertia[k + 1] * qd[k] ** 2 / 2 for k in range(3)
    )
    lag = kinetic - g * sum(m[k + 1] * coms[k][1] for k in range(3))
    eom = [dt(lag.diff(qd[i])) - lag.diff(q[i]) for i in range(3)]
    momentum = sum((m[k + 1] * vel[k] for k in range(3)), sp.zeros(2, 1))
    ang = sum(
        inertia[k + 1] * qd[k] + m[k + 1] * (coms[k][0] * vel[k][1] - coms[k][1] * vel[k][0])
        for k in range(3)
    )
    foot_x = sp.Float(kuo_model.foot_com[0])
    torque = dt(ang) + g * (sum(m[k + 1] * coms[k][0] for k in range(3)) + m[0] * foot_x)
    force = momentum.applyfunc(dt) + sp.Matrix([0, g * sum(m)])
    exprs = [*eom, torque, *force]
    return sp.lambdify([q, qd, qdd], exprs, "numpy")


def test_equations_of_motion_match_lagrangian(kuo_model, lagrangian, kuo_states):
    phi, phid, phidd = kuo_states
    tau = kuo_model.inverse_dynamics(phi, phid, phidd)
    for k in range(phi.shape[0]):
        ref = np.array(lagrangian(phi[k], phid[k], phidd[k])[:3], dtype=float)
        # Lagrange's equations in segment angles: generalised forces Q tau; float rounding only
        np.testing.assert_allclose(kuo_model.Q @ tau[k], ref, rtol=1e-10, atol=1e-9)
        zero = np.zeros(3)
        h = np.array(lagrangian(phi[k], phid[k], zero)[:3], dtype=float)
        np.testing.assert_allclose(kuo_model.bias_forces(phi[k], phid[k]), h,
                                   rtol=1e-10, atol=1e-9)


def test_joint_moments_act_on_the_distal_segment_as_the_course_has_it(kuo_model):
    """Standing still, the moment at each joint on the segment below it (the foot for the
    ankle) balances the weight above: tau_j = -g sum_i m_i (x_i - x_j) over the segments
    above joint j (static moment balance of the body above, from positions alone). Leaning
    forward, the centre of mass in front of the ankle, the ankle moment on the foot is
    clockwise, negative: the plantarflexors press the forefoot down (Kuo's torque on the
    shank is its negative)."""
    still = np.zeros(3)
    for phi in (np.array(standing.POSTURE), np.array([1.45, 1.70, 1.40]),
                np.array([1.70, 1.50, 1.65])):
        joints, coms = kuo_model.joint_positions(phi), kuo_model.com_positions(phi)
        held = [-kuo_model.g * kuo_model.masses[j + 1:] @ (coms[j + 1:, 0] - joints[j + 1, 0])
                for j in range(3)]
        # rounding of sums of ~100 N m terms
        np.testing.assert_allclose(kuo_model.inverse_dynamics(phi, still, still), held,
                                   rtol=1e-10, atol=1e-10)
    tau = kuo_model.inverse_dynamics(np.array(standing.POSTURE), still, still)
    assert tau[0] < -10.0  # 13.3 N m plantarflexor: the COM about 2 cm in front of the ankle


def test_ground_reaction_matches_momentum_balance(kuo_model, lagrangian, kuo_states):
    phi, phid, phidd = kuo_states
    grf = kuo_model.ground_reaction(phi, phid, phidd)
    for k in range(phi.shape[0]):
        ref = np.array(lagrangian(phi[k], phid[k], phidd[k])[3:], dtype=float)
        # d(momentum)/dt plus weight, differentiated by sympy; float rounding only
        np.testing.assert_allclose(grf[k], ref, rtol=1e-10, atol=1e-8)


def test_com_accelerations_match_finite_differences(kuo_model, kuo_sway):
    from bmc.signals import derivative

    acc = kuo_model.com_accelerations(kuo_sway.phi, kuo_sway.phid, kuo_sway.phidd)
    fd = derivative(kuo_model.com_positions(kuo_sway.phi), 1 / kuo_sway.freq, n=2)
    # second difference at 60 Hz: O(h^2) error on accelerations of about 1 m/s^2
    np.testing.assert_allclose(acc[5:-5], fd[5:-5], atol=5e-3)


def test_model_rejects_bad_parameters():
    with pytest.raises(ValueError, match="lengths .* 4 values"):
        standing.FourSegmentModel(lengths=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="com"):
        standing.FourSegmentModel(com=[0.3, 0.235, 0.268, 0.302])


def test_state_shapes_are_checked(kuo_model):
    with pytest.raises(ValueError, match="phi .*trailing shape"):
        kuo_model.mass_matrix(np.zeros((5, 4)))
    with pytest.raises(ValueError, match="same number of frames"):
        kuo_model.ground_reaction(np.ones((5, 3)), np.zeros((4, 3)), np.zeros((5, 3)))


# --------------------------------------------------------------------------- the sway
def test_simulation_is_consistent(kuo_sway):
    from bmc.signals import derivative

    dt = 1 / kuo_sway.freq
    # the sampled states are one integrated trajectory: central differences of the angles and
    # velocities give the velocities and accelerations up to the O(h^2) error at 60 Hz
    # (third derivatives of a few rad/s^3: h^2/6 x 10 rad/s^3 ~ 5e-4)
    np.testing.assert_allclose(derivative(kuo_sway.phi, dt)[1:-1], kuo_sway.phid[1:-1], atol=2e-3)
    np.testing.assert_allclose(derivative(kuo_sway.phid, dt)[1:-1], kuo_sway.phidd[1:-1],
                               atol=2e-2)
    # and the torques drive that motion (top-down inverse dynamics of the recorded motion)
    tau = kuo_sway.model.inverse_dynamics(kuo_sway.phi, kuo_sway.phid, kuo_sway.phidd)
    np.testing.assert_allclose(tau, kuo_sway.tau, rtol=1e-9, atol=1e-9)  # rounding only
    q = kuo_sway.model.to_joint_angles(kuo_sway.phi)
    span = np.degrees(q.max(0) - q.min(0))
    assert np.all((span > 0.5) & (span < 10)), span  # sway of a few degrees


def test_sway_is_cached_and_read_only(kuo_model, kuo_sway):
    # Cached: a second call returns the same arrays (integrated once). The cache holds the
    # last few sways only, so compare two calls in a row, not with the session fixture.
    assert standing.simulate_sway(kuo_model).phi is standing.simulate_sway(kuo_model).phi
    with pytest.raises(ValueError, match="read-only"):
        kuo_sway.tau[0, 0] = 0.0
    assert repr(kuo_sway).startswith("Sway(240 frames at 60 Hz, with 30 more at each end")


# --------------------------------------------------------------------------- measurements
def test_measure_validates_arguments(kuo_sway):
    with pytest.raises(ValueError, match="marker_noise .* one value per realisation"):
        standing.measure(kuo_sway, marker_noise=[0.01, 0.02], realisations=3)
    with pytest.raises(ValueError, match="realisations must be a positive integer"):
        standing.measure(kuo_sway, realisations=0)
    with pytest.raises(TypeError, match="sway must be a Sway"):
        standing.measure(np.zeros((10, 3)))


def test_offset_moves_the_torque_by_the_vertical_force(kuo_sway):
    offset = 0.02  # [m]
    plain = standing.measure(kuo_sway, marker_noise=0.0, force_noise=0.0)
    moved = standing.measure(kuo_sway, marker_noise=0.0, force_noise=0.0, offset=offset)
    # T' = T - d Fy before a linear filter, so after it as well: rounding only
    np.testing.assert_allclose(moved.grf[:, 0], plain.grf[:, 0] - offset * plain.grf[:, 2],
                               rtol=0, atol=1e-9)
    np.testing.assert_array_equal(moved.grf[:, 1:], plain.grf[:, 1:])
    # without noise the processed angles differ from the truth by the filter's bias only
    np.testing.assert_allclose(plain.phi, kuo_sway.phi[kuo_sway.window], atol=1e-3)  # [rad]


def test_realisations_do_not_depend_on_how_many_are_drawn(kuo_sway):
    three = standing.measure(kuo_sway, realisations=3, seed=7)
    two = standing.measure(kuo_sway, realisations=2, seed=7)
    np.testing.assert_array_equal(three.split(three.phi)[:2], two.split(two.phi))
    # explicit seeds: equal seeds share their noise (common random numbers)
    shared = standing.measure(kuo_sway, realisations=3, seed=[4, 4, 5], offset=[0.0, 0.01, 0.0])
    phi = shared.split(shared.phi)
    np.testing.assert_array_equal(phi[0], phi[1])
    assert not np.allclose(phi[0], phi[2])
    assert shared.realisations == 3
    assert shared.stack(kuo_sway.tau[kuo_sway.window]).shape == (720, 3)


def test_processed_force_noise_has_the_predicted_variance(kuo_sway):
    # noise only: the same seeds with and without noise, the difference is processed noise
    sigma = 2.0  # [N]
    noisy = standing.measure(kuo_sway, marker_noise=0.0, force_noise=sigma, realisations=40)
    clean = standing.measure(kuo_sway, marker_noise=0.0, force_noise=0.0, realisations=40)
    err = noisy.split(noisy.grf - clean.grf)  # (R, N, 3)
    predicted = sigma**2 * noisy.gains()[:, 0, 0]  # (N,)
    # 40 realisations x 3 channels per frame, averaged over 240 frames of correlated noise:
    # Monte Carlo error of a variance about 5 %
    np.testing.assert_allclose(np.mean(err**2, axis=(0, 2)).mean(), predicted.mean(), rtol=0.1)
    # the 0.5 s margins absorb the filter's end effects: inside the trial the gains are
    # constant to 1e-5, while at the record's first sample the force keeps all its variance
    gains = np.diagonal(noisy.gains(), 0, 1, 2)  # (N, 3) variance gains
    np.testing.assert_allclose(gains, np.broadcast_to(gains.mean(0), gains.shape), rtol=1e-5)
    whole = standing.noise_gains(kuo_sway.t.size, kuo_sway.freq)
    assert whole[0, 0, 0] > 5 * gains[0, 0]


def test_noise_gains_equal_appendix_b_integrals():
    from scipy.signal import butter, freqz

    freq, n = 60.0, 400
    gains = standing.noise_gains(n, freq, cutoff=5.0, order=3)
    b, a = butter(3, 5.0 / 30.0)
    w, h = freqz(b, a, worN=2**16, whole=True)
    power = np.abs(h) ** 4  # forward and backward pass
    second = ((2 * np.cos(w) - 2) * freq**2) ** 2  # three-point second difference, eq. (B6)
    # eq. (B5): variance = mean of |H|^2 over the unit circle (Parseval); far from the ends
    np.testing.assert_allclose(gains[n // 2, 0, 0], power.mean(), rtol=1e-6)
    np.testing.assert_allclose(gains[n // 2, 2, 2], (power * second).mean(), rtol=1e-6)
    with pytest.raises(ValueError,
                       match=r"n_frames \(number of samples\) must be an integer from 16"):
        standing.noise_gains(8, freq)


def test_noise_gains_equal_the_dense_operator_and_stay_bounded():
    import tracemalloc

    from bmc.signals import derivative, lowpass

    # the truth: the whole operator (identity through the filter), O(N^2) memory, at a
    # size where the short-record algorithm copies inner rows (700 > 2 x 170 + 1)
    freq, n = 60.0, 700
    l0 = lowpass(np.eye(n), freq, 5.0, order=3)
    ops = np.stack([l0, derivative(l0, 1 / freq, n=1), derivative(l0, 1 / freq, n=2)])
    dense = np.einsum("akn,bkn->kab", ops, ops)
    gains = standing.noise_gains(n, freq)
    # the filter forgets the ends to 1e-17 beyond 170 samples: round-off agreement
    np.testing.assert_allclose(gains, dense, rtol=1e-12, atol=1e-12 * np.abs(dense).max())
    # 1e5 frames (the dense operator needs 240 GB): memory is the result (7.2 MB) plus
    # work bounded by 64 MB, as the docstring states
    tracemalloc.start()
    try:
        big = standing.noise_gains(100_000, freq)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert big.shape == (100_000, 3, 3) and np.all(np.isfinite(big))
    assert peak < 72e6, f"noise_gains(1e5) peaked at {peak / 1e6:.0f} MB"
    np.testing.assert_array_equal(big[50_000], gains[350])
    with pytest.raises(ValueError, match="cutoff.*raise cutoff to at least"):
        standing.noise_gains(1000, 1000.0, cutoff=0.1)  # a filter memory of ~1e5 samples


def test_sway_holds_the_posture_it_is_given(kuo_model):
    # the feedback holds the reference posture; the drive sways each segment by a few
    # degrees about it, so the mean angle lies within 2 deg of the reference
    upright = np.radians([86.0, 90.0, 88.0])
    sway = standing.simulate_sway(kuo_model, posture=upright, margin=0.0)
    assert sway.posture == tuple(upright)
    assert np.all(np.abs(np.degrees(sway.phi.mean(0) - upright)) < 2.0)
    default = standing.simulate_sway(kuo_model, margin=0.0)
    assert default.posture == standing.POSTURE
    assert not np.allclose(sway.phi, default.phi)


@pytest.mark.parametrize("posture, words", [([86.0, 90.0, 88.0], "np.radians"),
                                            ([1.5, 1.6], "3 segment angles")])
def test_posture_is_checked(kuo_model, posture, words):
    with pytest.raises(ValueError, match="posture") as info:
        standing.simulate_sway(kuo_model, posture=posture)
    assert words in str(info.value)
