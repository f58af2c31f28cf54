"""The one explorer pattern shared by all widgets (figure built once, data updated).

Two renderers show the same Matplotlib figure:

``"canvas"`` (default)
    The browser draws the figure from data (:mod:`bmc.widgets._canvas`): the static parts
    are two PNG layers made once, and after each ``update`` only the artists whose data
    changed are sent, as JSON, and drawn on a ``<canvas>`` at the next animation frame.
    Slider changes are coalesced (the last value wins) and an unchanged set of values is
    not recomputed. The displayed output also carries an ``image/png`` of the figure at
    the default values, so that a static page (GitHub, nbviewer, the HTML book) shows it.
``"png"``
    The previous path: every change re-renders the whole figure as an inline PNG in an
    ``Output`` (about 100 ms more per change). Kept for comparison (the latency benchmark)
    and for figures with artists the canvas cannot draw.

Choose per call with ``renderer=``, or for a whole session with the environment variable
``BMC_WIDGETS_RENDERER``. In both, an error raised by ``update`` is shown in place, under
the sliders, as a traceback in an ``Output``.

Every value that reaches ``update`` (from a slider, from ``values=``) is first checked
against its control as it was built: a slider takes a finite real number (not a bool, a
string, a complex number or None) within its ``[min, max]``, a dropdown one of its options,
a checkbox a bool. A refused value is shown in place, in the same ``Output``, naming the
control, its range with the unit and what arrived; on the non-interactive path it raises
``TypeError`` (wrong type) or ``ValueError`` (NaN, out of range, unknown option).
"""

from __future__ import annotations

import math
import numbers
import os
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["RENDERERS", "cache_key", "explorer", "slider_values", "warm_up"]


def __dir__() -> list[str]:
    return sorted(__all__)

RENDERERS = ("canvas", "png")
"""The renderers :func:`explorer` accepts."""

_RENDERER_VARIABLE = "BMC_WIDGETS_RENDERER"


def explorer(
    fig: Any,
    update: Callable[..., None],
    controls: Mapping[str, Any],
    *,
    interactive: bool = True,
    values: Mapping[str, Any] | None = None,
    renderer: str | None = None,
):
    """Wire ipywidgets controls to a figure whose artists are built once.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, with every artist already created.
    update : callable
        ``update(**values)`` sets the artists' data (``set_data``, ``set_ydata``,
        ``set_text``, axis limits) for one set of control values; it must not create
        new figures.
    controls : mapping of str to ipywidgets.ValueWidget
        One control per keyword argument of ``update``; its ``value`` is the default.
    interactive : bool, optional
        ``True`` (default) returns an ``ipywidgets.VBox`` with the controls above an
        ``Output`` that shows the figure and is redrawn on every change. ``False`` applies
        ``values`` (or the controls' defaults) once and returns ``fig``: the path tests and
        scripts use.
    values : mapping, optional
        Control values for the non-interactive path, overriding the defaults.
    renderer : {"canvas", "png"}, optional
        How the interactive explorer draws (see the module docstring); default: the
        environment variable ``BMC_WIDGETS_RENDERER``, else ``"canvas"``.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The widget (interactive) or the updated figure (non-interactive).
    """
    renderer = _renderer(renderer)
    specs = {name: _ControlSpec.of(name, control) for name, control in controls.items()}
    current = {name: control.value for name, control in controls.items()}
    refused = None
    if values is not None and not isinstance(values, Mapping):
        raise TypeError(f"values must map control names to values (a dict), or be None; got "
                        f"{type(values).__name__} {str(values)[:60]!r}")
    if values:
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(
                f"values must name controls of {sorted(current)}; got the unknown control "
                f"name(s) {sorted(map(str, unknown))}"
            )
        try:
            checked = {name: specs[name].check(value) for name, value in values.items()}
        except (TypeError, ValueError) as exc:
            if not interactive:  # the caller's argument: say so
                raise type(exc)(f"values[{str(exc).split(' ', 1)[0]!r}]: {exc}") from None
            refused = exc  # shown in place; the explorer opens at the defaults
        else:
            current.update(checked)
    if not interactive:
        update(**current)
        return fig
    if refused is None:
        for name, value in current.items():  # the sliders show what is drawn
            controls[name].value = value
    update(**current)

    import matplotlib.pyplot as plt

    plt.close(fig)  # shown only through the explorer, never twice by the inline backend
    if renderer == "png":
        box = _png_explorer(fig, update, controls, specs)
    else:
        box = _canvas_explorer(fig, update, controls, specs)
    if refused is not None:
        box.errors.outputs = (_stderr(f"{type(refused).__name__}: {refused}"),)
    return box


_UNIT = re.compile(r"\[([^\]]+)\]\s*$")


@dataclass(frozen=True)
class _ControlSpec:
    """What one control accepts, read once when the explorer is built."""

    name: str
    label: str
    kind: str  # "number", "integer", "choice" or "bool"
    low: float = -math.inf
    high: float = math.inf
    unit: str = ""
    options: tuple = ()

    @classmethod
    def of(cls, name: str, control: Any) -> _ControlSpec:
        label = getattr(control, "description", "") or name
        match = _UNIT.search(label)
        unit = match.group(1) if match else ""
        if hasattr(control, "options"):
            options = tuple(o[1] if isinstance(o, tuple) and len(o) == 2 else o
                            for o in control.options)
            return cls(name, label, "choice", options=options)
        if isinstance(control.value, bool):
            return cls(name, label, "bool")
        low, high = getattr(control, "min", -math.inf), getattr(control, "max", math.inf)
        if hasattr(control, "base"):  # FloatLogSlider: min and max are exponents
            low, high = control.base**low, control.base**high
        kind = "integer" if isinstance(control.value, int) else "number"
        return cls(name, label, kind, float(low), float(high), unit)

    def _what(self) -> str:
        return f"{self.name} (the control {self.label!r})"

    def check(self, value: Any) -> Any:
        """Return ``value`` if this control accepts it, else raise naming the control."""
        got = f"got {type(value).__name__} {value!r}"
        if self.kind == "choice":
            if any(value is o or (type(value) is type(o) and value == o)
                   for o in self.options):
                return value
            raise ValueError(f"{self._what()} must be one of {list(self.options)}; {got}: "
                             "choose one of these")
        if self.kind == "bool":
            if isinstance(value, bool) or type(value).__name__ == "bool_":
                return bool(value)
            raise TypeError(f"{self._what()} must be True or False; {got}: tick or untick "
                            "the box, or pass True or False")
        unit = f" {self.unit}" if self.unit else ""
        span = f"[{self.low:g}, {self.high:g}]{unit}"
        if (isinstance(value, bool) or type(value).__name__ == "bool_"
                or not isinstance(value, numbers.Real)):
            raise TypeError(f"{self._what()} must be a real number in {span}; {got}: "
                            "pass a plain number (no quotes, no imaginary part)")
        if not math.isfinite(value):
            raise ValueError(f"{self._what()} must be a finite number in {span}; {got}: "
                             "pass a number in that range (NaN or inf usually comes from a "
                             "division by zero or an undefined value)")
        if self.kind == "integer":
            if float(value) != int(value):
                raise TypeError(f"{self._what()} must be a whole number in {span}; {got}: "
                                "pass an int")
            value = int(value)
        else:
            value = float(value)
        if not self.low <= value <= self.high:
            raise ValueError(f"{self._what()} must lie in {span}; {got}: move the slider "
                             "back or pass a value in that range")
        return value


def _checked(specs: Mapping[str, _ControlSpec], values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: specs[name].check(value) for name, value in values.items()}


def _stderr(text: str) -> dict:
    return {"output_type": "stream", "name": "stderr", "text": text.rstrip("\n") + "\n"}


def _renderer(renderer: str | None) -> str:
    if renderer is None:
        renderer = os.environ.get(_RENDERER_VARIABLE) or "canvas"
        where = f"the environment variable {_RENDERER_VARIABLE}"
    else:
        where = "renderer"
    if renderer not in RENDERERS:
        raise ValueError(f"{where} must be one of {list(RENDERERS)}; got {renderer!r}")
    return renderer


def _values(controls: Mapping[str, Any]) -> dict[str, Any]:
    return {name: control.value for name, control in controls.items()}


class _Coalescer:
    """Run ``action`` once for a burst of calls: the last state wins.

    A call schedules ``action`` on the running asyncio loop (the kernel's), unless one is
    already scheduled; calls that arrive before it runs are folded into that one run, which
    reads the controls' values when it runs, so the last value always wins. Without a
    running loop (scripts, plain tests) ``action`` runs at once.
    """

    def __init__(self, action: Callable[[], None]) -> None:
        self._action = action
        self._scheduled = False
        self.calls = 0  # how often it was called
        self.runs = 0  # how often ``action`` ran

    def __call__(self, change: Any = None) -> None:
        import asyncio

        self.calls += 1
        if self._scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._run()
            return
        self._scheduled = True
        loop.call_soon(self._run)

    def _run(self) -> None:
        self._scheduled = False
        self.runs += 1
        self._action()


def _static_png(fig: Any) -> bytes:
    """Render the figure as the inline backend would show it (a PNG at its dpi)."""
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


def _explorer_box(children: list, static_png: bytes | None):
    import base64

    import ipywidgets as widgets

    class Explorer(widgets.VBox):
        """The explorer's widget; on a static page it is the figure at the default values."""

        def _repr_mimebundle_(self, **kwargs: Any) -> dict:
            data = super()._repr_mimebundle_(**kwargs)
            if static_png:
                data["image/png"] = base64.b64encode(static_png).decode("ascii")
            return data

    box = Explorer(children)
    box.add_class("bmc-explorer")
    return box


def _canvas_explorer(fig: Any, update: Callable[..., None], controls: Mapping[str, Any],
                     specs: Mapping[str, _ControlSpec]):
    import ipywidgets as widgets

    from bmc.widgets._canvas import FigureView
    from bmc.widgets._scene import Scene

    static = _static_png(fig)  # before Scene takes the figure apart into layers
    view = FigureView(Scene(fig))
    errors = widgets.Output()
    state = {"drawn": _values(controls), "failed": False}

    def redraw() -> None:
        values = _values(controls)
        if values == state["drawn"] and not state["failed"]:
            return  # e.g. a burst that came back to where it started
        try:
            checked = _checked(specs, values)
        except (TypeError, ValueError) as exc:  # a refused value: the message, no traceback
            errors.outputs = (_stderr(f"{type(exc).__name__}: {exc}"),)
            state["failed"] = True
            return
        try:
            update(**checked)
            view.apply()
        except Exception:
            # Shown in the explorer, where the student is looking, as a traceback on stderr
            # (set directly, so it shows whichever message the kernel is handling).
            errors.outputs = ({"output_type": "stream", "name": "stderr",
                               "text": traceback.format_exc()},)
            state["failed"] = True
            return
        if errors.outputs:  # a message from a refused value or a failed update
            errors.outputs = ()
        state["drawn"], state["failed"] = values, False

    coalescer = _Coalescer(redraw)
    for control in controls.values():
        control.observe(coalescer, names="value")
    box = _explorer_box([widgets.HBox(list(controls.values())), view, errors], static)
    box.coalescer, box.view, box.errors = coalescer, view, errors  # for tests and benchmarks
    return box


def _png_explorer(fig: Any, update: Callable[..., None], controls: Mapping[str, Any],
                  specs: Mapping[str, _ControlSpec]):
    import ipywidgets as widgets
    from IPython.display import display

    out = widgets.Output()
    errors = widgets.Output()

    def redraw(change: Any = None) -> None:
        try:
            checked = _checked(specs, _values(controls))
        except (TypeError, ValueError) as exc:  # a refused value: the message, in place
            errors.outputs = (_stderr(f"{type(exc).__name__}: {exc}"),)
            return
        errors.outputs = ()
        # Everything runs inside the Output, so an error in ``update`` shows its traceback in
        # the explorer, where the student is looking, instead of only in JupyterLab's log.
        with out:
            out.clear_output(wait=True)
            update(**checked)
            display(fig)

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    box = _explorer_box([widgets.HBox(list(controls.values())), out, errors], None)
    box.errors = errors
    return box


#: Most values :func:`slider_values` lists: a cache of every value of a slider with more
#: would not fill while a student reads the figure (and 1e12 of them took 7.45 GiB).
MAX_SLIDER_VALUES = 100_000


def slider_values(control: Any) -> list[float]:
    """Every value a slider can take, nearest to its current value first.

    Parameters
    ----------
    control : ipywidgets.FloatSlider or ipywidgets.IntSlider
        The slider (``min``, ``max``, ``step`` and ``value`` in its own unit).

    Returns
    -------
    list of float
        The values ``min + k step`` up to ``max``, rounded by :func:`cache_key`, ordered
        by distance from the current value (the order a student reaches them).

    Raises
    ------
    ValueError
        If the slider has more than :data:`MAX_SLIDER_VALUES` values (refused before
        anything is allocated).
    """
    import numpy as np

    try:
        low, high, step, now = (float(getattr(control, a)) for a in ("min", "max", "step",
                                                                     "value"))
    except (AttributeError, TypeError, ValueError):
        raise TypeError("control must be a slider with numbers min, max, step and value "
                        f"(ipywidgets.FloatSlider or IntSlider); got {type(control).__name__}"
                        ) from None
    count = (high - low) / step if step > 0 else math.inf
    if not (math.isfinite(count) and 0 <= count <= MAX_SLIDER_VALUES):
        raise ValueError(
            f"control must be a slider of at most {MAX_SLIDER_VALUES} values (min {low:g} "
            f"to max {high:g} in steps of step > 0); got {count:.3g} values (step {step:g}): "
            "raise its step, or narrow min to max, before caching every value")
    n = int(round(count))
    values = low + step * np.arange(n + 1)
    values = values[values <= high + 1e-9 * step]
    order = np.argsort(np.abs(values - now), kind="stable")
    return [cache_key(v) for v in values[order]]


def cache_key(value: float) -> float:
    """Round a slider value to 9 decimals, so that -3.2499999999999996 hits -3.25's cache.

    Parameters
    ----------
    value : float
        A slider value as it arrives from the browser.

    Returns
    -------
    float
        The value rounded to 9 decimals.
    """
    from bmc._validation import number

    return round(number(value, "value"), 9)


def warm_up(*calls: Callable[[], Any], controls: Mapping[str, Any] | None = None,
            quiet: float = 1.0) -> Any:
    """Run ``calls`` one after the other in a background thread (fill per-slider caches).

    Meant for explorers whose ``update`` caches slow work per slider value: while the
    student reads the figure, the values next to the defaults are computed, so that moving
    a slider finds them ready. While the student moves the sliders the warm-up waits, so
    that it does not slow the updates down. A call that raises stops the warm-up quietly;
    the same error then shows in the explorer when the slider reaches that value.

    Parameters
    ----------
    *calls : callable
        Functions of no argument, in the order to run them.
    controls : mapping of str to ipywidgets.ValueWidget, optional
        The explorer's controls; the next call waits until none has changed for ``quiet``.
    quiet : float, optional
        Time without a control change before the next call runs [s]. Default 1.

    Returns
    -------
    threading.Thread
        The started daemon thread (``join`` it to wait).

    Raises
    ------
    TypeError
        If a call is not callable or ``controls`` is not a mapping of controls (checked
        before the thread starts, so that nothing dies quietly in the background).
    ValueError
        If ``quiet`` is negative or not finite.
    """
    import threading
    import time

    from bmc._validation import positive

    for i, call in enumerate(calls):
        if not callable(call):
            raise TypeError(f"calls[{i}] must be a function of no argument (e.g. lambda: "
                            f"update(angle=30)); got {type(call).__name__} {call!r}")
    if controls is not None and not (isinstance(controls, Mapping) and all(
            hasattr(c, "observe") for c in controls.values())):
        raise TypeError("controls must map names to ipywidgets controls (with observe), or "
                        f"be None; got {type(controls).__name__} {str(controls)[:60]}")
    quiet = positive(quiet, "quiet", unit="s", allow_zero=True)
    last_move = [-float("inf")]

    def moved(change: Any = None) -> None:
        last_move[0] = time.monotonic()

    for control in (controls or {}).values():
        control.observe(moved, names="value")

    def run() -> None:
        for call in calls:
            while (wait := last_move[0] + quiet - time.monotonic()) > 0:
                time.sleep(wait)
            try:
                call()
            except Exception:  # shown in place when the slider gets there
                return

    thread = threading.Thread(target=run, name="bmc-explorer-warm-up", daemon=True)
    thread.start()
    return thread
