"""Matrix formalism of the Newton-Euler equations: ``M(q) qdd = C + G + Q + E``.

Two problems written in that one form:

- **Forward dynamics** of a double pendulum of uniform rods (:class:`DoublePendulum`),
  with absolute angles measured from the downward vertical, as in the source notebook;
  ``qdd = M^-1 (C + G + Q + E)`` is integrated over time.
- **3D inverse dynamics** of a chain of segments loaded at its distal end (foot and shank
  in stance): the unknown joint forces and moments enter ``Q`` linearly, ``Q = A x``, so
  ``A x = M qdd - C - G - E`` gives every joint load in one linear solve per frame
  (:func:`assemble`, :func:`joint_loads`). Cross products become matrix products through the
  skew operator (:func:`skew`, with its inverse :func:`vee`).

Conventions
-----------
Global frame: x forward, y up, z to the right (out of the sagittal plane); gravity
``g > 0`` along -y. A rotation matrix ``R`` is the **orientation** of a segment: its columns
are the segment's axes written in the global frame, so ``v_global = R v_segment``. (The
source writes ``R_F`` for the matrix that maps global to foot coordinates, which is
``R.T`` here.) Axis 0 is time; every function takes one frame or ``N`` frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, positive
from bmc.rotations import skew, vee

__all__ = [
    "DoublePendulum",
    "MatrixForm",
    "Stance",
    "assemble",
    "euler_double_pendulum",
    "joint_loads",
    "skew",
    "solve",
    "stance_example",
    "vee",
]


# ---------------------------------------------------------------------------------------
# Forward dynamics: the double pendulum of the source
# ---------------------------------------------------------------------------------------
class DoublePendulum:
    """Double pendulum of two uniform rods, angles from the downward vertical.

    ``theta[0]`` is rod 1's angle and ``theta[1]`` rod 2's (both absolute, measured from
    the downward vertical, counter-clockwise positive), so rod 1's tip is at
    ``(l1 sin theta1, -l1 cos theta1)``. Each rod is uniform: centre of mass at mid-length,
    moment of inertia ``m l^2 / 12`` about it. The equations of motion are written as the
    source writes them, every term except the mass matrix on the right-hand side::

        M(theta) thetadd = C(theta, omega) + G(theta) + Q

    with ``Q = (M1 - M12, M12)`` for a torque ``M1`` at the base joint and ``M12`` at the
    joint between the rods (acting on rod 2, its reaction on rod 1).

    Parameters
    ----------
    m1, m2 : float, optional
        Rod masses [kg] (default 1 and 1, the source's values).
    l1, l2 : float, optional
        Rod lengths [m] (default 1 and 0.5, the source's values).
    g : float, optional
        Gravitational acceleration [m/s^2], acting along -y (default 9.81).

    Examples
    --------
    >>> pend = DoublePendulum()
    >>> np.round(pend.gravity_terms([np.pi / 2, 0.0]), 4)
    array([-14.715,  -0.   ])
    """

    def __init__(self, m1: float = 1.0, m2: float = 1.0, l1: float = 1.0, l2: float = 0.5,
                 g: float = 9.81) -> None:
        self.m1 = positive(m1, "m1", unit="kg")
        self.m2 = positive(m2, "m2", unit="kg")
        self.l1 = positive(l1, "l1", unit="m")
        self.l2 = positive(l2, "l2", unit="m")
        self.g = positive(g, "g", unit="m/s^2", allow_zero=True)

    def __repr__(self) -> str:
        return (f"DoublePendulum(m1={self.m1:g}, m2={self.m2:g}, l1={self.l1:g}, "
                f"l2={self.l2:g}, g={self.g:g})")

    # The coefficients every term is made of.
    @property
    def _k(self) -> tuple[float, float, float, float, float]:
        m1, m2, l1, l2, g = self.m1, self.m2, self.l1, self.l2, self.g
        return (m1 * l1**2 / 3 + m2 * l1**2,      # M11 [kg m^2]
                m2 * l1 * l2 / 2,                 # coupling [kg m^2]
                m2 * l2**2 / 3,                   # M22 [kg m^2]
                (m1 / 2 + m2) * g * l1,           # gravity on rod 1 [N m]
                m2 * g * l2 / 2)                  # gravity on rod 2 [N m]

    def _theta(self, theta: ArrayLike, name: str = "theta") -> np.ndarray:
        return as_array(theta, name, unit="rad", last=2)

    def mass_matrix(self, theta: ArrayLike) -> np.ndarray:
        """Mass matrix ``M(theta)`` [kg m^2], shape (..., 2, 2), of angles theta (..., 2) [rad]."""
        theta = self._theta(theta)
        a, b, c, _, _ = self._k
        off = b * np.cos(theta[..., 0] - theta[..., 1])
        out = np.empty(theta.shape[:-1] + (2, 2))
        out[..., 0, 0], out[..., 1, 1] = a, c
        out[..., 0, 1] = out[..., 1, 0] = off
        return out

    def velocity_terms(self, theta: ArrayLike, omega: ArrayLike) -> np.ndarray:
        """Centripetal terms ``C`` [N m], shape (..., 2), on the right-hand side.

        Parameters
        ----------
        theta : array_like, shape (..., 2)
            Absolute angles from the downward vertical [rad].
        omega : array_like, shape (..., 2)
            Angular velocities [rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., 2)
            ``(-b w2^2 sin(t1 - t2), b w1^2 sin(t1 - t2))`` with ``b = m2 l1 l2 / 2``.
        """
        theta = self._theta(theta)
        omega = as_array(omega, "omega", unit="rad/s", last=2)
        b = self._k[1]
        s = np.sin(theta[..., 0] - theta[..., 1])
        return np.stack([-b * omega[..., 1] ** 2 * s, b * omega[..., 0] ** 2 * s], axis=-1)

    def gravity_terms(self, theta: ArrayLike) -> np.ndarray:
        """Gravity terms ``G`` [N m], shape (..., 2), on the right-hand side.

        ``G = (-(m1/2 + m2) g l1 sin theta1, -m2 g (l2/2) sin theta2)``: rod 2's weight acts
        on rod 1 through rod 1's full length ``l1`` (the source's code has ``l2`` there).
        """
        theta = self._theta(theta)
        _, _, _, g1, g2 = self._k
        return np.stack([-g1 * np.sin(theta[..., 0]), -g2 * np.sin(theta[..., 1])], axis=-1)

    def generalized_forces(self, M1: ArrayLike, M12: ArrayLike) -> np.ndarray:
        """``Q = (M1 - M12, M12)`` [N m] from the base torque M1 and joint torque M12 [N m]."""
        M1 = as_array(M1, "M1", unit="N m")
        M12 = as_array(M12, "M12", unit="N m")
        return np.stack(np.broadcast_arrays(M1 - M12, M12), axis=-1)

    def accelerations(self, theta: ArrayLike, omega: ArrayLike,
                      Q: ArrayLike = 0.0) -> np.ndarray:
        """Angular accelerations ``M^-1 (C + G + Q)`` [rad/s^2], shape (..., 2).

        Parameters
        ----------
        theta, omega : array_like, shape (..., 2)
            Angles [rad] and angular velocities [rad/s].
        Q : array_like, shape (..., 2) or scalar, optional
            Generalized forces [N m] (default zero: a passive pendulum).
        """
        rhs = self.velocity_terms(theta, omega) + self.gravity_terms(theta)
        rhs = rhs + as_array(Q, "Q", unit="N m")
        return np.linalg.solve(self.mass_matrix(theta), rhs[..., None])[..., 0]

    def rhs(self, t: float, y: ArrayLike, Q: ArrayLike | None = None) -> np.ndarray:
        """State derivative for ``solve_ivp``: ``y = (theta1, theta2, omega1, omega2)``.

        Parameters
        ----------
        t : float
            Time [s] (unused: the passive pendulum is autonomous).
        y : array_like, shape (4,)
            Angles [rad] and angular velocities [rad/s].
        Q : array_like, shape (2,), optional
            Generalized forces [N m].

        Returns
        -------
        numpy.ndarray, shape (4,)
            ``(omega1, omega2, alpha1, alpha2)`` [rad/s, rad/s^2].
        """
        th1, th2, w1, w2 = (float(v) for v in y)     # plain floats: ~20x faster than arrays
        q1, q2 = (0.0, 0.0) if Q is None else (float(v) for v in Q)
        a, b, c, g1, g2 = self._k
        d = th1 - th2
        sd = math.sin(d)
        m12 = b * math.cos(d)
        r1 = -b * w2 * w2 * sd - g1 * math.sin(th1) + q1
        r2 = b * w1 * w1 * sd - g2 * math.sin(th2) + q2
        det = a * c - m12 * m12                      # closed-form solve of the 2x2 system
        return np.array([w1, w2, (c * r1 - m12 * r2) / det, (a * r2 - m12 * r1) / det])

    def energy(self, theta: ArrayLike, omega: ArrayLike) -> np.ndarray:
        """Kinetic plus potential energy [J], shape (...,); potential zero at the pivot height.

        Parameters
        ----------
        theta, omega : array_like, shape (..., 2)
            Angles [rad] and angular velocities [rad/s].
        """
        theta = self._theta(theta)
        omega = as_array(omega, "omega", unit="rad/s", last=2)
        a, b, c, g1, g2 = self._k
        w1, w2 = omega[..., 0], omega[..., 1]
        cross = b * np.cos(theta[..., 0] - theta[..., 1]) * w1 * w2
        kinetic = 0.5 * (a * w1**2 + c * w2**2) + cross
        potential = -g1 * np.cos(theta[..., 0]) - g2 * np.cos(theta[..., 1])
        return kinetic + potential

    def positions(self, theta: ArrayLike) -> np.ndarray:
        """Pivot, joint and tip positions [m], shape (..., 3, 2), from angles (..., 2) [rad]."""
        theta = self._theta(theta)
        p1 = self.l1 * np.stack([np.sin(theta[..., 0]), -np.cos(theta[..., 0])], axis=-1)
        p2 = p1 + self.l2 * np.stack([np.sin(theta[..., 1]), -np.cos(theta[..., 1])], axis=-1)
        return np.stack([np.zeros_like(p1), p1, p2], axis=-2)

    def to_chain(self):
        """Return the same pendulum as a :class:`bmc.PlanarChain` (joint coordinates)."""
        from bmc.chain import PlanarChain

        lengths = [self.l1, self.l2]
        masses = [self.m1, self.m2]
        inertias = [m * length**2 / 12 for m, length in zip(masses, lengths, strict=True)]
        return PlanarChain(lengths, [self.l1 / 2, self.l2 / 2], masses, inertias, g=self.g)

    @staticmethod
    def to_chain_coordinates(theta: ArrayLike) -> np.ndarray:
        """``PlanarChain`` coordinates ``q`` [rad] from absolute angles from the vertical.

        ``q[0] = theta1 - pi/2`` (rod 1 from the +x axis), ``q[1] = theta2 - theta1`` (joint
        angle). Rates and accelerations map by the same matrix without the offset:
        ``qd = (omega1, omega2 - omega1)``.
        """
        theta = as_array(theta, "theta", unit="rad", last=2)
        return np.stack([theta[..., 0] - np.pi / 2, theta[..., 1] - theta[..., 0]], axis=-1)


def euler_double_pendulum(pend: DoublePendulum, y0: ArrayLike, t_end: float, *, dt: float,
                          every: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Explicit Euler for the passive double pendulum, kept fast as a teaching contrast.

    Every step depends on the previous one, so this is a plain Python loop; the work per
    step is a handful of float operations (the 2x2 system is solved in closed form), about
    a microsecond each, instead of building NumPy arrays and inverting ``M``.

    Parameters
    ----------
    pend : DoublePendulum
        The pendulum (passive: ``Q = 0``).
    y0 : array_like, shape (4,)
        Initial ``(theta1, theta2, omega1, omega2)`` [rad, rad/s].
    t_end : float
        Duration [s].
    dt : float
        Step [s].
    every : int, optional
        Keep every ``every``-th step in the output (default 1: all).

    Returns
    -------
    t : numpy.ndarray, shape (K,)
        Times [s] of the kept steps, starting at 0.
    y : numpy.ndarray, shape (K, 4)
        States at those times.

    Examples
    --------
    >>> pend = DoublePendulum()
    >>> t, y = euler_double_pendulum(pend, [0.1, 0.0, 0.0, 0.0], 1.0, dt=1e-3, every=100)
    >>> t.shape, y.shape
    ((11,), (11, 4))
    """
    if not isinstance(pend, DoublePendulum):
        raise TypeError(f"pend must be a DoublePendulum; got {type(pend).__name__}")
    y0 = as_array(y0, "y0", last=4, ndim=1)
    t_end = positive(t_end, "t_end", unit="s")
    dt = positive(dt, "dt", unit="s")
    if not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be a positive integer; got {every!r}")
    n_steps = int(round(t_end / dt))
    a, b, c, g1, g2 = pend._k
    det_const = a * c
    th1, th2, w1, w2 = (float(v) for v in y0)
    keep = np.empty((n_steps // every + 1, 4))
    keep[0] = th1, th2, w1, w2
    sin, cos = math.sin, math.cos
    k = 1
    for i in range(1, n_steps + 1):
        d = th1 - th2
        sd, cd = sin(d), cos(d)
        m12 = b * cd
        r1 = -b * w2 * w2 * sd - g1 * sin(th1)
        r2 = b * w1 * w1 * sd - g2 * sin(th2)
        det = det_const - m12 * m12
        al1 = (c * r1 - m12 * r2) / det
        al2 = (a * r2 - m12 * r1) / det
        th1, th2, w1, w2 = th1 + dt * w1, th2 + dt * w2, w1 + dt * al1, w2 + dt * al2
        if i % every == 0:
            keep[k] = th1, th2, w1, w2
            k += 1
    keep = keep[:k]
    return np.arange(k) * (every * dt), keep


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


def _segment_inputs(mass, inertia, R, rcm, rp, acm, omega, omegadot, f_ext, p_ext,
                    free_moment):
    """Validate and broadcast the chain inputs to (N, n, ...) arrays."""
    mass = as_array(mass, "mass", unit="kg", ndim=1)
    n = mass.shape[0]
    if n < 1 or np.any(mass <= 0):
        raise ValueError(f"mass [kg] must hold one positive mass per segment; got {mass}")
    inertia = as_array(inertia, "inertia", unit="kg m^2", last=(3, 3))
    if inertia.shape != (n, 3, 3):
        raise ValueError(f"inertia [kg m^2] must have shape ({n}, 3, 3), one tensor per "
                         f"segment in its own frame; got shape {inertia.shape}")
    if not np.allclose(inertia, np.swapaxes(inertia, -1, -2), rtol=1e-12, atol=1e-15):
        raise ValueError("inertia [kg m^2] must be symmetric (I = I^T)")
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
        per_segment[name] = arr
    external = {}
    for name, value, unit in (("f_ext", f_ext, "N"), ("p_ext", p_ext, "m"),
                              ("free_moment", free_moment, "N m")):
        if value is None:
            external[name] = np.zeros((1, 3))
        else:
            external[name] = np.atleast_2d(as_array(value, name, unit=unit, last=3,
                                                    ndim=(1, 2)))
    frames = {a.shape[0] for a in (*per_segment.values(), *external.values())} - {1}
    if len(frames) > 1:
        shapes = {k: v.shape for k, v in (*per_segment.items(), *external.items())}
        raise ValueError(f"the inputs must share the number of frames N on axis 0; got {shapes}")
    N = frames.pop() if frames else 1
    out = {k: np.broadcast_to(v, (N, *v.shape[1:])) for k, v in per_segment.items()}
    out.update({k: np.broadcast_to(v, (N, 3)) for k, v in external.items()})
    return mass, inertia, out


def assemble(mass: ArrayLike, inertia: ArrayLike, R: ArrayLike, rcm: ArrayLike, rp: ArrayLike,
             acm: ArrayLike, omega: ArrayLike, omegadot: ArrayLike, f_ext: ArrayLike,
             p_ext: ArrayLike, *, free_moment: ArrayLike | None = None,
             g: float = 9.80665) -> MatrixForm:
    """Assemble the matrix form of the 3D Newton-Euler equations of a chain of segments.

    Segments are numbered from the distal end (1 = foot, 2 = shank, ...). Segment ``i``'s
    proximal joint is segment ``i+1``'s distal joint; segment 1's distal load is the
    external force ``f_ext`` (the ground reaction) at ``p_ext`` (the centre of pressure).
    The unknowns are ``F_i``, the force on segment ``i`` at its proximal joint (global
    frame), and ``M_i``, the moment on segment ``i`` at its proximal joint written in
    segment ``i``'s frame. Segment ``i`` then obeys (``S`` = :func:`skew`)::

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
        Acceleration of free fall [m/s^2] along -y (default 9.80665, as
        :func:`bmc.invdyn2d`).

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
    mass, inertia, d = _segment_inputs(mass, inertia, R, rcm, rp, acm, omega, omegadot,
                                       f_ext, p_ext, free_moment)
    n = mass.shape[0]
    N = d["R"].shape[0]
    R, Rt = d["R"], np.swapaxes(d["R"], -1, -2)
    eye = np.eye(3)

    M = np.zeros((6 * n, 6 * n))
    G = np.zeros(6 * n)
    qdd = np.zeros((N, 6 * n))
    C = np.zeros((N, 6 * n))
    E = np.zeros((N, 6 * n))
    A = np.zeros((N, 6 * n, 6 * n))
    I_omega = np.einsum("ijk,nik->nij", inertia, d["omega"])            # (N, n, 3)
    gyro = np.cross(d["omega"], I_omega)                                # omega x I omega
    for i in range(n):                      # a loop over segments, never over frames
        f, m = slice(6 * i, 6 * i + 3), slice(6 * i + 3, 6 * i + 6)
        M[f, f] = mass[i] * eye
        M[m, m] = inertia[i]
        G[f] = mass[i] * np.array([0.0, -g, 0.0])
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


def joint_loads(mass: ArrayLike, inertia: ArrayLike, R: ArrayLike, rcm: ArrayLike,
                rp: ArrayLike, acm: ArrayLike, omega: ArrayLike, omegadot: ArrayLike,
                f_ext: ArrayLike, p_ext: ArrayLike, *, free_moment: ArrayLike | None = None,
                g: float = 9.80665, frame: str = "segment") -> tuple[np.ndarray, np.ndarray]:
    """Joint forces and moments of a chain by the matrix formalism (one solve per frame).

    Takes the arguments of :func:`assemble`; see there for shapes and units.

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
                 and all(np.ndim(v) <= 1 for v in (f_ext, p_ext, free_moment)))
    x = solve(system).reshape(system.qdd.shape[0], -1, 2, 3)
    F, M = x[:, :, 0], x[:, :, 1]
    if frame == "global":
        R = np.broadcast_to(as_array(R, "R", last=(3, 3)), M.shape + (3,))
        M = np.einsum("nsij,nsj->nsi", R, M)
    return (F[0], M[0]) if one_frame else (F, M)


# ---------------------------------------------------------------------------------------
# A synthetic 3D stance of foot and shank (the worked example of notebook 3)
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stance:
    """Inputs of a foot-shank inverse-dynamics problem over a stance phase.

    Segment 0 is the foot, segment 1 the shank; arrays have time on axis 0. The argument
    names match :func:`joint_loads`, so ``joint_loads(**stance.inputs())`` solves it.

    Attributes
    ----------
    t : numpy.ndarray, shape (N,)
        Time [s].
    mass : numpy.ndarray, shape (2,)
        Foot and shank masses [kg].
    inertia : numpy.ndarray, shape (2, 3, 3)
        Principal inertia tensors about the centres of mass, segment frames [kg m^2].
    angles : numpy.ndarray, shape (N, 2, 3)
        Cardan angles ``"zxy"`` (flexion, ad/abduction, axial rotation) [rad].
    R : numpy.ndarray, shape (N, 2, 3, 3)
        Orientations, ``v_global = R v_segment``.
    rcm, rp, acm : numpy.ndarray, shape (N, 2, 3)
        Centre of mass positions [m], proximal joint positions (ankle, knee) [m] and centre
        of mass accelerations [m/s^2], global frame.
    omega, omegadot : numpy.ndarray, shape (N, 2, 3)
        Angular velocities [rad/s] and accelerations [rad/s^2], segment frames.
    f_ext, p_ext, free_moment : numpy.ndarray, shape (N, 3)
        Ground reaction force [N], centre of pressure [m] and free moment [N m], global.
    """

    t: np.ndarray
    mass: np.ndarray
    inertia: np.ndarray
    angles: np.ndarray
    R: np.ndarray
    rcm: np.ndarray
    rp: np.ndarray
    acm: np.ndarray
    omega: np.ndarray
    omegadot: np.ndarray
    f_ext: np.ndarray
    p_ext: np.ndarray
    free_moment: np.ndarray

    def inputs(self) -> dict[str, np.ndarray]:
        """Keyword arguments for :func:`joint_loads` and ``bmc.newton_euler.joint_loads3d``."""
        names = ("mass", "inertia", "R", "rcm", "rp", "acm", "omega", "omegadot", "f_ext",
                 "p_ext", "free_moment")
        return {name: getattr(self, name) for name in names}


def _smooth(s: np.ndarray, duration: float, poly: tuple[float, ...],
            waves: tuple[tuple[float, float], ...] = ()) -> tuple[np.ndarray, ...]:
    """Value, first and second time derivative of ``sum c_k s^k + sum a sin(k pi s)``."""
    from numpy.polynomial import polynomial as P

    c = np.asarray(poly, dtype=float)
    x = P.polyval(s, c)
    xd = P.polyval(s, P.polyder(c)) / duration
    xdd = P.polyval(s, P.polyder(c, 2)) / duration**2
    for amp, k in waves:
        w = k * np.pi
        x = x + amp * np.sin(w * s)
        xd = xd + amp * w * np.cos(w * s) / duration
        xdd = xdd - amp * w**2 * np.sin(w * s) / duration**2
    return x, xd, xdd


def stance_example(*, body_mass: float = 70.0, height: float = 1.75, duration: float = 0.6,
                   n_frames: int = 121, planar: bool = False) -> Stance:
    """Make a smooth synthetic stance phase of foot and shank, with a ground reaction.

    Segment parameters come from de Leva (1996, male) through
    :func:`bmc.anthropometry.segment`. The three principal moments of inertia are
    ``m (k L)^2`` with de Leva's three radii of gyration ``k``: his *transverse* one about
    the medio-lateral axis z (flexion-extension), his *sagittal* one about the
    antero-posterior axis (x for the shank; for the foot, its dorso-plantar axis y), the
    *longitudinal* one about the segment's long axis (y for the shank, x for the foot); see
    :func:`bmc.anthropometry.segment` for why.

    Segment frames: the shank's y axis points from ankle to knee, the foot's x axis from
    heel to toe; both have z to the right, so in upright standing both frames are parallel
    to the global one. Orientations are Cardan ``"zxy"`` angles (flexion, then
    ad/abduction, then axial rotation), smooth in time with exact derivatives
    (:func:`bmc.rotations.rotation_kinematics`); the ankle follows a smooth path, the knee
    and the centres of mass follow from the segment geometry, and their accelerations are
    exact (``a = a_ankle + R (alpha x c + omega x (omega x c))``). The ground reaction has
    a double-humped vertical force, braking then propulsion, a small medio-lateral force
    and a free moment about the vertical; the centre of pressure runs from the heel to the
    toes. The numbers are plausible, not measured.

    Parameters
    ----------
    body_mass : float, optional
        Body mass [kg] (default 70).
    height : float, optional
        Body height [m] (default 1.75).
    duration : float, optional
        Stance duration [s] (default 0.6).
    n_frames : int, optional
        Number of frames (default 121, i.e. 200 Hz over 0.6 s).
    planar : bool, optional
        Keep everything in the sagittal x-y plane: rotations about z only, no out-of-plane
        force, offset or free moment (the special case that :func:`bmc.invdyn2d` solves).

    Returns
    -------
    Stance
        Inputs of :func:`joint_loads`, plus time and angles.

    Examples
    --------
    >>> st = stance_example(n_frames=31)
    >>> st.R.shape, round(float(st.mass.sum()), 3)
    ((31, 2, 3, 3), 3.99)
    """
    from bmc.anthropometry import segment
    from bmc.rotations import rotation_kinematics

    body_mass = positive(body_mass, "body_mass", unit="kg")
    height = positive(height, "height", unit="m")
    duration = positive(duration, "duration", unit="s")
    if not isinstance(n_frames, int) or n_frames < 3:
        raise ValueError(f"n_frames must be an integer >= 3; got {n_frames!r}")
    axes = ("anteroposterior", "longitudinal", "mediolateral")  # about local x, y, z (shank)
    segs = {}
    for name in ("foot", "shank_ankle"):
        segs[name] = [segment(name, body_mass=body_mass, height=height, table="de_leva",
                              sex="male", axis=axis) for axis in axes]
    foot, shank = segs["foot"][0], segs["shank_ankle"][0]
    i_shank = [s.inertia for s in segs["shank_ankle"]]
    i_foot = [s.inertia for s in segs["foot"]]
    i_foot = [i_foot[1], i_foot[0], i_foot[2]]   # the foot's long axis is x, not y
    mass = np.array([foot.mass, shank.mass])
    inertia = np.stack([np.diag(i_foot), np.diag(i_shank)])

    t = np.linspace(0.0, duration, n_frames)
    s = t / duration
    out_of_plane = 0.0 if planar else 1.0
    # Cardan angles (z: flexion, x: ad/abduction, y: axial rotation) [rad] of foot, shank.
    specs = {
        "foot": [((0.25, -0.15, -0.35), ()), ((0.0,), ((0.06 * out_of_plane, 1.0),)),
                 ((0.08 * out_of_plane, 0.04 * out_of_plane), ())],
        "shank": [((0.3, -0.9), ((0.05, 2.0),)), ((0.02 * out_of_plane,),
                                                  ((0.04 * out_of_plane, 1.0),)),
                  ((-0.05 * out_of_plane, 0.1 * out_of_plane), ())],
    }
    kin = []
    for name in ("foot", "shank"):
        q = np.stack([np.stack(_smooth(s, duration, *spec), axis=-1)
                      for spec in specs[name]], axis=-2)           # (N, 3 angles, 3 orders)
        kin.append((q[..., 0], *rotation_kinematics(q[..., 0], q[..., 1], q[..., 2],
                                                    sequence="zxy")))
    angles = np.stack([k[0] for k in kin], axis=1)
    R = np.stack([k[1] for k in kin], axis=1)
    omega = np.stack([k[2] for k in kin], axis=1)
    omegadot = np.stack([k[3] for k in kin], axis=1)

    # Ankle path [m] and the segment points in segment frames [m].
    ankle = np.stack([np.stack(_smooth(s, duration, *spec), axis=-1) for spec in (
        ((0.0, 0.03, 0.0, 0.05), ()), ((0.09, -0.02, 0.0, 0.08), ()),
        ((0.0,), ((0.01 * out_of_plane, 1.0),)))], axis=-2)     # (N, 3 coords, 3 orders)
    c_foot = np.array([foot.com - 0.25 * foot.length, -0.03, 0.0])  # heel 0.25 L behind
    c_shank = np.array([0.0, shank.length - shank.com, 0.0])       # com measured from knee
    knee_local = np.array([0.0, shank.length, 0.0])

    def point(i: int, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rc = np.einsum("nij,j->ni", R[:, i], c)
        local = np.cross(omegadot[:, i], c) + np.cross(omega[:, i], np.cross(omega[:, i], c))
        return ankle[..., 0] + rc, ankle[..., 2] + np.einsum("nij,nj->ni", R[:, i], local)

    rcm_f, acm_f = point(0, c_foot)
    rcm_s, acm_s = point(1, c_shank)
    knee, _ = point(1, knee_local)
    rcm = np.stack([rcm_f, rcm_s], axis=1)
    acm = np.stack([acm_f, acm_s], axis=1)
    rp = np.stack([ankle[..., 0], knee], axis=1)

    weight = body_mass * 9.80665
    f_ext = np.stack([-0.2 * weight * np.sin(2 * np.pi * s),
                      weight * (1.0 * np.sin(np.pi * s) + 0.25 * np.sin(3 * np.pi * s)),
                      0.05 * out_of_plane * weight * np.sin(np.pi * s)], axis=-1)
    p_ext = np.stack([-0.05 + 0.25 * s, 0.0 * s, 0.02 * out_of_plane * (0.5 - s)], axis=-1)
    free_moment = np.stack([0.0 * s, 3.0 * out_of_plane * np.sin(2 * np.pi * s), 0.0 * s],
                           axis=-1)
    return Stance(t=t, mass=mass, inertia=inertia, angles=angles, R=R, rcm=rcm, rp=rp,
                  acm=acm, omega=omega, omegadot=omegadot, f_ext=f_ext, p_ext=p_ext,
                  free_moment=free_moment)
