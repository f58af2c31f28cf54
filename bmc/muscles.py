"""Muscle paths on a planar chain: musculotendon lengths and moment arms.

A muscle is drawn as a polyline through attachment points (origin, via points, insertion),
each fixed in one body: the base (the trunk, body 0) or segment ``k`` (body ``k``, 1-based).
A point is given in its body's frame as ``(u, v)`` [m]: ``u`` along the segment from its
proximal joint, ``v`` perpendicular to it, positive on the counter-clockwise side (for the
base, ``u`` along +x and ``v`` along +y from the first joint).

The moment arm of muscle ``i`` about joint ``j`` is ``R[i, j] = dL_i / dq_j`` (virtual work:
the power a muscle of tension ``F_i`` delivers, ``-F_i dL_i/dt``, equals the joint torques'
power ``tau . qd``), so that with the course's convention (counter-clockwise positive) the
joint torques of the muscle forces are ``tau = -R^T F``. A muscle that shortens when a joint
angle grows (a flexor, for the arm seen from its right side) has a negative ``R[i, j]`` and
a positive (counter-clockwise, flexing) torque.

:func:`muscle_length` and :func:`moment_arms` work on one frame or ``N`` frames (axis 0 is
time). The moment arms are checked against a finite difference of the length and against
the perpendicular distance from the joint to the line of action.

:func:`contact_force` turns a net joint force and moment (inverse dynamics) into a muscle
tension and the bone-on-bone force when one muscle carries the moment, and
:func:`compression_shear` resolves a joint force in a segment's frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, plausible
from bmc.kinematics import forward_kinematics, perp

__all__ = ["compression_shear", "contact_force", "moment_arms", "muscle_length", "path_points"]


def __dir__() -> list[str]:
    return sorted(__all__)


def _path(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> tuple:
    """Global attachment points (..., P, 2), body indices, joint positions (..., n, 2)."""
    lengths = as_array(lengths, "lengths", unit="m", ndim=1)
    n = lengths.shape[0]
    if n == 0 or np.any(lengths <= 0):
        raise ValueError(f"lengths [m] must hold one positive length per segment; got "
                         f"{lengths.tolist()}")
    for value in lengths:
        plausible(float(value), "lengths", unit="m", low=1e-3, high=10.0,
                  quantity="segment length", units={"cm": 0.01, "mm": 0.001})
    q = as_array(q, "q", unit="rad", last=n)
    if isinstance(attachments, (str, bytes)) or not hasattr(attachments, "__len__"):
        raise TypeError("attachments must be a sequence of (body, (u, v)) points, origin "
                        f"first; got {type(attachments).__name__}")
    if len(attachments) < 2:
        raise ValueError("attachments must hold at least two points (origin and insertion), "
                         f"each (body, (u, v)) with u, v in m; got {len(attachments)}")
    bodies, local = [], []
    for k, item in enumerate(attachments):
        try:
            body, uv = item
        except (TypeError, ValueError):
            raise ValueError(f"attachments[{k}] must be (body, (u, v)) with body an integer "
                             f"from 0 (base) to {n} and u, v in m; got {item!r}") from None
        if isinstance(body, (bool, np.bool_)) or not isinstance(body, (int, np.integer)) \
                or not 0 <= body <= n:
            raise ValueError(f"attachments[{k}]: body must be an integer from 0 (base) to {n} "
                             f"(segment number, 1-based); got {body!r}")
        bodies.append(int(body))
        local.append(as_array(uv, f"attachments[{k}] point", unit="m", last=2, ndim=1))
    # every segment's proximal joint and its axes u (along the segment) and v = perp(u)
    joints = forward_kinematics(lengths, q, joints=True)[..., :-1, :]    # (..., n, 2)
    phi = np.cumsum(q, axis=-1)                                          # segment angles
    axes_u = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    axes_v = perp(axes_u)
    points = []
    for body, (u, v) in zip(bodies, local, strict=True):
        if body == 0:
            points.append(np.broadcast_to(np.array([u, v]), q.shape[:-1] + (2,)))
        else:
            k = body - 1
            points.append(joints[..., k, :] + u * axes_u[..., k, :] + v * axes_v[..., k, :])
    return np.stack(points, axis=-2), bodies, joints


def path_points(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Positions of a muscle's attachment points in the global frame (for drawing).

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].
    attachments : sequence of (int, (float, float))
        As in :func:`muscle_length`.

    Returns
    -------
    numpy.ndarray, shape (..., P, 2)
        Origin, via points and insertion [m], x forward and y up from the first joint.

    Examples
    --------
    >>> print(path_points([0.3], [np.pi / 2], [(0, (0.0, 0.05)), (1, (0.1, 0.0))]).round(3) + 0.0)
    [[0.   0.05]
     [0.   0.1 ]]
    """
    return _path(lengths, q, attachments)[0]


def muscle_length(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Length of a muscle path through attachment points fixed on a planar chain.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad] (``q[0]`` from the horizontal, the others relative).
    attachments : sequence of (int, (float, float))
        Origin, via points and insertion in order, each ``(body, (u, v))``: body 0 the base,
        ``k`` segment ``k`` (1-based); ``(u, v)`` [m] in that body's frame (module docstring).

    Returns
    -------
    numpy.ndarray, shape (...)
        Musculotendon length ``L_MT`` [m], the sum of the straight pieces.

    Examples
    --------
    A muscle from 5 cm above the shoulder to 10 cm down a horizontal upper arm:

    >>> print(round(float(muscle_length([0.3], [0.0], [(0, (0.0, 0.05)), (1, (0.1, 0.0))])), 4))
    0.1118
    """
    points, _, _ = _path(lengths, q, attachments)
    return np.linalg.norm(np.diff(points, axis=-2), axis=-1).sum(axis=-1)


def moment_arms(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Moment arms of one muscle about every joint, ``r = dL_MT / dq`` (exact).

    A point fixed on segment ``k`` moves with every joint ``j <= k``:
    ``dp/dq_j = e_z x (p - joint_j)``. The length of a straight piece from ``a`` to ``b``
    changes by ``e . (db/dq_j - da/dq_j)`` with ``e`` its unit vector; the moment arm is the
    sum over the pieces.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].
    attachments : sequence of (int, (float, float))
        As in :func:`muscle_length`.

    Returns
    -------
    numpy.ndarray, shape (..., n)
        ``dL_MT/dq_j`` [m/rad, i.e. m]: negative where the muscle shortens as the joint angle
        grows (it then pulls the joint counter-clockwise); zero for joints it does not span.
        Joint torque of a tension ``F`` [N]: ``tau = -r F`` [N m].

    Examples
    --------
    The muscle of :func:`muscle_length`, horizontal arm: it shortens as the arm rises, so
    its tension turns the arm counter-clockwise (up).

    >>> r = moment_arms([0.3], [0.0], [(0, (0.0, 0.05)), (1, (0.1, 0.0))])
    >>> print(np.round(r, 4))
    [-0.0447]
    """
    points, bodies, joints = _path(lengths, q, attachments)
    n = joints.shape[-2]
    pieces = np.diff(points, axis=-2)
    size = np.linalg.norm(pieces, axis=-1, keepdims=True)
    if np.any(size == 0):
        where = np.argwhere(size[..., 0] == 0)[0]
        raise ValueError(
            f"attachments {int(where[-1])} and {int(where[-1]) + 1} coincide"
            + (f" in frame {tuple(int(i) for i in where[:-1])}" if where.size > 1 else "")
            + ": the direction of that piece of the path, and so the moment arm, is "
            "undefined (a singular configuration); move one point or drop it")
    unit = pieces / size                                                  # (..., P-1, 2)
    r = np.zeros(points.shape[:-2] + (n,))
    for j in range(n):
        rel = points - joints[..., j:j + 1, :]
        moves = np.array([body - 1 >= j for body in bodies])            # spanned by joint j
        dp = perp(rel) * moves[:, None]
        r[..., j] = np.einsum("...pk,...pk->...", unit, np.diff(dp, axis=-2))
    return r


def contact_force(net_force: ArrayLike, net_moment: ArrayLike, moment_arm: ArrayLike,
                  direction: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Muscle tension and bone-on-bone force when one muscle carries the net joint moment.

    Everything that crosses a joint acts on the distal segment: the muscle's pull
    ``F e`` and the contact force of the articular surfaces, which acts through the joint
    centre (frictionless surfaces). Inverse dynamics gives only their sums: the net force
    and the net moment. With a single muscle the moment fixes the tension,
    ``F = -tau / r`` (``r = dL_MT/dq`` as in :func:`moment_arms`), and the force balance
    of the distal segment then gives the contact force. A muscle cannot push: where the
    moment has the other sign the tension is zero and the moment stays unbalanced (an
    antagonist would be needed).

    Parameters
    ----------
    net_force : array_like, shape (..., 2)
        Net joint force that the distal segment exerts on the proximal one [N].
    net_moment : array_like, shape (...)
        Net joint moment on the distal segment [N m], counter-clockwise positive.
    moment_arm : array_like, shape (...)
        The muscle's moment arm ``dL_MT/dq`` about the joint [m]; negative for a muscle
        that turns the distal segment counter-clockwise.
    direction : array_like, shape (..., 2)
        Unit vector of the muscle's pull on the distal segment (dimensionless).

    Returns
    -------
    tension : numpy.ndarray, shape (...)
        Muscle tension ``F >= 0`` [N].
    contact : numpy.ndarray, shape (..., 2)
        Force of the distal bone on the proximal bone [N]: ``net_force + F e``.
    unbalanced : numpy.ndarray, shape (...)
        Part of the net moment the muscle cannot produce [N m] (zero where ``F > 0``).

    Examples
    --------
    A knee extensor with a 5 cm moment arm, pulling the shank straight up, carries a
    100 N m extensor moment; a 500 N net compression becomes 2500 N of contact:

    >>> F, c, rest = contact_force([0.0, 500.0], 100.0, -0.05, [0.0, 1.0])
    >>> print(round(float(F)), np.round(c, 1) + 0.0, float(rest))
    2000 [   0. 2500.] 0.0
    """
    lam = as_array(net_force, "net_force", unit="N", last=2)
    tau = as_array(net_moment, "net_moment", unit="N m")
    r = as_array(moment_arm, "moment_arm", unit="m")
    e = as_array(direction, "direction", unit="1 (unit vector)", last=2)
    if np.any(r == 0):
        raise ValueError("moment_arm [m] must be nonzero: a muscle through the joint centre "
                         "cannot carry a moment; got 0")
    norm = np.linalg.norm(e, axis=-1)
    if np.any(np.abs(norm - 1.0) > 1e-6):
        raise ValueError("direction must be a unit vector (dimensionless); got lengths "
                         f"from {norm.min():.3g} to {norm.max():.3g}: divide by its norm")
    tension = np.maximum(-tau / r, 0.0)
    contact = lam + tension[..., None] * e
    return tension, contact, tau + r * tension


def compression_shear(force: ArrayLike, axis: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Resolve a joint force in a segment's frame: compression along it, shear across.

    Parameters
    ----------
    force : array_like, shape (..., 2)
        Force that the distal segment exerts on the proximal one at the joint [N].
    axis : array_like, shape (..., 2)
        Unit vector along the distal segment, pointing away from the joint (dimensionless).

    Returns
    -------
    compression : numpy.ndarray, shape (...)
        ``-force . axis`` [N]: positive when the distal bone pushes into the joint.
    shear : numpy.ndarray, shape (...)
        ``force . perp(axis)`` [N]: the component across the segment, positive along the
        axis turned 90 degrees counter-clockwise.

    Examples
    --------
    A shank hanging straight down (axis ``(0, -1)``) pushing up with 300 N and 40 N
    forward (+x is ``perp((0, -1))``):

    >>> print(compression_shear([40.0, 300.0], [0.0, -1.0]))
    (np.float64(300.0), np.float64(40.0))
    """
    f = as_array(force, "force", unit="N", last=2)
    a = as_array(axis, "axis", unit="1 (unit vector)", last=2)
    return -np.einsum("...k,...k->...", f, a), np.einsum("...k,...k->...", f, perp(a))
