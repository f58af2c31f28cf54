"""Shared pieces of :mod:`bmc.drawing`: the record of a drawing and the drawing primitives."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bmc._validation import integer

__all__ = ["Arrow", "Drawing", "Moment"]


def __dir__() -> list[str]:
    return sorted(__all__)

_FORCE = "#c0392b"     # joint and contact forces
_GRAVITY = "#1f5fa8"   # weights and g
_MOMENT = "#7d3c98"    # joint moments
_SEGMENT = "#dde6f0"   # segment fill
_ANGLE = "#2e7d32"     # angle arcs


@dataclass
class Arrow:
    r"""One straight arrow of a drawing.

    Attributes
    ----------
    label : str
        Its symbol, as TeX without dollars (for example ``r"\mathbf{F}_1"``).
    kind : str
        ``"force"``, ``"weight"`` or ``"gravity"`` (the direction of g).
    tail : numpy.ndarray, shape (2,)
        Tail of the arrow as drawn [m].
    vector : numpy.ndarray, shape (2,)
        The force [N] (for ``"gravity"``: the unit vector of g).
    delta : numpy.ndarray, shape (2,)
        The arrow as drawn, head minus tail, in data units [m].
    artist : matplotlib.text.Annotation
        The arrow's artist.
    point : numpy.ndarray, shape (2,)
        Point of application [m]: the tail, or the head of a force that pushes on the
        segment (drawn from outside, so that it stays clear of the segment).
    """

    label: str
    kind: str
    tail: np.ndarray
    vector: np.ndarray
    delta: np.ndarray
    artist: Any = None
    point: np.ndarray | None = None


@dataclass
class Moment:
    """One curved (moment) arrow of a drawing.

    Attributes
    ----------
    label : str
        Its symbol, as TeX without dollars.
    centre : numpy.ndarray, shape (2,)
        Point about which it is drawn [m].
    value : float
        The moment [N m], counter-clockwise positive (``nan`` for a symbolic unknown).
    sense : int
        ``+1`` drawn counter-clockwise, ``-1`` clockwise.
    artist : matplotlib.lines.Line2D
        The arc.
    """

    label: str
    centre: np.ndarray
    value: float
    sense: int
    artist: Any = None


@dataclass
class Drawing:
    """What a drawing helper drew, for composing figures and for tests.

    Attributes
    ----------
    ax : matplotlib.axes.Axes
        The Axes drawn in.
    arrows : list of Arrow
        Straight arrows (forces, weights, the direction of g).
    moments : list of Moment
        Curved arrows (moments, angle arcs are not included).
    points : dict of str to numpy.ndarray
        Named points drawn [m], for example ``"com"``, ``"proximal"``, ``"joints"``.
    labels : list of str
        Every text placed (as rendered, with dollars).
    frames : int
        Number of postures drawn (:func:`strobe`), 1 otherwise.
    angles : dict of str to float
        Angles drawn as arcs (:func:`model_sketch`), TeX symbol to value [rad].
    """

    ax: Any
    arrows: list[Arrow] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    points: dict[str, np.ndarray] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    frames: int = 1
    angles: dict[str, float] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"Drawing({len(self.arrows)} arrow(s), {len(self.moments)} moment(s), "
                f"{len(self.labels)} label(s), {self.frames} frame(s))")

    def describe(self) -> str:
        """Text alternative of the drawing, written from the record of what was drawn.

        Every force is given with its magnitude [N] and direction, every moment with its
        value [N m] and sense of rotation, so that a reader who cannot see the figure gets
        the numbers it shows (used by :func:`bmc.plotting.show` as the figure's ``alt``).

        Returns
        -------
        str
            One or more sentences, plain text (TeX symbols without dollars or backslashes).
        """
        parts = []
        if self.frames > 1:
            parts.append(f"{self.frames} postures drawn over one another, fading with time.")
        joints = self.points.get("joints")
        if joints is not None and self.frames == 1:
            parts.append(f"A model of {len(np.atleast_2d(joints)) - 1} segment(s) with its "
                         "joints and centres of mass.")
        if "com" in self.points and "proximal" in self.points:
            parts.append("A free-body diagram of one segment.")
        for a in self.arrows:
            name = _plain(a.label)
            if a.kind == "gravity":
                parts.append(f"Gravity {name} points {_direction(a.vector)}.")
                continue
            size = float(np.hypot(*a.vector))
            parts.append(f"{name}: {_number(size)} N pointing {_direction(a.vector)}.")
        for m in self.moments:
            name = _plain(m.label)
            sense = "counter-clockwise" if m.sense > 0 else "clockwise"
            if np.isnan(m.value):
                parts.append(f"{name}: a moment, drawn {sense}.")
            else:
                parts.append(f"{name}: {_number(abs(m.value))} N m {sense}.")
        for symbol, value in self.angles.items():
            parts.append(f"Angle {_plain(symbol)} = {np.degrees(value):.0f} degrees.")
        return " ".join(parts) or "A drawing with no loads."


def _new_axes(ax, figsize=(6.0, 5.0)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _text(drawing: Drawing, xy, text: str, **kwargs) -> None:
    style = {"fontsize": 10, "ha": "center", "va": "center",
             "bbox": {"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}}
    drawing.ax.text(xy[0], xy[1], text, **(style | kwargs))
    drawing.labels.append(text)


def _arrow(drawing: Drawing, point, delta, *, label: str, text: str | None, vector, kind: str,
           color: str, offset: float, head_at_point: bool = False,
           beside: bool = False) -> None:
    """Draw a force arrow from its point of application (or ending there, when it pushes)."""
    point = np.asarray(point, float)
    delta = np.asarray(delta, float)
    tail = point - delta if head_at_point else point
    head = tail + delta
    artist = drawing.ax.annotate(
        "", xy=head, xytext=tail,
        arrowprops={"arrowstyle": "-|>,head_width=0.3,head_length=0.6", "color": color,
                    "lw": 2.0, "shrinkA": 0, "shrinkB": 0},
        zorder=7,  # above the hinges, so that a head ending on a joint stays visible
    )
    drawing.arrows.append(Arrow(label, kind, tail, np.asarray(vector, float), delta, artist,
                                point))
    if text and beside:  # beside the middle of the arrow (the weight, below the COM)
        norm = np.hypot(*delta) or 1.0
        side = np.array([delta[1], -delta[0]]) / norm
        side = side if side[0] >= 0 else -side
        _text(drawing, tail + delta / 2 + 1.5 * offset * side, text, color=color, ha="left")
    elif text:
        norm = np.hypot(*delta) or 1.0
        # the label sits beyond the free end of the arrow
        out = -delta if head_at_point else delta
        where = (tail if head_at_point else head) + offset * out / norm
        _text(drawing, where, text, color=color,
              ha="left" if out[0] > 0.3 * norm else "right" if out[0] < -0.3 * norm
              else "center",
              va="bottom" if out[1] > 0.3 * norm else "top" if out[1] < -0.3 * norm
              else "center")


def _curved(drawing: Drawing, centre, radius: float, start: float, sweep: float, *,
            color: str, lw: float = 1.8):
    """Arc of ``sweep`` rad from angle ``start`` about ``centre``, arrowhead at the end."""
    angles = start + np.linspace(0.0, sweep, 60)
    xy = np.asarray(centre, float) + radius * np.column_stack([np.cos(angles), np.sin(angles)])
    (line,) = drawing.ax.plot(xy[:-3, 0], xy[:-3, 1], color=color, lw=lw, solid_capstyle="butt")
    drawing.ax.annotate("", xy=xy[-1], xytext=xy[-4],
                        arrowprops={"arrowstyle": "-|>,head_width=0.25,head_length=0.5",
                                    "color": color, "lw": lw, "shrinkA": 0, "shrinkB": 0})
    return line, xy


def _moment(drawing: Drawing, centre, value: float, *, label: str, text: str | None,
            radius: float, start: float) -> None:
    sense = 1 if (np.isnan(value) or value >= 0) else -1
    line, xy = _curved(drawing, centre, radius, start, sense * 1.5 * np.pi, color=_MOMENT)
    drawing.moments.append(Moment(label, np.asarray(centre, float), float(value), sense, line))
    if text:
        mid = np.asarray(centre, float) + 1.55 * radius * np.array(
            [np.cos(start + sense * 0.75 * np.pi), np.sin(start + sense * 0.75 * np.pi)])
        _text(drawing, mid, text, color=_MOMENT)


def _com_symbol(ax, centre, radius: float) -> None:
    """Draw the quartered circle that marks a centre of mass."""
    from matplotlib.patches import Circle, Wedge

    for k in range(4):
        ax.add_patch(Wedge(centre, radius, 90 * k, 90 * (k + 1),
                           fc="k" if k % 2 == 0 else "white", ec="k", lw=0.8, zorder=5))
    ax.add_patch(Circle(centre, radius, fc="none", ec="k", lw=1.0, zorder=5))


def _capsule(ax, p, d, width: float, **kwargs) -> None:
    """Draw a segment as a rounded bar from ``p`` to ``d``."""
    from matplotlib.patches import Polygon

    p, d = np.asarray(p, float), np.asarray(d, float)
    axis = d - p
    length = np.hypot(*axis)
    phi = np.arctan2(axis[1], axis[0])
    half = width / 2
    a1 = phi + np.linspace(np.pi / 2, 3 * np.pi / 2, 20)
    a2 = phi + np.linspace(-np.pi / 2, np.pi / 2, 20)
    ring = np.vstack([p + half * np.column_stack([np.cos(a1), np.sin(a1)]),
                      d + half * np.column_stack([np.cos(a2), np.sin(a2)])])
    style = {"fc": _SEGMENT, "ec": "#4a5a6a", "lw": 1.2, "zorder": 1} | kwargs
    ax.add_patch(Polygon(ring, closed=True, **style))
    if length == 0:
        raise ValueError("the segment's proximal and distal points coincide: no segment to draw")


def _hinge(ax, centre, radius: float) -> None:
    from matplotlib.patches import Circle

    ax.add_patch(Circle(centre, radius, fc="white", ec="k", lw=1.2, zorder=6))


def _fit(ax, pts: np.ndarray, margin: float, *, resize: bool = False) -> None:
    """Limits around ``pts``, equal scales; ``resize`` fits a new figure to the content."""
    lo, hi = pts.min(axis=0) - margin, pts.max(axis=0) + margin
    if resize:
        w, h = hi - lo
        ratio = float(np.clip(h / w, 0.45, 1.6)) if w > 0 else 1.0
        ax.figure.set_size_inches(6.0 if ratio <= 1 else max(3.8, 6.0 / ratio + 1.0),
                                  min(6.0 * ratio, 6.5) + 0.6)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")


def _plain(label: str) -> str:
    r"""Write a TeX symbol as plain words for a text alternative (``\mathbf{F}_1``: ``F_1``)."""
    text = re.sub(r"\\(mathbf|mathrm|boldsymbol|vec|bar|hat)\{([^{}]*)\}", r"\2", label)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return text.replace("{", "").replace("}", "").replace("$", "").strip()


def _direction(vector) -> str:
    """Direction of a planar vector in words and degrees from +x (counter-clockwise)."""
    x, y = (float(v) for v in vector[:2])
    angle = float(np.degrees(np.arctan2(y, x)))
    horizontal = "forward" if x > 1e-9 * (abs(x) + abs(y)) else (
        "backward" if x < -1e-9 * (abs(x) + abs(y)) else "")
    vertical = "up" if y > 1e-9 * (abs(x) + abs(y)) else (
        "down" if y < -1e-9 * (abs(x) + abs(y)) else "")
    words = " and ".join(w for w in (vertical, horizontal) if w) or "nowhere (zero)"
    return f"{words} ({angle:.0f} degrees from the +x axis)"


def _tex(label: str) -> str:
    return f"${label}$"


def _number(value: float) -> str:
    """Three significant digits, never in exponent form for body-sized loads."""
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _value_text(label: str, value: float, unit: str, symbolic: bool) -> str:
    return _tex(label) if symbolic else f"{_tex(label)} = {_number(value)} {unit}"


def _connectivity(n_points: int, parents: Sequence[int] | None,
                  segments: Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """Segments as (proximal, distal) point indices: a chain, a parent list or pairs."""
    if parents is not None and segments is not None:
        raise ValueError("give either parents or segments, not both")
    name = "segments" if segments is not None else "parents"
    if segments is not None:
        pairs = []
        for s in segments:
            if isinstance(s, (str, bytes)) or not hasattr(s, "__len__") or len(s) != 2:
                raise ValueError(f"segments must be (proximal, distal) pairs of point indices; "
                                 f"got {s!r}")
            pairs.append(tuple(integer(i, "segments", what="point index") for i in s))
    elif parents is not None:
        if len(parents) != n_points:
            raise ValueError(f"parents must give one parent index per point ({n_points}), -1 "
                             f"for a root; got {len(parents)}")
        pairs = [(p, j) for j, p in enumerate(
            integer(p, "parents", minimum=-1, what="index of the parent point") for p in parents)
            if p >= 0]
    else:
        pairs = [(j, j + 1) for j in range(n_points - 1)]
    for a, b in pairs:
        if not (0 <= a < n_points and 0 <= b < n_points):
            raise ValueError(f"{name}: segment ({a}, {b}) names a point outside "
                             f"0..{n_points - 1}")
    return pairs
