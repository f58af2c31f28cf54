"""Pictures drawn from the model objects: free-body diagrams, model sketches, strobes.

Every picture is computed from the same numbers as the equations (a
:class:`bmc.chain.PlanarChain` and its joint coordinates, or plain arrays of points and
forces), so a figure can never disagree with the computation, and tests can check what is
drawn. Every function takes ``ax=None`` (a new figure is made) and returns a
:class:`Drawing`: the Axes plus a record of what was drawn (arrows with their force vectors,
moments with their sense of rotation, the points, the labels).

Conventions are those of the course: x forward, y up, counter-clockwise angles and moments
positive; ``q[0]`` is the first segment's angle from the horizontal, ``q[i]`` the angle of
segment ``i+1`` relative to segment ``i``. Forces are drawn *on* the segment, each arrow's
tail at its point of application; its length is ``force_scale`` [m/N] times the force.

Matplotlib (and ipywidgets, for :func:`animation`) are imported inside the functions.

- :func:`free_body_diagram`: a segment of a chain, loads computed by Newton-Euler.
- :func:`segment_diagram`: the same picture from explicit points, forces and moments
  (the gait notebook's foot, shank and thigh; a 3D segment projected on the sagittal plane).
- :func:`model_sketch`: a chain or tree with joints, segment numbers, centres of mass, angles
  and the direction of gravity.
- :func:`strobe`: overlaid postures over time, fading by time, optional path and force.
- :func:`animation`: a Play widget stepping through the postures; its static form (a saved
  page without a kernel) is the strobe.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array

__all__ = [
    "Animation",
    "Arrow",
    "Drawing",
    "Moment",
    "animation",
    "free_body_diagram",
    "model_sketch",
    "segment_diagram",
    "strobe",
]

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
        Point of application [m].
    vector : numpy.ndarray, shape (2,)
        The force [N] (for ``"gravity"``: the unit vector of g).
    delta : numpy.ndarray, shape (2,)
        The arrow as drawn, head minus tail, in data units [m].
    artist : matplotlib.text.Annotation
        The arrow's artist.
    """

    label: str
    kind: str
    tail: np.ndarray
    vector: np.ndarray
    delta: np.ndarray
    artist: Any = None


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
    """

    ax: Any
    arrows: list[Arrow] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    points: dict[str, np.ndarray] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    frames: int = 1

    def __repr__(self) -> str:
        return (f"Drawing({len(self.arrows)} arrow(s), {len(self.moments)} moment(s), "
                f"{len(self.labels)} label(s), {self.frames} frame(s))")


# ---------------------------------------------------------------------------- helpers
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


def _arrow(drawing: Drawing, tail, delta, *, label: str, text: str | None, vector, kind: str,
           color: str, offset: float) -> None:
    tail = np.asarray(tail, float)
    delta = np.asarray(delta, float)
    head = tail + delta
    artist = drawing.ax.annotate(
        "", xy=head, xytext=tail,
        arrowprops={"arrowstyle": "-|>,head_width=0.3,head_length=0.6", "color": color,
                    "lw": 2.0, "shrinkA": 0, "shrinkB": 0},
    )
    drawing.arrows.append(Arrow(label, kind, tail, np.asarray(vector, float), delta, artist))
    if text:
        norm = np.hypot(*delta) or 1.0
        where = head + offset * delta / norm
        _text(drawing, where, text, color=color,
              ha="left" if delta[0] > 0.3 * norm else "right" if delta[0] < -0.3 * norm
              else "center",
              va="bottom" if delta[1] > 0.3 * norm else "top" if delta[1] < -0.3 * norm
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


def _tex(label: str) -> str:
    return f"${label}$"


def _value_text(label: str, value: float, unit: str, symbolic: bool) -> str:
    return _tex(label) if symbolic else f"{_tex(label)} = {value:.3g} {unit}"


# ---------------------------------------------------------------------------- FBD
def segment_diagram(
    proximal: ArrayLike,
    distal: ArrayLike,
    com: ArrayLike,
    *,
    mass: float | None = None,
    g: float = 9.81,
    forces: Mapping[str, tuple[ArrayLike, ArrayLike]] | None = None,
    moments: Mapping[str, tuple[ArrayLike, float]] | None = None,
    symbolic: bool = False,
    lever_arms: bool = False,
    force_scale: float | None = None,
    weight_label: str = "m g",
    title: str | None = None,
    ax=None,
) -> Drawing:
    r"""Free-body diagram of one planar segment from explicit points and loads.

    The segment is drawn as a bar from ``proximal`` to ``distal`` with its centre of mass,
    its weight ``m g`` at the centre of mass (if ``mass`` is given), each force as an arrow
    whose tail is its point of application and each moment as a curved arrow about its
    point (counter-clockwise for a positive value).

    Parameters
    ----------
    proximal, distal, com : array_like, shape (2,)
        Proximal joint, distal end (joint or contact point) and centre of mass ``(x, y)``
        [m]. For a 3D segment pass its sagittal projection, for example ``r[[0, 1]]``.
    mass : float, optional
        Segment mass [kg]; draws the weight ``m g`` at the centre of mass.
    g : float, optional
        Gravitational acceleration [m/s^2], along -y. Default 9.81.
    forces : mapping of str to (point, force), optional
        Each force acting *on* the segment: its TeX symbol (for example
        ``r"\mathbf{F}_p"``) mapped to its point of application [m] and its vector [N].
    moments : mapping of str to (point, value), optional
        Each moment acting on the segment: its TeX symbol mapped to the point where it is
        drawn [m] and its value [N m], counter-clockwise positive.
    symbolic : bool, optional
        ``True`` labels with symbols only (for derivations; moments drawn counter-clockwise,
        the positive sense); ``False`` (default) adds the value and unit, e.g.
        ``F_p = 12.3 N``.
    lever_arms : bool, optional
        Draw dashed lines from the proximal joint to the centre of mass and to each force's
        point of application. Default ``False``.
    force_scale : float, optional
        Arrow length per newton [m/N]; by default the largest force (or weight) is drawn
        0.6 segment lengths long. Arrows shorter than 0.1 segment lengths are drawn at that
        length (their labels carry the values), so that small forces stay visible.
    weight_label : str, optional
        TeX symbol of the weight. Default ``"m g"``.
    title : str, optional
        Axes title.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure is made when omitted.

    Returns
    -------
    Drawing
        The Axes and the record of the arrows (``kind`` ``"force"`` or ``"weight"``),
        moments, points (``"proximal"``, ``"distal"``, ``"com"``) and labels.

    Examples
    --------
    The foot in stance, with the ground reaction at the centre of pressure and the ankle
    load (numbers from :func:`bmc.invdyn2d`):

    >>> import matplotlib.pyplot as plt
    >>> from bmc import drawing
    >>> d = drawing.segment_diagram(
    ...     [0.0, 0.08], [0.15, 0.0], [0.05, 0.04], mass=1.0,
    ...     forces={r"\mathbf{F}_{GRF}": ([0.12, 0.0], [50.0, 700.0]),
    ...             r"\mathbf{F}_a": ([0.0, 0.08], [-50.0, -690.0])},
    ...     moments={r"M_a": ([0.0, 0.08], -80.0)}, title="foot")
    >>> len(d.arrows), len(d.moments)
    (3, 1)
    >>> plt.close("all")
    """
    rp = as_array(proximal, "proximal", unit="m", last=2, ndim=1)
    rd = as_array(distal, "distal", unit="m", last=2, ndim=1)
    rc = as_array(com, "com", unit="m", last=2, ndim=1)
    length = float(np.hypot(*(rd - rp)))
    if length == 0:
        raise ValueError("proximal and distal [m] coincide: the segment has no length to draw")
    loads = []
    for name, (point, vec) in (forces or {}).items():
        loads.append((name, as_array(point, f"forces[{name!r}] point", unit="m", last=2,
                                     ndim=1),
                      as_array(vec, f"forces[{name!r}] vector", unit="N", last=2, ndim=1)))
    weight = None
    if mass is not None:
        if not np.isfinite(mass) or mass <= 0:
            raise ValueError(f"mass [kg] must be a positive number; got {mass!r}")
        weight = np.array([0.0, -mass * g])
    sizes = [np.hypot(*v) for _, _, v in loads] + ([mass * g] if weight is not None else [])
    biggest = max([s for s in sizes if s > 0], default=1.0)
    scale = 0.6 * length / biggest if force_scale is None else float(force_scale)
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(f"force_scale [m/N] must be positive; got {force_scale!r}")

    created = ax is None
    ax = _new_axes(ax)
    d = Drawing(ax, points={"proximal": rp, "distal": rd, "com": rc})
    width = 0.12 * length
    _capsule(ax, rp, rd, width)
    _hinge(ax, rp, 0.25 * width)
    _com_symbol(ax, rc, 0.3 * width)
    offset = 0.04 * length
    every = [rp, rd, rc]
    if lever_arms:
        for point in [rc] + [p for _, p, _ in loads]:
            if np.hypot(*(point - rp)) > 1e-12:
                ax.plot(*np.column_stack([rp, point]), ls="--", color="0.45", lw=1.0, zorder=2)
    def shown(vec):  # arrows stay visible: at least 0.1 segment lengths long
        drawn = scale * np.asarray(vec, float)
        norm = np.hypot(*drawn)
        return drawn if norm == 0 or norm >= 0.1 * length else drawn * (0.1 * length / norm)

    if weight is not None:
        text = _value_text(weight_label, mass * g, "N", symbolic)
        _arrow(d, rc, shown(weight), label=weight_label, text=text, vector=weight,
               kind="weight", color=_GRAVITY, offset=offset)
        every.append(rc + shown(weight))
    for name, point, vec in loads:
        text = _value_text(name, float(np.hypot(*vec)), "N", symbolic)
        _arrow(d, point, shown(vec), label=name, text=text, vector=vec, kind="force",
               color=_FORCE, offset=offset)
        every += [point, point + shown(vec)]
    radius = 0.14 * length
    axis_angle = np.arctan2(*(rd - rp)[::-1])
    for name, (point, value) in (moments or {}).items():
        point = as_array(point, f"moments[{name!r}] point", unit="m", last=2, ndim=1)
        value = float(as_array(value, f"moments[{name!r}] value", unit="N m"))
        shown = np.nan if symbolic else value
        text = _value_text(name, value, "N m", symbolic)
        # start the arc on the side away from the segment, so it stays visible
        _moment(d, point, shown, label=name, text=text, radius=radius,
                start=axis_angle + np.pi / 2 + (np.pi if np.hypot(*(point - rd)) < 1e-9 else 0))
        every += [point - 1.8 * radius, point + 1.8 * radius]
    _fit(ax, np.vstack(every), margin=0.15 * length, resize=created)
    if title:
        ax.set_title(title)
    return d


def _chain_loads(chain, q, qd, qdd, F, g):
    """Newton-Euler from the endpoint inward: the load on every segment at both ends."""
    from bmc.kinematics import lever_kinematics
    from bmc.newton_euler import invdyn2d

    n = chain.n
    lengths, com = chain.lengths, chain.com
    phi = np.cumsum(q)
    e = np.column_stack([np.cos(phi), np.sin(phi)])
    levers_com = np.tril(np.broadcast_to(lengths, (n, n)), k=-1) + np.diag(com)
    _, _, acm = lever_kinematics(levers_com, e, np.cumsum(qd), np.cumsum(qdd))
    joints = chain.joint_positions(q)
    coms = chain.com_positions(q)
    alpha = np.cumsum(qdd)
    proximal = [None] * n
    f_d, m_d = np.asarray(F, float), 0.0
    for k in range(n - 1, -1, -1):
        f_p, m_p = invdyn2d(coms[k], joints[k + 1], joints[k], acm[k], alpha[k],
                            chain.masses[k], chain.inertias[k], f_d, m_d, g=g)
        proximal[k] = (np.asarray(f_p, float), float(m_p))
        f_d, m_d = -proximal[k][0], -proximal[k][1]
    return joints, coms, proximal


def free_body_diagram(
    chain,
    q: ArrayLike,
    *,
    segment: int = 0,
    qd: ArrayLike | None = None,
    qdd: ArrayLike | None = None,
    F: ArrayLike | None = None,
    symbolic: bool = False,
    lever_arms: bool = True,
    force_scale: float | None = None,
    ax=None,
) -> Drawing:
    r"""Free-body diagram of one segment of a planar chain, loads from Newton-Euler.

    The loads are computed from the model: Newton-Euler (:func:`bmc.invdyn2d`) from the
    endpoint inward, with the endpoint force ``F`` on the last segment. Segment ``k``
    (0-based) carries its weight ``m_{k+1} g`` at its centre of mass, the force
    :math:`\mathbf{F}_{k+1}` and moment :math:`M_{k+1}` of joint ``k+1`` at its proximal
    end, and at its distal end the reaction of the next segment, :math:`-\mathbf{F}_{k+2}`
    and :math:`-M_{k+2}` (Newton's third law), or the endpoint force
    :math:`\mathbf{F}_e` on the last segment. The joint moment :math:`M_{k+1}` equals the
    chain's joint torque ``tau[k]``.

    Parameters
    ----------
    chain : bmc.chain.PlanarChain
        The model.
    q : array_like, shape (n,)
        Joint coordinates of one frame [rad].
    segment : int, optional
        Which segment (0-based, negative from the end). Default 0.
    qd, qdd : array_like, shape (n,), optional
        Joint velocities [rad/s] and accelerations [rad/s^2]; zero (static) by default.
    F : array_like, shape (2,), optional
        Force on the chain's endpoint [N]; none by default.
    symbolic : bool, optional
        Label with symbols only (for derivations). Default ``False``: symbol, value, unit.
    lever_arms : bool, optional
        Dashed lines from the proximal joint to the centre of mass and the distal end.
        Default ``True``.
    force_scale : float, optional
        Arrow length per newton [m/N]; by default the largest force is 0.6 segment lengths.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure is made when omitted.

    Returns
    -------
    Drawing
        See :class:`Drawing`; ``arrows`` holds the weight and the joint and endpoint forces
        [N], ``moments`` the joint moments [N m].

    Examples
    --------
    The forearm (segment 1) of a two-link arm held still with a 20 N load in the hand:

    >>> import matplotlib.pyplot as plt
    >>> import bmc
    >>> arm = bmc.PlanarChain([0.32, 0.43], [0.14, 0.17], [1.96, 1.54], [0.020, 0.024])
    >>> d = bmc.drawing.free_body_diagram(arm, [-1.2, 1.5], segment=1, F=[0.0, -20.0])
    >>> [a.label for a in d.arrows]
    ['m_{2} g', '\\mathbf{F}_{2}', '\\mathbf{F}_{e}']
    >>> plt.close("all")
    """
    n = chain.n
    q = as_array(q, "q", unit="rad", last=n, ndim=1)
    qd = np.zeros(n) if qd is None else as_array(qd, "qd", unit="rad/s", last=n, ndim=1)
    qdd = np.zeros(n) if qdd is None else as_array(qdd, "qdd", unit="rad/s^2", last=n, ndim=1)
    F = np.zeros(2) if F is None else as_array(F, "F", unit="N", last=2, ndim=1)
    if not isinstance(segment, (int, np.integer)) or not -n <= segment < n:
        raise ValueError(f"segment must be an integer index of one of the chain's {n} "
                         f"segment(s) (0 to {n - 1}, or negative from the end); got {segment!r}")
    k = int(segment) % n
    joints, coms, proximal = _chain_loads(chain, q, qd, qdd, F, chain.g)
    i = k + 1  # the course's 1-based numbering of joints and segments
    forces = {rf"\mathbf{{F}}_{{{i}}}": (joints[k], proximal[k][0])}
    moments = {rf"M_{{{i}}}": (joints[k], proximal[k][1])}
    if k < n - 1:
        forces[rf"-\mathbf{{F}}_{{{i + 1}}}"] = (joints[k + 1], -proximal[k + 1][0])
        moments[rf"-M_{{{i + 1}}}"] = (joints[k + 1], -proximal[k + 1][1])
    elif np.any(F != 0) or symbolic:
        forces[r"\mathbf{F}_{e}"] = (joints[k + 1], F)
    d = segment_diagram(joints[k], joints[k + 1], coms[k], mass=float(chain.masses[k]),
                        g=chain.g, forces=forces, moments=moments, symbolic=symbolic,
                        lever_arms=lever_arms, force_scale=force_scale,
                        weight_label=rf"m_{{{i}}} g", title=f"segment {i}", ax=ax)
    return d


# ---------------------------------------------------------------------------- sketch
def _connectivity(n_points: int, parents: Sequence[int] | None,
                  segments: Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """Segments as (proximal, distal) point indices: a chain, a parent list or pairs."""
    if parents is not None and segments is not None:
        raise ValueError("give either parents or segments, not both")
    if segments is not None:
        pairs = [tuple(int(i) for i in s) for s in segments]
    elif parents is not None:
        if len(parents) != n_points:
            raise ValueError(f"parents must give one parent index per point ({n_points}), -1 "
                             f"for a root; got {len(parents)}")
        pairs = [(int(p), j) for j, p in enumerate(parents) if p >= 0]
    else:
        pairs = [(j, j + 1) for j in range(n_points - 1)]
    for a, b in pairs:
        if not (0 <= a < n_points and 0 <= b < n_points) or len((a, b)) != 2:
            raise ValueError(f"segment ({a}, {b}) names a point outside 0..{n_points - 1}")
    return pairs


def _is_chain(model) -> bool:
    return hasattr(model, "joint_positions") and hasattr(model, "com_positions")


def model_sketch(
    model,
    q: ArrayLike | None = None,
    *,
    parents: Sequence[int] | None = None,
    segments: Sequence[tuple[int, int]] | None = None,
    com: ArrayLike | None = None,
    angles: str | None = "joint",
    symbol: str | None = None,
    reference: float = 0.0,
    values: bool = True,
    gravity: bool = True,
    numbers: bool = True,
    ax=None,
) -> Drawing:
    r"""Sketch of a planar chain or tree: joints, segment numbers, centres of mass, angles, g.

    Parameters
    ----------
    model : bmc.chain.PlanarChain or array_like, shape (k, 2)
        A chain (drawn at ``q``), or the positions of the points [m] of any planar model
        (joints and end points; for a tree give ``parents`` or ``segments``).
    q : array_like, shape (n,), optional
        Joint coordinates [rad]; needed for a chain.
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
        TeX symbol of the angles: default ``"q"`` for joint angles and ``r"\phi"`` for
        segment angles (``r"\alpha"`` for the two-link notebook).
    reference : float, optional
        Direction from which segment angles (and the angles of root segments) are measured
        [rad from +x, counter-clockwise]: 0 (default) the forward horizontal, ``pi / 2`` the
        upward vertical (as in Blajer and Czaplicki's model).
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
        ``points`` holds ``"joints"`` (k, 2) and ``"com"`` (m, 2) [m]; ``labels`` the
        angle and segment labels; ``arrows`` the direction of g.

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

    A :class:`bmc.reactions.PlanarTree` at coordinates ``q``, whose segments hang from points
    along their parents: give each segment's two ends as points and the pairs as
    ``segments``::

        ends = np.vstack([tree.joint_positions(q), tree.distal_positions(q)])
        model_sketch(ends, segments=[(i, tree.n + i) for i in range(tree.n)],
                     angles="segment", reference=np.pi / 2)
    """
    if angles not in ("joint", "segment", None):
        raise ValueError(f'angles must be "joint", "segment" or None; got {angles!r}')
    if _is_chain(model):
        if q is None:
            raise ValueError("q [rad] is needed to draw a chain: one joint angle per link")
        q = as_array(q, "q", unit="rad", last=model.n, ndim=1)
        pts = model.joint_positions(q)
        coms = model.com_positions(q)
        pairs = _connectivity(len(pts), None, None)
    else:
        pts = as_array(model, "model points", unit="m", last=2, ndim=2)
        pairs = _connectivity(len(pts), parents, segments)
        coms = None if com is None else as_array(com, "com", unit="m", last=2, ndim=2)
        if coms is not None and len(coms) != len(pairs):
            raise ValueError(f"com must give one centre of mass per segment ({len(pairs)}); "
                             f"got {len(coms)}")
    symbol = symbol or ("q" if angles == "joint" else r"\phi")
    seg_len = np.array([np.hypot(*(pts[b] - pts[a])) for a, b in pairs])
    size = float(np.ptp(pts, axis=0).max()) or float(seg_len.max())
    created = ax is None
    ax = _new_axes(ax)
    d = Drawing(ax, points={"joints": pts})
    for j, (a, b) in enumerate(pairs):
        _capsule(ax, pts[a], pts[b], 0.035 * size)
        if numbers:
            mid = (pts[a] + pts[b]) / 2
            u = (pts[b] - pts[a]) / seg_len[j]
            where = mid + 0.06 * size * np.array([-u[1], u[0]])
            _text(d, where, str(j + 1), fontsize=9,
                  bbox={"boxstyle": "circle,pad=0.2", "fc": "white", "ec": "0.3"})
    for p in pts:
        _hinge(ax, p, 0.012 * size)
    if coms is not None:
        for c in coms:
            _com_symbol(ax, c, 0.014 * size)
        d.points["com"] = coms
    extent = [pts]
    if angles is not None:
        parent_of = {b: idx for idx, (_, b) in enumerate(pairs)}
        for j, (a, b) in enumerate(pairs):
            phi = np.arctan2(*(pts[b] - pts[a])[::-1])
            ref = float(reference)
            parent = parent_of.get(a)
            if angles == "joint" and parent is not None:
                pa, pb = pairs[parent]
                ref = np.arctan2(*(pts[pb] - pts[pa])[::-1])
            value = (phi - ref + np.pi) % (2 * np.pi) - np.pi
            radius = 0.3 * min(seg_len[j], seg_len[parent] if parent is not None and
                               angles == "joint" else seg_len[j])
            ref_end = pts[a] + 1.3 * radius * np.array([np.cos(ref), np.sin(ref)])
            ax.plot(*np.column_stack([pts[a], ref_end]), ls="--", color="0.5", lw=1.0)
            if abs(value) > 1e-6:
                _curved(d, pts[a], radius, ref, value, color=_ANGLE, lw=1.3)
            mid = ref + value / 2
            where = pts[a] + 1.45 * radius * np.array([np.cos(mid), np.sin(mid)])
            text = f"${symbol}_{{{j + 1}}}$"
            if values:
                text += f" = {np.degrees(value):.0f}°"
            _text(d, where, text, color=_ANGLE, fontsize=9)
            extent.append(np.vstack([ref_end, where]))
    if gravity:
        head, tail = np.array([0.93, 0.78]), np.array([0.93, 0.95])
        artist = ax.annotate("", xy=head, xytext=tail, xycoords="axes fraction",
                             arrowprops={"arrowstyle": "-|>", "color": _GRAVITY, "lw": 2.0})
        d.arrows.append(Arrow("g", "gravity", tail, np.array([0.0, -1.0]), head - tail,
                              artist))
        ax.text(0.955, 0.86, "$g$", transform=ax.transAxes, color=_GRAVITY, fontsize=11)
        d.labels.append("$g$")
    _fit(ax, np.vstack(extent), margin=0.12 * size, resize=created)
    return d


# ---------------------------------------------------------------------------- strobe
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


def strobe(
    poses: ArrayLike,
    *,
    parents: Sequence[int] | None = None,
    segments: Sequence[tuple[int, int]] | None = None,
    times: ArrayLike | None = None,
    every: int = 1,
    path: int | ArrayLike | None = None,
    path_label: str = "path",
    forces: ArrayLike | None = None,
    force_points: int | ArrayLike | None = None,
    force_scale: float | None = None,
    force_label: str = "force",
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
        Default 1.
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
        extent.
    force_label : str, optional
        Legend entry of the forces.
    spread : float, optional
        Horizontal shift between consecutive drawn postures [m], to separate postures of a
        movement in place (a somersault, standing sway); the path and the forces shift with
        their frame, and the x axis then shows positions plus the shift. Default 0
        (postures drawn where they are).
    cmap : str, optional
        Matplotlib colour map from early (light) to late (dark). Default ``"viridis"``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure sized to the movement is made when omitted.

    Returns
    -------
    Drawing
        ``frames`` is the number of postures drawn; ``arrows`` the forces.

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
    if not isinstance(every, (int, np.integer)) or every < 1:
        raise ValueError(f"every must be a positive integer (frames); got {every!r}")
    pairs = _connectivity(pts.shape[1], parents, segments)
    if times is not None:
        times = as_array(times, "times", unit="s", ndim=1)
        if times.size != n_frames:
            raise ValueError(f"times [s] must have one value per frame ({n_frames}); got "
                             f"{times.size}")
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
    if not np.isfinite(spread):
        raise ValueError(f"spread [m] must be a finite number; got {spread!r}")
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

        ratio = float(np.clip((span[1] + 0.2 * size) / (span[0] + 0.2 * size), 0.4, 1.3))
        _, ax = plt.subplots(figsize=(7.0, 7.0 * ratio * 0.85 + 0.6), layout="constrained")
    d = Drawing(ax, points={"poses": pts[drawn]}, frames=len(drawn))
    colours = mpl.colormaps[cmap](np.linspace(0.15, 0.9, len(drawn)))
    alphas = np.linspace(0.45, 1.0, len(drawn))
    for c, a, f in zip(colours, alphas, drawn, strict=True):
        for i, j in pairs:
            ax.plot(pts[f, [i, j], 0], pts[f, [i, j], 1], color=c, alpha=a, lw=2.0,
                    solid_capstyle="round")
        ax.plot(pts[f, :, 0], pts[f, :, 1], "o", color=c, alpha=a, ms=3.5)
    extent = [flat]
    if path_xy is not None:
        ax.plot(path_xy[:, 0], path_xy[:, 1], ls="--", color="0.25", lw=1.2, label=path_label)
        d.points["path"] = path_xy
        extent.append(path_xy)
    if force is not None:
        mags = np.hypot(force[:, 0], force[:, 1])
        scale = (0.4 * size / (mags.max() or 1.0)) if force_scale is None else force_scale
        for k, f in enumerate(drawn):
            if mags[f] == 0:
                continue
            _arrow(d, where[f], scale * force[f], label=force_label, text=None,
                   vector=force[f], kind="force", color=_FORCE, offset=0.0)
            d.arrows[-1].artist.arrow_patch.set_alpha(alphas[k])
            extent.append(np.vstack([where[f], where[f] + scale * force[f]]))
        ax.plot([], [], color=_FORCE, lw=2.0, label=force_label)
    norm = mpl.colors.Normalize(*((times[0], times[-1]) if times is not None
                                  else (0, n_frames - 1)))
    sm = mpl.cm.ScalarMappable(norm=norm, cmap=mpl.colors.ListedColormap(
        mpl.colormaps[cmap](np.linspace(0.15, 0.9, 256))))
    bar = ax.figure.colorbar(sm, ax=ax, shrink=0.8, pad=0.02)
    bar.set_label("time [s]" if times is not None else "frame")
    _fit(ax, np.vstack(extent), margin=0.08 * size)
    if spread:
        ax.set_xlabel(f"x [m], postures shifted {spread:g} m apart")
    if path_xy is not None or force is not None:
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
    return d


# ---------------------------------------------------------------------------- animation
class Animation:
    """A stick-figure animation: a Play widget in JupyterLab, the strobe on a static page.

    Built by :func:`animation`. Displayed in a notebook it offers both representations:
    JupyterLab with a kernel shows the widget (Play button, frame slider, the posture of
    the current frame); a page rendered without a kernel (nbconvert HTML, nbviewer) shows
    the strobe picture, stored as ``image/png`` beside the widget.

    Attributes
    ----------
    poses : numpy.ndarray, shape (n_frames, n_points, 2)
        The postures [m].
    strobe_png : bytes
        The static strobe picture (PNG).
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
        self._fig = None

    # static representation ------------------------------------------------------
    def _strobe_png(self, kwargs: dict) -> bytes:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6.5, 5.0), layout="constrained")
        ax = fig.add_subplot()
        strobe(self.poses, segments=self._pairs, times=self._times, ax=ax, **kwargs)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=self._dpi)
        return buf.getvalue()

    # interactive representation -------------------------------------------------
    def _build(self):
        import ipywidgets as widgets
        from matplotlib.figure import Figure

        pts = self.poses
        fig = Figure(figsize=(5.5, 4.5), layout="constrained")
        ax = fig.add_subplot()
        flat = pts.reshape(-1, 2)
        size = float(np.ptp(flat, axis=0).max()) or 1.0
        _fit(ax, flat, margin=0.08 * size)
        ax.grid(alpha=0.3)
        lines = [ax.plot([], [], color="#1f3b73", lw=3.0, marker="o", ms=5)[0]
                 for _ in self._pairs]
        trail = ax.plot([], [], ls="--", color="0.4", lw=1.2)[0]
        stamp = ax.text(0.02, 0.96, "", transform=ax.transAxes, va="top")
        image = widgets.Image(format="png")
        n = pts.shape[0]
        play = widgets.Play(value=0, min=0, max=n - 1, step=1, interval=self._interval,
                            description="play")
        slider = widgets.IntSlider(value=0, min=0, max=n - 1, description="frame")
        widgets.jslink((play, "value"), (slider, "value"))

        def show(change: Any = None) -> None:
            f = slider.value
            for line, (i, j) in zip(lines, self._pairs, strict=True):
                line.set_data(pts[f, [i, j], 0], pts[f, [i, j], 1])
            if self._path is not None:
                trail.set_data(self._path[: f + 1, 0], self._path[: f + 1, 1])
            stamp.set_text(f"t = {self._times[f]:.3f} s" if self._times is not None
                           else f"frame {f}")
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=self._dpi)
            image.value = buf.getvalue()

        slider.observe(show, names="value")
        show()
        self._fig = fig
        self._show = show
        box = widgets.VBox([widgets.HBox([play, slider]), image])
        box.add_class("bmc-animation")
        return box

    @property
    def widget(self):
        """The ipywidgets box (Play, slider, image), built on first use."""
        if self._widget is None:
            self._widget = self._build()
        return self._widget

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = dict(self.widget._repr_mimebundle_())
        bundle["image/png"] = self.strobe_png
        bundle["text/plain"] = repr(self)
        return bundle

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
        Resolution of the pictures [dots per inch]. Default 80.
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
    if times is not None:
        times = as_array(times, "times", unit="s", ndim=1)
        if times.size != n_frames:
            raise ValueError(f"times [s] must have one value per frame ({n_frames}); got "
                             f"{times.size}")
    if not isinstance(interval, (int, np.integer)) or interval <= 0:
        raise ValueError(f"interval [ms] must be a positive integer; got {interval!r}")
    path_xy = _per_frame(path, n_frames, pts, "path", "m")
    every = max(1, round(n_frames / 12)) if every is None else every
    kwargs = {"every": every, **strobe_kwargs}
    if path is not None:
        kwargs.setdefault("path", path)
    return Animation(pts, pairs, times, int(interval), path_xy, kwargs, dpi)
