"""The browser side of an explorer: its controls, its figure and what a screen reader hears.

:class:`FigureView` is one anywidget that holds, for one explorer,

- the **controls**: native ``<input type="range">``, ``<select>`` and checkbox elements,
  each named by its visible ``<label for=...>``, a slider's value rounded to its step and
  read out with its unit (``aria-valuetext`` "30 degrees"), laid out in a grid that keeps
  every slider track at least 150 px wide from a 375 px phone to a 1920 px screen (the
  label goes above the track when a control is narrow);
- the **figure**: with ``mode="canvas"`` the background PNG, a ``<canvas>`` on which the
  browser draws the changing items of a :class:`bmc.widgets._scene.Scene` from data, and
  the foreground PNG (legends) on top; with ``mode="png"`` one ``<img>`` of the whole
  figure, rendered by the kernel. Either way the figure is one element with
  ``role="img"`` whose accessible name is the explorer's description of what it shows now
  (the numbers in it), and a polite live region repeats that description once the values
  have stopped changing for a moment.

Flow: a control change sends ``{"type": "set", "values", "seq"}`` to the kernel. While one
set is being drawn by the kernel, later changes only replace the pending values, which go
as soon as the kernel's answer (a patch or a PNG, carrying the ``seq`` it answers) arrives:
the last value always wins, at most one update waits in the kernel, and a drag or a held
arrow key never builds a queue, however slow the machine. The browser paints a patch at
once, or at the next animation frame when it has painted within this one. After each paint
the view's element carries ``data-version`` (the kernel's patch count drawn) and
``data-frames`` (paints so far); ``data-uid`` names the explorer for the browser tests.

Frames computed ahead (:mod:`bmc.widgets._sweep`): while the pointer is on a slider (or
after a key moved it) and nothing else waits, the browser asks the kernel for the figure
at that slider's positions nearest its value, a few per message, and keeps them by the
other controls' values. A value with such a frame is drawn at once, with no round trip;
the kernel is told once the values rest (``SYNC_AFTER`` in explorer.js), and
``data-busy`` stays ``"1"`` until it has drawn them. ``data-held`` counts the frames
received, ``data-ahead`` the paints drawn from them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["FigureView"]


def __dir__() -> list[str]:
    return sorted(__all__)

_HERE = Path(__file__).resolve().parent  # explorer.js (the renderer), explorer.css


def _split_buffers(items: dict) -> tuple[dict, list, list]:
    """Replace the bytes inside ``items`` by None; return them with their key paths."""
    paths: list = []
    buffers: list = []

    def walk(obj: Any, path: list) -> Any:
        if isinstance(obj, (bytes, bytearray, memoryview)):
            paths.append(path)
            buffers.append(bytes(obj))
            return None
        if isinstance(obj, dict):
            return {k: walk(v, [*path, k]) for k, v in obj.items()}
        if isinstance(obj, list):
            return [walk(v, [*path, i]) for i, v in enumerate(obj)]
        return obj

    return walk(items, []), paths, buffers


class FigureView(anywidget.AnyWidget):
    """An explorer's controls and figure, drawn in the browser (see the module docstring).

    Parameters
    ----------
    controls : list of dict
        One spec per control (name, label, kind, range, step, options), as
        :mod:`bmc.widgets._base` reads them from the ipywidgets the explorer was built with.
    values : dict
        The values the figure shows now.
    description : str
        What the figure shows now, in words and numbers: its accessible name.
    scene : bmc.widgets._scene.Scene, optional
        The figure, split into layers and items (``mode="canvas"``).
    png : bytes, optional
        The whole figure as a PNG (``mode="png"``), with ``size`` its size [px].
    """

    _esm = _HERE / "explorer.js"
    _css = _HERE / "explorer.css"
    uid = traitlets.Unicode("").tag(sync=True)
    mode = traitlets.Unicode("canvas").tag(sync=True)
    size = traitlets.List(traitlets.Int(), [0, 0]).tag(sync=True)
    clips = traitlets.List([]).tag(sync=True)
    layer = traitlets.List(traitlets.Int(), [0, 0, 0, 0]).tag(sync=True)
    background = traitlets.Bytes(b"").tag(sync=True)
    foreground = traitlets.Bytes(b"").tag(sync=True)
    scene = traitlets.Dict({}).tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)
    controls = traitlets.List([]).tag(sync=True)
    state = traitlets.Dict({}).tag(sync=True)

    def __init__(self, controls: list, values: dict, description: str, *, scene: Any = None,
                 png: bytes | None = None, size: tuple[int, int] | None = None,
                 **kwargs: Any) -> None:
        import uuid

        if scene is not None:
            geometry = dict(mode="canvas", size=[scene.width, scene.height], clips=scene.clips,
                            layer=scene.layer, background=scene.background,
                            foreground=scene.foreground, scene=scene.changes())
        else:
            width, height = size
            geometry = dict(mode="png", size=[width, height], layer=[0, 0, width, height],
                            background=png or b"")
        super().__init__(uid=uuid.uuid4().hex, controls=controls,
                         state={"values": dict(values), "description": description},
                         **geometry, **kwargs)
        self._scene = scene
        self.margin = list(scene.margin) if scene is not None else [0, 0, 0, 0]  # [px]
        self.sent_items = 0  # items sent after the first state (for tests and benchmarks)
        self.patches = 0  # messages sent; the browser shows the last one drawn as data-version

    def _remember(self, values: dict, description: str) -> dict:
        """Keep the synced state current for views made later (a reload), without a message."""
        state = self.state
        changed = {}
        if state.get("values") != values:
            state["values"] = changed["values"] = dict(values)
        if state.get("description") != description:
            state["description"] = changed["description"] = description
        return changed

    def apply(self, values: dict | None = None, description: str | None = None, *,
              seq: int | None = None, png: bytes | None = None) -> dict[str, Any]:
        """Send what changed since the last call: items (canvas) or the PNG, values, text.

        ``seq`` is the browser's request this answers (the browser then sends its next
        values); with ``seq=None`` (a change made in the kernel) nothing is sent when
        nothing changed. Returns the items sent (canvas mode).
        """
        values = self.state.get("values", {}) if values is None else values
        description = self.state.get("description", "") if description is None else (
            description)
        told = self._remember(values, description)
        content: dict[str, Any] = {"seq": seq, **told}
        buffers: list = []
        changed: dict = {}
        if self._scene is not None:
            changed = self._scene.changes()
            if changed:
                # The synced trait keeps the full current scene for views created later;
                # it is updated in place, so that only the patch goes over the wire.
                current = self.scene
                for key, item in changed.items():
                    if item is None:
                        current.pop(key, None)
                    else:
                        current[key] = item
                self.sent_items += len(changed)
            items, paths, buffers = _split_buffers(changed)
            content.update(type="patch", items=items, paths=paths)
        else:
            content["type"] = "png"
            if png is not None:
                buffers = [png]
                self._trait_values["background"] = png  # for later views, without a message
        if not changed and png is None and not told and seq is None:
            return changed
        self.patches += 1
        content["version"] = self.patches
        self.send(content, buffers=buffers)
        return changed
