"""Showing a figure in a notebook with its text alternative (and checking it, when asked)."""

from __future__ import annotations

import base64
import html
import io
import os
import warnings
from collections.abc import Sequence

from bmc._validation import flag

__all__ = ["CHECK_VARIABLE", "FigureWarning", "cropped_png", "figure_html", "show", "tight_png"]


def __dir__() -> list[str]:
    return sorted(__all__)


CHECK_VARIABLE = "BMC_FIGURE_CHECK"
"""Environment variable that makes :func:`show` check every figure it shows.

``"error"``: a figure with a defect (see :func:`bmc.plotting.check_figure`) raises
:class:`ValueError` naming each defect, so the notebook run fails (what ``pytest --nbval``
should see once every notebook passes); ``"warn"``: a :class:`FigureWarning` instead;
unset, empty or ``"off"``: no check (what a student gets).
"""


class FigureWarning(UserWarning):
    """A figure shown by :func:`show` has a defect (``BMC_FIGURE_CHECK=warn``)."""


def _resolve(figure, alt: str | None):
    """Return the Matplotlib figure to show and its text alternative."""
    from matplotlib.figure import Figure

    if figure is None:
        import matplotlib.pyplot as plt

        figure = plt.gcf()
    drawings = []
    if not isinstance(figure, Figure):
        items = figure if isinstance(figure, Sequence) and not isinstance(figure, str) \
            else [figure]
        if items and all(callable(getattr(d, "describe", None)) and hasattr(d, "ax")
                         for d in items):
            drawings = list(items)
            figures = {id(d.ax.figure) for d in drawings}
            if len(figures) != 1:
                raise ValueError("the drawings given to show must share one figure; got "
                                 f"{len(figures)} figures: show each separately")
            figure = drawings[0].ax.figure
        else:
            raise TypeError("figure must be a Matplotlib Figure, a bmc.drawing.Drawing or a "
                            f"list of drawings of one figure; got {type(figure).__name__}")
    text = alt if alt is not None else " ".join(d.describe() for d in drawings) or None
    if not isinstance(text, str) or not text.strip():
        raise TypeError("alt must be a sentence saying what the figure shows, with its key "
                        "values and units (the text alternative a screen reader reads); "
                        f"got {text!r}")
    return figure, " ".join(text.split())


def _check(figure) -> None:
    """Check the figure when ``BMC_FIGURE_CHECK`` asks for it."""
    mode = os.environ.get(CHECK_VARIABLE, "").strip().lower()
    if mode in ("", "off", "0", "no"):
        return
    if mode not in ("warn", "error"):
        raise ValueError(f"{CHECK_VARIABLE} must be 'error', 'warn' or 'off'; got {mode!r}")
    from bmc.plotting._check import check_figure

    problems = check_figure(figure)
    if not problems:
        return
    title = figure.get_suptitle() or next((ax.get_title() for ax in figure.axes
                                           if ax.get_title()), "untitled")
    message = (f"figure {title!r} has {len(problems)} defect(s):\n  "
               + "\n  ".join(str(p) for p in problems))
    if mode == "error":
        raise ValueError(message)
    warnings.warn(message, FigureWarning, stacklevel=3)


def _inline_png(shell, figure) -> str | None:
    """Return the PNG the inline backend would show (base64), drawn once; or None.

    The inline backend saves a figure with ``bbox_inches="tight"``, which draws it twice
    (once to measure its tight box, once to render the cropped picture), each time running
    the layout engine. Here the figure is drawn once at full size and the picture cropped
    to the same box: the same picture (up to a fraction of a pixel of shift), in about
    two thirds of the time. ``None`` (the caller then asks the display formatter)
    unless the notebook shows figures exactly as the inline backend does by default (PNG
    only, ``bbox_inches="tight"``, no retina), the savefig settings follow the figure, and
    the tight box lies inside the figure.
    """
    import functools

    from IPython.core import pylabtools

    formatters = shell.display_formatter.formatters
    try:
        png_format = formatters["image/png"].lookup(figure)
    except KeyError:
        return None
    if not (isinstance(png_format, functools.partial) and png_format.func is
            pylabtools.print_figure and not png_format.args and png_format.keywords == {
                "fmt": "png", "base64": True, "bbox_inches": "tight"}):
        return None
    for mime in ("image/svg+xml", "image/jpeg", "application/pdf"):
        try:
            formatters[mime].lookup(figure)
        except KeyError:
            continue
        return None  # another picture format is asked for as well
    if not (figure.axes or figure.lines):
        return None  # the backend shows nothing for an empty figure
    png = tight_png(figure, fallback=False)
    return None if png is None else base64.b64encode(png).decode("ascii")


def tight_png(figure, *, fallback: bool = True) -> bytes | None:
    """Return the PNG of a figure cropped to its tight box, drawn once.

    What ``figure.savefig(buffer, format="png", bbox_inches="tight")`` gives at the
    figure's dpi; savefig draws the figure twice (once to measure the tight box, once to
    draw the cropped picture, each time with the layout engine), here it is drawn once
    and the picture cut with :func:`cropped_png`.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure on an Agg canvas.
    fallback : bool, optional
        When the picture cannot be cut from one drawing (savefig settings that do not
        follow the figure, or text sticking out of it), return savefig's picture (default)
        or ``None``.

    Returns
    -------
    bytes or None
        The PNG picture.
    """
    import matplotlib as mpl
    from matplotlib.figure import Figure

    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a Matplotlib Figure; got {type(figure).__name__}")
    fallback = flag(fallback, "fallback")
    rc = mpl.rcParams
    usable = rc["savefig.dpi"] in ("figure", figure.dpi) and not (
        rc["savefig.transparent"] or rc["savefig.facecolor"] != "auto"
        or rc["savefig.edgecolor"] != "auto" or rc["savefig.bbox"] is not None
        or not callable(getattr(figure.canvas, "buffer_rgba", None)))
    if usable:
        figure.canvas.draw()
        tight = figure.get_tightbbox(figure.canvas.get_renderer())
        width, height = figure.get_size_inches()
        if tight.x0 >= 0 and tight.y0 >= 0 and tight.x1 <= width and tight.y1 <= height:
            return cropped_png(figure, tight.padded(rc["savefig.pad_inches"]))
    if not fallback:
        return None
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()


def cropped_png(figure, box) -> bytes:
    """Return the PNG of the part ``box`` of a figure just drawn on its Agg canvas.

    What ``figure.savefig(buffer, format="png", bbox_inches=box)`` gives (at the figure's
    dpi, with its face colour), cut from the canvas' last drawing instead of drawn again
    (savefig draws the figure once more, shifted by a fraction of a pixel: the two
    pictures differ only in the antialiased edges of lines and glyphs). The box may reach
    past the figure's edge (the padding of a tight box): there the picture is the
    figure's face.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure on an Agg canvas, drawn (``figure.canvas.draw()``) since its last change.
    box : matplotlib.transforms.BboxBase
        The part to keep [in], in figure inches from the lower left corner.

    Returns
    -------
    bytes
        The PNG picture.

    Raises
    ------
    TypeError
        If ``figure`` is not a Matplotlib figure on an Agg canvas or ``box`` not a Bbox.
    ValueError
        If the figure was never drawn, or ``box`` is empty, not finite or reaches farther
        past the figure than the figure's own size (a box in pixels rather than inches).
    """
    import numpy as np
    from matplotlib import colors as mcolors
    from matplotlib import image as mimage
    from matplotlib.figure import Figure
    from matplotlib.transforms import BboxBase

    if not isinstance(figure, Figure) or not callable(getattr(figure.canvas, "buffer_rgba",
                                                              None)):
        raise TypeError("figure must be a Matplotlib Figure on an Agg canvas; got "
                        f"{type(figure).__name__}")
    if not isinstance(box, BboxBase):
        raise TypeError("box must be a matplotlib.transforms.Bbox in figure inches (e.g. "
                        f"figure.get_tightbbox().padded(0.1)); got {type(box).__name__} {box!r}")
    width, height = figure.get_size_inches()
    x0, y0, x1, y1 = (float(v) for v in box.extents)
    if not (np.all(np.isfinite(box.extents)) and x1 > x0 and y1 > y0
            and -width <= x0 and x1 <= 2 * width and -height <= y0 and y1 <= 2 * height):
        raise ValueError(f"box [in] must be a non-empty box of finite extents within the "
                         f"figure ({width:g} x {height:g} in), or past its edge by at most the "
                         f"figure's size (its padding); got extents {[x0, y0, x1, y1]!r}: give "
                         "it in inches (pixels divided by figure.dpi), from the lower left "
                         "corner")
    try:
        rgba = np.asarray(figure.canvas.buffer_rgba())
    except AttributeError:  # Agg has no renderer before the first drawing
        raise ValueError("figure must have been drawn on its canvas (figure.canvas.draw()) "
                         "before its picture is cut; got a figure never drawn") from None
    rows, cols = rgba.shape[:2]
    scale = rows / figure.get_size_inches()[1]  # [px/in]: the figure's dpi
    # as Agg does for the cropped figure: whole pixels, the box's lower left corner kept
    x0, y1 = int(round(box.x0 * scale)), rows - int(round(box.y0 * scale))
    x1, y0 = x0 + int(box.width * scale), y1 - int(box.height * scale)
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"box [in] must be at least one pixel ({1 / scale:.3g} in) wide and "
                         f"high; got {box.width:g} x {box.height:g} in")
    face = np.round(255 * np.array(mcolors.to_rgba(figure.get_facecolor()))).astype(np.uint8)
    picture = np.empty((y1 - y0, x1 - x0, 4), dtype=np.uint8)
    picture[...] = face
    top, left = max(y0, 0), max(x0, 0)
    bottom, right = min(y1, rows), min(x1, cols)
    picture[top - y0:bottom - y0, left - x0:right - x0] = rgba[top:bottom, left:right]
    buffer = io.BytesIO()
    mimage.imsave(buffer, picture, format="png", dpi=figure.dpi)
    return buffer.getvalue()


def figure_html(png: bytes | str, alt: str, caption: str | None = None, *,
                width: int | None = None, height: int | None = None) -> str:
    r"""HTML of a picture with its text alternative: ``<figure><img alt><figcaption>``.

    The form :func:`show` puts in a notebook's output as ``text/html``: JupyterLab shows it
    (its sanitizer keeps a ``data:`` image and its ``alt``, trusted or not) and so does the
    course website (myst-nb prefers ``text/html`` to ``image/png``).

    Parameters
    ----------
    png : bytes or str
        The PNG picture, as bytes or already base64-encoded.
    alt : str
        The text alternative (escaped here).
    caption : str, optional
        A caption shown below the picture (escaped here).
    width, height : int, optional
        Size to show the picture at [CSS px] (for a high-resolution PNG).

    Returns
    -------
    str
        One ``<figure class="bmc-figure">`` element.

    Examples
    --------
    >>> from bmc.plotting import figure_html
    >>> figure_html(b"\x89PNG", 'F = 12 N, "up"', "A caption")[:60]
    '<figure class="bmc-figure" style="margin: 0"><img src="data:'
    """
    for name, value, optional in (("png", png, False), ("alt", alt, False),
                                  ("caption", caption, True)):
        if not (isinstance(value, str) or (name == "png" and isinstance(value, bytes))
                or (optional and value is None)):
            raise TypeError(f"{name} must be {'bytes or ' if name == 'png' else ''}text (str)"
                            f"{' or None' if optional else ''}; got {type(value).__name__} "
                            f"{str(value)[:60]!r}")
    source = base64.b64encode(png).decode("ascii") if isinstance(png, bytes) else png
    size = "".join(f' {key}="{int(value)}"' for key, value in (("width", width),
                                                              ("height", height))
                   if value is not None)
    text = html.escape(" ".join(alt.split()), quote=True)
    figcaption = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return (f'<figure class="bmc-figure" style="margin: 0">'
            f'<img src="data:image/png;base64,{source}" alt="{text}"{size}>{figcaption}'
            "</figure>")


def show(figure=None, *, alt: str | None = None, caption: str | None = None) -> None:
    """Show a figure in the notebook with its text alternative, then close it.

    Every figure of the course carries a text alternative: what is drawn and the key values,
    for a reader who cannot see it (WCAG 2.1, success criterion 1.1.1). The output holds
    three forms of one picture:

    - ``text/html``: ``<figure>`` with the PNG as ``<img alt="...">`` and the caption as
      ``<figcaption>``. JupyterLab (trusted or not: its sanitizer keeps both) and the course
      website (myst-nb) show this form, so the ``alt`` reaches a screen reader;
    - ``image/png`` with ``alt`` and ``caption`` in its output metadata (nbconvert writes that
      ``alt``; JupyterLab 4 and myst-nb 1.4 ignore it);
    - ``text/plain``: the text alternative itself (text-only front ends).

    When the environment variable ``BMC_FIGURE_CHECK`` is ``"error"`` (or ``"warn"``), the
    figure is first checked with :func:`bmc.plotting.check_figure`: overlapping text, text
    over a drawn line or segment, text below 7 pt at 600 px, action and reaction drawn alike,
    series told apart by colour alone.

    Parameters
    ----------
    figure : matplotlib.figure.Figure, bmc.drawing.Drawing or list of Drawing, optional
        The figure to show; or a drawing, or the drawings of one figure (for example the
        panels of :func:`bmc.drawing.lower_limb_diagrams`): their figure is shown and, unless
        ``alt`` is given, their :meth:`~bmc.drawing.Drawing.describe` is the text
        alternative. Default: the current figure.
    alt : str, optional
        The text alternative: what the figure shows, with its key numbers and units (it may
        include :func:`bmc.plotting.describe_figure`). Required unless ``figure`` is a
        drawing.
    caption : str, optional
        A one-line caption, shown below the figure.

    Raises
    ------
    TypeError
        If ``figure`` is neither a figure nor drawings, or no text alternative is given.
    ValueError
        If ``BMC_FIGURE_CHECK=error`` and the figure has a defect.
    """
    import matplotlib.pyplot as plt

    figure, text = _resolve(figure, alt)
    if caption is not None and (not isinstance(caption, str) or not caption.strip()):
        raise TypeError(f"caption must be a non-empty sentence or None; got {caption!r}")
    caption = " ".join(caption.split()) if caption else None
    try:
        _check(figure)
        try:
            from IPython import get_ipython
            from IPython.display import publish_display_data
        except ImportError:  # plain Python: nothing to display into
            return
        shell = get_ipython()
        if shell is None:
            return
        png = _inline_png(shell, figure)
        if png is not None:  # the inline backend's picture, drawn once
            data, metadata = {"image/png": png}, {}
        else:
            data, metadata = shell.display_formatter.format(figure)
        png = data.get("image/png")
        out = {k: v for k, v in data.items() if k.startswith("image/")}
        extra = {"alt": text} | ({"caption": caption} if caption else {})
        meta = {k: dict(metadata.get(k, {})) | extra for k in out}
        if png is not None:
            size = meta["image/png"]
            out["text/html"] = figure_html(png, text, caption, width=size.get("width"),
                                           height=size.get("height"))
        out["text/plain"] = text
        publish_display_data(data=out, metadata=meta)
    finally:
        plt.close(figure)
