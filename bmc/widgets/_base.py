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
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping
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
        ``values`` (or the controls' defaults) once and returns ``fig``: the path CI and
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
    current = {name: control.value for name, control in controls.items()}
    if values:
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(
                f"values has unknown control name(s) {sorted(unknown)}; "
                f"the controls are {sorted(current)}"
            )
        current.update(values)
    update(**current)
    if not interactive:
        return fig

    import matplotlib.pyplot as plt

    plt.close(fig)  # shown only through the explorer, never twice by the inline backend
    if renderer == "png":
        return _png_explorer(fig, update, controls)
    return _canvas_explorer(fig, update, controls)


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


def _canvas_explorer(fig: Any, update: Callable[..., None], controls: Mapping[str, Any]):
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
            update(**values)
            view.apply()
        except Exception:
            # Shown in the explorer, where the student is looking, as a traceback on stderr
            # (set directly, so it shows whichever message the kernel is handling).
            errors.outputs = ({"output_type": "stream", "name": "stderr",
                               "text": traceback.format_exc()},)
            state["failed"] = True
            return
        if state["failed"]:
            errors.outputs = ()
        state["drawn"], state["failed"] = values, False

    coalescer = _Coalescer(redraw)
    for control in controls.values():
        control.observe(coalescer, names="value")
    box = _explorer_box([widgets.HBox(list(controls.values())), view, errors], static)
    box.coalescer, box.view = coalescer, view  # for tests and benchmarks
    return box


def _png_explorer(fig: Any, update: Callable[..., None], controls: Mapping[str, Any]):
    import ipywidgets as widgets
    from IPython.display import display

    out = widgets.Output()

    def redraw(change: Any = None) -> None:
        # Everything runs inside the Output, so an error in ``update`` shows its traceback in
        # the explorer, where the student is looking, instead of only in JupyterLab's log.
        with out:
            out.clear_output(wait=True)
            update(**_values(controls))
            display(fig)

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    return _explorer_box([widgets.HBox(list(controls.values())), out], None)


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
    """
    import numpy as np

    n = int(round((control.max - control.min) / control.step))
    values = control.min + control.step * np.arange(n + 1)
    values = values[values <= control.max + 1e-9 * control.step]
    order = np.argsort(np.abs(values - control.value), kind="stable")
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
    return round(float(value), 9)


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
    """
    import threading
    import time

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
