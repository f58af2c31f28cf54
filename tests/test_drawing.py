"""Tests of bmc.drawing: each picture draws the forces, moments and points of its model.

Truths used: the chain's own inverse dynamics (the matrix form M qdd + C + G + E) for the
joint moments that the free-body diagram gets from segment-by-segment Newton-Euler; the
static equilibrium of the whole chain by hand; Newton's third law between neighbouring
diagrams; forward kinematics for the centres of mass and postures.
"""

from __future__ import annotations

import matplotlib.pyplot as plt  # the Agg backend: tests/conftest.py sets MPLBACKEND
import numpy as np
import pytest

from bmc import drawing, kinematics
from bmc.chain import PlanarChain

G = 9.81


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def arm() -> PlanarChain:
    return PlanarChain([0.3162, 0.4318], [0.1379, 0.1706], [1.96, 1.54], [0.02032, 0.02436], g=G)


def _assert_same_direction(delta, vector):
    delta, vector = np.asarray(delta), np.asarray(vector)
    # parallel (2D cross product ~ 0 relative to the lengths) and pointing the same way
    cross = delta[0] * vector[1] - delta[1] * vector[0]
    assert abs(cross) <= 1e-9 * np.hypot(*delta) * np.hypot(*vector)
    assert delta @ vector > 0


def _arrow_artists(ax):
    return [t for t in ax.texts if getattr(t, "arrow_patch", None) is not None]


def _texts(ax):
    return [t.get_text() for t in ax.texts if t.get_text()]


# ----------------------------------------------------------------------- free-body diagram
def test_fbd_moments_equal_chain_inverse_dynamics(arm, rng):
    q, qd, qdd = rng.normal(size=2), rng.normal(size=2) * 3.0, rng.normal(size=2) * 20.0
    F = np.array([5.0, -12.0])
    tau = arm.inverse_dynamics(q, qd, qdd, contact_force=F)
    for k in range(2):
        d = drawing.free_body_diagram(arm, q, segment=k, qd=qd, qdd=qdd, contact_force=F)
        proximal = d.moments[0]
        # Newton-Euler recursion vs the M, C, G, E form: round-off of ~10 N m values
        np.testing.assert_allclose(proximal.value, tau[k], rtol=1e-10, atol=1e-10)
        assert proximal.sense == (1 if tau[k] >= 0 else -1)
        np.testing.assert_allclose(proximal.centre, arm.joint_positions(q)[k], atol=1e-15)


def test_fbd_static_forces_by_hand(arm):
    q = np.array([-1.2, 1.5])
    F = np.array([0.0, -20.0])                      # a 2 kg load's weight on the hand
    d = drawing.free_body_diagram(arm, q, segment=0, contact_force=F)
    by_label = {a.label: a for a in d.arrows}
    assert set(by_label) == {"m_{1} g", r"\mathbf{F}_{1}", r"-\mathbf{F}_{2}"}
    # the shoulder carries both segments and the load (static equilibrium of the arm)
    np.testing.assert_allclose(by_label[r"\mathbf{F}_{1}"].vector,
                               [0.0, (1.96 + 1.54) * G + 20.0], atol=1e-12)
    np.testing.assert_allclose(by_label["m_{1} g"].vector, [0.0, -1.96 * G], atol=1e-12)
    # Newton's third law: the forearm's diagram shows the opposite of -F_2 at the elbow
    d2 = drawing.free_body_diagram(arm, q, segment=1, contact_force=F)
    f2 = {a.label: a for a in d2.arrows}[r"\mathbf{F}_{2}"]
    np.testing.assert_allclose(f2.vector, -by_label[r"-\mathbf{F}_{2}"].vector, atol=1e-12)
    np.testing.assert_allclose(d2.moments[0].value, -d.moments[1].value, atol=1e-12)
    assert [a.label for a in d2.arrows] == ["m_{2} g", r"\mathbf{F}_{2}", r"\mathbf{F}_{e}"]


def test_fbd_arrows_point_along_their_forces(arm, rng):
    q, qd, qdd = rng.normal(size=2), rng.normal(size=2) * 3, rng.normal(size=2) * 20
    d = drawing.free_body_diagram(arm, q, segment=0, qd=qd, qdd=qdd)
    assert len(d.arrows) == 3 and len(d.moments) == 2
    artists = _arrow_artists(d.ax)
    joints = arm.joint_positions(q)
    points = {"m_{1} g": arm.com_positions(q)[0], r"\mathbf{F}_{1}": joints[0],
              r"-\mathbf{F}_{2}": joints[1]}
    for arrow in d.arrows:
        _assert_same_direction(arrow.delta, arrow.vector)
        # the artist drawn is the recorded arrow: tail to tail + delta
        np.testing.assert_allclose(arrow.artist.xyann, arrow.tail, atol=1e-12)
        np.testing.assert_allclose(arrow.artist.xy, arrow.tail + arrow.delta, atol=1e-12)
        assert arrow.artist in artists
        # it acts at its point: its tail (pulling) or its head (pushing) is there
        np.testing.assert_allclose(arrow.point, points[arrow.label], atol=1e-12)
        ends = [arrow.tail, arrow.tail + arrow.delta]
        assert min(np.hypot(*(e - arrow.point)) for e in ends) < 1e-12


def test_fbd_labels_and_com(arm):
    q = np.array([0.3, 0.9])
    d = drawing.free_body_diagram(arm, q, segment=1, qd=[1.0, -2.0], qdd=[5.0, 3.0])
    texts = _texts(d.ax)
    # symbol and positive magnitude: the arrow shows the way the load acts
    tau = arm.inverse_dynamics(q, [1.0, -2.0], [5.0, 3.0])[1]
    force = {a.label: a for a in d.arrows}[r"\mathbf{F}_{2}"].vector
    assert rf"$|\mathbf{{F}}_{{2}}|$ = {np.hypot(*force):.3g} N" in texts
    assert rf"$|\tau_{{2}}|$ = {abs(tau):.3g} N m" in texts
    assert all("= -" not in t for t in texts)
    assert "$m_{2} g$ = 15.1 N" in texts   # 1.54 kg x 9.81
    # COM from forward kinematics written out here: elbow + c2 (cos, sin)(q1 + q2)
    elbow = 0.3162 * np.array([np.cos(0.3), np.sin(0.3)])
    expected = elbow + 0.1706 * np.array([np.cos(1.2), np.sin(1.2)])
    np.testing.assert_allclose(d.points["com"], expected, atol=1e-14)
    weight = {a.kind: a for a in d.arrows}["weight"]
    np.testing.assert_allclose(weight.tail, expected, atol=1e-14)


def test_fbd_symbolic_labels(arm):
    d = drawing.free_body_diagram(arm, [0.3, 0.9], segment=1, symbolic=True)
    texts = _texts(d.ax)
    assert r"$\tau_{2}$" in texts and r"$\mathbf{F}_{2}$" in texts and r"$\mathbf{F}_{e}$" in texts
    assert all("=" not in t for t in texts)
    # symbols only, but drawn the way the computed loads act
    tau = arm.inverse_dynamics([0.3, 0.9], [0.0, 0.0], [0.0, 0.0])
    assert [m.sense for m in d.moments] == [int(np.sign(tau[1]))]


def test_fbd_reaction_is_drawn_opposite_with_the_same_symbol(arm):
    """Newton's third law in the picture: tau_2 and F_2 on the upper arm and the forearm."""
    q, qd, qdd = np.array([-0.4, 1.2]), np.array([1.0, -2.0]), np.array([5.0, 3.0])
    upper = drawing.free_body_diagram(arm, q, segment=0, qd=qd, qdd=qdd)
    fore = drawing.free_body_diagram(arm, q, segment=1, qd=qd, qdd=qdd)
    reaction = {m.symbol: m for m in upper.moments}[r"\tau_{2}"]
    action = {m.symbol: m for m in fore.moments}[r"\tau_{2}"]
    assert reaction.reaction and not action.reaction
    assert reaction.sense == -action.sense
    np.testing.assert_allclose(reaction.value, -action.value, atol=1e-12)  # exact negation
    # the drawn arcs turn the recorded ways (read from the artists, not the record)
    for m in (reaction, action):
        xy = m.artist.get_xydata()
        (ax_, ay_), (bx_, by_) = xy[1] - xy[0], xy[2] - xy[1]
        turn = ax_ * by_ - ay_ * bx_   # planar cross product of two chords
        assert np.sign(turn) == m.sense
    f_reaction = {a.symbol: a for a in upper.arrows}[r"\mathbf{F}_{2}"]
    f_action = {a.symbol: a for a in fore.arrows}[r"\mathbf{F}_{2}"]
    drawn = [np.subtract(a.artist.xy, a.artist.xyann) for a in (f_reaction, f_action)]
    _assert_same_direction(drawn[0], -drawn[1])
    # both labelled with the action's symbol and the same magnitude
    label = rf"$|\tau_{{2}}|$ = {abs(action.value):.3g} N m"
    assert label in _texts(upper.ax) and label in _texts(fore.ax)


def test_fbd_held_load_weight(arm):
    d = drawing.free_body_diagram(arm.with_point_mass(2.0), [0.0, 0.0], segment=1)
    weight = {a.kind: a for a in d.arrows}["weight"]
    np.testing.assert_allclose(weight.vector, [0.0, -(1.54 + 2.0) * G], atol=1e-12)


def test_fbd_bad_segment(arm):
    with pytest.raises(ValueError, match="segment"):
        drawing.free_body_diagram(arm, [0.0, 0.0], segment=2)


def test_segment_diagram_explicit_loads():
    grf, ankle = np.array([50.0, 700.0]), np.array([-50.0, -690.0])
    d = drawing.segment_diagram(
        [0.0, 0.08], [0.15, 0.0], [0.05, 0.04], mass=1.0,
        forces={"GRF": ([0.12, 0.0], grf), "F_a": ([0.0, 0.08], ankle)},
        moments={"M_a": ([0.0, 0.08], -80.0)}, lever_arms=True)
    assert [a.kind for a in d.arrows] == ["weight", "force", "force"]
    for arrow, vec in zip(d.arrows[1:], (grf, ankle), strict=True):
        _assert_same_direction(arrow.delta, vec)
    # the ground reaction pushes on the foot: drawn from below, its head at the COP
    np.testing.assert_allclose(d.arrows[1].tail + d.arrows[1].delta, [0.12, 0.0], atol=1e-12)
    # the shank pushes the foot down (compression, towards the foot's COM): from above too
    np.testing.assert_allclose(d.arrows[2].tail + d.arrows[2].delta, [0.0, 0.08], atol=1e-12)
    # a force pulling away from the COM has its tail at its point
    pull = drawing.segment_diagram([0.0, 0.0], [1.0, 0.0], [0.5, 0.0],
                                   forces={"T": ([1.0, 0.0], [10.0, 0.0])})
    np.testing.assert_allclose(pull.arrows[0].tail, [1.0, 0.0])
    # one scale for all forces: arrow lengths proportional to the forces
    lengths = [np.hypot(*a.delta) for a in d.arrows[1:]]
    np.testing.assert_allclose(lengths[0] / lengths[1], np.hypot(*grf) / np.hypot(*ankle))
    assert d.moments[0].sense == -1                        # clockwise for a negative moment
    assert "$|M_a|$ = 80 N m" in _texts(d.ax)              # the arc carries the sense
    dashed = [ln for ln in d.ax.lines if ln.get_linestyle() == "--"]
    assert len(dashed) == 2          # lever arms to the COM and to the GRF's point


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"distal": [0.0, 0.0]}, "coincide"), ({"mass": -1.0}, "mass"),
     ({"force_scale": 0.0}, "force_scale")],
)
def test_segment_diagram_bad_input(kwargs, match):
    args = {"proximal": [0.0, 0.0], "distal": [1.0, 0.0], "com": [0.5, 0.0]} | kwargs
    with pytest.raises(ValueError, match=match):
        drawing.segment_diagram(args.pop("proximal"), args.pop("distal"), args.pop("com"),
                                **args)


# ----------------------------------------------------------------------- model sketch
def test_model_sketch_chain_angles_and_coms(arm):
    q = np.array([-0.4, 1.2])
    d = drawing.model_sketch(arm, q, symbol=r"\alpha")
    np.testing.assert_allclose(d.points["com"], arm.com_positions(q), atol=1e-15)
    np.testing.assert_allclose(d.points["joints"],
                               kinematics.forward_kinematics(arm.lengths, q, joints=True))
    texts = _texts(d.ax)
    assert r"$\alpha_{1}$ = -23°" in texts and r"$\alpha_{2}$ = 69°" in texts
    # the arcs measure the chain's joint coordinates (angles from the drawn points)
    np.testing.assert_allclose([d.angles[r"\alpha_{1}"], d.angles[r"\alpha_{2}"]], q,
                               atol=1e-12)
    assert "1" in texts and "2" in texts and "$g$" in texts
    (g,) = d.arrows
    _assert_same_direction(g.delta, [0.0, -1.0])


def test_model_sketch_segment_angles(arm):
    d = drawing.model_sketch(arm, [-0.4, 1.2], angles="segment", values=True)
    texts = _texts(d.ax)
    assert r"$\varphi_{2}$ = 46°" in texts          # absolute angle q1 + q2 = 0.8 rad


def test_model_sketch_tree_from_points():
    # pelvis (0) with a trunk (1) and two legs: a tree given by a parent list
    pts = np.array([[0.0, 1.0], [0.05, 1.5], [0.1, 0.55], [0.0, 0.1], [-0.1, 0.55],
                    [-0.05, 0.1]])
    parents = [-1, 0, 0, 2, 0, 4]
    coms = np.array([(pts[p] + pts[j]) / 2 for j, p in enumerate(parents) if p >= 0])
    d = drawing.model_sketch(pts, parents=parents, com=coms, gravity=False)
    texts = _texts(d.ax)
    assert {"1", "2", "3", "4", "5"} <= set(texts)
    # joint angle of the shank (segment 3) relative to its thigh (segment 2)
    thigh = np.arctan2(*(pts[2] - pts[0])[::-1])
    shank = np.arctan2(*(pts[3] - pts[2])[::-1])
    assert f"$q_{{3}}$ = {np.degrees(shank - thigh):.0f}°" in texts
    np.testing.assert_allclose(d.points["com"], coms)
    assert d.arrows == []


def test_model_sketch_needs_q(arm):
    with pytest.raises(ValueError, match="q"):
        drawing.model_sketch(arm)


# ----------------------------------------------------------------------- strobe
def _reach_poses(n=61):
    t = np.linspace(0.0, 0.6, n)
    q, _, _ = kinematics.forward_reach(t, 0.3162, 0.4318)
    return t, kinematics.forward_kinematics([0.3162, 0.4318], q, joints=True)


def test_strobe_frames_path_and_colour_bar():
    t, poses = _reach_poses()
    d = drawing.strobe(poses, times=t, every=5, path=-1, path_label="fingertip")
    assert d.frames == 13                       # frames 0, 5, ..., 60
    np.testing.assert_allclose(d.points["poses"], poses[::5])
    np.testing.assert_allclose(d.points["path"], poses[:, -1])
    fig = d.ax.figure
    assert any(ax.get_ylabel() == "time [s]" for ax in fig.axes)
    # legend inside the figure (not clipped)
    fig.canvas.draw()
    box = d.ax.get_legend().get_window_extent()
    assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1


def test_strobe_forces_per_frame():
    t, poses = _reach_poses(21)
    forces = np.column_stack([np.linspace(-100, 100, 21), np.full(21, 700.0)])
    d = drawing.strobe(poses, times=t, every=4, forces=forces, force_points=0)
    assert d.frames == 6 and len(d.arrows) == 6
    for arrow, f in zip(d.arrows, [0, 4, 8, 12, 16, 20], strict=True):
        _assert_same_direction(arrow.delta, forces[f])
        np.testing.assert_allclose(arrow.tail, poses[f, 0])


def test_strobe_tree_segments_and_errors():
    poses = np.zeros((3, 4, 2))
    poses[:, 1] = [0.0, 1.0]
    poses[:, 2] = [1.0, 0.0]
    poses[:, 3] = [-1.0, 0.0]
    d = drawing.strobe(poses, parents=[-1, 0, 0, 0])
    assert d.frames == 3
    # 3 segments x 3 frames + 1 marker line per frame
    assert len(d.ax.lines) == 3 * 3 + 3
    with pytest.raises(ValueError, match="poses"):
        drawing.strobe(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="force_points"):
        drawing.strobe(poses, forces=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="times"):
        drawing.strobe(poses, times=[0.0, 1.0])


# ----------------------------------------------------------------------- animation
def test_animation_static_fallback_and_widget():
    """The widget is the browser-drawn player (poses sent once); the static form the strobe."""
    from bmc.widgets.animation import PoseView

    t, poses = _reach_poses(31)
    anim = drawing.animation(poses, times=t, path=-1, interval=40)
    bundle, metadata = anim._repr_mimebundle_()
    assert bundle["image/png"][:8] == b"\x89PNG\r\n\x1a\n"
    # the static picture's text alternative: the strobe's own description
    alt = anim.strobe_drawing.describe()
    assert metadata["image/png"]["alt"] == alt and "from t = 0 s to 0.6 s" in alt
    assert f'alt="{alt}"' in bundle["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/png"] == anim.strobe_png
    assert bundle["text/plain"] == "Animation(31 frames, 3 points)"
    box = anim.widget
    assert {"bmc-animation", "bmc-player"} <= set(box._dom_classes)
    (play, slider), view = box.children[0].children, box.children[1]
    assert isinstance(view, PoseView) and view is box.view
    assert play.max == slider.max == 30 and play.interval == 40  # [ms], as asked
    # what the browser draws: every pose (float32 [m]), the times [s] and the traced tip
    sent = np.frombuffer(view.poses, dtype=np.float32).reshape(31, 3, 2)
    np.testing.assert_allclose(sent, poses, atol=1e-6)  # float32 rounding of metres
    np.testing.assert_array_equal(np.frombuffer(view.times), t)
    np.testing.assert_allclose(np.frombuffer(view.path, dtype=np.float32).reshape(31, 2),
                               poses[:, -1], atol=1e-6)
    assert view.segments == [[0, 1], [1, 2]]
    # the frame slider drives the drawing in the page (jslink), never through the kernel
    slider.value = 15
    assert view.frame == 0
    assert anim.widget is box  # built once


def test_animation_bad_interval():
    _, poses = _reach_poses(5)
    with pytest.raises(ValueError, match="interval"):
        drawing.animation(poses, interval=0)


def test_strobe_spread_and_last_frame():
    t, poses = _reach_poses(61)
    d = drawing.strobe(poses, every=7, spread=0.5, path=-1)
    # frames 0, 7, ..., 56 and the last (60) replaces nothing: 60 - 56 >= 3.5
    assert d.frames == 10
    shifted = d.points["poses"][:, :, 0] - poses[[*range(0, 57, 7), 60], :, 0]
    np.testing.assert_allclose(shifted, np.repeat(0.5 * np.arange(10)[:, None], 3, axis=1),
                               atol=1e-12)
    d = drawing.strobe(poses, every=11)     # 0, 11, ..., 55; 60 - 55 < 5.5: 60 replaces 55
    assert d.frames == 6
    np.testing.assert_allclose(d.points["poses"][-1], poses[60])


def test_animation_static_page_shows_the_strobe():
    """nbconvert HTML of the displayed animation, no kernel: the strobe PNG, no widget."""
    import base64

    import nbformat
    from IPython.core.formatters import DisplayFormatter
    from nbconvert import HTMLExporter

    _, poses = _reach_poses(11)
    anim = drawing.animation(poses)
    data, _ = DisplayFormatter().format(anim)
    assert "image/png" in data and "application/vnd.jupyter.widget-view+json" in data
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("anim")
    # as the kernel sends it: binary data base64-encoded in the JSON message
    data["image/png"] = base64.b64encode(data["image/png"]).decode()
    cell.outputs = [nbformat.v4.new_output("display_data", data=data)]
    nb.cells = [cell]
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert "data:image/png;base64," in html


# ----------------------------------------------------------------------- gait
@pytest.fixture(scope="module")
def running():
    import bmc
    from bmc import newton_euler

    run = bmc.datasets.load_running()
    return run, newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments)


def test_lower_limb_diagrams_balance_newton(running):
    """Sum of the drawn forces on each segment = m a_COM (Newton's second law)."""
    run, res = running
    f = int(np.nonzero(run.grf[:, 1] > 0)[0][200])    # a stance frame
    panels = drawing.lower_limb_diagrams(res, run.grf, f, run.segments.mass)
    assert [len(p.arrows) for p in panels] == [3, 3, 3]      # weight + two forces each
    assert [len(p.moments) for p in panels] == [2, 2, 1]
    for s, panel in enumerate(panels):
        total = sum(a.vector for a in panel.arrows)
        # lower_limb's own equations, so agreement to round-off of ~1 kN forces
        np.testing.assert_allclose(total, run.segments.mass[s] * res.com_acceleration[f, s],
                                   atol=1e-8)
        np.testing.assert_allclose(panel.points["com"], res.com[f, s])
    grf_arrow = panels[2].arrows[-1]
    assert grf_arrow.label == r"\mathbf{F}_{GRF}"
    np.testing.assert_allclose(grf_arrow.point, [run.grf[f, 2], 0.0])
    _assert_same_direction(grf_arrow.delta, run.grf[f, :2])
