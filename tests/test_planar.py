"""bmc.planar: the one planar model interface, against independent truths.

A new model needs its parameters only: every algorithm runs on it. The model's kernels (the
blocked ``M qdd + h``, the explicit mass matrix and bias forces) agree with the absolute
coordinates' form ``D^T diag(m, m, I) D`` built from finite differences of the positions,
on random trees with fixed and floating bases, a welded root and frames across the block
boundary; arguments are checked once at each public entry.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from bmc import drawing, least_squares, reactions
from bmc._kernels import BLOCK
from bmc.planar import PlanarModel


def test_a_new_model_needs_only_its_parameters(rng):
    # a three-segment arm whose shoulder floats (the trunk moves it): parameters only
    arm = PlanarModel([-1, 0, 1], [0.0, 0.30, 0.27], [0.30, 0.27, 0.19], [0.13, 0.12, 0.07],
                      [2.0, 1.2, 0.45], [0.02, 0.008, 0.001], floating=True,
                      names=["upper_arm", "forearm", "hand"], joint_names=["elbow", "wrist"])
    q, qd, qdd = rng.uniform(-1, 1, (3, 40, arm.k))
    shoulder, hand = ("upper_arm", 0.0), ("hand", 0.19)
    idyn = arm.contact_inverse_dynamics(q, qd, qdd, contact_point=shoulder)  # minimal form
    h = arm.applied_forces(q, torques=idyn.torques, contact_force=idyn.contact_force,
                           contact_point=shoulder, contact_moment=idyn.contact_moment)
    Mbar, d, hbar = reactions.minimal_form(arm, q, qd, h)
    lam = reactions.reactions_augmented(arm, q, qd, qdd, h)                   # eq. (2.10)
    lam_c = reactions.reactions_classical(arm, q, qd, h)                      # eq. (2.11)
    lam_ne, tau_ne = reactions.reactions_newton_euler(arm, q, qd, qdd, [0.0, 0.0], hand)
    grf = np.column_stack([idyn.contact_moment, idyn.contact_force])         # shoulder load
    bottom_up = least_squares.newton_euler(arm, q, qd, qdd, grf)              # Kuo's NE
    A, b = least_squares.system(arm, q, qd, qdd, grf)
    est = least_squares.least_squares(arm, q, qd, qdd, grf, np.ones(A.shape[-2]))
    sketch = drawing.model_sketch(arm, q[0], angles="segment")
    plt.close("all")
    # every route gives the same loads (rounding of sums of ~10 N m terms)
    for other in (tau_ne, bottom_up.tau, est.tau):
        np.testing.assert_allclose(other, idyn.torques, rtol=0, atol=1e-10)
    np.testing.assert_allclose(np.einsum("nij,nj->ni", Mbar, qdd) + d, hbar, atol=1e-10)
    for other in (lam_c, lam_ne):
        np.testing.assert_allclose(other, lam, rtol=0, atol=1e-10)
    np.testing.assert_allclose(bottom_up.residual, 0.0, atol=1e-10)
    np.testing.assert_allclose(est.grf, grf, atol=1e-10)
    assert sketch.points["joints"].shape == (4, 2) and sketch.points["com"].shape == (3, 2)


# ----------------------------------------------------------------------- random trees
def _random_tree(rng, *, floating: bool, welded: bool = False,
                 torque_on: str = "child") -> PlanarModel:
    """Five segments with a branch (segment 3 hangs from the middle of segment 0)."""
    parent = [-1, 0, 1, 0, 3]
    lengths = rng.uniform(0.2, 0.5, 5)
    attach = [0.0, lengths[0], lengths[1], 0.5 * lengths[0], lengths[3]]
    com = rng.uniform(0.2, 0.8, 5) * lengths
    kw: dict = {"floating": floating, "zero_direction": rng.uniform(-np.pi, np.pi, 5)}
    if welded:  # the root does not turn (Kuo's foot), the others in joint coordinates
        amap = np.tril(np.ones((5, 4)), k=-1)
        amap[3] = [1.0, 0.0, 1.0, 0.0]
        amap[4] = [1.0, 0.0, 1.0, 1.0]
        kw.update(angle_map=amap, angle_offset=[0.3, 0, 0, 0, 0])
    return PlanarModel(parent, attach, lengths, com, rng.uniform(0.5, 5.0, 5),
                       rng.uniform(0.005, 0.05, 5), g=9.81, torque_on=torque_on, **kw)


def _finite_difference_form(model, q, qd, qdd):
    """``D^T diag(m, m, I) (D qdd + Ddot qd) - D^T h_gravity`` from positions alone.

    ``D`` by central differences of the absolute coordinates; ``Ddot qd`` as the second
    difference of ``p`` along the straight path ``q + qd t``.
    """
    h = 1e-4
    p = model.absolute_coordinates
    D = D_at(model, q)
    Ddot_qd = (p(q + h * qd) - 2 * p(q) + p(q - h * qd)) / h**2
    w = model.mass_diagonal()
    pdd = np.einsum("...ai,...i->...a", D, qdd) + Ddot_qd
    return np.einsum("...ai,...a->...i", D, w * pdd - model.applied_forces(q))


def D_at(model, q):  # noqa: N802 - the paper's D
    eps = 1e-6
    p = model.absolute_coordinates
    return np.stack([(p(q + eps * e) - p(q - eps * e)) / (2 * eps) for e in np.eye(model.k)],
                    axis=-1)


@pytest.mark.parametrize(("floating", "welded"), [(False, False), (True, False), (False, True)])
def test_generalized_forces_match_the_absolute_coordinates_form(rng, floating, welded):
    model = _random_tree(rng, floating=floating, welded=welded)
    q, qd, qdd = rng.uniform(-2, 2, (3, 6, model.k))
    truth = _finite_difference_form(model, q, qd, qdd)
    scale = np.abs(truth).max()
    # central differences with a 1e-6 step: errors of about 1e-8 of the largest term
    blocked = model.kernel.forces(q, qd, qdd)
    explicit = np.einsum("...ij,...j->...i", model.mass_matrix(q), qdd) + model.bias_forces(q, qd)
    np.testing.assert_allclose(blocked, truth, rtol=0, atol=1e-7 * scale)
    np.testing.assert_allclose(explicit, blocked, rtol=0, atol=1e-12 * scale)  # rounding
    # and the jacobian the formulations use is the finite-difference one
    np.testing.assert_allclose(model.jacobian_q(q), D_at(model, q), atol=1e-8)


@pytest.mark.parametrize("frames", [BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 3])
def test_the_blocked_kernel_is_exact_across_block_boundaries(rng, frames):
    # the kernel works in blocks of BLOCK frames: every frame of every block, the last
    # partial one included, equals the explicit form (rounding only)
    for model in (_random_tree(rng, floating=True), _random_tree(rng, floating=False,
                                                                  welded=True)):
        q, qd, qdd = rng.uniform(-2, 2, (3, frames, model.k))
        explicit = (np.einsum("...ij,...j->...i", model.mass_matrix(q), qdd)
                    + model.bias_forces(q, qd))
        blocked = model.kernel.forces(q, qd, qdd)
        np.testing.assert_allclose(blocked, explicit, rtol=0,
                                   atol=1e-12 * np.abs(explicit).max())


def test_fixed_base_torques_and_forward_dynamics_are_inverse(rng):
    model = _random_tree(rng, floating=False, welded=True)
    q, qd, qdd = rng.uniform(-2, 2, (3, 20, model.k))
    tau = model.inverse_dynamics(q, qd, qdd)
    np.testing.assert_allclose(tau @ model.torque_matrix.T,
                               model.kernel.forces(q, qd, qdd), atol=1e-10)
    np.testing.assert_allclose(model.forward_dynamics(q, qd, tau), qdd, atol=1e-9)


def test_torques_on_the_parent_are_the_reactions_of_those_on_the_child():
    # the same body with torque_on="parent" (Kuo's body rooted at the foot): every torque
    # is the negative of the child convention's, and the physics (applied loads, joint
    # reactions, the motion a torque drives) is unchanged
    child = _random_tree(np.random.default_rng(5), floating=False, welded=True)
    parent = _random_tree(np.random.default_rng(5), floating=False, welded=True,
                          torque_on="parent")
    assert (child.torque_on, parent.torque_on) == ("child", "parent")
    q, qd, qdd = np.random.default_rng(6).uniform(-2, 2, (3, 8, child.k))
    tau = child.inverse_dynamics(q, qd, qdd)
    np.testing.assert_array_equal(parent.torque_matrix, -child.torque_matrix)
    np.testing.assert_allclose(parent.inverse_dynamics(q, qd, qdd), -tau, rtol=1e-12,
                               atol=1e-12 * np.abs(tau).max())  # the same sums, negated
    np.testing.assert_allclose(parent.forward_dynamics(q, qd, -tau), qdd, atol=1e-9)
    np.testing.assert_allclose(parent.applied_forces(q, torques=-tau),
                               child.applied_forces(q, torques=tau), atol=1e-12)
    tip = (4, float(child.lengths[4]))
    lam_c, tau_c = reactions.reactions_newton_euler(child, q, qd, qdd, [0.0, 0.0], tip)
    lam_p, tau_p = reactions.reactions_newton_euler(parent, q, qd, qdd, [0.0, 0.0], tip)
    np.testing.assert_array_equal(lam_p, lam_c)
    np.testing.assert_array_equal(tau_p, -tau_c)
    with pytest.raises(ValueError, match="torque_on must be 'child' or 'parent'"):
        _random_tree(np.random.default_rng(5), floating=False, torque_on="distal")


def test_base_reaction_is_the_momentum_balance(rng):
    # the load at the base point, from linear and angular momentum of every segment
    model = _random_tree(rng, floating=False, welded=True)
    q, qd, qdd = rng.uniform(-2, 2, (3, 4, model.k))
    r, _, a = model.kinematics(q, qd, qdd)
    alpha = qdd @ model.angle_map.T
    force = np.einsum("i,...id->...d", model.masses, a + [0.0, model.g])
    rel = r - model.proximal_positions(q)[..., :1, :]
    torque = alpha @ model.inertias + np.einsum(
        "i,...i->...", model.masses,
        rel[..., 0] * (a[..., 1] + model.g) - rel[..., 1] * a[..., 0])
    np.testing.assert_allclose(model.base_reaction(q, qd, qdd),
                               np.column_stack([torque, force]), atol=1e-10)


@pytest.mark.parametrize("welded", [False, True])
def test_fixed_base_reactions_by_both_formulas_and_the_recursion_agree(rng, welded):
    # a fixed base: eq. (2.11) holds the base's constraints too (a pin, or a welded root);
    # on consistent data it agrees with eq. (2.10) and with the Newton-Euler recursion
    model = _random_tree(rng, floating=False, welded=welded)
    q, qd, qdd = rng.uniform(-2, 2, (3, 6, model.k))
    h = model.applied_forces(q, torques=model.inverse_dynamics(q, qd, qdd))
    lam = reactions.reactions_augmented(model, q, qd, qdd, h)
    np.testing.assert_allclose(reactions.reactions_classical(model, q, qd, h), lam,
                               atol=1e-9 * np.abs(lam).max())
    tip = (4, float(model.lengths[4]))  # from the free end of the branch, inward
    ne, _ = reactions.reactions_newton_euler(model, q, qd, qdd, [0.0, 0.0], tip)
    path = model.joint_columns([j for j, c in enumerate(model.kernel.topology.joint_child)
                                if c in (3, 4)])
    np.testing.assert_allclose(ne[..., -4:], lam[..., path], atol=1e-9 * np.abs(lam).max())


def test_a_floating_base_reaction_is_the_load_that_holds_it_at_the_base(rng):
    # two routes to the load at the base point of a floating model: the momentum balances
    # (base_reaction) and the minimal form with the contact there (rounding only)
    model = _random_tree(rng, floating=True)
    q, qd, qdd = rng.uniform(-2, 2, (3, 5, model.k))
    held = model.contact_inverse_dynamics(q, qd, qdd, contact_point=(0, 0.0))
    np.testing.assert_allclose(model.base_reaction(q, qd, qdd),
                               np.column_stack([held.contact_moment, held.contact_force]),
                               atol=1e-10)


def test_arguments_are_checked_once_at_the_entry(monkeypatch, rng):
    # every array argument is converted and checked once; the kernels inside check nothing
    import bmc._validation as validation
    from bmc.models.human import human_model

    model = human_model()
    q, qd, qdd = rng.uniform(-1, 1, (3, 5, model.k))
    calls = []
    real = validation._real
    monkeypatch.setattr(validation, "_real", lambda *a: calls.append(a) or real(*a))
    model.contact_inverse_dynamics(q, qd, qdd, contact_point=("foot", 0.1))
    assert len(calls) == 4, len(calls)  # q, qd, qdd and the distance (was 27)
    calls.clear()
    reactions.reactions_newton_euler(model, q, qd, qdd, [0.0, 600.0], ("foot", 0.1))
    assert len(calls) == 6, len(calls)  # q, qd, qdd, force, moment, distance (was 58)


def test_a_model_is_refused_in_words(rng):
    with pytest.raises(ValueError, match="parent"):
        PlanarModel([-1, 2, 0], [0, 1, 1], [1, 1, 1], [0.5] * 3, [1] * 3, [0.1] * 3)
    with pytest.raises(ValueError, match="angle_map must be the identity"):
        PlanarModel([-1, 0], [0, 1], [1, 1], [0.5] * 2, [1] * 2, [0.1] * 2, floating=True,
                    angle_map=np.tril(np.ones((2, 2))))
    with pytest.raises(ValueError, match="one angle coordinate per joint"):
        PlanarModel([-1, 0], [0, 1], [1, 1], [0.5] * 2, [1] * 2, [0.1] * 2,
                    angle_map=np.ones((2, 1)))
    arm = _random_tree(rng, floating=True)
    with pytest.raises(TypeError, match="contact_point"):
        arm.inverse_dynamics(np.zeros(7), np.zeros(7), np.zeros(7))
