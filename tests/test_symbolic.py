"""Tests of bmc.symbolic: Newton-Euler against sympy.physics.mechanics, and against the chain.

Symbolic results are compared symbolically (simplify(a - b) == 0); numbers with explicit
tolerances. Derivations are cached per module (they take about a second each).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
import sympy as sp

from bmc import symbolic
from bmc.chain import PlanarChain

PARAMS = dict(lengths=[0.32, 0.43], com=[0.14, 0.29], masses=[1.96, 1.54],
              inertias=[0.0139, 0.0627])


@functools.cache
def _newton_euler(n, coordinates="joint", simplify=True):
    return symbolic.newton_euler_equations(n, coordinates=coordinates, simplify=simplify)


@functools.cache
def _lagrange(n):
    return symbolic.lagrange_equations(n)


def test_two_link_newton_euler_equals_lagrange():
    # Joint coordinates; segment coordinates are checked numerically against the chain.
    ne, lag = _newton_euler(2), _lagrange(2)
    assert ne.q == lag.q
    # Two independent derivations: the difference must simplify to exactly zero.
    assert symbolically_zero(ne.tau - lag.tau)
    for part in "MCGE":
        assert symbolically_zero(getattr(ne, part) - getattr(lag, part)), part


def symbolically_zero(expr):
    return symbolic.symbolically_equal(expr, sp.zeros(*expr.shape))


def test_one_link_about_com_equals_about_joint_and_lagrange():
    com, joint = symbolic.one_link(about="com"), symbolic.one_link(about="joint")
    # Small expressions: plain sympy.simplify is fast enough here.
    assert sp.simplify(com.tau - joint.tau) == sp.zeros(1, 1)
    assert sp.simplify(joint.tau - _lagrange(1).tau) == sp.zeros(1, 1)
    # One link: the centripetal terms have zero lever arm about the joint and cancel.
    assert com.C == sp.zeros(1, 1)
    ad = com.qd[0]
    assert sp.expand(com.tau[0]).coeff(ad**2) == 0
    assert com.tau[0].has(ad)  # ... though they are present before expansion
    (d,), (m,), (inertia,) = joint.d, joint.m, joint.I
    assert sp.simplify(joint.M[0] - (inertia + m * d**2)) == 0


def test_two_link_terms_have_the_textbook_form():
    arm = _newton_euler(2)
    L1, (d1, d2), (m1, m2), (I1, I2) = arm.L[0], arm.d, arm.m, arm.I
    a1, a2 = arm.q
    M_ref = sp.Matrix([
        [I1 + I2 + m1 * d1**2 + m2 * (L1**2 + d2**2 + 2 * L1 * d2 * sp.cos(a2)),
         I2 + m2 * (d2**2 + L1 * d2 * sp.cos(a2))],
        [I2 + m2 * (d2**2 + L1 * d2 * sp.cos(a2)), I2 + m2 * d2**2]])
    assert sp.simplify(arm.M - M_ref) == sp.zeros(2, 2)
    a1d, a2d = arm.qd
    C_ref = sp.Matrix([-m2 * L1 * d2 * sp.sin(a2) * (2 * a1d * a2d + a2d**2),
                       m2 * L1 * d2 * sp.sin(a2) * a1d**2])
    assert sp.simplify(arm.C - C_ref) == sp.zeros(2, 1)
    # In segment angles there are no Coriolis (velocity product) terms.
    seg = _newton_euler(2, "segment")
    t1d, t2d = seg.qd
    assert sp.expand(seg.C[0]).coeff(t1d * t2d) == 0
    assert sp.expand(seg.C[1]).coeff(t1d * t2d) == 0


def _numeric(deriv, chain):
    values = deriv.parameters(chain.lengths, chain.com, chain.masses, chain.inertias, chain.g)
    args = [*deriv.q, *deriv.qd, *deriv.qdd, *deriv.F]
    return {part: symbolic.broadcast_lambdify(args, getattr(deriv, part).subs(values))
            for part in ("M", "C", "G", "E", "tau")}


def _state(n, frames=9, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-3, 3, (frames, n)), rng.uniform(-4, 4, (frames, n)),
            rng.uniform(-10, 10, (frames, n)), rng.uniform(-20, 20, (frames, 2)))


def test_two_link_agrees_with_planar_chain_on_frames():
    chain = PlanarChain(**PARAMS)
    funcs = _numeric(_newton_euler(2), chain)
    q, qd, qdd, F = _state(2)
    cols = [*q.T, *qd.T, *qdd.T, *F.T]
    # Both are exact: rounding only (1e-12 relative, with an absolute floor for zeros).
    np.testing.assert_allclose(funcs["M"](*cols), chain.mass_matrix(q), rtol=1e-12)
    np.testing.assert_allclose(funcs["C"](*cols), chain.velocity_terms(q, qd),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(funcs["G"](*cols), chain.gravity_terms(q), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(funcs["E"](*cols), chain.external_terms(q, F), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(funcs["tau"](*cols),
                               chain.inverse_dynamics(q, qd, qdd, contact_force=F),
                               rtol=1e-12, atol=1e-12)


def test_one_link_agrees_with_planar_chain_on_frames():
    rod = PlanarChain([0.43], [0.17], [1.54], [0.024])
    funcs = _numeric(symbolic.one_link(), rod)
    q, qd, qdd, F = _state(1, seed=3)
    # Exact expressions on both sides: rounding only.
    np.testing.assert_allclose(funcs["tau"](*q.T, *qd.T, *qdd.T, *F.T),
                               rod.inverse_dynamics(q, qd, qdd, contact_force=F), rtol=1e-12,
                               atol=1e-12)


def test_segment_coordinates_give_net_segment_moments():
    chain = PlanarChain(**PARAMS)
    funcs = _numeric(_newton_euler(2, "segment"), chain)
    q, qd, qdd, F = _state(2, seed=1)
    th, thd, thdd = (chain.to_segment_angles(x) for x in (q, qd, qdd))
    net = funcs["tau"](*th.T, *thd.T, *thdd.T, *F.T)
    tau = chain.inverse_dynamics(q, qd, qdd, contact_force=F)
    # Net moment on segment 1 is T1 - T2, on segment 2 is T2 (rounding only).
    np.testing.assert_allclose(net, np.column_stack([tau[:, 0] - tau[:, 1], tau[:, 1]]),
                               rtol=1e-12, atol=1e-11)


def test_broadcast_lambdify_fixes_inhomogeneous_shape():
    arm = _newton_euler(2)
    values = arm.parameters(**PARAMS)
    M = arm.M.subs(values)  # M[1, 1] is a constant, the others depend on alpha2
    a2 = np.linspace(0, np.pi, 5)
    plain = sp.lambdify(arm.q, M, "numpy")
    # The seed's route: a matrix with constant and array entries is a ragged list.
    with pytest.raises(ValueError, match="inhomogeneous"):
        plain(np.zeros(5), a2)
    fixed = symbolic.broadcast_lambdify(arm.q, M)(np.zeros(5), a2)
    assert fixed.shape == (5, 2, 2)
    np.testing.assert_allclose(fixed[:, 1, 1], float(M[1, 1]), rtol=1e-15)
    x = sp.Symbol("x")
    assert symbolic.broadcast_lambdify([x], 2 * x)(np.ones(3)).shape == (3,)
    assert symbolic.broadcast_lambdify([x], sp.Matrix([1, x]))(np.ones(4)).shape == (4, 2)


def test_tidy_and_bad_arguments():
    x = sp.Function("x")(symbolic.t)
    assert symbolic.tidy(sp.sin(x) ** 2 + sp.cos(x) ** 2, [x]) == 1
    assert symbolic.symbolically_equal(sp.cos(x) ** 2, (1 + sp.cos(2 * x)) / 2)
    assert not symbolic.symbolically_equal(sp.cos(x), sp.sin(x))
    with pytest.raises(ValueError, match="n .number of links. must be a positive integer"):
        symbolic.newton_euler_equations(0)
    with pytest.raises(ValueError, match='coordinates must be "joint" or "segment"'):
        symbolic.newton_euler_equations(2, coordinates="absolute")
    with pytest.raises(ValueError, match='about must be "joint" or "com"'):
        symbolic.one_link(about="hip")
    with pytest.raises(ValueError, match=r"lengths \[m\] must have 2 value"):
        _newton_euler(2).parameters([1.0], [0.5], [1.0], [0.1])
