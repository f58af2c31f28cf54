"""Every figure the course's drawing and plotting functions make, checked as a teacher would.

The gallery below draws each public function of :mod:`bmc.drawing` and the figure helpers of
:mod:`bmc.plotting` on the course's representative models: the one-link forearm and the
two-link arm of :mod:`bmc.models.arm`, Blajer and Czaplicki's seven-segment body of
:mod:`bmc.models.human`, Kuo's standing body, the 3D stance of notebook 3 and the lower
limb of the running trial of notebook 4. Each figure must pass
:func:`bmc.plotting.check_figure` (no overlapping text, no text over a drawn segment, line or
arrow, no text below 7 pt at 600 px, action and reaction drawn opposite, no series told
apart by colour alone), and the loads drawn in a free-body diagram must point as the
numbers they come from. The last tests are positive controls: each defect kind, made on
purpose, must be caught.
"""

from __future__ import annotations

import inspect
import itertools
import re

import matplotlib.pyplot as plt  # the Agg backend: tests/conftest.py sets MPLBACKEND
import numpy as np
import pytest

import bmc
from bmc import drawing, kinematics, plotting
from bmc.models import arm as arm_model
from bmc.plotting import check_figure

WIDTH = 7.0  # [in] a figure of the course (bmc.plotting.STYLE)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def one_link() -> bmc.PlanarChain:
    s = arm_model.forearm_hand()
    return bmc.PlanarChain([s.length], [s.com], [s.mass], [s.inertia])


def two_link() -> bmc.PlanarChain:
    u, f = arm_model.arm_segments()
    return bmc.PlanarChain([u.length, f.length], [u.com, f.com], [u.mass, f.mass],
                           [u.inertia, f.inertia])


def _reach(t):
    arm = two_link()
    return arm, *kinematics.forward_reach(t, *arm.lengths)


def _human():
    from bmc.models.human import human_model

    model = human_model(body_mass=60.0, height=1.70, sex="male")
    pose = np.array([0.0, 1.0, -0.15, 0.45, -0.2, np.pi / 2 + 0.15, 1.3, 2.0, 0.2])
    return model, pose


_GAIT = {}


def _gait():
    if not _GAIT:
        from bmc import newton_euler

        run = bmc.datasets.load_running()
        res = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments,
                                      time=run.time)
        hs = run.heel_strike
        toe_off = np.nonzero(run.grf[:, 1] > 0)[0][-1] + 1
        _GAIT.update(run=run, res=res, stance=slice(hs, toe_off))
    return _GAIT["run"], _GAIT["res"], _GAIT["stance"]


# -- the gallery: name -> (functions it draws with, builder returning drawings or a figure) --
def sketch_one_link():
    return drawing.model_sketch(one_link(), [np.radians(30.0)], symbol=r"\alpha")


def fbd_one_link_symbolic():
    return drawing.free_body_diagram(one_link(), [np.radians(30.0)], symbolic=True)


def fbd_one_link_moving():
    return drawing.free_body_diagram(one_link(), [-0.8], qd=[3.0], qdd=[20.0],
                                     contact_force=[0.0, -20.0])


def strobe_one_link():
    rod, t = one_link(), np.linspace(0.0, 0.5, 501)
    q, _, _ = kinematics.minimum_jerk(-np.pi / 2, 0.0, 0.5, t)
    poses = kinematics.forward_kinematics(rod.lengths, q[:, None], joints=True)
    return drawing.strobe(poses, times=t, every=50, path=-1, path_label="hand path")


def sketch_two_link():
    arm, q, _, _ = _reach([0.0])
    return drawing.model_sketch(arm, q[0], symbol=r"\alpha")


def sketch_two_link_segment_angles():
    arm, q, _, _ = _reach([0.3])
    return drawing.model_sketch(arm, q[0], angles="segment")


def _fbd_pair(symbolic: bool):
    arm, q, qd, qdd = _reach([0.3])
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 4.2), layout="constrained")
    return [drawing.free_body_diagram(arm, q[0], segment=k, qd=qd[0], qdd=qdd[0],
                                      contact_force=[0.0, -5.0], symbolic=symbolic, ax=ax)
            for k, ax in enumerate(axes)]


def fbd_two_link_pair():
    return _fbd_pair(False)


def fbd_two_link_pair_symbolic():
    return _fbd_pair(True)


def strobe_two_link():
    t = np.linspace(0.0, 0.6, 61)
    arm, q, _, _ = _reach(t)
    poses = kinematics.forward_kinematics(arm.lengths, q, joints=True)
    return drawing.strobe(poses, times=t, every=5, path=-1, path_label="fingertip")


def animation_two_link():
    t = np.linspace(0.0, 0.6, 31)
    arm, q, _, _ = _reach(t)
    poses = kinematics.forward_kinematics(arm.lengths, q, joints=True)
    return drawing.animation(poses, times=t, path=-1, path_label="fingertip").strobe_drawing


def sketch_human_tree():
    model, pose = _human()
    n = model.n
    ends = np.vstack([model.joint_positions(pose), model.distal_positions(pose)])
    coms = np.array([model.point(pose, i, model.com[i]) for i in range(n)])
    refs = np.where(model.direction > 0, np.pi / 2, -np.pi / 2)
    return drawing.model_sketch(ends, segments=[(i, n + i) for i in range(n)], com=coms,
                                angles="segment", reference=refs, symbol=r"\varphi")


def strobe_human_tree():
    model, pose = _human()
    n = model.n
    t = np.linspace(0.0, 1.0, 41)
    q = np.repeat(pose[None], t.size, axis=0)
    q[:, 2] += 0.6 * t            # the trunk leans back
    q[:, 7] += 1.2 * t            # the arm swings forward
    q[:, 0] += 0.3 * t            # the hip moves forward
    poses = np.concatenate([model.joint_positions(q), model.distal_positions(q)], axis=1)
    return drawing.strobe(poses, segments=[(i, n + i) for i in range(n)], times=t, every=8,
                          spread=0.6)


def sketch_standing():
    from bmc.models import standing

    model = standing.FourSegmentModel()
    phi = np.array(standing.POSTURE)
    return drawing.model_sketch(model.joint_positions(phi), com=model.com_positions(phi),
                                angles="segment", symbol=r"\phi")


def lower_limb():
    run, res, stance = _gait()
    quarter = stance.start + (stance.stop - stance.start) // 4
    k = quarter + int(np.argmax(run.grf[quarter:stance.stop, 1]))
    return drawing.lower_limb_diagrams(res, run.grf, k, run.segments.mass)


def strobe_stance():
    run, _, stance = _gait()
    markers = run.markers.reshape(len(run.time), 4, 2)[stance]
    cop = np.column_stack([run.grf[stance, 2], np.zeros(stance.stop - stance.start)])
    return drawing.strobe(markers, times=run.time[stance], every=200,
                          forces=run.grf[stance, :2], force_points=cop,
                          force_label="ground reaction")


def segments_stance_3d():
    from bmc import matrix_form
    from bmc.models.stance import stance_example

    st = stance_example(body_mass=70.0, height=1.75)
    F, M = matrix_form.joint_loads(**st.inputs(), frame="global")
    k = int(0.8 * (st.t.size - 1))
    ankle, knee, cop = st.rp[k, 0, :2], st.rp[k, 1, :2], st.p_ext[k, :2]
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 4.2), layout="constrained")
    foot = drawing.segment_diagram(
        ankle, cop, st.rcm[k, 0, :2], mass=st.mass[0], g=9.80665,
        forces={r"\mathbf{GRF}": (cop, st.f_ext[k, :2]), r"\mathbf{F}_A": (ankle, F[k, 0, :2])},
        moments={r"M_A": (ankle, M[k, 0, 2])}, weight_label="m_F g", title="foot", ax=axes[0])
    shank = drawing.segment_diagram(
        knee, ankle, st.rcm[k, 1, :2], mass=st.mass[1], g=9.80665,
        forces={r"\mathbf{F}_K": (knee, F[k, 1, :2]), r"-\mathbf{F}_A": (ankle, -F[k, 0, :2])},
        moments={r"M_K": (knee, M[k, 1, 2]), r"-M_A": (ankle, -M[k, 0, 2])},
        weight_label="m_S g", title="shank", ax=axes[1])
    return [foot, shank]


def segment_symbolic_unknowns():
    run, res, stance = _gait()
    k = stance.start + (stance.stop - stance.start) // 3
    mk = run.markers.reshape(len(run.time), 4, 2)[k]
    return drawing.segment_diagram(
        mk[1], mk[2], res.com[k, 1], mass=run.segments.mass[1], symbolic=True,
        forces={r"\mathbf{F}_p": (mk[1], [12.0, 12.0]), r"\mathbf{F}_d": (mk[2], [12.0, 12.0])},
        moments={"M_p": (mk[1], np.nan), "M_d": (mk[2], np.nan)}, lever_arms=True,
        title="shank")


def estimates_against_truth():
    t = np.linspace(0.0, 2.0, 121)
    truth = np.column_stack([30 * np.sin(2 * np.pi * t), 10 * np.cos(np.pi * t)])
    estimates = {"Newton-Euler": plotting.series_style(0),
                 "least squares": plotting.series_style(1)}
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 3.2), sharex=True, layout="constrained")
    axes, lines = plotting.estimates_against_truth(
        t, truth, estimates, titles=("ankle", "hip"), ylabel="joint moment [N m]", axes=axes)
    rng = np.random.default_rng(1)
    for j in range(2):
        lines["Newton-Euler"][j].set_ydata(truth[:, j] + rng.normal(0, 2, t.size))
        lines["least squares"][j].set_ydata(truth[:, j] + rng.normal(0, 1, t.size))
    return fig


def palette_cycle():
    t = np.linspace(0.0, 1.0, 101)
    fig, ax = plt.subplots(figsize=(WIDTH, 3.4), layout="constrained")
    ax.set_prop_cycle(plotting.cycle())
    for k, name in enumerate(("hip", "knee", "ankle", "shoulder", "elbow")):
        ax.plot(t, np.sin(2 * np.pi * (t + 0.1 * k)) * (1 + k), label=name)
    ax.set(xlabel="time [s]", ylabel="joint angle [rad]")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


GALLERY = {
    "sketch_one_link": ({"model_sketch"}, sketch_one_link),
    "fbd_one_link_symbolic": ({"free_body_diagram"}, fbd_one_link_symbolic),
    "fbd_one_link_moving": ({"free_body_diagram"}, fbd_one_link_moving),
    "strobe_one_link": ({"strobe"}, strobe_one_link),
    "sketch_two_link": ({"model_sketch"}, sketch_two_link),
    "sketch_two_link_segment_angles": ({"model_sketch"}, sketch_two_link_segment_angles),
    "fbd_two_link_pair": ({"free_body_diagram"}, fbd_two_link_pair),
    "fbd_two_link_pair_symbolic": ({"free_body_diagram"}, fbd_two_link_pair_symbolic),
    "strobe_two_link": ({"strobe"}, strobe_two_link),
    "animation_two_link": ({"animation", "strobe"}, animation_two_link),
    "sketch_human_tree": ({"model_sketch"}, sketch_human_tree),
    "strobe_human_tree": ({"strobe"}, strobe_human_tree),
    "sketch_standing": ({"model_sketch"}, sketch_standing),
    "lower_limb": ({"lower_limb_diagrams", "segment_diagram"}, lower_limb),
    "strobe_stance": ({"strobe"}, strobe_stance),
    "segments_stance_3d": ({"segment_diagram"}, segments_stance_3d),
    "segment_symbolic_unknowns": ({"segment_diagram"}, segment_symbolic_unknowns),
    "estimates_against_truth": ({"estimates_against_truth"}, estimates_against_truth),
    "palette_cycle": ({"cycle"}, palette_cycle),
}


def _draw(name):
    made = GALLERY[name][1]()
    drawings = made if isinstance(made, list) else [made] if hasattr(made, "ax") else []
    figure = drawings[0].ax.figure if drawings else made
    return figure, drawings


def test_the_gallery_draws_every_figure_making_function():
    makers = {name for name in drawing.__all__
              if inspect.isfunction(getattr(drawing, name))}
    makers |= {"estimates_against_truth", "cycle"}   # bmc.plotting's figure helpers
    covered = set().union(*(functions for functions, _ in GALLERY.values()))
    assert makers <= covered, f"not drawn by the gallery: {sorted(makers - covered)}"
    assert {"animation", "free_body_diagram", "lower_limb_diagrams", "model_sketch",
            "segment_diagram", "strobe"} <= makers   # the list above is not empty


@pytest.mark.parametrize("name", sorted(GALLERY))
def test_figure_has_no_defect(name):
    figure, _ = _draw(name)
    problems = check_figure(figure)
    assert not problems, f"{name}:\n  " + "\n  ".join(map(str, problems))


@pytest.mark.parametrize("name", ["fbd_one_link_symbolic", "fbd_one_link_moving",
                                  "fbd_two_link_pair", "fbd_two_link_pair_symbolic",
                                  "lower_limb", "segments_stance_3d",
                                  "segment_symbolic_unknowns"])
def test_loads_are_drawn_as_they_act(name):
    """Each arrow along its force, each arc turning as its moment; labels carry magnitudes."""
    figure, drawings = _draw(name)
    figure.canvas.draw()
    symbolic = drawings[0].facts["symbolic"]
    for d in drawings:
        texts = [t.get_text() for t in d.ax.texts]
        for a in d.arrows:
            drawn = np.subtract(a.artist.xy, a.artist.xyann)  # head minus tail, as drawn
            if np.any(a.vector):
                cos = drawn @ a.vector / np.hypot(*drawn) / np.hypot(*a.vector)
                assert cos > 1 - 1e-9, f"{a.label} drawn {drawn}, acts along {a.vector}"
            if not symbolic and a.kind == "force":
                magnitude = np.hypot(*a.vector)
                shown = f"{magnitude:.0f}" if magnitude >= 100 else f"{magnitude:.3g}"
                assert f"$|{a.symbol}|$ = {shown} N" in texts
        for m in d.moments:
            xy = m.artist.get_xydata()
            chords = np.diff(xy, axis=0)
            turn = np.sign(np.sum(chords[:-1, 0] * chords[1:, 1] - chords[:-1, 1] * chords[1:, 0]))
            assert turn == m.sense
            if np.isfinite(m.value) and m.value != 0:
                assert m.sense == np.sign(m.value), f"{m.label} = {m.value} drawn {m.sense}"
            assert not any(t.startswith(f"${m.label}$") for t in texts if m.reaction)
            assert not any("= -" in t for t in texts), "a label with a negative magnitude"


@pytest.mark.parametrize("name", ["fbd_two_link_pair", "fbd_two_link_pair_symbolic",
                                  "lower_limb", "segments_stance_3d"])
def test_action_and_reaction_are_drawn_opposite(name):
    """A symbol on two neighbouring segments: its arrows antiparallel, its arcs opposite."""
    _, drawings = _draw(name)
    pairs = 0
    for a, b in itertools.permutations(drawings, 2):
        for kind in ("arrows", "moments"):
            here = {x.symbol: x for x in getattr(a, kind) if x.reaction}
            there = {x.symbol: x for x in getattr(b, kind) if not x.reaction}
            for symbol in here.keys() & there.keys():
                pairs += 1
                r, s = here[symbol], there[symbol]
                if kind == "moments":
                    assert r.sense == -s.sense
                    np.testing.assert_allclose(r.value, -s.value, rtol=1e-12)  # exact sign flip
                else:
                    np.testing.assert_allclose(r.vector, -s.vector, rtol=1e-12)
                    np.testing.assert_allclose(r.point, s.point, atol=1e-12)   # same joint
    assert pairs >= 2, "no action-reaction pair found: the test would pass vacuously"


# -- positive controls: each defect, made on purpose, is caught ------------------------------
def _rules(figure):
    return sorted({p.rule for p in check_figure(figure)})


def test_checker_catches_overlapping_text():
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.text(0.5, 0.5, "knee moment", transform=ax.transAxes)
    ax.text(0.52, 0.51, "hip moment", transform=ax.transAxes)
    assert _rules(fig) == ["overlap"]
    fig2, ax2 = plt.subplots(figsize=(6, 3))
    ax2.set_title("stance phase")
    fig2.suptitle("Joint moments", y=0.93)     # a suptitle over the title (notebook 2)
    assert "overlap" in _rules(fig2)


def test_checker_catches_text_over_a_segment_a_curve_or_an_arrow():
    d = drawing.segment_diagram([0.0, 0.0], [0.4, 0.0], [0.2, 0.0], mass=2.0)
    d.ax.text(0.2, 0.0, "COM", ha="center")
    assert [p.message for p in check_figure(d.ax.figure)
            if p.rule == "covers"] == ["text 'COM' covers segment"]
    fig, ax = plt.subplots(figsize=(6, 3))
    t = np.linspace(0, 1, 50)
    ax.plot(t, t, label="estimate")
    ax.legend(loc="center")                    # a legend over a curve (notebook 2)
    assert _rules(fig) == ["covers"]
    fig3, ax3 = plt.subplots(figsize=(6, 3))
    ax3.annotate("", xy=(0.9, 0.5), xytext=(0.1, 0.5), arrowprops={"arrowstyle": "->"})
    ax3.text(0.5, 0.5, "force", ha="center", va="center")
    assert _rules(fig3) == ["covers"]


def test_checker_catches_text_too_small_at_600_px():
    fig, ax = plt.subplots(figsize=(12.0, 4.8))     # notebook 4's old lower-limb figure
    ax.plot([0, 1], [0, 1])
    problems = check_figure(fig)
    assert [p.rule for p in problems] == ["small text"]
    shown = float(re.search(r"show at ([0-9.]+) pt", problems[0].message).group(1))
    assert 5.0 < shown < 7.0                          # 10 pt in a picture about 10 in wide
    fig2, ax2 = plt.subplots(figsize=(6.0, 3.0))
    ax2.text(0.1, 0.9, "tiny", fontsize=5)            # about 5.5 pt at 600 px
    assert _rules(fig2) == ["small text"]
    # the old default figure of lower_limb_diagrams: 12 in wide
    run, res, stance = _gait()
    _, axes = plt.subplots(1, 3, figsize=(12.0, 4.8), layout="constrained")
    drawing.lower_limb_diagrams(res, run.grf, stance.start + 100, run.segments.mass, axes=axes)
    assert "small text" in _rules(axes[0].figure)


def test_a_narrow_picture_is_read_at_its_own_size_not_enlarged():
    """The site never enlarges a picture: one narrower than 600 px shows at its own size, on a
    computer and on a phone, so its text is read at dpi / 96 of its size (90 dpi: 0.94)."""
    fig, ax = plt.subplots(figsize=(3.0, 2.0), dpi=90)  # about 290 px wide (the course's dpi)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("time [s]", fontsize=7.0)         # 6.6 pt at its own size
    problems = check_figure(fig)
    assert [p.rule for p in problems] == ["small text"], problems
    shown = float(re.search(r"show at ([0-9.]+) pt", problems[0].message).group(1))
    assert shown == pytest.approx(7.0 * fig.dpi / 96.0, abs=0.05)  # rounded to 0.1 pt
    ax.set_xlabel("time [s]", fontsize=8.0)         # 7.5 pt: legible
    assert [p.rule for p in check_figure(fig)] == []


def test_checker_catches_action_and_reaction_drawn_alike():
    """The old notebook 2 figure: tau_2 drawn counter-clockwise on both segments."""
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 3.5), layout="constrained")
    drawing.segment_diagram([0.0, 0.0], [0.3, 0.0], [0.15, 0.0], ax=axes[0],
                            moments={r"-\tau_2": ([0.3, 0.0], 4.0)})   # wrong: same sign
    drawing.segment_diagram([0.3, 0.0], [0.6, 0.0], [0.45, 0.0], ax=axes[1],
                            moments={r"\tau_2": ([0.3, 0.0], 4.0)})
    problems = check_figure(fig)
    assert [p.rule for p in problems] == ["action and reaction"]
    assert r"\tau_2" in problems[0].message
    fig2, axes2 = plt.subplots(1, 2, figsize=(WIDTH, 3.5), layout="constrained")
    drawing.segment_diagram([0.0, 0.0], [0.3, 0.0], [0.15, 0.0], ax=axes2[0],
                            forces={r"-\mathbf{F}_2": ([0.3, 0.0], [0.0, 10.0])})
    drawing.segment_diagram([0.3, 0.0], [0.6, 0.0], [0.45, 0.0], ax=axes2[1],
                            forces={r"\mathbf{F}_2": ([0.3, 0.0], [0.0, 10.0])})
    assert _rules(fig2) == ["action and reaction"]


def test_checker_catches_series_told_apart_by_colour_alone():
    fig, ax = plt.subplots(figsize=(6, 3))
    t = np.linspace(0, 1, 20)
    ax.plot(t, t, color="C1", label="Newton-Euler")      # orange and green, both solid
    ax.plot(t, t + 1, color="C2", label="least squares")  # (notebook 6's RMSE plots)
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    problems = check_figure(fig)
    assert [p.rule for p in problems] == ["colour alone"]
    assert "protanopia" in problems[0].message
    ax.lines[1].set_linestyle("--")   # another cue: no longer a defect
    assert check_figure(fig) == []
