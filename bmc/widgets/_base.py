"""The one explorer pattern shared by all widgets (figure built once, data updated).

An explorer is a figure whose artists are built once, an ``update`` that sets their data
for one set of control values, and the controls. :func:`explorer` shows them as one widget
(:class:`bmc.widgets._canvas.FigureView`) whose controls are native, labelled browser
controls built from the ipywidgets the explorer describes its controls with (their
``description``, range, step and value; the ipywidgets themselves are not displayed), and
whose figure is drawn by one of two renderers:

``"canvas"`` (default)
    The browser draws the figure from data (:mod:`bmc.widgets._scene`): the static parts
    are two PNG layers made once, and after each ``update`` only the artists whose data
    changed are sent and drawn on a ``<canvas>``. A figure with an artist the canvas cannot
    draw falls back to ``"png"``.
``"png"``
    Every change re-renders the whole figure in the kernel and sends it as a PNG (about
    100 ms more per change). Kept for comparison (the latency benchmark) and as the
    fallback.

Choose per call with ``renderer=``, or for a whole session with the environment variable
``BMC_WIDGETS_RENDERER``. Changes are coalesced in the browser (one update in the kernel at
a time, the last value wins); a change made from Python (``box.controls["g"].value = 3.7``)
is coalesced in the kernel. An unchanged set of values is not recomputed. The figure is
one image for assistive technology: its accessible name is ``describe()``, the explorer's
sentence about what the figure shows now (default: read from the figure's titles, labels
and legend), announced politely once the values rest. The displayed output also carries a
PNG of the figure at the values it was built with, with the same text as its ``alt`` and
as its plain-text form, so that a static page (GitHub, nbviewer, the course site) shows and
describes it. An error raised by ``update`` is shown in place, under the figure, as a
traceback in an ``Output``.

Every value that reaches ``update`` (from the browser, from a control set in Python, from
``values=``) is first checked against its control as it was built: a slider takes a finite
real number (not a bool, a string, a complex number or None) within its ``[min, max]``,
rounded to its step, a dropdown one of its options, a checkbox a bool. A refused value is
shown in place, in the same ``Output``, naming the control, its range with the unit and
what arrived; on the non-interactive path it raises ``TypeError`` (wrong type) or
``ValueError`` (NaN, out of range, unknown option).
"""

from __future__ import annotations

import collections
import functools
import math
import numbers
import os
import re
import time
import traceback
import weakref
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bmc.widgets._widget import explorer_class

__all__ = ["RENDERERS", "cache_key", "explorer", "slider_values"]


def __dir__() -> list[str]:
    return sorted(__all__)

RENDERERS = ("canvas", "png")
"""The renderers :func:`explorer` accepts."""

_RENDERER_VARIABLE = "BMC_WIDGETS_RENDERER"

# How a screen reader says a slider's unit (aria-valuetext "30 degrees"); a unit not listed
# is read as written.
_UNIT_WORDS = {
    "deg": "degrees", "rad": "radians", "s": "seconds", "ms": "milliseconds", "Hz": "hertz",
    "kg": "kilograms", "m": "metres", "cm": "centimetres", "mm": "millimetres",
    "N": "newtons", "N m": "newton metres", "m/s": "metres per second",
    "m/s^2": "metres per second squared", "rad/s": "radians per second", "-": "",
    "%": "percent", "BW": "body weights",
}

# Explorers whose figure can be built again (bmc.widgets' own, see `twinned`), and the
# update of every figure made by the non-interactive path: what the browser tests use to
# render Matplotlib's own image of the same figure at the same values.
_REGISTRY: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_UPDATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TWIN_FIGURES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def explorer(
    fig: Any,
    update: Callable[..., None],
    controls: Mapping[str, Any],
    *,
    interactive: bool = True,
    values: Mapping[str, Any] | None = None,
    renderer: str | None = None,
    describe: Callable[[], str] | None = None,
):
    """Wire controls to a figure whose artists are built once.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, with every artist already created.
    update : callable
        ``update(**values)`` sets the artists' data (``set_data``, ``set_ydata``,
        ``set_text``, axis limits) for one set of control values; it must not create
        new figures.
    controls : mapping of str to ipywidgets.ValueWidget
        One control per keyword argument of ``update``: ``FloatSlider``, ``IntSlider``,
        ``FloatLogSlider``, ``Dropdown`` or ``Checkbox``. Its ``description`` (with the
        unit in brackets, ``"duration [s]"``) is the visible label, its ``value`` the
        default. The explorer draws its own browser controls from them; set a control's
        ``value`` in Python to move the explorer from code.
    interactive : bool, optional
        ``True`` (default) returns the explorer widget. ``False`` applies ``values`` (or the
        controls' defaults) once and returns ``fig``: the path tests and scripts use.
    values : mapping, optional
        Control values to open with (or, non-interactive, to apply), overriding the
        defaults.
    renderer : {"canvas", "png"}, optional
        How the interactive explorer draws (see the module docstring); default: the
        environment variable ``BMC_WIDGETS_RENDERER``, else ``"canvas"``.
    describe : callable, optional
        ``describe()`` returns what the figure shows after the last ``update``, in words
        and numbers (the figure's text alternative); default: its titles, axis labels and
        legend entries.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The widget (interactive) or the updated figure (non-interactive). The widget has
        ``controls`` (the mapping), ``view`` (its :class:`~bmc.widgets._canvas.FigureView`),
        ``errors`` (the ``Output`` under the figure) and ``describe()``.
    """
    from bmc._validation import flag

    interactive = flag(interactive, "interactive")
    renderer = _renderer(renderer)
    specs = {name: _ControlSpec.of(name, control) for name, control in controls.items()}
    current = {name: control.value for name, control in controls.items()}
    if describe is None:
        describe = functools.partial(_describe_default, fig, controls, specs)
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
        _UPDATES[fig] = (update, specs)
        return fig
    for name, value in current.items():  # the controls say what is drawn
        controls[name].value = value
        # Read once, never displayed: the browser draws the controls (closing the comm
        # spares a message per change; the value and its observers keep working).
        controls[name].close()
    update(**current)

    import matplotlib.pyplot as plt

    plt.close(fig)  # shown only through the explorer, never twice by the inline backend
    box = _build(fig, update, controls, specs, describe, renderer)
    if refused is not None:
        box.errors.outputs = (_stderr(f"{type(refused).__name__}: {refused}"),)
    return box


def describe_figure(fig: Any) -> str:
    """Read a figure's text alternative from its texts: titles, axis labels and legends.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.

    Returns
    -------
    str
        "Figure: <suptitle>. Panel 1, <title>: <y label> against <x label>; <legend
        entries>. ..." (the parts a figure has), or "Figure" when it has no text.
    """
    from bmc.widgets._scene import plain_text

    parts = []
    title = fig.get_suptitle() if hasattr(fig, "get_suptitle") else ""
    if title:
        parts.append(plain_text(title))
    axes = [ax for ax in fig.axes if ax.axison or ax.texts]
    for k, ax in enumerate(axes):
        bits = []
        if ax.get_title():
            bits.append(plain_text(ax.get_title()))
        xlabel, ylabel = ax.get_xlabel(), ax.get_ylabel()
        if xlabel or ylabel:
            bits.append(f"{plain_text(ylabel) or 'values'} against "
                        f"{plain_text(xlabel) or 'position'}")
        legend = ax.get_legend()
        if legend is not None:
            labels = [plain_text(t.get_text()) for t in legend.get_texts()]
            bits.append("lines: " + ", ".join(labels))
        if not ax.axison:
            bits += [plain_text(t.get_text()).replace("\n", " ") for t in ax.texts
                     if t.get_text()]
        name = f"Panel {k + 1}" if len(axes) > 1 else "Plot"
        parts.append(f"{name}: " + "; ".join(bits) if bits else name)
    return "Figure. " + ". ".join(parts) if parts else "Figure"


def _describe_default(fig: Any, controls: Mapping[str, Any],
                      specs: Mapping[str, _ControlSpec]) -> str:
    """Say the controls' values, then the figure's texts (:func:`describe_figure`)."""
    values = "; ".join(spec.spoken(controls[name].value) for name, spec in specs.items())
    return f"At {values}. {describe_figure(fig)}"


_UNIT = re.compile(r"\[([^\]]+)\]\s*$")


def _decimals(step: float) -> int:
    """Decimals that show every multiple of ``step`` (0.25 -> 2, 0.005 -> 3, 5 -> 0)."""
    for d in range(10):
        if abs(round(step, d) - step) <= 1e-9 * max(abs(step), 1e-300):
            return d
    return 9


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
    labels: tuple = ()  # the options as shown
    step: float = 0.0  # 0: any value
    base: float = 0.0  # a log slider's base (its range and step are exponents)
    shown: int = -1  # decimals the readout shows (-1: as the step needs)

    @classmethod
    def of(cls, name: str, control: Any) -> _ControlSpec:
        label = getattr(control, "description", "") or name
        match = _UNIT.search(label)
        unit = match.group(1) if match else ""
        if hasattr(control, "options"):
            pairs = [o if isinstance(o, tuple) and len(o) == 2 else (str(o), o)
                     for o in control.options]
            return cls(name, label, "choice", options=tuple(p[1] for p in pairs),
                       labels=tuple(str(p[0]) for p in pairs))
        if isinstance(control.value, bool):
            return cls(name, label, "bool")
        if type(control).__name__ not in ("FloatSlider", "IntSlider", "FloatLogSlider",
                                          "BoundedFloatText", "BoundedIntText"):
            raise TypeError(
                f"controls[{name!r}] must be a FloatSlider, IntSlider, FloatLogSlider, "
                f"Dropdown or Checkbox; got {type(control).__name__}: use one of these")
        low, high = getattr(control, "min", -math.inf), getattr(control, "max", math.inf)
        step = float(getattr(control, "step", 0.0) or 0.0)
        base = 0.0
        if hasattr(control, "base"):  # FloatLogSlider: min, max and step are exponents
            base = float(control.base)
            low, high = control.base**low, control.base**high
        kind = "integer" if isinstance(control.value, int) else "number"
        fmt = re.fullmatch(r"\.(\d+)f", getattr(control, "readout_format", "") or "")
        shown = int(fmt.group(1)) if fmt and fmt.group(0) != ".2f" else -1
        return cls(name, label, kind, float(low), float(high), unit, step=step, base=base,
                   shown=shown)

    def spoken(self, value: Any) -> str:
        """Say the control and its value as a sentence does ("duration 0.6 seconds")."""
        name = _UNIT.sub("", self.label).strip() or self.name
        if self.kind == "bool":
            return f"{name} {'on' if value else 'off'}"
        if self.kind == "choice":
            shown = next((label for label, o in zip(self.labels, self.options, strict=True)
                          if o is value or o == value), str(value))
            return f"{name} {shown}"
        words = _UNIT_WORDS.get(self.unit, self.unit)
        return f"{name} {value:g}{' ' + words if words else ''}"

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

    # --- the browser's side: the control as drawn, values as they travel ---------------------

    def browser(self) -> dict:
        """Return the control as the browser draws it (see bmc.widgets._canvas)."""
        spec = {"name": self.name, "label": self.label}
        if self.kind == "choice":
            return spec | {"kind": "choice", "options": list(self.labels)}
        if self.kind == "bool":
            return spec | {"kind": "bool"}
        words = _UNIT_WORDS.get(self.unit, self.unit)
        if self.base:
            low, high = (math.log(v, self.base) for v in (self.low, self.high))
            return spec | {"kind": "log", "base": self.base, "min": round(low, 9),
                           "max": round(high, 9), "step": self.step or (high - low) / 100,
                           "decimals": _decimals(self.step or 0.01), "words": words}
        step = self.step or (1.0 if self.kind == "integer" else (self.high - self.low) / 100)
        decimals = _decimals(step)
        return spec | {"kind": "range", "min": self.low, "max": self.high, "step": step,
                       "decimals": decimals,
                       "shown": self.shown if self.shown >= 0 else min(decimals, 4),
                       "words": words}

    def to_browser(self, value: Any) -> Any:
        """Return a value as the browser's control holds it (exponent, option index, number)."""
        if self.kind == "choice":
            return next(i for i, o in enumerate(self.options)
                        if value is o or (type(value) is type(o) and value == o))
        if self.kind == "bool":
            return bool(value)
        if self.base:
            return cache_key(math.log(value, self.base))
        return int(value) if self.kind == "integer" else cache_key(value)

    def from_browser(self, value: Any) -> Any:
        """Return a value from the browser's control, on the step, as ``update`` takes it."""
        if self.kind == "choice":
            if (isinstance(value, bool) or not isinstance(value, numbers.Integral)
                    or not 0 <= value < len(self.options)):
                raise ValueError(f"{self._what()} must be one of {list(self.options)}; got "
                                 f"option {value!r}")
            return self.options[int(value)]
        if self.kind == "bool" or not isinstance(value, numbers.Real) or isinstance(
                value, bool):
            return value  # checked (and refused by name) by check()
        if self.base:
            exponent = self._on_step(float(value), *(math.log(v, self.base)
                                                     for v in (self.low, self.high)))
            return cache_key(self.base**exponent)
        value = self._on_step(float(value), self.low, self.high)
        return int(round(value)) if self.kind == "integer" else value

    def _on_step(self, value: float, low: float, high: float) -> float:
        """Round to the nearest step from ``low`` (out of range stays out, for check())."""
        if self.step > 0 and math.isfinite(value) and math.isfinite(low) and (
                low - self.step <= value <= high + self.step):
            value = low + round((value - low) / self.step) * self.step
            value = min(max(value, low), high)  # a step past an end: the end
        return cache_key(value) if math.isfinite(value) else value


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


def _figure_png(fig: Any, **kwargs: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", **kwargs)
    return buffer.getvalue()


class _Explorer:
    """What one explorer does when a value changes: check, update, describe, send."""

    def __init__(self, fig: Any, update: Callable[..., None], controls: Mapping[str, Any],
                 specs: Mapping[str, _ControlSpec], describe: Callable[[], str],
                 view: Any, errors: Any, png: bool) -> None:
        self.fig, self.update, self.controls, self.specs = fig, update, controls, specs
        self.describe, self.view, self.errors, self.png = describe, view, errors, png
        self.drawn = _values(controls)
        self.failed = False
        self.muted = False  # True while values from the browser are written to the controls
        self.seconds: collections.deque = collections.deque(maxlen=512)  # per update [s]
        self.elsewhere = False  # the figure shows a frame computed ahead (bmc.widgets._sweep)
        self.restore_handle = None  # when it goes back to the values drawn

    def restore(self) -> None:
        """Draw the figure at the values drawn last again, after frames computed ahead."""
        if self.restore_handle is not None:
            self.restore_handle.cancel()
            self.restore_handle = None
        if not self.elsewhere:
            return
        try:
            self.update(**self.checked(self.drawn))
        except Exception:  # shown where the student looks, like a failing update
            self.errors.outputs = ({"output_type": "stream", "name": "stderr",
                                    "text": traceback.format_exc()},)
            self.failed = True
        self.elsewhere = False

    def answer(self, seq: int | None) -> None:
        """Answer the browser without drawing (an error, or nothing new to draw)."""
        self.restore()  # the items sent are the figure at the values drawn
        self.view.apply(seq=seq)

    def checked(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Each value as its control accepts it (raises naming the control otherwise)."""
        return _checked(self.specs, values)

    def from_browser(self, values: Any) -> dict[str, Any]:
        """Return the browser's values of the controls it names, as ``update`` takes them.

        Each on its control's step; a sweep's frame and a ``set`` read values alike.
        :meth:`checked` then refuses what a control does not take.
        """
        return {name: self.specs[name].from_browser(value)
                for name, value in dict(values or {}).items() if name in self.specs}

    def browser_values(self, values: Mapping[str, Any]) -> dict:
        return {name: self.specs[name].to_browser(v) for name, v in values.items()}

    def from_kernel(self, change: Any = None) -> None:
        self.draw(None)

    def on_message(self, widget: Any, content: Any, buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "sweep":
            from bmc.widgets import _sweep

            _sweep.answer(self, content)
            return
        if not isinstance(content, dict) or content.get("type") != "set":
            return
        seq = content.get("seq")
        try:
            wanted = self.from_browser(content.get("values"))
            _checked(self.specs, wanted)
        except (TypeError, ValueError) as exc:
            self.show_error(f"{type(exc).__name__}: {exc}")
            self.answer(seq)
            return
        with self.mute():
            for name, value in wanted.items():
                self.controls[name].value = value
        self.draw(seq)

    @contextmanager
    def mute(self):
        self.muted = True
        try:
            yield
        finally:
            self.muted = False

    def show_error(self, text: str) -> None:
        self.errors.outputs = (_stderr(text),)
        self.failed = True

    def draw(self, seq: int | None) -> None:
        values = _values(self.controls)
        if values == self.drawn and not self.failed and not self.elsewhere:
            if seq is not None:
                self.answer(seq)  # e.g. a burst that came back to where it started
            return
        try:
            checked = _checked(self.specs, values)
        except (TypeError, ValueError) as exc:  # a refused value: the message, no traceback
            self.show_error(f"{type(exc).__name__}: {exc}")
            self.answer(seq)
            return
        start = time.perf_counter()
        if self.restore_handle is not None:  # drawn here: no need to put it back later
            self.restore_handle.cancel()
            self.restore_handle = None
        try:
            self.update(**checked)
            text = self.describe()
            png = _figure_png(self.fig) if self.png else None
            self.view.apply(self.browser_values(values), text, seq=seq, png=png)
            self.seconds.append(time.perf_counter() - start)  # for the benchmark
        except Exception:
            # Shown in the explorer, where the student is looking, as a traceback on stderr
            # (set directly, so it shows whichever message the kernel is handling).
            self.errors.outputs = ({"output_type": "stream", "name": "stderr",
                                    "text": traceback.format_exc()},)
            self.failed = True
            self.view.apply(seq=seq)
            return
        if self.errors.outputs:  # a message from a refused value or a failed update
            self.errors.outputs = ()
        self.drawn, self.failed, self.elsewhere = values, False, False


def _build(fig: Any, update: Callable[..., None], controls: Mapping[str, Any],
           specs: Mapping[str, _ControlSpec], describe: Callable[[], str], renderer: str):
    import ipywidgets as widgets

    from bmc.widgets._canvas import FigureView
    from bmc.widgets._scene import Scene

    text = describe()
    browser = [spec.browser() for spec in specs.values()]
    values = {name: specs[name].to_browser(v) for name, v in _values(controls).items()}
    scene = None
    if renderer == "canvas":
        try:
            scene = Scene(fig, static=True)  # the static PNG too, before the layers
        except NotImplementedError:
            renderer = "png"  # an artist the canvas cannot draw: the kernel renders
    static = scene.static if scene is not None else _figure_png(fig, bbox_inches="tight")
    if scene is not None:
        view = FigureView(browser, values, text, scene=scene)
    else:
        view = FigureView(browser, values, text, png=_figure_png(fig),
                          size=(int(round(fig.bbox.width)), int(round(fig.bbox.height))))
    errors = widgets.Output()
    box = explorer_class()([view, errors], static=static, alt=text)
    box.add_class("bmc-explorer")
    runner = _Explorer(fig, update, controls, specs, describe, view, errors,
                       png=scene is None)
    view.on_msg(runner.on_message)
    coalescer = _Coalescer(runner.from_kernel)

    def observed(change: Any) -> None:  # a value set in Python, not from the browser
        if not runner.muted:
            coalescer(change)

    for control in controls.values():
        control.observe(observed, names="value")
    box.controls, box.view, box.errors, box.coalescer = dict(controls), view, errors, coalescer
    box.renderer, box.describe, box.figure = renderer, describe, fig
    box.explorer = runner
    _REGISTRY[view.uid] = box
    return box


def agg_image(uid: str) -> dict:
    """Matplotlib's own PNG of an explorer's figure at its current values, on its canvas.

    For the browser tests: the explorer shown in the page as ``data-uid`` (the view's
    ``uid``) builds an independent copy of its figure (``twin``), applies the values the
    browser shows now, and renders it with Agg at the figure's dpi on the canvas' geometry
    (the figure plus the margins the canvas adds for text sticking out).

    Returns
    -------
    dict
        ``png`` (bytes), ``values`` (as the browser holds them), ``version`` (the patches
        sent: the browser's ``data-version`` once it shows them), ``description``.
    """
    from matplotlib.transforms import Bbox

    box = _REGISTRY[uid]
    if box.twin is None:
        raise LookupError(f"explorer {uid} has no twin (not built by a bmc.widgets function)")
    fig = _TWIN_FIGURES.get(box)
    if fig is None:
        import matplotlib.pyplot as plt

        fig = _TWIN_FIGURES[box] = box.twin()
        plt.close(fig)
    update, specs = _UPDATES[fig]
    update(**_checked(specs, box.explorer.drawn))
    view = box.view
    dpi = fig.dpi
    left, top, right, bottom = view.margin
    width, height = fig.bbox.width, fig.bbox.height
    area = Bbox.from_extents(-left / dpi, -bottom / dpi, (width + right) / dpi,
                             (height + top) / dpi)
    png = _figure_png(fig, dpi=dpi, bbox_inches=area)
    return {"png": png, "values": box.explorer.browser_values(box.explorer.drawn),
            "version": view.patches, "description": view.state.get("description", "")}


def save_agg_image(uid: str, path: str) -> str:
    """Write :func:`agg_image`'s PNG to ``path``; return the rest as JSON (browser tests)."""
    import json

    try:
        shown = agg_image(uid)
    except LookupError as exc:
        return json.dumps({"error": str(exc)})
    with open(path, "wb") as file:
        file.write(shown.pop("png"))
    return json.dumps(shown)


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


