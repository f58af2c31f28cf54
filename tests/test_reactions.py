import numpy as np
import pytest

from bmc import reactions as rx
from bmc.models.human import human_model, leg_reactions, paper_formulas
from bmc.models.somersault import somersault
from bmc.tree import PlanarTree

LEGS = ["hip", "knee", "ankle"]


@pytest.fixture(scope="module")
def model():
    return human_model()


@pytest.fixture(scope="module")
def motion():
    return somersault()


@pytest.fixture(scope="module")
def frames(model):
    rng = np.random.default_rng(7)
    return rng.normal(size=(5, model.k)), rng.normal(size=(5, model.k)), \
        rng.normal(size=(5, model.k))


def test_sizes_of_the_paper(model, frames):
    q, _, _ = frames
    assert model.jacobian_q(q).shape == (5, 21, 9)
    assert model.jacobian_z().shape == (21, 12)
    assert model.constraint_jacobian(model.absolute_coordinates(q)).shape == (5, 12, 21)


def test_E_rows_of_the_legs_are_eq_3_2(model):
    E = model.jacobian_z()[3:12, :6]
    expected = np.array([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0],
                         [1, 0, 1, 0, 0, 0], [0, 1, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0],
                         [1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], [0, 0, 0, 0, 0, 0]])
    np.testing.assert_array_equal(E, expected)  # exact 0/1 pattern of the paper
    np.testing.assert_array_equal(model.jacobian_z()[:3], 0)  # trunk rows are zero


# ------------------------------------------------------------- D, E, gamma, C checks
def test_D_matches_central_differences(model, frames):
    q, _, _ = frames
    eps = 1e-6
    for qi in q:
        num = np.stack([(model.absolute_coordinates(qi + eps * e)
                         - model.absolute_coordinates(qi - eps * e)) / (2 * eps)
                        for e in np.eye(model.k)], axis=-1)
        # central differences: truncation ~eps^2 = 1e-12, rounding ~1e-16/eps = 1e-10
        np.testing.assert_allclose(model.jacobian_q(qi), num, atol=1e-8)


def test_E_matches_central_differences(model, frames):
    q, _, _ = frames
    eps = 1e-6
    num = np.stack([(model.absolute_coordinates(q[0], eps * e)
                     - model.absolute_coordinates(q[0], -eps * e)) / (2 * eps)
                    for e in np.eye(model.m)], axis=-1)
    np.testing.assert_allclose(model.jacobian_z(), num, atol=1e-8)  # g is linear in z


def test_gamma_gives_the_acceleration_of_p(model):
    # a smooth trajectory q(t) with known derivatives; pddot by second differences
    rng = np.random.default_rng(3)
    a, w, ph = rng.normal(size=(3, model.k))
    t, dt = 0.37, 1e-4
    q = lambda t: a * np.sin(w * t + ph)  # noqa: E731
    qd = a * w * np.cos(w * t + ph)
    qdd = -a * w**2 * np.sin(w * t + ph)
    pdd_num = (model.absolute_coordinates(q(t + dt)) - 2 * model.absolute_coordinates(q(t))
               + model.absolute_coordinates(q(t - dt))) / dt**2
    pdd = model.jacobian_q(q(t)) @ qdd + model.gamma(q(t), qd)
    # second differences: truncation ~dt^2 = 1e-8, rounding ~1e-16/dt^2 = 1e-8
    np.testing.assert_allclose(pdd, pdd_num, atol=1e-5)


def test_kinematics_agrees_with_D_and_gamma(model, frames):
    q, qd, qdd = frames
    r, v, a = model.kinematics(q, qd, qdd)
    D = model.jacobian_q(q)
    p = model.absolute_coordinates(q).reshape(5, 7, 3)
    pd = np.einsum("nai,ni->na", D, qd).reshape(5, 7, 3)
    pdd = (np.einsum("nai,ni->na", D, qdd) + model.gamma(q, qd)).reshape(5, 7, 3)
    # two codings of the same formulas: agreement to rounding
    np.testing.assert_allclose(r, p[..., :2], atol=1e-12)
    np.testing.assert_allclose(v, pd[..., :2], atol=1e-12)
    np.testing.assert_allclose(a, pdd[..., :2], atol=1e-12)


def test_CD_is_zero_and_CE_is_identity(model, frames):
    q, _, _ = frames
    C = model.constraint_jacobian(model.absolute_coordinates(q))
    # eqs. (2.6) and (2.7) hold to rounding for any configuration
    np.testing.assert_allclose(C @ model.jacobian_q(q), 0.0, atol=1e-13)
    np.testing.assert_allclose(C @ model.jacobian_z(), np.broadcast_to(np.eye(12), (5, 12, 12)),
                               atol=1e-13)


def test_E_is_a_right_inverse_not_the_pseudo_inverse(model, frames):
    q, _, _ = frames
    C = model.constraint_jacobian(model.absolute_coordinates(q[0]))
    pinv = np.linalg.pinv(C)
    np.testing.assert_allclose(C @ pinv, np.eye(12), atol=1e-12)  # pinv is one right inverse
    assert np.abs(model.jacobian_z() - pinv).max() > 0.1  # E is another one


def test_constraints_return_the_open_coordinates(model, frames):
    q, _, _ = frames
    z = np.random.default_rng(5).normal(size=(5, 12)) * 0.01
    # Phi(g(q, z)) = z exactly: z are the prohibited relative translations
    np.testing.assert_allclose(model.constraints(model.absolute_coordinates(q, z)), z,
                               atol=1e-14)
    np.testing.assert_allclose(model.constraints(model.absolute_coordinates(q)), 0.0,
                               atol=1e-14)


# ----------------------------------------------------------------------- symbolic
@pytest.fixture(scope="module")
def sym(model):
    return rx.symbolic_model(model)


def test_symbolic_D_E_gamma_match_numeric(model, sym, frames):
    fD, fE, fg = sym.lambdify(sym.D), sym.lambdify(sym.E), sym.lambdify(sym.gamma)
    for q, qd, qdd in zip(*frames, strict=True):
        # the same formulas evaluated two ways: rounding only
        np.testing.assert_allclose(fD(q, qd, qdd), model.jacobian_q(q), atol=1e-13)
        np.testing.assert_allclose(fE(q, qd, qdd), model.jacobian_z(), atol=0)
        np.testing.assert_allclose(fg(q, qd, qdd).ravel(), model.gamma(q, qd), atol=1e-12)


def test_symbolic_reactions_reproduce_corrected_eq_3_3(sym):
    import sympy as sp

    Rx, Ry = sp.symbols("R_x R_y", real=True)
    h = sym.gravity()
    h[9] += Rx  # contact force on the feet (segment 4, x and y rows)
    h[10] += Ry
    lam = sym.reactions(h, columns=range(6))
    assert sp.simplify(lam - paper_formulas()) == sp.zeros(6, 1)
    wrong = sp.simplify(lam - paper_formulas(misprint=True))
    assert wrong[3] != 0 and wrong[:3, 0] == sp.zeros(3, 1)  # only lambda_4 is affected


# ----------------------------------------------------------------- the reactions
def test_static_stance_closed_form(model):
    # standing still, feet flat: each joint carries the weight above it minus nothing else
    q = np.zeros(9)
    q[2 + 3] = np.pi / 2  # feet horizontal
    R = np.array([0.0, model.body_weight])
    zero = np.zeros(9)
    dist = 0.1
    idr = model.contact_inverse_dynamics(q, zero, zero, contact_point=("foot", dist))
    np.testing.assert_allclose(idr.contact_force, R, rtol=1e-12)  # weight on the bed
    h = model.applied_forces(q, torques=idr.torques, contact_force=R,
                             contact_point=("foot", dist), contact_moment=idr.contact_moment)
    lam = rx.reactions_augmented(model, q, zero, zero, h, joints=LEGS)
    m = model.masses
    below = np.array([m[1] + m[2] + m[3], m[2] + m[3], m[3]]) * model.g
    # vertical: body weight minus the weight of what lies below; horizontal: zero
    np.testing.assert_allclose(lam[1::2], model.body_weight - below, rtol=1e-12)
    np.testing.assert_allclose(lam[0::2], 0.0, atol=1e-10)


def test_four_formulations_agree_on_consistent_data(motion):
    m = motion.model
    idr = m.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                      contact_point=motion.contact_point)
    h = motion.applied_forces(torques=idr.torques)
    a = rx.reactions_augmented(m, motion.q, motion.qd, motion.qdd, h, joints=LEGS)
    b = rx.reactions_classical(m, motion.q, motion.qd, h, joints=LEGS)
    c = leg_reactions(m, motion.q, motion.qd, motion.qdd, motion.contact_force)
    d, tau = rx.reactions_newton_euler(m, motion.q, motion.qd, motion.qdd,
                                       motion.contact_force, motion.contact_point,
                                       contact_moment=motion.contact_moment)
    scale = np.abs(a).max()
    # the goal of the notebook: 1e-9 relative; rounding gives ~1e-14
    for other in (b, c, d):
        np.testing.assert_allclose(other, a, atol=1e-9 * scale)
    np.testing.assert_allclose(tau, idr.torques[:, :3], atol=1e-9 * np.abs(tau).max())
    all12 = rx.reactions_augmented(m, motion.q, motion.qd, motion.qdd, h)
    np.testing.assert_allclose(all12[:, :6], a, atol=0)  # a subset of E gives the same


def test_power_balance_checks_the_torques(motion):
    # independent of D: d(KE + PE)/dt = joint power + power of the bed's load
    m = motion.model
    idr = m.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                      contact_point=motion.contact_point)
    _, v, a = m.kinematics(motion.q, motion.qd, motion.qdd)
    w, al = motion.qd[:, 2:], motion.qdd[:, 2:]
    dE = (np.einsum("i,nid,nid->n", m.masses, v, a) + (m.inertias * w * al).sum(1)
          + m.g * v[..., 1] @ m.masses)
    rel = w[:, 1:] - w[:, np.asarray(m.parent[1:])]
    rd = (m.point(motion.q + 1e-7 * motion.qd, *motion.contact_point)
          - m.point(motion.q - 1e-7 * motion.qd, *motion.contact_point)) / 2e-7
    power = ((idr.torques * rel).sum(1) + (idr.contact_force * rd).sum(1)
             + idr.contact_moment * w[:, 3])
    # contact-point velocity by differences (error ~1e-7 m/s times kN): 1e-6 of the peak
    np.testing.assert_allclose(dE, power, atol=1e-6 * np.abs(dE).max())


def test_noisy_contact_force_2_10_vs_2_11_closed_form(motion):
    m = motion.model
    rng = np.random.default_rng(11)
    R = motion.contact_force + rng.normal(scale=20.0, size=motion.contact_force.shape)
    idr = m.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                      contact_point=motion.contact_point, contact_force=R)
    h = m.applied_forces(motion.q, torques=idr.torques, contact_force=R,
                         contact_point=motion.contact_point,
                         contact_moment=idr.contact_moment)
    a = rx.reactions_augmented(m, motion.q, motion.qd, motion.qdd, h)
    b = rx.reactions_classical(m, motion.q, motion.qd, h)
    D = m.jacobian_q(motion.q)
    Mbar, d, hbar = rx.minimal_form(m, motion.q, motion.qd, h)
    r = hbar - d - np.einsum("nij,nj->ni", Mbar, motion.qdd)  # residual of (2.9)
    dq = np.linalg.solve(Mbar, r[..., None])[..., 0]
    predicted = np.einsum("ai,a,nab,nb->ni", m.jacobian_z(), m.mass_diagonal(), D, dq)
    assert np.abs(a - b).max() > 1.0  # noise of 20 N makes them differ by newtons
    # a - b = E^T M D Mbar^-1 r exactly (derivation in the notebook)
    np.testing.assert_allclose(a - b, predicted, atol=1e-8 * np.abs(a).max())
    # eq. (2.10) is the recursion from the free ends, noisy or not
    ne, _ = rx.reactions_newton_euler(m, motion.q, motion.qd, motion.qdd, R,
                                      motion.contact_point)
    np.testing.assert_allclose(a[:, :6], ne, atol=1e-9 * np.abs(ne).max())


# ------------------------------------------------------------------ bad input
def test_bad_inputs(model):
    with pytest.raises(ValueError, match=r"q \[m, rad\] must have trailing shape \(9,\)"):
        model.jacobian_q(np.zeros(8))
    with pytest.raises(ValueError, match="got the unknown joint 'wrist'"):
        rx.reactions_augmented(model, np.zeros(9), np.zeros(9), np.zeros(9),
                               np.zeros(21), joints=["wrist"])
    with pytest.raises(ValueError, match="contact_point=.*is required"):
        model.applied_forces(np.zeros(9), contact_force=[0.0, 1.0])
    with pytest.raises(ValueError, match="parent must give"):
        PlanarTree(["a", "b"], [-1, 1], [0, 1], [1, 1], [1, 1], [0.5, 0.5], [1, 1], [1, 1])
    with pytest.raises(ValueError, match=r"masses \[kg\] must all be > 0"):
        PlanarTree(["a"], [-1], [0], [1], [1], [0.5], [0], [1])
    pend = PlanarTree(["a", "b"], [-1, 0], [0, 1], [-1, -1], [1, 1], [0.5, 0.5], [1, 1],
                         [1, 1])
    with pytest.raises(ValueError, match="needs segments 'thigh', 'shank', 'foot'"):
        leg_reactions(pend, np.zeros(4), np.zeros(4), np.zeros(4), [0, 0])


def test_tree_and_chain_share_the_model_interface(model, motion, sym):
    # One meaning of mass_matrix and bias_forces for every model: M qdd + bias = generalised
    # forces of all loads but gravity. Independent truth for the tree: the sympy derivation
    # (D and gamma differentiated symbolically), bias = D^T (M gamma - h_gravity) and the
    # paper's d = D^T M gamma; minimal_form with gravity alone in h gives d - hbar = bias.
    # For the chain (a pendulum hanging from a fixed point): the closed form of one uniform
    # rod, bias = m g c cos(q) at rest.
    import sympy as sp

    q, qd = motion.q[::40], motion.qd[::40]
    g = sp.Symbol("g", positive=True)
    Mg = sym.M * sym.gamma
    bias_sym = sym.lambdify(sym.D.T * (Mg - sym.gravity().subs(g, model.g)))
    d_sym = sym.lambdify(sym.D.T * Mg)
    Mbar, d, hbar = rx.minimal_form(model, q, qd, model.applied_forces(q))
    np.testing.assert_allclose(model.mass_matrix(q), Mbar, rtol=1e-12, atol=0)
    # rounding of sums of ~1e3 N terms: 1e-9 of the body weight
    tol = 1e-9 * model.body_weight
    np.testing.assert_allclose(model.bias_forces(q, qd), bias_sym(q, qd, 0 * q), atol=tol)
    np.testing.assert_allclose(d, d_sym(q, qd, 0 * q), rtol=0, atol=tol)
    np.testing.assert_allclose(model.bias_forces(q, qd), d - hbar, rtol=0, atol=tol)
    from bmc.chain import PlanarChain
    rod = PlanarChain([1.0], [0.5], [2.0], [2.0 / 12], g=9.81)
    np.testing.assert_allclose(rod.bias_forces([0.3], [0.0]), [2.0 * 9.81 * 0.5 * np.cos(0.3)],
                               rtol=1e-14)


def test_symbolic_lambdify_takes_frames(model, sym, frames):
    # broadcast_lambdify underneath: N frames at once equal the numeric D frame by frame
    # (rounding only).
    q, qd, qdd = (np.asarray(x) for x in frames)
    fD = sym.lambdify(sym.D)
    np.testing.assert_allclose(fD(q, qd, qdd), model.jacobian_q(q), atol=1e-13)


def test_the_trial_methods_are_the_formulations_on_its_own_data(motion):
    # Motion.contact_inverse_dynamics and Motion.reactions_newton_euler are the model's and
    # the formulation's on the motion's arrays: identical arrays, bit for bit.
    m, q, qd, qdd = motion.model, motion.q, motion.qd, motion.qdd
    cp, R, Mc = motion.contact_point, motion.contact_force, motion.contact_moment
    idr = m.contact_inverse_dynamics(q, qd, qdd, contact_point=cp)
    idt = motion.contact_inverse_dynamics()
    for field in ("contact_force", "contact_moment", "torques", "residual"):
        np.testing.assert_array_equal(getattr(idt, field), getattr(idr, field))
    noisy = R + 10.0
    np.testing.assert_array_equal(
        motion.contact_inverse_dynamics(contact_force=noisy).torques,
        m.contact_inverse_dynamics(q, qd, qdd, contact_point=cp, contact_force=noisy).torques)
    ne = rx.reactions_newton_euler(m, q, qd, qdd, R, cp, contact_moment=Mc)
    for a, b in zip(motion.reactions_newton_euler(), ne, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_trial_in_place_of_the_model_is_refused(motion, model):
    # explicit signatures: the model, then the state, then the loads; no duck-typed trial
    h = motion.applied_forces()
    with pytest.raises(TypeError, match="model must be a planar model"):
        rx.reactions_augmented(motion, motion.q, motion.qd, motion.qdd, h)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'h'"):
        rx.reactions_augmented(model, motion.q, motion.qd, motion.qdd)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="model must be a planar model"):
        rx.minimal_form(object(), motion.q, motion.qd, h)  # type: ignore[arg-type]


def test_tree_inverse_dynamics_is_the_formulation_and_the_newton_euler_pass(motion):
    # PlanarTree.inverse_dynamics returns the torques of contact_inverse_dynamics
    # (one computation: identical arrays); independent truth: the Newton-Euler pass from the
    # feet up gives the same hip, knee and ankle torques (rounding of ~1e3 N m sums).
    m, q, qd, qdd = motion.model, motion.q, motion.qd, motion.qdd
    cp, R, Mc = motion.contact_point, motion.contact_force, motion.contact_moment
    tau = m.inverse_dynamics(q, qd, qdd, contact_point=cp, contact_force=R, contact_moment=Mc)
    assert tau.shape == (q.shape[0], m.n - 1)
    np.testing.assert_array_equal(
        tau, m.contact_inverse_dynamics(q, qd, qdd, contact_point=cp, contact_force=R,
                                         contact_moment=Mc).torques)
    _, tau_ne = motion.reactions_newton_euler()
    legs = [m.joint_names.index(j) for j in LEGS]
    np.testing.assert_allclose(tau[:, legs], tau_ne, rtol=0, atol=1e-8 * m.body_weight)


def test_tree_and_chain_inverse_dynamics_share_their_convention(frames):
    # The same two links as a PlanarChain hinged at the origin and as a PlanarTree held at
    # its base (contact at the root's proximal end): the chain's hinge torque is the tree's
    # free contact moment, its second joint torque the tree's joint torque (counter-clockwise
    # on the child in both). Two independent computations (the chain's blocked kernel, the
    # tree's minimal form); rounding only.
    from bmc.chain import PlanarChain
    L, c, mass, inertia = [0.4, 0.35], [0.18, 0.15], [3.0, 2.0], [0.05, 0.03]
    chain = PlanarChain(L, c, mass, inertia, g=9.81)
    tree = PlanarTree(["upper", "lower"], [-1, 0], [0.0, L[0]], [1, 1], L, c, mass, inertia,
                      g=9.81)
    qc, qdc, qddc = (np.asarray(x)[:, :2] for x in frames)       # chain joint coordinates
    theta, w, al = (chain.to_segment_angles(x) for x in (qc, qdc, qddc))
    zero = np.zeros((qc.shape[0], 2))
    q = np.concatenate([zero, theta - np.pi / 2], axis=-1)       # tree: phi = theta - 90 deg
    qd, qdd = np.concatenate([zero, w], axis=-1), np.concatenate([zero, al], axis=-1)
    tau_chain = chain.inverse_dynamics(qc, qdc, qddc)
    res = tree.contact_inverse_dynamics(q, qd, qdd, contact_point=("upper", 0.0))
    np.testing.assert_allclose(res.contact_moment, tau_chain[:, 0], rtol=0, atol=1e-11)
    np.testing.assert_allclose(tree.inverse_dynamics(q, qd, qdd, contact_point=("upper", 0.0)),
                               tau_chain[:, 1:], rtol=0, atol=1e-11)
    np.testing.assert_allclose(res.residual, 0.0, atol=1e-11)
