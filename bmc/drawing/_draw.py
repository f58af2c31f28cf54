"""Drawing primitives of :mod:`bmc.drawing`: segments, arrows, arcs, labels, limits.

Artists that a label must not cover, and the loads that :func:`bmc.plotting.check_figure`
reads back, carry a ``gid`` starting with ``bmc-``: ``bmc-segment``, ``bmc-com``,
``bmc-hinge``; ``bmc-force|<segment>|<symbol>`` (the annotation of a load's arrow),
``bmc-weight|...`` and ``bmc-moment|<segment>|<symbol>`` (the arc of a moment), where
``<segment>`` names the segment drawn (its two end points), so that the same symbol on two
segments is an action and its reaction.
"""

from __future__ import annotations

import numpy as np

from bmc.drawing._base import Arrow, Drawing, Moment, _split_sign
from bmc.drawing._labels import placer
from bmc.plotting import ROLES

__all__: list[str] = []


def __dir__() -> list[str]:
    return sorted(__all__)


FONT = 10.0  # [pt] labels of loads and angles; 8.9 pt when a 7 in figure is shown at 600 px


def _new_axes(ax, figsize=(6.0, 5.0)):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return _check_axes(ax)


def _check_axes(ax):
    """Return ``ax`` if it is Matplotlib axes, else refuse it by name."""
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise TypeError("ax must be Matplotlib axes (fig, ax = plt.subplots()) or None for a "
                        f"new figure; got {type(ax).__name__} {str(ax)[:60]!r}")
    return ax


def _segment_key(p, d) -> str:
    return ",".join(f"{v:.6g}" for v in (*np.asarray(p, float), *np.asarray(d, float)))


def _label(drawing: Drawing, anchor, text: str, *, angle: float, color: str,
           fontsize: float = FONT, boxed: bool = False, gaps=None) -> None:
    """Add a label ``text`` near ``anchor`` [m], placed by the axes' placer.

    ``angle`` is the preferred direction from the anchor [rad on the page].
    """
    style = {"boxstyle": "circle,pad=0.2", "fc": "white", "ec": "0.3"} if boxed else None
    artist = drawing.ax.annotate(text, xy=tuple(np.asarray(anchor, float)), xytext=(0, 0),
                                 textcoords="offset points", fontsize=fontsize, color=color,
                                 ha="center", va="center", bbox=style, zorder=8,
                                 annotation_clip=False)
    if gaps is None:
        placer(drawing.ax).add(artist, angle)
    else:
        placer(drawing.ax).add(artist, angle, gaps)
    drawing.labels.append(text)


def _page_angle(ax, vector) -> float:
    """Direction on the page of a data-space vector (equal scales: the same angle)."""
    return float(np.arctan2(vector[1], vector[0]))


def _arrow(drawing: Drawing, point, delta, *, label: str, text: str | None, vector, kind: str,
           color: str, head_at_point: bool = False, segment: str = "", where: str = "",
           beside: bool = False) -> Arrow:
    """Draw a force arrow from its point of application (or ending there, when it pushes)."""
    point = np.asarray(point, float)
    delta = np.asarray(delta, float)
    tail = point - delta if head_at_point else point
    head = tail + delta
    symbol, reaction = _split_sign(label)
    artist = drawing.ax.annotate(
        "", xy=head, xytext=tail,
        arrowprops={"arrowstyle": "-|>,head_width=0.3,head_length=0.6", "color": color,
                    "lw": 2.0, "shrinkA": 0, "shrinkB": 0},
        zorder=7,  # above the hinges, so that a head ending on a joint stays visible
    )
    artist.set_gid(f"bmc-{kind}|{segment}|{symbol}")
    record = Arrow(label, kind, tail, np.asarray(vector, float), delta, artist, point,
                   symbol, reaction, where)
    drawing.arrows.append(record)
    if text:
        norm = np.hypot(*delta) or 1.0
        if beside:  # beside the middle of the arrow (the weight below the COM)
            side = np.array([delta[1], -delta[0]]) / norm
            side = side if side[0] >= 0 else -side
            _label(drawing, tail + delta / 2, text, angle=_page_angle(drawing.ax, side),
                   color=color)
        else:  # beyond the free end of the arrow
            out = -delta if head_at_point else delta
            _label(drawing, tail if head_at_point else head, text,
                   angle=_page_angle(drawing.ax, out), color=color)
    return record


def _curved(drawing: Drawing, centre, radius: float, start: float, sweep: float, *,
            color: str, lw: float = 1.8, gid: str | None = None):
    """Arc of ``sweep`` rad from angle ``start`` about ``centre``, arrowhead at the end."""
    angles = start + np.linspace(0.0, sweep, 60)
    xy = np.asarray(centre, float) + radius * np.column_stack([np.cos(angles), np.sin(angles)])
    (line,) = drawing.ax.plot(xy[:-3, 0], xy[:-3, 1], color=color, lw=lw, solid_capstyle="butt")
    if gid:
        line.set_gid(gid)
    drawing.ax.annotate("", xy=xy[-1], xytext=xy[-4],
                        arrowprops={"arrowstyle": "-|>,head_width=0.25,head_length=0.5",
                                    "color": color, "lw": lw, "shrinkA": 0, "shrinkB": 0})
    return line, xy


def _moment(drawing: Drawing, centre, value: float, *, label: str, text: str | None,
            radius: float, away: float, segment: str = "", where: str = "") -> Moment:
    """Draw a moment as a 270-degree arc about ``centre``, its gap facing ``away`` [rad].

    ``away`` is the direction of the segment from that point, so the arc does not cross the
    segment. ``value`` [N m] gives the sense; an unknown (``nan``) or a zero is drawn in the
    positive sense, or the negative one when ``label`` names a reaction (``"-M_2"``).
    """
    symbol, reaction = _split_sign(label)
    if np.isnan(value) or value == 0:
        sense = -1 if reaction else 1
    else:
        sense = 1 if value > 0 else -1
    start = away + sense * np.pi / 4
    line, xy = _curved(drawing, centre, radius, start, sense * 1.5 * np.pi,
                       color=ROLES["moment"], gid=f"bmc-moment|{segment}|{symbol}")
    record = Moment(label, np.asarray(centre, float), float(value), sense, line, symbol,
                    reaction, where)
    drawing.moments.append(record)
    if text:
        mid = away + np.pi  # the middle of the arc, opposite the gap
        anchor = np.asarray(centre, float) + radius * np.array([np.cos(mid), np.sin(mid)])
        _label(drawing, anchor, text, angle=mid, color=ROLES["moment"])
    return record


def _com_symbol(ax, centre, radius: float) -> None:
    """Draw the quartered circle that marks a centre of mass."""
    from matplotlib.patches import Circle, Wedge

    for k in range(4):
        ax.add_patch(Wedge(centre, radius, 90 * k, 90 * (k + 1), gid="bmc-com",
                           fc="k" if k % 2 == 0 else "white", ec="k", lw=0.8, zorder=5))
    ax.add_patch(Circle(centre, radius, fc="none", ec="k", lw=1.0, zorder=5, gid="bmc-com"))


def _capsule(ax, p, d, width: float, **kwargs) -> None:
    """Draw a segment as a rounded bar from ``p`` to ``d``."""
    from matplotlib.patches import Polygon

    p, d = np.asarray(p, float), np.asarray(d, float)
    axis = d - p
    length = np.hypot(*axis)
    if length == 0:
        raise ValueError("the segment's proximal and distal points coincide: no segment to draw")
    phi = np.arctan2(axis[1], axis[0])
    half = width / 2
    a1 = phi + np.linspace(np.pi / 2, 3 * np.pi / 2, 20)
    a2 = phi + np.linspace(-np.pi / 2, np.pi / 2, 20)
    ring = np.vstack([p + half * np.column_stack([np.cos(a1), np.sin(a1)]),
                      d + half * np.column_stack([np.cos(a2), np.sin(a2)])])
    style = {"fc": ROLES["segment"], "ec": ROLES["segment_edge"], "lw": 1.2, "zorder": 1,
             "gid": "bmc-segment"} | kwargs
    ax.add_patch(Polygon(ring, closed=True, **style))


def _hinge(ax, centre, radius: float) -> None:
    from matplotlib.patches import Circle

    ax.add_patch(Circle(centre, radius, fc="white", ec="k", lw=1.2, zorder=6, gid="bmc-hinge"))


def _fit(ax, pts: np.ndarray, margin: float, *, resize: bool = False,
         width: float = 6.0, labels: bool = True) -> None:
    """Limits around ``pts``, equal scales; ``resize`` fits a new figure to the content.

    Then (unless ``labels`` is ``False``, for a caller that fits several Axes at once)
    the labels are placed and the limits widened to hold them (:func:`_fit_labels`): a
    label's size is in points, so the room it takes in metres is known only once the axes
    are laid out.
    """
    lo, hi = pts.min(axis=0) - margin, pts.max(axis=0) + margin
    if resize:
        w, h = hi - lo
        ratio = float(np.clip(h / w, 0.45, 1.6)) if w > 0 else 1.0
        ax.figure.set_size_inches(width if ratio <= 1 else max(3.8, width / ratio + 1.0),
                                  min(width * ratio, 6.5) + 0.6)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    if labels:
        _fit_labels(ax)


def _fit_labels(*axes) -> None:
    """Widen the limits of ``axes`` so that their labels, placed freely, lie inside.

    The figure is laid out (its layout engine only: nothing is drawn), the labels placed as
    if the axes had no edge, and the limits widened to hold them with some room; once more,
    since widening shrinks the drawing and the labels then take more metres.
    """
    from bmc.drawing._labels import place

    fitted = [(ax, placer(ax)) for ax in axes if placer(ax).labels]
    if not fitted:
        return
    figure = fitted[0][0].figure
    renderer = figure.canvas.get_renderer() if hasattr(figure.canvas, "get_renderer") else None
    if renderer is None:
        return
    for _ in range(2):
        engine = figure.get_layout_engine()
        if engine is not None:
            engine.execute(figure)
        changed = False
        for ax, labels in fitted:
            ax.apply_aspect()
            place(ax, labels.labels, renderer, bounded=False)
            lo = np.array([min(ax.get_xlim()), min(ax.get_ylim())])
            hi = np.array([max(ax.get_xlim()), max(ax.get_ylim())])
            inverse = ax.transData.inverted()
            # each label with room around it: the axes may still shrink in the layout
            room = 6.0 * figure.dpi / 72.0
            corners = np.vstack([inverse.transform(
                t.get_window_extent(renderer).expanded(1.1, 1.2).padded(room)
                .get_points()) for t, _, _ in labels.labels if t.get_visible()])
            pad = 0.02 * float(np.max(hi - lo))
            new_lo = np.minimum(lo, corners.min(axis=0) - pad)
            new_hi = np.maximum(hi, corners.max(axis=0) + pad)
            if not (np.allclose(new_lo, lo) and np.allclose(new_hi, hi)):
                changed = True
                ax.set_xlim(new_lo[0], new_hi[0])
                ax.set_ylim(new_lo[1], new_hi[1])
        if not changed:
            return
