"""A Matplotlib figure as data for the browser: static layers once, changing artists as JSON.

The explorers build their figure once with Matplotlib and change only the artists' data. For
the browser path (see :mod:`bmc.widgets._canvas`) the figure is split once, at the default
values, into

- a *background* PNG: everything that never changes (axes frames, axis labels, 3D panes),
- a *foreground* PNG: the legends (drawn over the data, as in Matplotlib), and
- *items*: every artist that may change (lines, texts, titles, patches, quivers, the ticks,
  tick labels and grid lines of 2D axes), each a small JSON-ready dict of canvas pixel
  coordinates (origin top left) and style, which the browser draws on a ``<canvas>``.

After each ``update`` only the items whose dict differs from the one sent before go to the
browser. The layout is frozen at the first draw (the layout engine is switched off), so the
axes stay where the static figure has them.

Supported artists: ``Line2D`` (2D and 3D axes), ``Text``, ``Quiver`` with
``angles="xy", scale_units="xy", scale=1``, and patches (``Rectangle``, ``Polygon``, e.g.
``axvspan``). Anything else raises ``NotImplementedError`` naming the artist, so that an
explorer can use ``renderer="png"`` instead.
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np

__all__ = ["Scene", "plain_text"]


def __dir__() -> list[str]:
    return sorted(__all__)

_MARGIN = 4  # [px] added to a side of the canvas where the figure's tight box sticks out

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ",
    "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "omega": "ω", "Delta": "Δ", "Omega": "Ω", "Sigma": "Σ", "cdot": "·", "times": "×",
    "pm": "±", "circ": "°", "degree": "°", "infty": "∞", "approx": "≈", "leq": "≤",
    "geq": "≥", "cos": " cos ", "sin": " sin ", "tan": " tan ", "log": " log ",
    "exp": " exp ",
}
_SUP = str.maketrans("0123456789+-−=()niT.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ·")
_SUB = str.maketrans("0123456789+-=()aeoxijkmnpst", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₖₘₙₚₛₜ")
_ACCENT = {"ddot": "\u0308", "dot": "\u0307", "hat": "\u0302", "bar": "\u0304",
           "vec": "\u20d7", "tilde": "\u0303"}


def plain_text(text: str) -> str:
    r"""Turn the common bits of Matplotlib mathtext into plain Unicode for the canvas.

    Parameters
    ----------
    text : str
        A label, possibly with ``$...$`` mathtext (``\ddot q``, ``\alpha``, ``^2``,
        ``_o``, ``\mathdefault{10^{-14}}``).

    Returns
    -------
    str
        The text with the math parts rewritten (Greek letters, accents, super- and
        subscripts); text outside ``$...$`` is unchanged.

    Examples
    --------
    >>> plain_text(r"inertial $I_o\ddot\alpha$")
    'inertial Iₒα̈'
    >>> plain_text(r"$\mathdefault{10^{-14}}$")
    '10⁻¹⁴'
    """
    if "$" not in text:
        return text
    parts = text.split("$")
    for k in range(1, len(parts), 2):
        parts[k] = _math(parts[k])
    return "".join(parts)


def _math(s: str) -> str:
    s = re.sub(r"\\(mathdefault|mathrm|mathit|mathbf|text|rm)\s*", "", s)
    s = s.replace(r"\,", "\u2009").replace(r"\;", " ").replace(r"\ ", " ").replace("~", " ")
    for name, mark in _ACCENT.items():  # \ddot\alpha, \ddot{q}, \ddot q
        s = re.sub(rf"\\{name}\s*(\{{[^}}]*\}}|\\[A-Za-z]+|[A-Za-z])",
                   lambda m, mark=mark: m.group(1).strip("{}") + mark, s)
    s = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), s)
    s = re.sub(r"\^\{([^}]*)\}", lambda m: m.group(1).translate(_SUP), s)
    s = re.sub(r"\^(.)", lambda m: m.group(1).translate(_SUP), s)
    s = re.sub(r"_\{([^}]*)\}", lambda m: m.group(1).translate(_SUB), s)
    s = re.sub(r"_(.)", lambda m: m.group(1).translate(_SUB), s)
    # an accent stays on its letter once the letter has become a subscript
    for mark in _ACCENT.values():
        s = s.replace(mark + mark, mark)
    return s.replace("{", "").replace("}", "")


def _hex(color: Any, alpha: float | None = None) -> str:
    from matplotlib.colors import to_hex, to_rgba

    return to_hex(to_rgba(color, alpha), keep_alpha=True)


def _flat(points: np.ndarray) -> list:
    """(n, 2) canvas coordinates to a flat list rounded to 0.1 px; gaps (nan, inf) as None."""
    points = np.round(np.asarray(points, dtype=float).reshape(-1), 1)
    finite = np.isfinite(points)
    if finite.all():
        return points.tolist()
    out = points.astype(object)
    out[~finite] = None
    return out.tolist()


def _spacing(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):  # e.g. "normal" in recent Matplotlib
        return 1.2


def _dashes(line: Any, width_px: float) -> list[float]:
    import matplotlib as mpl

    style = line.get_linestyle()
    name = {"--": "dashed", "-.": "dashdot", ":": "dotted"}.get(style)
    if name is None:
        return []
    pattern = mpl.rcParams[f"lines.{name}_pattern"]
    scale = max(width_px, 1.0) if mpl.rcParams["lines.scale_dashes"] else 1.0
    return [round(v * scale, 2) for v in pattern]


class Scene:
    """The browser's view of one Matplotlib figure (see the module docstring).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The explorer's figure, already updated to the default values. It is drawn once
        here (which fixes the layout) and then changed for the layers: the caller must have
        rendered any full static image of it before.

    Attributes
    ----------
    width, height : int
        Canvas size [px] at the figure's dpi: the figure plus ``margin``.
    margin : list of int
        Extra room [px] left, top, right and bottom for text that sticks out of the figure.
    layer : list of int
        Where the PNG layers go on the canvas: left, top, width, height [px].
    background, foreground : bytes
        PNG layers (the foreground is empty when the figure has no legend).
    clips : list of list of float
        ``[x, y, width, height]`` [px] of each axes, where its data artists are clipped.
    """

    def __init__(self, fig: Any) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        self.fig = fig
        fig.canvas.draw()  # lays out titles and ticks once
        fig.set_layout_engine("none")
        self.dpi = float(fig.dpi)
        # Room around the figure for what sticks out of it at the defaults (a long title):
        # the inline backend crops to the tight box, the canvas grows by the overflow.
        tight = fig.get_tightbbox(fig.canvas.get_renderer()).transformed(fig.dpi_scale_trans)
        self.margin = [int(np.ceil(max(0.0, v))) + (_MARGIN if v > 0 else 0) for v in (
            -tight.x0, tight.y1 - fig.bbox.height, tight.x1 - fig.bbox.width, -tight.y0)]
        left, top, right, bottom = self.margin
        self.layer = [left, top, int(round(fig.bbox.width)), int(round(fig.bbox.height))]
        self.width = self.layer[2] + left + right
        self.height = self.layer[3] + top + bottom
        self._axis_styles = [self._read_axis_styles(ax) for ax in fig.axes]
        self.clips = [self._rect(ax.patch.get_window_extent()) for ax in fig.axes]
        for ax in fig.axes:
            for artist in self._artists(ax):
                self._check_supported(artist)
        self.background, self.foreground = self._layers()
        self.sent: dict[str, dict] = {}  # item id -> the item as last sent
        self._cache: dict[str, tuple] = {}  # item id -> (axes view, item)

    # --- reading the figure -----------------------------------------------------------------

    def _px(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        return np.column_stack([xy[:, 0] + self.margin[0],
                                self.fig.bbox.height - xy[:, 1] + self.margin[1]])

    def _rect(self, bbox: Any) -> list[float]:
        return [round(bbox.x0 + self.margin[0], 1),
                round(self.fig.bbox.height - bbox.y1 + self.margin[1], 1),
                round(bbox.width, 1), round(bbox.height, 1)]

    @staticmethod
    def _is_3d(ax: Any) -> bool:
        return getattr(ax, "name", "") == "3d"

    @staticmethod
    def _artists(ax: Any) -> list:
        titles = [ax.title, ax._left_title, ax._right_title]
        return [*ax.lines, *ax.patches, *ax.collections, *ax.texts, *titles]

    @staticmethod
    def _check_supported(artist: Any) -> None:
        from matplotlib.collections import Collection
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.quiver import Quiver
        from matplotlib.text import Text

        if isinstance(artist, Quiver):
            if (artist.angles, artist.scale_units, artist.scale) != ("xy", "xy", 1.0):
                raise NotImplementedError(
                    "the browser renderer draws quivers only with angles='xy', "
                    "scale_units='xy', scale=1; use renderer='png' for this figure")
        elif isinstance(artist, Collection) or not isinstance(artist, (Line2D, Patch, Text)):
            raise NotImplementedError(
                f"the browser renderer cannot draw a {type(artist).__name__}; "
                "use renderer='png' for this figure")

    def _read_axis_styles(self, ax: Any) -> dict | None:
        if self._is_3d(ax):
            return None  # 3D axes keep their ticks in the background (fixed view)
        styles = {}
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            major, minor = axis.get_major_ticks(), axis.get_minor_ticks()
            tick = major[0] if major else axis._get_tick(major=True)
            small = minor[0] if minor else axis._get_tick(major=False)
            scale = self.dpi / 72.0
            styles[name] = {
                "on": bool(tick.tick1line.get_visible()),
                "label": bool(tick.label1.get_visible()),
                "size": tick._size * scale, "minor": small._size * scale,
                "width": tick._width * scale, "pad": tick._base_pad * scale,
                "dir": tick._tickdir, "color": _hex(tick.tick1line.get_color()),
                "font": tick.label1.get_fontsize() * scale,
                "fontcolor": _hex(tick.label1.get_color()),
                "family": tick.label1.get_fontfamily()[0],
                "grid": bool(tick.gridline.get_visible()),
                "gridcolor": _hex(tick.gridline.get_color(), tick.gridline.get_alpha()),
                "gridwidth": tick.gridline.get_linewidth() * scale,
            }
        return styles

    def _layers(self) -> tuple[bytes, bytes]:
        fig = self.fig
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
        legends += list(fig.legends)
        hidden = [*fig.texts]
        if fig._suptitle is not None:
            hidden.append(fig._suptitle)
        for ax in fig.axes:
            hidden += self._artists(ax)
        shown = [artist.get_visible() for artist in hidden]
        for artist in hidden + legends:
            artist.set_visible(False)
        for ax, style in zip(fig.axes, self._axis_styles, strict=True):
            if style is not None:
                # Transparent rather than hidden: the axis labels keep the place that
                # Matplotlib gives them next to the tick labels.
                clear = (0.0, 0.0, 0.0, 0.0)
                ax.tick_params(which="both", color=clear, labelcolor=clear)
                ax.grid(False, which="both")
                ax.xaxis.offsetText.set_color(clear)
                ax.yaxis.offsetText.set_color(clear)
        background = self._png()
        foreground = b""
        if legends:
            for legend in legends:
                legend.set_visible(True)
            for ax in fig.axes:
                ax.set_axis_off()
            foreground = self._png(transparent=True)
        # The changing artists are drawn by the browser from now on; they keep their own
        # visibility (the figure itself is never drawn again).
        for artist, visible in zip(hidden, shown, strict=True):
            artist.set_visible(visible)
        return background, foreground

    def _png(self, *, transparent: bool = False) -> bytes:
        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="png", dpi=self.dpi, transparent=transparent)
        return buffer.getvalue()

    # --- items ------------------------------------------------------------------------------

    def items(self) -> dict[str, dict]:
        """Every changing artist of the figure as it is now, by item id.

        An artist that is not stale (Matplotlib marks it when a setter changes it) in axes
        whose view has not moved keeps its item from the last call, unserialised again.
        """
        out: dict[str, dict] = {}
        fig = self.fig
        for a, ax in enumerate(fig.axes):
            view = self._view(ax)
            for k, artist in enumerate(self._artists(ax)):
                self._cached(out, f"{a}.{k}", artist, view, lambda ar=artist, ax=ax:
                             self._item(ar, ax), a)
            style = self._axis_styles[a]
            if style is not None:
                for name in ("x", "y"):
                    self._cached(out, f"{a}.{name}ticks", None, view,
                                 lambda ax=ax, name=name, style=style[name]:
                                 self._ticks(ax, name, style), a)
        for k, text in enumerate([fig._suptitle, *fig.texts]):
            if text is not None:
                self._cached(out, f"fig.{k}", text, None,
                             lambda text=text: self._item(text, None), -1)
        return out

    def _cached(self, out: dict, key: str, artist: Any, view: Any, make: Any, ax: int) -> None:
        cached = self._cache.get(key)
        if cached is not None and cached[0] == view and not (artist is not None
                                                             and artist.stale):
            item = cached[1]
        else:
            item = make()
            if item is not None:
                item["ax"] = ax
            self._cache[key] = (view, item)
            if artist is not None:
                artist.stale = False  # read; the next setter marks it again
        if item is not None:
            out[key] = item

    def _view(self, ax: Any) -> tuple:
        """Return what places an axes' artists on the canvas (limits, scales, 3D view)."""
        view = (tuple(ax.viewLim.bounds), tuple(ax.bbox.bounds), ax.get_xscale(),
                ax.get_yscale())
        if self._is_3d(ax):
            view += (tuple(ax.get_w_lims()), ax.elev, ax.azim, ax.roll)
        return view

    def changes(self) -> dict[str, dict | None]:
        """Return the items that differ from those sent last (``None``: gone); mark them sent."""
        now = self.items()
        changed: dict[str, dict | None] = {
            key: item for key, item in now.items() if self.sent.get(key) != item}
        for key in self.sent.keys() - now.keys():
            changed[key] = None
        self.sent = now
        return changed

    def _item(self, artist: Any, ax: Any) -> dict | None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.quiver import Quiver
        from matplotlib.text import Text

        visible = bool(artist.get_visible())
        z = float(artist.get_zorder())
        if isinstance(artist, Line2D):
            return self._line(artist, ax, visible, z)
        if isinstance(artist, Text):
            return self._text(artist, visible, z)
        if isinstance(artist, Quiver):
            return self._quiver(artist, visible, z)
        if isinstance(artist, Patch):
            path = artist.get_path().to_polygons(artist.get_transform(), closed_only=False)
            points = [_flat(self._px(p)) for p in path]
            return {"kind": "poly", "z": z, "on": visible, "pts": points,
                    "fill": _hex(artist.get_facecolor()) if artist.get_fill() else None,
                    "edge": _hex(artist.get_edgecolor()),
                    "lw": artist.get_linewidth() * self.dpi / 72.0 if artist.get_linewidth()
                    and artist.get_edgecolor()[3] > 0 else 0.0,
                    "clip": bool(artist.get_clip_on())}
        raise NotImplementedError(type(artist).__name__)  # pragma: no cover (checked above)

    def _line(self, line: Any, ax: Any, visible: bool, z: float) -> dict:
        if self._is_3d(ax) and hasattr(line, "get_data_3d"):
            from mpl_toolkits.mplot3d import proj3d

            xs, ys, zs = (np.asarray(v, dtype=float) for v in line.get_data_3d())
            x2, y2, _ = proj3d.proj_transform(xs, ys, zs, ax.get_proj())
            xy = ax.transData.transform(np.column_stack([x2, y2]))
        else:
            xy = line.get_transform().transform(line.get_xydata())
        width = line.get_linewidth() * self.dpi / 72.0
        marker = line.get_marker()
        item = {"kind": "line", "z": z, "on": visible, "pts": _flat(self._px(xy)),
                "color": _hex(line.get_color(), line.get_alpha()), "lw": round(width, 2),
                "dash": _dashes(line, width), "clip": bool(line.get_clip_on())}
        if marker not in (None, "None", "none", "", " ") and line.get_markersize() > 0:
            item["ms"] = round(line.get_markersize() * self.dpi / 72.0, 2)
            item["mfc"] = _hex(line.get_markerfacecolor(), line.get_alpha())
            item["mec"] = _hex(line.get_markeredgecolor(), line.get_alpha())
            if line.get_linestyle() in ("None", "none", "", " "):
                item["lw"] = 0.0
        return item

    def _text(self, text: Any, visible: bool, z: float) -> dict:
        xy = self._px(text.get_transform().transform(text.get_unitless_position()))[0]
        content = text.get_text()
        return {"kind": "text", "z": z, "on": visible and bool(content),
                "t": plain_text(content), "x": round(float(xy[0]), 1),
                "y": round(float(xy[1]), 1), "ha": text.get_horizontalalignment(),
                "va": text.get_verticalalignment(), "rot": float(text.get_rotation()),
                "size": round(text.get_fontsize() * self.dpi / 72.0, 2),
                "family": text.get_fontfamily()[0], "weight": str(text.get_fontweight()),
                "color": _hex(text.get_color(), text.get_alpha()),
                "spacing": _spacing(text.get_linespacing())}

    def _quiver(self, quiver: Any, visible: bool, z: float) -> dict:
        offsets = np.asarray(quiver.get_offsets(), dtype=float)
        tips = offsets + np.column_stack([np.asarray(quiver.U, dtype=float).ravel(),
                                          np.asarray(quiver.V, dtype=float).ravel()])
        transform = quiver.get_offset_transform()
        start, end = self._px(transform.transform(offsets)), self._px(transform.transform(tips))
        ax_width = quiver.axes.bbox.width
        colors = [_hex(c) for c in quiver.get_facecolors()]
        return {"kind": "arrows", "z": z, "on": visible, "from": _flat(start),
                "to": _flat(end), "colors": colors,
                "width": round(float(quiver.width or 0.005) * ax_width, 2),
                "head": [float(quiver.headwidth), float(quiver.headlength)],
                "clip": bool(quiver.get_clip_on())}

    def _ticks(self, ax: Any, name: str, style: dict) -> dict:
        axis = ax.xaxis if name == "x" else ax.yaxis
        x0, y0, width, height = self._rect(ax.patch.get_window_extent())
        low, high = (x0, x0 + width) if name == "x" else (y0, y0 + height)

        def pixels(locs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            # ticks outside the view (e.g. a log locator's 1e-16 below 1e-14) are dropped
            # in pixels, which works for linear and log axes alike
            locs = np.asarray(locs, dtype=float)
            if name == "x":
                xy = ax.get_xaxis_transform().transform(np.column_stack([locs, 0 * locs]))
                pos = self._px(xy)[:, 0] if locs.size else locs
            else:
                xy = ax.get_yaxis_transform().transform(np.column_stack([0 * locs, locs]))
                pos = self._px(xy)[:, 1] if locs.size else locs
            keep = np.isfinite(pos) & (pos >= low - 0.5) & (pos <= high + 0.5)
            return locs[keep], pos[keep]

        major, pos = pixels(axis.get_majorticklocs())
        _, pos_minor = pixels(axis.get_minorticklocs())
        formatter = axis.get_major_formatter()
        labels = [plain_text(s) for s in formatter.format_ticks(major)]
        return {"kind": "ticks", "axis": name, "z": 2.5, "on": True,
                "major": [round(float(p), 1) for p in pos], "labels": labels,
                "minor": [round(float(p), 1) for p in pos_minor],
                "offset": plain_text(formatter.get_offset()), "style": style}
