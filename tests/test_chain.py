"""Tests of bmc.chain.PlanarChain against independent truths.

Truths used: a Lagrangian derived here with sympy for general n from the link geometry
written out directly (not from the chain's a_kj matrix), the closed-form one- and two-link
equations, the skew-symmetry identity qd^T C = qd^T Mdot qd / 2, and round trips.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
import sympy as sp

from bmc.chain import PlanarChain


@functools.cache
def _lagrangian_model(n: int):
    """Lambdified M, C, G, E (joint coordinates) from a hand-written sympy Lagrangian.

    The link geometry is written out directly (joint by joint, not through the chain's
    a_kj matrix). Kinetic energy qd^T M qd / 2 gives M = sum_k m_k Jv_k^T Jv_k + I_k Jw_k^T
    Jw_k; the Euler-Lagrange equations then give C from the Christoffel symbols of M and G
    from the potential energy. Parameters stay symbolic; cse keeps lambdify fast.
    """
    q = sp.symbols(f"q0:{n}")
    qd = sp.symbols(f"qd0:{n}")
    ls = sp.symbols(f"l0:{n}", positive=True)
    cs = sp.symbols(f"c0:{n}", positive=True)
    ms = sp.symbols(f"m0:{n}", positive=True)
    inert = sp.symbols(f"I0:{n}", positive=True)
    g, fx, fy = sp.symbols("g F_x F_y")
    mass = sp.zeros(n, n)
    potential = 0
    joint = sp.Matrix([0, 0])
    angle = 0
    for k in range(n):
        angle = angle + q[k]
        direction = sp.Matrix([sp.cos(angle), sp.sin(angle)])
        rcm = joint + cs[k] * direction
        jv = rcm.jacobian(q)
        jw = sp.Matrix([[1] * (k + 1) + [0] * (n - k - 1)])
        mass += ms[k] * jv.T * jv + inert[k] * jw.T * jw
        potential += ms[k] * g * rcm[1]
        joint = joint + ls[k] * direction
    dmass = [mass.diff(v) for v in q]
    vel = sp.Matrix([
        sum((dmass[k][i, j] - dmass[i][j, k] / 2) * qd[j] * qd[k]
            for j in range(n) for k in range(n))
        for i in range(n)
    ])
    grav = sp.Matrix([sp.diff(potential, v) for v in q])
    ext = -(joint.jacobian(q).T * sp.Matrix([fx, fy]))
    args = (q, qd, ls, cs, ms, inert, g, fx, fy)
    return tuple(sp.lambdify(args, expr, "numpy", cse=True)
                 for expr in (mass, vel, grav, ext))


def _random_chain(rng, n, g=9.81):
    lengths = rng.uniform(0.2, 1.0, n)
    com = lengths * rng.uniform(0.1, 0.9, n)
    masses = rng.uniform(0.5, 10.0, n)
    inertias = rng.uniform(0.01, 0.5, n)
    return PlanarChain(lengths, com, masses, inertias, g=g)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_agrees_with_independent_lagrangian(n):
    rng = np.random.default_rng(100 + n)
    chain = _random_chain(rng, n)
    mass_f, vel_f, grav_f, ext_f = _lagrangian_model(n)
    frames = 7
    q = rng.uniform(-np.pi, np.pi, (frames, n))
    qd = rng.uniform(-5, 5, (frames, n))
    qdd = rng.uniform(-20, 20, (frames, n))
    force = rng.uniform(-50, 50, (frames, 2))
    params = (chain.lengths, chain.com, chain.masses, chain.inertias, chain.g)
    M = chain.mass_matrix(q)
    C = chain.velocity_terms(q, qd)
    G = chain.gravity_terms(q)
    E = chain.external_terms(q, force)
    tau = chain.inverse_dynamics(q, qd, qdd, contact_force=force)
    for f in range(frames):
        args = (q[f], qd[f], *params, force[f, 0], force[f, 1])
        M_ref = np.asarray(mass_f(*args), dtype=float)
        C_ref = np.asarray(vel_f(*args), dtype=float).ravel()
        G_ref = np.asarray(grav_f(*args), dtype=float).ravel()
        E_ref = np.asarray(ext_f(*args), dtype=float).ravel()
        tau_ref = M_ref @ qdd[f] + C_ref + G_ref + E_ref
        # Two exact formulations of the same equations: only rounding differs (~1e-15
        # relative); 1e-9 relative leaves room for cancellation in sums of many terms.
        scale = np.abs(tau_ref).max()
        np.testing.assert_allclose(M[f], M_ref, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(C[f], C_ref, rtol=1e-9, atol=1e-9 * scale)
        np.testing.assert_allclose(G[f], G_ref, rtol=1e-9, atol=1e-9 * scale)
        np.testing.assert_allclose(E[f], E_ref, rtol=1e-9, atol=1e-9 * scale)
        np.testing.assert_allclose(tau[f], tau_ref, rtol=1e-9, atol=1e-9 * scale)


def test_one_link_closed_form():
    m, c, inertia, g = 3.0, 0.4, 0.2, 9.81
    rod = PlanarChain([1.0], [c], [m], [inertia], g=g)
    q = np.linspace(-3, 3, 11)[:, None]
    qd = np.linspace(-2, 2, 11)[:, None]
    qdd = np.linspace(5, -5, 11)[:, None]
    force = np.column_stack([np.linspace(-10, 10, 11), np.full(11, 4.0)])
    # T = I_o qdd + m g d cos(a) + L F_x sin(a) - L F_y cos(a): exact algebra, rounding only.
    expected = ((inertia + m * c**2) * qdd[:, 0] + m * g * c * np.cos(q[:, 0])
                + force[:, 0] * np.sin(q[:, 0]) - force[:, 1] * np.cos(q[:, 0]))
    np.testing.assert_allclose(rod.inverse_dynamics(q, qd, qdd, contact_force=force)[:, 0],
                               expected, rtol=1e-12, atol=1e-12)
    # One link: no centripetal torque about the hinge, whatever the speed (exactly zero).
    np.testing.assert_array_equal(rod.velocity_terms(q, qd), 0.0)


def test_two_link_closed_form():
    l1, c1, c2 = 0.3, 0.13, 0.16
    m1, m2, i1, i2 = 2.0, 1.4, 0.021, 0.017
    arm = PlanarChain([l1, 0.35], [c1, c2], [m1, m2], [i1, i2], g=9.81)
    rng = np.random.default_rng(2)
    q = rng.uniform(-3, 3, (20, 2))
    qd = rng.uniform(-4, 4, (20, 2))
    cos2, sin2 = np.cos(q[:, 1]), np.sin(q[:, 1])
    M11 = i1 + i2 + m1 * c1**2 + m2 * (l1**2 + c2**2 + 2 * l1 * c2 * cos2)
    M12 = i2 + m2 * (c2**2 + l1 * c2 * cos2)
    M22 = np.full(20, i2 + m2 * c2**2)
    M_ref = np.stack([np.stack([M11, M12], -1), np.stack([M12, M22], -1)], -2)
    h = m2 * l1 * c2 * sin2
    C_ref = np.column_stack([-h * (2 * qd[:, 0] * qd[:, 1] + qd[:, 1] ** 2),
                             h * qd[:, 0] ** 2])
    a1, a12 = q[:, 0], q[:, 0] + q[:, 1]
    G_ref = 9.81 * np.column_stack([
        (m1 * c1 + m2 * l1) * np.cos(a1) + m2 * c2 * np.cos(a12), m2 * c2 * np.cos(a12)])
    # Textbook formulas (e.g. Craig 2005) evaluated in floating point: rounding only.
    np.testing.assert_allclose(arm.mass_matrix(q), M_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(arm.velocity_terms(q, qd), C_ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(arm.gravity_terms(q), G_ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_forward_inverts_inverse(n):
    rng = np.random.default_rng(n)
    chain = _random_chain(rng, n)
    q = rng.uniform(-np.pi, np.pi, (50, n))
    qd = rng.uniform(-5, 5, (50, n))
    qdd = rng.uniform(-30, 30, (50, n))
    force = rng.uniform(-20, 20, (50, 2))
    tau = chain.inverse_dynamics(q, qd, qdd, contact_force=force)
    back = chain.forward_dynamics(q, qd, tau, contact_force=force)
    # One linear solve with a well-conditioned M (condition < 1e4 here): ~1e-13 absolute.
    np.testing.assert_allclose(back, qdd, rtol=1e-10, atol=1e-10)


def test_unchecked_single_frame_dynamics_matches_public_methods():
    # simulate_chain uses chain.frame_accelerations; it must equal the checked public path.
    rng = np.random.default_rng(11)
    chain = _random_chain(rng, 3)
    for _ in range(5):
        q, qd, tau = rng.uniform(-3, 3, 3), rng.uniform(-3, 3, 3), rng.uniform(-9, 9, 3)
        force = rng.uniform(-20, 20, 2)
        qdd, power = chain.frame_accelerations(q, qd, tau, force)
        # Same equations, different order of operations: rounding only.
        np.testing.assert_allclose(qdd, chain.forward_dynamics(q, qd, tau, contact_force=force),
                                   rtol=1e-11, atol=1e-11)
        np.testing.assert_allclose(power, -qd @ chain.external_terms(q, force), rtol=1e-12)
        np.testing.assert_allclose(chain.frame_accelerations(q, qd, tau)[0],
                                   chain.forward_dynamics(q, qd, tau), rtol=1e-11, atol=1e-11)


def test_velocity_terms_skew_symmetry_identity():
    # qd^T C(q, qd) = qd^T Mdot qd / 2 (energy balance), Mdot by a central difference.
    rng = np.random.default_rng(7)
    chain = _random_chain(rng, 3)
    q = rng.uniform(-2, 2, (10, 3))
    qd = rng.uniform(-3, 3, (10, 3))
    h = 1e-5
    mdot = (chain.mass_matrix(q + h * qd) - chain.mass_matrix(q - h * qd)) / (2 * h)
    lhs = np.einsum("fi,fi->f", qd, chain.velocity_terms(q, qd))
    rhs = 0.5 * np.einsum("fi,fij,fj->f", qd, mdot, qd)
    # Central difference error ~ h^2 |M'''| |qd|^3 ~ 1e-8; 1e-6 absolute is safely above.
    np.testing.assert_allclose(lhs, rhs, rtol=1e-7, atol=1e-6)


def test_mass_matrix_symmetric_positive_definite():
    rng = np.random.default_rng(3)
    chain = _random_chain(rng, 4)
    M = chain.mass_matrix(rng.uniform(-3, 3, (30, 4)))
    # Symmetric up to the order of the summations (a few ulp).
    np.testing.assert_allclose(M, np.swapaxes(M, -1, -2), rtol=1e-14, atol=0)
    assert np.all(np.linalg.eigvalsh(M) > 0)


def test_segment_angle_round_trip_and_kinematics():
    arm = PlanarChain([0.3, 0.4, 0.2], [0.1, 0.2, 0.1], [1, 1, 1], [0.01, 0.01, 0.01])
    q = np.array([[0.2, 0.5, -0.3], [1.0, -1.0, 2.0]])
    phi = arm.to_segment_angles(q)
    np.testing.assert_allclose(phi, [[0.2, 0.7, 0.4], [1.0, 0.0, 2.0]], atol=1e-15)
    np.testing.assert_allclose(arm.from_segment_angles(phi), q, atol=1e-15)
    pos = arm.joint_positions(q)
    assert pos.shape == (2, 4, 2)
    np.testing.assert_array_equal(pos[:, 0], 0.0)
    # Segment lengths are preserved (rigid links): rounding only.
    np.testing.assert_allclose(np.linalg.norm(np.diff(pos, axis=1), axis=-1),
                               np.broadcast_to([0.3, 0.4, 0.2], (2, 3)), rtol=1e-14)
    com = arm.com_positions(q)
    np.testing.assert_allclose(com[:, 1], pos[:, 1] + 0.2 * np.stack(
        [np.cos(phi[:, 1]), np.sin(phi[:, 1])], -1), atol=1e-15)
    np.testing.assert_allclose(arm.endpoint(q), pos[:, -1], atol=0)
    # Jacobian against a central difference of the endpoint (error ~ h^2 = 1e-12).
    h = 1e-6
    jac_fd = np.stack([(arm.endpoint(q + h * e) - arm.endpoint(q - h * e)) / (2 * h)
                       for e in np.eye(3)], axis=-1)
    np.testing.assert_allclose(arm.jacobian(q), jac_fd, atol=1e-9)


def test_energy_zero_for_horizontal_rest_and_kinetic_closed_form():
    rod = PlanarChain([1.0], [0.5], [2.0], [1 / 6])
    assert rod.energy([0.0], [0.0]) == 0.0
    # Vertical, spinning at 2 rad/s: m g c + (I + m c^2) w^2 / 2 (exact values).
    np.testing.assert_allclose(rod.energy([np.pi / 2], [2.0]),
                               2 * 9.81 * 0.5 + 0.5 * (1 / 6 + 0.5) * 4, rtol=1e-14)


def test_shapes_and_broadcasting():
    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    one = arm.inverse_dynamics([0.1, 0.2], [0.0, 1.0], [1.0, 0.0])
    assert one.shape == (2,)
    q = np.tile([0.1, 0.2], (4, 1))
    many = arm.inverse_dynamics(q, [0.0, 1.0], [1.0, 0.0], contact_force=[1.0, 2.0])
    assert many.shape == (4, 2)
    np.testing.assert_allclose(many - arm.external_terms(q, [1.0, 2.0]),
                               np.broadcast_to(one, (4, 2)), rtol=1e-14)
    assert arm.forward_dynamics(q, [0.0, 1.0], [0.0, 0.0]).shape == (4, 2)
    assert arm.energy(q, np.zeros((4, 2))).shape == (4,)
    assert arm.mass_matrix(np.zeros((3, 4, 2))).shape == (3, 4, 2, 2)
    assert arm.n == 2


def test_bad_parameters_raise_clear_errors():
    with pytest.raises(ValueError, match=r"lengths \[m\] must all be > 0"):
        PlanarChain([0.3, 0.0], [0.1, 0.0], [1, 1], [0.1, 0.1])
    with pytest.raises(ValueError, match="com must have one value per link"):
        PlanarChain([0.3, 0.3], [0.1], [1, 1], [0.1, 0.1])
    with pytest.raises(ValueError, match=r"0 <= com <= length"):
        PlanarChain([0.3], [0.43 * 1.7], [1], [0.1])
    with pytest.raises(ValueError, match=r"masses \[kg\] must all be > 0"):
        PlanarChain([0.3], [0.1], [-1], [0.1])
    with pytest.raises(ValueError, match="inertias"):
        PlanarChain([0.3], [0.1], [1], [-0.1])
    with pytest.raises(ValueError, match="non-finite"):
        PlanarChain([np.nan], [0.1], [1], [0.1])
    with pytest.raises(ValueError, match=r"g \[m/s\^2\] must be a finite non-negative"):
        PlanarChain([0.3], [0.1], [1], [0.1], g=-9.81)
    with pytest.raises(TypeError, match="lengths"):
        PlanarChain("abc", [0.1], [1], [0.1])


def test_bad_states_raise_clear_errors():
    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    with pytest.raises(ValueError, match=r"q \[rad\] must have trailing shape \(2,\)"):
        arm.mass_matrix([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"qd \[rad/s\] must be finite; got 1 non-finite"):
        arm.velocity_terms([0.1, 0.2], [np.nan, 0.0])
    with pytest.raises(ValueError, match=r"F \[N\] must have trailing shape \(2,\)"):
        arm.external_terms([0.1, 0.2], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="same frames"):
        arm.inverse_dynamics(np.zeros((5, 2)), np.zeros((4, 2)), np.zeros((5, 2)))


def test_from_segments_takes_anthropometry_segments():
    # The same chain as four parallel lists; a segment without inertia is named.
    from bmc import anthropometry as am

    segs = [am.segment(s, body_mass=70.0, height=1.75) for s in ("thigh", "shank", "foot")]
    chain = PlanarChain.from_segments(segs, g=9.8)
    ref = PlanarChain([s.length for s in segs], [s.com for s in segs],
                      [s.mass for s in segs], [s.inertia for s in segs], g=9.8)
    q = np.array([[0.1, -0.4, 1.2], [0.3, 0.2, -0.1]])
    np.testing.assert_array_equal(chain.mass_matrix(q), ref.mass_matrix(q))
    assert chain.g == 9.8
    with pytest.raises(TypeError, match="length, com, mass and inertia"):
        PlanarChain.from_segments([object()])


@pytest.mark.parametrize("frames", [8191, 8192, 8193, 2 * 8192 + 1])
def test_inverse_dynamics_is_exact_across_the_kernel_block_boundary(frames):
    # the kernel runs in blocks of 8192 frames (bmc._kernels.BLOCK): the frames on either
    # side of a boundary and in the last, partial block equal the matrix form (rounding)
    from bmc._kernels import BLOCK

    assert BLOCK == 8192
    rng = np.random.default_rng(frames)
    chain = PlanarChain([0.4, 0.35, 0.2], [0.18, 0.15, 0.1], [7.0, 3.0, 1.0],
                        [0.1, 0.04, 0.005])
    q, qd, qdd = rng.uniform(-3, 3, (3, frames, 3))
    tau = chain.inverse_dynamics(q, qd, qdd)
    matrix = (np.einsum("nij,nj->ni", chain.mass_matrix(q), qdd)
              + chain.velocity_terms(q, qd) + chain.gravity_terms(q))
    np.testing.assert_allclose(tau, matrix, rtol=0, atol=1e-12 * np.abs(matrix).max())
    edges = [i for i in (BLOCK - 1, BLOCK, frames - 1) if i < frames]
    np.testing.assert_allclose(tau[edges], chain.inverse_dynamics(q[edges], qd[edges],
                                                                  qdd[edges]), atol=1e-12)
