"""Tests of the planar Newton-Euler solvers (invdyn2d, lower_limb) against independent truths."""

import numpy as np
import pytest

import bmc
from bmc import newton_euler


def test_invdyn2d_static_hand_computed():
    # Horizontal forearm held still, elbow at the origin, COM 0.2 m out, 10 N hanging at
    # 0.5 m. By hand: Fp = (0, 2*9.81 + 10) = (0, 29.62) N and the elbow moment balances
    # the two weights about the elbow, Mp = 0.2*19.62 + 0.5*10 = 8.924 N m (CCW).
    Fp, Mp = bmc.invdyn2d([0.2, 0.0], [0.5, 0.0], [0.0, 0.0], [0.0, 0.0], 0.0, 2.0, 0.05,
                          [0.0, -10.0], 0.0, g=9.81)
    # Only round-off separates the formula from the hand computation.
    np.testing.assert_allclose(Fp, [0.0, 29.62], rtol=0, atol=1e-12)
    np.testing.assert_allclose(Mp, 8.924, rtol=0, atol=1e-12)


def test_invdyn2d_pendulum_closed_form():
    # Rod swinging about a fixed pivot with arbitrary theta, omega, alpha per frame, free at
    # its distal end. Euler about the pivot (not the COM): Mp = (Icm + m d^2) alpha
    # + m g d cos(theta); Newton: Fp = m a_cm + (0, m g) with the rigid-body a_cm.
    rng = np.random.default_rng(0)
    n, m, icm, d, length, g = 50, 3.0, 0.08, 0.25, 0.6, 9.81
    theta, omega, alpha = rng.uniform(-3, 3, (3, n))
    pivot = rng.normal(size=(n, 2))
    e = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    en = np.stack([-np.sin(theta), np.cos(theta)], axis=1)
    rcm = pivot + d * e
    acm = d * alpha[:, None] * en - d * omega[:, None] ** 2 * e
    Fp, Mp = bmc.invdyn2d(rcm, pivot + length * e, pivot, acm, alpha, m, icm,
                          np.zeros((n, 2)), np.zeros(n), g=g)
    # Two formulations of the same physics: agreement to round-off (values are O(10)).
    np.testing.assert_allclose(Mp, (icm + m * d**2) * alpha + m * g * d * np.cos(theta),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(Fp, m * acm + [0.0, m * g], rtol=0, atol=1e-12)


def test_invdyn2d_chain_equals_whole_body():
    # Two segments solved one after the other (action-reaction -Fp, -Mp) must give the same
    # top load as the two treated as one system: sum of m a, and moments of all external
    # forces and of all d(angular momentum)/dt about the top joint.
    rng = np.random.default_rng(1)
    n, g = 20, 9.80665
    r = rng.normal(size=(3, n, 2))  # top joint, middle joint, distal point
    rcm = rng.normal(size=(2, n, 2))
    acm = rng.normal(size=(2, n, 2))
    alpha = rng.normal(size=(2, n))
    mass, icm = [2.0, 1.5], [0.1, 0.05]
    Fd, Md = rng.normal(size=(n, 2)), rng.normal(size=n)
    F1, M1 = bmc.invdyn2d(rcm[1], r[2], r[1], acm[1], alpha[1], mass[1], icm[1], Fd, Md)
    F0, M0 = bmc.invdyn2d(rcm[0], r[1], r[0], acm[0], alpha[0], mass[0], icm[0], -F1, -M1)

    def cz(a, b):
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]

    weight = [np.array([0.0, -mi * g]) for mi in mass]
    F_sys = sum(mi * ai for mi, ai in zip(mass, acm, strict=True)) - sum(weight) - Fd
    M_sys = (sum(ii * al + cz(rc - r[0], mi * ai - w)
                 for ii, al, rc, mi, ai, w in zip(icm, alpha, rcm, mass, acm, weight, strict=True))
             - Md - cz(r[2] - r[0], Fd))
    # Round-off only (values O(10)).
    np.testing.assert_allclose(F0, F_sys, rtol=0, atol=1e-12)
    np.testing.assert_allclose(M0, M_sys, rtol=0, atol=1e-12)


def test_invdyn2d_broadcasts_one_frame_against_many():
    # A constant distal load (one frame) against N frames of kinematics: same as tiling it.
    rcm = np.zeros((4, 2))
    Fp, Mp = bmc.invdyn2d(rcm, [0.0, -0.2], [0.0, 0.2], rcm, np.zeros(4), 1.0, 0.1,
                          [1.0, 0.0], 0.0)
    Fp1, Mp1 = bmc.invdyn2d(rcm[0], [0.0, -0.2], [0.0, 0.2], rcm[0], 0.0, 1.0, 0.1,
                            [1.0, 0.0], 0.0)
    assert Fp.shape == (4, 2) and Mp.shape == (4,)
    np.testing.assert_allclose(Fp, np.tile(Fp1, (4, 1)), rtol=0, atol=0)  # same arithmetic
    np.testing.assert_allclose(Mp, np.full(4, Mp1), rtol=0, atol=0)


def test_invdyn2d_rejects_bad_shapes():
    z = np.zeros((5, 2))
    with pytest.raises(ValueError, match=r"acm \[m/s\^2\] must have trailing shape \(2,\)"):
        bmc.invdyn2d(z, z, z, np.zeros((5, 3)), np.zeros(5), 1.0, 0.1, z, 0.0)
    with pytest.raises(ValueError, match=r"same number of frames.*alpha \(4,\)"):
        bmc.invdyn2d(z, z, z, z, np.zeros(4), 1.0, 0.1, z, 0.0)
    with pytest.raises(ValueError, match="mass must be non-negative"):
        bmc.invdyn2d(z, z, z, z, np.zeros(5), -1.0, 0.1, z, 0.0)
    with pytest.raises(ValueError, match="Fd.*non-finite"):
        bmc.invdyn2d(z, z, z, z, np.zeros(5), 1.0, 0.1, np.full((5, 2), np.nan), 0.0)


def test_module_exports():
    assert "invdyn2d" in newton_euler.__all__


# --- lower_limb on van den Bogert's simulated running (true joint loads known) ----------


@pytest.fixture(scope="module")
def run():
    return bmc.datasets.load_running()  # CI sets BMC_DATA_DIR; no network


def _stance_rmse(run, estimate, truth):
    # The gait notebook's window: 250 samples before heel strike to 500 before the end.
    win = slice(run.heel_strike - 250, len(run.time) - 500)
    return np.sqrt(np.mean((estimate[win] - truth[win]) ** 2, axis=0))


def test_lower_limb_meets_accuracy_goal_on_running_data(run):
    # Central differences against the simulation's true moments: the course's goal is
    # RMSE <= 0.15, 0.08, 0.015 N m at hip, knee, ankle (measured 0.137, 0.073, 0.011).
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments,
                                  time=run.time)
    rmse = _stance_rmse(run, res.moments, run.true_moments)
    assert np.all(rmse <= [0.15, 0.08, 0.015]), rmse
    # Force magnitudes agree with the true ones within 0.1 N RMS (measured 0.067 N at most):
    # against peaks of about 1000 N that is 1e-4.
    assert np.all(_stance_rmse(run, res.force_magnitudes, run.true_forces) < 0.1)


def test_lower_limb_diff2_reproduces_the_source_error(run):
    # The gait notebook's shifted np.diff(x, n=2) gives about 2.15, 1.12, 0.35 N m:
    # reproducing it checks that "diff2" is the source's scheme (and the shift is the cause).
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments,
                                  derivative="diff2")
    rmse = _stance_rmse(run, res.moments, run.true_moments)
    np.testing.assert_allclose(rmse, [2.149, 1.117, 0.350], rtol=2e-3)  # 3-4 digits


def test_lower_limb_ground_moment_form_equals_cop_form(run):
    # lower_limb applies the ground reaction as force at the origin plus x_cop * Fy; the
    # source applies the force at the centre of pressure. Same load: the ankle results of
    # invdyn2d with the COP as point of application must agree to round-off.
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments)
    cop = np.stack([run.grf[:, 2], np.zeros(len(run.time))], axis=1)
    seg = run.segments
    Fa, Ma = bmc.invdyn2d(res.com[:, 2], cop, res.markers[:, 2], res.com_acceleration[:, 2],
                          res.angular_acceleration[:, 2], seg.mass[2], seg.inertia[2],
                          run.grf[:, :2], 0.0)
    # Moments of forces up to ~1000 N with lever arms ~0.3 m: round-off ~1e-12 N m.
    np.testing.assert_allclose(res.forces[:, 2], Fa, rtol=0, atol=1e-9)
    np.testing.assert_allclose(res.moments[:, 2], Ma, rtol=0, atol=1e-9)


def test_lower_limb_quasi_static_drops_only_the_accelerations(run):
    # Quasi-static = invdyn2d recursion with zero accelerations; checked at the knee by
    # summing the moments of ground reaction and weights of foot and shank about the knee.
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments,
                                  quasi_static=True)
    k = res.markers[:, 1]
    cop = np.stack([run.grf[:, 2], np.zeros(len(run.time))], axis=1)

    def cz(a, b):
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]

    g = 9.80665
    ground = cz(cop - k, run.grf[:, :2])
    weights = sum(cz(res.com[:, i] - k, np.array([0.0, -run.segments.mass[i] * g]))
                  for i in (1, 2))
    np.testing.assert_allclose(res.moments[:, 1], -(ground + weights), rtol=0, atol=1e-9)


def test_lower_limb_filtered_pipeline_is_consistent(run):
    # A 200 Hz zero-lag filter on both markers and ground reaction leaves the simulated,
    # noise-free data nearly intact: moments stay within 0.05 N m RMS (measured 0.035).
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments, cutoff=200.0)
    assert np.all(_stance_rmse(run, res.moments, run.true_moments) < 0.05)
    assert res.cutoff == 200.0 and res.powers.shape == (len(run.time), 3)


def test_lower_limb_powers_are_moment_times_relative_velocity(run):
    # P_knee = M_knee (omega_shank - omega_thigh); omega from the central derivative.
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments)
    w = bmc.signals.derivative(res.angles, 1 / run.freq)
    np.testing.assert_allclose(res.powers[:, 1], res.moments[:, 1] * (w[:, 1] - w[:, 0]),
                               rtol=1e-12, atol=1e-9)  # identical arithmetic


@pytest.fixture()
def small():
    t = np.arange(50) / 100.0
    markers = np.tile([0, 0.9, 0, 0.45, 0, 0.08, 0.15, 0.0], (50, 1)) + 0.01 * t[:, None]
    grf = np.tile([0.0, 700.0, 0.05], (50, 1))
    seg = {"mass": [7.0, 3.0, 1.0], "inertia": [0.1, 0.04, 0.005],
           "com_fraction": [0.43, 0.43, 0.5]}
    return markers, grf, seg, t


def test_lower_limb_accepts_segment_layouts(small, run):
    markers, grf, seg, _ = small
    by_name = {name: {k: v[i] for k, v in seg.items()}
               for i, name in enumerate(("thigh", "shank", "foot"))}
    as_list = [by_name[n] for n in ("thigh", "shank", "foot")]
    ref = newton_euler.lower_limb(markers, grf, 100.0, seg).moments
    for layout in (by_name, as_list):
        # Same parameters, different containers: identical arithmetic.
        np.testing.assert_array_equal(newton_euler.lower_limb(markers, grf, 100.0,
                                                              layout).moments, ref)
    with pytest.raises(TypeError, match="segments must give mass"):
        newton_euler.lower_limb(markers, grf, 100.0, {"mass": [1.0, 2.0, 3.0]})


def test_lower_limb_rejects_mismatched_shapes(small):
    markers, grf, seg, _ = small
    with pytest.raises(ValueError, match=r"markers \[m\] must have shape \(N, 8\)"):
        newton_euler.lower_limb(markers[:, :6], grf, 100.0, seg)
    with pytest.raises(ValueError, match=r"same number of frames on axis 0 \(time\); got "
                                         r"shapes markers \(50, 4, 2\), grf \(49, 3\)"):
        newton_euler.lower_limb(markers, grf[:-1], 100.0, seg)
    with pytest.raises(ValueError, match=r"grf must have shape \(N, 3\)"):
        newton_euler.lower_limb(markers, grf[:, :2], 100.0, seg)
    with pytest.raises(ValueError, match="segments.mass must hold 3 values"):
        newton_euler.lower_limb(markers, grf, 100.0, {**seg, "mass": [1.0, 2.0]})


def test_lower_limb_rejects_nan(small):
    markers, grf, seg, _ = small
    bad = markers.copy()
    bad[7, 3] = np.nan
    with pytest.raises(ValueError,
                       match=r"markers \[m\] must be finite; got 1 non-finite.*\(7, 3\)"):
        newton_euler.lower_limb(bad, grf, 100.0, seg)
    bad = grf.copy()
    bad[2, 0] = np.inf
    with pytest.raises(ValueError, match="grf.*non-finite"):
        newton_euler.lower_limb(markers, bad, 100.0, seg)


def test_lower_limb_rejects_wrong_sampling_rate(small, run):
    markers, grf, seg, t = small
    with pytest.raises(ValueError, match=r"freq \[Hz\] must be a finite positive"):
        newton_euler.lower_limb(markers, grf, -100.0, seg)
    with pytest.raises(ValueError, match=r"freq \[Hz\] must match the time vector, which "
                                         r"is sampled at 100 Hz .*; got 1000 Hz"):
        newton_euler.lower_limb(markers, grf, 1000.0, seg, time=t)
    with pytest.raises(ValueError, match=r"time \[s\] must have one entry per frame"):
        newton_euler.lower_limb(markers, grf, 100.0, seg, time=t[:-1])
    with pytest.raises(ValueError, match=r"freq \[Hz\] must be at least 20 Hz .*; got "
                                         r"0.01 Hz, implausibly low"):
        newton_euler.lower_limb(markers, grf, 0.01, seg)  # a sampling interval, not a rate
    # Running data with a rate 10 times too high: markers would move at about 37 m/s.
    with pytest.raises(ValueError, match=r"freq \[Hz\] = 100000 gives a marker speed of "
                                         r"37.4 m/s"):
        newton_euler.lower_limb(run.markers, run.grf, 10 * run.freq, run.segments)
    # ... but the correct rate with 1 mm marker noise at 10 kHz passes (sample-to-sample
    # noise speeds reach 60 m/s; the check averages speeds over 20 ms).
    noisy = run.markers + np.random.default_rng(0).normal(0.0, 1e-3, run.markers.shape)
    newton_euler.lower_limb(noisy, run.grf, run.freq, run.segments)
    with pytest.raises(ValueError, match="Nyquist"):
        newton_euler.lower_limb(markers, grf, 100.0, seg, cutoff=50.0)
    with pytest.raises(ValueError, match='derivative must be "central" or "diff2"'):
        newton_euler.lower_limb(markers, grf, 100.0, seg, derivative="forward")
