r"""A planar tree of rigid segments on a floating base, in augmented joint coordinates.

:class:`PlanarTree` is the core model that :mod:`bmc.reactions` (joint reactions by the
augmented joint coordinate method of Blajer and Czaplicki 2005) works on. It is described in
three sets of coordinates:

- **absolute coordinates** ``p = [x_1, y_1, theta_1, ..., x_n, y_n, theta_n]`` (length
  ``3n``): the centre of mass (COM) and the orientation of every segment;
- **generalised (joint) coordinates** ``q = [x_B, y_B, phi_1, ..., phi_n]`` (length
  ``k = n + 2``): a base point (the proximal end of the root segment) and the absolute angle
  of every segment;
- **open-constraint coordinates** ``z`` (length ``m = 2(n - 1)``): the relative translations
  that the pin joints prohibit, two per joint (x, y), zero for a real motion.

The augmented map ``p = g(q, z)`` gives ``D = dg/dq`` and ``E = dg/dz`` at ``z = 0``, and
``pddot = D qddot + gamma`` with ``gamma = Ddot qdot``.

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive; **axis 0 is time** (every method takes one frame or ``N``).
Segment ``i`` has a unit axis ``e_i = s_i (-sin phi_i, cos phi_i)`` pointing from its
proximal joint to its distal end, with ``s_i = +1`` for segments that point up at
``phi_i = 0`` (trunk, head) and ``-1`` for segments that hang down (limbs).

The positions of the tree's points are sums of rotating vectors, ``r_i = r_B + sum_k L_ik
e_k``; the lever matrices ``L`` (:attr:`PlanarTree.lever`, :attr:`PlanarTree.com_lever`) and
the joint paths (:attr:`PlanarTree.path`) are public so that models built on the tree (for
example :mod:`bmc.models.somersault`) use them instead of rebuilding them; their velocities
and accelerations come from :func:`bmc.kinematics.lever_kinematics`, the one copy of planar
chain kinematics.

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, gravity, integer, number
from bmc.kinematics import cross2, lever_kinematics, perp

__all__ = ["G", "InverseDynamics", "PlanarTree"]

G = 9.81  # acceleration of free fall used by the models here [m/s^2]


def __dir__() -> list[str]:
    return sorted(__all__)


@dataclass(frozen=True)
class InverseDynamics:
    """What inverse dynamics of a tree with one contact returns.

    See :meth:`PlanarTree.contact_inverse_dynamics` (and
    :func:`bmc.reactions.contact_inverse_dynamics`, which takes a trial too).

    Attributes
    ----------
    contact_force : numpy.ndarray, shape (..., 2)
        Contact force [N] (computed, or the one given).
    contact_moment : numpy.ndarray, shape (...,)
        Free contact moment on the contact segment [N m] (computed, or the one given).
    torques : numpy.ndarray, shape (..., n - 1)
        Joint torques on the child segments [N m], counter-clockwise positive. For
        :func:`bmc.models.human.human_model` (facing +x) positive means hip flexor, knee
        extensor, ankle dorsiflexor.
    residual : numpy.ndarray, shape (..., 3)
        Left-over of the three whole-body equations, x and y force [N] and moment [N m];
        zero for dynamically consistent data (and for whatever was computed).
    """

    contact_force: np.ndarray
    contact_moment: np.ndarray
    torques: np.ndarray
    residual: np.ndarray


@dataclass(frozen=True, eq=False)
class PlanarTree:
    """A planar tree of rigid segments joined by pin joints (floating base).

    Segment 0 is the root; its proximal end is the base point ``(q[0], q[1])``. Every other
    segment ``i`` hangs from its parent at a pin joint, its *proximal joint*, which is joint
    ``i - 1`` (so joint ``j`` links segment ``j + 1`` to its parent).

    Parameters
    ----------
    names : sequence of str
        Segment names, root first.
    parent : sequence of int
        Parent index of each segment (``-1`` for the root); parents come before children.
    attach : array_like, shape (n,)
        Distance along the parent's axis from the parent's proximal end to this segment's
        proximal joint [m] (ignored for the root).
    direction : array_like, shape (n,)
        ``+1`` if the segment's axis points up at zero angle, ``-1`` if it hangs down.
    lengths : array_like, shape (n,)
        Segment lengths from the proximal joint to the distal end [m] (drawing only).
    com : array_like, shape (n,)
        Distance of the COM from the proximal joint along the axis [m].
    masses : array_like, shape (n,)
        Segment masses [kg].
    inertias : array_like, shape (n,)
        Moments of inertia about each COM, z axis [kg m^2].
    g : float, optional
        Acceleration of free fall [m/s^2] (keyword-only, default 9.81).
    joint_names : sequence of str, optional
        Names of the ``n - 1`` joints (default ``"joint1"``, ...).

    Attributes
    ----------
    lever : numpy.ndarray, shape (n, n)
        ``L[i, k]`` [m]: distance along the axis ``e_k`` of ancestor ``k`` from its proximal
        end to the next joint on the path from the base to segment ``i``, so that segment
        ``i``'s proximal joint is ``r_B + sum_k L[i, k] e_k`` (read-only).
    com_lever : numpy.ndarray, shape (n, n)
        ``lever + diag(com)`` [m]: the same for the centres of mass (read-only).
    path : numpy.ndarray, shape (n, n - 1)
        ``path[i, j] = 1`` if joint ``j`` lies on the path from the base to segment ``i``,
        else 0 (read-only); the translation pattern of ``E`` (eq. 3.2).
    torque_map : numpy.ndarray, shape (n, n - 1)
        Moment [N m] of a unit torque at each joint on each segment: ``+1`` on the child,
        ``-1`` on the parent (read-only).

    Examples
    --------
    A double pendulum hanging from a floating base (two rods of 1 m, 1 kg):

    >>> tree = PlanarTree(["upper", "lower"], [-1, 0], [0, 1.0], [-1, -1], [1.0, 1.0],
    ...                   [0.5, 0.5], [1.0, 1.0], [1 / 12, 1 / 12])
    >>> tree.n, tree.k, tree.m
    (2, 4, 2)
    >>> np.round(tree.absolute_coordinates([0, 0, 0, np.pi / 2]), 3)
    array([ 0.   , -0.5  ,  0.   ,  0.5  , -1.   ,  1.571])
    """

    names: tuple[str, ...]
    parent: tuple[int, ...]
    attach: np.ndarray
    direction: np.ndarray
    lengths: np.ndarray
    com: np.ndarray
    masses: np.ndarray
    inertias: np.ndarray
    g: float = G
    joint_names: tuple[str, ...] = ()
    lever: np.ndarray = field(init=False, repr=False)
    com_lever: np.ndarray = field(init=False, repr=False)
    path: np.ndarray = field(init=False, repr=False)
    torque_map: np.ndarray = field(init=False, repr=False)

    def __init__(self, names: Sequence[str], parent: Sequence[int], attach: ArrayLike,
                 direction: ArrayLike, lengths: ArrayLike, com: ArrayLike,
                 masses: ArrayLike, inertias: ArrayLike, *, g: float = G,
                 joint_names: Sequence[str] | None = None) -> None:
        if isinstance(names, str) or not hasattr(names, "__iter__") or not all(
                isinstance(s, str) for s in names):
            raise TypeError(f"names must be a sequence of segment names (str); got {names!r}")
        names = tuple(str(s) for s in names)
        n = len(names)
        if n < 1:
            raise ValueError("names must list at least one segment")
        if isinstance(parent, str) or not hasattr(parent, "__iter__"):
            raise TypeError(f"parent must be a sequence of segment indices (int); got "
                            f"{parent!r}")
        parent = tuple(integer(p, "parent", minimum=-1, what="index of the parent segment")
                       for p in parent)
        if len(parent) != n or parent[0] != -1 or any(
                not 0 <= p < i for i, p in enumerate(parent) if i > 0):
            raise ValueError(
                "parent must give, for each of the n segments, the index of an earlier "
                f"segment (-1 for the root, which comes first); got {parent} for {n} names")
        arrays = {}
        for label, value, unit in (("attach", attach, "m"), ("direction", direction, ""),
                                   ("lengths", lengths, "m"), ("com", com, "m"),
                                   ("masses", masses, "kg"), ("inertias", inertias, "kg m^2")):
            arr = as_array(value, label, unit=unit, ndim=1)
            if arr.shape != (n,):
                raise ValueError(f"{label} must have shape ({n},), one value per segment; "
                                 f"got shape {arr.shape}")
            arr.setflags(write=False)
            arrays[label] = arr
        if not np.all(np.isin(arrays["direction"], (-1.0, 1.0))):
            raise ValueError(f"direction must be +1 or -1 per segment; got {direction!r}")
        for label, unit in (("masses", "kg"), ("inertias", "kg m^2"), ("lengths", "m")):
            if np.any(arrays[label] <= 0):
                raise ValueError(f"{label} [{unit}] must all be > 0, one value per segment; "
                                 f"got {arrays[label].tolist()}")
        outside = (arrays["com"] < 0) | (arrays["com"] > arrays["lengths"])
        if np.any(outside):
            i = int(np.argmax(outside))
            raise ValueError(
                f"com [m] is the distance from each segment's proximal end to its centre of mass "
                f"and must lie within the segment, 0 <= com <= length; got com "
                f"{arrays['com'][i]:g} m for the {arrays['lengths'][i]:g} m {names[i]}: check the "
                "unit (a fraction such as 0.43 must be multiplied by the length first)")
        if joint_names is None:
            joint_names = [f"joint{j + 1}" for j in range(n - 1)]
        joint_names = tuple(str(s) for s in joint_names)
        if len(joint_names) != n - 1:
            raise ValueError(f"joint_names must name the {n - 1} joints; got {joint_names}")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "parent", parent)
        for label, arr in arrays.items():
            object.__setattr__(self, label, arr)
        object.__setattr__(self, "g", gravity(g))
        object.__setattr__(self, "joint_names", joint_names)
        # A[i, k]: distance along e_k from the proximal end of ancestor k to the next joint on
        # the path to segment i; S[i, j] = 1 if joint j lies on the path from the base to i.
        a = np.zeros((n, n))
        s = np.zeros((n, max(n - 1, 0)))
        for i in range(n):
            child, k = i, parent[i]
            while k >= 0:
                a[i, k] = arrays["attach"][child]
                s[i, child - 1] = 1.0
                child, k = k, parent[k]
        tmap = np.zeros((n, max(n - 1, 0)))  # moment of each joint torque on each segment
        tmap[np.arange(1, n), np.arange(n - 1)] = 1.0
        tmap[np.asarray(parent[1:], dtype=int), np.arange(n - 1)] -= 1.0
        for label, arr in (("lever", a), ("com_lever", a + np.diag(arrays["com"])), ("path", s),
                           ("torque_map", tmap)):
            arr.setflags(write=False)
            object.__setattr__(self, label, arr)

    # ----------------------------------------------------------------- sizes and lookup
    @property
    def n(self) -> int:
        """Number of segments."""
        return len(self.names)

    @property
    def k(self) -> int:
        """Number of generalised coordinates, ``n + 2``."""
        return self.n + 2

    @property
    def m(self) -> int:
        """Number of open-constraint coordinates (joint constraints), ``2 (n - 1)``."""
        return 2 * (self.n - 1)

    @property
    def total_mass(self) -> float:
        """Total mass [kg]."""
        return float(self.masses.sum())

    @property
    def body_weight(self) -> float:
        """Total weight ``total_mass * g`` [N]."""
        return self.total_mass * self.g

    def segment_index(self, segment: int | str) -> int:
        """Return the index of a segment given by name or index."""
        if isinstance(segment, str):
            if segment not in self.names:
                raise ValueError(f"unknown segment {segment!r}; the segments are {self.names}")
            return self.names.index(segment)
        i = integer(segment, "segment", what="index or name of a segment")
        if not 0 <= i < self.n:
            raise ValueError(f"segment index must be in 0..{self.n - 1}; got {segment!r}")
        return i

    def joint_columns(self, joints: Sequence[int | str] | None) -> np.ndarray:
        """Return the indices into ``lambda`` (x, y per joint) of the selected joints."""
        if joints is None:
            return np.arange(self.m)
        idx = []
        for jnt in joints:
            if isinstance(jnt, str):
                if jnt not in self.joint_names:
                    raise ValueError(
                        f"unknown joint {jnt!r}; the joints are {self.joint_names}")
                j = self.joint_names.index(jnt)
            else:
                j = integer(jnt, "joints", what="index or name of a joint")
                if not 0 <= j < self.n - 1:
                    raise ValueError(f"joint index must be in 0..{self.n - 2}; got {jnt!r}")
            idx += [2 * j, 2 * j + 1]
        return np.asarray(idx, dtype=int)

    # ------------------------------------------------------------------ argument checks
    def check_contact_point(self, contact_point: tuple[int | str, float],
                            name: str = "contact_point") -> tuple[int, float]:
        """Return ``(segment index, distance [m])`` of a contact point, checked.

        The segment is a name or an index; the distance along its axis from its proximal
        joint must be a finite number of metres within the segment, ``0 <= d <= length``.
        """
        if isinstance(contact_point, (str, bytes)) or not hasattr(contact_point, "__len__") \
                or len(contact_point) != 2:
            raise TypeError(f"{name} must be a pair (segment name or index, distance [m]), "
                            f"e.g. ('foot', 0.1); got {contact_point!r}")
        segment, distance = contact_point
        try:
            i = self.segment_index(segment)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name}[0]: {exc}") from None
        d = number(distance, f"{name}[1]", unit="m")
        if not 0 <= d <= self.lengths[i]:
            raise ValueError(
                f"{name}[1] [m] is the distance of the contact point from the proximal joint "
                f"of {self.names[i]} and must lie on that segment, 0 to {self.lengths[i]:g} m; "
                f"got {d:g}: check the unit (cm for m?) and the segment")
        return i, d

    def check_vector(self, value: ArrayLike, name: str, size: int, unit: str) -> np.ndarray:
        """Return ``value`` as a float array whose last axis has ``size`` entries.

        Parameters
        ----------
        value : array_like, shape (size,) or (N, size)
            One frame or ``N`` frames (time on axis 0).
        name, unit : str
            For the error message.
        size : int
            Required length of the last axis.

        Raises
        ------
        ValueError
            If the last axis has another length.
        """
        arr = as_array(value, name, unit=unit)
        if arr.ndim == 0 or arr.shape[-1] != size:
            raise ValueError(
                f"{name} [{unit}] must have trailing size {size} (one frame) or shape "
                f"(N, {size}) (N frames, time on axis 0); got shape {arr.shape}")
        return arr

    def check_coordinates(self, q: ArrayLike, name: str = "q",
                          unit: str = "m, rad") -> np.ndarray:
        """Return ``q`` (or a derivative of it) checked to have ``k = n + 2`` entries per frame."""
        return self.check_vector(q, name, self.k, unit)

    # --------------------------------------------------------------------- kinematics
    def axes(self, phi: ArrayLike) -> np.ndarray:
        """Return the unit axis of every segment (proximal to distal), shape (..., n, 2)."""
        phi = np.asarray(phi, dtype=float)
        return self.direction[:, None] * np.stack([-np.sin(phi), np.cos(phi)], axis=-1)

    def joint_positions(self, q: ArrayLike) -> np.ndarray:
        """Proximal joint of every segment (the base for the root), shape (..., n, 2) [m]."""
        q = self.check_coordinates(q)
        return q[..., None, :2] + lever_kinematics(self.lever, self.axes(q[..., 2:]))[0]

    def distal_positions(self, q: ArrayLike) -> np.ndarray:
        """Distal end of every segment, shape (..., n, 2) [m]."""
        q = self.check_coordinates(q)
        return self.joint_positions(q) + self.lengths[:, None] * self.axes(q[..., 2:])

    def point(self, q: ArrayLike, segment: int | str, distance: float) -> np.ndarray:
        """Position of a point on a segment's axis, ``distance`` [m] from its proximal joint.

        Returns shape (..., 2) [m].
        """
        distance = number(distance, "distance", unit="m")
        q = self.check_coordinates(q)
        i = self.segment_index(segment)
        return self.joint_positions(q)[..., i, :] + distance * self.axes(q[..., 2:])[..., i, :]

    def kinematics(self, q: ArrayLike, qd: ArrayLike,
                   qdd: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """COM position, velocity and acceleration of every segment, directly from the tree.

        This is the textbook recursion (each COM is the base plus a sum of rotating
        vectors), written without ``D`` or ``gamma``, so it can check them.

        Returns
        -------
        r, v, a : numpy.ndarray, shape (..., n, 2)
            Position [m], velocity [m/s] and acceleration [m/s^2] of each COM.
        """
        q, qd = self.check_coordinates(q), self.check_coordinates(qd, "qd", "m/s, rad/s")
        qdd = self.check_coordinates(qdd, "qdd", "m/s^2, rad/s^2")
        frames(("q", q, 1), ("qd", qd, 1), ("qdd", qdd, 1))  # one frame goes with many
        r, v, a = lever_kinematics(self.com_lever, self.axes(q[..., 2:]), qd[..., 2:],
                                   qdd[..., 2:])
        r = q[..., None, :2] + r
        v = qd[..., None, :2] + v
        a = qdd[..., None, :2] + a
        return r, v, a

    # ------------------------------------------------------- augmented joint coordinates
    def absolute_coordinates(self, q: ArrayLike, z: ArrayLike | None = None) -> np.ndarray:
        """Evaluate the augmented map ``p = g(q, z)`` (eq. 2.3), shape (..., 3n).

        Parameters
        ----------
        q : array_like, shape (..., k)
            ``[x_B, y_B, phi_1..phi_n]`` [m, rad].
        z : array_like, shape (..., m), optional
            Open-constraint coordinates: relative translation [m] of the child at each joint
            (x, y per joint); zero (default) for a real motion.
        """
        q = self.check_coordinates(q)
        r = q[..., None, :2] + lever_kinematics(self.com_lever, self.axes(q[..., 2:]))[0]
        if z is not None:
            z = self.check_vector(z, "z", self.m, "m")
            frames(("q", q, 1), ("z", z, 1))
            zz = z.reshape(z.shape[:-1] + (self.n - 1, 2))
            r = r + np.einsum("ij,...jd->...id", self.path, zz)
        theta = np.broadcast_to(q[..., 2:], r.shape[:-1])
        return np.concatenate([r, theta[..., None]], axis=-1).reshape(r.shape[:-2] + (-1,))

    def jacobian_q(self, q: ArrayLike) -> np.ndarray:
        """``D = dg/dq`` at ``z = 0`` (eq. 2.4), shape (..., 3n, k)."""
        q = self.check_coordinates(q)
        n = self.n
        en = perp(self.axes(q[..., 2:]))
        d = np.zeros(q.shape[:-1] + (n, 3, self.k))
        d[..., :, 0, 0] = 1.0
        d[..., :, 1, 1] = 1.0
        d[..., :, :2, 2:] = np.einsum("ik,...kd->...idk", self.com_lever, en)
        d[..., np.arange(n), 2, 2 + np.arange(n)] = 1.0
        return d.reshape(q.shape[:-1] + (3 * n, self.k))

    def jacobian_z(self) -> np.ndarray:
        """``E = dg/dz`` (eq. 2.4), shape (3n, m); constant for this parametrisation.

        Column pair ``2j, 2j+1`` translates every segment on the distal side of joint ``j``
        in x and y: ones in their position rows, zeros elsewhere (the paper's eq. 3.2).
        """
        n = self.n
        e = np.zeros((n, 3, n - 1, 2))
        e[:, 0, :, 0] = self.path
        e[:, 1, :, 1] = self.path
        return e.reshape(3 * n, self.m)

    def gamma(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """``gamma = Ddot qdot`` (eq. 2.5): the segment accelerations at ``qdd = 0``.

        For each centre of mass ``-sum_k L_ik phidot_k^2 e_k`` (the centripetal terms of
        :func:`bmc.kinematics.lever_kinematics`, with zero angular accelerations); zero for
        the angles.

        Parameters
        ----------
        q, qd : array_like, shape (..., k)
            Generalised coordinates [m, rad] and velocities [m/s, rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., 3n)
            ``[ax_1, ay_1, 0, ..., ax_n, ay_n, 0]`` [m/s^2, rad/s^2].
        """
        q, qd = self.check_coordinates(q), self.check_coordinates(qd, "qd", "m/s, rad/s")
        frames(("q", q, 1), ("qd", qd, 1))  # one frame goes with many
        w = qd[..., 2:]
        acc = lever_kinematics(self.com_lever, self.axes(q[..., 2:]), w, np.zeros_like(w))[2]
        out = np.concatenate([acc, np.zeros(acc.shape[:-1] + (1,))], axis=-1)
        return out.reshape(acc.shape[:-2] + (3 * self.n,))

    def constraints(self, p: ArrayLike) -> np.ndarray:
        """Implicit joint constraints ``z = Phi(p)`` (eq. 2.1), shape (..., m) [m].

        For joint ``j`` (child ``c``, parent ``b``): the child's proximal joint computed from
        the child's coordinates minus the same point computed from the parent's.
        """
        p = self.check_vector(p, "p", 3 * self.n, "m, rad")
        pp = p.reshape(p.shape[:-1] + (self.n, 3))
        e = self.axes(pp[..., 2])
        child = np.arange(1, self.n)
        par = np.asarray(self.parent[1:])
        from_child = pp[..., child, :2] - self.com[child, None] * e[..., child, :]
        from_parent = (pp[..., par, :2]
                       + (self.attach[child] - self.com[par])[:, None] * e[..., par, :])
        return (from_child - from_parent).reshape(p.shape[:-1] + (self.m,))

    def constraint_jacobian(self, p: ArrayLike) -> np.ndarray:
        """``C = dPhi/dp`` (eq. 2.1), shape (..., m, 3n)."""
        p = self.check_vector(p, "p", 3 * self.n, "m, rad")
        n = self.n
        pp = p.reshape(p.shape[:-1] + (n, 3))
        en = perp(self.axes(pp[..., 2]))
        c = np.zeros(p.shape[:-1] + (n - 1, 2, n, 3))
        for j in range(n - 1):  # loop over joints (model size), not frames
            ch, b = j + 1, self.parent[j + 1]
            c[..., j, 0, ch, 0] = 1.0
            c[..., j, 1, ch, 1] = 1.0
            c[..., j, :, ch, 2] = -self.com[ch] * en[..., ch, :]
            c[..., j, 0, b, 0] = -1.0
            c[..., j, 1, b, 1] = -1.0
            c[..., j, :, b, 2] = -(self.attach[ch] - self.com[b]) * en[..., b, :]
        return c.reshape(p.shape[:-1] + (self.m, 3 * n))

    # ------------------------------------------------------------------------ dynamics
    def mass_diagonal(self) -> np.ndarray:
        """Diagonal of the constant mass matrix ``M = diag(m_i, m_i, J_i)``, shape (3n,)."""
        return np.stack([self.masses, self.masses, self.inertias], axis=-1).reshape(-1)

    def mass_matrix(self, q: ArrayLike) -> np.ndarray:
        """Mass matrix in generalised coordinates, ``Mbar = D^T M D`` (eq. 2.9).

        Parameters
        ----------
        q : array_like, shape (..., k)
            Generalised coordinates [m, rad].

        Returns
        -------
        numpy.ndarray, shape (..., k, k)
            [kg, kg m, kg m^2].
        """
        D = self.jacobian_q(q)
        return np.einsum("...ai,a,...aj->...ij", D, self.mass_diagonal(), D)

    def bias_forces(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Velocity and gravity terms ``h_b = D^T (M gamma - h_g)``, so ``Mbar qdd + h_b = Q``.

        The same meaning as :meth:`bmc.chain.PlanarChain.bias_forces`: what the generalised
        forces ``Q`` of the joints and contacts (``D^T h`` of every load but gravity) must
        supply beyond ``Mbar qdd``.

        Parameters
        ----------
        q, qd : array_like, shape (..., k)
            Generalised coordinates [m, rad] and velocities [m/s, rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., k)
            [N, N m].
        """
        D = self.jacobian_q(q)
        rhs = self.mass_diagonal() * self.gamma(q, qd) - self.applied_forces(q)
        return np.einsum("...ai,...a->...i", D, rhs)

    def contact_inverse_dynamics(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, *,
                                 contact_point: tuple[int | str, float],
                                 contact_force: ArrayLike | None = None,
                                 contact_moment: ArrayLike | None = None) -> InverseDynamics:
        """Contact load, joint torques and residual from the minimal-form equations (2.9).

        The ``k = n + 2`` rows of ``Mbar qdd + h_b = Q`` (:meth:`mass_matrix`,
        :meth:`bias_forces`) are the whole-body force balance (rows ``x_B``, ``y_B``) and
        one moment equation per segment about its proximal joint, which holds the subtree
        beyond it. The base rows give the contact force; the sum of the angle rows, in which
        the joint torques cancel, is the whole-body moment balance and gives the free contact
        moment; the rows of the child segments then give the joint torques from the free
        ends inward. A measured contact force or moment is used as given instead, and the
        equation it would have come from is reported as ``residual``.

        Parameters
        ----------
        q, qd, qdd : array_like, shape (..., k)
            Generalised coordinates and their derivatives [m, rad, s].
        contact_point : (segment, distance)
            Segment (name or index) and distance from its proximal joint [m] where the
            contact force acts.
        contact_force : array_like, shape (..., 2), optional
            A measured contact force [N]; computed when omitted.
        contact_moment : array_like, shape (...,), optional
            A measured free contact moment [N m]; computed when omitted.

        Returns
        -------
        InverseDynamics
        """
        i, _ = self.check_contact_point(contact_point)
        q = self.check_coordinates(q)
        qd = self.check_coordinates(qd, "qd", "m/s, rad/s")
        qdd = self.check_coordinates(qdd, "qdd", "m/s^2, rad/s^2")
        named = [("q", q, 1), ("qd", qd, 1), ("qdd", qdd, 1)]
        if contact_force is not None:
            contact_force = as_array(contact_force, "contact_force", unit="N", last=2)
            named.append(("contact_force", contact_force, 1))
        if contact_moment is not None:
            contact_moment = as_array(contact_moment, "contact_moment", unit="N m")
            named.append(("contact_moment", contact_moment, 0))
        frames(*named)
        lhs = np.einsum("...ij,...j->...i", self.mass_matrix(q), qdd) + self.bias_forces(q, qd)
        R = lhs[..., :2].copy() if contact_force is None else contact_force
        hR = self.applied_forces(q, contact_force=R, contact_point=contact_point) \
            - self.applied_forces(q)
        rhs = lhs - np.einsum("...ai,...a->...i", self.jacobian_q(q), hR)
        total = rhs[..., 2:].sum(axis=-1)  # whole-body moment balance: torques cancel
        Mc = total if contact_moment is None else contact_moment
        rhs[..., 2 + i] = rhs[..., 2 + i] - Mc
        B = self.torque_map
        tau = np.linalg.solve(B[1:], rhs[..., 3:, None])[..., 0]
        resid = np.concatenate([rhs[..., :2], rhs[..., 2:3] - tau @ B[0][:, None]], axis=-1)
        shape = rhs.shape[:-1]
        return InverseDynamics(np.broadcast_to(R, shape + (2,)).copy(),
                               np.broadcast_to(Mc, shape).copy(), tau, resid)

    def inverse_dynamics(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, *,
                         contact_point: tuple[int | str, float],
                         contact_force: ArrayLike | None = None,
                         contact_moment: ArrayLike | None = None) -> np.ndarray:
        """Joint torques that produce a given motion, as :meth:`PlanarChain.inverse_dynamics`.

        The torques of :meth:`contact_inverse_dynamics`; the contact force and moment are
        computed unless given (see there for the arguments).

        Returns
        -------
        numpy.ndarray, shape (..., n - 1)
            Joint torques on the child segments [N m], counter-clockwise positive.
        """
        return self.contact_inverse_dynamics(
            q, qd, qdd, contact_point=contact_point, contact_force=contact_force,
            contact_moment=contact_moment).torques

    def applied_forces(self, q: ArrayLike, *, torques: ArrayLike | None = None,
                       contact_force: ArrayLike | None = None,
                       contact_point: tuple[int | str, float] | None = None,
                       contact_moment: ArrayLike | None = None) -> np.ndarray:
        """Generalised applied forces ``h`` in absolute coordinates, shape (..., 3n).

        Gravity always; joint torques (``+tau_j`` on the child of joint ``j``, ``-tau_j`` on
        its parent) and a contact load (a force at a point of one segment plus a free
        moment on that segment) if given.

        Parameters
        ----------
        q : array_like, shape (..., k)
            Generalised coordinates [m, rad].
        torques : array_like, shape (..., n - 1), optional
            Joint torques [N m], counter-clockwise on the child.
        contact_force : array_like, shape (..., 2), optional
            Force from the environment [N].
        contact_point : (segment, distance), optional
            Where ``contact_force`` acts: a segment (name or index) and the distance along
            its axis from its proximal joint [m]. Required with ``contact_force``.
        contact_moment : array_like, shape (...,), optional
            Free moment of the environment on the contact segment [N m]: the shift of the
            centre of pressure away from ``contact_point`` times the force.
        """
        q = self.check_coordinates(q)
        n = self.n
        named = [("q", q, 1)]
        if torques is not None:
            torques = self.check_vector(torques, "torques", n - 1, "N m")
            named.append(("torques", torques, 1))
        contact = contact_force is not None or contact_moment is not None
        if contact:
            if contact_point is None:
                raise ValueError("contact_point=(segment, distance [m]) is required with "
                                 "contact_force or contact_moment")
            i, dist = self.check_contact_point(contact_point)
            f = (np.zeros(2) if contact_force is None
                 else as_array(contact_force, "contact_force", unit="N", last=2))
            mc = (np.zeros(()) if contact_moment is None
                  else as_array(contact_moment, "contact_moment", unit="N m"))
            named += [("contact_force", f, 1), ("contact_moment", mc, 0)]
        lead = frames(*named)
        h = np.zeros(lead + (n, 3))
        h[..., 1] = -self.masses * self.g
        if torques is not None:
            h[..., 2] += torques @ self.torque_map.T
        if contact:
            lever = (dist - self.com[i]) * self.axes(q[..., 2:])[..., i, :]
            h[..., i, :2] += f
            h[..., i, 2] += cross2(lever, f)
            h[..., i, 2] += mc
        return h.reshape(lead + (3 * n,))
