import numpy as np
import pytest

from bmc import reactions as rx
from bmc.kinematics import cross2
from bmc.models import human
from bmc.models import somersault as so
from bmc.tree import PlanarTree


@pytest.fixture(scope="module")
def model():
    return human.human_model()


@pytest.fixture(scope="module")
def motion():
    return so.somersault()


# ------------------------------------------------------------------------- the model
def test_human_model_mass_and_layout(model):
    # collateral limbs doubled: the seven segments carry the whole body mass (de Leva sums
    # to 100 % within the 0.01 % rounding of the table)
    np.testing.assert_allclose(model.total_mass, 60.0, rtol=2e-4)
    assert (model.n, model.k, model.m) == (7, 9, 12)
    assert model.names == ("trunk", "thigh", "shank", "foot", "upper_arm", "forearm_hand",
                           "head")
    assert model.joint_names == ("hip", "knee", "ankle", "shoulder", "elbow", "neck")


def test_human_model_inertia_is_for_sagittal_plane_rotation(model):
    # trunk C7 - mid-hip, men (de Leva Table 4): 603.3 mm of 1741 mm, 43.46 % of the mass,
    # radius of gyration 30.6 % of the length in the column labelled transverse (about the
    # medio-lateral axis); the sagittal column (32.8 %) would give 15 % more
    length = 603.3 / 1741.0 * 1.70
    np.testing.assert_allclose(model.inertias[0], 0.4346 * 60.0 * (0.306 * length) ** 2,
                               rtol=1e-12)  # the same published numbers: rounding only
    # thighs: both sides, 14.16 % each, radius 32.9 % of 422.2 mm scaled to 1.70 m
    thigh = 422.2 / 1741.0 * 1.70
    np.testing.assert_allclose(model.inertias[1], 2 * 0.1416 * 60.0 * (0.329 * thigh) ** 2,
                               rtol=1e-12)


def test_human_model_scales_with_the_subject(model):
    heavy = human.human_model(body_mass=90.0)
    tall = human.human_model(height=1.87)
    # mass linear in body mass, lengths linear in height, inertia as m L^2: exact ratios
    np.testing.assert_allclose(heavy.masses / model.masses, 1.5, rtol=1e-12)
    np.testing.assert_allclose(tall.lengths / model.lengths, 1.1, rtol=1e-12)
    np.testing.assert_allclose(tall.inertias / model.inertias, 1.1**2, rtol=1e-12)
    female = human.human_model(sex="female")
    np.testing.assert_allclose(female.total_mass, 60.0, rtol=2e-4)  # table rounding
    assert not np.allclose(female.com, model.com)


# ------------------------------------------------------------------ the generator
def test_somersault_is_plausible(motion):
    m = motion.model
    turns = (motion.q[-1, 2] - motion.q[0, 2]) / (2 * np.pi)
    np.testing.assert_allclose(turns, 1.0, atol=0.01)  # tuned to one somersault
    # tuned to land where it touched down (the origin): within 1 cm
    np.testing.assert_allclose(m.point(motion.q[-1], *motion.contact_point)[0], 0.0,
                               atol=0.01)
    assert 0.3 < motion.takeoff < 0.6  # trampoline contact lasts a few tenths of a second
    # peak bed force of trampoline take-offs: about 3-6 body weights
    assert 3.0 < motion.contact_force[:, 1].max() / m.body_weight < 6.0
    np.testing.assert_array_equal(motion.contact_force[~motion.in_contact], 0.0)
    c = motion.in_contact & (motion.contact_force[:, 1] > 1.0)
    cop = motion.contact_moment[c] / motion.contact_force[c, 1] + motion.contact_point[1]
    assert cop.min() > 0.0 and cop.max() < m.lengths[3]  # centre of pressure on the foot


def test_generated_motion_satisfies_the_minimal_form(motion):
    m = motion.model
    idr = m.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                      contact_point=motion.contact_point,
                                      contact_force=motion.contact_force,
                                      contact_moment=motion.contact_moment)
    # the generator's own bed load closes the three whole-body equations (x, y, moment)
    np.testing.assert_allclose(idr.residual[:, :2], 0.0, atol=1e-9 * m.body_weight)
    np.testing.assert_allclose(idr.residual[:, 2], 0.0, atol=1e-9 * m.body_weight)
    Mbar, d, hbar = rx.minimal_form(m, motion.q, motion.qd,
                                    motion.applied_forces(torques=idr.torques))
    res = np.einsum("nij,nj->ni", Mbar, motion.qdd) + d - hbar
    np.testing.assert_allclose(res, 0.0, atol=1e-9 * m.body_weight)


def test_flight_is_ballistic_with_constant_angular_momentum(motion):
    # independent of the generator's equations: in the air only gravity acts, so the
    # centre of mass falls at g and the angular momentum about it is constant
    m = motion.model
    r, v, a = m.kinematics(motion.q, motion.qd, motion.qdd)
    air = ~motion.in_contact
    aG = np.einsum("i,nid->nd", m.masses, a[air]) / m.total_mass
    np.testing.assert_allclose(aG, np.broadcast_to([0.0, -m.g], aG.shape),
                               atol=1e-9 * m.g)  # accelerations from the equations: rounding
    rG = np.einsum("i,nid->nd", m.masses, r[air]) / m.total_mass
    vG = np.einsum("i,nid->nd", m.masses, v[air]) / m.total_mass
    rho, vr = r[air] - rG[:, None], v[air] - vG[:, None]
    H = motion.qd[air, 2:] @ m.inertias + np.einsum(
        "i,ni->n", m.masses, rho[..., 0] * vr[..., 1] - rho[..., 1] * vr[..., 0])
    # integrated with rtol 1e-8 over 1.5 s of flight: constant to 1e-6 of its value
    np.testing.assert_allclose(H, H[0], rtol=1e-6)
    assert H[0] > 0  # a backward somersault turns counter-clockwise (x forward, y up)


def test_motion_applied_forces_uses_its_own_contact_load(motion):
    m = motion.model
    tau = np.zeros((motion.t.size, m.n - 1))
    h = motion.applied_forces(torques=tau)
    ref = m.applied_forces(motion.q, torques=tau, contact_force=motion.contact_force,
                           contact_point=motion.contact_point,
                           contact_moment=motion.contact_moment)
    np.testing.assert_array_equal(h, ref)  # the same call: bit for bit


def test_base_accelerations_are_the_whole_body_rows_of_the_minimal_form(model):
    # Independent truth for the generator's equations: Blajer's minimal form, Mbar qdd +
    # h_b = D^T h, projected on the three whole-body motions (translate in x, in y, turn
    # every segment together), in which the joint torques cancel. The generator solves
    # the same balance with lever kinematics and the angular momentum about G instead.
    rng = np.random.default_rng(2)
    bed = so._Bed(0.17, 3700.0, 10.0, 0.02)
    t = rng.uniform(0.0, 1.5, 5)
    base = rng.normal(size=(5, 6))
    base[:, 1] -= 1.5  # deep in the bed
    contact = np.array([True, True, False, True, False])
    q, qd, qdd, R, moment = so._dynamics(model, bed, t, base, contact)
    assert np.all(R[contact, 1] > 0) and np.all(R[~contact] == 0)
    # h_b holds gravity (Mbar qdd + h_b = Q): Q is the bed's load alone
    h = model.applied_forces(q, contact_force=R, contact_point=("foot", 0.17),
                             contact_moment=moment) - model.applied_forces(q)
    res = (np.einsum("nij,nj->ni", model.mass_matrix(q), qdd) + model.bias_forces(q, qd)
           - np.einsum("nai,na->ni", model.jacobian_q(q), h))
    whole_body = np.column_stack([res[:, 0], res[:, 1], res[:, 2:].sum(axis=1)])
    # two formulations of the same equations: rounding of forces of order 1e4 N
    np.testing.assert_allclose(whole_body, 0.0, atol=1e-9 * model.body_weight)
    # the shape program from its table: the touchdown shape before any step, every step's
    # change added once all have ended, at rest at both ends
    psi, dpsi, ddpsi = so._shape(np.array([0.0, 2.0]))
    end = so._SHAPE_START.copy()
    for joint, _, _, change in so._SHAPE_STEPS:
        end[joint] += change
    np.testing.assert_allclose(psi, [so._SHAPE_START, end], atol=1e-15)  # sums of 4 numbers
    np.testing.assert_array_equal(dpsi, 0.0)
    np.testing.assert_array_equal(np.abs(ddpsi), 0.0)


# ------------------------------------------------------------------ bad input
def test_bad_inputs():
    with pytest.raises(ValueError, match="freq \\[Hz\\] must be a finite positive"):
        so.somersault(freq=0.0)
    pend = PlanarTree(["a", "b"], [-1, 0], [0, 1], [-1, -1], [1, 1], [0.5, 0.5], [1, 1],
                         [1, 1])
    with pytest.raises(ValueError, match="somersault needs the human_model\\(\\) layout"):
        so.somersault(pend)
    with pytest.raises(ValueError, match="sex='female' or sex='male'"):
        human.human_model(sex="other")
    with pytest.raises(ValueError, match="body_mass \\[kg\\] must be a finite positive"):
        human.human_model(body_mass=0.0)


# ------------------------------------------------ joint moments of the take-off, by hand
def _leg_by_hand(motion):
    """Hip, knee and ankle moments on thigh, shank, foot (N, 3) [N m], written out.

    Newton-Euler for the foot, shank + foot and thigh + shank + foot about their proximal
    joints, with points and accelerations from the angles directly (no bmc.tree kinematics,
    no bmc.reactions): moment of the joint = rate of angular momentum - bed load - gravity.
    """
    m = motion.model
    q, qd, qdd = motion.q, motion.qd, motion.qdd
    th, sh, ft = 1, 2, 3
    l2, l3 = m.attach[sh], m.attach[ft]
    phi, w, al = q[:, 2:], qd[:, 2:], qdd[:, 2:]

    def e(i):  # limb axis, hanging down at zero angle, and its two time derivatives
        s, c = np.sin(phi[:, i]), np.cos(phi[:, i])
        u, n = np.stack([s, -c], -1), np.stack([c, s], -1)
        return u, w[:, i, None] * n, al[:, i, None] * n - w[:, i, None] ** 2 * u

    (e2, _, a2), (e3, _, a3), (e4, _, a4) = e(th), e(sh), e(ft)
    hip, a_hip = q[:, :2], qdd[:, :2]
    knee, a_knee = hip + l2 * e2, a_hip + l2 * a2
    ankle, a_ankle = knee + l3 * e3, a_knee + l3 * a3
    com = {th: (hip + m.com[th] * e2, a_hip + m.com[th] * a2),
           sh: (knee + m.com[sh] * e3, a_knee + m.com[sh] * a3),
           ft: (ankle + m.com[ft] * e4, a_ankle + m.com[ft] * a4)}
    P = ankle + motion.contact_point[1] * e4
    R, Mfree = motion.contact_force, motion.contact_moment
    gvec = np.array([0.0, -m.g])

    def moment(joint, segs):
        out = -cross2(P - joint, R) - Mfree
        for i in segs:
            r, a = com[i]
            out = out + m.inertias[i] * al[:, i] + m.masses[i] * cross2(r - joint, a - gvec)
        return out

    return np.stack([moment(hip, (th, sh, ft)), moment(knee, (sh, ft)),
                     moment(ankle, (ft,))], -1), (hip, knee, ankle, P)


def test_athlete_faces_forward_and_the_sign_of_the_knee_moment(motion):
    # toes point along +x, the knee is flexed (thigh angle > shank angle) and ahead of the
    # ankle: the athlete faces +x. A counter-clockwise (positive) moment on the shank turns
    # it toward the thigh and reduces the knee flexion phi_thigh - phi_shank: positive =
    # knee extensor. Likewise positive on the thigh = hip flexor, on the foot = dorsiflexor.
    c = motion.in_contact
    _, (hip, knee, ankle, P) = _leg_by_hand(motion)
    assert np.all(P[c, 0] > ankle[c, 0])  # contact point (toward the toes) ahead
    q0 = motion.q[0]
    assert q0[3] - q0[4] > 1.0  # knee flexed about 69 deg at touchdown
    assert knee[0, 0] > ankle[0, 0] and knee[0, 0] > hip[0, 0]


def test_leg_moments_agree_with_a_hand_calculation(motion):
    m = motion.model
    by_hand, _ = _leg_by_hand(motion)
    idr = m.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                      contact_point=motion.contact_point,
                                      contact_force=motion.contact_force,
                                      contact_moment=motion.contact_moment)
    # two derivations of the same Newton-Euler equations: rounding only
    np.testing.assert_allclose(idr.torques[:, :3], by_hand, atol=1e-9 * m.body_weight)


def test_take_off_moments_are_those_of_a_jump(motion):
    # A two-legged push-off is done by the extensors: knee and hip extensor, ankle
    # plantarflexor moments (knee and hip about 2-4 N m/kg per leg in countermovement and
    # drop jumps, ankle about 2-3). The model lumps both legs: per leg is half.
    m = motion.model
    by_hand, _ = _leg_by_hand(motion)
    per_leg = by_hand[motion.in_contact] / (2 * m.total_mass)  # [N m/kg]
    hip, knee, ankle = per_leg.T
    peak = np.argmax(motion.contact_force[motion.in_contact, 1])
    assert hip[peak] < 0 and knee[peak] > 0 and ankle[peak] < 0  # at the peak bed force
    assert 2.0 < knee.max() < 4.0 and 2.0 < -hip.min() < 4.0  # extensor peaks
    assert 2.0 < -ankle.min() < 4.0  # plantarflexor peak (3.6: a stiff, high bounce)
    # the opposite sense stays small (below 1.5 N m/kg): late, with the legs almost
    # straight and the centre of pressure moving toward the toes
    assert -knee.min() < 1.5 and hip.max() < 1.5 and ankle.max() < 1.5
    loaded = motion.contact_force[motion.in_contact, 1] > 0.9 * motion.contact_force[:, 1].max()
    assert np.all(knee[loaded] > 1.0)  # extensor throughout the high-force phase


def test_joint_moment_signs_in_a_static_squat(model):
    # the anatomical meaning of the signs, for the athlete facing +x: in a squat on the
    # balls of the feet the knees are ahead of the centre of pressure and the hips behind
    # it, which takes knee and hip extensors and ankle plantarflexors (as anyone who has
    # held a squat feels), i.e. knee > 0, hip < 0, ankle < 0 on the distal segments
    squat = np.zeros(model.k)
    squat[2:] = [-0.5, np.radians(70), np.radians(-40), np.pi / 2, -0.5, -0.5, -0.5]
    zero = np.zeros(model.k)
    contact = ("foot", human.CONTACT_FRACTION * model.lengths[3])
    idr = model.contact_inverse_dynamics(squat, zero, zero, contact_point=contact)
    hip, knee, ankle = idr.torques[:3]
    assert knee > 50.0 and hip < -20.0 and ankle < -20.0
    # knee ahead of hip and ankle: the athlete faces +x, the knee flexion is phi_2 - phi_3,
    # and a counter-clockwise (positive) moment on the shank reduces it: extensor
    J = model.joint_positions(squat)
    assert J[2, 0] > J[0, 0] and J[2, 0] > J[3, 0]
