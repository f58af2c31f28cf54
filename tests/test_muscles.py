"""Muscle lengths and moment arms (bmc.muscles) against independent truths."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import kinematics, muscles

LENGTHS = [0.316, 0.432]
# biceps long head: trunk (above the shoulder) -> via point in front of the humeral head ->
# forearm; uniarticular brachialis: humerus -> forearm
BICEPS = [(0, (0.01, 0.03)), (1, (0.03, 0.03)), (2, (0.04, 0.015))]
BRACHIALIS = [(1, (0.2, 0.0)), (2, (0.04, 0.015))]


@pytest.fixture(scope="module")
def postures():
    rng = np.random.default_rng(16)
    return np.column_stack([rng.uniform(-2.0, 1.0, 50), rng.uniform(0.2, 2.4, 50)])


@pytest.mark.parametrize("path", [BICEPS, BRACHIALIS])
def test_moment_arms_are_the_derivative_of_the_length(path, postures):
    r = muscles.moment_arms(LENGTHS, postures, path)
    h = 1e-6
    fd = np.stack([(muscles.muscle_length(LENGTHS, postures + h * e, path)
                    - muscles.muscle_length(LENGTHS, postures - h * e, path)) / (2 * h)
                   for e in np.eye(2)], axis=-1)
    # central difference: truncation ~h^2 L''' (1e-12) plus round-off ~1e-16/h (1e-10) m
    np.testing.assert_allclose(r, fd, rtol=0, atol=1e-8)


def test_two_point_moment_arm_is_the_perpendicular_distance(postures):
    """Straight muscle: |r_j| is the distance from joint j to the line of action, and the
    sign is that of the moment of the (shortening) pull about the joint."""
    path = [(0, (0.02, 0.04)), (2, (0.05, 0.01))]
    r = muscles.moment_arms(LENGTHS, postures, path)
    elbow = kinematics.forward_kinematics(LENGTHS, postures, joints=True)[:, 1]
    phi = postures.sum(axis=1)
    a = np.broadcast_to([0.02, 0.04], elbow.shape)
    b = elbow + 0.05 * np.column_stack([np.cos(phi), np.sin(phi)]) \
        + 0.01 * np.column_stack([-np.sin(phi), np.cos(phi)])
    e = (a - b) / np.linalg.norm(a - b, axis=1, keepdims=True)   # pull on the insertion
    for j, joint in enumerate([np.zeros_like(elbow), elbow]):
        moment = kinematics.cross2(b - joint, e)   # torque of a unit tension about joint j
        np.testing.assert_allclose(-r[:, j], moment, rtol=1e-12, atol=1e-15)  # same formula


def test_uniarticular_muscle_has_no_moment_about_the_joint_it_does_not_span(postures):
    r = muscles.moment_arms(LENGTHS, postures, BRACHIALIS)
    # both ends turn with the shoulder: their motions cancel up to round-off (1e-17 m)
    np.testing.assert_allclose(r[:, 0], 0.0, atol=1e-15)
    assert np.all(r[:, 1] < -0.01)   # an elbow flexor, moment arm above 1 cm


def test_biceps_flexes_both_joints_in_a_reach():
    t = np.linspace(0.0, 0.6, 31)
    q, _, _ = kinematics.forward_reach(t, *LENGTHS)
    r = muscles.moment_arms(LENGTHS, q, BICEPS)
    assert np.all(r < 0.0)   # shortens with shoulder and elbow flexion: flexor of both
    # tau = -R^T F: 100 N of tension gives positive (flexor) torques at both joints
    assert np.all(-r * 100.0 > 0.0)


def test_bad_attachments_are_named():
    with pytest.raises(ValueError, match="body must be an integer from 0"):
        muscles.moment_arms(LENGTHS, [0.0, 1.0], [(0, (0.0, 0.0)), (3, (0.1, 0.0))])
    with pytest.raises(ValueError, match="at least two points"):
        muscles.muscle_length(LENGTHS, [0.0, 1.0], [(0, (0.0, 0.0))])


# --- Hill-type muscle: activation, force-length-velocity, tendon, muscle-driven motion ----

def _forearm():
    """Notebook 2's forearm and hand (Dempster, 70 kg, 1.70 m) hinged at the elbow."""
    from bmc import anthropometry
    from bmc.chain import PlanarChain

    seg = anthropometry.combine([anthropometry.segment(s, body_mass=70.0, height=1.70)
                                 for s in ("forearm", "hand")], name="forearm_hand")
    return PlanarChain([seg.length], [seg.com], [seg.mass], [seg.inertia], g=9.81)


def _activation_time_closed_form(a0, a, u, t_act, t_deact):
    """Time for Thelen's activation to go from a0 to a under a constant excitation u.

    Separating variables in da/dt = (u - a) / (t_act (0.5 + 1.5 a)) gives
    t = t_act [(0.5 + 1.5 u) ln((u - a0) / (u - a)) - 1.5 (a - a0)]; in
    da/dt = (u - a)(0.5 + 1.5 a) / t_deact, partial fractions give
    t = t_deact / (0.5 + 1.5 u) [ln((0.5 + 1.5 a) / (0.5 + 1.5 a0)) - ln((a - u) / (a0 - u))].
    """
    if u > a0:
        return t_act * ((0.5 + 1.5 * u) * np.log((u - a0) / (u - a)) - 1.5 * (a - a0))
    return t_deact / (0.5 + 1.5 * u) * (np.log((0.5 + 1.5 * a) / (0.5 + 1.5 * a0))
                                        - np.log((a - u) / (a0 - u)))


@pytest.mark.parametrize(("a0", "u", "targets"), [(0.05, 0.8, [0.2, 0.5, 0.79]),
                                                   (0.9, 0.02, [0.6, 0.2, 0.03])])
def test_activation_follows_the_closed_form_step_response(a0, u, targets):
    from scipy.integrate import solve_ivp

    t_act, t_deact = 0.01, 0.04
    times = [_activation_time_closed_form(a0, a, u, t_act, t_deact) for a in targets]
    sol = solve_ivp(lambda t, y: muscles.activation_rate(u, np.clip(y, 0, 1),
                                                         activation_time=t_act,
                                                         deactivation_time=t_deact),
                    (0.0, max(times)), [a0], t_eval=times, rtol=1e-12, atol=1e-14)
    # the integrator at rtol 1e-12 against an exact solution: agreement to ~1e-10
    np.testing.assert_allclose(sol.y[0], targets, rtol=0, atol=1e-9)
    assert np.all(np.diff(times) > 0)   # the targets lie in order along the way


def test_activation_rises_faster_than_it_falls():
    # halfway up from 0 to 1 and halfway down from 1 to 0: time constants 10 and 40 ms
    up = _activation_time_closed_form(0.0, 0.5, 1.0, 0.01, 0.04)
    down = _activation_time_closed_form(1.0, 0.5, 0.0, 0.01, 0.04)
    assert 0.005 < up < down < 0.03


def test_force_length_peaks_at_optimal_length():
    lm = np.linspace(0.4, 1.6, 1201)
    f = muscles.force_length(lm)
    assert lm[np.argmax(f)] == pytest.approx(1.0, abs=1e-12)   # the grid holds 1.0
    assert float(muscles.force_length(1.0)) == 1.0
    # a Gaussian of width 0.5: e^-1 at 1 +- sqrt(0.5), symmetric
    np.testing.assert_allclose(muscles.force_length(1 + np.array([-1, 1]) * np.sqrt(0.5)),
                               np.exp(-1.0), rtol=1e-14)


def test_force_velocity_at_zero_velocity_is_isometric_and_has_hills_shape():
    f = muscles.force_velocity
    assert float(f(0.0)) == 1.0 and float(f(-1.0)) == 0.0 and float(f(-1.5)) == 0.0
    h = 1e-7
    assert float(f(h)) == pytest.approx(1.0, abs=1e-5) and float(f(-h)) == pytest.approx(
        1.0, abs=1e-5)
    # slopes at zero velocity: 1 + 1/A_f shortening, twice that lengthening (Thelen 2003)
    af = 0.3
    np.testing.assert_allclose((f(0.0) - f(-h)) / h, 1 + 1 / af, rtol=1e-5)
    np.testing.assert_allclose((f(h) - f(0.0)) / h, 2 * (1 + 1 / af), rtol=1e-5)
    # Hill's hyperbola (F + a)(v + b) = const when shortening, with a = A_f, b = A_f
    v = np.linspace(-0.9, -0.1, 9)
    product = (f(v) + af) * (-v + af)
    np.testing.assert_allclose(product, af * (1 + af), rtol=1e-12)
    # lengthening: rises towards F_len = 1.8
    assert float(f(1e6)) == pytest.approx(1.8, rel=1e-5)
    assert np.all(np.diff(f(np.linspace(-1, 2, 301))) >= 0)


def test_fibre_velocity_equation_inverts_the_force_velocity_curve():
    from bmc.muscles import _velocity_from_force

    v = np.concatenate([np.linspace(-0.99, 0.0, 50), np.linspace(0.01, 0.5, 50)])
    x = muscles.force_velocity(v)
    assert x.max() < 0.95 * 1.8   # below the eccentric knee, where the inverse is exact
    np.testing.assert_allclose(_velocity_from_force(x, 0.3, 1.8), v, rtol=0, atol=1e-12)


def test_passive_and_tendon_curves_reach_f0_at_their_strains():
    assert float(muscles.passive_force(1.0)) == 0.0
    assert float(muscles.passive_force(1.6)) == pytest.approx(1.0, rel=1e-12)
    assert float(muscles.tendon_force(0.0)) == 0.0 and float(muscles.tendon_force(-0.01)) == 0
    assert float(muscles.tendon_force(0.033)) == pytest.approx(1.0, rel=1e-12)
    # toe and linear region meet with the same value and slope
    from bmc.muscles import _TOE

    toe, h = _TOE * 0.033, 1e-8
    left = (muscles.tendon_force(toe) - muscles.tendon_force(toe - h)) / h
    right = (muscles.tendon_force(toe + h) - muscles.tendon_force(toe)) / h
    np.testing.assert_allclose(left, right, rtol=1e-5)


def test_tendon_strain_inverts_the_tendon_curve():
    from bmc.muscles import _tendon_strain

    for f in (0.01, 0.2, 0.33, 0.5, 1.0, 1.3):
        eps = _tendon_strain(f, 0.033)
        assert float(muscles.tendon_force(eps)) == pytest.approx(f, rel=1e-12)


def test_brachialis_is_holzbaurs():
    # OpenSim arm26 (adapted from Holzbaur et al. 2005): BRA 987.26 N, 0.0858 m, 0.0535 m
    m = muscles.BRACHIALIS
    assert (m.max_isometric_force, m.optimal_fiber_length, m.tendon_slack_length) == (
        987.26, 0.0858, 0.0535)
    rod = _forearm()
    r = muscles.moment_arms(rod.lengths, [0.0], muscles.BRACHIALIS_PATH)[0]
    # straight line from 11.65 cm above the elbow to 2.39 cm down the forearm, elbow at
    # 90 deg: the distance from the elbow to that line, by hand
    a, b = np.array([0.0007, 0.1165]), np.array([0.0239, -0.0032])
    d, p = b - a, -a
    dist = abs(d[0] * p[1] - d[1] * p[0]) / np.linalg.norm(d)
    np.testing.assert_allclose(-r, dist, rtol=1e-12)
    # 2.3 cm, of the size measured for brachialis at 90 deg (about 2-3 cm)
    assert 0.02 < -r < 0.03


def test_holding_activation_holds_the_forearm_still():
    rod = _forearm()
    q0 = [np.radians(-45.0)]
    a0 = muscles.holding_activation(rod, muscles.BRACHIALIS, muscles.BRACHIALIS_PATH, q0)
    assert 0 < a0 < 0.5
    t = np.linspace(0.0, 0.5, 51)
    run = muscles.simulate_muscle(rod, t, q0, [0.0], muscle=muscles.BRACHIALIS,
                                  attachments=muscles.BRACHIALIS_PATH, excitation=a0,
                                  activation0=a0)
    # static equilibrium: the muscle's moment balances gravity's, nothing moves (the
    # integrator's error, rtol 1e-8, is all that can creep in)
    np.testing.assert_allclose(run.tau[0], rod.gravity_terms(q0), rtol=1e-9)
    np.testing.assert_allclose(run.q[:, 0], q0[0], atol=1e-6)
    np.testing.assert_allclose(run.activation, a0, atol=1e-9)


@pytest.fixture(scope="module")
def flexion():
    """A burst of excitation flexes the forearm from 30 to about 90 deg (notebook 2)."""
    rod = _forearm()
    q0 = [np.radians(30.0 - 90.0)]
    a0 = muscles.holding_activation(rod, muscles.BRACHIALIS, muscles.BRACHIALIS_PATH, q0)
    a1 = muscles.holding_activation(rod, muscles.BRACHIALIS, muscles.BRACHIALIS_PATH,
                                    [np.radians(0.0)])
    t = np.linspace(0.0, 0.6, 601)
    u = np.where(t < 0.05, a0, np.where(t < 0.2, 0.4, a1))
    run = muscles.simulate_muscle(rod, t, q0, [0.0], muscle=muscles.BRACHIALIS,
                                  attachments=muscles.BRACHIALIS_PATH, excitation=u,
                                  activation0=a0)
    return rod, run


def test_muscle_driven_motion_is_reproduced_by_its_joint_moments(flexion):
    from bmc import simulate

    rod, run = flexion
    same = simulate.simulate_chain(rod, run.t, run.q[0], run.qd[0], tau=run.tau,
                                   rtol=1e-10, atol=1e-12)
    # the torque-driven chain sees the moment through a cubic spline of its 1 ms samples;
    # the spline's error (~1e-6 N m) moves the forearm by micro-radians
    np.testing.assert_allclose(same.q, run.q, rtol=0, atol=1e-6)
    # and the muscle's work is the forearm's energy gain (energy balance of that run)
    assert same.relative_energy_error < 1e-6


def test_muscle_driven_flexion_is_human(flexion):
    rod, run = flexion
    flex = np.degrees(run.q[:, 0]) + 90.0
    assert flex.min() >= 29.9 and 80.0 < flex.max() < 150.0   # within the elbow's range
    assert np.degrees(run.qd).max() < 600.0   # a brisk, not ballistic, flexion (deg/s)
    assert run.tendon_force.max() < muscles.BRACHIALIS.max_isometric_force
    assert run.tau.max() < 0.78 * 70.0   # below an average man's elbow flexor strength
    # fibre and tendon add up to the path; the tendon is never slack while pulling
    tendon = run.musculotendon_length - run.fiber_length
    assert np.all(tendon > muscles.BRACHIALIS.tendon_slack_length)
    # the activation follows the excitation, 0 to 1
    assert np.all((run.activation > 0) & (run.activation <= 1))


def test_a_stiff_tendon_approaches_the_rigid_tendon_model(flexion):
    from dataclasses import replace

    rod, run = flexion
    stiff = replace(muscles.BRACHIALIS, tendon_strain_at_f0=1e-5)
    q0 = run.q[0]
    a0 = muscles.holding_activation(rod, stiff, muscles.BRACHIALIS_PATH, q0)
    out = muscles.simulate_muscle(rod, run.t[:101], q0, [0.0], muscle=stiff,
                                  attachments=muscles.BRACHIALIS_PATH,
                                  excitation=run.excitation[:101], activation0=a0)
    rigid = out.musculotendon_length - stiff.tendon_slack_length
    # the tendon stretches by at most eps0 l_ts (5e-7 m) plus its toe: below a micrometre
    np.testing.assert_allclose(out.fiber_length, rigid, atol=1e-6)
