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
time). ``tests/test_muscles.py`` checks the moment arms against a finite difference of the
length and against the perpendicular distance from the joint to the line of action.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, plausible
from bmc.kinematics import perp

__all__ = ["moment_arms", "muscle_length", "path_points"]


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
    phi = np.cumsum(q, axis=-1)                                          # segment angles
    axes_u = np.stack([np.cos(phi), np.sin(phi)], axis=-1)               # (..., n, 2)
    axes_v = np.stack([-np.sin(phi), np.cos(phi)], axis=-1)
    steps = lengths[:, None] * axes_u
    zero = np.zeros(q.shape[:-1] + (1, 2))
    joints = np.concatenate([zero, np.cumsum(steps, axis=-2)[..., :-1, :]], axis=-2)
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
