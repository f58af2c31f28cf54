"""Figures that describe themselves: the generated text alternative against the data.

``Drawing.describe`` writes a drawing's text alternative from the record of what it drew,
and ``bmc.plotting.describe_figure`` a data figure's from its lines. Each test compares the
text with numbers computed independently of the drawing: the chain's inverse dynamics in
matrix form (the drawing uses the segment-by-segment recursion), static equilibrium by hand,
forward kinematics, the data given to the plot. Then it changes the figure and checks that
the text changed with it.
"""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest

import bmc
from bmc import drawing, kinematics
from bmc.plotting import describe_figure

G = 9.81


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def arm() -> bmc.PlanarChain:
    return bmc.PlanarChain([0.3162, 0.4318], [0.1379, 0.1706], [1.96, 1.54], [0.02032, 0.02436],
                           g=G)


def _three(value: float) -> str:
    """The course's rounding of a load in a figure: 3 significant digits, integers above 100."""
    return f"{abs(value):.0f}" if abs(value) >= 100 else f"{abs(value):.3g}"


def _sense(value: float) -> str:
    return "counter-clockwise" if value > 0 else "clockwise"


def test_free_body_diagram_lists_its_loads_with_magnitudes_directions_and_senses(arm):
    q, F = np.array([-1.2, 1.5]), np.array([0.0, -20.0])     # held still, 2 kg in the hand
    # M qdd + C + G + E form
    tau = arm.inverse_dynamics(q, [0.0, 0.0], [0.0, 0.0], contact_force=F)
    text = drawing.free_body_diagram(arm, q, segment=0, contact_force=F).describe()
    # the shoulder carries the whole arm and the load: straight up, by hand
    shoulder = (1.96 + 1.54) * G + 20.0
    assert f"force F_1 {_three(shoulder)} N pointing straight up" in text
    assert f"weight m_1 g {_three(1.96 * G)} N straight down at the centre of mass" in text
    assert (f"moment tau_1 {_three(tau[0])} N m {_sense(tau[0])} at the proximal joint"
            in text)
    # the elbow's reaction on the upper arm: opposite sense to tau_2 on the forearm
    assert (f"moment tau_2 (reaction of the neighbouring segment) {_three(tau[1])} N m "
            f"{_sense(-tau[1])} at the distal end" in text)
    assert (f"force F_2 (reaction of the neighbouring segment) {_three(1.54 * G + 20.0)} N "
            "pointing straight down" in text)
    forearm = drawing.free_body_diagram(arm, q, segment=1, contact_force=F).describe()
    assert f"moment tau_2 {_three(tau[1])} N m {_sense(tau[1])} at the proximal joint" in forearm
    assert "force F_e 20 N pointing straight down (-90 degrees from the +x axis) at the distal" \
        in forearm
    elbow = arm.joint_positions(q)[1]
    assert f"to the distal end at ({elbow[0]:.3g}, {elbow[1]:.3g}) m" in text


def test_the_description_changes_with_the_figure(arm):
    q = np.array([0.3, 0.9])
    light = drawing.free_body_diagram(arm, q, segment=1, contact_force=[0.0, -10.0]).describe()
    heavy = drawing.free_body_diagram(arm, q, segment=1, contact_force=[0.0, -40.0]).describe()
    pushed = drawing.free_body_diagram(arm, q, segment=1, contact_force=[30.0, 0.0]).describe()
    for text, load in ((light, 10.0), (heavy, 40.0)):
        assert f"force F_2 {_three(1.54 * G + load)} N pointing straight up" in text
    assert "force F_e 30 N pointing straight forward (0 degrees" in pushed
    tau = arm.inverse_dynamics(q, [0, 0], [0, 0], contact_force=[30.0, 0.0])[1]
    assert f"moment tau_2 {_three(tau)} N m {_sense(tau)}" in pushed


def test_a_moving_segment_is_described_by_its_newton_euler_loads(arm, rng):
    q, qd, qdd = rng.normal(size=2), rng.normal(size=2) * 3, rng.normal(size=2) * 20
    tau = arm.inverse_dynamics(q, qd, qdd)
    d = drawing.free_body_diagram(arm, q, segment=1, qd=qd, qdd=qdd)
    assert f"moment tau_2 {_three(tau[1])} N m {_sense(tau[1])}" in d.describe()
    force = {a.label: a for a in d.arrows}[r"\mathbf{F}_{2}"].vector
    angle = np.degrees(np.arctan2(force[1], force[0]))
    assert f"force F_2 {_three(np.hypot(*force))} N pointing" in d.describe()
    assert f"({angle:.0f} degrees from the +x axis) at the proximal joint" in d.describe()


def test_a_symbolic_diagram_gives_directions_without_magnitudes(arm):
    text = drawing.free_body_diagram(arm, [0.3, 0.9], segment=1, symbolic=True).describe()
    assert " N " not in text and "N m" not in text
    tau = arm.inverse_dynamics([0.3, 0.9], [0, 0], [0, 0])[1]
    assert f"moment tau_2 drawn {_sense(tau)} at the proximal joint" in text
    # the unknown endpoint force, zero here, is drawn with positive components: so said
    assert "force F_e drawn pointing up and forward (45 degrees" in text


def test_lower_limb_descriptions_name_the_segment_and_the_ground_reaction():
    from bmc import newton_euler

    run = bmc.datasets.load_running()
    res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments)
    f = int(np.nonzero(run.grf[:, 1] > 0)[0][150])
    thigh, shank, foot = (d.describe() for d in
                          drawing.lower_limb_diagrams(res, run.grf, f, run.segments.mass))
    assert thigh.startswith("Free-body diagram of thigh") and "of shank" in shank
    grf = run.grf[f, :2]
    assert (f"force F_GRF {_three(np.hypot(*grf))} N pointing up and "
            f"{'backward' if grf[0] < 0 else 'forward'}" in foot)
    assert f"at ({run.grf[f, 2]:.3g}, 0) m" in foot     # the centre of pressure
    knee = res.moments[f, 1]
    assert f"moment tau_2 {_three(knee)} N m {_sense(knee)} at the proximal joint" in shank
    assert (f"moment tau_2 (reaction of the neighbouring segment) {_three(knee)} N m "
            f"{_sense(-knee)} at the distal end" in thigh)


def test_model_sketch_lists_segments_and_what_each_angle_measures(arm):
    q = np.array([-0.4, 1.2])
    text = drawing.model_sketch(arm, q, symbol=r"\alpha").describe()
    elbow, tip = kinematics.forward_kinematics(arm.lengths, q, joints=True)[1:]
    assert text.startswith("Sketch of a chain of 2 segment(s)")
    assert f"segment 1 from (0, 0) m to ({elbow[0]:.3g}, {elbow[1]:.3g}) m (0.316 m long)" in text
    assert f"to ({tip[0]:.3g}, {tip[1]:.3g}) m (0.432 m long)" in text
    assert "alpha_1 = -23 degrees (segment 1 from the forward horizontal (+x)" in text
    assert "alpha_2 = 69 degrees (segment 2 relative to segment 1" in text
    assert "Gravity g points straight down" in text
    q2 = np.array([0.5, 0.2])
    moved = drawing.model_sketch(arm, q2, angles="segment").describe()
    assert f"phi_2 = {np.degrees(q2.sum()):.0f} degrees (segment 2 from the forward" in moved


def test_tree_sketch_gives_each_angle_its_reference():
    from bmc.models.human import human_model

    model = human_model()
    pose = np.array([0.0, 1.0, -0.15, 0.45, -0.2, np.pi / 2 + 0.15, 1.3, 2.0, 0.2])
    n = model.n
    ends = np.vstack([model.joint_positions(pose), model.distal_positions(pose)])
    refs = np.where(model.direction > 0, np.pi / 2, -np.pi / 2)
    text = drawing.model_sketch(ends, segments=[(i, n + i) for i in range(n)],
                                angles="segment", reference=refs, symbol=r"\varphi").describe()
    assert "of 7 segment(s)" in text
    for i in range(7):
        where = "upward" if model.direction[i] > 0 else "downward"
        assert (f"phi_{i + 1} = {np.degrees(pose[2 + i]):.0f} degrees (segment {i + 1} from "
                f"the {where} vertical" in text)


def test_strobe_says_what_moves_over_what_time_and_the_path_extent():
    t = np.linspace(0.0, 0.6, 61)
    q, _, _ = kinematics.forward_reach(t, 0.3162, 0.4318)
    poses = kinematics.forward_kinematics([0.3162, 0.4318], q, joints=True)
    text = drawing.strobe(poses, times=t, every=5, path=-1, path_label="fingertip").describe()
    assert text.startswith("Strobe of a movement from t = 0 s to 0.6 s: 13 postures")
    assert "every 5th of 61 frames" in text
    tip = poses[:, -1]
    assert (f"The fingertip (dashed) starts at ({tip[0, 0]:.3g}, {tip[0, 1]:.3g}) m and ends "
            f"at ({tip[-1, 0]:.3g}, {tip[-1, 1]:.3g}) m" in text)
    assert (f"spans x from {tip[:, 0].min():.3g} to {tip[:, 0].max():.3g} m and y from "
            f"{tip[:, 1].min():.3g} to {tip[:, 1].max():.3g} m" in text)


def test_strobe_with_forces_gives_the_peak_and_the_scale():
    t = np.linspace(0.0, 0.2, 21)
    poses = np.zeros((21, 2, 2))
    poses[:, 1] = [0.0, 0.5]
    poses[:, :, 0] += np.linspace(0.0, 0.4, 21)[:, None]
    force = np.column_stack([np.linspace(-100, 100, 21), 1500 * np.sin(np.pi * t / 0.2)])
    cop = np.column_stack([poses[:, 0, 0], np.zeros(21)])
    d = drawing.strobe(poses, times=t, forces=force, force_points=cop, force_label="GRF")
    text = d.describe()
    k = int(np.argmax(np.hypot(*force.T)))
    assert f"largest {np.hypot(*force[k]):.0f} N at t = {t[k]:.3g} s" in text
    assert "the scale arrow is 500 N" in text            # 1, 2 or 5 x 10^k below half the peak
    assert "The ground is the line y = 0 m." in text     # the forces act at one height
    scale = [x for x in d.ax.texts if x.get_text() == "500 N"]
    assert len(scale) == 1


def test_describe_figure_gives_axes_units_and_each_lines_extremes():
    t = np.linspace(0.0, 1.0, 101)
    fig, (a, b) = plt.subplots(1, 2)
    a.plot(t, 10 * np.sin(2 * np.pi * t), label="elbow")
    a.plot(t, -5 * t, "--", label="shoulder")
    a.axhline(2.5, color="0.5", label="limit")
    a.set(xlabel="time [s]", ylabel="joint moment [N m]", title="torques")
    b.semilogy(t, np.exp(t), marker="o")
    b.set(xlabel="time [s]", ylabel=r"$|E - E_0|$ [J]")
    fig.suptitle("Arm")
    text = describe_figure(fig)
    assert text.startswith("Figure 'Arm'. Panel 1 ('torques'): x axis: time [s]")
    assert ("'elbow' (solid line): from a minimum of -10 N m at time = 0.75 s to a maximum of "
            "10 N m at time = 0.25 s." in text)
    assert ("'shoulder' (dashed line): from a minimum of -5 N m at time = 1 s to a maximum of "
            "0 N m at time = 0 s." in text)
    assert "Horizontal reference line (limit) at 2.5 N m." in text
    assert "y axis: |E - E_0| [J], logarithmic" in text
    assert f"maximum of {np.e:.3g} J at time = 1 s" in text
    b.lines[0].set_ydata(np.exp(2 * t))   # the figure changes, and so does its description
    assert f"maximum of {np.e ** 2:.3g} J at time = 1 s" in describe_figure(fig)


def test_describe_figure_names_a_colour_bar_and_refuses_a_non_figure():
    t = np.linspace(0.0, 0.6, 31)
    q, _, _ = kinematics.forward_reach(t, 0.3162, 0.4318)
    poses = kinematics.forward_kinematics([0.3162, 0.4318], q, joints=True)
    d = drawing.strobe(poses, times=t)
    assert re.search(r"Colour bar: time from 0 s to 0\.6 s\.", describe_figure(d.ax.figure))
    with pytest.raises(TypeError, match="figure must be a Matplotlib Figure"):
        describe_figure(d)
