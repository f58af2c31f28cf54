"""Free-body diagrams: a segment of a chain (loads by Newton-Euler) or from explicit loads."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, flag, integer, positive
from bmc.constants import STANDARD_GRAVITY, G
from bmc.drawing._base import Drawing, _split_sign, _value_text
from bmc.drawing._draw import (
    _arrow,
    _capsule,
    _com_symbol,
    _fit,
    _fit_labels,
    _hinge,
    _moment,
    _new_axes,
    _segment_key,
)
from bmc.plotting import ROLES

__all__ = ["free_body_diagram", "lower_limb_diagrams", "segment_diagram"]


def __dir__() -> list[str]:
    return sorted(__all__)


def segment_diagram(
    proximal: ArrayLike,
    distal: ArrayLike,
    com: ArrayLike,
    *,
    mass: float | None = None,
    g: float = G,
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
    at its point of application (its tail there when it pulls, its head there when it pushes
    towards the centre of mass, so that every arrow stays clear of the segment) and each
    moment as a curved arrow about its point, open towards the segment.

    Every load is drawn the way it acts on this segment and labelled with its symbol and
    its magnitude, ``|M_A| = 90.7 N m`` beside a clockwise arc for ``M_A = -90.7 N m``: the
    arrow carries the direction, the label the size. A load whose symbol starts with a minus
    sign is the reaction of a load drawn on a neighbouring segment (``-M_A``: the shank's
    reaction to the ankle moment ``M_A`` on the foot, Newton's third law): give its value on
    *this* segment (``-M_A``); it is drawn the way it acts, opposite to ``M_A`` on the foot,
    and labelled with the symbol of the action, ``M_A``. Labels are placed where they cover
    neither the segment, the arrows nor each other, each time the figure is drawn.

    Parameters
    ----------
    proximal, distal, com : array_like, shape (2,)
        Proximal joint, distal end (joint or contact point) and centre of mass ``(x, y)``
        [m]. For a 3D segment (x forward, y up, z lateral, as in
        :func:`bmc.matrix_form.stance_example`) draw its sagittal projection: points and
        forces ``v[:2]``, moments their z component ``M[2]``.
    mass : float, optional
        Segment mass [kg]; draws the weight ``m g`` at the centre of mass.
    g : float, optional
        Gravitational acceleration [m/s^2], along -y. Default :data:`bmc.constants.G` (9.81).
    forces : mapping of str to (point, force), optional
        Each force acting *on* the segment: its TeX symbol (for example
        ``r"\mathbf{F}_p"``) mapped to its point of application [m] and its vector [N].
    moments : mapping of str to (point, value), optional
        Each moment acting on the segment: its TeX symbol mapped to the point where it is
        drawn [m] and its value [N m], counter-clockwise positive (with ``symbolic=True``,
        ``nan`` for an unknown).
    symbolic : bool, optional
        ``True`` labels with symbols only (for derivations). Loads are still drawn the way
        their values act; a moment given as ``nan`` (an unknown) is drawn counter-clockwise,
        its positive sense, or clockwise when its symbol names a reaction; a force that is
        zero is drawn with positive components (negative for a reaction). ``False``
        (default) adds the magnitude and unit, e.g. ``|F_p| = 12.3 N``.
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
        moments, points (``"proximal"``, ``"distal"``, ``"com"``) and labels;
        :meth:`~Drawing.describe` lists the loads with their points, directions and
        magnitudes.

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
    return _segment_diagram(**locals(), fit_labels=True)


def _segment_diagram(
    proximal: ArrayLike,
    distal: ArrayLike,
    com: ArrayLike,
    *,
    mass: float | None = None,
    g: float = G,
    forces: Mapping[str, tuple[ArrayLike, ArrayLike]] | None = None,
    moments: Mapping[str, tuple[ArrayLike, float]] | None = None,
    symbolic: bool = False,
    lever_arms: bool = False,
    force_scale: float | None = None,
    weight_label: str = "m g",
    title: str | None = None,
    ax=None,
    fit_labels: bool = True,
) -> Drawing:
    """Draw :func:`segment_diagram`; ``fit_labels=False`` leaves the label fit to the caller."""
    rp = as_array(proximal, "proximal", unit="m", last=2, ndim=1)
    rd = as_array(distal, "distal", unit="m", last=2, ndim=1)
    rc = as_array(com, "com", unit="m", last=2, ndim=1)
    length = float(np.hypot(*(rd - rp)))
    if length == 0:
        raise ValueError("proximal and distal [m] coincide: the segment has no length to draw")
    for label, value in (("forces", forces), ("moments", moments)):
        if value is not None and not isinstance(value, Mapping):
            raise TypeError(f"{label} must be a mapping of label to (point, value), e.g. "
                            f"{{'F_p': ([0, 0], [0, 10])}}; got {type(value).__name__}")
    loads = []
    for name, (point, vec) in (forces or {}).items():
        loads.append((name, as_array(point, f"forces[{name!r}] point", unit="m", last=2,
                                     ndim=1),
                      as_array(vec, f"forces[{name!r}] vector", unit="N", last=2, ndim=1)))
    weight = None
    lever_arms = flag(lever_arms, "lever_arms")
    symbolic = flag(symbolic, "symbolic")
    if mass is not None:
        mass = positive(mass, "mass", unit="kg")
        weight = np.array([0.0, -mass * g])
    sizes = [np.hypot(*v) for _, _, v in loads] + ([mass * g] if weight is not None else [])
    biggest = max([s for s in sizes if s > 0], default=1.0)
    scale = 0.6 * length / biggest if force_scale is None else positive(
        force_scale, "force_scale", unit="m/N")
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(f"force_scale [m/N] must be positive; got {force_scale!r}")

    created = ax is None
    ax = _new_axes(ax)
    key = _segment_key(rp, rd)
    d = Drawing(ax, points={"proximal": rp, "distal": rd, "com": rc},
                kind="free-body diagram", name=title or "the segment",
                facts={"symbolic": symbolic, "force_scale": scale, "length": length})
    width = 0.12 * length
    _capsule(ax, rp, rd, width)
    _hinge(ax, rp, 0.25 * width)
    _com_symbol(ax, rc, 0.3 * width)
    every = [rp, rd, rc]
    if lever_arms:
        for point in [rc] + [p for _, p, _ in loads]:
            if np.hypot(*(point - rp)) > 1e-12:
                ax.plot(*np.column_stack([rp, point]), ls="--", color=ROLES["guide"], lw=1.0,
                        zorder=2, gid="bmc-guide")

    def shown(vec):  # arrows stay visible: at least 0.1 segment lengths long
        drawn = scale * np.asarray(vec, float)
        norm = np.hypot(*drawn)
        return drawn if norm == 0 or norm >= 0.1 * length else drawn * (0.1 * length / norm)

    def where(point):
        for name, p in (("the proximal joint", rp), ("the distal end", rd),
                        ("the centre of mass", rc)):
            if np.hypot(*(point - p)) <= 1e-9 * length:
                return name
        return f"({point[0]:.3g}, {point[1]:.3g}) m"

    if weight is not None:
        text = _value_text(weight_label, mass * g, "N", symbolic, magnitude=False)
        _arrow(d, rc, shown(weight), label=weight_label, text=text, vector=weight,
               kind="weight", color=ROLES["weight"], beside=True, segment=key,
               where="the centre of mass")
        every.append(rc + shown(weight))
    for name, point, vec in loads:
        symbol, reaction = _split_sign(name)
        text = _value_text(symbol, float(np.hypot(*vec)), "N", symbolic)
        way = vec
        if not np.any(vec):
            # a zero (or an unknown that happens to be zero here): drawn with positive
            # components, negative for a reaction, so that it still has a direction
            way = (-1.0 if reaction else 1.0) * np.array([1.0, 1.0]) * 0.3 * length / scale \
                / np.sqrt(2)
        pushes = float(np.dot(way, rc - point)) > 0  # towards the segment: draw from outside
        _arrow(d, point, shown(way), label=name, text=text, vector=vec, kind="force",
               color=ROLES["force"], head_at_point=pushes, segment=key, where=where(point))
        every += [point, point - shown(way) if pushes else point + shown(way)]
    radius = 0.14 * length
    for name, (point, value) in (moments or {}).items():
        point = as_array(point, f"moments[{name!r}] point", unit="m", last=2, ndim=1)
        value = float(as_array(value, f"moments[{name!r}] value", unit="N m",
                               finite=not symbolic))  # nan: a symbolic unknown
        if np.isinf(value):
            raise ValueError(f"moments[{name!r}] value [N m] must be finite, or nan for an "
                             f"unknown drawn symbolically; got {value}")
        symbol, _ = _split_sign(name)
        text = _value_text(symbol, value, "N m", symbolic)
        # the arc's gap faces the segment (towards its centre of mass), so it stays clear
        inward = (rc if np.hypot(*(rc - point)) > 1e-9 * length else rd) - point
        _moment(d, point, value, label=name, text=text, radius=radius,
                away=float(np.arctan2(inward[1], inward[0])), segment=key,
                where=where(point))
        every += [point - 1.3 * radius, point + 1.3 * radius]
    if title:
        ax.set_title(title)
    _fit(ax, np.vstack(every), margin=0.12 * length, resize=created, labels=fit_labels)
    return d


def _chain_loads(chain, q, qd, qdd, F, g):
    """Newton-Euler from the endpoint inward: the load on every segment at both ends."""
    from bmc.kinematics import lever_kinematics
    from bmc.newton_euler import invdyn2d

    n = chain.n
    phi, omega, alpha = (chain.to_segment_angles(x) for x in (q, qd, qdd))
    e = np.column_stack([np.cos(phi), np.sin(phi)])
    _, _, acm = lever_kinematics(chain.levers, e, omega, alpha)  # centres of mass
    joints = chain.joint_positions(q)
    coms = chain.com_positions(q)
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
    contact_force: ArrayLike | None = None,
    symbolic: bool = False,
    lever_arms: bool = True,
    force_scale: float | None = None,
    ax=None,
) -> Drawing:
    r"""Free-body diagram of one segment of a planar chain, loads from Newton-Euler.

    The loads are computed from the model: Newton-Euler (:func:`bmc.invdyn2d`) from the
    endpoint inward, with the endpoint force ``contact_force`` on the last segment. Segment ``k``
    (0-based) carries its weight ``m_{k+1} g`` at its centre of mass, the force
    :math:`\mathbf{F}_{k+1}` and moment :math:`\tau_{k+1}` of joint ``k+1`` at its
    proximal end, and at its distal end the reaction of the next segment,
    :math:`-\mathbf{F}_{k+2}` and :math:`-\tau_{k+2}` (Newton's third law), or the endpoint
    force :math:`\mathbf{F}_e` on the last segment. The joint moment :math:`\tau_{k+1}` is
    the chain's joint torque ``tau[k]`` (the course's symbol: the net moment of joint
    ``k+1`` on the distal segment, counter-clockwise positive).

    Each load is drawn the way it acts on this segment, so a joint's load and its reaction
    on the neighbouring segment point opposite ways and carry the same symbol: drawn
    side by side (``segment=0`` and ``segment=1`` of a two-link arm), :math:`\tau_2` turns
    one way on the forearm and the other way on the upper arm. Labels give the magnitudes
    (``|\tau_2| = 1.23 N m``), or the symbols only with ``symbolic=True``.

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
    contact_force : array_like, shape (2,), optional
        Force on the chain's endpoint [N] (as in :meth:`PlanarChain.inverse_dynamics`); none
        by default.
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
    >>> d = bmc.drawing.free_body_diagram(arm, [-1.2, 1.5], segment=1, contact_force=[0.0, -20.0])
    >>> [a.label for a in d.arrows]
    ['m_{2} g', '\\mathbf{F}_{2}', '\\mathbf{F}_{e}']
    >>> plt.close("all")
    """
    from bmc.chain import PlanarChain

    if not isinstance(chain, PlanarChain):
        raise TypeError(f"chain must be a PlanarChain; got {type(chain).__name__}")
    symbolic = flag(symbolic, "symbolic")  # used below before segment_diagram checks it
    n = chain.n
    q = as_array(q, "q", unit="rad", last=n, ndim=1)
    qd = np.zeros(n) if qd is None else as_array(qd, "qd", unit="rad/s", last=n, ndim=1)
    qdd = np.zeros(n) if qdd is None else as_array(qdd, "qdd", unit="rad/s^2", last=n, ndim=1)
    F = (np.zeros(2) if contact_force is None else
         as_array(contact_force, "contact_force", unit="N", last=2, ndim=1))
    if not isinstance(segment, (int, np.integer)) or not -n <= segment < n:
        raise ValueError(f"segment must be an integer index of one of the chain's {n} "
                         f"segment(s) (0 to {n - 1}, or negative from the end); got {segment!r}")
    k = int(segment) % n
    joints, coms, proximal = _chain_loads(chain, q, qd, qdd, F, chain.g)
    i = k + 1  # the course's 1-based numbering of joints and segments
    forces = {rf"\mathbf{{F}}_{{{i}}}": (joints[k], proximal[k][0])}
    moments = {rf"\tau_{{{i}}}": (joints[k], proximal[k][1])}
    if k < n - 1:
        forces[rf"-\mathbf{{F}}_{{{i + 1}}}"] = (joints[k + 1], -proximal[k + 1][0])
        moments[rf"-\tau_{{{i + 1}}}"] = (joints[k + 1], -proximal[k + 1][1])
    elif np.any(F != 0) or symbolic:
        forces[r"\mathbf{F}_{e}"] = (joints[k + 1], F)
    d = segment_diagram(joints[k], joints[k + 1], coms[k], mass=float(chain.masses[k]),
                        g=chain.g, forces=forces, moments=moments, symbolic=symbolic,
                        lever_arms=lever_arms, force_scale=force_scale,
                        weight_label=rf"m_{{{i}}} g", title=f"segment {i}", ax=ax)
    return d


def lower_limb_diagrams(
    result,
    grf: ArrayLike,
    frame: int,
    masses: ArrayLike,
    *,
    g: float = STANDARD_GRAVITY,
    symbolic: bool = False,
    axes=None,
) -> list[Drawing]:
    r"""Free-body diagrams of thigh, shank and foot at one frame of a gait analysis.

    The loads are those of :func:`bmc.newton_euler.lower_limb`: at each segment's proximal
    joint the force and moment on it, labelled with the joint's number from the chain's base
    outward (:math:`\mathbf{F}_3, \tau_3` at the hip, 2 the knee, 1 the ankle), at its
    distal joint their reactions (:math:`-\mathbf{F}_2, -\tau_2`, ...), and on the foot the
    ground reaction at the centre of pressure. Each load is drawn the way it acts (a reaction
    opposite to its action on the next panel, with the same symbol) and labelled with its
    magnitude. The three panels share one length scale and
    one force scale [m/N], so that a load and its reaction are drawn alike in size, and a
    foot looks as long as it is beside the thigh. The new figure (when ``axes`` is not
    given) is 7.2 in wide, thigh and shank side by side above the foot, so that its text
    stays above 8 pt when a web page shows it 600 px wide.

    Parameters
    ----------
    result : bmc.newton_euler.LowerLimbResult
        The joint loads and the markers and centres of mass they were computed from.
    grf : array_like, shape (N, 3)
        Ground reaction ``Fx, Fy`` [N] and centre of pressure ``x`` [m] (ground at y = 0),
        as given to :func:`~bmc.newton_euler.lower_limb`.
    frame : int
        Index of the frame to draw.
    masses : array_like, shape (3,)
        Masses of thigh, shank and foot [kg] (``run.segments.mass``).
    g : float, optional
        Gravitational acceleration [m/s^2] used in the analysis. Default
        :data:`bmc.constants.STANDARD_GRAVITY` (9.80665).
    symbolic : bool, optional
        Label with symbols only. Default ``False``.
    axes : sequence of three matplotlib.axes.Axes, optional
        Where to draw thigh, shank and foot; by default a new figure, thigh and shank above
        the foot.

    Returns
    -------
    list of Drawing
        Thigh, shank, foot.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import bmc
    >>> run = bmc.datasets.load_running()       # doctest: +SKIP
    >>> res = bmc.newton_euler.lower_limb(run.markers, run.grf, run.freq,
    ...                                   run.segments)  # doctest: +SKIP
    >>> panels = bmc.drawing.lower_limb_diagrams(res, run.grf, 3000,
    ...                                          run.segments.mass)  # doctest: +SKIP
    >>> plt.close("all")
    """
    from bmc.newton_euler import LowerLimbResult

    if not isinstance(result, LowerLimbResult):
        raise TypeError("result must be the LowerLimbResult of bmc.newton_euler.lower_limb; "
                        f"got {type(result).__name__}")
    grf = as_array(grf, "grf", last=3, ndim=2)
    masses = as_array(masses, "masses", unit="kg", last=3, ndim=1)
    n_frames = result.markers.shape[0]
    symbolic = flag(symbolic, "symbolic")
    # True is an int to Python (it drew frame 1): integer() refuses booleans
    frame = integer(frame, "frame", minimum=-n_frames, maximum=n_frames - 1,
                    what=f"index of one of the {n_frames} frames")
    if grf.shape[0] != n_frames:
        raise ValueError(f"grf must have one row per frame of the result ({n_frames}); got "
                         f"{grf.shape[0]}")
    mk, com = result.markers[frame], result.com[frame]
    forces, moments = result.forces[frame], result.moments[frame]
    cop = np.array([grf[frame, 2], 0.0])
    lengths = np.hypot(*(mk[1:] - mk[:-1]).T)
    sizes = [*np.hypot(*forces.T), np.hypot(*grf[frame, :2]), *(masses * g)]
    scale = 0.6 * float(lengths.max()) / max(max(sizes), 1e-12)  # one force scale [m/N]
    if axes is None:  # thigh and shank side by side, the foot below them at the same scale
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(7.2, 7.6), layout="constrained")
        grid = fig.add_gridspec(2, 2, height_ratios=(2.2, 1.0))
        axes = [fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]),
                fig.add_subplot(grid[1, :])]
    elif len(axes) != 3:
        raise ValueError(f"axes must hold three Axes (thigh, shank, foot); got {len(axes)}")
    joint = (3, 2, 1)  # hip, knee, ankle: numbered from the foot (the base in stance) up
    drawings = []
    for s, name in enumerate(("thigh", "shank", "foot")):
        loads = {rf"\mathbf{{F}}_{{{joint[s]}}}": (mk[s], forces[s])}
        torques = {rf"\tau_{{{joint[s]}}}": (mk[s], moments[s])}
        if s < 2:
            loads[rf"-\mathbf{{F}}_{{{joint[s + 1]}}}"] = (mk[s + 1], -forces[s + 1])
            torques[rf"-\tau_{{{joint[s + 1]}}}"] = (mk[s + 1], -moments[s + 1])
        elif np.any(grf[frame, :2] != 0):
            loads[r"\mathbf{F}_{GRF}"] = (cop, grf[frame, :2])
        drawings.append(_segment_diagram(mk[s], mk[s + 1], com[s], mass=float(masses[s]),
                                         g=g, forces=loads, moments=torques,
                                         symbolic=symbolic, force_scale=scale, title=name,
                                         ax=axes[s], fit_labels=False))
    _fit_labels(*[d.ax for d in drawings])
    _same_scale([d.ax for d in drawings])
    return drawings


def _same_scale(axes) -> None:
    """Draw every Axes at one scale [m per inch]: the largest that fits each its content."""
    figure = axes[0].figure
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)  # the axes' boxes as they will be drawn (nothing drawn)
    boxes = [ax.get_position().transformed(figure.transFigure) for ax in axes]  # [px]
    spans = np.array([[np.ptp(ax.get_xlim()), np.ptp(ax.get_ylim())] for ax in axes])
    sizes = np.array([[b.width, b.height] for b in boxes]) / figure.dpi  # [in]
    per_inch = float(np.max(spans / sizes))  # [m/in] the content of every panel fits
    for ax, size in zip(axes, sizes, strict=True):
        cx, cy = np.mean(ax.get_xlim()), np.mean(ax.get_ylim())
        half = per_inch * size / 2
        ax.set_xlim(cx - half[0], cx + half[0])
        ax.set_ylim(cy - half[1], cy + half[1])
