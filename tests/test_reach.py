"""The course's realistic reach (bmc.kinematics.FORWARD_REACH) against published human values.

Sources of the limits (numbers in degrees, deg/s and N m):

- Joint ranges of motion, goniometry of healthy adults, as tabulated by Norkin CC, White DJ
  (2016), *Measurement of Joint Motion: A Guide to Goniometry*, 5th ed., F.A. Davis,
  Table A.1: shoulder flexion 180 (AAOS), 167 (Boone & Azen 1979, mean of 109 males),
  shoulder extension 60 (AAOS), 62 (Boone & Azen), >= 50 (AMA guide's normal minimum);
  elbow flexion 150 (AAOS), 143 (Boone & Azen), >= 140 (AMA); elbow extension 0 (AAOS).
  Boone DC, Azen SP (1979), Normal range of motion of joints in male subjects, J Bone Joint
  Surg Am 61(5), 756-759. The test uses the AMA minima (50 deg extension, 140 deg elbow
  flexion): a posture inside them is one every adult with normal joints can take.
- Peak joint speed: the fastest joint motions measured come from baseball pitching, elbow
  extension at about 2300-2400 deg/s and shoulder internal rotation at about 7000 deg/s
  (Fleisig GS et al. 1995, Kinetics of baseball pitching with implications about injury
  mechanisms, Am J Sports Med 23(2), 233-239). A reach is far from that: the bound here,
  600 deg/s ("a few hundred deg/s"), is the course's judgement for a fast but ordinary
  reach, not a published limit.
- Strength: holding the straight arm horizontal in front of the body takes 10-21 % of the
  maximal shoulder flexion strength of healthy adults (Mathiassen SE, Ahsberg E 1999,
  Prediction of shoulder flexion endurance from personal factors, Int J Ind Ergon 24(3),
  315-329): for this arm, whose straight-arm hold needs 10.0 N m, a maximal flexion moment
  of at least 10.0 / 0.21 = 48 N m. Elbow flexion, concentric isokinetic peak torque of 199
  young men: 0.78 N m per kg of body mass (Lategan L, Kruger PE 2003, Normative isokinetic
  peak torque values for elbow flexion and extension in young South African men, Afr J Phys
  Health Educ Recreat Dance, special edition, 165-172), 55 N m at 70 kg. The test asks for
  peaks below half of these (24 and 27 N m), inside an average woman's strength.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmc import anthropometry, kinematics
from bmc.chain import PlanarChain

# AMA normal minima (Norkin & White 2016, Table A.1), deg
SHOULDER_EXTENSION_MAX = 50.0
SHOULDER_FLEXION_MAX = 167.0   # Boone & Azen mean; AAOS 180
ELBOW_FLEXION_MAX = 140.0
ELBOW_EXTENSION_MAX = 0.0      # no hyperextension
PEAK_JOINT_SPEED_MAX = 600.0   # deg/s, course's bound for a reach (pitching: ~2300)
STRAIGHT_ARM_HOLD = 10.01      # N m, this arm's shoulder moment held straight out (asserted below)
SHOULDER_TORQUE_MAX = STRAIGHT_ARM_HOLD / 0.21 / 2  # N m, half the least maximal strength
ELBOW_TORQUE_MAX = 0.78 * 70.0 / 2  # N m, half the men's concentric flexion strength


@pytest.fixture(scope="module")
def arm() -> PlanarChain:
    """Notebook 2's arm: Dempster upper arm and forearm+hand, 70 kg, 1.70 m."""
    upper = anthropometry.segment("upper_arm", body_mass=70.0, height=1.70)
    fh = anthropometry.combine([anthropometry.segment(s, body_mass=70.0, height=1.70)
                                for s in ("forearm", "hand")], name="forearm_hand")
    return PlanarChain([upper.length, fh.length], [upper.com, fh.com], [upper.mass, fh.mass],
                       [upper.inertia, fh.inertia], g=9.81)


def _anatomical(q):
    """Shoulder flexion (0 = arm hanging, + forward) and elbow flexion, deg."""
    return np.degrees(q[:, 0]) + 90.0, np.degrees(q[:, 1])


def _within_human_limits(arm, q, qd, qdd):
    shoulder, elbow = _anatomical(q)
    tau = arm.inverse_dynamics(q, qd, qdd)
    return {
        "shoulder range": -SHOULDER_EXTENSION_MAX <= shoulder.min()
        and shoulder.max() <= SHOULDER_FLEXION_MAX,
        "elbow range": ELBOW_EXTENSION_MAX <= elbow.min() and elbow.max() <= ELBOW_FLEXION_MAX,
        "joint speed": np.degrees(np.abs(qd)).max() <= PEAK_JOINT_SPEED_MAX,
        "shoulder torque": np.abs(tau[:, 0]).max() <= SHOULDER_TORQUE_MAX,
        "elbow torque": np.abs(tau[:, 1]).max() <= ELBOW_TORQUE_MAX,
    }


def _reach(arm, n=601):
    t = np.linspace(0.0, kinematics.FORWARD_REACH["duration"], n)
    return (t, *kinematics.forward_reach(t, *arm.lengths))


def test_straight_arm_hold(arm):
    # the moment behind the strength bound: the arm held straight out, forward
    assert round(float(arm.gravity_terms([0.0, 0.0])[0]), 2) == STRAIGHT_ARM_HOLD


def test_reach_is_within_every_cited_limit(arm):
    _, q, qd, qdd = _reach(arm)
    assert _within_human_limits(arm, q, qd, qdd) == dict.fromkeys(
        ["shoulder range", "elbow range", "joint speed", "shoulder torque", "elbow torque"],
        True)


def test_reach_postures(arm):
    _, q, _, _ = _reach(arm)
    shoulder, elbow = _anatomical(q)
    # start: hand on a table, elbow at the side (shoulder slightly extended, elbow flexed);
    # end: target at shoulder height, arm forward. To 0.05 deg (the printed values).
    np.testing.assert_allclose([shoulder[0], elbow[0]], [-24.8, 113.2], atol=0.05)
    np.testing.assert_allclose([shoulder[-1], elbow[-1]], [55.0, 59.9], atol=0.05)
    # the movement is a reach: shoulder flexes and elbow extends monotonically
    assert np.all(np.diff(shoulder) >= -1e-9) and np.all(np.diff(elbow) <= 1e-9)


def test_reach_hand_path_is_a_fast_ordinary_reach(arm):
    t, q, qd, _ = _reach(arm)
    duration = kinematics.FORWARD_REACH["duration"]
    assert 0.5 <= duration <= 1.0
    v = np.einsum("fij,fj->fi", arm.jacobian(q), qd)
    peak = np.linalg.norm(v, axis=1).max()
    # fast reaches peak at about 1-2 m/s; minimum jerk: 1.875 x distance / duration
    assert 1.0 <= peak <= 2.0
    distance = np.linalg.norm(arm.endpoint(q[-1]) - arm.endpoint(q[0]))
    np.testing.assert_allclose(peak, 1.875 * distance / duration, rtol=1e-4)  # sampling
    # the fingertip starts in front of the trunk and ends at shoulder height
    assert arm.endpoint(q[0])[0] > 0.2 and abs(arm.endpoint(q[-1])[1]) < 1e-12


def test_reach_figures(arm):
    """The numbers the notebook quotes (deg/s and N m), with and without a 1 kg ball."""
    _, q, qd, qdd = _reach(arm)
    speeds = np.degrees(np.abs(qd)).max(axis=0)
    np.testing.assert_allclose(speeds, [249.8, 197.2], atol=0.1)  # printed to 0.1
    tau = np.abs(arm.inverse_dynamics(q, qd, qdd)).max(axis=0)
    np.testing.assert_allclose(tau, [8.42, 3.13], atol=0.01)  # printed to 0.01
    loaded = np.abs(arm.with_point_mass(1.0).inverse_dynamics(q, qd, qdd)).max(axis=0)
    np.testing.assert_allclose(loaded, [14.81, 9.35], atol=0.01)
    assert loaded[0] <= SHOULDER_TORQUE_MAX and loaded[1] <= ELBOW_TORQUE_MAX


def test_source_reach_fails_the_same_checks(arm):
    """The source's reach (arm hanging -> upper arm forward, elbow 90 deg, on a straight
    line, 0.5 s) breaks the range, speed and strength limits: the checks can fail."""
    l1, l2 = arm.lengths
    t = np.linspace(0.005, 0.5, 991)
    q, qd, qdd = kinematics.minimum_jerk_reach_2link([0.0, -(l1 + l2)], [l1, l2], 0.5, t, l1, l2)
    verdict = _within_human_limits(arm, q, qd, qdd)
    assert not verdict["shoulder range"] and not verdict["elbow range"]
    assert not verdict["joint speed"]
    shoulder, elbow = _anatomical(q)
    assert shoulder.min() < -60 and elbow.max() > 150


def test_duration_option_scales_speeds(arm):
    t = np.linspace(0.0, 1.2, 301)
    _, qd, _ = kinematics.forward_reach(t, *arm.lengths, duration=1.2)
    _, q0, qd0, _ = _reach(arm, n=301)
    np.testing.assert_allclose(qd, qd0 / 2, rtol=1e-9, atol=1e-9)  # same path, half speed
