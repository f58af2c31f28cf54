"""Muscle lengths and moment arms (bmc.muscles) against independent truths."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import kinematics, muscles

LENGTHS = [0.316, 0.432]
# biceps long head: trunk (above the shoulder) -> via point in front of the humeral head ->
# forearm; uniarticular brachialis: humerus -> forearm
BICEPS = [(0, (0.01, 0.03)), (1, (0.03, 0.03)), (2, (0.04, 0.015))]
BRACHIALIS = [(1, (0.2, 0.0)), (2, (0.04, 0.015))]


@pytest.fixture(scope="module")
def postures():
    rng = np.random.default_rng(16)
    return np.column_stack([rng.uniform(-2.0, 1.0, 50), rng.uniform(0.2, 2.4, 50)])


@pytest.mark.parametrize("path", [BICEPS, BRACHIALIS])
def test_moment_arms_are_the_derivative_of_the_length(path, postures):
    r = muscles.moment_arms(LENGTHS, postures, path)
    h = 1e-6
    fd = np.stack([(muscles.muscle_length(LENGTHS, postures + h * e, path)
                    - muscles.muscle_length(LENGTHS, postures - h * e, path)) / (2 * h)
                   for e in np.eye(2)], axis=-1)
    # central difference: truncation ~h^2 L''' (1e-12) plus round-off ~1e-16/h (1e-10) m
    np.testing.assert_allclose(r, fd, rtol=0, atol=1e-8)


def test_two_point_moment_arm_is_the_perpendicular_distance(postures):
    """Straight muscle: |r_j| is the distance from joint j to the line of action, and the
    sign is that of the moment of the (shortening) pull about the joint."""
    path = [(0, (0.02, 0.04)), (2, (0.05, 0.01))]
    r = muscles.moment_arms(LENGTHS, postures, path)
    elbow = kinematics.forward_kinematics(LENGTHS, postures, joints=True)[:, 1]
    phi = postures.sum(axis=1)
    a = np.broadcast_to([0.02, 0.04], elbow.shape)
    b = elbow + 0.05 * np.column_stack([np.cos(phi), np.sin(phi)]) \
        + 0.01 * np.column_stack([-np.sin(phi), np.cos(phi)])
    e = (a - b) / np.linalg.norm(a - b, axis=1, keepdims=True)   # pull on the insertion
    for j, joint in enumerate([np.zeros_like(elbow), elbow]):
        moment = kinematics.cross2(b - joint, e)   # torque of a unit tension about joint j
        np.testing.assert_allclose(-r[:, j], moment, rtol=1e-12, atol=1e-15)  # same formula


def test_uniarticular_muscle_has_no_moment_about_the_joint_it_does_not_span(postures):
    r = muscles.moment_arms(LENGTHS, postures, BRACHIALIS)
    # both ends turn with the shoulder: their motions cancel up to round-off (1e-17 m)
    np.testing.assert_allclose(r[:, 0], 0.0, atol=1e-15)
    assert np.all(r[:, 1] < -0.01)   # an elbow flexor, moment arm above 1 cm


def test_biceps_flexes_both_joints_in_a_reach():
    t = np.linspace(0.0, 0.6, 31)
    q, _, _ = kinematics.forward_reach(t, *LENGTHS)
    r = muscles.moment_arms(LENGTHS, q, BICEPS)
    assert np.all(r < 0.0)   # shortens with shoulder and elbow flexion: flexor of both
    # tau = -R^T F: 100 N of tension gives positive (flexor) torques at both joints
    assert np.all(-r * 100.0 > 0.0)


def test_bad_attachments_are_named():
    with pytest.raises(ValueError, match="body must be an integer from 0"):
        muscles.moment_arms(LENGTHS, [0.0, 1.0], [(0, (0.0, 0.0)), (3, (0.1, 0.0))])
    with pytest.raises(ValueError, match="at least two points"):
        muscles.muscle_length(LENGTHS, [0.0, 1.0], [(0, (0.0, 0.0))])
