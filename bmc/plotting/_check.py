"""A figure checker: what a teacher would have to redraw, found from the rendered figure.

The figure is drawn once with Matplotlib's Agg renderer; the texts that renderer actually
draws (tick labels outside the view are not) are measured in pixels and compared with each
other and with what is drawn in the axes. The rules and their thresholds are listed in
:func:`check_figure`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

__all__ = ["CVD_VISIONS", "FigureProblem", "check_figure", "colour_distances"]


def __dir__() -> list[str]:
    return sorted(__all__)


MIN_TEXT_PT = 7.0          # [pt] smallest text at the width below
DISPLAY_WIDTH_PX = 600     # [CSS px] a figure as the course website shows it
MIN_COLOUR_DISTANCE = 12.0  # CAM02-UCS units, under normal vision and each simulated CVD
TOLERANCE_PT = 1.0         # [pt] boxes closer than this overlap; less is a touch, not a hide

CVD_VISIONS = ("normal", "deuteranopia", "protanopia")
"""The visions under which two series told apart by colour alone must stay apart."""

_CVD_TYPE = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly"}


@dataclass(frozen=True)
class FigureProblem:
    """One defect of a figure found by :func:`check_figure`.

    Attributes
    ----------
    rule : str
        ``"overlap"`` (two texts), ``"covers"`` (a text or legend over a drawn line, arrow
        or segment), ``"small text"``, ``"action and reaction"`` or ``"colour alone"``.
    message : str
        What is wrong, naming the texts or series involved.
    """

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


def colour_distances(first, second) -> dict[str, float]:
    """Colour distance of two colours for normal vision and simulated colour blindness.

    The colours are converted to CAM02-UCS (a perceptually uniform space: a distance of 1
    is about one just-noticeable difference) as seen with normal vision, and as simulated
    for deuteranopia and protanopia with the matrices of Machado et al. (2009) at full
    severity, using ``colorspacious``.

    Parameters
    ----------
    first, second : color
        Any Matplotlib colour (``"#0072B2"``, ``"C1"``, ``(0.1, 0.2, 0.3)``).

    Returns
    -------
    dict of str to float
        The distance [CAM02-UCS units] under each of :data:`CVD_VISIONS`.

    Notes
    -----
    References: G. M. Machado, M. M. Oliveira and L. A. F. Fernandes (2009), A
    physiologically-based model for simulation of color vision deficiency, IEEE Transactions
    on Visualization and Computer Graphics 15(6), 1291-1298; M. R. Luo, G. Cui and C. Li
    (2006), Uniform colour spaces based on CIECAM02 colour appearance model, Color Research
    and Application 31(4), 320-330.

    Examples
    --------
    >>> from bmc.plotting import colour_distances
    >>> d = colour_distances("tab:red", "tab:green")
    >>> d["normal"] > 30 > d["deuteranopia"]
    True
    """
    try:
        import colorspacious
    except ImportError as error:  # pragma: no cover - a test dependency
        raise ImportError("colour_distances needs colorspacious: python -m pip install "
                          "colorspacious (it is in bmc's 'test' extra)") from error
    from matplotlib.colors import to_rgb

    colours = []
    for name, colour in (("first", first), ("second", second)):
        try:
            colours.append(to_rgb(colour))
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a Matplotlib colour ('#0072B2', 'C1', "
                             f"'tab:blue', an RGB triple in 0..1); got {colour!r}") from None
        if not np.all(np.isfinite(colours[-1])):  # to_rgb lets NaN through
            raise ValueError(f"{name} must be a Matplotlib colour with finite channels in "
                             f"0..1; got {colour!r}")
    rgb = np.array(colours)
    out = {}
    for vision in CVD_VISIONS:
        seen = rgb
        if vision != "normal":
            space = {"name": "sRGB1+CVD", "cvd_type": _CVD_TYPE[vision], "severity": 100}
            seen = np.clip(colorspacious.cspace_convert(rgb, space, "sRGB1"), 0.0, 1.0)
        out[vision] = float(colorspacious.deltaE(seen[0], seen[1], input_space="sRGB1",
                                                 uniform_space="CAM02-UCS"))
    return out


def _drawn_texts(figure):
    """Render the figure; return the renderer and every Text it drew (in drawing order)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not hasattr(figure.canvas, "get_renderer"):  # a Figure() made without pyplot
        FigureCanvasAgg(figure)
    renderer = figure.canvas.get_renderer()
    drawn: dict[int, object] = {}
    original = renderer.draw_text

    def spy(gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if mtext is not None and s.strip():
            drawn.setdefault(id(mtext), mtext)
        return original(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    renderer.draw_text = spy  # on this renderer instance only, for one draw
    try:
        figure.canvas.draw()
    finally:
        del renderer.draw_text
    return renderer, list(drawn.values())


def _name(text) -> str:
    value = " ".join(text.get_text().split())
    return repr(value if len(value) <= 40 else value[:37] + "...")


def _overlap(a, b, tol: float) -> bool:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w > tol and h > tol


def _shrunk(box, tol: float):
    from matplotlib.transforms import Bbox

    return Bbox.from_extents(box.x0 + tol, box.y0 + tol, box.x1 - tol, box.y1 - tol)


def _obstacles(ax):
    """Find what a text must not cover in ``ax``: (description, path, filled, artist)."""
    out = []
    for line in ax.lines:
        if not line.get_visible() or len(line.get_xydata()) == 0:
            continue
        if line.get_transform() != ax.transData and not str(line.get_gid()).startswith("bmc-"):
            continue  # axhline/axvline: reference lines across the axes, like grid lines
        path = line.get_transform().transform_path(line.get_path())
        what = line.get_label() if not line.get_label().startswith("_") else "a line"
        if line.get_linestyle() in ("None", " ", ""):
            out.append((f"the markers of {what}", path, "points", line))
        else:
            out.append((what if what == "a line" else f"line {what!r}", path, False, line))
    for patch in ax.patches:
        gid = str(patch.get_gid())
        if patch.get_visible() and gid.startswith("bmc-"):
            path = patch.get_transform().transform_path(patch.get_path())
            out.append((gid.split("|")[0].removeprefix("bmc-").replace("-", " "), path, True,
                        patch))
    for text in ax.texts:
        arrow = getattr(text, "arrow_patch", None)
        if arrow is not None and text.get_visible() and arrow.get_visible():
            path = arrow.get_transform().transform_path(arrow.get_path())
            out.append(("an arrow", path, False, text))
    return out


def _covers(box, path, filled, pad: float) -> bool:
    from matplotlib.path import Path

    if filled == "points":
        pts = path.vertices
        return bool(np.any((pts[:, 0] > box.x0 - pad) & (pts[:, 0] < box.x1 + pad)
                           & (pts[:, 1] > box.y0 - pad) & (pts[:, 1] < box.y1 + pad)))
    # polyline by polyline: Path.intersects_bbox takes the dummy vertex of a CLOSEPOLY
    # (often the origin) for a point of the path
    return any(Path(p).intersects_bbox(box, filled=filled)
               for p in path.to_polygons(closed_only=False) if len(p))


def _sense(xy: np.ndarray) -> int:
    """+1 for an arc drawn counter-clockwise, -1 clockwise (turning of its chords)."""
    from bmc.kinematics import cross2

    d = np.diff(np.asarray(xy, float), axis=0)
    return int(np.sign(np.sum(cross2(d[:-1], d[1:]))))


def _loads(figure):
    """Find the loads drawn by :mod:`bmc.drawing`: (kind, segment, symbol, way drawn).

    Their artists carry the gid ``bmc-force|segment|symbol`` or ``bmc-moment|...``.
    """
    out = []
    for ax in figure.axes:
        for text in ax.texts:
            gid = str(text.get_gid())
            if gid.startswith("bmc-force|"):
                _, segment, symbol = gid.split("|", 2)
                out.append(("force", segment, symbol,
                            np.subtract(text.xy, text.xyann).astype(float)))
        for line in ax.lines:
            gid = str(line.get_gid())
            if gid.startswith("bmc-moment|"):
                _, segment, symbol = gid.split("|", 2)
                out.append(("moment", segment, symbol, _sense(line.get_xydata())))
    return out


def _action_reaction(figure) -> list[FigureProblem]:
    problems = []
    for a, b in itertools.combinations(_loads(figure), 2):
        if a[0] != b[0] or a[2] != b[2] or a[1] == b[1]:
            continue
        if a[0] == "moment":
            alike = a[3] == b[3]
        else:
            norm = np.hypot(*a[3]) * np.hypot(*b[3])
            alike = norm == 0 or float(a[3] @ b[3]) / norm > -0.999  # within 2.6 degrees
        if alike:
            what = "moment" if a[0] == "moment" else "force"
            problems.append(FigureProblem(
                "action and reaction",
                f"the {what} ${a[2]}$ is drawn the same way on two segments; the reaction "
                "on the neighbouring segment must be drawn opposite (Newton's third law)"))
    return problems


def _series(ax):
    """Series that the legend of ``ax`` tells apart: label -> (colour, line style, marker)."""
    from matplotlib.colors import to_hex

    seen = {}
    for line in ax.lines:
        label = line.get_label()
        if line.get_visible() and label and not label.startswith("_"):
            seen.setdefault(label, (to_hex(line.get_color()), line.get_linestyle(),
                                    line.get_marker() or "None"))
    for coll in ax.collections:
        label = coll.get_label()
        colours = coll.get_facecolor()
        if coll.get_visible() and label and not label.startswith("_") and len(colours):
            kind = "markers" if type(coll).__name__ == "PathCollection" else "area"
            seen.setdefault(label, (to_hex(colours[0]), kind, kind))
    return seen


def _colour_alone(figure, threshold: float) -> list[FigureProblem]:
    problems = []
    for ax in figure.axes:
        for (la, a), (lb, b) in itertools.combinations(_series(ax).items(), 2):
            if a[1:] != b[1:]:
                continue  # another cue: line style or marker
            distances = colour_distances(a[0], b[0])
            vision, worst = min(distances.items(), key=lambda kv: kv[1])
            if worst < threshold:
                problems.append(FigureProblem(
                    "colour alone",
                    f"series {la!r} and {lb!r} have the same line style and marker and "
                    f"colours only {worst:.1f} apart under {vision} (CAM02-UCS; at least "
                    f"{threshold:g} needed): give them different line styles or markers"))
    return problems


def check_figure(figure, *, min_text: float = MIN_TEXT_PT, width: float = DISPLAY_WIDTH_PX,
                 colour_distance: float = MIN_COLOUR_DISTANCE) -> list[FigureProblem]:
    r"""Find what a teacher would redraw in a figure: overlaps, tiny text, loads, colours.

    The figure is rendered once (Agg); the rules apply to what is drawn:

    1. **overlap**: no two texts (titles, axis and tick labels, annotations, legend entries)
       overlap by more than 1 pt in both directions (text boxes include the ascent and
       descent of their line, so touching lines share a fraction of a point);
    2. **covers**: no text or legend box (shrunk by 1 pt) crosses a line drawn in data
       coordinates, an arrow, or a segment, centre of mass or hinge of :mod:`bmc.drawing`
       (reference lines across the whole axes, ``axhline``/``axvline``, are background like
       grid lines; shaded spans and other patches too);
    3. **small text**: shown ``width`` pixels wide (600 CSS px: the course website shows a
       figure 520-620 px wide on a computer, and keeps it 600 px wide on a phone, where
       it scrolls sideways), no text is smaller than ``min_text`` points (7 pt). The width
       is that of the picture a notebook stores (the inline backend crops to the drawn
       content, ``bbox_inches="tight"``), so text of ``s`` pt in a picture ``W`` in wide
       shows at ``6.25 s / W`` pt; a picture narrower than ``width`` (``W`` times the
       figure's dpi) is never enlarged: it shows at its own size, its text at ``s dpi / 96``;
    4. **action and reaction**: a load of :mod:`bmc.drawing` named alike on two segments
       (for example ``M_2`` on the upper arm and on the forearm) is drawn opposite: forces
       within 2.6 degrees of antiparallel, moments with opposite senses of rotation, read
       from the drawn arrows and arcs;
    5. **colour alone**: two series of one Axes (different legend labels) with the same
       line style and marker differ in colour by at least ``colour_distance`` CAM02-UCS units
       (12) under normal vision, deuteranopia and protanopia (:func:`colour_distances`).
       12 units keep apart every pair of the Okabe-Ito palette, designed for colour-vision
       deficiency (its closest pairs: 14.0 under protanopia, 14.8 under deuteranopia) and
       fail Matplotlib's default orange and green (``C1``, ``C2``) under protanopia (1.6)
       and its red and green (``tab:red``, ``tab:green``) under deuteranopia (5.2). Series
       in different panels are told apart by their panel.

    Parameters
    ----------
    figure : matplotlib.figure.Figure or bmc.drawing.Drawing
        The figure (or a drawing, whose figure is checked).
    min_text : float, optional
        Smallest text size [pt] at ``width``. Default 7.
    width : float, optional
        Width at which the figure is shown [CSS px, 96 per inch]. Default 600.
    colour_distance : float, optional
        Smallest colour distance [CAM02-UCS units] of series told apart by colour alone.
        Default 12.

    Returns
    -------
    list of FigureProblem
        Empty for a figure without defects.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from bmc.plotting import check_figure
    >>> fig, ax = plt.subplots(figsize=(6, 3))
    >>> _ = ax.plot([0, 1], [0, 1], label="knee")
    >>> _ = ax.text(0.5, 0.5, "on the line")
    >>> [p.rule for p in check_figure(fig)]
    ['covers']
    >>> plt.close(fig)
    """
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.transforms import Bbox

    from bmc._validation import positive

    min_text = positive(min_text, "min_text", unit="pt")
    width = positive(width, "width", unit="CSS px")
    if not isinstance(figure, Figure) and hasattr(figure, "ax"):
        figure = figure.ax.figure
    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a Matplotlib Figure or a drawing; got "
                        f"{type(figure).__name__}")
    renderer, texts = _drawn_texts(figure)
    tol = TOLERANCE_PT * figure.dpi / 72.0
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    problems = []
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        if _overlap(box_a, box_b, tol):
            problems.append(FigureProblem("overlap", f"text {_name(a)} overlaps text "
                                                     f"{_name(b)}"))
    # texts and legends over what the axes draw
    legends = [c for ax in figure.axes for c in ax.get_children() if isinstance(c, Legend)]
    in_legend = {id(t) for lg in legends for t in [*lg.get_texts(), lg.get_title()]}
    covering = [(f"text {_name(t)}", box, t) for t, box in boxes if id(t) not in in_legend]
    covering += [("the legend", lg.get_window_extent(renderer), lg) for lg in legends
                 if lg.get_visible()]
    for ax in figure.axes:
        area = ax.get_window_extent(renderer)
        obstacles = _obstacles(ax)
        for what, box, artist in covering:
            inner = _shrunk(box, tol)
            if inner.width <= 0 or inner.height <= 0 or not _overlap(inner, area, 0.0):
                continue
            for name, path, filled, owner in obstacles:
                if owner is artist:
                    continue  # an annotation's own arrow
                clip = Bbox.intersection(inner, area) if owner.get_clip_on() else inner
                if clip is None:
                    continue
                if _covers(clip, path, filled, 0.5 * tol):
                    problems.append(FigureProblem("covers", f"{what} covers {name}"))
                    break
    # text size as the site shows the picture
    tight = figure.get_tightbbox(renderer)
    shown_width = tight.width + 2 * 0.1  # [in] savefig's pad_inches
    # the site never enlarges a picture: one narrower than ``width`` shows at its own size
    shown_px = min(width, shown_width * figure.dpi)
    scale = shown_px / (96.0 * shown_width)  # displayed px per CSS px of a 96-dpi inch
    small = {}
    for text, _ in boxes:
        size = text.get_fontsize() * scale
        if size < min_text - 1e-9:
            small.setdefault(round(size, 1), []).append(_name(text))
    for size, names in sorted(small.items()):
        problems.append(FigureProblem(
            "small text", f"{len(names)} text(s) show at {size:.1f} pt at {shown_px:.0f} px "
            f"(the picture is {shown_width:.1f} in wide; at least {min_text:g} pt needed): "
            + ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")))
    problems += _action_reaction(figure)
    problems += _colour_alone(figure, colour_distance)
    return list(dict.fromkeys(problems))  # once each (panels repeat the same series)
