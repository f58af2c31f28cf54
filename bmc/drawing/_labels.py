"""Placing the labels of a drawing where they cover nothing, each time the figure is drawn.

A drawing's labels (the value of a load, an angle, a segment number) are annotations at a
fixed distance in points from an anchor (the free end of an arrow, the middle of an arc, a
segment's middle). Their size is fixed in points while the drawing scales with the axes, so
where a label fits depends on the final size of the axes: a title added later, a figure
laid out again, another panel beside it. :class:`_Placer` is an invisible artist drawn first
in its axes; each time the figure is drawn it tries, for every label in turn, 80 positions
(16 directions, starting with the preferred one, at 5 distances) and keeps the one that
covers the least: other labels and texts, segments, centres of mass and hinges, arrows,
arcs and lines, the edge of the axes. A figure is drawn several times for one picture (the
inline backend's tight crop draws it twice, the figure checker once more); when nothing the
placement depends on has changed since the last draw (the axes' size and limits, the labels,
every line, patch and text of the axes), the placer reuses its last result.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist

__all__: list[str] = []


def __dir__() -> list[str]:
    return sorted(__all__)


# Cost of covering each kind of thing (a label must never hide another label or leave the
# axes; a segment is worse to cover than a thin line) and of not using the preferred spot.
_COST = {"outside": 400.0, "label": 200.0, "shape": 40.0, "arrow": 25.0, "line": 12.0}
_RANK = 0.12       # per candidate away from the preferred one: 80 of them cost less than a line
_CLEAR = 2.5       # [pt] kept free around a label when judging what it covers
_STEPS = (0, 1, -1, 2, -2, 3, -3, 4, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5)  # eighths
_GAPS = (3.0, 9.0, 17.0, 28.0, 40.0)  # [pt] from the anchor


class _Placer(Artist):
    """Invisible artist that places the managed labels of one Axes before they are drawn."""

    zorder = -1000  # drawn before everything else in the axes

    def __init__(self, ax) -> None:
        super().__init__()
        self.axes = ax
        self.labels: list[tuple] = []  # (annotation, prefer [angle, rad, display], gaps)
        self._key = None       # what the last placement depended on (see _signature)
        self._placed: list[tuple] = []  # and its result: (offset [pt], ha, va) per label
        ax.add_artist(self)

    def add(self, text, angle: float, gaps=_GAPS) -> None:
        """Manage annotation ``text`` (offset in points from its anchor).

        ``angle`` is the preferred direction [rad, counter-clockwise from +x on the page].
        """
        self.labels.append((text, float(angle), tuple(gaps)))

    def get_window_extent(self, renderer=None):
        from matplotlib.transforms import Bbox

        return Bbox.null()

    def draw(self, renderer) -> None:
        if self.labels and self.get_visible():
            key = _signature(self.axes, self.labels)
            if key == self._key and len(self._placed) == len(self.labels):
                for (text, _, _), (offset, ha, va) in zip(self.labels, self._placed,
                                                          strict=True):
                    text.xyann = offset
                    text.set_horizontalalignment(ha)
                    text.set_verticalalignment(va)
            else:
                place(self.axes, self.labels, renderer)
                self._key = key
                self._placed = [(tuple(text.xyann), text.get_horizontalalignment(),
                                 text.get_verticalalignment()) for text, _, _ in self.labels]
        self.stale = False


def placer(ax) -> _Placer:
    """Return the :class:`_Placer` of ``ax`` (made on first use)."""
    for artist in ax.artists:
        if isinstance(artist, _Placer):
            return artist
    return _Placer(ax)


def _signature(ax, labels) -> tuple:
    """Return what a placement in ``ax`` depends on, as a comparable tuple.

    The size (not the position: the inline backend's tight crop moves the whole figure) and
    the limits of the axes and the resolution; each label's text, font size, anchor,
    preferred direction and distances; every line, patch and text of the axes (their data,
    visibility and, for texts, position and text). Labels are placed in points from
    anchors in data coordinates, so equal signatures give equal placements.
    """
    box = ax.bbox
    managed = {id(text) for text, _, _ in labels}
    parts: list = [ax.figure.dpi, round(box.width, 6), round(box.height, 6),
                   tuple(ax.viewLim.bounds), ax.get_xscale(), ax.get_yscale()]
    for text, angle, gaps in labels:
        parts.append((id(text), text.get_visible(), text.get_text(), text.get_fontsize(),
                      np.asarray(text.xy, dtype=float).tobytes(), angle, gaps))
    for line in ax.lines:
        parts.append((id(line), line.get_visible(), line.get_linewidth(),
                      np.asarray(line.get_xydata(), dtype=float).tobytes()))
    for patch in ax.patches:
        parts.append((id(patch), patch.get_visible(), str(patch.get_gid()),
                      patch.get_path().vertices.tobytes(),
                      patch.get_patch_transform().get_matrix().tobytes()))
    for text in ax.texts:
        if id(text) in managed:
            continue
        parts.append((id(text), text.get_visible(), text.get_text(), text.get_fontsize(),
                      repr(text.get_position()), repr(getattr(text, "xyann", None)),
                      text.get_horizontalalignment(), text.get_verticalalignment()))
    return tuple(parts)


def _pieces(path) -> list:
    """Split a display path into polylines.

    ``Path.intersects_bbox`` would take the dummy vertex of a ``CLOSEPOLY``, often the
    origin, for a point of the path.
    """
    from matplotlib.path import Path

    pieces = [p for p in path.to_polygons(closed_only=False) if len(p)]
    # each polyline with its extent, for a quick rejection before the exact test
    return [(Path(p), (*p.min(axis=0), *p.max(axis=0))) for p in pieces]


def _obstacles(ax, managed: set[int], renderer):
    """Find what the labels must not cover, in display coordinates.

    Returns ``(shapes, texts)``: for each kind of thing (``"shape"``, ``"line"``,
    ``"arrow"``) its polylines and their extents ``(m, 4)``, and the boxes of the texts that
    are not managed labels.
    """
    found: dict[str, list] = {"shape": [], "line": [], "arrow": []}
    texts = []
    for patch in ax.patches:
        if patch.get_visible() and str(patch.get_gid()).startswith("bmc-"):
            found["shape"] += _pieces(patch.get_transform().transform_path(patch.get_path()))
    for line in ax.lines:
        if line.get_visible() and len(line.get_xydata()):
            found["line"] += _pieces(line.get_transform().transform_path(line.get_path()))
    for text in ax.texts:
        if not text.get_visible():
            continue
        arrow = getattr(text, "arrow_patch", None)
        if arrow is not None and arrow.get_visible():
            text.update_positions(renderer)  # the arrow's ends, as it will be drawn
            found["arrow"] += _pieces(arrow.get_transform().transform_path(arrow.get_path()))
        if id(text) not in managed and text.get_text().strip():
            texts.append(text.get_window_extent(renderer))
    shapes = [(kind, [p for p, _ in pieces], np.array([e for _, e in pieces]))
              for kind, pieces in found.items() if pieces]
    return shapes, texts


def _box(anchor, size, angle: float, gap: float, dpi: float):
    """Display box and alignment of a label ``gap`` pt from ``anchor`` towards ``angle``."""
    c, s = np.cos(angle), np.sin(angle)
    ha = "left" if c > 0.38 else "right" if c < -0.38 else "center"
    va = "bottom" if s > 0.38 else "top" if s < -0.38 else "center"
    x = anchor[0] + gap * c * dpi / 72.0
    y = anchor[1] + gap * s * dpi / 72.0
    w, h = size
    x0 = x - {"left": 0.0, "center": w / 2, "right": w}[ha]
    y0 = y - {"bottom": 0.0, "center": h / 2, "top": h}[va]
    return (x0, y0, x0 + w, y0 + h), ha, va


def _area(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def place(ax, labels, renderer, *, bounded: bool = True) -> None:
    """Move each managed label to its least-covering position (see the module docstring)."""
    from matplotlib.transforms import Bbox

    dpi = ax.figure.dpi
    managed = {id(text) for text, _, _ in labels}
    shapes, texts = _obstacles(ax, managed, renderer)
    frame = ax.get_window_extent(renderer)
    frame = (frame.x0, frame.y0, frame.x1, frame.y1)
    clear = _CLEAR * dpi / 72.0
    placed = [(t.x0 - clear, t.y0 - clear, t.x1 + clear, t.y1 + clear) for t in texts]
    for text, prefer, gaps in labels:
        if not text.get_visible() or not text.get_text().strip():
            continue
        extent = text.get_window_extent(renderer)
        pad = 0.0
        if text.get_bbox_patch() is not None:  # a boxed label: its box around the text
            pad = 0.6 * text.get_fontsize() * dpi / 72.0
        size = (extent.width + pad, extent.height + pad)
        anchor = ax.transData.transform(text.xy)
        best = None
        for rank, (step, gap) in enumerate(
                (step, gap) for gap in gaps for step in _STEPS):
            angle = prefer + step * np.pi / 4
            box, ha, va = _box(anchor, size, angle, gap, dpi)
            area = max(size[0] * size[1], 1.0)
            inside = _area(box, frame) / area
            cost = _RANK * rank
            if bounded and inside < 0.999:
                cost += _COST["outside"] * (2.0 - inside)
            cost += _COST["label"] * sum(_area(box, other) for other in placed) / area
            if best is not None and cost >= best[0]:
                continue
            wide = Bbox.from_extents(box[0] - clear, box[1] - clear, box[2] + clear,
                                     box[3] + clear)
            for kind, paths, ext in shapes:  # extents first, the exact test on the few left
                near = np.nonzero((ext[:, 0] <= wide.x1) & (ext[:, 2] >= wide.x0)
                                  & (ext[:, 1] <= wide.y1) & (ext[:, 3] >= wide.y0))[0]
                if any(paths[i].intersects_bbox(wide, filled=kind == "shape") for i in near):
                    cost += _COST[kind]
            if best is None or cost < best[0]:
                best = (cost, box, angle, gap, ha, va)
            if cost <= _RANK * rank + 1e-9:
                break  # nothing covered: no later candidate can do better
        _, box, angle, gap, ha, va = best
        text.xyann = (gap * np.cos(angle), gap * np.sin(angle))
        text.set_horizontalalignment(ha)
        text.set_verticalalignment(va)
        placed.append((box[0] - clear, box[1] - clear, box[2] + clear, box[3] + clear))
