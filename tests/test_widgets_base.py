"""bmc.widgets.explorer on the browser path: coalescing, caching, patches, static figure.

The browser itself is exercised by tests/browser (every control changes the drawn figure and
its accessible name, the canvas matches Matplotlib's Agg rendering, axe-core, errors appear
in place) and timed by benchmarks/bench_explorers_browser.py; here the kernel side is
checked without a browser: what is computed, and what would be sent.
"""

from __future__ import annotations

import asyncio
import base64
import struct

import ipywidgets as widgets
import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.widgets import explorer
from bmc.widgets._scene import Scene, plain_text


def _sine_explorer(calls: list, *, raise_if=None, renderer="canvas", values=None):
    t = np.linspace(0.0, 1.0, 51)
    fig, ax = plt.subplots(figsize=(4, 2.5))
    (moving,) = ax.plot(t, np.sin(2 * np.pi * t), label="moving")
    (still,) = ax.plot(t, np.cos(2 * np.pi * t), "--", label="still")
    ax.set_ylim(-1.2, 1.2)
    ax.legend(loc="upper right")

    def update(frequency: int, phase: float) -> None:
        calls.append((frequency, phase))
        if raise_if is not None and raise_if(frequency, phase):
            raise RuntimeError("deliberately broken update")
        moving.set_ydata(np.sin(2 * np.pi * frequency * t + phase))

    controls = {"frequency": widgets.IntSlider(value=1, min=1, max=5),
                "phase": widgets.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.1)}
    box = explorer(fig, update, controls, renderer=renderer, values=values)
    return box, controls, fig, moving, t


def _points(item) -> np.ndarray:
    return np.frombuffer(item["pts"], dtype=np.float32).reshape(-1, 2)


def test_burst_runs_update_once_with_the_last_value(record_sent):
    calls: list = []
    box, controls, *_ = _sine_explorer(calls)
    sent = record_sent(box)
    assert calls == [(1, 0.0)]  # the default, once, at construction

    async def burst() -> None:
        for phase in (0.1, 0.2, 0.3, 0.4, 0.5):  # five key presses before the kernel yields
            controls["phase"].value = phase
        await asyncio.sleep(0)  # the kernel's loop turns once

    asyncio.run(burst())
    assert calls == [(1, 0.0), (1, 0.5)]
    assert box.coalescer.calls == 5 and box.coalescer.runs == 1
    assert len(sent) == 1 and sent[0]["version"] == 1
    plt.close("all")


def test_without_a_running_loop_every_change_runs_and_a_return_is_not_recomputed(record_sent):
    calls: list = []
    box, controls, *_ = _sine_explorer(calls)
    record_sent(box)
    controls["phase"].value = 0.3
    controls["frequency"].value = 2
    assert calls == [(1, 0.0), (1, 0.3), (2, 0.3)]

    async def there_and_back() -> None:
        controls["phase"].value = 0.4
        controls["phase"].value = 0.3  # back where it was drawn: nothing to compute
        await asyncio.sleep(0)

    asyncio.run(there_and_back())
    assert calls == [(1, 0.0), (1, 0.3), (2, 0.3)]
    plt.close("all")


def test_update_sends_only_the_changed_line_in_canvas_pixels(record_sent):
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls)
    sent = record_sent(box)
    controls["frequency"].value = 3
    assert len(sent) == 1
    items = sent[0]["items"]
    # Only the moving line changed: the dashed line, the ticks (fixed limits), the legend
    # and the frame (static layers) are not sent again.
    assert list(items) == ["0.0"], items.keys()
    line = items["0.0"]
    assert line["kind"] == "line" and line["dash"] == []
    # Independent truth: Matplotlib's own data-to-display transform, y flipped to the
    # canvas' top-left origin, shifted by where the figure sits on the canvas (its margin
    # for text sticking out); the payload is rounded to 0.1 px.
    ax = fig.axes[0]
    left, top, width, height = box.view.layer
    assert (width, height) == (round(fig.bbox.width), round(fig.bbox.height))
    xy = ax.transData.transform(np.column_stack([t, np.sin(2 * np.pi * 3 * t)]))
    expected = np.column_stack([xy[:, 0] + left, fig.bbox.height - xy[:, 1] + top])
    # rounded to 0.1 px, then float32 (1e-5 px at a few hundred px)
    np.testing.assert_allclose(_points(line), expected, atol=0.05 + 1e-4)
    # The first state held both lines and the y ticks at the fixed limits.
    first = box.view.scene
    assert first["0.1"]["dash"], "the dashed line keeps its dashes"
    assert first["0.yticks"]["labels"][0] in ("−1.0", "-1.0")
    plt.close("all")


def test_changed_limits_resend_the_ticks_and_only_lines_whose_pixels_moved(record_sent):
    t = np.linspace(0.0, 1.0, 11)
    fig, ax = plt.subplots()
    (scaled,) = ax.plot(t, t)
    (fixed,) = ax.plot(t, 0.5 + 0 * t)

    def update(gain: float) -> None:
        scaled.set_ydata(gain * t)
        ax.set_ylim(0.0, gain)

    box = explorer(fig, update, {"gain": widgets.FloatSlider(value=1.0, min=1.0, max=10.0)})
    sent = record_sent(box)
    box.controls["gain"].value = 10.0
    # y = gain t on limits (0, gain) lands on the same pixels: only the constant line (now
    # lower on the canvas) and the tick labels change.
    assert set(sent[0]["items"]) == {"0.1", "0.yticks"}
    assert sent[0]["items"]["0.yticks"]["labels"][-1] == "10"
    plt.close("all")


def test_static_figure_at_the_defaults_is_in_the_mimebundle(record_sent):
    calls: list = []
    box, controls, fig, *_ = _sine_explorer(calls)
    record_sent(box)
    controls["frequency"].value = 4  # the static figure stays the one at the defaults
    bundle, metadata = box._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == box.model_id
    # the static figure's text alternative, also its plain-text form: the values it shows
    # and what the figure holds
    assert metadata["image/png"]["alt"] == bundle["text/plain"]
    assert bundle["text/plain"].startswith("At frequency 1; phase 0.")
    assert "lines: moving, still" in bundle["text/plain"]
    png = base64.b64decode(bundle["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    # bbox_inches="tight" crops the margins: at most the figure, at least half of it
    assert fig.bbox.width / 2 < width <= fig.bbox.width + 2
    assert fig.bbox.height / 2 < height <= fig.bbox.height + 2
    plt.close("all")


def test_an_error_in_update_is_shown_in_place_and_cleared_after(record_sent):
    calls: list = []
    box, controls, *_ = _sine_explorer(calls, raise_if=lambda f, p: f == 2)
    sent = record_sent(box)
    errors = box.children[-1]
    controls["frequency"].value = 2
    assert len(errors.outputs) == 1
    shown = errors.outputs[0]
    assert shown["name"] == "stderr"
    assert "RuntimeError: deliberately broken update" in shown["text"]
    assert sent == []
    controls["frequency"].value = 3
    assert errors.outputs == ()
    assert len(sent) == 1
    plt.close("all")


@pytest.mark.parametrize("renderer", ["canvas", "png"])
def test_values_are_what_the_explorer_shows_and_its_sliders_say(renderer, record_sent):
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls, renderer=renderer,
                                                   values={"frequency": 3, "phase": 1.5})
    assert calls and set(calls) == {(3, 1.5)}  # never drawn at the defaults (1, 0.0)
    np.testing.assert_allclose(moving.get_ydata(), np.sin(2 * np.pi * 3 * t + 1.5))
    assert (controls["frequency"].value, controls["phase"].value) == (3, 1.5)
    if renderer == "canvas":  # the static figure (GitHub, nbviewer) is the one at `values`
        shown = base64.b64decode(box._repr_mimebundle_()[0]["image/png"])
        calls.clear()
        default_box, *_ = _sine_explorer(calls)
        default = base64.b64decode(default_box._repr_mimebundle_()[0]["image/png"])
        assert shown != default
        record_sent(box)
        controls["frequency"].value = 1  # moving back to the default recomputes
        controls["phase"].value = 0.0
        np.testing.assert_allclose(moving.get_ydata(), np.sin(2 * np.pi * t))
    assert box.errors.outputs == ()
    plt.close("all")


def test_refused_values_open_the_explorer_at_the_defaults_with_the_message():
    calls: list = []
    box, controls, _, moving, t = _sine_explorer(calls, values={"phase": 7.0})
    assert set(calls) == {(1, 0.0)}
    np.testing.assert_allclose(moving.get_ydata(), np.sin(2 * np.pi * t))
    (shown,) = box.errors.outputs
    assert "phase" in shown["text"] and "[0, 3]" in shown["text"] and "7.0" in shown["text"]
    controls["phase"].value = 1.0  # a good value clears it
    assert box.errors.outputs == ()
    with pytest.raises(ValueError, match=r"phase \(the control 'phase'\) must lie in \[0, 3\]"):
        explorer(*_sine_figure(), interactive=False, values={"phase": 7.0})
    with pytest.raises(TypeError, match="frequency .* whole number"):
        explorer(*_sine_figure(), interactive=False, values={"frequency": 1.5})
    plt.close("all")


def _sine_figure():
    fig, ax = plt.subplots()
    (line,) = ax.plot([0.0, 1.0], [0.0, 0.0])
    controls = {"frequency": widgets.IntSlider(value=1, min=1, max=5),
                "phase": widgets.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.1)}
    return fig, lambda frequency, phase: line.set_ydata([phase, phase]), controls


def test_png_renderer_sends_the_whole_figure_and_bad_names_are_refused(monkeypatch):
    calls: list = []
    box, controls, *_ = _sine_explorer(calls, renderer="png")
    assert box.view.mode == "png" and box.renderer == "png"
    assert "bmc-explorer" in box._dom_classes
    sent: list = []
    box.view.send = lambda content, buffers=None: sent.append((content, buffers))
    controls["phase"].value = 0.5
    ((content, (png,)),) = sent
    assert content["type"] == "png" and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert box.view.background == png  # what a view made later (a reload) shows
    monkeypatch.setenv("BMC_WIDGETS_RENDERER", "png")
    box, *_ = _sine_explorer(calls, renderer=None)
    assert box.view.mode == "png"
    with pytest.raises(ValueError, match="renderer must be one of"):
        _sine_explorer(calls, renderer="svg")
    monkeypatch.setenv("BMC_WIDGETS_RENDERER", "gif")
    with pytest.raises(ValueError, match="BMC_WIDGETS_RENDERER must be one of"):
        _sine_explorer(calls, renderer=None)
    plt.close("all")


# The double pendulum's home is moving (bmc.matrix_form -> bmc.models.double_pendulum):
# count its Euler integrator wherever the explorer imports it from.
_EULER_HOMES = ("bmc.models.double_pendulum", "bmc.matrix_form")


def _euler():
    import importlib

    for name in _EULER_HOMES:
        try:
            return importlib.import_module(name).euler_double_pendulum
        except (ImportError, AttributeError):
            continue
    raise AssertionError("euler_double_pendulum not found")  # pragma: no cover


def _patch_euler(monkeypatch, replacement) -> None:
    import importlib

    for name in _EULER_HOMES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "euler_double_pendulum"):
            monkeypatch.setattr(module, "euler_double_pendulum", replacement)


def test_energy_explorer_recomputes_only_the_integrator_whose_slider_moved(monkeypatch,
                                                                           record_sent):
    import bmc.simulate
    from bmc.widgets import matrix_formalism as matrix_form

    counts = {"euler": 0, "dop853": 0}
    euler, simulate = _euler(), bmc.simulate.simulate

    def counted_euler(*args, **kwargs):
        counts["euler"] += 1
        return euler(*args, **kwargs)

    def counted_simulate(*args, **kwargs):
        counts["dop853"] += 1
        return simulate(*args, **kwargs)

    _patch_euler(monkeypatch, counted_euler)
    monkeypatch.setattr(bmc.simulate, "simulate", counted_simulate)
    # caches filled on demand only
    monkeypatch.setattr(matrix_form, "warm_up", lambda *calls, **kwargs: None)
    box = matrix_form.energy_explorer(duration=1.0)
    record_sent(box)
    log_dt, log_rtol = box.controls.values()
    assert counts == {"euler": 1, "dop853": 1}
    log_rtol.value = -8.0
    assert counts == {"euler": 1, "dop853": 2}
    log_dt.value = -2.5
    assert counts == {"euler": 2, "dop853": 2}
    log_rtol.value = -10.0  # back to a tolerance computed before: a cache hit
    assert counts == {"euler": 2, "dop853": 2}
    log_dt.value = -2.5000000000000004  # as the browser may send -2.5: the same cache entry
    assert counts == {"euler": 2, "dop853": 2}
    plt.close("all")


def test_energy_explorer_warm_up_computes_each_slider_value_once(monkeypatch, record_sent):
    from bmc.widgets import matrix_formalism as matrix_form

    steps: list[float] = []
    euler = _euler()

    def counted_euler(pend, y0, t_end, *, dt, every):
        steps.append(dt)
        return euler(pend, y0, t_end, dt=dt, every=every)

    _patch_euler(monkeypatch, counted_euler)
    box = matrix_form.energy_explorer(duration=0.5)
    record_sent(box)
    box.warm_up.join(timeout=60)
    assert not box.warm_up.is_alive()
    log_dt = box.controls["log_dt"]
    # nine step sizes (1e-4 ... 1e-2 s), each integrated once; the nearest to 1e-3 first
    np.testing.assert_allclose(sorted(steps), np.logspace(-4, -2, 9), rtol=1e-12)
    np.testing.assert_allclose(steps[:3], [1e-3, 10**-3.25, 10**-2.75], rtol=1e-12)
    for value in (-4.0, -2.0, -3.5):
        log_dt.value = value
    assert len(steps) == 9, "a warmed-up slider value was integrated again"
    plt.close("all")


def test_mathtext_becomes_plain_unicode():
    assert plain_text("no math [N m]") == "no math [N m]"
    assert plain_text(r"inertial $I_o\ddot\alpha$") == "inertial Iₒα̈"
    assert plain_text(r"$\mathdefault{10^{-14}}$") == "10⁻¹⁴"
    assert plain_text(r"g = 9.81 m/s$^2$") == "g = 9.81 m/s²"


def test_unsupported_artists_are_refused_by_name():
    fig, ax = plt.subplots()
    ax.scatter([0, 1], [0, 1])
    with pytest.raises(NotImplementedError, match="PathCollection.*renderer='png'"):
        Scene(fig)
    plt.close("all")


_EXPLORERS = {
    "pendulum": ("one_link", "torque_explorer"), "two_link": ("two_link", "reach_explorer"),
    "energy": ("matrix_formalism", "energy_explorer"),
    "frames": ("matrix_formalism", "frames_explorer"),
    "gait": ("gait_inverse_dynamics", "noise_explorer"),
    "reactions": ("joint_reactions", "reaction_explorer"),
    "kuo": ("least_squares_inverse_dynamics", "torque_explorer"),
}


@pytest.mark.parametrize("name", list(_EXPLORERS))
def test_every_course_explorer_draws_in_the_browser_and_each_slider_sends_a_patch(name,
                                                                                  record_sent):
    import importlib

    module, function = _EXPLORERS[name]
    box = getattr(importlib.import_module(f"bmc.widgets.{module}"), function)()
    sent = record_sent(box)
    assert box.view.scene, "the first state holds the figure's items"
    sliders = [w for w in box.controls.values()
               if isinstance(w, (widgets.FloatSlider, widgets.FloatLogSlider, widgets.IntSlider))]
    assert sliders
    for slider in sliders:
        before = len(sent)
        slider.value = slider.max if slider.value != slider.max else slider.min
        assert len(sent) == before + 1, f"{name}: moving {slider.description} sent nothing"
        assert box.errors.outputs == (), box.errors.outputs
        # the figure's accessible name follows: it states the value just set
        assert sent[-1]["description"] == box.describe()
    plt.close("all")


def test_animation_player_sends_poses_once_and_links_play_to_the_frame():
    from bmc.widgets import animation

    t = np.linspace(0.0, 1.0, 21)
    elbow = np.column_stack([0.3 * np.cos(t), 0.3 * np.sin(t)])
    poses = np.stack([np.zeros_like(elbow), elbow, elbow + [0.25, 0.0]], axis=1)
    box = animation.player(poses, fps=20, times=t, title="arm")
    view = box.view
    # Round trip of the data the browser gets: float32 positions in frame-point-xy order.
    sent = np.frombuffer(view.poses, dtype=np.float32).reshape(view.shape + [2])
    np.testing.assert_allclose(sent, poses, atol=1e-7)  # float32 rounding of metres
    np.testing.assert_array_equal(np.frombuffer(view.times), t)
    assert view.segments == [[0, 1], [1, 2]]  # a chain by default
    x0, x1, y0, y1 = view.limits
    assert x0 < poses[..., 0].min() and x1 > poses[..., 0].max()
    assert y0 < poses[..., 1].min() and y1 > poses[..., 1].max()
    play, slider = box.children[0].children
    assert play.interval == 50 and play.max == slider.max == 20
    assert base64.b64decode(box._repr_mimebundle_()["image/png"])[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match=r"poses must be an array of shape \(n_frames"):
        animation.player(poses[..., 0])
    with pytest.raises(ValueError, match="segments must be pairs"):
        animation.player(poses, [(0, 3)])
    with pytest.raises(ValueError, match=r"fps \[frames/s\] must be a finite positive"):
        animation.player(poses, fps=0)
    with pytest.raises(ValueError, match=r"path must have shape \(21, 2\)"):
        animation.player(poses, path=poses[:, 1, 0])
    # a traced path beyond the poses widens the drawing's limits to hold it
    far = elbow + [1.0, 0.0]
    traced = animation.player(poses, path=far).view
    np.testing.assert_allclose(np.frombuffer(traced.path, dtype=np.float32).reshape(21, 2), far,
                               atol=1e-6)
    assert traced.limits[1] > far[:, 0].max() > x1
    fig = animation.player(poses, interactive=False)
    np.testing.assert_allclose(fig.axes[0].lines[0].get_xydata(), poses[0, :2])
    plt.close("all")


def test_a_line_whose_data_and_view_stay_is_not_transformed_again(monkeypatch, record_sent):
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls)
    sent = record_sent(box)
    scene = box.view._scene
    read: list = []
    pixels = Scene._line_pixels

    def counted(self, key, line, ax, view):
        before = self._geometry.get(key)
        out = pixels(self, key, line, ax, view)
        if before is None or self._geometry[key] is not before:
            read.append(line)
        return out

    monkeypatch.setattr(Scene, "_line_pixels", counted)
    controls["phase"].value = 0.5
    # update calls moving.set_ydata only: the dashed line's pixels are not computed again,
    # and only the moving line is sent
    assert read == [moving]
    assert list(sent[-1]["items"]) == ["0.0"]
    assert scene.changes() == {}  # and nothing is pending
    plt.close("all")


def test_each_artist_is_one_item_and_a_new_title_is_always_sent(record_sent):
    # Matplotlib 3.11 lists the suptitle in fig.texts too; it must be one item, and what
    # clears an artist's stale flag (a draw, a second reading) must not keep a title old.
    t = np.linspace(0.0, 1.0, 11)
    fig, ax = plt.subplots()
    (line,) = ax.plot(t, t)

    def update(gain: float) -> None:
        line.set_ydata(gain * t)
        fig.suptitle(f"gain {gain:.1f}")

    box = explorer(fig, update, {"gain": widgets.FloatSlider(value=1.0, min=1.0, max=3.0)})
    sent = record_sent(box)
    texts = [item for item in box.view.scene.values() if item["kind"] == "text"
             and item["t"] == "gain 1.0"]
    assert len(texts) == 1, "the suptitle is sent once"
    update(2.0)
    fig.canvas.draw()  # clears every stale flag: the scene must not depend on them
    box.controls["gain"].value = 2.5
    shown = [item["t"] for item in sent[-1]["items"].values() if item["kind"] == "text"]
    assert shown == ["gain 2.5"]
    current = [item["t"] for item in box.view.scene.values() if item["kind"] == "text"
               and item["t"]]
    assert current == ["gain 2.5"], "no old title left in the scene"
    plt.close("all")


def test_titles_stay_where_matplotlib_placed_them_and_axes_off_have_no_ticks():
    fig, (ax, panel) = plt.subplots(1, 2)
    ax.plot([0, 1], [0, 1])
    ax.set_title("shoulder")
    ax.legend(["a line"])
    panel.axis("off")
    panel.text(0.0, 0.5, "R =\n+1.000")
    fig.canvas.draw()
    placed = ax.title.get_window_extent().y0
    scene = Scene(fig)
    # the passes that make the layers hide the title (it then has no extent, and
    # Matplotlib would move it far up) and turn the axes off; all of it is put back
    assert ax.axison and not panel.axison
    items = scene.items()
    title = next(item for item in items.values() if item.get("t") == "shoulder")
    # its box is where Matplotlib draws it (on the canvas: y down, shifted by the margin)
    assert title["box"][1] + title["box"][3] == pytest.approx(
        scene.margin[1] + fig.bbox.height - placed, abs=0.5)
    assert {key for key in items if key.endswith("ticks")} == {"0.xticks", "0.yticks"}
    plt.close("all")


def test_quiver_arrows_are_the_polygons_matplotlib_draws():
    fig, ax = plt.subplots()
    ax.set_xlim(-1, 3)
    ax.set_ylim(-1, 3)
    quiver = ax.quiver([0.0, 1.0, 2.0], [0.0, 1.0, 0.5], [1.0, 0.0, 0.02], [0.5, 1.0, 0.0],
                       angles="xy", scale_units="xy", scale=1.0, width=0.02,
                       color=["C0", "C1", "C2"])
    scene = Scene(fig)
    item = next(item for item in scene.items().values() if item["kind"] == "poly")
    fig.canvas.draw()  # Matplotlib's own arrows: paths in arrow widths, offsets in data
    offsets = ax.transData.transform(quiver.get_offsets())
    for k, path in enumerate(quiver.get_paths()):
        expected = quiver.get_transform().transform(path.vertices) + offsets[k]
        got = np.frombuffer(item["pts"][k], dtype=np.float32).reshape(-1, 2)
        got = np.column_stack([got[:, 0] - scene.margin[0],
                               fig.bbox.height - (got[:, 1] - scene.margin[1])])
        np.testing.assert_allclose(got, expected, atol=1e-3)  # float32 of a few hundred px
    assert item["fill"] == ["#1f77b4ff", "#ff7f0eff", "#2ca02cff"]
    plt.close("all")


def test_markers_keep_their_shape_and_markevery():
    fig, ax = plt.subplots()
    t = np.linspace(0.0, 1.0, 21)
    (line,) = ax.plot(t, t, "s--", markevery=(1, 5), markersize=6)
    scene = Scene(fig)
    item = next(item for item in scene.items().values() if item["kind"] == "line")
    marker = item["marker"]
    at = np.frombuffer(marker["at"], dtype=np.float32).reshape(-1, 2)
    assert len(at) == 4  # points 1, 6, 11, 16
    xy = ax.transData.transform(np.column_stack([t, t])[[1, 6, 11, 16]])
    np.testing.assert_allclose(at[:, 0], np.floor(xy[:, 0] + scene.margin[0] + 0.5))
    side = 6 * fig.dpi / 72
    shape = np.array(marker["shape"]["v"]).reshape(-1, 2)
    assert np.ptp(shape[:, 0]) == pytest.approx(side, abs=1.0)  # a square, snapped
    assert marker["filled"] and item["dash"]
    with pytest.raises(NotImplementedError, match="markevery=0.1"):
        ax.plot(t, t, "o", markevery=0.1)
        Scene(fig)
    plt.close("all")


def test_values_from_the_browser_are_put_on_the_step_and_answered(record_sent):
    calls: list = []
    box, controls, *_ = _sine_explorer(calls)
    sent = record_sent(box)
    view = box.view
    # as a browser may send them: 0.30000000000000004, an int slider's 2.0000001
    view._handle_custom_msg({"type": "set", "seq": 7,
                             "values": {"frequency": 2.0000001, "phase": 0.30000000000000004}},
                            [])
    assert calls[-1] == (2, 0.3)
    assert (controls["frequency"].value, controls["phase"].value) == (2, 0.3)
    assert sent[-1]["seq"] == 7 and sent[-1]["values"] == {"frequency": 2, "phase": 0.3}
    # the same values again: nothing computed, but answered (the browser sends its next)
    view._handle_custom_msg({"type": "set", "seq": 8, "values": {"frequency": 2,
                                                                  "phase": 0.3}}, [])
    assert len(calls) == 2 and sent[-1]["seq"] == 8 and sent[-1]["items"] == {}
    # a value no control takes: refused in place by name, and answered
    view._handle_custom_msg({"type": "set", "seq": 9, "values": {"phase": 7.0}}, [])
    assert "phase" in box.errors.outputs[0]["text"] and sent[-1]["seq"] == 9
    plt.close("all")


def test_controls_as_the_browser_draws_them():
    box = matrix_form_energy()
    controls = {spec["name"]: spec for spec in box.view.controls}
    assert controls["log_dt"] == {"name": "log_dt", "label": "Euler log10(dt / s)",
                                  "kind": "range", "min": -4.0, "max": -2.0, "step": 0.25,
                                  "decimals": 2, "shown": 2, "words": ""}
    from bmc.widgets import least_squares_inverse_dynamics as kuo

    box = kuo.torque_explorer()
    specs = {spec["name"]: spec for spec in box.view.controls}
    assert specs["marker_noise"]["kind"] == "log" and specs["marker_noise"]["min"] == -2
    assert specs["marker_noise"]["words"] == "centimetres"
    assert specs["weights"] == {"name": "weights", "label": "LS weights", "kind": "choice",
                                "options": ["propagated", "paper"]}
    assert box.view.state["values"]["weights"] == 0  # the option's index
    assert box.view.state["values"]["marker_noise"] == 0.0  # log10(1 cm)
    plt.close("all")


def matrix_form_energy():
    from bmc.widgets import matrix_formalism

    return matrix_formalism.energy_explorer(duration=0.5)


def test_warm_up_waits_while_the_sliders_move():
    import threading
    import time

    from bmc.widgets import warm_up

    slider = widgets.FloatSlider(value=0.0, min=0.0, max=1.0, step=0.1)
    ran: list[float] = []
    gate = threading.Event()
    thread = warm_up(gate.wait, lambda: ran.append(time.monotonic()),
                     controls={"x": slider}, quiet=0.3)
    slider.value = 0.5  # a student moves the slider while the first call runs
    moved = time.monotonic()
    gate.set()
    thread.join(timeout=10)
    assert len(ran) == 1
    assert ran[0] - moved >= 0.3 - 0.01  # the next call waited for 0.3 s of quiet (+ timer)


def test_dashed_lines_are_cut_where_they_leave_the_figure_as_agg_cuts_them():
    from bmc.widgets._marks import _clip_polyline

    square = (0.0, 0.0, 10.0, 10.0)
    path = np.array([[0, 0], [5, 5], [15, 5], [15, -5], [5, -5], [5, 2]], dtype=float)
    # in, out to the right (cut at x = 10), back in from below (a new piece)
    np.testing.assert_array_equal(
        _clip_polyline(path, square),
        [[0, 0], [5, 5], [10, 5], [np.nan, np.nan], [5, 0], [5, 2]])
    inside = np.array([[1, 1], [2, 2], [np.nan, np.nan], [3, 3]], dtype=float)
    np.testing.assert_array_equal(_clip_polyline(inside, square), inside)  # untouched
    fig, ax = plt.subplots()
    t = np.linspace(0.0, 1.0, 50)
    ax.plot(t, 40 * np.sin(12 * t), "--")  # far out of the view and the figure
    ax.set_ylim(-1, 1)
    item = next(i for i in Scene(fig).items().values() if i["kind"] == "line")
    points = _points(item)
    cuts = np.isnan(points[:, 0]).sum()
    assert cuts >= 3  # it leaves the figure at least 3 times
    finite = points[np.isfinite(points[:, 0])]
    assert finite[:, 1].min() >= -1.0 - 1e-3  # and nothing beyond its edge (+1 px)
    plt.close("all")


def test_warm_up_waits_while_notebook_cells_run(monkeypatch):
    """In IPython the warm-up starts after the cell that made it (and every cell of a Run All
    after it) has ended and ``quiet`` has passed; it stops listening when it is done."""
    import threading
    import time

    from IPython.core.events import EventManager, available_events

    from bmc.widgets import _warm

    class Shell:  # the part of an IPython shell the warm-up uses
        events = EventManager(None, available_events)

    shell = Shell()
    monkeypatch.setattr(_warm, "_shell", lambda: shell)
    ran: list[float] = []
    done = threading.Event()
    thread = _warm.warm_up(lambda: ran.append(time.monotonic()), done.set, quiet=0.2)
    time.sleep(0.4)
    assert ran == []                           # the cell that made the explorer still runs
    shell.events.trigger("post_run_cell", None)
    shell.events.trigger("pre_run_cell", None)  # Run All: the next cell starts at once
    time.sleep(0.4)
    assert ran == []
    shell.events.trigger("post_run_cell", None)
    ended = time.monotonic()
    assert done.wait(timeout=10)
    thread.join(timeout=10)
    assert ran[0] - ended >= 0.2 - 0.01         # after 0.2 s of quiet (+ timer)
    assert all(not shell.events.callbacks[e] for e in ("pre_run_cell", "post_run_cell"))

