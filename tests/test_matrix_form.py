"""Tests for bmc.matrix_form: skew operator, double pendulum, 3D matrix assembly."""

import numpy as np
import pytest

import bmc
from bmc import matrix_form as mf
from bmc.models.double_pendulum import DoublePendulum, euler_double_pendulum
from bmc.models.stance import stance_example
from bmc.rotations import rotation_matrix, skew, vee

SOURCE_Y0 = [np.pi / 10, np.pi / 3, 2 * np.pi, -6 * np.pi]   # the source's initial state


@pytest.fixture
def rng():
    return np.random.default_rng(2024)


# ------------------------------------------------------------------------- skew and vee
def test_skew_identities(rng):
    # Exact algebra; only rounding of a few products (|a|, |b| ~ 1): 1e-14 absolute.
    a, b = rng.normal(size=(2, 100, 3))
    R = rotation_matrix(rng.uniform(-np.pi, np.pi, size=(100, 3)))
    S = skew(a)
    np.testing.assert_allclose(S @ b[..., None], np.cross(a, b)[..., None], atol=1e-14)
    np.testing.assert_allclose(np.swapaxes(S, -1, -2), -S, atol=0)
    np.testing.assert_allclose(vee(S), a, atol=0)
    Ra = np.einsum("nij,nj->ni", R, a)
    np.testing.assert_allclose(R @ S @ np.swapaxes(R, -1, -2), skew(Ra), atol=1e-14)
    np.testing.assert_allclose(skew(a[0]) @ skew(a[0]),
                               np.outer(a[0], a[0]) - a[0] @ a[0] * np.eye(3), atol=1e-14)


def test_vee_refuses_a_non_skew_matrix():
    with pytest.raises(ValueError, match="skew-symmetric"):
        vee(np.eye(3))
    np.testing.assert_allclose(vee(np.eye(3) + skew([1.0, 2.0, 3.0]), atol=None),
                               [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="trailing shape"):
        skew([1.0, 2.0])


# ----------------------------------------------------------------------- double pendulum
@pytest.fixture
def pend():
    return DoublePendulum()


@pytest.fixture
def states(rng):
    return rng.uniform(-3, 3, size=(50, 2)), rng.uniform(-8, 8, size=(50, 2))


def test_double_pendulum_matches_planar_chain(pend, states):
    # Independent formulation (PlanarChain, joint coordinates from +x): with absolute
    # angles phi = L q, M_q = L^T M L and the right-hand-side terms change sign; the
    # generalized forces (M1 - M12, M12) map to joint torques (M1, M12). Rounding only.
    theta, omega = states
    chain = pend.to_chain()
    q = pend.to_chain_coordinates(theta)
    qd = np.stack([omega[:, 0], omega[:, 1] - omega[:, 0]], axis=-1)
    L = np.array([[1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(chain.mass_matrix(q), L.T @ pend.mass_matrix(theta) @ L,
                               atol=1e-13)
    np.testing.assert_allclose(chain.velocity_terms(q, qd),
                               -pend.velocity_terms(theta, omega) @ L, atol=1e-12)
    np.testing.assert_allclose(chain.gravity_terms(q), -pend.gravity_terms(theta) @ L,
                               atol=1e-12)
    np.testing.assert_allclose(chain.energy(q, qd), pend.energy(theta, omega), atol=1e-12)
    tau = np.stack([np.full(50, 1.5), np.full(50, -0.7)], axis=-1)        # (M1, M12)
    Q = pend.generalized_forces(tau[:, 0], tau[:, 1])
    qdd = chain.forward_dynamics(q, qd, tau)
    thetadd = pend.accelerations(theta, omega, Q)
    np.testing.assert_allclose(qdd, np.stack([thetadd[:, 0], thetadd[:, 1] - thetadd[:, 0]],
                                             axis=-1), atol=1e-10)
    # the source's positions: rod 1's tip at l1 (sin theta1, -cos theta1), and so on
    tip1 = pend.l1 * np.stack([np.sin(theta[:, 0]), -np.cos(theta[:, 0])], axis=-1)
    tip2 = tip1 + pend.l2 * np.stack([np.sin(theta[:, 1]), -np.cos(theta[:, 1])], axis=-1)
    np.testing.assert_allclose(pend.positions(theta), np.stack(
        [np.zeros_like(tip1), tip1, tip2], axis=1), atol=1e-14)  # rounding of sums of 1 m


def test_gravity_is_minus_gradient_of_potential(pend, states):
    # G = -dV/dtheta (independent truth: central differences of the potential energy,
    # error ~ h^2 |V'''| ~ 1e-8). The source's version (l2 in the first entry) fails it.
    theta, _ = states
    h = 1e-5
    V = lambda th: pend.energy(th, np.zeros_like(th))  # noqa: E731
    grad = np.stack([(V(theta + h * e) - V(theta - h * e)) / (2 * h) for e in np.eye(2)],
                    axis=-1)
    np.testing.assert_allclose(pend.gravity_terms(theta), -grad, atol=1e-7)
    source = pend.gravity_terms(theta).copy()
    source[:, 0] = -(pend.m1 * pend.l1 / 2 + pend.m2 * pend.l2) * pend.g * np.sin(theta[:, 0])
    assert np.abs(source + grad).max() > 1.0


def test_energy_drift_dop853_versus_euler(pend):
    # 20 s of the source's case. DOP853 at rtol 1e-11 keeps the energy to ~1e-9 relative
    # (chaotic motion, so the bound is on the energy, not the path): < 1e-8 required.
    # Explicit Euler at the source's step (1e-4 s) is run over 2 s only, to stay fast;
    # its energy grows ~linearly in time, so even this short run must already be off by
    # more than 1e-3, five orders of magnitude above DOP853 over ten times as long.
    res = bmc.simulate.simulate(pend.rhs, (0.0, 20.0), SOURCE_Y0,
                                t_eval=np.linspace(0.0, 20.0, 401), rtol=1e-11, atol=1e-12)
    E = pend.energy(res.y[:, :2], res.y[:, 2:])
    drift_dop = np.abs(E - E[0]).max() / abs(E[0])
    assert drift_dop < 1e-8
    t, y = euler_double_pendulum(pend, SOURCE_Y0, 2.0, dt=1e-4, every=100)
    E_euler = pend.energy(y[:, :2], y[:, 2:])
    drift_euler = np.abs(E_euler - E_euler[0]).max() / abs(E_euler[0])
    assert drift_euler > 1e-3
    assert drift_euler > 1e4 * drift_dop


def test_fast_euler_matches_a_numpy_euler_loop(pend):
    # Same method, two implementations: the closed-form 2x2 solve in floats against
    # explicit Euler written here with np.linalg.solve on M and C + G built term by term
    # (DoublePendulum.accelerations). Rounding only, accumulated over 200 steps.
    dt, n = 1e-4, 200
    t, y = euler_double_pendulum(pend, SOURCE_Y0, n * dt, dt=dt)
    ref = np.empty((n + 1, 4))
    ref[0] = SOURCE_Y0
    for i in range(n):
        th, w = ref[i, :2], ref[i, 2:]
        ref[i + 1] = np.concatenate([th + dt * w, w + dt * pend.accelerations(th, w)])
    np.testing.assert_allclose(t, dt * np.arange(n + 1), atol=1e-15)
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)  # rad, rad/s; values ~ 20


def test_fast_euler_keeps_every_kth_state_of_the_full_run(pend):
    # Steps are taken in blocks of `every` inside one call: the kept states must be exactly
    # the states of the step-by-step run (bit for bit: the same operations in the same order).
    _, full = euler_double_pendulum(pend, SOURCE_Y0, 0.5, dt=1e-3)
    for every in (1, 7, 100):
        _, kept = euler_double_pendulum(pend, SOURCE_Y0, 0.5, dt=1e-3, every=every)
        np.testing.assert_array_equal(kept, full[::every][:len(kept)])


def test_double_pendulum_is_immutable_and_pickles(pend):
    # rhs uses a function built from the parameters once: changing one must be refused.
    import pickle

    with pytest.raises(AttributeError, match="cannot be changed.*'m1'"):
        pend.m1 = 2.0
    copy = pickle.loads(pickle.dumps(DoublePendulum(m1=2.0, l2=0.7)))
    assert (copy.m1, copy.l2) == (2.0, 0.7)
    y = np.array([0.3, -0.2, 1.1, 0.4])
    np.testing.assert_array_equal(copy.rhs(0.0, y), DoublePendulum(m1=2.0, l2=0.7).rhs(0.0, y))


def test_rhs_matches_accelerations(pend, states):
    # The float fast path of rhs and the vectorised accelerations: rounding only.
    theta, omega = states
    Q = np.array([0.3, -1.2])
    for th, w in zip(theta[:5], omega[:5], strict=True):
        dy = pend.rhs(0.0, np.concatenate([th, w]), Q)
        np.testing.assert_allclose(dy[2:], pend.accelerations(th, w, Q), rtol=1e-12)


def test_double_pendulum_errors():
    with pytest.raises(ValueError, match="l2 \\[m\\] must be a finite positive"):
        DoublePendulum(l2=-1.0)
    with pytest.raises(ValueError, match="theta \\[rad\\] must have trailing shape"):
        DoublePendulum().mass_matrix([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="dt \\[s\\]"):
        euler_double_pendulum(DoublePendulum(), SOURCE_Y0, 1.0, dt=0.0)


# ------------------------------------------------------------------- 3D matrix formalism
@pytest.fixture(scope="module")
def stance():
    return stance_example()


def test_assembled_blocks_have_the_source_structure(stance):
    # M is block-diagonal and symmetric; A is block lower-triangular with identity blocks
    # on the diagonal (so det A = 1 and the recursion is forward substitution).
    sys = mf.assemble(**stance.inputs())
    n6 = 12
    assert sys.M.shape == (n6, n6) and sys.A.shape == (stance.t.size, n6, n6)
    np.testing.assert_allclose(sys.M, sys.M.T, atol=0)
    np.testing.assert_allclose(sys.M[:3, :3], stance.mass[0] * np.eye(3), atol=0)
    np.testing.assert_allclose(sys.M[3:6, 3:6], stance.inertia[0], atol=0)
    np.testing.assert_allclose(np.triu(sys.A, k=1)[:, :6, 6:], 0.0, atol=0)
    np.testing.assert_allclose(sys.A[:, 9:, 3:6],
                               -np.swapaxes(stance.R[:, 1], -1, -2) @ stance.R[:, 0],
                               atol=0)
    np.testing.assert_allclose(np.linalg.det(sys.A), 1.0, rtol=1e-12)


def test_knee_load_balances_the_whole_foot_shank_system(stance):
    # Independent truth: Newton-Euler for foot + shank as one system, about the knee, does
    # not involve the ankle at all. Sum of external loads = rate of change of momentum.
    g = 9.80665
    F, M = mf.joint_loads(**stance.inputs(), g=g, frame="global")
    knee = stance.rp[:, 1]
    weight = stance.mass[None, :, None] * np.array([0.0, -g, 0.0])
    force_residual = F[:, 1] + stance.f_ext + weight.sum(axis=1) - np.einsum(
        "s,nsi->ni", stance.mass, stance.acm)
    np.testing.assert_allclose(force_residual, 0.0, atol=1e-10)     # N, loads ~ 700 N
    Iw = np.einsum("sij,nsj->nsi", stance.inertia, stance.omega)
    euler_local = (np.einsum("sij,nsj->nsi", stance.inertia, stance.omegadot)
                   + np.cross(stance.omega, Iw))
    dh = np.einsum("nsij,nsj->nsi", stance.R, euler_local)          # dH_cm/dt, global
    arm = stance.rcm - knee[:, None]
    lhs = (M[:, 1] + stance.free_moment + np.cross(stance.p_ext - knee, stance.f_ext)
           + np.cross(arm, weight).sum(axis=1))
    rhs = (dh + np.cross(arm, stance.mass[None, :, None] * stance.acm)).sum(axis=1)
    np.testing.assert_allclose(lhs, rhs, atol=1e-10)                 # N m, loads ~ 100 N m


def test_single_frame_and_batch_agree(stance):
    # The same numbers whether a frame is solved alone or inside the batch: rounding only.
    F, M = mf.joint_loads(**stance.inputs())
    k = 40
    one = {name: (v if name in ("mass", "inertia") else v[k])
           for name, v in stance.inputs().items()}
    F1, M1 = mf.joint_loads(**one)
    assert F1.shape == (2, 3)
    np.testing.assert_allclose(F1, F[k], rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(M1, M[k], rtol=1e-13, atol=1e-12)


def test_assemble_errors(stance):
    kw = stance.inputs()
    with pytest.raises(ValueError, match="inertia \\[kg m\\^2\\] must have shape \\(2, 3, 3\\)"):
        mf.assemble(**{**kw, "inertia": kw["inertia"][:1]})
    with pytest.raises(ValueError, match="number of frames"):
        mf.assemble(**{**kw, "f_ext": kw["f_ext"][:10]})
    with pytest.raises(ValueError, match="symmetric"):
        bad = kw["inertia"].copy()
        bad[0, 0, 1] = 0.01
        mf.assemble(**{**kw, "inertia": bad})
    with pytest.raises(TypeError, match="MatrixForm"):
        mf.solve(np.eye(6))


def test_joint_loads_takes_a_trial_by_name_only(stance):
    # a trial gives its arrays by name (Stance.inputs); the trial itself in the place of
    # mass is refused (explicit signature, no duck-typed first argument)
    F, M = mf.joint_loads(**stance.inputs(), g=9.81, frame="global")
    assert F.shape == M.shape == stance.rp.shape
    with pytest.raises(TypeError, match="missing 9 required positional arguments"):
        mf.joint_loads(stance)  # type: ignore[call-arg]
