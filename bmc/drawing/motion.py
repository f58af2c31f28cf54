"""Movement pictures: the stick-figure strobe and its animation (a Play widget)."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, number
from bmc.drawing._base import Drawing, _connectivity
from bmc.drawing._describe import _number
from bmc.drawing._draw import _arrow, _check_axes, _fit
from bmc.plotting import ROLES, legend_outside

__all__ = ["Animation", "animation", "strobe"]


def __dir__() -> list[str]:
    return sorted(__all__)



def _times(times: ArrayLike | None, n_frames: int) -> np.ndarray | None:
    """Check ``times`` [s]: one value per frame, or ``None``."""
    if times is None:
        return None
    times = as_array(times, "times", unit="s", ndim=1)
    if times.size != n_frames:
        raise ValueError(f"times [s] must have one value per frame of poses ({n_frames}); "
                         f"got {times.size}: pass the time of each posture")
    return times

def _poses(poses: ArrayLike) -> np.ndarray:
    arr = as_array(poses, "poses", unit="m", last=2)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1] < 2:
        raise ValueError("poses [m] must have shape (n_frames, n_points, 2) with at least two "
                         f"points (for example forward_kinematics(..., joints=True)); got "
                         f"{arr.shape}")
    return arr


def _per_frame(value, n_frames: int, poses: np.ndarray, name: str, unit: str):
    """Return (n_frames, 2) positions from a point index or an (n_frames, 2) array."""
    if value is None:
        return None
    if isinstance(value, (int, np.integer)):
        if not -poses.shape[1] <= value < poses.shape[1]:
            raise ValueError(f"{name} must index one of the {poses.shape[1]} points; got {value}")
        return poses[:, int(value)]
    arr = as_array(value, name, unit=unit, last=2, ndim=2)
    if arr.shape[0] != n_frames:
        raise ValueError(f"{name} [{unit}] must have one row per frame ({n_frames}); got "
                         f"{arr.shape[0]}")
    return arr


def _figsize(pts: np.ndarray, width: float, *, colour_bar: bool = False):
    """Figure size [in] that fits the postures' extent at equal scales."""
    span = np.ptp(pts.reshape(-1, 2), axis=0)
    size = float(span.max()) or 1.0
    ratio = float(np.clip((span[1] + 0.2 * size) / (span[0] + 0.2 * size), 0.4, 1.3))
    plot_width = width - (1.2 if colour_bar else 0.6)
    return width, plot_width * ratio + 0.7


def strobe(
    poses: ArrayLike,
    *,
    parents: Sequence[int] | None = None,
    segments: Sequence[tuple[int, int]] | None = None,
    times: ArrayLike | None = None,
    every: int | None = None,
    path: int | ArrayLike | None = None,
    path_label: str = "path",
    forces: ArrayLike | None = None,
    force_points: int | ArrayLike | None = None,
    force_scale: float | None = None,
    force_label: str = "force",
    ground: float | str | None = "auto",
    spread: float = 0.0,
    cmap: str = "viridis",
    ax=None,
) -> Drawing:
    """Stick-figure strobe: the postures of a movement overlaid, coloured by time.

    Parameters
    ----------
    poses : array_like, shape (n_frames, n_points, 2)
        Point positions [m] over time (time on axis 0), for example
        ``bmc.kinematics.forward_kinematics(lengths, q, joints=True)``.
    parents, segments : optional
        Connectivity for trees, as in :func:`model_sketch`; default a chain.
    times : array_like, shape (n_frames,), optional
        Time of each frame [s], for the colour bar (else the frame number).
    every : int, optional
        Draw every ``every``-th posture; the first and the last are always drawn (the last
        replaces the one before it when they are less than ``every / 2`` frames apart).
        Default: about 12 postures in all.
    path : int or array_like, shape (n_frames, 2), optional
        A point whose path is drawn over all frames: its index in ``poses`` or its
        positions [m] (for example the centre of mass).
    path_label : str, optional
        Legend entry of the path.
    forces : array_like, shape (n_frames, 2), optional
        A force per frame [N] (for example the ground reaction), drawn at each drawn
        posture from ``force_points``.
    force_points : int or array_like, shape (n_frames, 2), optional
        Where the forces act: a point index or positions [m] (for example the centre of
        pressure). Needed with ``forces``.
    force_scale : float, optional
        Arrow length per newton [m/N]; by default the largest force is 0.4 of the figure's
        extent. A scale arrow of a round number of newtons is drawn below the postures.
    force_label : str, optional
        Legend entry of the forces.
    ground : float, "auto" or None, optional
        Height of the ground [m], drawn as a line with hatching below it. ``"auto"``
        (default): where the forces act when they all act at one height (a ground reaction
        at the centre of pressure), else none; ``None``: no ground.
    spread : float, optional
        Horizontal shift between consecutive drawn postures [m], to separate postures of a
        movement in place (a somersault, standing sway); the path and the forces shift with
        their frame, and the x axis then shows positions plus the shift. Default 0
        (postures drawn where they are).
    cmap : str, optional
        Matplotlib colour map: the postures take its colours from 0.55 (early) to 0
        (late), darker with time, all at least 3:1 against white for ``"viridis"``; the
        colour bar gives the time of each colour. Default ``"viridis"``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure sized to the movement is made when omitted.

    Returns
    -------
    Drawing
        ``frames`` is the number of postures drawn; ``arrows`` the forces (and the scale
        arrow, ``kind`` ``"scale"``); :meth:`~Drawing.describe` says what moves over which
        time, the traced path's extent and the largest force.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from bmc import drawing, kinematics
    >>> t = np.linspace(0.0, 0.6, 31)
    >>> q, _, _ = kinematics.forward_reach(t, 0.32, 0.43)
    >>> poses = kinematics.forward_kinematics([0.32, 0.43], q, joints=True)
    >>> d = drawing.strobe(poses, times=t, every=5, path=-1, path_label="fingertip")
    >>> d.frames
    7
    >>> plt.close("all")
    """
    import matplotlib as mpl

    pts = _poses(poses)
    n_frames = pts.shape[0]
    if every is None:
        every = max(1, round(n_frames / 12))
    if isinstance(every, (bool, np.bool_)) or not isinstance(every, (int, np.integer)) \
            or every < 1:
        raise ValueError(f"every must be a positive integer (frames); got {every!r}")
    if not isinstance(cmap, str) or cmap not in mpl.colormaps:
        raise ValueError(f"cmap must name a matplotlib colormap (e.g. 'viridis'); got {cmap!r}")
    pairs = _connectivity(pts.shape[1], parents, segments)
    times = _times(times, n_frames)
    drawn = list(range(0, n_frames, every))
    if drawn[-1] != n_frames - 1:  # the last posture is always drawn, never twice
        if len(drawn) > 1 and n_frames - 1 - drawn[-1] < every / 2:
            drawn[-1] = n_frames - 1
        else:
            drawn.append(n_frames - 1)
    path_xy = _per_frame(path, n_frames, pts, "path", "m")
    force = None
    if forces is not None:
        force = as_array(forces, "forces", unit="N", last=2, ndim=2)
        if force.shape[0] != n_frames:
            raise ValueError(f"forces [N] must have one row per frame ({n_frames}); got "
                             f"{force.shape[0]}")
        if force_points is None:
            raise ValueError("force_points is needed with forces: a point index or the "
                             "(n_frames, 2) points of application [m]")
        where = _per_frame(force_points, n_frames, pts, "force_points", "m")
    spread = number(spread, "spread", unit="m")  # text reached np.isfinite (TypeError)
    if spread:
        # each frame shifted by its position in the drawn sequence (interpolated between)
        shift = spread * np.interp(np.arange(n_frames), drawn, np.arange(len(drawn)))
        pts = pts + np.column_stack([shift, np.zeros(n_frames)])[:, None, :]
        if path_xy is not None:
            path_xy = path_xy + np.column_stack([shift, np.zeros(n_frames)])
        if force is not None:
            where = where + np.column_stack([shift, np.zeros(n_frames)])
    flat = pts[drawn].reshape(-1, 2)
    span = np.ptp(flat, axis=0)
    size = float(span.max()) or 1.0
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=_figsize(pts[drawn], 7.0, colour_bar=True),
                             layout="constrained")
    ax = _check_axes(ax)
    d = Drawing(ax, points={"poses": pts[drawn]}, frames=len(drawn), kind="strobe",
                facts={"every": every, "n_frames": n_frames, "n_points": pts.shape[1],
                       "segments": len(pairs), "times": times, "drawn": drawn,
                       "path_label": path_label, "force_label": force_label,
                       "spread": float(spread)})
    shade = np.linspace(0.55, 0.0, len(drawn))  # early light, late dark
    colours = mpl.colormaps[cmap](shade)
    alphas = np.linspace(0.6, 1.0, len(drawn))
    for c, a, f in zip(colours, alphas, drawn, strict=True):
        for i, j in pairs:
            ax.plot(pts[f, [i, j], 0], pts[f, [i, j], 1], color=c, alpha=a, lw=2.0,
                    solid_capstyle="round")
        ax.plot(pts[f, :, 0], pts[f, :, 1], "o", color=c, alpha=a, ms=3.5)
    extent = [flat]
    handles = []
    if path_xy is not None:
        (line,) = ax.plot(path_xy[:, 0], path_xy[:, 1], ls="--", color=ROLES["guide"], lw=1.4,
                          label=path_label)
        handles.append(line)
        d.points["path"] = path_xy
        extent.append(path_xy)
    if force is not None:
        mags = np.hypot(force[:, 0], force[:, 1])
        scale = (0.4 * size / (mags.max() or 1.0)) if force_scale is None else force_scale
        if not np.isfinite(scale) or scale <= 0:
            raise ValueError(f"force_scale [m/N] must be a positive number; got {force_scale!r}")
        for k, f in enumerate(drawn):
            if mags[f] == 0:
                continue
            arrow = _arrow(d, where[f], scale * force[f], label=force_label, text=None,
                           vector=force[f], kind="force", color=ROLES["force"])
            arrow.artist.set_gid(f"bmc-series|{force_label}")
            arrow.artist.arrow_patch.set_alpha(alphas[k])
            extent.append(np.vstack([where[f], where[f] + scale * force[f]]))
        handles.append(ax.plot([], [], color=ROLES["force"], lw=2.0, label=force_label)[0])
        d.facts.update(force_scale=scale, forces=force, force_points=where)
        if isinstance(ground, str) and ground == "auto":
            heights = where[drawn, 1]
            ground = float(heights.mean()) if np.ptp(heights) < 1e-3 else None
    elif isinstance(ground, str) and ground == "auto":
        ground = None
    if ground is not None:
        ground = float(as_array(ground, "ground", unit="m"))
    norm = mpl.colors.Normalize(*((times[0], times[-1]) if times is not None
                                  else (0, n_frames - 1)))
    sm = mpl.cm.ScalarMappable(norm=norm, cmap=mpl.colors.ListedColormap(
        mpl.colormaps[cmap](np.linspace(0.55, 0.0, 256))))
    bar = ax.figure.colorbar(sm, ax=ax, shrink=0.8, pad=0.02)
    bar.set_label("time [s]" if times is not None else "frame")
    everything = np.vstack(extent)
    bottom = float(everything[:, 1].min())
    if ground is not None:
        bottom = min(bottom, ground) - 0.06 * size  # the hatched band below the ground
        d.facts["ground"] = ground
    if force is not None:
        bottom = _scale_arrow(d, scale, mags.max(), everything, bottom - 0.08 * size)
    _fit(ax, np.vstack([everything, [[everything[0, 0], bottom]]]), margin=0.06 * size)
    if ground is not None:
        _ground(ax, ground, 0.06 * size)
    if spread:
        ax.set_xlabel(f"x [m], postures shifted {spread:g} m apart")
    if handles:  # below the axes, where it covers no posture
        legend_outside(ax, handles)
    return d


def _nice(value: float) -> float:
    """Return the largest 1, 2 or 5 times a power of ten not above ``value``."""
    power = 10.0 ** np.floor(np.log10(value))
    return max(m * power for m in (1.0, 2.0, 5.0) if m * power <= value)


def _scale_arrow(d: Drawing, scale: float, largest: float, drawn: np.ndarray,
                 y: float) -> float:
    """Draw a horizontal arrow of a round force at height ``y`` [m], labelled with its value.

    Left-aligned with the drawing; returns the lowest height it takes [m].
    """
    newtons = _nice(0.5 * largest) if largest > 0 else 1.0
    x0 = float(drawn[:, 0].min())
    tail, delta = np.array([x0, y]), np.array([scale * newtons, 0.0])
    d.ax.annotate("", xy=tail + delta, xytext=tail, zorder=7,
                  arrowprops={"arrowstyle": "-|>,head_width=0.3,head_length=0.6",
                              "color": ROLES["force"], "lw": 2.0, "shrinkA": 0, "shrinkB": 0})
    d.ax.annotate(f"{_number(newtons)} N", xy=tuple(tail + delta), xytext=(6, 0),
                  textcoords="offset points", ha="left", va="center", fontsize=9,
                  color=ROLES["force"])
    d.labels.append(f"{_number(newtons)} N")
    d.facts["scale_newtons"] = newtons
    return y - 0.02 * max(np.ptp(drawn[:, 1]), np.ptp(drawn[:, 0]))


def _ground(ax, height: float, depth: float) -> None:
    """Draw the ground: a line at ``height`` [m], a hatched band ``depth`` [m] below it."""
    x0, x1 = ax.get_xlim()
    ax.fill_between([x0, x1], height - depth, height, facecolor="none", hatch="////",
                    edgecolor="0.6", lw=0.0, zorder=0)
    ax.plot([x0, x1], [height, height], color="0.2", lw=1.5, zorder=0.5, gid="bmc-ground",
            label="_ground")
    ax.set_xlim(x0, x1)


class Animation:
    """A stick-figure animation: a Play widget in JupyterLab, the strobe on a static page.

    Built by :func:`animation`. Displayed in a notebook it offers both representations:
    JupyterLab with a kernel shows the player of :func:`bmc.widgets.animation.player`
    (Play button, frame slider, the posture of the current frame drawn by the browser from
    poses sent once); a page rendered without a kernel (nbconvert HTML, nbviewer, the
    course website) shows the strobe picture, stored as ``image/png`` beside the widget and
    as ``text/html`` (the picture with the strobe's description as its ``alt``).

    Attributes
    ----------
    poses : numpy.ndarray, shape (n_frames, n_points, 2)
        The postures [m].
    strobe_png : bytes
        The static strobe picture (PNG).
    strobe_drawing : Drawing
        The strobe drawn in that picture (its :meth:`~Drawing.describe` is the picture's
        text alternative).
    """

    def __init__(self, poses: np.ndarray, pairs: list[tuple[int, int]], times, interval: int,
                 path_xy, strobe_kwargs: dict, dpi: int) -> None:
        self.poses = poses
        self._pairs = pairs
        self._times = times
        self._interval = interval
        self._path = path_xy
        self._dpi = dpi
        self.strobe_png = self._strobe_png(strobe_kwargs)
        self._widget = None
        # the static strobe's text alternative (`animation(alt=...)` may give its own)
        self.alt = self.strobe_drawing.describe()

    # static representation ------------------------------------------------------
    def _strobe_drawing(self, kwargs: dict) -> Drawing:
        """Draw the static strobe on a new figure (not managed by pyplot)."""
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=_figsize(self.poses, 6.5, colour_bar=True), layout="constrained")
        FigureCanvasAgg(fig)  # for measuring the labels while the limits are fitted
        return strobe(self.poses, segments=self._pairs, times=self._times,
                      ax=fig.add_subplot(), **kwargs)

    def _strobe_png(self, kwargs: dict) -> bytes:
        self.strobe_drawing = self._strobe_drawing(kwargs)
        buf = io.BytesIO()
        self.strobe_drawing.ax.figure.savefig(buf, format="png", dpi=self._dpi,
                                              bbox_inches="tight")
        return buf.getvalue()

    # interactive representation -------------------------------------------------
    def _build(self):
        from bmc.widgets.animation import player

        width, height = _figsize(self.poses, 5.5)
        size = (480, int(round(480 * height / width)))
        box = player(self.poses, self._pairs, fps=1000.0 / self._interval, times=self._times,
                     path=self._path, margin=0.08, size=size)
        box.add_class("bmc-animation")
        return box

    @property
    def widget(self):
        """The player (:func:`bmc.widgets.animation.player`), built on first use.

        The poses go to the browser once; Play, the frame slider and the drawing are linked
        in the page, so playing never waits for the kernel.
        """
        if self._widget is None:
            self._widget = self._build()
        return self._widget

    def _repr_mimebundle_(self, include=None, exclude=None):
        from bmc.plotting import figure_html

        alt = self.alt
        bundle = dict(self.widget._repr_mimebundle_())
        bundle["image/png"] = self.strobe_png
        bundle["text/html"] = figure_html(self.strobe_png, alt)  # a static page: img with alt
        bundle["text/plain"] = repr(self)
        return bundle, {"image/png": {"alt": alt}}

    def __repr__(self) -> str:
        return f"Animation({self.poses.shape[0]} frames, {self.poses.shape[1]} points)"


def animation(
    poses: ArrayLike,
    *,
    parents: Sequence[int] | None = None,
    segments: Sequence[tuple[int, int]] | None = None,
    times: ArrayLike | None = None,
    interval: int = 50,
    path: int | ArrayLike | None = None,
    every: int | None = None,
    dpi: int = 80,
    alt: str | None = None,
    **strobe_kwargs,
) -> Animation:
    r"""Animate stick-figure postures with a Play widget; the static page shows the strobe.

    Parameters
    ----------
    poses : array_like, shape (n_frames, n_points, 2)
        Point positions [m] over time.
    parents, segments : optional
        Connectivity for trees, as in :func:`model_sketch`; default a chain.
    times : array_like, shape (n_frames,), optional
        Time of each frame [s].
    interval : int, optional
        Time between frames when playing [ms]. Default 50.
    path : int or array_like, shape (n_frames, 2), optional
        A point (index) or positions [m] whose path is traced.
    every : int, optional
        Postures drawn in the static strobe: every ``every``-th frame; default about 12
        postures in all.
    dpi : int, optional
        Resolution of the static strobe picture [dots per inch]. Default 80.
    alt : str, optional
        Text alternative of the static strobe (what the motion shows, in words and
        numbers); by default the strobe's own description (:meth:`Drawing.describe`).
    **strobe_kwargs
        More options of the static strobe (:func:`strobe`: ``forces``, ``force_points``,
        ``path_label``, ``cmap``).

    Returns
    -------
    Animation
        Display it (last line of a cell). ``Animation.widget`` is the widget alone,
        ``Animation.strobe_png`` the static picture.

    Examples
    --------
    >>> import numpy as np
    >>> from bmc import drawing, kinematics
    >>> t = np.linspace(0.0, 0.6, 31)
    >>> q, _, _ = kinematics.forward_reach(t, 0.32, 0.43)
    >>> anim = drawing.animation(kinematics.forward_kinematics([0.32, 0.43], q, joints=True),
    ...                          times=t, path=-1)
    >>> anim.strobe_png[:4] == b"\x89PNG"
    True
    """
    pts = _poses(poses)
    n_frames = pts.shape[0]
    pairs = _connectivity(pts.shape[1], parents, segments)
    times = _times(times, n_frames)
    if not isinstance(interval, (int, np.integer)) or interval <= 0:
        raise ValueError(f"interval [ms] must be a positive integer; got {interval!r}")
    if isinstance(dpi, (bool, np.bool_)) or not isinstance(dpi, (int, np.integer)) \
            or not 10 <= dpi <= 600:
        raise ValueError(f"dpi (dots per inch) must be an integer from 10 to 600; got {dpi!r}")
    path_xy = _per_frame(path, n_frames, pts, "path", "m")
    every = max(1, round(n_frames / 12)) if every is None else every
    kwargs = {"every": every, **strobe_kwargs}
    if path is not None:
        kwargs.setdefault("path", path)
    if alt is not None and (not isinstance(alt, str) or not alt.strip()):
        raise ValueError("alt must be a non-empty string (the strobe's text alternative); "
                         f"got {alt!r}: leave it out to use the strobe's own description")
    anim = Animation(pts, pairs, times, int(interval), path_xy, kwargs, dpi)
    if alt:
        anim.alt = " ".join(alt.split())
    return anim
