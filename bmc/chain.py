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

A chain is a :class:`bmc.planar.PlanarModel` with one branch and a fixed base: the
kinematics, ``M``, ``C``, ``G`` and the blocked inverse-dynamics kernel are the model's
(written once, for every planar model); this class holds the chain's parameters, the
meaning of its joint coordinates and its conveniences (``E``, the endpoint, held loads).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, plausible, positive
from bmc.constants import G
from bmc.planar import PlanarModel

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


class PlanarChain(PlanarModel):
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
        horizontal plane. Default :data:`bmc.constants.G` (9.81).

    Notes
    -----
    The coordinate convention and the equations are in the module docstring. ``E`` is the
    contribution of a force ``F`` [N] applied *to* the endpoint by the environment:
    ``M qdd + C + G + E = tau`` with ``E = -J^T F``; :meth:`inverse_dynamics` and
    :meth:`forward_dynamics` take it as ``contact_force`` (at the endpoint unless
    ``contact_point`` says otherwise).

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
        g: float = G,
    ) -> None:
        lengths = _params(lengths, "lengths", "m")
        com = _params(com, "com", "m")
        masses = _params(masses, "masses", "kg")
        inertias = _params(inertias, "inertias", "kg m^2")
        n = lengths.size
        for name, arr in (("com", com), ("masses", masses), ("inertias", inertias)):
            if arr.size != n:
                raise ValueError(
                    f"{name} must have one value per link: lengths has {n} value(s); got "
                    f"{arr.size} in {name}"
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
        # a tree with one branch: link i hangs from the end of link i - 1, and its angle is
        # the sum of the joint angles up to it (phi = T q)
        super().__init__(list(range(-1, n - 1)), np.concatenate([[0.0], lengths[:-1]]),
                         lengths, com, masses, inertias, angle_map=np.tril(np.ones((n, n))),
                         g=g)

    @classmethod
    def from_segments(cls, segments: Sequence[Any], *, g: float = G) -> PlanarChain:
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
        if not segments:
            raise ValueError("segments must list at least one segment (base first, e.g. "
                             "bmc.anthropometry.segment('thigh', ...)); got an empty sequence")
        try:
            lengths, com, masses, inertias = ([float(getattr(s, f)) for s in segments]
                                              for f in ("length", "com", "mass", "inertia"))
        except AttributeError as exc:
            raise TypeError("segments must have length, com, mass and inertia attributes "
                            f"(e.g. bmc.anthropometry.Segment); got {exc}") from None
        return cls(lengths, com, masses, inertias, g=g)

    # ------------------------------------------------------------------ parameters
    @property
    def levers(self) -> np.ndarray:
        """Lever matrix ``a`` [m], shape (n, n): ``r_k = sum_j a_kj (cos phi_j, sin phi_j)``.

        ``a_kj = l_j`` for ``j < k``, ``a_kk = c_k``, 0 above the diagonal (a copy); the
        ``levers`` argument of :func:`bmc.kinematics.lever_kinematics` for the centres of
        mass (the model's :attr:`com_lever`).
        """
        return self.com_lever.copy()

    def __repr__(self) -> str:
        return (
            f"PlanarChain(lengths={self.lengths.tolist()}, com={self.com.tolist()}, "
            f"masses={self.masses.tolist()}, inertias={self.inertias.tolist()}, "
            f"g={self.g})"
        )

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
        return self.segment_angles(q)

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
        phi = as_array(phi, "phi", unit="rad", last=self.n)
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
        ends = self.distal_positions(q)
        return np.concatenate([np.zeros(ends.shape[:-2] + (1, 2)), ends], axis=-2)

    def endpoint(self, q: ArrayLike) -> np.ndarray:
        """Position of the chain's endpoint [m], shape ``(..., 2)``, for joint angles ``q``."""
        return self.point(q, self.n - 1, float(self.lengths[-1]))

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
        return self.point_jacobian(q, self.n - 1, float(self.lengths[-1]))

    # ------------------------------------------------------------------ dynamics
    def external_terms(self, q: ArrayLike, F: ArrayLike) -> np.ndarray:  # noqa: N803
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
        (qq,) = self.check_state(q=q)
        force = as_array(F, "F", unit="N", last=2)
        frames(("q", qq, 1), ("F", force, 1))
        return -self.kernel.load_forces(qq, self._tip, self.n - 1, force, 0.0)

    def frame_accelerations(self, q: np.ndarray, qd: np.ndarray, tau: np.ndarray,
                            F: np.ndarray | None = None  # noqa: N803
                            ) -> tuple[np.ndarray, float]:
        """Forward dynamics of ONE frame without argument checks, for integrators.

        The same equations as :meth:`forward_dynamics`, without checks or broadcasting: the
        right-hand side of a simulation (:func:`bmc.simulate.simulate_chain`) calls it
        thousands of times, with inputs it has checked once. A non-finite result is never
        returned: the inputs are then checked, and the one at fault is named.

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
        try:
            # NaN or inf in an input: no NumPy warning on the way, the result's check below
            # names the input at fault (errstate costs about 1 us, the call about 50 us)
            with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                return self._frame_accelerations(q, qd, tau, F)
        except (TypeError, ValueError, ArithmeticError):
            # the checks skipped on the hot path, paid only when it fails: name the input
            for name, value, unit in (("q", q, "rad"), ("qd", qd, "rad/s"), ("tau", tau, "N m"),
                                      ("F", F, "N")):
                if value is not None:
                    arr = as_array(value, name, unit=unit)
                    want = (2,) if name == "F" else (self.n,)
                    if arr.shape != want:
                        raise ValueError(f"{name} [{unit}] must be one frame, shape {want}; "
                                         f"got shape {arr.shape}") from None
            raise

    def _frame_accelerations(self, q: np.ndarray, qd: np.ndarray, tau: np.ndarray,
                             F: np.ndarray | None) -> tuple[np.ndarray, float]:  # noqa: N803
        kernel = self.kernel
        rhs = tau - kernel.bias(q, qd)
        power = 0.0
        if F is not None:
            generalised = kernel.load_forces(q, self._tip, self.n - 1, F, 0.0)  # J^T F
            rhs = rhs + generalised
            power = float(qd @ generalised)
        qdd = np.linalg.solve(kernel.mass_matrix(q), rhs)
        if not (np.isfinite(qdd).all() and np.isfinite(power)):
            # the checks skipped on the hot path, paid only when the result is unusable
            for name, value, unit in (("q", q, "rad"), ("qd", qd, "rad/s"), ("tau", tau, "N m"),
                                      ("F", F, "N")):
                if value is not None:
                    as_array(value, name, unit=unit)
            raise ValueError("q, qd and tau must give finite accelerations; got "
                             f"{qdd.tolist()} from finite inputs (a torque too large?)")
        return qdd, power

    @property
    def _tip(self) -> np.ndarray:
        return self.kernel.lever_row(self.n - 1, float(self.lengths[-1]))

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
        length = float(self.lengths[k])
        d = length if distance is None else float(as_array(distance, "distance", unit="m"))
        if not 0.0 <= d <= length:
            raise ValueError(
                f"distance [m] is measured along segment {k} from its proximal joint and must "
                f"lie on the segment, 0 <= distance <= {length:.6g} m; got {d:.6g} m"
            )
        m, c, inertia = self.masses[k], self.com[k], self.inertias[k]
        total = m + m_load
        c_new = (m * c + m_load * d) / total
        i_new = inertia + m * (c - c_new) ** 2 + m_load * (d - c_new) ** 2
        masses, com, inertias = self.masses.copy(), self.com.copy(), self.inertias.copy()
        masses[k], com[k], inertias[k] = total, c_new, i_new
        return PlanarChain(self.lengths, com, masses, inertias, g=self.g)
