"""Frames computed ahead along a slider (bmc.widgets._sweep): the same figure as a set.

The truth for a frame is the kernel's own answer to a ``set`` of the same values (the
path every explorer took before frames were computed ahead): the items the browser holds
after that patch, and the description it carries. A sweep must leave the figure, the
controls and the description as they were.
"""

from __future__ import annotations

import importlib
import time

import ipywidgets as widgets
import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.widgets import _sweep, explorer

_EXPLORERS = {
    "pendulum": ("one_link", "torque_explorer"),
    "two_link": ("two_link", "reach_explorer"),
    "frames": ("matrix_formalism", "frames_explorer"),
    "gait": ("gait_inverse_dynamics", "noise_explorer"),
    "reactions": ("joint_reactions", "reaction_explorer"),
    "kuo": ("least_squares_inverse_dynamics", "torque_explorer"),
}


def _sweep_message(box, name: str, ks: list[int], values: dict | None = None) -> dict:
    spec = next(s for s in box.view.controls if s["name"] == name)
    at = [[k, round(spec["min"] + k * spec["step"], 9)] for k in ks]
    return {"type": "sweep", "control": name, "ctx": f"ctx-{name}", "seq": 1,
            "values": dict(values or box.view.state["values"]), "at": at}


def _compose(base: dict, changed: dict) -> dict:
    out = dict(base)
    for key, item in changed.items():
        if item is None:
            out.pop(key, None)
        else:
            out[key] = item
    return out


def _positions(box, name: str) -> list[int]:
    """Three positions of a slider: its first, its middle and its last (not the current)."""
    spec = next(s for s in box.view.controls if s["name"] == name)
    n = int(round((spec["max"] - spec["min"]) / spec["step"])) + 1
    return sorted({0, n // 2, n - 1})


@pytest.mark.parametrize("name", list(_EXPLORERS))
def test_a_frame_computed_ahead_is_what_a_set_of_the_same_values_sends(name, monkeypatch,
                                                                          record_sent):
    module, function = _EXPLORERS[name]
    box = getattr(importlib.import_module(f"bmc.widgets.{module}"), function)()
    monkeypatch.setattr(_sweep, "BUDGET", 1e9)  # every position asked, in one answer
    sent = record_sent(box)
    view = box.view
    opened = dict(view.state["values"])
    sliders = [s["name"] for s in view.controls if s["kind"] in ("range", "log")]
    checked = 0
    for slider in sliders:
        base = dict(view.scene)  # what the browser holds now (the trait is kept current)
        described = box.describe()
        ks = _positions(box, slider)
        view._handle_custom_msg(_sweep_message(box, slider, ks), [])
        answer = sent[-1]
        assert answer["type"] == "frames" and answer["tried"] == ks
        # the sweep put everything back: nothing to send, the same description and values
        assert box.view._scene.changes() == {}
        assert box.describe() == described
        assert box.explorer.drawn == {k: c.value for k, c in box.controls.items()}
        for frame, k in zip(answer["frames"], ks, strict=True):
            values = dict(view.state["values"])
            values[slider] = next(v for kk, v in _sweep_message(box, slider, [k])["at"]
                                  if kk == k)
            view._handle_custom_msg({"type": "set", "seq": 2, "values": values}, [])
            truth = sent[-1]
            assert truth["type"] == "patch" and truth["seq"] == 2
            assert frame["description"] == truth.get("description", described)
            composed = _compose(base, frame["items"])
            assert composed.keys() == view.scene.keys()
            for key, item in view.scene.items():
                assert composed[key] == item, f"{name}: {slider} at {k}: item {key} differs"
            checked += 1
            # back to where the sweep was computed from, for the next frame's base
            view._handle_custom_msg({"type": "set", "seq": 3, "values": dict(opened)}, [])
    assert checked >= 2 * len(sliders)
    plt.close("all")


def _sine(calls: list, *, slow: float = 0.0, raise_above: float | None = None):
    t = np.linspace(0.0, 1.0, 51)
    fig, ax = plt.subplots(figsize=(4, 2.5))
    (moving,) = ax.plot(t, np.sin(2 * np.pi * t))
    ax.set_ylim(-1.2, 1.2)

    def update(frequency: int, phase: float) -> None:
        calls.append((frequency, phase))
        if slow:
            time.sleep(slow)
        if raise_above is not None and phase > raise_above:
            raise RuntimeError("deliberately broken update")
        moving.set_ydata(np.sin(2 * np.pi * frequency * t + phase))

    controls = {"frequency": widgets.IntSlider(value=1, min=1, max=5),
                "phase": widgets.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.1),
                "show": widgets.Checkbox(value=True, description="show")}
    box = explorer(fig, lambda frequency, phase, show: update(frequency, phase), controls)
    return box


def test_the_kernel_stops_after_its_budget_and_says_what_it_tried(record_sent):
    calls: list = []
    box = _sine(calls, slow=0.03)
    sent = record_sent(box)
    box.view._handle_custom_msg(_sweep_message(box, "phase", list(range(1, 9))), [])
    tried = sent[-1]["tried"]
    # 30 ms per position and a 50 ms budget: two positions, then it stops (at least one
    # always, so a slow figure still gets frames)
    assert 1 <= len(tried) < 8 and tried == list(range(1, 1 + len(tried)))
    assert len(sent[-1]["frames"]) == len(tried)
    assert _sweep.BUDGET == 0.05
    plt.close("all")


def test_refused_and_malformed_asks_get_no_frame_and_break_nothing(record_sent):
    calls: list = []
    box = _sine(calls, raise_above=2.0)
    sent = record_sent(box)
    view = box.view
    scene_before = dict(view.scene)
    message = _sweep_message(box, "phase", [1, 2])
    message["at"] += [[3, "x"], ["four", 0.4], [True, 0.5], [41, 4.1]]  # 41: past max
    view._handle_custom_msg(message, [])
    answer = sent[-1]
    assert [f["k"] for f in answer["frames"]] == [1, 2]
    assert answer["tried"] == [1, 2, 3, 41]  # a refused value is tried (no frame)
    for bad in ({"control": "show"}, {"control": "nope"}, {"at": "all"},
                {"values": {"phase": "x"}}, {"values": {"phase": 0.0}}):
        view._handle_custom_msg({**_sweep_message(box, "phase", [1]), **bad}, [])
        assert sent[-1]["type"] == "frames" and sent[-1]["frames"] == []
        assert sent[-1]["tried"] == []  # the browser asks no more in this context
    # an update that raises at some values: no frames at all; the figure is put back
    view._handle_custom_msg(_sweep_message(box, "phase", [5, 25]), [])
    assert sent[-1]["frames"] == [] and sent[-1]["tried"] == []
    assert view._scene.changes() == {} and dict(view.scene) == scene_before
    assert box.errors.outputs == ()  # said by the set path, when the student gets there
    plt.close("all")


def test_the_png_renderer_gets_no_frames(record_sent):
    box = _sine([])
    png = explorer(box.figure, lambda frequency, phase, show: None,
                   {"frequency": widgets.IntSlider(value=1, min=1, max=5),
                    "phase": widgets.FloatSlider(value=0.0, min=0.0, max=3.0, step=0.1),
                    "show": widgets.Checkbox(value=True)}, renderer="png")
    sent = record_sent(png)
    png.view._handle_custom_msg(_sweep_message(png, "phase", [1]), [])
    assert sent[-1]["frames"] == [] and sent[-1]["tried"] == []
    plt.close("all")


def test_the_figure_goes_back_after_a_pause_and_a_set_redraws_even_at_the_same_values(
        record_sent):
    import asyncio

    calls: list = []
    box = _sine(calls)
    sent = record_sent(box)
    opened = dict(box.view.state["values"])
    runner = box.explorer

    async def scenario() -> None:
        box.view._handle_custom_msg(_sweep_message(box, "phase", [5]), [])
        assert runner.elsewhere and calls[-1] == (1, 0.5)  # left at the frame, for now
        assert box.controls["phase"].value == 0.0  # the controls are back at once
        # the values drawn before the sweep, asked again: drawn again, not skipped
        box.view._handle_custom_msg({"type": "set", "seq": 2, "values": opened}, [])
        assert calls[-1] == (1, 0.0) and not runner.elsewhere
        assert runner.restore_handle is None and sent[-1]["seq"] == 2
        # left alone after a sweep: back at the drawn values after RESTORE seconds
        box.view._handle_custom_msg(_sweep_message(box, "phase", [7]), [])
        assert calls[-1] == (1, 0.7)
        await asyncio.sleep(_sweep.RESTORE + 0.2)
        assert calls[-1] == (1, 0.0) and not runner.elsewhere
        assert box.view._scene.changes() == {}

    asyncio.run(scenario())
    plt.close("all")
