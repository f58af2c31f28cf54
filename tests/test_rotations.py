"""Tests for bmc.rotations: rotation matrices and angular kinematics from R(t)."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from bmc import rotations as rot

SEQUENCES = ["xyz", "zxy", "zyx", "yzx", "zxz", "xyx", "yzy"]


@pytest.fixture
def angles():
    return np.random.default_rng(7).uniform(-np.pi, np.pi, size=(50, 3))


def test_axis_rotation_known_values():
    # Exact values of sines/cosines at pi/2 up to rounding of pi.
    ex, ey, ez = np.eye(3)
    np.testing.assert_allclose(rot.axis_rotation("z", np.pi / 2) @ ex, ey, atol=1e-15)
    np.testing.assert_allclose(rot.axis_rotation("x", np.pi / 2) @ ey, ez, atol=1e-15)
    np.testing.assert_allclose(rot.axis_rotation("y", np.pi / 2) @ ez, ex, atol=1e-15)


@pytest.mark.parametrize("sequence", SEQUENCES)
@pytest.mark.parametrize("intrinsic", [True, False])
def test_rotation_matrix_matches_scipy(angles, sequence, intrinsic):
    # SciPy is an independent implementation (upper case = intrinsic); rounding only.
    ours = rot.rotation_matrix(angles, sequence=sequence, intrinsic=intrinsic)
    ref = Rotation.from_euler(sequence.upper() if intrinsic else sequence, angles).as_matrix()
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-14)


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_rotation_matrices_are_proper_orthogonal(angles, sequence):
    # R R^T = I and det R = +1 to rounding error (products of three exact rotations).
    R = rot.rotation_matrix(angles, sequence=sequence)
    np.testing.assert_allclose(R @ np.swapaxes(R, -1, -2), np.broadcast_to(np.eye(3), R.shape),
                               rtol=0, atol=1e-14)
    np.testing.assert_allclose(np.linalg.det(R), 1.0, rtol=0, atol=1e-14)


def test_composition(angles):
    # Intrinsic = product of elementary rotations in order; extrinsic = reverse order;
    # rotations about one axis add; the transpose undoes a rotation. Rounding only.
    a, b, c = angles[:, 0], angles[:, 1], angles[:, 2]
    Rx, Ry, Rz = (rot.axis_rotation(k, v) for k, v in zip("xyz", (a, b, c), strict=True))
    np.testing.assert_allclose(rot.rotation_matrix(angles, sequence="xyz"), Rx @ Ry @ Rz,
                               atol=1e-15)
    np.testing.assert_allclose(rot.rotation_matrix(angles, sequence="xyz", intrinsic=False),
                               Rz @ Ry @ Rx, atol=1e-15)
    np.testing.assert_allclose(rot.axis_rotation("y", a) @ rot.axis_rotation("y", b),
                               rot.axis_rotation("y", a + b), atol=1e-14)
    R = rot.rotation_matrix(angles, sequence="zxy")
    np.testing.assert_allclose(np.swapaxes(R, -1, -2) @ R,
                               np.broadcast_to(np.eye(3), R.shape), atol=1e-14)


def _precession(t, spin_rate=5.0, precession_rate=1.5, nutation=0.4):
    """A spinning top: Euler zxz angles (precession_rate t, nutation, spin_rate t).

    Closed form: omega = precession_rate e_z + spin_rate k, with k = R e_z the top's axis,
    and alpha = precession_rate e_z x omega (the top's axis turns about e_z).
    """
    q = np.stack([precession_rate * t, nutation + 0 * t, spin_rate * t], axis=-1)
    qd = np.broadcast_to([precession_rate, 0.0, spin_rate], q.shape)
    R = rot.rotation_matrix(q, sequence="zxz")
    k = R[..., :, 2]
    omega = precession_rate * np.array([0.0, 0.0, 1.0]) + spin_rate * k
    alpha = np.cross([0.0, 0.0, precession_rate], omega)
    return q, qd, R, omega, alpha


def test_rotation_kinematics_closed_form():
    # Exact formulas on both sides: agreement to rounding error.
    t = np.linspace(0.0, 2.0, 41)
    q, qd, R, omega, alpha = _precession(t)
    R2, w, a = rot.rotation_kinematics(q, qd, np.zeros_like(q), sequence="zxz", frame="global")
    np.testing.assert_allclose(R2, R, atol=1e-15)
    np.testing.assert_allclose(w, omega, atol=1e-13)
    np.testing.assert_allclose(a, alpha, atol=1e-12)
    _, w_seg, a_seg = rot.rotation_kinematics(q, qd, np.zeros_like(q), sequence="zxz")
    np.testing.assert_allclose(np.einsum("nji,nj->ni", R, omega), w_seg, atol=1e-13)
    np.testing.assert_allclose(np.einsum("nji,nj->ni", R, alpha), a_seg, atol=1e-12)


@pytest.mark.parametrize("frame", ["segment", "global"])
def test_angular_velocity_from_samples_converges(frame):
    # Central differences are second order: the error against the closed form must shrink
    # about 4x when the step halves (ratio > 3.5), and be below 1e-3 rad/s at dt = 1 ms.
    errors = []
    for dt in (2e-3, 1e-3):
        t = np.arange(0.0, 2.0 + dt / 2, dt)
        _, _, R, omega, alpha = _precession(t)
        if frame == "segment":
            omega = np.einsum("nji,nj->ni", R, omega)
            alpha = np.einsum("nji,nj->ni", R, alpha)
        w = rot.angular_velocity(R, dt, frame=frame)
        a = rot.angular_acceleration(R, dt, frame=frame)
        errors.append(np.abs(w - omega).max())
        np.testing.assert_allclose(a[5:-5], alpha[5:-5], atol=2e-2)  # O(dt^2) x |d^4 R|
    assert errors[1] < 1e-3
    assert errors[0] / errors[1] > 3.5


def _cardan_motion(t):
    # Cardan angles with non-trivial rates and accelerations, and their exact derivatives
    q = np.stack([0.5 * np.sin(3 * t), 0.8 * np.cos(2 * t), 1.2 * t**2], axis=-1)
    qd = np.stack([1.5 * np.cos(3 * t), -1.6 * np.sin(2 * t), 2.4 * t], axis=-1)
    qdd = np.stack([-4.5 * np.sin(3 * t), -3.2 * np.cos(2 * t), 2.4 + 0 * t], axis=-1)
    return q, qd, qdd


def test_rotation_kinematics_matches_sampled_general_motion():
    # Finite differences at dt = 1e-4 s agree with the exact formulas to O(dt^2) ~ 1e-7.
    dt = 1e-4
    q, qd, qdd = _cardan_motion(np.arange(0.0, 1.0, dt))
    for intrinsic in (True, False):
        R, w, a = rot.rotation_kinematics(q, qd, qdd, sequence="zxy", intrinsic=intrinsic)
        np.testing.assert_allclose(rot.angular_velocity(R, dt), w, atol=1e-6)
        np.testing.assert_allclose(rot.angular_acceleration(R, dt)[3:-3], a[3:-3], atol=1e-5)


def test_bad_input_messages():
    with pytest.raises(ValueError, match="sequence must be three"):
        rot.rotation_matrix([0.1, 0.2, 0.3], sequence="xxy")
    with pytest.raises(ValueError, match="axis must be"):
        rot.axis_rotation("w", 0.1)
    with pytest.raises(ValueError, match="angles \\[rad\\] must have trailing shape"):
        rot.rotation_matrix([0.1, 0.2])
    with pytest.raises(ValueError, match="rotation matrices"):
        rot.angular_velocity(2 * np.broadcast_to(np.eye(3), (5, 3, 3)), 0.01)
    with pytest.raises(ValueError, match="at least 3 frames"):
        rot.angular_velocity(np.broadcast_to(np.eye(3), (2, 3, 3)), 0.01)
    with pytest.raises(ValueError, match="frame must be"):
        rot.rotation_kinematics([0, 0, 0], [0, 0, 0], [0, 0, 0], frame="local")


def test_point_acceleration_is_the_second_derivative_of_a_carried_point():
    # a point fixed in a body, r(t) = R(t) r0: its acceleration by central differences of
    # the sampled positions (dt 1e-4 s: truncation O(dt^2) and rounding eps/dt^2 ~ 1e-8 m/s^2
    # each) against omega, alpha from R
    dt = 1e-4
    q, qd, qdd = _cardan_motion(np.arange(0.0, 0.5, dt))
    R, w, a = rot.rotation_kinematics(q, qd, qdd, sequence="zxy", frame="global")
    r0 = np.array([0.1, 0.4, -0.2])
    r = R @ r0
    numeric = (r[2:] - 2 * r[1:-1] + r[:-2]) / dt**2
    exact = rot.point_acceleration(w, a, r)
    np.testing.assert_allclose(numeric, exact[1:-1], atol=1e-6)  # measured 5e-8
    # the same in the segment frame: R^T a = alpha_s x r0 + omega_s x (omega_s x r0)
    _, ws, as_ = rot.rotation_kinematics(q, qd, qdd, sequence="zxy", frame="segment")
    np.testing.assert_allclose(np.einsum("nji,nj->ni", R, exact),
                               rot.point_acceleration(ws, as_, r0), atol=1e-12)
