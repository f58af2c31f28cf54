"""bmc.widgets.one_link and bmc.widgets.two_link: the explorers' non-interactive paths."""

from __future__ import annotations

import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.chain import PlanarChain
from bmc.kinematics import forward_reach
from bmc.models.arm import arm_segments
from bmc.widgets import one_link as pendulum
from bmc.widgets import two_link


def test_pendulum_explorer_lines_follow_the_closed_form():
    values = {"mean_deg": 0.0, "amplitude_deg": 20.0, "frequency": 2.0}
    fig = pendulum.torque_explorer(length=0.5, com_fraction=0.5, mass=2.0,
                                   interactive=False, values=values)
    ax = fig.axes[1]
    inertial, gravity, total = ax.get_lines()
    t = inertial.get_xdata()
    w, amp = 2 * np.pi * 2.0, np.radians(20.0)
    alpha = amp * np.sin(w * t)
    i_o = 2.0 * 0.5**2 / 12 + 2.0 * 0.25**2
    # I_o alpha_dd and m g d cos(alpha) in closed form: rounding only.
    np.testing.assert_allclose(inertial.get_ydata(), -i_o * amp * w**2 * np.sin(w * t),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gravity.get_ydata(), 2.0 * 9.81 * 0.25 * np.cos(alpha),
                               rtol=1e-12)
    np.testing.assert_allclose(total.get_ydata(),
                               inertial.get_ydata() + gravity.get_ydata(), rtol=1e-12)
    first = inertial.get_ydata().copy()
    pose = fig.axes[0].get_lines()[0].get_xydata().copy()
    fig2 = pendulum.torque_explorer(length=0.5, com_fraction=0.5, mass=2.0,
                                    interactive=False, values={**values, "frequency": 1.0})
    # Half the frequency, a quarter of the inertial torque (omega^2 law).
    np.testing.assert_allclose(np.abs(fig2.axes[1].get_lines()[0].get_ydata()).max(),
                               np.abs(first).max() / 4, rtol=1e-3)
    fig3 = pendulum.torque_explorer(length=0.5, com_fraction=0.5, mass=2.0,
                                    interactive=False, values={**values, "mean_deg": 60.0})
    assert not np.allclose(fig3.axes[0].get_lines()[0].get_xydata(), pose)
    assert fig2.axes[1].get_title() != ax.get_title()
    plt.close("all")


def test_reach_explorer_parts_sum_to_chain_inverse_dynamics():
    values = {"duration": 0.5, "g": 9.81, "forearm_mass": 1.54, "forearm_com": 0.17}
    fig = two_link.reach_explorer(interactive=False, values=values)
    upper, lower = arm_segments()
    arm = PlanarChain([upper.length, lower.length], [upper.com, 0.17], [upper.mass, 1.54],
                      [upper.inertia, 1.54 * lower.inertia / lower.mass])
    t = fig.axes[0].get_lines()[0].get_xdata()
    q, qd, qdd = forward_reach(t, upper.length, lower.length, duration=0.5)
    tau = arm.inverse_dynamics(q, qd, qdd)
    for j in range(2):
        lines = fig.axes[j].get_lines()
        # The plotted sum is M qdd + C + G of the same chain: rounding only.
        np.testing.assert_allclose(lines[3].get_ydata(), tau[:, j], rtol=1e-10, atol=1e-10)
    slow_gravity = fig.axes[0].get_lines()[2].get_ydata().copy()
    fig2 = two_link.reach_explorer(interactive=False, values={**values, "g": 0.0})
    # Horizontal plane: no gravitational torque at all.
    np.testing.assert_array_equal(fig2.axes[0].get_lines()[2].get_ydata(), 0.0)
    assert np.abs(slow_gravity).max() > 1.0
    plt.close("all")


def test_explorers_reject_unknown_values():
    with pytest.raises(ValueError, match="unknown control"):
        two_link.reach_explorer(interactive=False, values={"speed": 1.0})
    with pytest.raises(ValueError, match="com_fraction"):
        pendulum.torque_explorer(com_fraction=1.5, interactive=False)
    plt.close("all")


def test_pendulum_explorer_says_when_a_setting_leaves_the_human_range():
    """Issue 29: the explorer let the mean angle reach 180 deg of elbow flexion and 90 deg
    of amplitude at 4 Hz without a word; the line under its figure now names each limit."""
    forearm = {"length": 0.4318, "com_fraction": 0.395, "mass": 1.54}
    ok = pendulum.torque_explorer(**forearm, interactive=False,
                                  values={"mean_deg": -45.0, "amplitude_deg": 30.0,
                                          "frequency": 1.0})
    assert ok.texts[-1].get_text().startswith("Within the range of a healthy adult elbow")
    wild = pendulum.torque_explorer(**forearm, interactive=False,
                                    values={"mean_deg": 90.0, "amplitude_deg": 90.0,
                                            "frequency": 4.0})
    verdict = wild.texts[-1].get_text().replace("\n", " ")
    assert "elbow flexion reaches 270 deg" in verdict       # mean 180 deg + 90 deg
    assert "flexor moment 71 N m" in verdict and "55 N m" in verdict   # 0.78 N m/kg x 70 kg
    plt.close("all")


def test_outside_human_range_names_each_limit():
    assert pendulum.outside_human_range([0.0, 150.0], [54.0, -46.0], speed_deg_s=2300.0) == []
    found = pendulum.outside_human_range([-10.0, 151.0], [55.0, -47.5], speed_deg_s=2301.0)
    assert len(found) == 5, found   # hyperextension, flexion, speed, flexor, extensor
    # strength scales with body mass
    assert pendulum.outside_human_range([90.0], [60.0], body_mass=80.0) == []
    with pytest.raises(ValueError, match="body_mass"):
        pendulum.outside_human_range([90.0], [1.0], body_mass=0.0)
    with pytest.raises(TypeError, match="speed_deg_s"):   # was a bare '>' TypeError
        pendulum.outside_human_range([90.0], [1.0], speed_deg_s="900")
    with pytest.raises(ValueError, match="speed_deg_s"):
        pendulum.outside_human_range([90.0], [1.0], speed_deg_s=float("nan"))


def test_reach_explorer_titles_stay_apart():
    """The suptitle sat on the panel titles (notebook 2, cell 86): their boxes now part."""
    fig = two_link.reach_explorer(interactive=False, values={"duration": 0.6, "g": 9.81,
                                                             "forearm_mass": 1.54,
                                                             "forearm_com": 0.17})
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    top = fig._suptitle.get_window_extent(renderer)
    for ax in fig.axes:
        assert not top.overlaps(ax.title.get_window_extent(renderer)), ax.get_title()
    styles = {line.get_linestyle() for line in fig.axes[0].get_lines()}
    assert len(styles) == 4   # the four parts differ by line style, not colour alone
    plt.close("all")
