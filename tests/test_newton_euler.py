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
