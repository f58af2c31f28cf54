"""bmc.widgets: every control of every explorer refuses a bad value, in place, and none hangs.

For each explorer and each of its controls: a value below the slider's minimum, above its
maximum, NaN, inf and values of the wrong type (text, bool, complex, None) are refused
before ``update`` runs. On the non-interactive path (``interactive=False``) the call raises
``TypeError`` or ``ValueError`` naming the control; on the interactive path the explorer
opens at its defaults and shows the message in its ``Output`` under the figure. A value
that arrives from the slider itself (NaN passes an ipywidgets slider's clamping; a student
may widen ``slider.max``) is refused in place too. Finally every explorer's update at its
slider extremes finishes within a few seconds.
"""

from __future__ import annotations

import math
import time

import ipywidgets as widgets
import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.widgets import (
    gait_inverse_dynamics,
    joint_reactions,
    least_squares_inverse_dynamics,
    matrix_formalism,
    one_link,
    two_link,
)


@pytest.fixture(scope="module")
def running():
    from bmc import datasets

    return datasets.load_running()


@pytest.fixture(scope="module")
def motion():
    from bmc.models.somersault import somersault

    return somersault(freq=100.0)


# name -> (factory(data, **kwargs), fixture giving data or None)
EXPLORERS = {
    "one_link": (lambda data, **kw: one_link.torque_explorer(**kw), None),
    "two_link": (lambda data, **kw: two_link.reach_explorer(**kw), None),
    "energy": (lambda data, **kw: matrix_formalism.energy_explorer(**kw), None),
    "frames": (lambda data, **kw: matrix_formalism.frames_explorer(**kw), None),
    "gait": (lambda data, **kw: gait_inverse_dynamics.noise_explorer(data, **kw), "running"),
    "reactions": (lambda data, **kw: joint_reactions.reaction_explorer(data, **kw), "motion"),
    "least_squares": (lambda data, **kw: least_squares_inverse_dynamics.torque_explorer(
        data, **kw), "kuo_sway"),
}

# Each explorer's controls as built (name, kind, min, max): the table below is written out,
# so that a slider added or changed without this file is noticed (test_the_table_is_complete).
CONTROLS = {
    "one_link": [("mean_deg", "number", -90, 90), ("amplitude_deg", "number", 0, 90),
                 ("frequency", "number", 0.1, 4)],
    "two_link": [("duration", "number", 0.3, 4), ("g", "number", 0, 9.81),
                 ("forearm_mass", "number", 0.5, 5), ("forearm_com", "number", 0.05, None)],
    "energy": [("log_dt", "number", -4, -2), ("log_rtol", "number", -12, -4)],
    "frames": [("angle1", "number", -180, 180), ("angle2", "number", -90, 90),
               ("angle3", "number", -180, 180), ("sequence", "choice", None, None),
               ("intrinsic", "bool", None, None)],
    "gait": [("marker_noise", "number", 0, 3), ("force_noise", "number", 0, 10),
             ("cutoff", "number", 5, 100)],
    "reactions": [("time", "number", 0, None), ("noise", "number", 0, 100)],
    "least_squares": [("marker_noise", "number", 10**-2, 10**0.5),
                      ("force_noise", "number", 10**-3, 10**1), ("weights", "choice", None, None)],
}

WRONG_NUMBERS = [("text", "1.0", TypeError), ("bool", True, TypeError),
                 ("complex", 1.0 + 1j, TypeError), ("None", None, TypeError),
                 ("list", [1.0], TypeError), ("NaN", math.nan, ValueError),
                 ("inf", math.inf, ValueError), ("-inf", -math.inf, ValueError)]
WRONG_CHOICES = [("unknown", "nonsense", ValueError), ("number", 1, ValueError),
                 ("None", None, ValueError), ("list", ["zxy"], ValueError)]
WRONG_BOOLS = [("int", 1, TypeError), ("text", "yes", TypeError), ("None", None, TypeError),
               ("NaN", math.nan, TypeError)]


def _bad_values(explorer, name, kind, low, high):
    if kind == "choice":
        return WRONG_CHOICES
    if kind == "bool":
        return WRONG_BOOLS
    rows = list(WRONG_NUMBERS)
    span = 1.0 if high is None else max(high - low, 1.0)
    rows.append(("below min", low - 0.5 * span, ValueError))
    if high is not None:
        rows.append(("above max", high + 0.5 * span, ValueError))
    else:  # the maximum depends on the data: far above any
        rows.append(("far above max", 1e6, ValueError))
    return rows


CASES = [(explorer, name, label, value, exc)
         for explorer, controls in CONTROLS.items()
         for name, kind, low, high in controls
         for label, value, exc in _bad_values(explorer, name, kind, low, high)]
IDS = [f"{e}-{n}-{label}" for e, n, label, _, _ in CASES]


def _make(request, explorer, **kwargs):
    factory, fixture = EXPLORERS[explorer]
    data = request.getfixturevalue(fixture) if fixture else None
    return factory(data, **kwargs)


@pytest.fixture(autouse=True)
def _close_figures_and_no_warm_up(monkeypatch):
    # The energy explorer's background warm-up (tested in test_widgets_base.py) would keep
    # integrating after each test here, on cores shared with the rest of the suite.
    monkeypatch.setattr(matrix_formalism, "warm_up", lambda *calls, **kw: None)
    yield
    plt.close("all")


@pytest.mark.parametrize(("explorer", "name", "label", "value", "exc"), CASES, ids=IDS)
def test_non_interactive_path_raises_naming_the_control(request, refuses, explorer, name,
                                                         label, value, exc):
    message = refuses(lambda **kw: _make(request, explorer, **kw),
                      {"interactive": False, "values": {name: value}}, exc, name)
    assert "got" in message  # says what arrived
    assert "unknown control" not in message  # the table's names are the explorer's


# The interactive path builds a whole explorer (about 0.3 s): one value out of range and one
# of the wrong type per control, which exercise both messages.
IN_PLACE = [c for c in CASES if c[2] in ("text", "NaN", "above max", "far above max",
                                          "unknown", "int")]


@pytest.mark.parametrize(("explorer", "name", "label", "value", "exc"), IN_PLACE,
                         ids=[f"{e}-{n}-{label}" for e, n, label, _, _ in IN_PLACE])
def test_interactive_values_are_refused_in_place(request, refuses_in_place, explorer, name,
                                                 label, value, exc):
    calls = []

    def make():
        box = _make(request, explorer, values={name: value})
        calls.append(box)
        return box

    message = refuses_in_place(make, name)
    assert exc.__name__ in message and "got" in message
    (box,) = calls
    assert box.errors in box.children  # under the figure, where the student looks


@pytest.mark.parametrize("explorer", list(EXPLORERS))
def test_the_table_is_complete(request, explorer):
    box = _make(request, explorer)
    controls = list(box.controls.values())
    assert [c.description for c in controls]  # every control has a label
    for spec, control in zip(CONTROLS[explorer], controls, strict=True):  # as many
        _, kind, low, high = spec
        if kind == "number":
            lo, hi = control.min, control.max
            if isinstance(control, widgets.FloatLogSlider):
                lo, hi = control.base**lo, control.base**hi
            assert lo == pytest.approx(low)
            if high is not None:
                assert hi == pytest.approx(high)
        elif kind == "choice":
            assert hasattr(control, "options")
        else:
            assert isinstance(control.value, bool)
    assert box.errors.outputs == ()  # the defaults are accepted


@pytest.mark.parametrize("explorer", list(EXPLORERS))
def test_a_value_from_the_slider_itself_is_refused_in_place(request, refuses_in_place,
                                                            explorer):
    """NaN passes ipywidgets' clamping; a widened slider passes the range the explorer had."""
    box = _make(request, explorer)
    controls = list(box.controls.values())
    numeric = [(spec[0], c) for spec, c in zip(CONTROLS[explorer], controls, strict=True)
               if spec[1] == "number"]
    name, slider = numeric[0]
    default = slider.value

    def nan():
        slider.value = math.nan
        return box

    refuses_in_place(nan, name)
    slider.value = default  # back to a good value: the error goes away
    assert box.errors.outputs == ()

    def widened():
        slider.max = slider.max + 10 * (slider.max - slider.min)
        slider.value = slider.max
        return box

    refuses_in_place(widened, name)


@pytest.mark.parametrize("renderer", ["canvas", "png"])
def test_both_renderers_refuse_in_place(monkeypatch, refuses_in_place, renderer):
    monkeypatch.setenv("BMC_WIDGETS_RENDERER", renderer)
    box = one_link.torque_explorer()
    frequency = box.controls["frequency"]

    def nan():
        frequency.value = math.nan
        return box

    refuses_in_place(nan, "frequency")
    frequency.value = 2.0
    assert box.errors.outputs == ()
    refuses_in_place(lambda: one_link.torque_explorer(values={"frequency": 40.0}), "frequency")


def _extremes(explorer, box):
    """Each slider at its min and at its max (others at defaults), then all at min / max."""
    controls = dict(zip([s[0] for s in CONTROLS[explorer]], box.controls.values(),
                        strict=True))
    ends = {}
    for name, control in controls.items():
        if isinstance(control, widgets.FloatLogSlider):
            ends[name] = (control.base**control.min, control.base**control.max)
        elif hasattr(control, "min"):
            ends[name] = (control.min, control.max)
    sets = [{name: pair[k]} for name, pair in ends.items() for k in (0, 1)]
    sets += [{name: pair[k] for name, pair in ends.items()} for k in (0, 1)]
    return sets


@pytest.mark.parametrize("explorer", list(EXPLORERS))
def test_every_update_at_the_slider_extremes_finishes_quickly(request, explorer):
    box = _make(request, explorer)
    box.errors.outputs = ()
    slowest = 0.0
    for values in _extremes(explorer, box):
        start = time.perf_counter()
        fig = _make(request, explorer, interactive=False, values=values)
        slowest = max(slowest, time.perf_counter() - start)
        for ax in fig.axes:  # drawn: every plotted value finite or masked
            for line in ax.get_lines():
                y = np.asarray(line.get_ydata(), dtype=float)
                assert not np.isinf(y).any(), (explorer, values, line.get_label())
        plt.close(fig)
    # generous (two cores shared with other jobs): the energy explorer's worst case is about
    # 1 s alone; a hang (the old unbounded step count or NaN tolerance) would be minutes.
    assert slowest < 8.0, (explorer, slowest)


def test_energy_explorer_refuses_what_used_to_hang():
    start = time.perf_counter()
    for values, exc in (({"log_dt": -9.0}, ValueError), ({"log_rtol": math.nan}, ValueError),
                        ({"log_rtol": -30.0}, ValueError)):
        with pytest.raises(exc, match="log_"):
            matrix_formalism.energy_explorer(interactive=False, values=values)
    with pytest.raises(ValueError, match="duration"):
        matrix_formalism.energy_explorer(duration=1e4, interactive=False)
    assert time.perf_counter() - start < 5.0


# The animation player (bmc.widgets.animation.player): its frame slider runs in the browser,
# so what can be bad is what the call passes.
_POSES = np.zeros((3, 2, 2))
_POSES[:, 1, 0] = 1.0
PLAYER_CASES = [
    ("poses", {"poses": _POSES + 1j}, TypeError),
    ("poses", {"poses": "abc"}, TypeError),
    ("poses", {"poses": _POSES[..., 0]}, ValueError),
    ("fps", {"fps": "30"}, TypeError),
    ("fps", {"fps": True}, TypeError),
    ("fps", {"fps": 30 + 1j}, TypeError),
    ("fps", {"fps": math.nan}, ValueError),
    ("fps", {"fps": -30.0}, ValueError),
    ("margin", {"margin": -0.1}, ValueError),
    ("margin", {"margin": math.nan}, ValueError),
    ("margin", {"margin": "0.1"}, TypeError),
    ("size", {"size": (0, 300)}, ValueError),
    ("size", {"size": (480.5, 300)}, TypeError),
    ("size", {"size": "480x360"}, TypeError),
    ("size", {"size": (480, 10**6)}, ValueError),
    ("segments", {"segments": [(0, 1.5)]}, TypeError),
    ("segments", {"segments": [(0, 2)]}, ValueError),
    ("segments", {"segments": "01"}, TypeError),
    ("times", {"times": [0.0, math.nan, 1.0]}, ValueError),
    ("times", {"times": [0.0, 1.0]}, ValueError),
    ("path", {"path": np.zeros((3, 2)) + 1j}, TypeError),
    ("path", {"path": np.zeros(3)}, ValueError),
]


@pytest.mark.parametrize(("arg", "bad", "exc"), PLAYER_CASES,
                         ids=[f"{a}-{i}" for i, (a, _, _) in enumerate(PLAYER_CASES)])
@pytest.mark.parametrize("interactive", [False, True])
def test_player_refuses_bad_arguments(refuses, arg, bad, exc, interactive):
    from bmc.widgets import animation

    refuses(animation.player, {"poses": _POSES, "interactive": interactive, **bad}, exc, arg)


@pytest.mark.parametrize("interactive", [np.array([True, False]), "False", None])
def test_the_interactive_switch_is_checked(refuses, interactive):
    # an array raised NumPy's ambiguous truth value; text "False" opened the widget (issue
    # 34's long survey, round 2)
    from bmc.widgets import animation, explorer

    refuses(animation.player, {"poses": _POSES, "interactive": interactive}, TypeError,
            "interactive")
    fig, _ = plt.subplots()
    try:
        refuses(explorer, {"fig": fig, "update": lambda **kw: None,
                           "controls": {"a": widgets.FloatSlider(value=0.5, min=0, max=1)},
                           "interactive": interactive}, TypeError, "interactive")
    finally:
        plt.close(fig)


@pytest.mark.parametrize(("func", "step"), [("noisy_running", 10**12), ("noisy_running", 172),
                                            ("noise_explorer", 50)])
def test_a_step_that_leaves_too_few_samples_is_refused(refuses, running, func, step):
    # a huge step left one sample (NumPy's zero-size reduction in the explorer's figure);
    # step 50 turned 10 kHz into 200 Hz, where the slider's 100 Hz cut-off is refused
    # (issue 34's long survey, round 2)
    kwargs = {"run": running, "step": step}
    if func == "noise_explorer":
        kwargs["interactive"] = False
    message = refuses(getattr(gait_inverse_dynamics, func), kwargs, ValueError, "step")
    assert f"got {step}" in message or f"got step = {step}" in message
