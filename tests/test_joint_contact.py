"""Muscle tension and bone-on-bone force at the knee (notebook 5) against hand statics."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import muscles
from bmc import reactions as rx
from bmc.models.human import human_model

ARM = 0.045            # patellar-tendon moment arm [m]


def _squat(model):
    """A static deep squat on the feet, trunk leaning forward (the notebook's posture)."""
    q = np.zeros(model.k)
    q[2] = -0.5                                  # trunk leaning forward
    q[3], q[4], q[5] = np.radians(70.0), np.radians(-40.0), np.pi / 2
    q[6] = q[2] + np.radians(60.0)               # arms forward
    q[7], q[8] = q[6] + 0.3, q[2]
    return q


def _cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def test_knee_extensor_against_a_hand_moment_balance():
    """bmc's tension and contact force equal the statics of the shank and foot, done by hand.

    The hand version never uses the reactions code: the bed force is the body weight acting
    below the whole body's centre of mass (statics of the whole body), and the muscle
    tension balances the moments about the knee of the shank and foot.
    """
    model = human_model()
    q = _squat(model)
    zero = np.zeros(model.k)
    foot = model.segment_index("foot")
    ankle_to_ball = 0.7 * model.lengths[foot]
    idyn = model.contact_inverse_dynamics(q, zero, zero,
                                       contact_point=("foot", ankle_to_ball))
    h = model.applied_forces(q, torques=idyn.torques, contact_force=idyn.contact_force,
                             contact_point=("foot", ankle_to_ball),
                             contact_moment=idyn.contact_moment)
    lam = rx.reactions_augmented(model, q, zero, zero, h, joints=["knee"])
    shank_axis = model.axes(q[2:])[model.segment_index("shank")]
    tension, contact, rest = muscles.contact_force(lam, idyn.torques[1], -ARM, -shank_axis)

    # hand statics: whole body -> bed force and centre of pressure
    coms = np.array([model.point(q, i, model.com[i]) for i in range(model.n)])
    weight = model.masses * model.g
    bed = np.array([0.0, weight.sum()])
    cop = np.array([(model.masses @ coms[:, 0]) / model.total_mass, 0.0])
    knee = model.joint_positions(q)[model.segment_index("shank")]
    below = [model.segment_index("shank"), foot]
    moment = _cross(cop - knee, bed) + sum(_cross(coms[i] - knee, [0.0, -weight[i]])
                                           for i in below)
    # the tendon runs parallel to the shank, ARM in front of the knee: its moment is +ARM F
    hand_tension = -moment / ARM
    force_on_shank = -(bed - [0.0, weight[below].sum()] + hand_tension * (-shank_axis))
    hand_contact = -force_on_shank                   # on the thigh, from the shank
    assert hand_tension > 1000.0                    # an extensor moment: the test has teeth
    # tolerance: two routes through the same statics in double precision
    assert tension == pytest.approx(hand_tension, rel=1e-9)
    np.testing.assert_allclose(contact, hand_contact, rtol=1e-9)
    assert rest == pytest.approx(0.0, abs=1e-9)
    compression, _ = muscles.compression_shear(contact, shank_axis)
    net_compression, _ = muscles.compression_shear(lam, shank_axis)
    assert compression == pytest.approx(net_compression + hand_tension, rel=1e-9)


def test_a_muscle_cannot_push():
    """A flexor moment leaves the extensor slack and the moment unbalanced."""
    tension, contact, rest = muscles.contact_force([[10.0, 300.0]], [-50.0], -0.05, [[0.0, 1.0]])
    assert tension[0] == 0.0
    np.testing.assert_array_equal(contact, [[10.0, 300.0]])
    assert rest[0] == -50.0


def test_compression_and_shear_rotate_with_the_segment():
    force = np.array([30.0, 400.0])
    for angle in np.linspace(-1.0, 1.0, 5):
        axis = np.array([np.sin(angle), -np.cos(angle)])
        c, s = muscles.compression_shear(force, axis)
        assert np.hypot(c, s) == pytest.approx(np.hypot(*force), rel=1e-12)
    assert muscles.compression_shear(force, [0.0, -1.0]) == pytest.approx((400.0, 30.0))


@pytest.mark.parametrize(("arm", "direction", "match"), [
    (0.0, [0.0, 1.0], "moment_arm"),
    (-0.05, [0.0, 2.0], "unit vector"),
])
def test_bad_input_names_the_argument(arm, direction, match):
    with pytest.raises(ValueError, match=match):
        muscles.contact_force([0.0, 1.0], 1.0, arm, direction)
