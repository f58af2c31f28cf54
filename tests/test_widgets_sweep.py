"""Frames computed ahead along a slider (bmc.widgets._sweep): the same figure as a set.

The truth for a frame is the kernel's own answer to a ``set`` of the same values (the
path every explorer took before frames were computed ahead): the items the browser holds
after that patch, and the description it carries. A sweep must leave the figure, the
controls and the description as they were.
"""

from __future__ import annotations

import asyncio
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
    """Three positions of a slider: its first, its middle and its last."""
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
    view, runner = box.view, box.explorer
    opened = dict(view.state["values"])
    sliders = [s["name"] for s in view.controls if s["kind"] in ("range", "log")]

    async def scenario() -> int:  # in a running loop, as in a kernel: the restore waits
        checked = 0
        for slider in sliders:
            base = dict(view.scene)  # what the browser holds now (the trait is kept current)
            controls = {k: c.value for k, c in box.controls.items()}
            message = _sweep_message(box, slider, _positions(box, slider))
            view._handle_custom_msg(message, [])
            answer = sent[-1]
            ks = [k for k, _ in message["at"]]
            assert answer["type"] == "frames" and answer["tried"] == ks
            assert [f["k"] for f in answer["frames"]] == ks
            # the controls are back at once; the figure shows the last frame for now
            assert {k: c.value for k, c in box.controls.items()} == controls
            assert runner.elsewhere and runner.restore_handle is not None
            for frame, (k, value) in zip(answer["frames"], message["at"], strict=True):
                assert frame["v"] == value  # as the browser sent it: its key for the frame
                values = {**opened, slider: value}
                view._handle_custom_msg({"type": "set", "seq": 2, "values": values}, [])
                truth = sent[-1]
                assert truth["type"] == "patch" and truth["seq"] == 2
                assert frame["description"] == truth.get("description",
                                                         view.state["description"])
                composed = _compose(base, frame["items"])
                assert composed.keys() == view.scene.keys()
                for key, item in view.scene.items():
                    assert composed[key] == item, f"{name}: {slider} at {k}: {key} differs"
                checked += 1
                # back where the sweep was computed from, for the next frame's base
                view._handle_custom_msg({"type": "set", "seq": 3, "values": opened}, [])
        # left alone after a sweep, the figure goes back to the values drawn by itself
        described = box.describe()
        view._handle_custom_msg(_sweep_message(box, sliders[0], [0]), [])
        await asyncio.sleep(_sweep.RESTORE + 0.2)
        assert not runner.elsewhere and view._scene.changes() == {}
        assert box.describe() == described
        return checked

    assert asyncio.run(scenario()) >= 2 * len(sliders)
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


def _recorded(record_sent, **kwargs):
    """The sine explorer, the updates it ran and the messages it sent."""
    calls: list = []
    box = _sine(calls, **kwargs)
    return box, calls, record_sent(box)


def test_the_kernel_stops_after_its_budget_and_says_what_it_tried(record_sent):
    box, _, sent = _recorded(record_sent, slow=0.03)
    box.view._handle_custom_msg(_sweep_message(box, "phase", list(range(1, 9))), [])
    tried = sent[-1]["tried"]
    # 30 ms per position and a 50 ms budget: two positions, then it stops (at least one
    # always, so a slow figure still gets frames)
    assert 1 <= len(tried) < 8 and tried == list(range(1, 1 + len(tried)))
    assert len(sent[-1]["frames"]) == len(tried)
    plt.close("all")


def test_refused_and_malformed_asks_get_no_frame_and_break_nothing(record_sent):
    box, _, sent = _recorded(record_sent, raise_above=2.0)
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
        assert sent[-1]["tried"] == [] and not sent[-1]["later"]  # no more in this context
    # an update that raises at one position: tried, no frame there, the others kept; the
    # figure is put back
    view._handle_custom_msg(_sweep_message(box, "phase", [5, 25, 6]), [])
    assert [f["k"] for f in sent[-1]["frames"]] == [5, 6] and sent[-1]["tried"] == [5, 25, 6]
    assert view._scene.changes() == {} and dict(view.scene) == scene_before
    assert box.errors.outputs == ()  # said by the set path, when the student gets there
    # while the explorer shows an error: nothing computed, "later" (asked again once drawn)
    view._handle_custom_msg({"type": "set", "seq": 4, "values": {"frequency": 1,
                                                                  "phase": 2.5}}, [])
    assert "deliberately broken" in box.errors.outputs[0]["text"]
    view._handle_custom_msg(_sweep_message(box, "phase", [1]), [])
    assert sent[-1]["later"] and sent[-1]["tried"] == [] and sent[-1]["frames"] == []
    plt.close("all")


def test_a_value_set_in_python_during_a_sweep_is_drawn_and_an_error_sends_no_frame(
        record_sent):
    box, calls, sent = _recorded(record_sent)
    view = box.view

    async def scenario() -> None:
        box.controls["phase"].value = 1.5  # set in Python: drawn once the loop runs
        view._handle_custom_msg(_sweep_message(box, "phase", [5]), [])  # before it runs
        assert box.controls["phase"].value == 1.5  # the sweep put back what it found
        await asyncio.sleep(0)
        assert calls[-1] == (1, 1.5) and sent[-1]["values"]["phase"] == 1.5
        # a sweep leaves the figure at its frame; a refused value answered then must
        # send the figure at the values drawn, not the frame's items
        view._handle_custom_msg(_sweep_message(box, "phase", [29]), [])
        assert calls[-1] == (1, 2.9)
        view._handle_custom_msg({"type": "set", "seq": 5, "values": {"phase": 9.0}}, [])
        assert sent[-1]["seq"] == 5 and sent[-1]["items"] == {}
        assert calls[-1] == (1, 1.5) and not box.explorer.elsewhere

    asyncio.run(scenario())
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
    box, calls, sent = _recorded(record_sent)
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
