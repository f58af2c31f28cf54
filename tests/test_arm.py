"""bmc.models.arm: the arm of notebooks 1 and 2 from Dempster's table."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import anthropometry as am
from bmc.chain import PlanarChain
from bmc.models import arm


def test_forearm_hand_joins_the_two_tabulated_segments_end_to_end():
    fh = arm.forearm_hand()
    forearm, hand = (am.segment(s, **arm.SUBJECT) for s in ("forearm", "hand"))
    # independent sums: lengths end to end, masses, and the centre of mass by moments
    np.testing.assert_allclose(fh.length, forearm.length + hand.length, rtol=1e-12)
    np.testing.assert_allclose(fh.mass, forearm.mass + hand.mass, rtol=1e-12)
    com = (forearm.mass * forearm.com + hand.mass * (forearm.length + hand.com)) / fh.mass
    np.testing.assert_allclose(fh.com, com, rtol=1e-12)
    # parallel-axis theorem about the joint centre of mass
    inertia = (forearm.inertia + forearm.mass * (forearm.com - com) ** 2 + hand.inertia
               + hand.mass * (forearm.length + hand.com - com) ** 2)
    np.testing.assert_allclose(fh.inertia, inertia, rtol=1e-12)
    # a 70 kg, 1.70 m person (Winter's Table 4.1 via 0.146 H + 0.108 H): 0.432 m, 1.54 kg,
    # the centre of mass in the forearm, well before the wrist
    assert round(fh.length, 3) == 0.432 and round(fh.mass, 2) == 1.54
    assert fh.com < forearm.length


def test_arm_segments_build_the_two_link_chain_and_scale_with_the_subject():
    upper, lower = arm.arm_segments()
    chain = PlanarChain.from_segments([upper, lower])
    np.testing.assert_allclose(chain.lengths, [upper.length, lower.length], rtol=0)
    heavy = arm.arm_segments(body_mass=84.0)
    np.testing.assert_allclose(heavy[1].mass / lower.mass, 1.2, rtol=1e-12)  # linear in mass
    tall = arm.arm_segments(height=1.87)
    np.testing.assert_allclose(tall[0].length / upper.length, 1.1, rtol=1e-12)


def test_bad_subject_is_refused_by_name():
    with pytest.raises(ValueError, match="height"):
        arm.forearm_hand(height=170.0)  # cm
    with pytest.raises(TypeError, match="body_mass"):
        arm.arm_segments(body_mass="70")
