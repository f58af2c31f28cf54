"""Model sketches: a chain or tree with joints, segment numbers, centres of mass, angles, g."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, flag
from bmc.drawing._base import Arrow, Drawing, _connectivity
from bmc.drawing._draw import (
    _capsule,
    _com_symbol,
    _curved,
    _fit,
    _hinge,
    _label,
    _new_axes,
)
from bmc.planar import PlanarModel
from bmc.plotting import ROLES

__all__ = ["model_sketch"]


def __dir__() -> list[str]:
    return sorted(__all__)


def _model_points(model: PlanarModel, q: ArrayLike | None):
    """Points, segments (index pairs) and centres of mass of any planar model at ``q``."""
    if q is None:
        raise ValueError(f"q is needed to draw a model: its {model.k} coordinates [rad] (for a "
                         "chain one joint angle per link)")
    (q,) = model.check_state(q=q)
    if q.ndim != 1:
        raise ValueError(f"q must be one frame, shape ({model.k},); got shape {q.shape}")
    ends = np.vstack([model.proximal_positions(q), model.distal_positions(q)])
    # one point where a joint meets its parent's end (a chain's elbow), as many as needed
    pts: list[np.ndarray] = []
    index = []
    for p in ends:
        same = [i for i, r in enumerate(pts) if np.allclose(r, p, rtol=0, atol=1e-12)]
        if not same:
            pts.append(p)
        index.append(same[0] if same else len(pts) - 1)
    n = model.n
    pairs = [(index[i], index[n + i]) for i in range(n)]
    return np.array(pts), pairs, model.com_positions(q)


def model_sketch(
    model: PlanarModel | ArrayLike,
    q: ArrayLike | None = None,
    *,
    parents: Sequence[int] | None = None,
    segments: Sequence[tuple[int, int]] | None = None,
    com: ArrayLike | None = None,
    angles: str | None = "joint",
    symbol: str | None = None,
    reference: float | ArrayLike = 0.0,
    values: bool = True,
    gravity: bool = True,
    numbers: bool = True,
    ax=None,
) -> Drawing:
    r"""Sketch of a planar chain or tree: joints, segment numbers, centres of mass, angles, g.

    Parameters
    ----------
    model : bmc.planar.PlanarModel or array_like, shape (k, 2)
        A planar model (a chain, a tree, Kuo's standing body, any new one), drawn at
        ``q``, or the positions of points [m] (joints and end points; for a tree give
        ``parents`` or ``segments``).
    q : array_like, shape (k,), optional
        The model's coordinates [rad, m]; needed for a model.
    parents : sequence of int, optional
        For points: the parent point of each point, ``-1`` for a root; the segments join
        each point to its parent. Default: a chain in the order of the points.
    segments : sequence of (int, int), optional
        For points: the segments as (proximal, distal) point indices (instead of
        ``parents``).
    com : array_like, shape (m, 2), optional
        For points: the centre of mass of each segment [m], in the order of the segments.
    angles : {"joint", "segment", None}, optional
        ``"joint"`` (default): the course's coordinates, the first segment's angle from the
        horizontal and every other segment's angle relative to its parent segment (from
        the parent's extension, dashed); ``"segment"``: every segment's angle from the
        horizontal; ``None``: no angles. Arcs run counter-clockwise for positive angles.
    symbol : str, optional
        TeX symbol of the angles: default ``"q"`` for joint angles and ``r"\varphi"`` for
        segment angles (``r"\alpha"`` for the two-link notebook).
    reference : float or array_like, shape (m,), optional
        Direction from which segment angles (and the angles of root segments) are measured
        [rad from +x, counter-clockwise]: 0 (default) the forward horizontal, ``pi / 2`` the
        upward vertical; one value per segment for models that measure some segments from
        the upward and others from the downward vertical (Blajer and Czaplicki's model:
        ``pi / 2`` for trunk and head, ``-pi / 2`` for the limbs).
    values : bool, optional
        Add each angle's value in degrees. Default ``True``.
    gravity : bool, optional
        Draw the direction of gravity. Default ``True``.
    numbers : bool, optional
        Number the segments 1, 2, ... Default ``True``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure is made when omitted.

    Returns
    -------
    Drawing
        ``points`` holds ``"joints"`` (k, 2) and ``"com"`` (m, 2) [m]; ``angles`` each
        angle drawn [rad]; ``labels`` the angle and segment labels; ``arrows`` the
        direction of g.

    Examples
    --------
    The two-link arm of notebook 2 with its angles named as there:

    >>> import matplotlib.pyplot as plt
    >>> import bmc
    >>> arm = bmc.PlanarChain([0.32, 0.43], [0.14, 0.17], [1.96, 1.54], [0.020, 0.024])
    >>> d = bmc.drawing.model_sketch(arm, [-0.4, 1.2], symbol=r"\alpha")
    >>> d.points["com"].shape
    (2, 2)
    >>> plt.close("all")

    A tree (a hip with two legs) from points and a parent list, angles from the vertical:

    >>> pts = [[0.0, 0.9], [0.1, 0.5], [0.0, 0.1], [-0.1, 0.5], [-0.05, 0.1]]
    >>> d = bmc.drawing.model_sketch(pts, parents=[-1, 0, 1, 0, 3], angles="segment",
    ...                              reference=np.pi / 2)
    >>> plt.close("all")

    A :class:`bmc.tree.PlanarTree` is drawn from its coordinates ``q`` the same way, its
    segments hanging from points along their parents::

        model_sketch(tree, q, angles="segment", reference=np.pi / 2)
    """
    values, gravity, numbers = (flag(v, name) for v, name in (
        (values, "values"), (gravity, "gravity"), (numbers, "numbers")))
    if angles not in ("joint", "segment", None):
        raise ValueError(f'angles must be "joint", "segment" or None; got {angles!r}')
    if isinstance(model, PlanarModel):
        pts, pairs, coms = _model_points(model, q)
    else:
        pts = as_array(model, "model points", unit="m", last=2, ndim=2)
        pairs = _connectivity(len(pts), parents, segments)
        coms = None if com is None else as_array(com, "com", unit="m", last=2, ndim=2)
        if coms is not None and len(coms) != len(pairs):
            raise ValueError(f"com must give one centre of mass per segment ({len(pairs)}); "
                             f"got {len(coms)}")
    symbol = symbol or ("q" if angles == "joint" else r"\varphi")
    seg_len = np.array([np.hypot(*(pts[b] - pts[a])) for a, b in pairs])
    size = float(np.ptp(pts, axis=0).max()) or float(seg_len.max())
    created = ax is None
    ax = _new_axes(ax)
    d = Drawing(ax, points={"joints": pts}, kind="model sketch",
                facts={"segments": pairs, "angle_meaning": {}, "chain": q is not None})
    for j, (a, b) in enumerate(pairs):
        _capsule(ax, pts[a], pts[b], 0.035 * size)
        if numbers:
            u = (pts[b] - pts[a]) / seg_len[j]
            _label(d, (pts[a] + pts[b]) / 2, str(j + 1), angle=float(np.arctan2(u[0], -u[1])),
                   color="k", fontsize=9, boxed=True, gaps=(6.0, 12.0, 20.0))
    for p in pts:
        _hinge(ax, p, 0.012 * size)
    if coms is not None:
        for c in coms:
            _com_symbol(ax, c, 0.014 * size)
        d.points["com"] = coms
    extent = [pts]
    refs = as_array(reference, "reference", unit="rad")
    if refs.ndim > 1 or refs.size not in (1, len(pairs)):
        raise ValueError(f"reference [rad] must be one direction or one per segment "
                         f"({len(pairs)}); got shape {refs.shape}")
    refs = np.broadcast_to(refs.ravel(), (len(pairs),))
    if angles is not None:
        parent_of = {b: idx for idx, (_, b) in enumerate(pairs)}
        # several angles at one point or close together (hip, shoulder and neck of a trunk):
        # nested arcs of growing radius, so that their labels do not sit on each other
        starts: list[np.ndarray] = []
        for j, (a, b) in enumerate(pairs):
            nested = sum(np.hypot(*(pts[a] - s)) < 0.1 * size for s in starts)
            starts.append(pts[a])
            phi = np.arctan2(*(pts[b] - pts[a])[::-1])
            ref = float(refs[j])
            parent = parent_of.get(a)
            meaning = f"segment {j + 1} from {_reference_words(ref)}"
            if angles == "joint" and parent is not None:
                pa, pb = pairs[parent]
                ref = np.arctan2(*(pts[pb] - pts[pa])[::-1])
                meaning = f"segment {j + 1} relative to segment {parent + 1}"
            value = (phi - ref + np.pi) % (2 * np.pi) - np.pi
            radius = 0.3 * min(seg_len[j], seg_len[parent] if parent is not None and
                               angles == "joint" else seg_len[j]) * (1 + 0.6 * nested)
            ref_end = pts[a] + 1.3 * radius * np.array([np.cos(ref), np.sin(ref)])
            ax.plot(*np.column_stack([pts[a], ref_end]), ls="--", color=ROLES["guide"],
                    lw=1.0, gid="bmc-guide")
            if abs(value) > 1e-6:
                _curved(d, pts[a], radius, ref, value, color=ROLES["angle"], lw=1.3,
                        gid="bmc-angle")
            mid = ref + value / 2
            name = f"{symbol}_{{{j + 1}}}"
            d.angles[name] = float(value)
            d.facts["angle_meaning"][name] = meaning
            text = f"${name}$"
            if values:
                text += f" = {np.degrees(value):.0f}°"
            _label(d, pts[a] + radius * np.array([np.cos(mid), np.sin(mid)]), text,
                   angle=float(mid), color=ROLES["angle"], fontsize=9)
            extent.append(np.vstack([ref_end, pts[a] + 1.2 * radius * np.array(
                [np.cos(mid), np.sin(mid)])]))
    _fit(ax, np.vstack(extent), margin=0.12 * size, resize=created)
    if gravity:
        # in the corner of the axes farthest from every drawn point
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        drawn = np.vstack(extent)
        frac = (drawn - [x0, y0]) / [x1 - x0, y1 - y0]
        corners = [(0.07, 0.95), (0.93, 0.95), (0.07, 0.30), (0.93, 0.30)]
        x, top = max(corners, key=lambda c: np.hypot(*(frac - [c[0], c[1] - 0.08]).T).min())
        tail, head = np.array([x, top]), np.array([x, top - 0.17])
        artist = ax.annotate("", xy=head, xytext=tail, xycoords="axes fraction",
                             arrowprops={"arrowstyle": "-|>", "color": ROLES["weight"],
                                         "lw": 2.0})
        artist.set_gid("bmc-gravity")
        d.arrows.append(Arrow("g", "gravity", tail, np.array([0.0, -1.0]), head - tail,
                              artist, symbol="g"))
        ax.text(x + 0.025, top - 0.09, "$g$", transform=ax.transAxes, color=ROLES["weight"],
                fontsize=11)
        d.labels.append("$g$")
    return d


def _reference_words(angle: float) -> str:
    """Write a reference direction [rad] in words."""
    deg = float(np.degrees(angle)) % 360.0
    named = {0.0: "the forward horizontal (+x)", 90.0: "the upward vertical",
             180.0: "the backward horizontal (-x)", 270.0: "the downward vertical"}
    for where, words in named.items():
        if min(abs(deg - where), 360.0 - abs(deg - where)) < 1e-6:
            return words
    return f"the direction {deg:.0f} degrees from +x"
