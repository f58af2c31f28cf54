"""Tests of bmc.kinematics against closed forms, finite differences and round trips."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.chain import PlanarChain
from bmc.kinematics import (
    forward_kinematics,
    inverse_kinematics_2link,
    jacobian,
    joint_rates_2link,
    lever_kinematics,
    minimum_jerk,
    minimum_jerk_profile,
    minimum_jerk_reach_2link,
    planar_rotation,
    segment_angle,
)


def test_planar_rotation_orthonormal_and_composes():
    a = np.linspace(-4, 4, 9)
    R = planar_rotation(a)
    assert R.shape == (9, 2, 2)
    # R R^T = I and R(a) R(b) = R(a + b): trigonometric identities, rounding only.
    np.testing.assert_allclose(R @ np.swapaxes(R, -1, -2), np.broadcast_to(np.eye(2), R.shape),
                               atol=1e-15)
    np.testing.assert_allclose(R @ planar_rotation(0.3), planar_rotation(a + 0.3), atol=1e-15)


def test_forward_kinematics_closed_form_and_chain_agreement():
    q = np.array([[0.3, 0.8], [-1.2, 2.0]])
    x = 0.3 * np.cos(q[:, 0]) + 0.4 * np.cos(q.sum(1))
    y = 0.3 * np.sin(q[:, 0]) + 0.4 * np.sin(q.sum(1))
    # Same formula, written out: rounding only.
    np.testing.assert_allclose(forward_kinematics([0.3, 0.4], q), np.column_stack([x, y]),
                               atol=1e-15)
    arm = PlanarChain([0.3, 0.4], [0.1, 0.2], [1.0, 1.0], [0.01, 0.01])
    np.testing.assert_allclose(forward_kinematics([0.3, 0.4], q, joints=True),
                               arm.joint_positions(q), atol=1e-15)


def test_jacobian_matches_central_difference():
    rng = np.random.default_rng(4)
    lengths = [0.3, 0.25, 0.2, 0.1]
    q = rng.uniform(-3, 3, (6, 4))
    h = 1e-6
    fk = forward_kinematics
    fd = np.stack([(fk(lengths, q + h * e) - fk(lengths, q - h * e)) / (2 * h)
                   for e in np.eye(4)], axis=-1)
    # Central-difference truncation ~h^2 = 1e-12, round-off ~1e-16/h = 1e-10.
    np.testing.assert_allclose(jacobian(lengths, q), fd, atol=1e-9)


@pytest.mark.parametrize("elbow", ["down", "up"])
def test_inverse_kinematics_round_trip(elbow):
    rng = np.random.default_rng(5)
    q_true = np.column_stack([rng.uniform(-3, 3, 50), rng.uniform(0.05, 3.0, 50)])
    if elbow == "up":
        q_true[:, 1] *= -1
    p = forward_kinematics([0.3, 0.45], q_true)
    q = inverse_kinematics_2link(p, 0.3, 0.45, elbow=elbow)
    # Angles may differ by 2 pi; compare positions and wrapped angles (arccos loses ~1e-8
    # near q2 = 0.05 rad, hence 1e-7).
    np.testing.assert_allclose(forward_kinematics([0.3, 0.45], q), p, atol=1e-12)
    np.testing.assert_allclose(np.angle(np.exp(1j * (q - q_true))), 0.0, atol=1e-7)


def test_inverse_kinematics_full_reach_and_errors():
    # Full extension, with round-off, is accepted; q2 = 0 there.
    q = inverse_kinematics_2link([0.0, -(0.1 + 0.2)], 0.1, 0.2)
    np.testing.assert_allclose(q, [-np.pi / 2, 0.0], atol=1e-7)
    with pytest.raises(ValueError, match=r"beyond the reach.*0\.05 m out of reach"):
        inverse_kinematics_2link([[0.0, 0.1], [0.35, 0.0]], 0.1, 0.2)
    with pytest.raises(ValueError, match=r"inside the inner limit.*by 0\.05 m"):
        inverse_kinematics_2link([0.05, 0.0], 0.1, 0.2)
    with pytest.raises(ValueError, match="elbow must be"):
        inverse_kinematics_2link([0.2, 0.0], 0.1, 0.2, elbow="left")
    with pytest.raises(ValueError, match=r"p \[m\] must have trailing shape \(2,\)"):
        inverse_kinematics_2link([0.2, 0.0, 0.0], 0.1, 0.2)


def test_joint_rates_match_differentiated_trajectory():
    t = np.linspace(0.1, 0.9, 9)
    q = np.column_stack([0.3 + np.sin(t), 1.0 + 0.5 * t**2])
    qd = np.column_stack([np.cos(t), t])
    qdd = np.column_stack([-np.sin(t), np.ones_like(t)])
    lengths = [0.3, 0.4]
    J = jacobian(lengths, q)
    v = np.einsum("fij,fj->fi", J, qd)
    # Endpoint acceleration by differentiating v = J qd numerically in time (independent of
    # the function's Jdot formula): central difference of the exact endpoint velocity.
    h = 1e-5

    def vel(tt):
        qq = np.column_stack([0.3 + np.sin(tt), 1.0 + 0.5 * tt**2])
        return np.einsum("fij,fj->fi", jacobian(lengths, qq),
                         np.column_stack([np.cos(tt), tt]))

    a = (vel(t + h) - vel(t - h)) / (2 * h)
    qd_out, qdd_out = joint_rates_2link(lengths, q, v, a)
    np.testing.assert_allclose(qd_out, qd, atol=1e-12)  # exact linear solve
    np.testing.assert_allclose(qdd_out, qdd, atol=1e-7)  # limited by the h^2 difference
    with pytest.raises(ValueError, match="singular posture"):
        joint_rates_2link(lengths, [0.3, 0.0], [1.0, 0.0])


def test_minimum_jerk_boundary_conditions_and_shape():
    x0, xf, big_t = np.array([0.1, -0.7]), np.array([0.3, 0.4]), 0.5
    t = np.linspace(-0.1, 0.6, 701)
    x, v, a = minimum_jerk(x0, xf, big_t, t)
    assert x.shape == v.shape == a.shape == (701, 2)
    x, v, a = minimum_jerk(x0, xf, big_t, [0.0, big_t])
    # The quintic meets all six boundary conditions exactly (rounding only).
    np.testing.assert_allclose(x, [x0, xf], atol=1e-15)
    np.testing.assert_allclose(v, 0.0, atol=1e-15)
    np.testing.assert_allclose(a, 0.0, atol=1e-15)
    # Midpoint: half-way, peak speed 1.875 |xf - x0| / T, zero acceleration.
    x, v, a = minimum_jerk(x0, xf, big_t, [big_t / 2])
    np.testing.assert_allclose(x[0], (x0 + xf) / 2, atol=1e-15)
    np.testing.assert_allclose(v[0], 1.875 * (xf - x0) / big_t, rtol=1e-14)
    np.testing.assert_allclose(a[0], 0.0, atol=1e-13)


def test_minimum_jerk_derivatives_are_consistent():
    t = np.linspace(0, 1, 2001)
    x, v, a = minimum_jerk(0.0, 2.0, 1.0, t)
    dt = t[1] - t[0]
    # Central differences of a quintic: error dt^2 |x'''| / 6 ~ 1e-5; tolerance 1e-4.
    np.testing.assert_allclose(np.gradient(x, dt)[1:-1], v[1:-1], atol=1e-4)
    np.testing.assert_allclose(np.gradient(v, dt)[1:-1], a[1:-1], atol=1e-3)
    with pytest.raises(ValueError, match=r"duration \[s\] must be a finite positive"):
        minimum_jerk(0.0, 1.0, 0.0, t)


def test_minimum_jerk_profile_is_the_rest_to_rest_quintic():
    s = np.linspace(-0.5, 1.5, 4001)
    x, dx, ddx = minimum_jerk_profile(s)
    ds = s[1] - s[0]
    # central differences of a quintic, step 5e-4: error ds^2 max|x'''| / 6 < 1e-5
    inner = (s > 0.001) & (s < 0.999)
    np.testing.assert_allclose(np.gradient(x, ds)[inner], dx[inner], atol=1e-5)
    np.testing.assert_allclose(np.gradient(dx, ds)[inner], ddx[inner], atol=1e-4)
    # held at rest outside [0, 1]: position 0 before, 1 after, no speed, no acceleration
    np.testing.assert_array_equal(x[s <= 0], 0.0)
    np.testing.assert_array_equal(x[s >= 1], 1.0)
    outside = (s <= 0) | (s >= 1)
    np.testing.assert_array_equal(dx[outside], 0.0)
    np.testing.assert_array_equal(ddx[outside], 0.0)
    # minimum_jerk's scaling around this profile (it calls it): x0 + (xf - x0) x(t / T),
    # velocity / T, acceleration / T^2
    t = np.linspace(0.0, 0.5, 8)
    xm, vm, am = minimum_jerk(1.0, 3.0, 0.5, t)
    x, dx, ddx = minimum_jerk_profile(t / 0.5)
    np.testing.assert_allclose(xm, 1.0 + 2.0 * x, rtol=1e-15)  # the same operations
    np.testing.assert_allclose(vm, 2.0 * dx / 0.5, rtol=1e-15)
    np.testing.assert_allclose(am, 2.0 * ddx / 0.25, rtol=1e-15)


def test_segment_angle_unwraps_over_time():
    theta = np.linspace(0, 4 * np.pi, 200)
    prox = np.tile([1.0, 2.0], (200, 1))
    dist = prox + 0.3 * np.column_stack([np.cos(theta), np.sin(theta)])
    # arctan2 then unwrap recovers a continuous angle exactly up to rounding.
    np.testing.assert_allclose(segment_angle(prox, dist), theta, atol=1e-12)
    assert np.ndim(segment_angle([0, 0], [0, 1])) == 0
    with pytest.raises(ValueError, match="coincide"):
        segment_angle([0, 0], [0, 0])
    with pytest.raises(ValueError, match=r"distal \[m\] must have trailing shape"):
        segment_angle([0, 0], [0, 0, 1])


def test_minimum_jerk_reach_matches_numerical_derivatives_and_flags_singular_start():
    t = np.linspace(0, 0.8, 4001)
    q, qd, qdd = minimum_jerk_reach_2link([0.2, -0.4], [0.35, 0.25], 0.8, t, 0.3, 0.4)
    # The endpoint follows the straight minimum-jerk path exactly (IK round trip).
    p, _, _ = minimum_jerk([0.2, -0.4], [0.35, 0.25], 0.8, t)
    np.testing.assert_allclose(forward_kinematics([0.3, 0.4], q), p, atol=1e-12)
    dt = t[1] - t[0]
    # Central differences (error ~ dt^2 times the third derivative / 6) away from the ends.
    np.testing.assert_allclose(np.gradient(q, dt, axis=0)[1:-1], qd[1:-1], atol=1e-4)
    np.testing.assert_allclose(np.gradient(qd, dt, axis=0)[1:-1], qdd[1:-1], atol=1e-3)
    with pytest.raises(ValueError, match="singular posture"):
        minimum_jerk_reach_2link([0.0, -0.7], [0.3, 0.4], 0.5, [0.0, 0.1], 0.3, 0.4)


def test_one_frame_goes_with_many_in_lever_kinematics_and_joint_rates():
    # a posture held (one frame) with N frames of rates: the same as N copies of it
    levers = np.array([[0.3, 0.0], [0.3, 0.25]])
    phi = np.array([0.4, 1.1])
    axes = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    rates = np.array([[1.0, -2.0], [0.5, 3.0], [0.0, 1.0]])
    acc = np.array([[2.0, 0.0], [-1.0, 1.0], [0.3, 0.3]])
    one = lever_kinematics(levers, axes, rates, acc)
    many = lever_kinematics(levers, np.broadcast_to(axes, (3, 2, 2)), rates, acc)
    for a, b in zip(one, many, strict=True):
        np.testing.assert_array_equal(a, b)  # the same operations on the same numbers
    q = np.array([0.3, 1.2])
    v, a = np.ones((5, 2)), np.ones((5, 2))
    qd1, qdd1 = joint_rates_2link([0.3, 0.3], q, v, a)
    qdd_n = joint_rates_2link([0.3, 0.3], np.tile(q, (5, 1)), v, a)[1]
    np.testing.assert_allclose(qdd1, qdd_n, rtol=1e-15)
    assert qd1.shape == qdd1.shape == (5, 2)
