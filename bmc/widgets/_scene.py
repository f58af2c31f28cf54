"""A Matplotlib figure as data for the browser: static layers once, changing artists as data.

The explorers build their figure once with Matplotlib and change only the artists' data. For
the browser path (see :mod:`bmc.widgets._canvas`) the figure is split once, at the default
values, into

- a *background* PNG: everything that never changes (axes frames, axis labels, 3D panes),
- a *foreground* PNG: the legends and the spines of 2D axes (drawn over the data, as in
  Matplotlib), and
- *items*: every artist that may change (lines with their markers, texts, titles, patches,
  quiver arrows, the ticks, tick labels and grid lines of 2D axes), each a small dict of
  canvas pixel coordinates (origin top left) and style, which the browser draws on a
  ``<canvas>``. Point lists travel as float32 bytes (NaN for a gap), the rest as JSON.

After each ``update`` only the items whose dict differs from the one sent before go to the
browser. Every item is read again from its artist at each call (a line's pixels only when
its data or its axes' view changed), so what the browser draws never depends on
Matplotlib's ``stale`` flags, and an artist listed twice by Matplotlib (the suptitle is also
in ``fig.texts`` since Matplotlib 3.11) is one item. The layout is frozen at the first draw
(the layout engine is switched off): titles and panels stay where Matplotlib placed them in
that draw; the passes that render the two layers hide artists and turn axes off, and
everything they change (visibility, axes on/off, the titles' automatic positions) is put back.

Supported artists: ``Line2D`` (2D and 3D axes, any Matplotlib marker, ``markevery`` as an
int, a ``(start, step)`` pair, a slice or indices), ``Text`` (mathtext as plain Unicode),
``Quiver`` with ``angles="xy", scale_units="xy", scale=1`` and ``units="width"`` (the
arrows are the polygons Matplotlib draws), and patches (``Rectangle``, ``Polygon``, e.g.
``axvspan``) without hatching. Anything else raises ``NotImplementedError`` naming the
artist; the explorer then falls back to ``renderer="png"``.
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np

from bmc.widgets._marks import (
    _CAP,
    _NO_LINE,
    _arrow_shapes,
    _clip_polyline,
    _clipped,
    _dashes,
    _every,
    _f32,
    _hex,
    _name,
    _snapped,
    _spacing,
    plain_text,
)

__all__ = ["Scene", "plain_text"]


def __dir__() -> list[str]:
    return sorted(__all__)

_DIGITS = re.compile(r"[0-9]")
_MARGIN = 4  # [px] added to a side of the canvas where the figure's tight box sticks out


def _differences(now: dict, then: dict) -> dict:
    """Items of ``now`` that differ from ``then``, and ``None`` for those gone since."""
    changed = {key: item for key, item in now.items() if then.get(key) != item}
    for key in then.keys() - now.keys():
        changed[key] = None
    return changed


class Scene:
    """The browser's view of one Matplotlib figure (see the module docstring).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The explorer's figure, already updated to the default values. It is drawn once
        here (which fixes the layout); the passes that make the layers change it and put
        back what the items are read from (not its tick colours, which stay transparent:
        the browser draws the ticks).
    static : bool, optional
        Also render the whole figure as the inline backend shows it (``static``, a PNG
        cropped to its tight box), from the same first layout. Default False.

    Attributes
    ----------
    width, height : int
        Canvas size [px] at the figure's dpi: the figure plus ``margin``.
    margin : list of int
        Extra room [px] left, top, right and bottom for text that sticks out of the figure.
    layer : list of int
        Where the PNG layers go on the canvas: left, top, width, height [px].
    background, foreground : bytes
        PNG layers: under the canvas the static figure, over it the legends and the spines
        of 2D axes (which Matplotlib draws over the data).
    static : bytes
        The whole figure (``static=True``), else empty.
    clips : list of list of float
        ``[x, y, width, height]`` [px] of each axes, where its data artists are clipped.
    """

    def __init__(self, fig: Any, *, static: bool = False) -> None:
        import matplotlib as mpl
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        self.fig = fig
        fig.canvas.draw()  # lays out titles and ticks once
        fig.set_layout_engine("none")
        self.dpi = float(fig.dpi)
        # Room around the figure for what sticks out of it at the defaults (a long title):
        # the inline backend crops to the tight box, the canvas grows by the overflow.
        inches = fig.get_tightbbox(fig.canvas.get_renderer())
        self.static = b""
        if static:  # the whole figure as the inline backend shows it, before the layers
            # cut from the drawing just made (what savefig would draw again)
            from bmc.plotting import cropped_png

            self.static = cropped_png(fig, inches.padded(mpl.rcParams["savefig.pad_inches"]))
        tight = inches.transformed(fig.dpi_scale_trans)
        self.margin = [int(np.ceil(max(0.0, v))) + (_MARGIN if v > 0 else 0) for v in (
            -tight.x0, tight.y1 - fig.bbox.height, tight.x1 - fig.bbox.width, -tight.y0)]
        left, top, right, bottom = self.margin
        self.layer = [left, top, int(round(fig.bbox.width)), int(round(fig.bbox.height))]
        self.width = self.layer[2] + left + right
        self.height = self.layer[3] + top + bottom
        self._listed = self._list_artists()
        for _, artist in self._listed:
            self._check_supported(artist)
        self._tick_fonts: dict[int, Any] = {}  # axis id -> its tick labels' font
        self._axis_styles = [self._read_axis_styles(ax) for ax in fig.axes]
        self.clips = [self._rect(ax.patch.get_window_extent()) for ax in fig.axes]
        self.background, self.foreground = self._layers()
        self.sent: dict[str, dict] = {}  # item id -> the item as last sent
        self._geometry: dict[str, tuple] = {}  # line id -> (view, data, pixels)
        self._ticks_cache: dict[str, tuple] = {}  # tick item id -> (view, item)
        self._measured: dict[tuple, tuple] = {}  # text layouts read from Matplotlib
        self._texts: dict[str, tuple] = {}  # text id -> (what places it, its item)
        self._marker_shapes: dict[tuple, tuple] = {}  # marker style -> its outline
        self._line_items: dict[str, tuple] = {}  # line id -> (its style, its item)

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
    def _axes_artists(ax: Any) -> list:
        titles = [ax.title, ax._left_title, ax._right_title]
        return [*ax.lines, *ax.patches, *ax.collections, *ax.images, *ax.artists,
                *ax.texts, *titles]

    def _figure_texts(self) -> list:
        """Return the figure's own texts: its suptitle and ``fig.texts``."""
        fig = self.fig
        return [fig._suptitle, *fig.texts]

    def _list_artists(self) -> list[tuple[str, Any]]:
        """Every changing artist once, with its item id (``"a.k"`` per axes, ``"fig.k"``).

        Matplotlib may list one artist in two places (since 3.11 the suptitle is also in
        ``fig.texts``): each artist is one item, under the first place it is found.
        """
        seen: set[int] = set()
        listed = []

        def add(prefix: str, artists: list) -> None:
            k = 0
            for artist in artists:
                if artist is None or id(artist) in seen:
                    continue
                seen.add(id(artist))
                listed.append((f"{prefix}.{k}", artist))
                k += 1

        for a, ax in enumerate(self.fig.axes):
            add(str(a), self._axes_artists(ax))
        add("fig", self._figure_texts())
        return listed

    @staticmethod
    def _check_supported(artist: Any) -> None:
        from matplotlib.collections import Collection
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.quiver import Quiver
        from matplotlib.text import Text

        if isinstance(artist, Quiver):
            if ((artist.angles, artist.scale_units, artist.scale, artist.units)
                    != ("xy", "xy", 1.0, "width") or artist.width is None):
                raise NotImplementedError(
                    "the browser renderer draws quivers only with angles='xy', "
                    "scale_units='xy', scale=1, units='width' and a given width; use "
                    "renderer='png' for this figure")
        elif isinstance(artist, Patch):
            if artist.get_hatch():
                raise NotImplementedError("the browser renderer cannot draw hatched patches; "
                                          "use renderer='png' for this figure")
        elif isinstance(artist, Line2D):
            _every(artist.get_markevery(), None)  # refuses the float forms by name
        elif isinstance(artist, Collection) or not isinstance(artist, Text):
            raise NotImplementedError(
                f"the browser renderer cannot draw a {type(artist).__name__}; "
                "use renderer='png' for this figure")

    def _read_axis_styles(self, ax: Any) -> dict | None:
        """How the browser draws an axes' ticks, or None where Matplotlib draws none.

        3D axes keep their ticks in the background (fixed view); an axes turned off
        (``ax.axis("off")``, e.g. a panel that holds only text) has none.
        """
        if self._is_3d(ax) or not ax.axison:
            return None
        styles = {}
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            major, minor = axis.get_major_ticks(), axis.get_minor_ticks()
            tick = major[0] if major else axis._get_tick(major=True)
            small = minor[0] if minor else axis._get_tick(major=False)
            self._tick_fonts[id(axis)] = tick.label1.get_fontproperties()
            shown = axis.get_visible()
            if shown and (tick.tick2line.get_visible() or tick.label2.get_visible()):
                raise NotImplementedError(
                    "the browser renderer draws ticks on the bottom and left sides only; "
                    "use renderer='png' for this figure")
            scale = self.dpi / 72.0
            styles[name] = {
                "on": bool(shown and tick.tick1line.get_visible()),
                "label": bool(shown and tick.label1.get_visible()),
                "size": tick._size * scale, "minor": small._size * scale,
                "width": tick._width * scale, "pad": tick._base_pad * scale,
                "dir": tick._tickdir, "color": _hex(tick.tick1line.get_color()),
                "font": tick.label1.get_fontsize() * scale,
                "fontcolor": _hex(tick.label1.get_color()),
                "family": tick.label1.get_fontfamily()[0],
                "grid": bool(shown and tick.gridline.get_visible()),
                "gridcolor": _hex(tick.gridline.get_color(), tick.gridline.get_alpha()),
                "gridwidth": tick.gridline.get_linewidth() * scale,
                "griddash": _dashes(tick.gridline, tick.gridline.get_linewidth() * scale),
            }
        return styles

    def _layers(self) -> tuple[bytes, bytes]:
        from matplotlib.text import Text

        fig = self.fig
        # What the two passes change, to put back after them: every artist's visibility,
        # the axes' on/off state, and the texts' positions (a hidden title has no extent,
        # so Matplotlib's automatic title placement moves it far above its axes).
        everything = fig.findobj()
        visible = [(artist, artist.get_visible()) for artist in everything]
        placed = [(text, text.get_position()) for text in everything if isinstance(text, Text)]
        axison = [(ax, ax.axison) for ax in fig.axes]
        try:
            return self._render_layers()
        finally:
            for artist, shown in visible:
                if artist.get_visible() != shown:
                    artist.set_visible(shown)
            self._put_back(placed, axison)

    def _put_back(self, placed: list, axison: list) -> None:
        for ax, on in axison:
            if ax.axison != on:
                ax.set_axis_on() if on else ax.set_axis_off()
        for text, position in placed:
            if tuple(text.get_position()) != tuple(position):
                text.set_position(position)

    def _render_layers(self) -> tuple[bytes, bytes]:
        fig = self.fig
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
        legends += list(fig.legends)
        # The spines of 2D axes lie over the data (zorder 2.5 against 2 for lines, as
        # Matplotlib draws them): they go on the foreground with the legends.
        spines = [spine for ax in fig.axes if not self._is_3d(ax) and ax.axison
                  for spine in ax.spines.values() if spine.get_visible()]
        for _, artist in self._listed:
            artist.set_visible(False)
        for artist in legends + spines:
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
        if legends or spines:
            for artist in legends + spines:
                artist.set_visible(True)
            for ax in fig.axes:
                if self._is_3d(ax) or not ax.axison:
                    ax.set_axis_off()
                else:
                    for part in (ax.patch, ax.xaxis, ax.yaxis):
                        part.set_visible(False)
            foreground = self._png(transparent=True)
        return background, foreground

    def _png(self, *, transparent: bool = False) -> bytes:
        buffer = io.BytesIO()
        # fast zlib level: the layers go to the browser once, over a local socket
        self.fig.savefig(buffer, format="png", dpi=self.dpi, transparent=transparent,
                         pil_kwargs={"compress_level": 1})
        return buffer.getvalue()

    # --- items ------------------------------------------------------------------------------

    def items(self) -> dict[str, dict]:
        """Every changing artist of the figure as it is now, by item id."""
        out: dict[str, dict] = {}
        axes = self.fig.axes
        views = [self._view(ax) for ax in axes]
        index = {id(ax): a for a, ax in enumerate(axes)}
        for key, artist in self._listed:
            a = index.get(id(artist.axes), -1) if artist.axes is not None else -1
            item = self._item(key, artist, artist.axes, views[a] if a >= 0 else None)
            if item is not None:
                item["ax"] = a
                out[key] = item
        for a, ax in enumerate(axes):
            style = self._axis_styles[a]
            if style is None:
                continue
            for name in ("x", "y"):
                key = f"{a}.{name}ticks"
                cached = self._ticks_cache.get(key)
                if cached is None or cached[0] != views[a]:
                    item = self._ticks(ax, name, style[name])
                    item["ax"] = a
                    cached = self._ticks_cache[key] = (views[a], item)
                out[key] = cached[1]
        return out

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
        changed = _differences(now, self.sent)
        self.sent = now
        return changed

    def differences(self, then: dict[str, dict]) -> dict[str, dict | None]:
        """Return the items that differ now from ``then`` (``None``: gone); mark nothing."""
        return _differences(self.items(), then)

    def _item(self, key: str, artist: Any, ax: Any, view: Any) -> dict | None:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.quiver import Quiver
        from matplotlib.text import Text

        visible = bool(artist.get_visible())
        z = float(artist.get_zorder())
        if isinstance(artist, Line2D):
            return self._line(key, artist, ax, view, visible, z)
        if isinstance(artist, Text):
            # read again only when something that places or styles it changed (its layout
            # by Matplotlib is the costly part)
            sig = (visible, z, artist.get_text(), tuple(artist.get_unitless_position()),
                   id(artist.get_transform()), view, hash(artist.get_fontproperties()),
                   artist.get_horizontalalignment(), artist.get_verticalalignment(),
                   artist.get_rotation(), str(artist.get_color()), artist.get_alpha(),
                   str(artist.get_linespacing()), _clipped(artist))
            known = self._texts.get(key)
            if known is None or known[0] != sig:
                known = self._texts[key] = (sig, self._text(artist, visible, z))
            return dict(known[1])
        if isinstance(artist, Quiver):
            return self._quiver(artist, visible, z)
        if isinstance(artist, Patch):
            path = artist.get_path().to_polygons(artist.get_transform(), closed_only=False)
            lw = artist.get_linewidth() * self.dpi / 72.0
            edge = artist.get_edgecolor()
            shown = lw if edge[3] > 0 else 0.0
            return {"kind": "poly", "z": z, "on": visible,
                    "pts": [_f32(_snapped(self._px(p), shown, artist.get_snap()))
                            for p in path],
                    "fill": [_hex(artist.get_facecolor())] if artist.get_fill() else None,
                    "edge": _hex(edge), "lw": round(lw, 2) if lw and edge[3] > 0 else 0.0,
                    "clip": _clipped(artist)}
        raise NotImplementedError(type(artist).__name__)  # pragma: no cover (checked above)

    def _line_pixels(self, key: str, line: Any, ax: Any, view: Any) -> np.ndarray:
        """Return the line's canvas pixels, computed again only when data or view moved."""
        three_d = ax is not None and self._is_3d(ax) and hasattr(line, "get_data_3d")
        if three_d:
            data = np.array(line.get_data_3d(), dtype=float)
        else:
            data = np.asarray(line.get_xydata(), dtype=float)
        where = (view, id(line.get_transform()))
        cached = self._geometry.get(key)
        if cached is not None and cached[0] == where and np.array_equal(cached[1], data,
                                                                          equal_nan=True):
            return cached[2]
        self._line_items.pop(key, None)  # its item is made again
        if three_d:
            from mpl_toolkits.mplot3d import proj3d

            x2, y2, _ = proj3d.proj_transform(data[0], data[1], data[2], ax.get_proj())
            xy = ax.transData.transform(np.column_stack([x2, y2]))
        else:
            xy = line.get_transform().transform(data)
        pixels = np.round(self._px(xy), 1)
        self._geometry[key] = (where, data.copy(), pixels)
        return pixels

    def _line(self, key: str, line: Any, ax: Any, view: Any, visible: bool,
              z: float) -> dict:
        pixels = self._line_pixels(key, line, ax, view)
        # style: an unchanged line (same pixels, same style) keeps its item
        style = (visible, z, str(line.get_color()), line.get_alpha(), line.get_linewidth(),
                 str(line.get_linestyle()), str(line.get_marker()), line.get_markersize(),
                 str(line.get_markerfacecolor()), str(line.get_markeredgecolor()),
                 line.get_markeredgewidth(), str(line.get_markevery()), line.get_fillstyle(),
                 line.get_snap(), _clipped(line))
        known = self._line_items.get(key)
        if known is not None and known[0] == style:
            return dict(known[1])
        item = self._make_line(line, pixels, visible, z)
        self._line_items[key] = (style, item)
        return dict(item)

    def _make_line(self, line: Any, pixels: np.ndarray, visible: bool, z: float) -> dict:
        from matplotlib.markers import MarkerStyle

        scale = self.dpi / 72.0
        width = line.get_linewidth() * scale
        dashed = line.get_linestyle() not in ("-", "solid")
        drawn = _snapped(pixels, width, line.get_snap()) if line.get_linestyle() not in (
            _NO_LINE) else pixels
        if dashed and line.get_linestyle() not in _NO_LINE:
            # Agg cuts a path where it leaves the figure and starts the dashes again where
            # it comes back; a canvas starts them again at each piece of a path too
            left, top = self.margin[0], self.margin[1]
            drawn = _clip_polyline(drawn, (left - 1.0, top - 1.0,
                                           left + self.fig.bbox.width + 1.0,
                                           top + self.fig.bbox.height + 1.0))
        item = {"kind": "line", "z": z, "on": visible, "pts": _f32(drawn),
                "color": _hex(line.get_color(), line.get_alpha()), "lw": round(width, 2),
                "dash": _dashes(line, width),
                "cap": _CAP[_name(line.get_dash_capstyle() if dashed
                               else line.get_solid_capstyle())],
                "join": _name(line.get_dash_joinstyle() if dashed
                              else line.get_solid_joinstyle()),
                "clip": _clipped(line)}
        if line.get_linestyle() in _NO_LINE:
            item["lw"] = 0.0
        marker = line.get_marker()
        if marker not in (None, *_NO_LINE) and line.get_markersize() > 0:
            edge = line.get_markeredgewidth() * scale
            shape_key = (str(marker), line.get_fillstyle(), line.get_markersize(), edge,
                         line.get_snap())
            shape = self._marker_shapes.get(shape_key)
            if shape is None:
                style = MarkerStyle(marker, line.get_fillstyle())
                path = style.get_path().transformed(style.get_transform())
                size = line.get_markersize() * scale
                vertices = path.vertices * [size, -size]
                if path.codes is None or set(path.codes.tolist()) <= {1, 2, 79}:
                    vertices = _snapped(vertices, edge, line.get_snap())
                shape = self._marker_shapes[shape_key] = (
                    {"v": vertices.round(2).ravel().tolist(),
                     "c": None if path.codes is None else path.codes.tolist()},
                    bool(style.is_filled()), _name(style.get_joinstyle()))
            # Agg draws each marker at the pixel that holds its point
            where = np.floor(pixels[_every(line.get_markevery(), len(pixels))] + 0.5)
            item["marker"] = {
                "shape": shape[0], "filled": shape[1],
                "fill": _hex(line.get_markerfacecolor(), line.get_alpha()),
                "edge": _hex(line.get_markeredgecolor(), line.get_alpha()),
                "ew": round(edge, 2), "join": shape[2], "at": _f32(where)}
        return item

    def _text(self, text: Any, visible: bool, z: float) -> dict:
        xy = self._px(text.get_transform().transform(text.get_unitless_position()))[0]
        content = text.get_text()
        item = {"kind": "text", "z": z, "on": visible and bool(content),
                "t": plain_text(content), "x": round(float(xy[0]), 1),
                "y": round(float(xy[1]), 1), "ha": text.get_horizontalalignment(),
                "va": text.get_verticalalignment(), "rot": float(text.get_rotation()),
                "size": round(text.get_fontsize() * self.dpi / 72.0, 2),
                "family": text.get_fontfamily()[0], "weight": str(text.get_fontweight()),
                "color": _hex(text.get_color(), text.get_alpha()),
                "spacing": _spacing(text.get_linespacing()),
                "clip": _clipped(text)}
        if item["on"] and not item["rot"] and not text.get_usetex():
            # Where Matplotlib puts the text: its box and first baseline [px] and each line's
            # width, so that the browser's glyphs (another rasteriser, plain Unicode for
            # mathtext) fill the same place instead of drifting along a long title.
            (x0, y0, x1, y1), base, pitch, widths = self._layout(
                content, text.get_fontproperties(), item["ha"], item["va"],
                text.get_linespacing(), text.get_parse_math())
            anchor = text.get_transform().transform(text.get_unitless_position())
            left, top = self._px([[anchor[0] + x0, anchor[1] + y1]])[0]
            item["box"] = [round(float(left), 2), round(float(top), 2), round(x1 - x0, 2),
                           round(y1 - y0, 2)]
            item["base"], item["pitch"] = round(float(top) + y1 - base, 2), round(pitch, 2)
            item["w"] = [round(w, 2) for w in widths]
        return item

    def _layout(self, content: str, prop: Any, ha: str, va: str, spacing: Any,
                parse_math: bool) -> tuple[tuple, float, float, list[float]]:
        """Read Matplotlib's layout of a text anchored at the origin, as it aligns it.

        Returns its box ``(x0, y0, x1, y1)`` and its first baseline (display px, y up,
        relative to the anchor), the distance between baselines and each line's width.
        Read once from scratch copies and kept (digits are tabular: a title whose numbers
        change keeps its layout), so an update lays out no text.
        """
        from matplotlib.text import Text

        key = ("layout", _DIGITS.sub("0", content), hash(prop), ha, va, str(spacing),
               parse_math)
        known = self._measured.get(key)
        if known is None:
            renderer = self.fig.canvas.get_renderer()
            scratch = Text(0.0, 0.0, content, fontproperties=prop, ha=ha, va=va,
                           linespacing=spacing, parse_math=parse_math)
            scratch.set_figure(self.fig)
            box = scratch.get_window_extent(renderer)
            widths, ascent, pitch = self._measure(content, prop, spacing, parse_math)
            known = ((float(box.x0), float(box.y0), float(box.x1), float(box.y1)),
                     float(box.y1) - ascent, pitch, widths)
            if len(self._measured) > 4096:
                self._measured.clear()
            self._measured[key] = known
        return known

    def _measure(self, content: str, prop: Any, spacing: Any = None,
                 parse_math: bool = True) -> tuple[list[float], float, float]:
        """Read how Matplotlib lays out a text: line widths, first ascent, baseline pitch [px].

        Each line's width, the first line's ascent above its baseline and the distance
        between baselines.

        Read from Matplotlib's own layout of a scratch copy anchored on its baseline (what
        a text's box holds above the baseline depends on the version's font metrics).
        """
        from matplotlib import cbook
        from matplotlib.text import Text

        # digits are tabular in the fonts Matplotlib ships (and in most others): a title
        # whose numbers change keeps its layout
        key = (_DIGITS.sub("0", content), hash(prop), str(spacing), parse_math)
        known = self._measured.get(key)
        if known is not None:
            return known
        renderer = self.fig.canvas.get_renderer()
        scratch = Text(0.0, 0.0, content, fontproperties=prop, va="baseline", ha="left",
                       parse_math=parse_math)
        if spacing is not None:
            scratch.set_linespacing(spacing)
        scratch.set_figure(self.fig)
        box = scratch.get_window_extent(renderer)
        lines = content.split("\n")
        widths = [float(box.width)] if len(lines) == 1 else [
            float(renderer.get_text_width_height_descent(
                line, prop, ismath=bool(parse_math and cbook.is_math_text(line)))[0])
            if line else 0.0 for line in lines]
        ascent = float(box.y1)  # from the top to the baseline Matplotlib anchors: the last
        pitch = float(box.height)
        if len(lines) > 1:
            # The first baseline: its line's own ascent below the top, plus the share of
            # the line gap a multi-line text adds (its last line's descent grows by it).
            below = -float(box.y0)
            scratch.set_text(lines[0])
            first = float(scratch.get_window_extent(renderer).y1)
            scratch.set_text(lines[-1])
            gap = below + float(scratch.get_window_extent(renderer).y0)
            pitch = (ascent - first - gap) / (len(lines) - 1)
            ascent = first + gap
        if len(self._measured) > 4096:  # titles with numbers: a new text per update
            self._measured.clear()
        self._measured[key] = (widths, ascent, pitch)
        return self._measured[key]

    def _quiver(self, quiver: Any, visible: bool, z: float) -> dict:
        ax = quiver.axes
        offsets = np.asarray(quiver.get_offsets(), dtype=float)
        uv = np.column_stack([np.asarray(quiver.U, dtype=float).ravel(),
                              np.asarray(quiver.V, dtype=float).ravel()])
        start = ax.transData.transform(offsets)
        delta = ax.transData.transform(offsets + uv) - start
        angle = np.arctan2(delta[:, 1], delta[:, 0])
        width = float(quiver.width) * ax.bbox.width  # [px] of one arrow width
        X, Y = _arrow_shapes(quiver, np.hypot(delta[:, 0], delta[:, 1]) / width)
        turn = np.exp(1j * angle)[:, None]
        outline = (X + 1j * Y) * turn * width
        colors = [_hex(c) for c in quiver.get_facecolors()] or ["#000000ff"]
        polygons, fills = [], []
        for i in range(len(offsets)):
            points = start[i] + np.column_stack([outline[i].real, outline[i].imag])
            if np.isfinite(points).all():
                polygons.append(_f32(self._px(points)))
                fills.append(colors[i % len(colors)])
        lw = float(np.max(quiver.get_linewidths(), initial=0.0)) * self.dpi / 72.0
        edges = quiver.get_edgecolors()
        return {"kind": "poly", "z": z, "on": visible, "pts": polygons, "fill": fills,
                "edge": _hex(edges[0]) if len(edges) else "#00000000",
                "lw": round(lw, 2) if len(edges) else 0.0,
                "clip": _clipped(quiver)}

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
        raw = list(formatter.format_ticks(major))
        labels = [plain_text(s) for s in raw]
        prop = self._tick_fonts[id(axis)]
        extents = [self._measure(s, prop)[:2] if s else ([0.0], 0.0) for s in raw]
        return {"kind": "ticks", "axis": name, "z": float(axis.get_zorder()), "on": True,
                "major": [round(float(p), 1) for p in pos], "labels": labels,
                "lw": [round(e[0][0], 2) for e in extents],
                "la": [round(e[1], 2) for e in extents],
                "minor": [round(float(p), 1) for p in pos_minor],
                "offset": plain_text(formatter.get_offset()), "style": style}
