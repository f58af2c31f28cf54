"""Planar open chains of rigid links: the ``tau = M qdd + C + G + E`` form, vectorised.

A :class:`PlanarChain` is ``n`` rigid links joined by hinges, the first hinged to a fixed
base at the origin. It is the model behind the one-link (inverted) pendulum, the two-link
arm, the double pendulum of the matrix-formalism notebook and Kuo's four-segment postural
model.

Coordinates
-----------
Joint coordinates ``q`` (the two-link notebook's ``alpha_1, alpha_2``): ``q[0]`` is segment
1's angle from the horizontal (+x), counter-clockwise positive; ``q[i]`` (``i >= 1``) is the
angle of segment ``i+1`` relative to segment ``i``. Segment (absolute) angles are
``phi = T q`` with ``T`` the lower-triangular matrix of ones, ``phi_k = q_0 + ... + q_k``.
The generalised forces conjugate to ``q`` are the joint torques ``tau`` [N m] (torque of
segment ``i`` on segment ``i+1``, with ``tau[0]`` from the base on segment 1).

Equations
---------
With ``a_kj = l_j`` for ``j < k``, ``a_kk = c_k`` (joint-to-COM distance) and 0 otherwise,
the centre of mass of segment ``k`` is ``r_k = sum_j a_kj (cos phi_j, sin phi_j)``. Let
``B_ij = sum_k m_k a_ki a_kj`` and ``s_j = sum_k m_k a_kj``. In segment angles

- ``M_abs = B * cos(phi_i - phi_j) + diag(I)``,
- ``C_abs_i = sum_j B_ij sin(phi_i - phi_j) phidot_j**2``,
- ``G_abs_j = g s_j cos(phi_j)``,
- ``E_abs = -J_phi^T F`` with the endpoint Jacobian ``J_phi[:, j] = l_j (-sin, cos)(phi_j)``,

and in joint coordinates ``M = T^T M_abs T``, ``C = T^T C_abs``, ``G = T^T G_abs``,
``E = T^T E_abs``. Every method accepts one frame, shape ``(n,)``, or many, ``(..., n)``
with time on axis 0, and is computed without per-frame loops.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, gravity, plausible, positive
from bmc.kinematics import forward_kinematics, jacobian, lever_kinematics

__all__ = ["PlanarChain"]


def __dir__() -> list[str]:
    return sorted(__all__)


def _params(value: ArrayLike, name: str, unit: str) -> np.ndarray:
    arr = np.atleast_1d(as_array(value, name, unit=unit))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"{name} [{unit}] must be a scalar or a 1-D sequence with one value per link; "
            f"got shape {np.shape(value)}"
        )
    return arr


_BLOCK = 8192  # frames per block in _torques: the (n, block) buffers stay in cache


def _torques(B: np.ndarray, gs: np.ndarray, diag: np.ndarray, q: np.ndarray,
             qd: np.ndarray, qdd: np.ndarray) -> np.ndarray:
    """``M qdd + C + G`` for (N, n) joint coordinates, in blocks of frames, in place.

    In segment angles ``phi = cumsum(q)``, with ``B_ij = sum_k m_k a_ki a_kj`` and
    ``gs_i = g sum_k m_k a_ki``, the torque about segment ``i`` is

        (B_ii + I_i) phidd_i + gs_i cos phi_i
        + sum_{j != i} B_ij (cos(phi_i - phi_j) phidd_j + sin(phi_i - phi_j) phid_j^2)

    and the joint torques are its reverse cumulative sum. Only the ``2n`` sines and cosines
    of the segment angles are evaluated (those of the differences follow from the sum
    formulas), no (N, n, n) array is built, and the loop runs over blocks of frames and
    pairs of segments, never over frames: about 4x faster than the matrix form at 1e6
    frames, with the peak memory the output plus one block (``benchmarks/``).
    """
    n_frames, n = q.shape
    out = np.empty(q.shape)
    pairs = [(i, j, B[i, j]) for i in range(n) for j in range(i + 1, n)]
    width = min(_BLOCK, max(n_frames, 1))
    rows = [np.empty((n, width)) for _ in range(6)]
    cols = [np.empty(width) for _ in range(4)]
    for start in range(0, n_frames, width):
        stop = min(start + width, n_frames)
        m = stop - start
        phi, w2, acc, c, s, tau = (x[:, :m] for x in rows)
        cij, sij, t1, t2 = (x[:m] for x in cols)
        np.cumsum(q[start:stop].T, axis=0, out=phi)
        np.cumsum(qd[start:stop].T, axis=0, out=w2)
        np.multiply(w2, w2, out=w2)
        np.cumsum(qdd[start:stop].T, axis=0, out=acc)
        np.cos(phi, out=c)
        np.sin(phi, out=s)
        np.multiply(acc, diag[:, None], out=tau)
        np.multiply(c, gs[:, None], out=phi)  # phi is not needed any more: scratch
        tau += phi
        for i, j, b in pairs:
            np.multiply(c[i], c[j], out=cij)  # B_ij cos(phi_i - phi_j)
            np.multiply(s[i], s[j], out=t1)
            cij += t1
            cij *= b
            np.multiply(s[i], c[j], out=sij)  # B_ij sin(phi_i - phi_j)
            np.multiply(c[i], s[j], out=t1)
            sij -= t1
            sij *= b
            np.multiply(cij, acc[j], out=t1)
            np.multiply(sij, w2[j], out=t2)
            t1 += t2
            tau[i] += t1
            np.multiply(cij, acc[i], out=t1)
            np.multiply(sij, w2[i], out=t2)
            t1 -= t2
            tau[j] += t1
        for k in range(n - 2, -1, -1):  # joint torques: tau = T^T tau_abs
            tau[k] += tau[k + 1]
        out[start:stop] = tau.T
    return out


class PlanarChain:
    """An ``n``-link planar open chain hinged at the origin, in joint coordinates.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Link lengths, joint to joint (the last one: joint to endpoint) [m], all > 0.
    com : array_like, shape (n,)
        Distance from each link's proximal joint to its centre of mass, along the link [m],
        ``0 <= com <= lengths``.
    masses : array_like, shape (n,)
        Link masses [kg], all > 0.
    inertias : array_like, shape (n,)
        Moments of inertia about each link's centre of mass, z axis [kg m^2], all >= 0.
    g : float, optional
        Gravitational acceleration [m/s^2], acting along -y; 0 for movement in the
        horizontal plane. Default 9.81.

    Notes
    -----
    The coordinate convention and the equations are in the module docstring. ``E`` is the
    contribution of a force ``F`` [N] applied *to* the endpoint by the environment:
    ``M qdd + C + G + E = tau`` with ``E = -J^T F``.

    Examples
    --------
    A uniform 1 m, 2 kg rod held horizontal needs ``m g l / 2`` at its hinge:

    >>> import bmc
    >>> rod = bmc.PlanarChain([1.0], [0.5], [2.0], [2.0 / 12], g=9.81)
    >>> print(np.round(rod.inverse_dynamics([0.0], [0.0], [0.0]), 4))
    [9.81]
    >>> arm = bmc.PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    >>> arm.mass_matrix(np.zeros((5, 2))).shape
    (5, 2, 2)
    """

    def __init__(
        self,
        lengths: ArrayLike,
        com: ArrayLike,
        masses: ArrayLike,
        inertias: ArrayLike,
        g: float = 9.81,
    ) -> None:
        lengths = _params(lengths, "lengths", "m")
        com = _params(com, "com", "m")
        masses = _params(masses, "masses", "kg")
        inertias = _params(inertias, "inertias", "kg m^2")
        n = lengths.size
        for name, arr in (("com", com), ("masses", masses), ("inertias", inertias)):
            if arr.size != n:
                raise ValueError(
                    f"{name} must have one value per link: lengths has {n} value(s), "
                    f"{name} has {arr.size}"
                )
        if np.any(lengths <= 0):
            raise ValueError(f"lengths [m] must all be > 0; got {lengths.tolist()}")
        if np.any(masses <= 0):
            raise ValueError(f"masses [kg] must all be > 0; got {masses.tolist()}")
        for name, arr, unit, low, high, quantity, units in (
                ("lengths", lengths, "m", 1e-3, 10.0, "link length", {"cm": 0.01, "mm": 0.001}),
                ("masses", masses, "kg", 1e-3, 300.0, "link mass", {"g": 0.001})):
            for value in arr:
                plausible(float(value), name, unit=unit, low=low, high=high, quantity=quantity,
                          units=units)
        if np.any(inertias < 0):
            raise ValueError(f"inertias [kg m^2] must all be >= 0; got {inertias.tolist()}")
        if np.any(com < 0) or np.any(com > lengths):
            raise ValueError(
                "com [m] is the distance from each link's proximal joint to its centre of "
                f"mass and must lie within the link, 0 <= com <= length; got com "
                f"{com.tolist()} for lengths {lengths.tolist()} (a fraction such as 0.43 "
                "must be multiplied by the length first)"
            )
        self._lengths = lengths
        self._com = com
        self._masses = masses
        self._inertias = inertias
        self._g = gravity(g)
        # a[k, j]: lever of segment j's direction in segment k's COM position.
        a = np.tril(np.broadcast_to(lengths, (n, n)), k=-1) + np.diag(com)
        self._a = a
        self._B = np.einsum("k,ki,kj->ij", masses, a, a)
        self._s = masses @ a
        self._T = np.tril(np.ones((n, n)))
        self._gs = self._g * self._s  # g s_i [N m]
        self._inertia_diag = np.diag(inertias)

    @classmethod
    def from_segments(cls, segments: Sequence[Any], *, g: float = 9.81) -> PlanarChain:
        """Build a chain from segment descriptions, base segment first.

        Parameters
        ----------
        segments : sequence of bmc.anthropometry.Segment
            Or any objects with ``length`` [m], ``com`` (joint-to-centre-of-mass distance)
            [m], ``mass`` [kg] and ``inertia`` (about the centre of mass) [kg m^2].
        g : float, optional
            Gravitational acceleration [m/s^2] along -y (keyword-only, default 9.81).

        Returns
        -------
        PlanarChain

        Examples
        --------
        >>> from bmc import anthropometry as am
        >>> arm = PlanarChain.from_segments(
        ...     [am.segment("upper_arm", body_mass=70, height=1.75),
        ...      am.segment("forearm", body_mass=70, height=1.75)])
        >>> arm.n, bool(np.all(arm.com < arm.lengths))
        (2, True)
        """
        if isinstance(segments, (str, bytes)) or not hasattr(segments, "__iter__"):
            raise TypeError("segments must be a sequence of segments with length, com, mass "
                            "and inertia (e.g. bmc.anthropometry.Segment), base first; got "
                            f"{type(segments).__name__}")
        segments = list(segments)
        try:
            params = [[float(getattr(s, f)) for s in segments]
                      for f in ("length", "com", "mass", "inertia")]
        except AttributeError as exc:
            raise TypeError("segments must have length, com, mass and inertia attributes "
                            f"(e.g. bmc.anthropometry.Segment): {exc}") from None
        return cls(*params, g=g)

    # ------------------------------------------------------------------ parameters
    @property
    def n(self) -> int:
        """Number of links."""
        return self._lengths.size

    @property
    def lengths(self) -> np.ndarray:
        """Link lengths [m], shape (n,)."""
        return self._lengths.copy()

    @property
    def com(self) -> np.ndarray:
        """Joint-to-centre-of-mass distances [m], shape (n,)."""
        return self._com.copy()

    @property
    def masses(self) -> np.ndarray:
        """Link masses [kg], shape (n,)."""
        return self._masses.copy()

    @property
    def inertias(self) -> np.ndarray:
        """Moments of inertia about the centres of mass [kg m^2], shape (n,)."""
        return self._inertias.copy()

    @property
    def levers(self) -> np.ndarray:
        """Lever matrix ``a`` [m], shape (n, n): ``r_k = sum_j a_kj (cos phi_j, sin phi_j)``.

        ``a_kj = l_j`` for ``j < k``, ``a_kk = c_k``, 0 above the diagonal (a copy); the
        ``levers`` argument of :func:`bmc.kinematics.lever_kinematics` for the centres of
        mass.
        """
        return self._a.copy()

    @property
    def g(self) -> float:
        """Gravitational acceleration [m/s^2] (acting along -y)."""
        return self._g

    def __repr__(self) -> str:
        return (
            f"PlanarChain(lengths={self._lengths.tolist()}, com={self._com.tolist()}, "
            f"masses={self._masses.tolist()}, inertias={self._inertias.tolist()}, "
            f"g={self._g})"
        )

    # ------------------------------------------------------------------ helpers
    def _coords(self, value: ArrayLike, name: str, unit: str) -> np.ndarray:
        return as_array(value, name, unit=unit, last=self.n)

    def _force(self, F: ArrayLike | None) -> np.ndarray | None:
        if F is None:
            return None
        return as_array(F, "F", unit="N", last=2)

    def _tt(self, x: np.ndarray) -> np.ndarray:
        """Return ``T^T x`` along the last axis (reverse cumulative sum)."""
        return np.cumsum(x[..., ::-1], axis=-1)[..., ::-1]

    # The equations in segment angles phi (joint coordinates: q = T^-1 phi), each written
    # once here, for the public methods and for frame_accelerations; M = T^T M_abs T etc.
    def _mass_abs(self, phi: np.ndarray) -> np.ndarray:
        """``M_abs = B_ij cos(phi_i - phi_j) + diag(I)``, shape (..., n, n)."""
        return self._B * np.cos(phi[..., :, None] - phi[..., None, :]) + self._inertia_diag

    def _velocity_abs(self, phi: np.ndarray, phid: np.ndarray) -> np.ndarray:
        """``c_abs = sum_j B_ij sin(phi_i - phi_j) phid_j^2``, shape (..., n)."""
        coupling = self._B * np.sin(phi[..., :, None] - phi[..., None, :])
        return (coupling @ (phid**2)[..., None])[..., 0]

    def _gravity_abs(self, phi: np.ndarray) -> np.ndarray:
        """``g_abs = g s_i cos(phi_i)`` with ``s_i = sum_k m_k a_ki``, shape (..., n)."""
        return self._gs * np.cos(phi)

    # ------------------------------------------------------------------ coordinates
    def to_segment_angles(self, q: ArrayLike) -> np.ndarray:
        """Convert joint coordinates to segment (absolute) angles, ``phi = T q``.

        The map is linear, so it converts velocities and accelerations too.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint angles [rad] (or their rates, [rad/s], [rad/s^2]).

        Returns
        -------
        numpy.ndarray, shape (..., n)
            Segment angles from +x, counter-clockwise [rad] (or rates).

        Examples
        --------
        >>> arm = PlanarChain([0.3, 0.3], [0.15, 0.15], [2.0, 1.5], [0.02, 0.01])
        >>> print(arm.to_segment_angles([0.5, 1.0]))
        [0.5 1.5]
        """
        return np.cumsum(self._coords(q, "q", "rad"), axis=-1)

    def from_segment_angles(self, phi: ArrayLike) -> np.ndarray:
        """Convert segment (absolute) angles to joint coordinates, ``q = T^-1 phi``.

        Parameters
        ----------
        phi : array_like, shape (..., n)
            Segment angles from +x [rad] (or their rates).

        Returns
        -------
        numpy.ndarray, shape (..., n)
            Joint coordinates [rad] (or rates): ``phi[0]``, then ``phi[i] - phi[i-1]``.

        Examples
        --------
        >>> arm = PlanarChain([0.3, 0.3], [0.15, 0.15], [2.0, 1.5], [0.02, 0.01])
        >>> print(arm.from_segment_angles([0.5, 1.5]))
        [0.5 1. ]
        """
        phi = self._coords(phi, "phi", "rad")
        return np.diff(phi, axis=-1, prepend=0.0)

    # ------------------------------------------------------------------ kinematics
    def joint_positions(self, q: ArrayLike) -> np.ndarray:
        """Positions of the base joint, the other joints and the endpoint.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].

        Returns
        -------
        numpy.ndarray, shape (..., n + 1, 2)
            ``(x, y)`` [m]; row 0 is the base (the origin), row ``n`` the endpoint.
        """
        return forward_kinematics(self._lengths, q, joints=True)

    def com_positions(self, q: ArrayLike) -> np.ndarray:
        """Positions of the links' centres of mass.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].

        Returns
        -------
        numpy.ndarray, shape (..., n, 2)
            ``(x, y)`` of each centre of mass [m].
        """
        phi = self.to_segment_angles(q)
        u = np.stack([np.cos(phi), np.sin(phi)], axis=-1)  # (..., n, 2) unit vectors
        return lever_kinematics(self._a, u)[0]

    def endpoint(self, q: ArrayLike) -> np.ndarray:
        """Position of the chain's endpoint [m], shape ``(..., 2)``, for joint angles ``q``."""
        return self.joint_positions(q)[..., -1, :]

    def jacobian(self, q: ArrayLike) -> np.ndarray:
        """Endpoint Jacobian in joint coordinates, ``d(endpoint)/dq``.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].

        Returns
        -------
        numpy.ndarray, shape (..., 2, n)
            [m/rad]; endpoint velocity is ``J @ qd``.
        """
        return jacobian(self._lengths, q)

    # ------------------------------------------------------------------ dynamics
    def mass_matrix(self, q: ArrayLike) -> np.ndarray:
        """Mass (inertia) matrix ``M(q)`` in joint coordinates.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].

        Returns
        -------
        numpy.ndarray, shape (..., n, n)
            Symmetric positive-definite ``M`` [kg m^2].

        Examples
        --------
        >>> rod = PlanarChain([1.0], [0.5], [3.0], [0.25])
        >>> print(np.round(rod.mass_matrix([0.3]), 6))   # I + m c^2
        [[1.]]
        """
        m_abs = self._mass_abs(self.to_segment_angles(q))
        # T^T M_abs T: reverse cumulative sums over rows, then over columns.
        m_rows = np.cumsum(m_abs[..., ::-1, :], axis=-2)[..., ::-1, :]
        return np.cumsum(m_rows[..., :, ::-1], axis=-1)[..., :, ::-1]

    def velocity_terms(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Centripetal and Coriolis terms ``C(q, qd)`` in joint coordinates.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].
        qd : array_like, shape (..., n)
            Joint angular velocities [rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., n)
            ``C`` [N m].
        """
        q = self._coords(q, "q", "rad")
        qd = self._coords(qd, "qd", "rad/s")
        frames(("q", q, 1), ("qd", qd, 1))
        return self._tt(self._velocity_abs(np.cumsum(q, axis=-1), np.cumsum(qd, axis=-1)))

    def bias_forces(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Velocity and gravity terms ``h = C + G``, so that ``M qdd + h = tau`` (no ``F``).

        The same meaning as :meth:`bmc.models.standing.FourSegmentModel.bias_forces` and
        :meth:`bmc.tree.PlanarTree.bias_forces`.

        Parameters
        ----------
        q, qd : array_like, shape (..., n)
            Joint coordinates [rad] and angular velocities [rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., n)
            ``C + G`` [N m].
        """
        return self.velocity_terms(q, qd) + self.gravity_terms(q)

    def gravity_terms(self, q: ArrayLike) -> np.ndarray:
        """Gravity terms ``G(q)`` in joint coordinates.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].

        Returns
        -------
        numpy.ndarray, shape (..., n)
            ``G`` [N m]: the joint torques that hold the chain still at ``q``.
        """
        return self._tt(self._gravity_abs(self.to_segment_angles(q)))

    def external_terms(self, q: ArrayLike, F: ArrayLike) -> np.ndarray:
        """Terms ``E = -J(q)^T F`` of a force applied to the endpoint.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint coordinates [rad].
        F : array_like, shape (..., 2)
            Force exerted *on* the endpoint by the environment [N].

        Returns
        -------
        numpy.ndarray, shape (..., n)
            ``E`` [N m].
        """
        q = self._coords(q, "q", "rad")
        F = as_array(F, "F", unit="N", last=2)
        frames(("q", q, 1), ("F", F, 1))
        return -np.einsum("...dn,...d->...n", self.jacobian(q), F)

    def inverse_dynamics(
        self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, F: ArrayLike | None = None
    ) -> np.ndarray:
        """Joint torques ``tau = M qdd + C + G + E`` that produce a given motion.

        Parameters
        ----------
        q, qd, qdd : array_like, shape (..., n)
            Joint angles [rad], angular velocities [rad/s], accelerations [rad/s^2].
        F : array_like, shape (..., 2), optional
            Force on the endpoint [N]; none by default.

        Returns
        -------
        numpy.ndarray, shape (..., n)
            Joint torques [N m].
        """
        q = self._coords(q, "q", "rad")
        qd = self._coords(qd, "qd", "rad/s")
        qdd = self._coords(qdd, "qdd", "rad/s^2")
        F = self._force(F)
        named = [("q", q, 1), ("qd", qd, 1), ("qdd", qdd, 1)]
        if F is not None:
            named.append(("F", F, 1))
        frames(*named)
        q, qd, qdd = np.broadcast_arrays(q, qd, qdd)
        n = self.n
        tau = _torques(
            self._B, self._gs, np.diag(self._B) + self._inertias,
            q.reshape(-1, n), qd.reshape(-1, n), qdd.reshape(-1, n),
        ).reshape(q.shape)
        if F is not None:
            tau = tau + self.external_terms(q, F)
        return tau

    def forward_dynamics(
        self, q: ArrayLike, qd: ArrayLike, tau: ArrayLike, F: ArrayLike | None = None
    ) -> np.ndarray:
        """Joint accelerations ``qdd = M^-1 (tau - C - G - E)`` under given torques.

        Parameters
        ----------
        q, qd : array_like, shape (..., n)
            Joint angles [rad] and angular velocities [rad/s].
        tau : array_like, shape (..., n)
            Joint torques [N m].
        F : array_like, shape (..., 2), optional
            Force on the endpoint [N]; none by default.

        Returns
        -------
        numpy.ndarray, shape (..., n)
            Joint angular accelerations [rad/s^2].

        Examples
        --------
        A horizontal uniform rod released from rest: ``qdd = -m g c / (I + m c^2)``.

        >>> rod = PlanarChain([1.0], [0.5], [2.0], [2.0 / 12], g=9.81)
        >>> print(np.round(rod.forward_dynamics([0.0], [0.0], [0.0]), 4))
        [-14.715]
        """
        q = self._coords(q, "q", "rad")
        qd = self._coords(qd, "qd", "rad/s")
        tau = self._coords(tau, "tau", "N m")
        F = self._force(F)
        named = [("q", q, 1), ("qd", qd, 1), ("tau", tau, 1)]
        if F is not None:
            named.append(("F", F, 1))
        frames(*named)
        rhs = tau - self.velocity_terms(q, qd) - self.gravity_terms(q)
        if F is not None:
            rhs = rhs - self.external_terms(q, F)
        m = self.mass_matrix(q)
        rhs = np.broadcast_to(rhs, np.broadcast_shapes(rhs.shape, m.shape[:-1]))
        m = np.broadcast_to(m, rhs.shape + (self.n,))
        return np.linalg.solve(m, rhs[..., None])[..., 0]

    def frame_accelerations(self, q: np.ndarray, qd: np.ndarray, tau: np.ndarray,
                            F: np.ndarray | None = None) -> tuple[np.ndarray, float]:
        """Forward dynamics of ONE frame without argument checks, for integrators.

        The same equations as :meth:`forward_dynamics`, without checks or broadcasting: the
        right-hand side of a simulation (:func:`bmc.simulate.simulate_chain`) calls it
        thousands of times, with inputs it has checked once.

        Parameters
        ----------
        q, qd, tau : numpy.ndarray, shape (n,)
            Joint angles [rad], angular velocities [rad/s] and torques [N m] (float arrays).
        F : numpy.ndarray, shape (2,), optional
            Force on the endpoint [N].

        Returns
        -------
        qdd : numpy.ndarray, shape (n,)
            Joint angular accelerations [rad/s^2].
        power : float
            Power of the endpoint force, ``qd . J^T F`` [W] (0 without ``F``).
        """
        phi = np.cumsum(q)
        tt = self._T
        m = tt.T @ self._mass_abs(phi) @ tt
        rhs = tau - tt.T @ (self._velocity_abs(phi, np.cumsum(qd)) + self._gravity_abs(phi))
        power = 0.0
        if F is not None:
            generalised = jacobian(self._lengths, q).T @ F  # J^T F, (n,)
            rhs = rhs + generalised
            power = float(qd @ generalised)
        return np.linalg.solve(m, rhs), power

    def energy(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Total mechanical energy, kinetic plus gravitational potential.

        Parameters
        ----------
        q : array_like, shape (..., n)
            Joint angles [rad].
        qd : array_like, shape (..., n)
            Joint angular velocities [rad/s].

        Returns
        -------
        numpy.ndarray, shape (...)
            Energy [J]; the potential energy is zero at y = 0 (the base joint's height).
        """
        q = self._coords(q, "q", "rad")
        qd = self._coords(qd, "qd", "rad/s")
        frames(("q", q, 1), ("qd", qd, 1))
        kinetic = 0.5 * np.einsum("...i,...ij,...j->...", qd, self.mass_matrix(q), qd)
        heights = self.com_positions(q)[..., 1]
        potential = self._g * np.einsum("k,...k->...", self._masses, heights)
        return kinetic + potential

    # ------------------------------------------------------------------ held loads
    def with_point_mass(
        self, mass: float, *, segment: int = -1, distance: float | None = None
    ) -> PlanarChain:
        """Return a new chain with a point mass (a held load) fixed on one segment.

        A load held in the hand is a mass, not only a weight: accelerating it needs a force
        ``m_L a`` as well as ``m_L g``. The point mass is merged into the segment exactly:
        the new segment mass is ``m + m_L``, its centre of mass the mass-weighted mean
        ``c' = (m c + m_L d) / (m + m_L)``, and its moment of inertia about the new centre
        of mass follows from the parallel-axis theorem,
        ``I' = I + m (c - c')^2 + m_L (d - c')^2`` (a point mass has no inertia of its
        own about its centre). Every method of the returned chain (``M``, ``C``, ``G``,
        inverse and forward dynamics, energy) then includes the load's weight *and*
        inertia.

        Parameters
        ----------
        mass : float
            Mass of the load, ``m_L`` [kg], > 0.
        segment : int, optional
            Index of the segment that carries the load (Python indexing; default ``-1``,
            the last, distal segment: the hand).
        distance : float, optional
            Position of the load along that segment, from its proximal joint [m],
            ``0 <= distance <= length``. Default: the segment's length, its distal end.

        Returns
        -------
        PlanarChain
            A new chain with the combined segment; this chain is unchanged.

        Notes
        -----
        For a load at the endpoint this is the same as applying the endpoint force
        ``F = -m_L (a_end + g e_y)`` (its inertial force plus its weight) to the unloaded
        chain; the course's tests check both forms against each other and against the closed
        form of one link.

        Examples
        --------
        A 2 kg load at the tip of a 0.43 m forearm held horizontal adds ``m_L g L``:

        >>> forearm = PlanarChain([0.43], [0.17], [1.54], [0.024])
        >>> loaded = forearm.with_point_mass(2.0)
        >>> extra = loaded.gravity_terms([0.0]) - forearm.gravity_terms([0.0])
        >>> print(np.round(extra, 4))   # 2 kg x 9.81 m/s^2 x 0.43 m
        [8.4366]
        """
        m_load = positive(mass, "mass", unit="kg")
        n = self.n
        if not isinstance(segment, (int, np.integer)) or not -n <= segment < n:
            raise ValueError(
                f"segment must be an integer index of one of the chain's {n} segment(s) "
                f"(0 to {n - 1}, or negative from the end); got {segment!r}"
            )
        k = int(segment) % n
        length = float(self._lengths[k])
        d = length if distance is None else float(as_array(distance, "distance", unit="m"))
        if not 0.0 <= d <= length:
            raise ValueError(
                f"distance [m] is measured along segment {k} from its proximal joint and must "
                f"lie on the segment, 0 <= distance <= {length:.6g} m; got {d:.6g} m"
            )
        m, c, inertia = self._masses[k], self._com[k], self._inertias[k]
        total = m + m_load
        c_new = (m * c + m_load * d) / total
        i_new = inertia + m * (c - c_new) ** 2 + m_load * (d - c_new) ** 2
        masses, com, inertias = self.masses, self.com, self.inertias
        masses[k], com[k], inertias[k] = total, c_new, i_new
        return PlanarChain(self._lengths, com, masses, inertias, g=self._g)
