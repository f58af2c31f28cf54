"""Matrix formalism of the Newton-Euler equations: ``M(q) qdd = C + G + Q + E``.

This module holds the matrix formalism for **3D inverse dynamics** of a chain of segments
loaded at its distal end (foot and shank in stance): the unknown joint forces and moments
enter ``Q`` linearly, ``Q = A x``, so ``A x = M qdd - C - G - E`` gives every joint load in
one linear solve per frame (:func:`assemble`, :func:`solve`, :func:`joint_loads`). Cross
products become matrix products through the skew operator (:func:`bmc.rotations.skew`, with
its inverse :func:`bmc.rotations.vee`).

The worked examples live in :mod:`bmc.models`: the double pendulum of the source notebook
(forward dynamics in the same form, :mod:`bmc.models.double_pendulum`) and a synthetic 3D
stance (:mod:`bmc.models.stance`).

Conventions
-----------
Global frame: x forward, y up, z to the right (out of the sagittal plane); gravity
``g > 0`` along -y. A rotation matrix ``R`` is the **orientation** of a segment: its columns
are the segment's axes written in the global frame, so ``v_global = R v_segment``. (The
source writes ``R_F`` for the matrix that maps global to foot coordinates, which is
``R.T`` here.) Axis 0 is time; every function takes one frame or ``N`` frames.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, inertia_tensors, positive, rotation_matrices
from bmc.constants import STANDARD_GRAVITY
from bmc.rotations import skew

__all__ = ["MatrixForm", "assemble", "joint_loads", "solve"]


def __dir__() -> list[str]:
    return sorted(__all__)


# ---------------------------------------------------------------------------------------
# 3D inverse dynamics in matrix form
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatrixForm:
    """The blocks of ``M qdd = C + G + Q + E`` with ``Q = A x`` for a chain of n segments.

    Every array has time on axis 0 (``N`` frames; one frame gives ``N = 1``).

    Attributes
    ----------
    M : numpy.ndarray, shape (6n, 6n)
        Block-diagonal ``diag(m_1 I_3, I_1, m_2 I_3, I_2, ...)`` [kg, kg m^2].
    qdd : numpy.ndarray, shape (N, 6n)
        Stacked ``(a_cm_1 [m/s^2], alpha_1 [rad/s^2], a_cm_2, alpha_2, ...)``; centre of mass
        accelerations in the global frame, angular accelerations in each segment's frame.
    C : numpy.ndarray, shape (N, 6n)
        ``(0, -omega_1 x I_1 omega_1, 0, ...)`` [N, N m].
    G : numpy.ndarray, shape (6n,)
        ``(m_1 g, 0, m_2 g, 0, ...)`` [N, N m] with ``g = (0, -g, 0)``.
    E : numpy.ndarray, shape (N, 6n)
        The external load on segment 1: ``(F_ext, R_1^T (r_ext/cm x F_ext + T_free), 0, ...)``.
    A : numpy.ndarray, shape (N, 6n, 6n)
        The matrix that multiplies the unknowns ``x = (F_1, M_1, F_2, M_2, ...)``: block
        lower-bidiagonal, so the system can also be solved segment by segment.
    """

    M: np.ndarray
    qdd: np.ndarray
    C: np.ndarray
    G: np.ndarray
    E: np.ndarray
    A: np.ndarray

    @property
    def b(self) -> np.ndarray:
        """Right-hand side ``M qdd - C - G - E`` [N, N m], shape (N, 6n)."""
        return self.qdd @ self.M.T - self.C - self.G - self.E


def _segment_inputs(mass: ArrayLike, inertia: ArrayLike, R: ArrayLike,  # noqa: N803
                    rcm: ArrayLike, rp: ArrayLike, acm: ArrayLike, omega: ArrayLike,
                    omegadot: ArrayLike, f_ext: ArrayLike, p_ext: ArrayLike,
                    free_moment: ArrayLike | None
                    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Validate and broadcast the chain inputs to (N, n, ...) arrays."""
    masses = as_array(mass, "mass", unit="kg", ndim=1)
    n = masses.shape[0]
    if n < 1 or np.any(masses <= 0):
        raise ValueError(f"mass [kg] must hold one positive mass per segment; got {masses}")
    tensors = as_array(inertia, "inertia", unit="kg m^2", last=(3, 3))
    if tensors.shape != (n, 3, 3):
        raise ValueError(f"inertia [kg m^2] must have shape ({n}, 3, 3), one tensor per "
                         f"segment in its own frame; got shape {tensors.shape}")
    inertia_tensors(tensors, "inertia")
    per_segment = {}
    for name, value, unit, tail in (("R", R, "", (3, 3)), ("rcm", rcm, "m", (3,)),
                                    ("rp", rp, "m", (3,)), ("acm", acm, "m/s^2", (3,)),
                                    ("omega", omega, "rad/s", (3,)),
                                    ("omegadot", omegadot, "rad/s^2", (3,))):
        arr = as_array(value, name, unit=unit, last=(n, *tail))
        if arr.ndim == len(tail) + 1:
            arr = arr[None]
        if arr.ndim != len(tail) + 2:
            raise ValueError(f"{name} must have shape ({n}, ...) for one frame or "
                             f"(N, {n}, ...) for N frames; got shape {arr.shape}")
        per_segment[name] = rotation_matrices(arr, "R") if name == "R" else arr
    external = {}
    loads: tuple[tuple[str, ArrayLike | None, str], ...] = (
        ("f_ext", f_ext, "N"), ("p_ext", p_ext, "m"), ("free_moment", free_moment, "N m"))
    for name, given, unit in loads:
        if given is None:
            external[name] = np.zeros((1, 3))
        else:
            external[name] = np.atleast_2d(as_array(given, name, unit=unit, last=3,
                                                    ndim=(1, 2)))
    lead = frames(*((k, v, v.ndim - 1) for k, v in (*per_segment.items(), *external.items())))
    N = lead[0] if lead else 1
    out = {k: np.broadcast_to(v, (N, *v.shape[1:])) for k, v in per_segment.items()}
    out.update({k: np.broadcast_to(v, (N, 3)) for k, v in external.items()})
    return masses, tensors, out


def assemble(mass: ArrayLike, inertia: ArrayLike, R: ArrayLike, rcm: ArrayLike, rp: ArrayLike,
             acm: ArrayLike, omega: ArrayLike, omegadot: ArrayLike, f_ext: ArrayLike,
             p_ext: ArrayLike, *, free_moment: ArrayLike | None = None,
             g: float = STANDARD_GRAVITY) -> MatrixForm:
    """Assemble the matrix form of the 3D Newton-Euler equations of a chain of segments.

    Segments are numbered from the distal end (1 = foot, 2 = shank, ...). Segment ``i``'s
    proximal joint is segment ``i+1``'s distal joint; segment 1's distal load is the
    external force ``f_ext`` (the ground reaction) at ``p_ext`` (the centre of pressure).
    The unknowns are ``F_i``, the force on segment ``i`` at its proximal joint (global
    frame), and ``M_i``, the moment on segment ``i`` at its proximal joint written in
    segment ``i``'s frame. Segment ``i`` then obeys (``S`` = :func:`bmc.rotations.skew`)::

        F_i - F_{i-1}                                   = m_i a_i - m_i g - [i=1] f_ext
        M_i - R_i^T R_{i-1} M_{i-1}
            + R_i^T S(rp_i - rcm_i) F_i
            - R_i^T S(rp_{i-1} - rcm_i) F_{i-1}         = I_i alpha_i + omega_i x I_i omega_i
                                                          - [i=1] R_1^T (S(p_ext - rcm_1) f_ext
                                                                         + free_moment)

    Parameters
    ----------
    mass : array_like, shape (n,)
        Segment masses [kg], distal first.
    inertia : array_like, shape (n, 3, 3)
        Inertia tensors about each centre of mass, in the segment's frame [kg m^2].
    R : array_like, shape (N, n, 3, 3) or (n, 3, 3)
        Orientations: ``v_global = R v_segment``.
    rcm, rp : array_like, shape (N, n, 3) or (n, 3)
        Centre of mass and proximal joint positions, global frame [m].
    acm : array_like, shape (N, n, 3) or (n, 3)
        Centre of mass accelerations, global frame [m/s^2].
    omega, omegadot : array_like, shape (N, n, 3) or (n, 3)
        Angular velocities [rad/s] and accelerations [rad/s^2] in each segment's frame.
    f_ext : array_like, shape (N, 3) or (3,)
        External force on segment 1 (ground reaction), global frame [N].
    p_ext : array_like, shape (N, 3) or (3,)
        Its point of application (centre of pressure), global frame [m].
    free_moment : array_like, shape (N, 3) or (3,), optional
        External free moment on segment 1, global frame [N m] (default zero).
    g : float, optional
        Acceleration of free fall [m/s^2] along -y (default
        :data:`bmc.constants.STANDARD_GRAVITY`, as :func:`bmc.invdyn2d`).

    Returns
    -------
    MatrixForm
        ``M, qdd, C, G, E, A`` with time on axis 0, and ``b = M qdd - C - G - E``.

    Examples
    --------
    A single resting segment (the unknown is its proximal load, which carries its weight):

    >>> eye = np.eye(3)
    >>> sys = assemble([2.0], [0.1 * eye], [eye], [[0, 0.5, 0]], [[0, 1.0, 0]], np.zeros((1, 3)),
    ...                np.zeros((1, 3)), np.zeros((1, 3)), [0, 0, 0], [0, 0, 0], g=10.0)
    >>> sys.A.shape, np.round(solve(sys)[0, :3], 3)
    ((1, 6, 6), array([ 0., 20.,  0.]))
    """
    g = positive(g, "g", unit="m/s^2", allow_zero=True)
    masses, tensors, d = _segment_inputs(mass, inertia, R, rcm, rp, acm, omega, omegadot,
                                         f_ext, p_ext, free_moment)
    n = masses.shape[0]
    N = d["R"].shape[0]
    R, Rt = d["R"], np.swapaxes(d["R"], -1, -2)
    eye = np.eye(3)

    M = np.zeros((6 * n, 6 * n))
    G = np.zeros(6 * n)
    qdd = np.zeros((N, 6 * n))
    C = np.zeros((N, 6 * n))
    E = np.zeros((N, 6 * n))
    A = np.zeros((N, 6 * n, 6 * n))
    I_omega = np.einsum("ijk,nik->nij", tensors, d["omega"])            # (N, n, 3)
    gyro = np.cross(d["omega"], I_omega)                                # omega x I omega
    for i in range(n):                      # a loop over segments, never over frames
        f, m = slice(6 * i, 6 * i + 3), slice(6 * i + 3, 6 * i + 6)
        M[f, f] = masses[i] * eye
        M[m, m] = tensors[i]
        G[f] = masses[i] * np.array([0.0, -g, 0.0])
        qdd[:, f] = d["acm"][:, i]
        qdd[:, m] = d["omegadot"][:, i]
        C[:, m] = -gyro[:, i]
        A[:, f, f] = eye
        A[:, m, m] = eye
        A[:, m, f] = Rt[:, i] @ skew(d["rp"][:, i] - d["rcm"][:, i])
        if i == 0:
            r_ext = d["p_ext"] - d["rcm"][:, 0]
            E[:, f] = d["f_ext"]
            E[:, m] = np.einsum("nij,nj->ni", Rt[:, 0],
                                np.cross(r_ext, d["f_ext"]) + d["free_moment"])
        else:
            fp, mp = slice(6 * (i - 1), 6 * i - 3), slice(6 * i - 3, 6 * i)
            A[:, f, fp] = -eye
            A[:, m, mp] = -(Rt[:, i] @ R[:, i - 1])
            A[:, m, fp] = -(Rt[:, i] @ skew(d["rp"][:, i - 1] - d["rcm"][:, i]))
    return MatrixForm(M=M, qdd=qdd, C=C, G=G, E=E, A=A)


def solve(system: MatrixForm) -> np.ndarray:
    """Solve ``A x = M qdd - C - G - E`` for the joint loads, one batched solve.

    Parameters
    ----------
    system : MatrixForm
        The assembled blocks (:func:`assemble`).

    Returns
    -------
    numpy.ndarray, shape (N, 6n)
        ``x = (F_1 [N], M_1 [N m], F_2, M_2, ...)`` per frame.
    """
    if not isinstance(system, MatrixForm):
        raise TypeError(f"system must be a MatrixForm from assemble(); got "
                        f"{type(system).__name__}")
    return np.linalg.solve(system.A, system.b[..., None])[..., 0]


def joint_loads(mass: ArrayLike, inertia: ArrayLike, R: ArrayLike, rcm: ArrayLike,  # noqa: N803
                rp: ArrayLike, acm: ArrayLike, omega: ArrayLike, omegadot: ArrayLike,
                f_ext: ArrayLike, p_ext: ArrayLike, *,
                free_moment: ArrayLike | None = None, g: float = STANDARD_GRAVITY,
                frame: str = "segment") -> tuple[np.ndarray, np.ndarray]:
    """Joint forces and moments of a chain by the matrix formalism (one solve per frame).

    Takes the arguments of :func:`assemble` (see there for shapes and units). A trial that
    holds them, such as :class:`bmc.models.stance.Stance`, gives them by name:
    ``joint_loads(**stance.inputs())``.

    Parameters
    ----------
    frame : {"segment", "global"}, optional
        Frame of the returned moments: each segment's own frame (default, as in the
        equations) or the global frame.

    Returns
    -------
    F : numpy.ndarray, shape (N, n, 3), or (n, 3) when every input is one frame
        Force on segment ``i`` at its proximal joint, global frame [N].
    M : numpy.ndarray, shape (N, n, 3), or (n, 3) when every input is one frame
        Moment on segment ``i`` at its proximal joint [N m], in the chosen frame.

    Examples
    --------
    >>> eye = np.eye(3)
    >>> F, M = joint_loads([2.0], [0.1 * eye], [eye], [[0, 0.5, 0]], [[0, 1.0, 0]],
    ...                    np.zeros((1, 3)), np.zeros((1, 3)), np.zeros((1, 3)),
    ...                    [10.0, 0, 0], [0, 0, 0], g=10.0)
    >>> np.round(F[0], 2), np.round(M[0], 2)
    (array([-10.,  20.,   0.]), array([  0.,   0., -10.]))
    """
    if frame not in ("segment", "global"):
        raise ValueError(f"frame must be 'segment' or 'global'; got {frame!r}")
    system = assemble(mass, inertia, R, rcm, rp, acm, omega, omegadot, f_ext, p_ext,
                      free_moment=free_moment, g=g)
    one_frame = (np.ndim(R) == 3 and all(np.ndim(v) == 2 for v in (rcm, rp, acm, omega, omegadot))
                 and all(np.ndim(v) <= 1 for v in (f_ext, p_ext))
                 and (free_moment is None or np.ndim(free_moment) <= 1))
    x = solve(system).reshape(system.qdd.shape[0], -1, 2, 3)
    F, M = x[:, :, 0], x[:, :, 1]
    if frame == "global":
        R = np.broadcast_to(as_array(R, "R", last=(3, 3)), M.shape + (3,))
        M = np.einsum("nsij,nsj->nsi", R, M)
    return (F[0], M[0]) if one_frame else (F, M)
