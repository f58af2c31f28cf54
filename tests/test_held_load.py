"""A held load as a point mass (weight and inertia): PlanarChain.with_point_mass.

Truths used: the closed-form equation of one link with a point mass at its tip, written out
by hand here; notebook 1's Exercise 1 figures (issue 16: 11.05 N m weight only, about
17.4 N m with the load's inertia); and, for two links, the unloaded chain with the load's
weight and inertial force, m_L (g_vec - a_hand), applied as an endpoint force.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmc import anthropometry, kinematics
from bmc.chain import PlanarChain

G = 9.81


def _forearm_hand():
    """Notebook 1's segment: Dempster forearm + hand of a 70 kg, 1.70 m subject."""
    parts = [anthropometry.segment(name, body_mass=70.0, height=1.70)
             for name in ("forearm", "hand")]
    return anthropometry.combine(parts, name="forearm_hand")


def _flexion(n: int = 501):
    """Notebook 1's movement: -90 deg to 0 deg (horizontal) in 0.5 s, minimum jerk."""
    t = np.linspace(0.0, 0.5, n)
    q, qd, qdd = kinematics.minimum_jerk(-np.pi / 2, 0.0, 0.5, t)
    return t, q[:, None], qd[:, None], qdd[:, None]


def test_combined_parameters_by_hand():
    chain = PlanarChain([0.3, 0.4], [0.13, 0.17], [2.0, 1.5], [0.02, 0.024])
    loaded = chain.with_point_mass(1.0)
    m, c, i, d, m_l = 1.5, 0.17, 0.024, 0.4, 1.0
    c_new = (m * c + m_l * d) / (m + m_l)
    np.testing.assert_allclose(loaded.masses, [2.0, 2.5], rtol=0, atol=1e-15)
    np.testing.assert_allclose(loaded.com, [0.13, c_new], rtol=1e-15)
    # inertia about the joint is additive: I' + m' c'^2 = I + m c^2 + m_L d^2 (exact)
    np.testing.assert_allclose(loaded.inertias[1] + 2.5 * c_new**2,
                               i + m * c**2 + m_l * d**2, rtol=1e-14)
    np.testing.assert_array_equal(loaded.inertias[0], 0.02)   # other segment untouched
    np.testing.assert_array_equal(chain.masses, [2.0, 1.5])    # original unchanged


def test_one_link_closed_form_point_mass_at_tip():
    seg = _forearm_hand()
    rod = PlanarChain([seg.length], [seg.com], [seg.mass], [seg.inertia], g=G)
    _, q, qd, qdd = _flexion()
    m_l, length = 2.0, seg.length
    i_o = seg.inertia + seg.mass * seg.com**2
    # tau = (I_O + m_L L^2) alpha'' + (m r + m_L L) g cos(alpha): by hand, no chain code
    expected = (i_o + m_l * length**2) * qdd[:, 0] + (
        seg.mass * seg.com + m_l * length) * G * np.cos(q[:, 0])
    got = rod.with_point_mass(m_l).inverse_dynamics(q, qd, qdd)[:, 0]
    # same formula evaluated two ways: round-off of a few ulp of ~20 N m
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_notebook1_exercise1_figures():
    """2 kg in the hand of a flexing forearm: 11.05 N m as a weight, ~17.4 N m as a mass."""
    seg = _forearm_hand()
    rod = PlanarChain([seg.length], [seg.com], [seg.mass], [seg.inertia], g=G)
    _, q, qd, qdd = _flexion()
    weight_only = rod.inverse_dynamics(q, qd, qdd,
                                       contact_force=np.broadcast_to([0.0, -2.0 * G], (501, 2)))
    as_mass = rod.with_point_mass(2.0).inverse_dynamics(q, qd, qdd)
    # the issue quotes 11.05 and "about 17.4" N m: the printed rounding
    assert round(float(np.abs(weight_only).max()), 2) == 11.05
    assert round(float(np.abs(as_mass).max()), 1) == 17.4
    # the load's inertia matters: more than 50 % above the weight-only peak
    assert np.abs(as_mass).max() > 1.5 * np.abs(weight_only).max()


def test_two_link_equals_endpoint_inertial_force_plus_weight():
    arm = PlanarChain([0.3162, 0.4318], [0.1379, 0.1706], [1.96, 1.54], [0.02032, 0.02436], g=G)
    t = np.linspace(0.01, 0.5, 200)
    p0, pf = np.array([0.2, -0.3]), np.array([0.55, 0.1])
    q, qd, qdd = kinematics.minimum_jerk_reach_2link(p0, pf, 0.5, t, 0.3162, 0.4318)
    _, _, a_hand = kinematics.minimum_jerk(p0, pf, 0.5, t)  # exact hand acceleration
    m_l = 1.0
    F = m_l * (np.array([0.0, -G]) - a_hand)               # weight + inertial force
    truth = arm.inverse_dynamics(q, qd, qdd, contact_force=F)
    got = arm.with_point_mass(m_l).inverse_dynamics(q, qd, qdd)
    # two formulations of the same mechanics; torques ~10 N m, round-off ~1e-13
    np.testing.assert_allclose(got, truth, rtol=1e-10, atol=1e-10)
    # and the inertia is not negligible in a 0.5 s reach (a test that can fail)
    weight_only = arm.inverse_dynamics(q, qd, qdd,
                                       contact_force=np.broadcast_to([0.0, -G], q.shape))
    assert np.abs(got - weight_only).max() > 1.0


def test_load_partway_along_a_segment():
    """A load at distance d on segment 0 acts like an extra mass there: check G by hand."""
    chain = PlanarChain([0.3, 0.4], [0.13, 0.17], [2.0, 1.5], [0.02, 0.024], g=G)
    q = np.array([0.3, 0.8])
    loaded = chain.with_point_mass(0.5, segment=0, distance=0.1)
    extra = loaded.gravity_terms(q) - chain.gravity_terms(q)
    np.testing.assert_allclose(extra, [0.5 * G * 0.1 * np.cos(0.3), 0.0], atol=1e-13)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"mass": 0.0}, "mass"), ({"mass": 1.0, "segment": 2}, "segment"),
     ({"mass": 1.0, "distance": 0.5}, "distance"), ({"mass": 1.0, "segment": 1.0}, "segment")],
)
def test_bad_input(kwargs, match):
    chain = PlanarChain([0.3, 0.4], [0.13, 0.17], [2.0, 1.5], [0.02, 0.024])
    with pytest.raises(ValueError, match=match):
        chain.with_point_mass(**kwargs)
