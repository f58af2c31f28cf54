"""Planar kinematics: rotations, chains, two-link inverse kinematics, minimum jerk, markers.

Chains use the joint coordinates of :mod:`bmc.chain`: ``q[0]`` is the first segment's angle
from +x, ``q[i]`` (``i >= 1``) the angle of segment ``i+1`` relative to segment ``i``, all
counter-clockwise [rad], the base joint at the origin. Every function takes one frame or
``N`` frames (time on axis 0) and broadcasts.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._kernels import cross, lever_jacobian, points_on_segments
from bmc._kernels import perp as rotate90
from bmc._planar import topology
from bmc._validation import as_array, flag, frames, positive

__all__ = [
    "FORWARD_REACH",
    "cross2",
    "forward_kinematics",
    "forward_reach",
    "inverse_kinematics_2link",
    "jacobian",
    "lever_kinematics",
    "joint_rates_2link",
    "minimum_jerk",
    "minimum_jerk_profile",
    "minimum_jerk_reach_2link",
    "perp",
    "planar_rotation",
    "segment_angle",
]


def __dir__() -> list[str]:
    return sorted(__all__)


def planar_rotation(angle: ArrayLike) -> np.ndarray:
    """Planar rotation matrices ``[[cos, -sin], [sin, cos]]``.

    Parameters
    ----------
    angle : array_like, shape (...)
        Rotation angle(s), counter-clockwise [rad].

    Returns
    -------
    numpy.ndarray, shape (..., 2, 2)
        ``R @ v`` rotates the vector ``v`` by ``angle``.

    Examples
    --------
    >>> print(np.round(planar_rotation(np.pi / 2) @ [1.0, 0.0], 12))
    [0. 1.]
    """
    a = as_array(angle, "angle", unit="rad")
    c, s = np.cos(a), np.sin(a)
    return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)


def _unit(phi: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(phi), np.sin(phi)], axis=-1)


def _chain_args(lengths: ArrayLike, q: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.atleast_1d(as_array(lengths, "lengths", unit="m"))
    if lengths.ndim != 1 or lengths.size == 0 or np.any(lengths <= 0):
        raise ValueError(
            f"lengths [m] must be a 1-D sequence of one or more positive link lengths; got "
            f"{lengths.tolist()}"
        )
    q = as_array(q, "q", unit="rad")
    if q.shape[-1:] != (lengths.size,):  # the pair is at fault: name both
        raise ValueError(f"q [rad] must have one angle per link of lengths ({lengths.size}), "
                         f"shape ({lengths.size},) or (N, {lengths.size}); got shape {q.shape}")
    return lengths, q


def forward_kinematics(lengths: ArrayLike, q: ArrayLike, *, joints: bool = False) -> np.ndarray:
    """Endpoint (or every joint) position of a planar chain.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Link lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].
    joints : bool, optional
        ``False`` (default): return the endpoint only. ``True``: return the base, every
        joint and the endpoint.

    Returns
    -------
    numpy.ndarray, shape (..., 2) or (..., n + 1, 2)
        Positions ``(x, y)`` [m].

    Examples
    --------
    >>> print(np.round(forward_kinematics([0.3, 0.4], [np.pi / 2, -np.pi / 2]), 12))
    [0.4 0.3]
    """
    lengths, q = _chain_args(lengths, q)
    joints = flag(joints, "joints")
    n = lengths.size
    # the chain's levers, as every planar model's: its joints, then (as the centre of mass
    # of a link whose mass sat at its end) the endpoint
    tree = topology(tuple(range(-1, n - 1)), np.concatenate([[0.0], lengths[:-1]]), lengths,
                    base_pin=True)
    levers = np.vstack([tree.lever, tree.com_lever[-1:]])
    points = points_on_segments(levers if joints else levers[-1:],
                                _unit(np.cumsum(q, axis=-1)))[0]
    return points if joints else points[..., 0, :]


def jacobian(lengths: ArrayLike, q: ArrayLike) -> np.ndarray:
    """Endpoint Jacobian of a planar chain, ``J = d(endpoint) / dq``.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Link lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].

    Returns
    -------
    numpy.ndarray, shape (..., 2, n)
        [m/rad]; the endpoint velocity is ``J @ qd`` and a force ``F`` at the endpoint
        needs the joint torques ``J.T @ F`` to be held.

    Examples
    --------
    >>> print(np.round(jacobian([1.0], [np.pi / 2]), 12))
    [[-1.]
     [ 0.]]
    """
    lengths, q = _chain_args(lengths, q)
    n = lengths.size
    # the endpoint is sum_j l_j e_j and segment j turns with the joints up to it (phi = T q)
    return lever_jacobian(lengths[None], _unit(np.cumsum(q, axis=-1)),
                          np.tril(np.ones((n, n))))[..., 0, :, :]


def inverse_kinematics_2link(
    p: ArrayLike, l1: float, l2: float, *, elbow: str = "down", tol: float = 1e-9
) -> np.ndarray:
    """Joint angles that put a two-link chain's endpoint at ``p``.

    Parameters
    ----------
    p : array_like, shape (..., 2)
        Target endpoint position(s) ``(x, y)`` [m], relative to the base joint.
    l1, l2 : float
        Lengths of the proximal and distal links [m].
    elbow : {"down", "up"}, optional
        Which of the two mirror solutions: ``"down"`` (default) has ``q[1] >= 0``
        (counter-clockwise, the elbow flexion of a right arm seen from its right side),
        ``"up"`` has ``q[1] <= 0``.
    tol : float, optional
        Targets out of reach by less than this [m] (round-off at full extension) are moved
        onto the boundary instead of raising.

    Returns
    -------
    numpy.ndarray, shape (..., 2)
        ``(q1, q2)`` [rad], ``q1`` from +x, ``q2`` relative to link 1.

    Raises
    ------
    ValueError
        If a target is farther than ``l1 + l2`` or closer than ``|l1 - l2|`` to the base;
        the message says by how many metres and at which frame.

    Examples
    --------
    >>> q = inverse_kinematics_2link([0.3, 0.4], 0.3, 0.4)
    >>> print(np.round(np.degrees(q), 6) + 0.0)
    [ 0. 90.]
    """
    l1 = positive(l1, "l1", unit="m")
    l2 = positive(l2, "l2", unit="m")
    if elbow not in ("down", "up"):
        raise ValueError(f'elbow must be "down" or "up"; got {elbow!r}')
    p = as_array(p, "p", unit="m", last=2)
    r = np.hypot(p[..., 0], p[..., 1])
    outer, inner = l1 + l2, abs(l1 - l2)
    for excess, what, limit in ((r - outer, "beyond the reach", outer),
                                (inner - r, "inside the inner limit", inner)):
        bad = excess > tol
        if np.any(bad):
            chain = f"(|p| = {limit:.6g} m for l1 = {l1:.6g} m, l2 = {l2:.6g} m)"
            if excess.ndim == 0:
                raise ValueError(
                    f"target p is out of reach: it lies {what} of the two-link chain {chain} "
                    f"by {float(excess):.6g} m"
                )
            worst = np.unravel_index(np.argmax(np.where(bad, excess, -np.inf)), excess.shape)
            raise ValueError(
                f"target p is out of reach: {int(bad.sum())} frame(s) lie {what} of the "
                f"two-link chain {chain}; the worst, at index "
                f"{tuple(int(i) for i in worst)}, is {float(excess[worst]):.6g} m out of reach"
            )
    cos_q2 = np.clip((r**2 - l1**2 - l2**2) / (2 * l1 * l2), -1.0, 1.0)
    q2 = np.arccos(cos_q2)
    if elbow == "up":
        q2 = -q2
    q1 = np.arctan2(p[..., 1], p[..., 0]) - np.arctan2(l2 * np.sin(q2), l1 + l2 * np.cos(q2))
    return np.stack([q1, q2], axis=-1)


def joint_rates_2link(
    lengths: ArrayLike, q: ArrayLike, v: ArrayLike, a: ArrayLike | None = None
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Joint velocities (and accelerations) of a two-link chain from endpoint ones.

    Solves ``J qd = v`` and ``J qdd = a - Jdot qd`` exactly (no numerical differentiation).

    Parameters
    ----------
    lengths : array_like, shape (2,)
        Link lengths [m].
    q : array_like, shape (..., 2)
        Joint angles [rad].
    v : array_like, shape (..., 2)
        Endpoint velocity [m/s].
    a : array_like, shape (..., 2), optional
        Endpoint acceleration [m/s^2].

    Returns
    -------
    qd : numpy.ndarray, shape (..., 2)
        Joint angular velocities [rad/s].
    qdd : numpy.ndarray, shape (..., 2)
        Joint angular accelerations [rad/s^2], only if ``a`` is given.

    Raises
    ------
    ValueError
        At a singular posture (``sin q2 = 0``: arm fully extended or folded), where the
        joint rates are not defined by the endpoint motion.

    Examples
    --------
    >>> print(np.round(joint_rates_2link([1.0, 1.0], [0.0, np.pi / 2], [0.0, 1.0]), 12))
    [ 1. -1.]
    """
    if np.size(as_array(lengths, "lengths", unit="m")) != 2:
        raise ValueError(f"lengths must hold the two link lengths [m]; got "
                         f"{np.size(lengths)} value(s)")
    lengths, q = _chain_args(lengths, q)
    v = as_array(v, "v", unit="m/s", last=2)
    jac = jacobian(lengths, q)
    det = lengths[0] * lengths[1] * np.sin(q[..., 1])
    # arccos near full extension loses half the digits: |q2| < 1e-7 rad is singular in
    # floating point (the joint rates would be amplified by more than 1e7).
    singular = np.abs(det) < 1e-7 * lengths[0] * lengths[1]
    if np.any(singular):
        where = tuple(int(i) for i in np.argwhere(singular)[0])
        raise ValueError(
            f"q [rad] must keep the two-link chain off a singular posture; got sin q2 = 0 "
            f"(fully extended or folded) at index {where}; joint rates are not defined by "
            "the endpoint motion there (they grow without bound as the posture is approached)"
        )
    inv = np.stack([np.stack([jac[..., 1, 1], -jac[..., 0, 1]], -1),
                    np.stack([-jac[..., 1, 0], jac[..., 0, 0]], -1)], -2) / det[..., None, None]
    qd = np.einsum("...ij,...j->...i", inv, v)
    if a is None:
        return qd
    a = as_array(a, "a", unit="m/s^2", last=2)
    # Jdot qd: the velocity-product (centripetal) part of the endpoint acceleration, i.e.
    # the endpoint's acceleration with the segments turning at their rates, none speeding up
    phi = np.cumsum(q, axis=-1)
    phid = np.cumsum(qd, axis=-1)
    axes = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    centripetal = lever_kinematics(lengths[None, :], axes, phid, np.zeros_like(phid))[2]
    qdd = np.einsum("...ij,...j->...i", inv, a - centripetal[..., 0, :])
    return qd, qdd


def minimum_jerk(
    x0: ArrayLike, xf: ArrayLike, duration: float, t: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Minimum-jerk trajectory between two rest positions (Flash and Hogan 1985).

    ``x(t) = x0 + (xf - x0) (10 s^3 - 15 s^4 + 6 s^5)`` with ``s = t / duration``: the
    movement that minimises the integrated squared jerk with zero velocity and acceleration
    at both ends. Before ``t = 0`` the position is held at ``x0``, after ``duration`` at
    ``xf``.

    Parameters
    ----------
    x0, xf : array_like, shape (...)
        Start and end positions (any unit, for example [m] or [rad]); broadcast together.
    duration : float
        Movement time [s], > 0.
    t : array_like, shape (N,)
        Times [s].

    Returns
    -------
    position, velocity, acceleration : numpy.ndarray, each shape (N, ...)
        In the unit of ``x0`` per second to the power 0, 1, 2.

    References
    ----------
    .. [1] T. Flash, N. Hogan, "The coordination of arm movements: an experimentally
       confirmed mathematical model", *Journal of Neuroscience* 5(7), 1688-1703, 1985.

    Examples
    --------
    >>> x, v, a = minimum_jerk([0.0, 0.0], [1.0, 2.0], 2.0, [0.0, 1.0, 2.0])
    >>> print(x)
    [[0.  0. ]
     [0.5 1. ]
     [1.  2. ]]
    >>> print(np.round(v[1], 6))   # peak speed 15/8 of the mean speed
    [0.9375 1.875 ]
    """
    x0 = as_array(x0, "x0")
    xf = as_array(xf, "xf")
    for name, x in (("x0", x0), ("xf", xf)):
        if x.size == 0:  # broadcast, it would empty the other: a movement of nothing
            raise ValueError(f"{name} must hold at least one position (a number, or one per "
                             f"coordinate); got an empty array of shape {x.shape}")
    try:
        span = np.broadcast_arrays(x0, xf)
    except ValueError:
        raise ValueError(
            f"x0 and xf must have the same shape; got {x0.shape} and {xf.shape}"
        ) from None
    big_t = positive(duration, "duration", unit="s")
    t = as_array(t, "t", unit="s", ndim=1)
    shape = (-1,) + (1,) * span[0].ndim
    value, slope, curvature = minimum_jerk_profile((t / big_t).reshape(shape))
    delta = span[1] - span[0]
    return (span[0] + delta * value, delta * slope / big_t,
            delta * curvature / big_t**2)


def minimum_jerk_profile(s: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the minimum-jerk step from 0 to 1 in normalised time, with two derivatives.

    ``x(s) = 10 s^3 - 15 s^4 + 6 s^5`` for ``0 <= s <= 1``, held at 0 before and at 1 after;
    its first and second derivatives with respect to ``s`` vanish at both ends. A movement
    from ``x0`` to ``xf`` that starts at ``t0`` and lasts ``T`` is ``x0 + (xf - x0) x(s)``
    with ``s = (t - t0) / T``; its velocity is ``(xf - x0) x'(s) / T`` and its acceleration
    ``(xf - x0) x''(s) / T**2``: :func:`minimum_jerk` for one start and duration, or a
    program of steps that each have their own (the body shape of the generated somersault).

    Parameters
    ----------
    s : array_like, shape (...)
        Normalised time [-] (any shape).

    Returns
    -------
    value, slope, curvature : numpy.ndarray, each the shape of ``s``
        ``x(s)``, ``dx/ds`` and ``d2x/ds2`` [-].

    Examples
    --------
    >>> x, dx, ddx = minimum_jerk_profile([-1.0, 0.5, 2.0])
    >>> print(x, dx)   # at the midpoint: half way, at 15/8 of the mean speed
    [0.  0.5 1. ] [0.    1.875 0.   ]
    >>> print(minimum_jerk_profile(0.25)[2])   # accelerating in the first half
    5.625
    """
    x = np.clip(as_array(s, "s"), 0.0, 1.0)
    return (x**3 * (10.0 - 15.0 * x + 6.0 * x**2), 30.0 * x**2 * (1.0 - x) ** 2,
            60.0 * x * (1.0 - x) * (1.0 - 2.0 * x))


def minimum_jerk_reach_2link(
    p0: ArrayLike,
    pf: ArrayLike,
    duration: float,
    t: ArrayLike,
    l1: float,
    l2: float,
    *,
    elbow: str = "down",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint kinematics of a two-link reach whose endpoint follows a minimum-jerk path.

    The endpoint moves on the straight line from ``p0`` to ``pf`` with the minimum-jerk
    time course (:func:`minimum_jerk`); the joint angles follow by inverse kinematics and
    the joint velocities and accelerations exactly, from the endpoint ones
    (:func:`joint_rates_2link`), without numerical differentiation.

    Parameters
    ----------
    p0, pf : array_like, shape (2,)
        Start and end of the endpoint [m], relative to the base joint.
    duration : float
        Movement time [s].
    t : array_like, shape (N,)
        Times [s].
    l1, l2 : float
        Link lengths [m].
    elbow : {"down", "up"}, optional
        Inverse-kinematics branch (see :func:`inverse_kinematics_2link`).

    Returns
    -------
    q, qd, qdd : numpy.ndarray, each shape (N, 2)
        Joint angles [rad], velocities [rad/s] and accelerations [rad/s^2].

    Raises
    ------
    ValueError
        If a sample is out of reach, or at a singular posture (for example a start at full
        extension, where the joint accelerations are unbounded: begin the time grid just
        after the start).

    Examples
    --------
    >>> t = np.linspace(0.0, 1.0, 5)
    >>> q, qd, qdd = minimum_jerk_reach_2link([0.3, 0.1], [0.1, 0.4], 1.0, t, 0.3, 0.3)
    >>> q.shape, bool(np.allclose(qd[[0, -1]], 0.0))
    ((5, 2), True)
    """
    for name, point in (("p0", p0), ("pf", pf)):
        if np.shape(as_array(point, name, unit="m")) != (2,):
            raise ValueError(f"{name} [m] must be one planar point (x, y); got shape "
                             f"{np.shape(point)}")
    p, v, a = minimum_jerk(p0, pf, duration, t)
    if p.shape[1:] != (2,):
        raise ValueError(f"p0 and pf [m] must be planar points (x, y); got shape {p.shape[1:]}")
    try:
        q = inverse_kinematics_2link(p, l1, l2, elbow=elbow)
    except ValueError as exc:
        if "out of reach" not in str(exc):
            raise
        raise ValueError(f"p0 and pf [m] must be joined by a straight path within the "
                         f"chain's reach; got a path that leaves it: {exc}; move p0 or pf "
                         "within reach") from None
    qd, qdd = joint_rates_2link([l1, l2], q, v, a)
    return q, qd, qdd


def segment_angle(proximal: ArrayLike, distal: ArrayLike) -> np.ndarray:
    """Angle of the segment from a proximal to a distal marker, from +x, unwrapped in time.

    Parameters
    ----------
    proximal, distal : array_like, shape (..., 2)
        Marker positions ``(x, y)`` [m]; one frame or ``N`` frames (time on axis 0).

    Returns
    -------
    numpy.ndarray, shape (...)
        Counter-clockwise angle of ``distal - proximal`` from +x [rad]; for ``N`` frames it
        is unwrapped along axis 0 (no jumps of 2 pi), starting in ``(-pi, pi]``.

    Examples
    --------
    >>> hip = [[0.0, 1.0], [0.0, 1.0]]
    >>> knee = [[0.0, 0.5], [0.1, 0.5]]
    >>> print(np.round(np.degrees(segment_angle(hip, knee)), 3))
    [-90.   -78.69]
    """
    proximal = as_array(proximal, "proximal", unit="m", last=2)
    distal = as_array(distal, "distal", unit="m", last=2)
    try:
        d = distal - proximal
    except ValueError:
        raise ValueError(
            f"proximal and distal must have the same frames; got shapes {proximal.shape} "
            f"and {distal.shape}"
        ) from None
    lengths = np.hypot(d[..., 0], d[..., 1])
    if np.any(lengths == 0):
        where = tuple(int(i) for i in np.argwhere(lengths == 0)[0])
        raise ValueError("proximal and distal [m] must be distinct points; got points that "
                         f"coincide at index {where}: no angle")
    angle = np.arctan2(d[..., 1], d[..., 0])
    return np.unwrap(angle, axis=0) if angle.ndim else angle


def cross2(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Return the z component of the planar cross product, ``a_x b_y - a_y b_x``.

    ``np.cross`` on 2-vectors is deprecated since NumPy 2.0; this is the planar moment of a
    force ``b`` [N] applied at a lever ``a`` [m] (or the planar angular momentum of a point).

    Parameters
    ----------
    a, b : array_like, shape (..., 2)
        Planar vectors; they broadcast against each other.

    Returns
    -------
    numpy.ndarray, shape (...)
        ``a_x b_y - a_y b_x`` [unit of a times unit of b].

    Examples
    --------
    >>> print(cross2([1.0, 0.0], [0.0, 2.0]))
    2.0
    """
    # Types and shapes first; finiteness from the result, one scan instead of two.
    a = as_array(a, "a", last=2, finite=False)
    b = as_array(b, "b", last=2, finite=False)
    frames(("a", a, 1), ("b", b, 1))
    with np.errstate(over="ignore", invalid="ignore"):
        out = cross(a, b)
    if not np.isfinite(out).all():
        as_array(a, "a", last=2)  # names the input that holds NaN or inf
        as_array(b, "b", last=2)
        raise FloatingPointError(
            f"the cross product of finite a and b overflowed (largest |a| {np.abs(a).max():.3g}, "
            f"|b| {np.abs(b).max():.3g}): check the units of a and b")
    return out


def perp(v: ArrayLike) -> np.ndarray:
    """Rotate planar vectors by +90 degrees, ``(x, y) -> (-y, x)``.

    ``perp(r) * omega`` is the velocity of a point at ``r`` [m] on a body turning at
    ``omega`` [rad/s] about the origin (``k x r`` in the plane).

    Parameters
    ----------
    v : array_like, shape (..., 2)
        Planar vectors, any unit.

    Returns
    -------
    numpy.ndarray, shape (..., 2)
        The rotated vectors, same unit.

    Examples
    --------
    >>> print(perp([1.0, 2.0]))
    [-2.  1.]
    """
    return rotate90(as_array(v, "v", last=2))


def lever_kinematics(
    levers: ArrayLike,
    axes: ArrayLike,
    rates: ArrayLike | None = None,
    accelerations: ArrayLike | None = None,
) -> tuple[np.ndarray, ...]:
    """Position, velocity and acceleration of points carried by rotating segments.

    Every point ``i`` (a centre of mass, a joint, a marker) of a planar chain or tree sits at
    ``r_i = sum_j L_ij e_j`` from the base, with ``e_j`` the unit axis of segment ``j`` and
    ``L_ij`` [m] the length of segment ``j`` on the path from the base to the point. Because
    ``de_j/dt = phidot_j perp(e_j)``,

    - ``v_i = sum_j L_ij phidot_j perp(e_j)``,
    - ``a_i = sum_j L_ij (phiddot_j perp(e_j) - phidot_j**2 e_j)``.

    This is the one copy of planar chain kinematics (``bmc._kernels.points_on_segments``,
    here with its arguments checked) that :class:`bmc.planar.PlanarModel`, and so every
    planar model of the course, builds on.

    Parameters
    ----------
    levers : array_like, shape (p, n)
        ``L_ij`` [m]: for point ``i``, the length along segment ``j`` (0 where segment ``j``
        is not on the point's path).
    axes : array_like, shape (..., n, 2)
        Unit axis ``e_j`` of every segment (any angle convention), frames on axis 0.
    rates : array_like, shape (..., n), optional
        Segment angular velocities ``phidot`` [rad/s].
    accelerations : array_like, shape (..., n), optional
        Segment angular accelerations ``phiddot`` [rad/s^2]; needs ``rates``.

    Returns
    -------
    tuple of numpy.ndarray, each shape (..., p, 2)
        ``(r,)``, ``(r, v)`` or ``(r, v, a)`` [m, m/s, m/s^2], relative to the base.

    Examples
    --------
    The tip of a 1 m link at 90 degrees turning at 2 rad/s:

    >>> r, v, a = lever_kinematics([[1.0]], [[0.0, 1.0]], [2.0], [0.0])
    >>> print(r[0], v[0], a[0])
    [0. 1.] [-2.  0.] [ 0. -4.]
    """
    levers = as_array(levers, "levers", unit="m", ndim=2)
    n = levers.shape[1]
    e = as_array(axes, "axes", last=(n, 2))
    if rates is None and accelerations is not None:
        raise ValueError("accelerations [rad/s^2] need rates [rad/s] as well; got none")
    named = [("axes", e, 2)]
    if rates is not None:
        w = as_array(rates, "rates", unit="rad/s", last=n)
        named.append(("rates", w, 1))
    if accelerations is not None:
        al = as_array(accelerations, "accelerations", unit="rad/s^2", last=n)
        named.append(("accelerations", al, 1))
    frames(*named)  # one frame of any of them goes with N frames of the others
    if rates is None:
        return points_on_segments(levers, e)
    return points_on_segments(levers, e, w, None if accelerations is None else al)


FORWARD_REACH: dict[str, object] = {
    "start": (0.40, -0.40),
    "target": (0.87, 0.0),
    "duration": 0.6,
}
"""The course's realistic reach, in one place (used by :func:`forward_reach`).

A fast sagittal-plane forward reach of the right arm, seen from its right side (x forward,
y up, origin at the shoulder): the fingertip starts on a table in front of the trunk,
``start`` = (0.40, -0.40) arm lengths from the shoulder (elbow at the side of the trunk, just
behind it: 24.8 deg of shoulder extension, 113.2 deg of elbow flexion), and ends at a
target at shoulder height, ``target`` = (0.87, 0) arm lengths (55.0 deg of shoulder
flexion, 59.9 deg of elbow flexion), in ``duration`` = 0.6 s on a straight minimum-jerk hand
path (Flash and Hogan 1985; Atkeson and Hollerbach 1985 for vertical-plane reaches). Positions
are fractions of the arm length ``l1 + l2`` (shoulder to fingertip), so that the joint angles
do not depend on the subject's size. For the Dempster arm of a 70 kg, 1.70 m subject
(0.748 m) the hand travels 0.46 m with a peak speed of 1.44 m/s (0.75 g peak acceleration),
the shoulder turns at up to 250 deg/s and the elbow at up to 197 deg/s. The course's tests
check the postures against published ranges of motion and the peak speeds and torques
against published human values.
"""


def forward_reach(
    t: ArrayLike, l1: float, l2: float, *, duration: float | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint kinematics of the course's realistic forward reach (:data:`FORWARD_REACH`).

    Parameters
    ----------
    t : array_like, shape (N,)
        Times [s]; the movement runs from 0 to ``duration``.
    l1, l2 : float
        Upper-arm length (shoulder to elbow) and forearm-plus-hand length (elbow to
        fingertip) [m].
    duration : float, optional
        Movement time [s]; default ``FORWARD_REACH["duration"]`` (0.6 s).

    Returns
    -------
    q, qd, qdd : numpy.ndarray, each shape (N, 2)
        Joint angles [rad] (``q[:, 0]`` the upper arm from the forward horizontal, so that
        shoulder flexion is ``q[:, 0] + pi/2``; ``q[:, 1]`` the elbow flexion), velocities
        [rad/s] and accelerations [rad/s^2].

    See Also
    --------
    minimum_jerk_reach_2link : the same for any start and target.

    References
    ----------
    .. [1] T. Flash, N. Hogan, "The coordination of arm movements: an experimentally
       confirmed mathematical model", *Journal of Neuroscience* 5(7), 1688-1703, 1985.
    .. [2] C. G. Atkeson, J. M. Hollerbach, "Kinematic features of unrestrained vertical arm
       movements", *Journal of Neuroscience* 5(9), 2318-2330, 1985.

    Examples
    --------
    >>> t = np.linspace(0.0, 0.6, 61)
    >>> q, qd, qdd = forward_reach(t, 0.316, 0.432)
    >>> print(np.round(np.degrees(q[[0, -1]]) + [90.0, 0.0]))   # shoulder flexion, elbow
    [[-25. 113.]
     [ 55.  60.]]
    """
    l1 = positive(l1, "l1", unit="m")
    l2 = positive(l2, "l2", unit="m")
    reach = l1 + l2
    p0 = reach * np.asarray(FORWARD_REACH["start"], dtype=float)
    pf = reach * np.asarray(FORWARD_REACH["target"], dtype=float)
    big_t = float(FORWARD_REACH["duration"]) if duration is None else duration  # type: ignore[arg-type]
    return minimum_jerk_reach_2link(p0, pf, big_t, t, l1, l2)
