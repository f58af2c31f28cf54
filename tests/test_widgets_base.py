"""bmc.widgets.explorer on the browser path: coalescing, caching, patches, static figure.

The browser itself is exercised by tests/browser (every slider changes the drawn figure,
errors appear in place) and timed by benchmarks/bench_explorers_browser.py; here the kernel
side is checked without a browser: what is computed, and what would be sent.
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


def _record(box) -> list:
    sent: list = []
    box.view.send = lambda content, buffers=None: sent.append(content)
    return sent


def test_burst_runs_update_once_with_the_last_value():
    calls: list = []
    box, controls, *_ = _sine_explorer(calls)
    sent = _record(box)
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


def test_without_a_running_loop_every_change_runs_and_a_return_is_not_recomputed():
    calls: list = []
    box, controls, *_ = _sine_explorer(calls)
    _record(box)
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


def test_update_sends_only_the_changed_line_in_canvas_pixels():
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls)
    sent = _record(box)
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
    expected = np.column_stack([xy[:, 0] + left, fig.bbox.height - xy[:, 1] + top]).ravel()
    np.testing.assert_allclose(line["pts"], expected, atol=0.05 + 1e-9)
    # The first state held both lines and the y ticks at the fixed limits.
    first = box.view.scene
    assert first["0.1"]["dash"], "the dashed line keeps its dashes"
    assert first["0.yticks"]["labels"][0] in ("−1.0", "-1.0")
    plt.close("all")


def test_changed_limits_resend_the_ticks_and_only_lines_whose_pixels_moved():
    t = np.linspace(0.0, 1.0, 11)
    fig, ax = plt.subplots()
    (scaled,) = ax.plot(t, t)
    (fixed,) = ax.plot(t, 0.5 + 0 * t)

    def update(gain: float) -> None:
        scaled.set_ydata(gain * t)
        ax.set_ylim(0.0, gain)

    box = explorer(fig, update, {"gain": widgets.FloatSlider(value=1.0, min=1.0, max=10.0)})
    sent = _record(box)
    box.children[0].children[0].value = 10.0
    # y = gain t on limits (0, gain) lands on the same pixels: only the constant line (now
    # lower on the canvas) and the tick labels change.
    assert set(sent[0]["items"]) == {"0.1", "0.yticks"}
    assert sent[0]["items"]["0.yticks"]["labels"][-1] == "10"
    plt.close("all")


def test_static_figure_at_the_defaults_is_in_the_mimebundle():
    calls: list = []
    box, controls, fig, *_ = _sine_explorer(calls)
    _record(box)
    controls["frequency"].value = 4  # the static figure stays the one at the defaults
    bundle = box._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == box.model_id
    png = base64.b64decode(bundle["image/png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    # bbox_inches="tight" crops the margins: at most the figure, at least half of it
    assert fig.bbox.width / 2 < width <= fig.bbox.width + 2
    assert fig.bbox.height / 2 < height <= fig.bbox.height + 2
    plt.close("all")


def test_an_error_in_update_is_shown_in_place_and_cleared_after():
    calls: list = []
    box, controls, *_ = _sine_explorer(calls, raise_if=lambda f, p: f == 2)
    sent = _record(box)
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
def test_values_are_what_the_explorer_shows_and_its_sliders_say(renderer):
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls, renderer=renderer,
                                                   values={"frequency": 3, "phase": 1.5})
    assert calls and set(calls) == {(3, 1.5)}  # never drawn at the defaults (1, 0.0)
    np.testing.assert_allclose(moving.get_ydata(), np.sin(2 * np.pi * 3 * t + 1.5))
    assert (controls["frequency"].value, controls["phase"].value) == (3, 1.5)
    if renderer == "canvas":  # the static figure (GitHub, nbviewer) is the one at `values`
        shown = base64.b64decode(box._repr_mimebundle_()["image/png"])
        calls.clear()
        default_box, *_ = _sine_explorer(calls)
        default = base64.b64decode(default_box._repr_mimebundle_()["image/png"])
        assert shown != default
        _record(box)
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


def test_png_renderer_is_todays_path_and_bad_names_are_refused(monkeypatch):
    calls: list = []
    box, *_ = _sine_explorer(calls, renderer="png")
    assert isinstance(box.children[1], widgets.Output)
    assert not hasattr(box, "view")
    assert "bmc-explorer" in box._dom_classes
    monkeypatch.setenv("BMC_WIDGETS_RENDERER", "png")
    box, *_ = _sine_explorer(calls, renderer=None)
    assert isinstance(box.children[1], widgets.Output)
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


def test_energy_explorer_recomputes_only_the_integrator_whose_slider_moved(monkeypatch):
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
    _record(box)
    log_dt, log_rtol = box.children[0].children
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


def test_energy_explorer_warm_up_computes_each_slider_value_once(monkeypatch):
    from bmc.widgets import matrix_formalism as matrix_form

    steps: list[float] = []
    euler = _euler()

    def counted_euler(pend, y0, t_end, *, dt, every):
        steps.append(dt)
        return euler(pend, y0, t_end, dt=dt, every=every)

    _patch_euler(monkeypatch, counted_euler)
    box = matrix_form.energy_explorer(duration=0.5)
    _record(box)
    box.warm_up.join(timeout=60)
    assert not box.warm_up.is_alive()
    log_dt, _ = box.children[0].children
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
def test_every_course_explorer_draws_in_the_browser_and_each_slider_sends_a_patch(name):
    import importlib

    module, function = _EXPLORERS[name]
    box = getattr(importlib.import_module(f"bmc.widgets.{module}"), function)()
    sent = _record(box)
    assert box.view.scene, "the first state holds the figure's items"
    sliders = [w for w in box.children[0].children
               if isinstance(w, (widgets.FloatSlider, widgets.FloatLogSlider, widgets.IntSlider))]
    assert sliders
    for slider in sliders:
        before = len(sent)
        slider.value = slider.max if slider.value != slider.max else slider.min
        assert len(sent) == before + 1, f"{name}: moving {slider.description} sent nothing"
        assert box.children[-1].outputs == (), box.children[-1].outputs
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


def test_only_the_artists_update_touched_are_read_again(monkeypatch):
    calls: list = []
    box, controls, fig, moving, t = _sine_explorer(calls)
    _record(box)
    scene = box.view._scene
    read: list = []
    item = Scene._item

    def counted(self, artist, ax):
        read.append(artist)
        return item(self, artist, ax)

    monkeypatch.setattr(Scene, "_item", counted)
    controls["phase"].value = 0.5
    # update calls moving.set_ydata only: the dashed line, the empty titles and the ticks
    # (same limits) are neither read nor sent again
    assert read == [moving]
    assert scene.changes() == {}  # and nothing is pending
    plt.close("all")


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
