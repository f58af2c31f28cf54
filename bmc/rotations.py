"""Rotations in 3D: matrices from Cardan/Euler angles, angular velocity and acceleration.

Conventions
-----------
A rotation matrix ``R`` is a segment's **orientation**: its columns are the segment's unit
axes written in the global frame, so a vector maps as ``v_global = R @ v_segment`` and back
as ``v_segment = R.T @ v_global``. Angles are in radians, right-handed (counter-clockwise
seen from the tip of the axis). Axis 0 is time: ``R`` of shape ``(N, 3, 3)`` is one
orientation per frame.

Angle sequences are strings of three axis letters, for example ``"xyz"`` (a Cardan, or
Tait-Bryan, sequence: three different axes) or ``"zxz"`` (a proper Euler sequence: first
and last axis equal). ``intrinsic=True`` (the default, and the usual choice in joint-angle
conventions) rotates about the axes of the moving frame, so ``"xyz"`` gives
``R = Rx(a) Ry(b) Rz(c)``; ``intrinsic=False`` rotates about the fixed global axes, giving
``R = Rz(c) Ry(b) Rx(a)``.

Angular velocity ``omega`` follows from ``R(t)`` through the skew-symmetric matrices

    ``R^T dR/dt = skew(omega_segment)``   and   ``dR/dt R^T = skew(omega_global)``,

with ``omega_global = R omega_segment``. The angular acceleration is the time derivative of
either vector (the two frames' derivatives are again related by ``R``, because
``omega x omega = 0``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, positive, rotation_matrices

__all__ = [
    "angular_acceleration",
    "angular_velocity",
    "axis_rotation",
    "point_acceleration",
    "rotation_kinematics",
    "rotation_matrix",
    "skew",
    "vee",
]


def __dir__() -> list[str]:
    return sorted(__all__)

_AXES = {"x": 0, "y": 1, "z": 2}


def _axis_index(axis: str | int) -> int:
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (str, int, np.integer)):
        raise TypeError(f"axis must be 'x', 'y', 'z' (or 0, 1, 2); got {type(axis).__name__} "
                        f"{axis!r}: name the axis of the rotation")
    if isinstance(axis, str) and axis.lower() in _AXES:
        return _AXES[axis.lower()]
    if isinstance(axis, (int, np.integer)) and 0 <= int(axis) <= 2:
        return int(axis)
    raise ValueError(f"axis must be 'x', 'y', 'z' (or 0, 1, 2); got {axis!r}")


def _flag(value: bool, name: str) -> bool:
    """Refuse anything but True or False for a switch (a str 'False' would count as True)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {type(value).__name__} {value!r}")
    return bool(value)


def _frame(frame: str) -> str:
    if not isinstance(frame, str) or frame not in ("segment", "global"):
        raise ValueError(f"frame must be 'segment' or 'global'; got {frame!r}")
    return frame


def _sequence(sequence: str) -> tuple[int, int, int]:
    if not isinstance(sequence, str):
        raise TypeError(f"sequence must be a string such as 'xyz' or 'zxz'; got "
                        f"{type(sequence).__name__}")
    seq = sequence.lower()
    if len(seq) != 3 or any(c not in _AXES for c in seq) or seq[0] == seq[1] or seq[1] == seq[2]:
        raise ValueError(
            f"sequence must be three of 'x', 'y', 'z' with no axis repeated twice in a row "
            f"(Cardan 'xyz', 'zxy', ... or Euler 'zxz', 'xyx', ...); got {sequence!r}"
        )
    return tuple(_AXES[c] for c in seq)


def axis_rotation(axis: str | int, angle: ArrayLike) -> np.ndarray:
    """Rotation matrix about one coordinate axis.

    Parameters
    ----------
    axis : {"x", "y", "z"} or {0, 1, 2}
        The axis.
    angle : array_like, shape (...)
        Angle(s) [rad], right-handed about the axis.

    Returns
    -------
    numpy.ndarray, shape (..., 3, 3)
        For ``"z"``: ``[[c, -s, 0], [s, c, 0], [0, 0, 1]]``.

    Examples
    --------
    >>> np.round(axis_rotation("z", np.pi / 2) @ [1.0, 0.0, 0.0], 12)
    array([0., 1., 0.])
    """
    k = _axis_index(axis)
    angle = as_array(angle, "angle", unit="rad")
    i, j = (k + 1) % 3, (k + 2) % 3
    c, s = np.cos(angle), np.sin(angle)
    out = np.zeros(angle.shape + (3, 3))
    out[..., k, k] = 1.0
    out[..., i, i] = c
    out[..., j, j] = c
    out[..., i, j] = -s
    out[..., j, i] = s
    return out


def rotation_matrix(angles: ArrayLike, *, sequence: str = "xyz",
                    intrinsic: bool = True) -> np.ndarray:
    """Orientation matrix from three Cardan or Euler angles.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
        The three angles [rad], in the order of ``sequence``.
    sequence : str, optional
        Axes of the three rotations, e.g. ``"xyz"`` (default) or ``"zxz"``.
    intrinsic : bool, optional
        ``True`` (default): rotations about the moving axes, ``R = R1 R2 R3``;
        ``False``: about the fixed axes, ``R = R3 R2 R1``.

    Returns
    -------
    numpy.ndarray, shape (..., 3, 3)
        ``R`` with ``v_global = R v_segment``.

    Examples
    --------
    >>> R = rotation_matrix([0.1, 0.2, 0.3], sequence="zxy")
    >>> bool(np.allclose(R.T @ R, np.eye(3))), round(float(np.linalg.det(R)), 12)
    (True, 1.0)
    """
    seq = _sequence(sequence)
    intrinsic = _flag(intrinsic, "intrinsic")
    angles = as_array(angles, "angles", unit="rad", last=3)
    R1, R2, R3 = (axis_rotation(a, angles[..., i]) for i, a in enumerate(seq))
    return R1 @ R2 @ R3 if intrinsic else R3 @ R2 @ R1


def rotation_kinematics(angles: ArrayLike, rates: ArrayLike, accelerations: ArrayLike, *,
                        sequence: str = "xyz", intrinsic: bool = True,
                        frame: str = "segment") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orientation, angular velocity and acceleration, exactly, from angles and their rates.

    For an intrinsic sequence ``R = R1(a1) R2(a2) R3(a3)`` about unit axes ``e1, e2, e3``,
    ``R^T dR/dt = skew(omega)`` gives in the segment frame::

        omega = a1' u1 + a2' u2 + a3' u3,   u1 = (R2 R3)^T e1,  u2 = R3^T e2,  u3 = e3

    and its derivative (``d/dt R3^T = -a3' skew(e3) R3^T``)::

        alpha = sum(ai'' ui) - a3' e3 x (a1' u1 + a2' u2) - a1' a2' R3^T (e2 x R2^T e1)

    An extrinsic sequence is the intrinsic one with axes and angles in reverse order.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
        Angles [rad] in the order of ``sequence``.
    rates : array_like, shape (..., 3)
        Their first time derivatives [rad/s].
    accelerations : array_like, shape (..., 3)
        Their second time derivatives [rad/s^2].
    sequence : str, optional
        Rotation axes (default ``"xyz"``).
    intrinsic : bool, optional
        Moving (default) or fixed axes, as in :func:`rotation_matrix`.
    frame : {"segment", "global"}, optional
        Frame in which ``omega`` and ``alpha`` are written (default the segment's).

    Returns
    -------
    R : numpy.ndarray, shape (..., 3, 3)
        Orientation.
    omega : numpy.ndarray, shape (..., 3)
        Angular velocity [rad/s].
    alpha : numpy.ndarray, shape (..., 3)
        Angular acceleration [rad/s^2].

    Examples
    --------
    Spinning about z at 2 rad/s:

    >>> R, w, a = rotation_kinematics([0, 0, 0.3], [0, 0, 2.0], [0, 0, 0])
    >>> w
    array([0., 0., 2.])
    """
    frame = _frame(frame)
    seq = _sequence(sequence)
    intrinsic = _flag(intrinsic, "intrinsic")
    q = as_array(angles, "angles", unit="rad", last=3)
    qd = as_array(rates, "rates", unit="rad/s", last=3)
    qdd = as_array(accelerations, "accelerations", unit="rad/s^2", last=3)
    q, qd, qdd = np.broadcast_arrays(q, qd, qdd)
    if not intrinsic:  # fixed axes a, b, c == moving axes c, b, a
        seq, q, qd, qdd = seq[::-1], q[..., ::-1], qd[..., ::-1], qdd[..., ::-1]
    R1, R2, R3 = (axis_rotation(a, q[..., i]) for i, a in enumerate(seq))
    e1, e2, e3 = (np.eye(3)[a] for a in seq)
    R3t = np.swapaxes(R3, -1, -2)
    R2t_e1 = np.swapaxes(R2, -1, -2) @ e1                    # (..., 3)
    u1 = np.einsum("...ij,...j->...i", R3t, R2t_e1)
    u2 = R3t @ e2
    u3 = np.broadcast_to(e3, u1.shape)
    d1, d2, d3 = (qd[..., i, None] for i in range(3))
    omega = d1 * u1 + d2 * u2 + d3 * u3
    alpha = (qdd[..., 0, None] * u1 + qdd[..., 1, None] * u2 + qdd[..., 2, None] * u3
             - d3 * np.cross(e3, d1 * u1 + d2 * u2)
             - d1 * d2 * np.einsum("...ij,...j->...i", R3t, np.cross(e2, R2t_e1)))
    R = R1 @ R2 @ R3
    if frame == "global":
        omega = np.einsum("...ij,...j->...i", R, omega)
        alpha = np.einsum("...ij,...j->...i", R, alpha)
    return R, omega, alpha


def _rotations(R: ArrayLike) -> np.ndarray:
    R = as_array(R, "R", last=(3, 3), ndim=3)
    if R.shape[0] < 3:
        raise ValueError(f"R must hold at least 3 frames (N, 3, 3) to differentiate over "
                         f"time; got shape {R.shape}")
    return rotation_matrices(R, "R")


def angular_velocity(R: ArrayLike, dt: float, *, frame: str = "segment") -> np.ndarray:
    """Angular velocity from orientations sampled over time.

    ``dR/dt`` is estimated by central differences (second-order one-sided at the ends,
    ``np.gradient(..., edge_order=2)``), then ``omega`` is read from the skew-symmetric part
    of ``R^T dR/dt`` (segment frame) or ``dR/dt R^T`` (global frame). The error is
    ``O(dt^2)``.

    Parameters
    ----------
    R : array_like, shape (N, 3, 3)
        Orientations, ``N >= 3``.
    dt : float
        Sampling interval [s].
    frame : {"segment", "global"}, optional
        Frame of the result (default the segment's).

    Returns
    -------
    numpy.ndarray, shape (N, 3)
        Angular velocity [rad/s].

    Raises
    ------
    ValueError
        If ``R`` has fewer than 3 frames, or a frame is not a rotation: not orthonormal
        (for example ``2 I``) or a reflection (determinant -1, left-handed axes); the
        message names the first such frame.

    Examples
    --------
    >>> t = np.arange(0.0, 1.0, 0.01)
    >>> R = rotation_matrix(np.stack([0 * t, 0 * t, 3.0 * t], axis=-1))
    >>> np.round(angular_velocity(R, 0.01)[50], 4)
    array([0.    , 0.    , 2.9996])
    """
    frame = _frame(frame)
    R = _rotations(R)
    dt = positive(dt, "dt", unit="s")
    Rdot = np.gradient(R, dt, axis=0, edge_order=2)
    Rt = np.swapaxes(R, -1, -2)
    W = Rt @ Rdot if frame == "segment" else Rdot @ Rt
    return vee(W, atol=None)


def angular_acceleration(R: ArrayLike, dt: float, *, frame: str = "segment") -> np.ndarray:
    """Angular acceleration from orientations sampled over time.

    The time derivative (central differences, second-order ends) of
    :func:`angular_velocity` in the same frame.

    Parameters
    ----------
    R : array_like, shape (N, 3, 3)
        Orientations, ``N >= 3``.
    dt : float
        Sampling interval [s].
    frame : {"segment", "global"}, optional
        Frame of the result (default the segment's).

    Returns
    -------
    numpy.ndarray, shape (N, 3)
        Angular acceleration [rad/s^2].
    """
    dt = positive(dt, "dt", unit="s")  # a float: np.gradient reads an array as times
    omega = angular_velocity(R, dt, frame=frame)
    return np.gradient(omega, dt, axis=0, edge_order=2)


def point_acceleration(omega: ArrayLike, omegadot: ArrayLike, r: ArrayLike) -> np.ndarray:
    """Acceleration of a point of a rotating rigid body relative to another of its points.

    ``a = omegadot x r + omega x (omega x r)``: the tangential part from the angular
    acceleration and the centripetal part, pointing from the point towards the axis. Add
    the reference point's own acceleration for the absolute one. All three vectors in one
    frame (the segment's or the global one; the result is in that frame).

    Parameters
    ----------
    omega : array_like, shape (..., 3)
        Angular velocity [rad/s].
    omegadot : array_like, shape (..., 3)
        Angular acceleration [rad/s^2].
    r : array_like, shape (..., 3)
        Position of the point relative to the reference point [m].

    Returns
    -------
    numpy.ndarray, shape (..., 3)
        [m/s^2].

    Examples
    --------
    A point 0.5 m from the axis of a wheel turning at 2 rad/s, speeding up at 1 rad/s^2:

    >>> print(point_acceleration([0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [0.5, 0.0, 0.0]))
    [-2.   0.5  0. ]
    """
    omega = as_array(omega, "omega", unit="rad/s", last=3)
    omegadot = as_array(omegadot, "omegadot", unit="rad/s^2", last=3)
    r = as_array(r, "r", unit="m", last=3)
    frames(("omega", omega, 1), ("omegadot", omegadot, 1), ("r", r, 1))
    return np.cross(omegadot, r) + np.cross(omega, np.cross(omega, r))


def skew(a: ArrayLike) -> np.ndarray:
    """Return the skew-symmetric matrix ``S(a)`` such that ``S(a) @ b == a x b``.

    Parameters
    ----------
    a : array_like, shape (..., 3)
        Vector(s), any unit (the matrix carries the unit of ``a``).

    Returns
    -------
    numpy.ndarray, shape (..., 3, 3)
        ``[[0, -a_z, a_y], [a_z, 0, -a_x], [-a_y, a_x, 0]]`` for each vector.

    Examples
    --------
    >>> import numpy as np
    >>> skew([1.0, 2.0, 3.0]) @ np.array([4.0, 5.0, 6.0])
    array([-3.,  6., -3.])
    """
    a = as_array(a, "a", last=3)
    out = np.zeros(a.shape + (3,))
    out[..., 0, 1] = -a[..., 2]
    out[..., 0, 2] = a[..., 1]
    out[..., 1, 0] = a[..., 2]
    out[..., 1, 2] = -a[..., 0]
    out[..., 2, 0] = -a[..., 1]
    out[..., 2, 1] = a[..., 0]
    return out


def vee(S: ArrayLike, *, atol: float | None = 1e-9) -> np.ndarray:
    """Return the vector ``a`` of a skew-symmetric matrix ``S = skew(a)`` (inverse of skew).

    Parameters
    ----------
    S : array_like, shape (..., 3, 3)
        Skew-symmetric matrix (or matrices).
    atol : float or None, optional
        Largest allowed ``|S + S^T|`` entry relative to ``max(1, |S|)``; ``None`` skips the
        check and returns the vector of the skew-symmetric part ``(S - S^T) / 2`` (what
        finite-difference estimates need).

    Returns
    -------
    numpy.ndarray, shape (..., 3)
        ``(S[2, 1], S[0, 2], S[1, 0])`` of the skew-symmetric part.

    Raises
    ------
    ValueError
        If ``S`` is not skew-symmetric within ``atol``.

    Examples
    --------
    >>> vee(skew([1.0, 2.0, 3.0]))
    array([1., 2., 3.])
    """
    S = as_array(S, "S", last=(3, 3))
    if atol is not None:
        atol = positive(atol, "atol")
        asym = np.max(np.abs(S + np.swapaxes(S, -1, -2)), initial=0.0)
        scale = max(1.0, float(np.max(np.abs(S), initial=0.0)))
        if asym > atol * scale:
            raise ValueError(
                f"S must be skew-symmetric (S = -S^T); the largest |S + S^T| entry is "
                f"{asym:.3g}; pass atol=None to take the skew-symmetric part"
            )
    A = 0.5 * (S - np.swapaxes(S, -1, -2))
    return np.stack([A[..., 2, 1], A[..., 0, 2], A[..., 1, 0]], axis=-1)
