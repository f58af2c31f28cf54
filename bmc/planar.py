r"""The planar model: a tree of rigid segments on a fixed or floating base, one interface.

Every planar model of the course is a :class:`PlanarModel`: the open chain
(:class:`bmc.chain.PlanarChain`, a tree with one branch), Blajer and Czaplicki's floating
tree (:class:`bmc.tree.PlanarTree`) and Kuo's standing body
(:class:`bmc.models.standing.FourSegmentModel`) only choose its parameters and the meaning
of their coordinates. Every formulation (:mod:`bmc.newton_euler`, :mod:`bmc.reactions`,
:mod:`bmc.least_squares`, the drawings of :mod:`bmc.drawing`) takes any
:class:`PlanarModel`, so a new model needs its parameters only.

The model
---------
- **Segments** ``0..n-1``, root first, each with a length, the distance of its centre of
  mass from its proximal joint along its axis, a mass and a moment of inertia about the
  centre of mass (the z axis).
- **Topology**: the parent of each segment (``-1`` for the root), and where along the
  parent's axis its proximal joint sits (``attach``, from the parent's proximal joint).
- **Base**: the root's proximal joint is fixed at ``base`` or floats (two coordinates).
- **Coordinates** ``q`` (length ``k``): ``[x_B, y_B]`` for a floating base, then the angle
  coordinates; the segment angles are ``theta = angle_map @ q_angles + angle_offset``
  [rad], and segment ``i``'s axis (proximal to distal) points along
  ``e_i = (cos, sin)(theta_i + zero_direction_i)``. A segment whose row of ``angle_map``
  is zero does not turn (Kuo's foot on the force plate).
- **Joints**: a pin at the proximal joint of every segment but the root, and at the root's
  too when the base is fixed and the root turns (the chain's shoulder). Joint torques act
  counter-clockwise on the child segment and clockwise on its parent; a model whose root
  is anatomically distal (a leg in stance rooted at the foot) chooses
  ``torque_on="parent"``, so that its torques act on the anatomically distal segment as
  the course's net joint moments do (the ankle moment on the foot).

A model keeps its parameters and the meaning of its coordinates; the algorithms are the
interface's, written once and marked ``typing.final`` (the type checker refuses a model that
overrides one). Dynamics: ``M(q) qdd + h(q, qd) = P tau + J^T w`` with
:meth:`PlanarModel.mass_matrix`, :meth:`~PlanarModel.bias_forces` (velocity and gravity
terms), :attr:`~PlanarModel.torque_matrix` ``P`` (generalized forces of unit joint
torques) and a load ``w`` of the environment at a contact point. Conventions: SI units;
x forward, y up; gravity ``g > 0`` along -y; angles counter-clockwise; **axis 0 is time**
(every method takes one frame or ``N``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

import numpy as np
from numpy.typing import ArrayLike

from bmc._planar import Kernel
from bmc._validation import as_array, frames, gravity, integer, number
from bmc.constants import G

__all__ = ["InverseDynamics", "PlanarModel"]


def __dir__() -> list[str]:
    return sorted(__all__)


@dataclass(frozen=True)
class InverseDynamics:
    """What inverse dynamics of a floating model with one contact returns.

    Attributes
    ----------
    contact_force : numpy.ndarray, shape (..., 2)
        Contact force on the model [N] (computed, or the one given).
    contact_moment : numpy.ndarray, shape (...,)
        Free contact moment on the contact segment [N m] (computed, or the one given).
    torques : numpy.ndarray, shape (..., joints)
        Joint torques [N m], counter-clockwise positive on the segment the model's
        :attr:`~PlanarModel.torque_on` names (the child by default).
    residual : numpy.ndarray, shape (..., 3)
        Left-over of the three whole-body equations, x and y force [N] and moment [N m];
        zero for dynamically consistent data (and for whatever was computed).
    """

    contact_force: np.ndarray
    contact_moment: np.ndarray
    torques: np.ndarray
    residual: np.ndarray


_UNITS = ("m, rad", "m/s, rad/s", "m/s^2, rad/s^2")
Point = tuple[int | str, float]


class PlanarModel:
    """A planar tree of rigid segments on a fixed or floating base (see the module docstring).

    Parameters
    ----------
    parent : sequence of int
        Parent of each segment, ``-1`` for the root (segment 0); parents come first.
    attach : array_like, shape (n,)
        Distance along the parent's axis from the parent's proximal joint to this
        segment's proximal joint [m] (ignored for the root).
    lengths, com, masses, inertias : array_like, shape (n,)
        Segment lengths [m] (> 0), joint-to-centre-of-mass distances [m]
        (``0 <= com <= lengths``), masses [kg] (> 0), moments of inertia about the centre
        of mass [kg m^2] (>= 0).
    floating : bool, optional
        The base point moves: ``q`` starts with ``x_B, y_B`` (keyword-only; default False).
    base : array_like, shape (2,), optional
        The fixed base point [m] (default the origin).
    angle_map : array_like, shape (n, m), optional
        ``theta = angle_map @ q_angles + angle_offset``; default the identity (every
        coordinate a segment's angle).
    angle_offset, zero_direction : array_like, shape (n,), optional
        Constant part of the segment angles, and the direction of each segment's axis at
        zero angle, from +x [rad] (default zeros).
    names, joint_names : sequence of str, optional
        Names of the segments and of the joints (defaults ``segment1``, ``joint1``, ...).
    g : float, optional
        Acceleration of free fall [m/s^2] (default :data:`bmc.constants.G`).
    torque_on : {"child", "parent"}, optional
        The segment on which a joint torque acts counter-clockwise (keyword-only); its
        reaction acts on the other. Default ``"child"``: the segment the joint is the
        proximal joint of in the tree, the anatomically distal one when the root is the
        body's proximal end (arm, trunk). ``"parent"`` for a tree rooted at an anatomically
        distal segment, e.g. a leg in stance rooted at the foot, so that the torques are
        the course's net joint moments on the distal segment (Kuo's standing body).

    Attributes
    ----------
    kernel : bmc._planar.Kernel
        The same computations without argument checks, on float arrays the caller has
        checked: what a formulation calls after checking its arguments once.

    Examples
    --------
    A three-segment arm whose shoulder floats (trunk motion), angles from +x:

    >>> arm = PlanarModel([-1, 0, 1], [0.0, 0.30, 0.27], [0.30, 0.27, 0.19],
    ...                   [0.13, 0.12, 0.07], [2.0, 1.2, 0.45], [0.02, 0.008, 0.001],
    ...                   floating=True, names=["upper_arm", "forearm", "hand"],
    ...                   joint_names=["elbow", "wrist"])
    >>> arm.k, arm.joint_names
    (5, ('elbow', 'wrist'))
    """

    #: Name of the coordinates in messages (``q``, ``qd``, ``qdd``; Kuo's body says ``phi``).
    coordinates = "q"

    def __init__(self, parent: Sequence[int], attach: ArrayLike, lengths: ArrayLike,
                 com: ArrayLike, masses: ArrayLike, inertias: ArrayLike, *,
                 floating: bool = False, base: ArrayLike | None = None,
                 angle_map: ArrayLike | None = None, angle_offset: ArrayLike | None = None,
                 zero_direction: ArrayLike | None = None, names: Sequence[str] | None = None,
                 joint_names: Sequence[str] | None = None, g: float = G,
                 torque_on: str = "child") -> None:
        if torque_on not in ("child", "parent"):
            raise ValueError(f"torque_on must be 'child' or 'parent' (the segment on which a "
                             f"joint torque acts counter-clockwise); got {torque_on!r}")
        self._torque_on = torque_on
        if isinstance(parent, str) or not hasattr(parent, "__iter__"):
            raise TypeError(f"parent must be a sequence of segment indices (int); got {parent!r}")
        parents = tuple(integer(p, "parent", minimum=-1, what="index of the parent segment")
                        for p in parent)
        n = len(parents)
        if n < 1 or parents[0] != -1 or any(not 0 <= p < i for i, p in enumerate(parents)
                                            if i > 0):
            raise ValueError("parent must give, for each segment, the index of an earlier "
                             f"segment (-1 for the root, which comes first); got {parents}")
        arrays = {}
        for label, value, unit in (("attach", attach, "m"), ("lengths", lengths, "m"),
                                   ("com", com, "m"), ("masses", masses, "kg"),
                                   ("inertias", inertias, "kg m^2"),
                                   ("angle_offset", np.zeros(n) if angle_offset is None
                                    else angle_offset, "rad"),
                                   ("zero_direction", np.zeros(n) if zero_direction is None
                                    else zero_direction, "rad")):
            arr = as_array(value, label, unit=unit, ndim=1)
            if arr.shape != (n,):
                raise ValueError(f"{label} [{unit}] must have shape ({n},), one value per "
                                 f"segment; got shape {arr.shape}")
            arr.setflags(write=False)
            arrays[label] = arr
        for label, unit, low in (("lengths", "m", 0.0), ("masses", "kg", 0.0)):
            if np.any(arrays[label] <= low):
                raise ValueError(f"{label} [{unit}] must all be > 0; got {arrays[label].tolist()}")
        if np.any(arrays["inertias"] < 0):
            raise ValueError(f"inertias [kg m^2] must all be >= 0; got "
                             f"{arrays['inertias'].tolist()}")
        if np.any(arrays["com"] < 0) or np.any(arrays["com"] > arrays["lengths"]):
            raise ValueError("com [m] is the distance from each segment's proximal joint to its "
                             "centre of mass and must lie within the segment, 0 <= com <= "
                             f"length; got com {arrays['com'].tolist()} for lengths "
                             f"{arrays['lengths'].tolist()}: check the unit (a fraction such "
                             "as 0.43 must be multiplied by the length first)")
        amap = np.eye(n) if angle_map is None else as_array(angle_map, "angle_map", ndim=2)
        if amap.shape[0] != n:
            raise ValueError(f"angle_map must have one row per segment, shape ({n}, m); got "
                             f"shape {amap.shape}")
        amap.setflags(write=False)
        point = np.zeros(2) if base is None else as_array(base, "base", unit="m", ndim=1)
        if point.shape != (2,):
            raise ValueError(f"base [m] must be one point (x, y); got shape {point.shape}")
        self._names = _names(names, n, "names", "segment")
        self._floating = bool(floating)
        self._arrays = arrays
        self._angle_map = amap
        self.kernel = Kernel(parents, arrays["attach"], arrays["lengths"], arrays["com"],
                             arrays["masses"], arrays["inertias"], amap,
                             arrays["angle_offset"], arrays["zero_direction"], self._floating,
                             point, gravity(g),
                             torque_sign=1.0 if torque_on == "child" else -1.0)
        if self._floating and (amap.shape != (n, n) or not np.array_equal(amap, np.eye(n))):
            raise ValueError("a floating model takes every segment's angle as a coordinate: "
                             "angle_map must be the identity (leave it out)")
        if not self._floating and self.kernel.W is None:
            raise ValueError(f"a fixed base needs one angle coordinate per joint: "
                             f"{self.kernel.nj} joint(s), {amap.shape[1]} coordinate(s)")
        self._joint_names = _names(joint_names, self.kernel.nj, "joint_names", "joint")

    # ------------------------------------------------------------------ parameters
    @property
    def n(self) -> int:
        """Number of segments."""
        return self.kernel.n

    @property
    def k(self) -> int:
        """Number of coordinates ``q``."""
        return self.kernel.k

    @property
    def m(self) -> int:
        """Number of open-constraint coordinates of the pin joints, ``2 x joints``."""
        return 2 * self.kernel.nj

    @property
    def names(self) -> tuple[str, ...]:
        """Segment names, root first."""
        return self._names

    @property
    def joint_names(self) -> tuple[str, ...]:
        """Joint names, in the order of the torques."""
        return self._joint_names

    @property
    def parent(self) -> tuple[int, ...]:
        """Parent of each segment (``-1`` for the root)."""
        return self.kernel.parent

    @property
    def attach(self) -> np.ndarray:
        """Position of each proximal joint along the parent's axis [m] (read-only)."""
        return self._arrays["attach"]

    @property
    def lengths(self) -> np.ndarray:
        """Segment lengths [m] (read-only)."""
        return self._arrays["lengths"]

    @property
    def com(self) -> np.ndarray:
        """Joint-to-centre-of-mass distances [m] (read-only)."""
        return self._arrays["com"]

    @property
    def masses(self) -> np.ndarray:
        """Segment masses [kg] (read-only)."""
        return self._arrays["masses"]

    @property
    def inertias(self) -> np.ndarray:
        """Moments of inertia about the centres of mass [kg m^2] (read-only)."""
        return self._arrays["inertias"]

    @property
    def g(self) -> float:
        """Acceleration of free fall [m/s^2], along -y."""
        return self.kernel.g

    @property
    def floating(self) -> bool:
        """Whether the base point moves (``q`` starts with ``x_B, y_B``)."""
        return self._floating

    @property
    def angle_map(self) -> np.ndarray:
        """``theta = angle_map @ q_angles + angle_offset`` (read-only), shape (n, m)."""
        return self._angle_map

    @property
    def lever(self) -> np.ndarray:
        """``L[i, j]`` [m]: proximal joint of segment ``i`` is ``r_B + sum_j L[i, j] e_j``."""
        return self.kernel.topology.lever

    @property
    def com_lever(self) -> np.ndarray:
        """``lever + diag(com)`` [m]: the same for the centres of mass (read-only)."""
        return self.kernel.topology.com_lever

    @property
    def path(self) -> np.ndarray:
        """``path[i, j] = 1`` where segment ``i`` lies beyond joint ``j``, (n, joints)."""
        return self.kernel.topology.subtree

    @property
    def torque_on(self) -> str:
        """``"child"`` or ``"parent"``: the segment on which a joint torque acts, ccw."""
        return self._torque_on

    @property
    def torque_map(self) -> np.ndarray:
        """Moment [N m] of a unit torque at each joint on each segment, (n, joints)."""
        return self.kernel.topology.torque_map

    @property
    def torque_matrix(self) -> np.ndarray:
        """Generalized forces of unit joint torques, ``P`` in ``M qdd + h = P tau``."""
        return self.kernel.P.copy()

    @property
    def total_mass(self) -> float:
        """Total mass [kg]."""
        return self.kernel.total

    @property
    def body_weight(self) -> float:
        """Total weight ``total_mass * g`` [N]."""
        return self.total_mass * self.g

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.n} segments {self._names}, "
                f"{'floating' if self._floating else 'fixed'} base, {self.k} coordinates, "
                f"joints {self._joint_names})")

    # ------------------------------------------------------------------ lookup and checks
    def segment_index(self, segment: int | str) -> int:
        """Index of a segment given by name or index."""
        if isinstance(segment, str):
            if segment not in self._names:
                raise ValueError(f"segment must be one of the segments {self._names} (or an "
                                 f"index); got the unknown segment {segment!r}")
            return self._names.index(segment)
        i = integer(segment, "segment", what="index or name of a segment")
        if not 0 <= i < self.n:
            raise ValueError(f"segment index must be in 0..{self.n - 1}; got {segment!r}")
        return i

    def _on_segment(self, segment: int | str, distance: float) -> tuple[int, float]:
        i = self.segment_index(segment)
        d = number(distance, "distance", unit="m")
        if not 0 <= d <= self.lengths[i]:
            raise ValueError(f"distance [m] from the proximal joint of {self._names[i]} must "
                             f"lie on that segment, 0 to {self.lengths[i]:g} m; got {d:g}")
        return i, d

    def locate(self, point: Point, name: str = "contact_point") -> tuple[int, float]:
        """``(segment index, distance [m])`` of a point given as (segment, distance), checked.

        The segment is a name or an index; the distance along its axis from its proximal
        joint lies on the segment, ``0 <= d <= length``.
        """
        if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:
            raise TypeError(f"{name} must be a pair (segment name or index, distance [m]), "
                            f"e.g. ('foot', 0.1); got {point!r}")
        segment, distance = point
        try:
            i = self.segment_index(segment)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name}[0]: {exc}") from None
        d = number(distance, f"{name}[1]", unit="m")
        if not 0 <= d <= self.lengths[i]:
            raise ValueError(
                f"{name}[1] [m] is the distance of the point from the proximal joint of "
                f"{self._names[i]} and must lie on that segment, 0 to {self.lengths[i]:g} m; "
                f"got {d:g}: check the unit (cm for m?) and the segment")
        return i, d

    def joint_columns(self, joints: Sequence[int | str] | None) -> np.ndarray:
        """Return the indices into ``lambda`` (x, y per joint) of the joints (default all)."""
        if joints is None:
            return np.arange(self.m)
        if isinstance(joints, (str, bytes)) or not hasattr(joints, "__iter__"):
            raise TypeError(f"joints must be a list of joint names or indices (or None for "
                            f"all); got {type(joints).__name__} {joints!r}")
        idx = []
        for jnt in joints:
            if isinstance(jnt, str):
                if jnt not in self._joint_names:
                    raise ValueError(f"joints must name joints of {self._joint_names} (or give "
                                     f"indices); got the unknown joint {jnt!r}")
                j = self._joint_names.index(jnt)
            else:
                j = integer(jnt, "joints", what="index or name of a joint")
                if not 0 <= j < self.kernel.nj:
                    raise ValueError(f"joints must hold joint indices in 0..{self.kernel.nj - 1}"
                                     f" (or names); got {jnt!r}")
            idx += [2 * j, 2 * j + 1]
        return np.asarray(idx, dtype=int)

    @final
    def check_state(self, **state: ArrayLike | None) -> list[np.ndarray]:
        """``q``, ``qd``, ``qdd`` (those given, in that order) as checked float arrays.

        Each must have ``k`` entries per frame, and they must describe the same frames
        (one frame goes with many); a formulation calls this once at its entry.
        """
        stem = self.coordinates
        names = {"q": stem, "qd": stem + "d", "qdd": stem + "dd"}
        units = _UNITS if self._floating else ("rad", "rad/s", "rad/s^2")
        given = [(names[key], value, units[("q", "qd", "qdd").index(key)])
                 for key, value in state.items() if value is not None]
        arrays = [as_array(value, name, unit=unit, last=self.k) for name, value, unit in given]
        frames(*[(name, arr, 1) for (name, _, _), arr in zip(given, arrays, strict=True)])
        return arrays

    def _load(self, contact_point: Point | None, contact_force: ArrayLike | None,
              contact_moment: ArrayLike | None, default: Point | None
              ) -> tuple[tuple[int, float] | None, np.ndarray | None, np.ndarray | None]:
        loaded = contact_force is not None or contact_moment is not None
        point = contact_point if contact_point is not None else (default if loaded else None)
        where = None if point is None else self.locate(point)
        force = None if contact_force is None else as_array(contact_force, "contact_force",
                                                            unit="N", last=2)
        moment = None if contact_moment is None else as_array(contact_moment,
                                                              "contact_moment", unit="N m")
        if where is None and (force is not None or moment is not None):
            raise ValueError("contact_point=(segment, distance [m]) is required with "
                             "contact_force or contact_moment; got contact_point=None")
        return where, force, moment

    # ------------------------------------------------------------------ kinematics
    @final
    def segment_angles(self, q: ArrayLike) -> np.ndarray:
        """Segment angles ``theta`` [rad], shape (..., n), of coordinates ``q`` (..., k)."""
        return self.kernel.theta(self.check_state(q=q)[0])

    def axes(self, angles: ArrayLike) -> np.ndarray:
        """Return the unit axis of every segment (proximal to distal), (..., n, 2)."""
        return self.kernel.axes(as_array(angles, "angles", unit="rad", last=self.n))

    @final
    def proximal_positions(self, q: ArrayLike) -> np.ndarray:
        """Proximal joint of every segment (the base for the root), (..., n, 2) [m]."""
        return self.kernel.points(self.check_state(q=q)[0], self.lever)

    @final
    def distal_positions(self, q: ArrayLike) -> np.ndarray:
        """Distal end of every segment, (..., n, 2) [m]."""
        return self.kernel.points(self.check_state(q=q)[0], self.lever + np.diag(self.lengths))

    @final
    def com_positions(self, q: ArrayLike) -> np.ndarray:
        """Centre of mass of every segment, (..., n, 2) [m]."""
        return self.kernel.points(self.check_state(q=q)[0], self.com_lever)

    @final
    def point(self, q: ArrayLike, segment: int | str, distance: float) -> np.ndarray:
        """Position (..., 2) [m] of the point ``distance`` [m] along ``segment``'s axis."""
        i, d = self._on_segment(segment, distance)
        return self.kernel.point(self.check_state(q=q)[0], i, d)

    @final
    def kinematics(self, q: ArrayLike, qd: ArrayLike,
                   qdd: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centre-of-mass position [m], velocity [m/s], acceleration [m/s^2], (..., n, 2) each."""
        return self.kernel.com_kinematics(*self.check_state(q=q, qd=qd, qdd=qdd))

    @final
    def point_jacobian(self, q: ArrayLike, segment: int | str, distance: float) -> np.ndarray:
        """``d r / d q`` of a point on a segment, (..., 2, k) [m/rad, 1]."""
        i, d = self._on_segment(segment, distance)
        return self.kernel.point_jacobian(self.check_state(q=q)[0],
                                          self.kernel.lever_row(i, d)[None])[..., 0, :, :]

    @final
    def com_jacobian(self, q: ArrayLike) -> np.ndarray:
        """``d r_i / d q`` of every centre of mass, (..., n, 2, k)."""
        return self.kernel.point_jacobian(self.check_state(q=q)[0], self.com_lever)

    # ------------------------------------------------- absolute and augmented coordinates
    @final
    def absolute_coordinates(self, q: ArrayLike, z: ArrayLike | None = None) -> np.ndarray:
        """``p = [x_1, y_1, theta_1, ...]`` (..., 3n): centres of mass and segment angles.

        ``z`` (..., 2 x joints) opens each joint by a relative translation [m] of everything
        beyond it (x, y per joint); zero (default) for a real motion (eq. 2.3 of Blajer and
        Czaplicki 2005).
        """
        (qq,) = self.check_state(q=q)
        r = self.kernel.points(qq, self.com_lever)
        if z is not None:
            zz = as_array(z, "z", unit="m", last=self.m)
            frames(("q", qq, 1), ("z", zz, 1))
            r = r + np.einsum("ij,...jd->...id", self.path,
                              zz.reshape(zz.shape[:-1] + (-1, 2)))
        theta = np.broadcast_to(self.kernel.theta(qq), r.shape[:-1])
        return np.concatenate([r, theta[..., None]], axis=-1).reshape(r.shape[:-2] + (-1,))

    @final
    def jacobian_q(self, q: ArrayLike) -> np.ndarray:
        """``D = dp/dq`` at ``z = 0`` (eq. 2.4), shape (..., 3n, k)."""
        return self.kernel.jacobian_q(self.check_state(q=q)[0])

    @final
    def jacobian_z(self) -> np.ndarray:
        """``E = dp/dz`` (eq. 2.4), shape (3n, 2 x joints); constant."""
        return self.kernel.jacobian_z()

    @final
    def gamma(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """``gamma = Ddot qd`` (eq. 2.5): the accelerations of ``p`` at ``qdd = 0``, (..., 3n)."""
        return self.kernel.gamma(*self.check_state(q=q, qd=qd))

    @final
    def constraints(self, p: ArrayLike) -> np.ndarray:
        """Joint constraints ``Phi(p)`` (eq. 2.1) [m, rad]: pins, then a fixed base's."""
        values = self.kernel.constraints(as_array(p, "p", unit="m, rad", last=3 * self.n))[0]
        assert values is not None
        return values

    @final
    def constraint_jacobian(self, p: ArrayLike) -> np.ndarray:
        """``C = dPhi/dp`` (eq. 2.1), shape (..., constraints, 3n)."""
        return self.kernel.constraints(as_array(p, "p", unit="m, rad", last=3 * self.n),
                                       values=False)[1]

    @final
    def mass_diagonal(self) -> np.ndarray:
        """Diagonal of the mass matrix in ``p``, ``diag(m_i, m_i, I_i)``, shape (3n,)."""
        return self.kernel.mass_diagonal()

    @final
    def applied_forces(self, q: ArrayLike, *, torques: ArrayLike | None = None,
                       contact_force: ArrayLike | None = None,
                       contact_point: Point | None = None,
                       contact_moment: ArrayLike | None = None) -> np.ndarray:
        """Return the applied forces ``h`` on ``p`` (..., 3n): gravity, torques, a contact.

        ``torques`` (..., joints) [N m] act counter-clockwise on each joint's child and
        clockwise on its parent (the other way round when :attr:`torque_on` is
        ``"parent"``); ``contact_force`` [N] acts at ``contact_point``
        (segment, distance [m]) and ``contact_moment`` [N m] on that segment.
        """
        (qq,) = self.check_state(q=q)
        named = [("q", qq, 1)]
        tau = None
        if torques is not None:
            tau = as_array(torques, "torques", unit="N m", last=self.kernel.nj)
            named.append(("torques", tau, 1))
        where, force, moment = self._load(contact_point, contact_force, contact_moment, None)
        for label, arr, core in (("contact_force", force, 1), ("contact_moment", moment, 0)):
            if arr is not None:
                named.append((label, arr, core))
        frames(*named)
        return self.kernel.applied(qq, tau, where, force, moment)

    # ------------------------------------------------------------------ dynamics
    @final
    def mass_matrix(self, q: ArrayLike) -> np.ndarray:
        """Mass matrix ``M(q)`` in the model's coordinates, (..., k, k) [kg, kg m, kg m^2]."""
        return self.kernel.mass_matrix(self.check_state(q=q)[0])

    @final
    def bias_forces(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Velocity and gravity terms ``h``, so that ``M qdd + h = P tau + J^T w``, (..., k).

        What the joint torques and the loads of the environment must supply beyond
        ``M qdd`` [N, N m].
        """
        return self.kernel.bias(*self.check_state(q=q, qd=qd))

    @final
    def velocity_terms(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Centripetal and Coriolis terms ``C(q, qd)``, (..., k) [N, N m]."""
        return self.kernel.bias(*self.check_state(q=q, qd=qd), gravity=False)

    @final
    def gravity_terms(self, q: ArrayLike) -> np.ndarray:
        """Gravity terms ``G(q)``: the generalized forces that hold the model still, (..., k)."""
        (qq,) = self.check_state(q=q)
        return self.kernel.bias(qq, np.zeros(self.k), velocity=False)

    @final
    def inverse_dynamics(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, *,
                         contact_point: Point | None = None,
                         contact_force: ArrayLike | None = None,
                         contact_moment: ArrayLike | None = None) -> np.ndarray:
        """Joint torques [N m] that produce a motion, (..., joints): the minimal form.

        ``tau = P^-1 (M qdd + h - J^T w)`` for a fixed base, with a known load ``w`` of
        the environment (``contact_force`` at ``contact_point``, ``contact_moment`` on
        its segment; default none). A floating base needs ``contact_point``, and the
        contact load is computed unless given (:meth:`contact_inverse_dynamics`).
        """
        if self._floating:
            return self.contact_inverse_dynamics(
                q, qd, qdd, contact_point=contact_point, contact_force=contact_force,
                contact_moment=contact_moment).torques
        state = self.check_state(q=q, qd=qd, qdd=qdd)
        where, force, moment = self._load(contact_point, contact_force, contact_moment,
                                          self._default_contact())
        _frames(state, ("q", "qd", "qdd"), force, moment)
        tau = self.kernel.forces(*state, torques=True)
        if where is not None and (force is not None or moment is not None):
            load = self.kernel.load_forces(state[0], self.kernel.lever_row(*where), where[0],
                                           np.zeros(2) if force is None else force,
                                           0.0 if moment is None else moment)
            tau = tau - load @ self.kernel.W.T  # type: ignore[union-attr]
        return tau

    def _default_contact(self) -> Point | None:
        """Where a load acts unless told: the last segment's distal end (the hand)."""
        return (self.n - 1, float(self.lengths[-1]))

    @final
    def contact_inverse_dynamics(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, *,
                                 contact_point: Point | None = None,
                                 contact_force: ArrayLike | None = None,
                                 contact_moment: ArrayLike | None = None) -> InverseDynamics:
        """Contact load, joint torques and residual of a floating model (eq. 2.9).

        The ``k`` rows of ``M qdd + h = P tau + J^T w`` are the whole-body force balance
        (rows ``x_B``, ``y_B``) and one moment equation per segment. The base rows give the
        contact force; the sum of the angle rows, in which the joint torques cancel, is the
        whole-body moment balance and gives the free contact moment; the rows of the child
        segments then give the joint torques. A measured contact force or moment is used as
        given, and the equation it would have come from is reported as ``residual``.
        """
        if not self._floating:
            raise ValueError("contact_inverse_dynamics is for a floating base; a fixed base's "
                             "torques come from inverse_dynamics")
        state = self.check_state(q=q, qd=qd, qdd=qdd)
        where, force, moment = self._load(contact_point, contact_force, contact_moment, None)
        if where is None:
            raise TypeError("a floating model needs contact_point=(segment, distance [m]): "
                            "where the environment holds it")
        _frames(state, ("q", "qd", "qdd"), force, moment)
        generalized = self.kernel.forces(*state)
        R, Mc, tau, resid = self.kernel.contact_solution(state[0], generalized, *where, force,
                                                          moment)
        shape = generalized.shape[:-1]
        return InverseDynamics(np.broadcast_to(R, shape + (2,)).copy(),
                               np.broadcast_to(Mc, shape).copy(), tau, resid)

    @final
    def forward_dynamics(self, q: ArrayLike, qd: ArrayLike, tau: ArrayLike, *,
                         contact_point: Point | None = None,
                         contact_force: ArrayLike | None = None,
                         contact_moment: ArrayLike | None = None) -> np.ndarray:
        """Accelerations ``qdd = M^-1 (P tau + J^T w - h)`` under joint torques ``tau`` [N m]."""
        q_, qd_ = self.check_state(q=q, qd=qd)
        torques = as_array(tau, "tau", unit="N m", last=self.kernel.nj)
        where, force, moment = self._load(contact_point, contact_force, contact_moment,
                                          self._default_contact())
        _frames([q_, qd_, torques], ("q", "qd", "tau"), force, moment)
        rhs = torques @ self.kernel.P.T - self.kernel.bias(q_, qd_)
        if where is not None and (force is not None or moment is not None):
            rhs = rhs + self.kernel.load_forces(q_, self.kernel.lever_row(*where), where[0],
                                                np.zeros(2) if force is None else force,
                                                0.0 if moment is None else moment)
        m = self.kernel.mass_matrix(q_)
        rhs = np.broadcast_to(rhs, np.broadcast_shapes(rhs.shape, m.shape[:-1]))
        m = np.broadcast_to(m, rhs.shape + (self.k,))
        return np.linalg.solve(m, rhs[..., None])[..., 0]

    @final
    def energy(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """Kinetic plus gravitational potential energy [J] (zero potential at y = 0)."""
        q_, qd_ = self.check_state(q=q, qd=qd)
        kinetic = 0.5 * np.einsum("...i,...ij,...j->...", qd_, self.kernel.mass_matrix(q_), qd_)
        heights = self.kernel.points(q_, self.com_lever)[..., 1]
        return kinetic + self.g * np.einsum("k,...k->...", self.masses, heights)

    @final
    def base_reaction_terms(self, q: ArrayLike, qd: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """``C`` (..., 3, k) and ``d`` (..., 3): the base load ``[T, Fx, Fy] = C qdd + d``.

        The load the environment exerts on the model at its base point (moment about it
        [N m], force [N]) when nothing else acts on it, from the balances of linear and
        angular momentum: Kuo's force plate under a fixed base. ``C`` depends on ``q``
        alone; it is given the frames of ``d`` (one ``q`` with N ``qd``: N of each).
        """
        c, d = self.kernel.base_reaction_terms(*self.check_state(q=q, qd=qd))
        lead = np.broadcast_shapes(c.shape[:-2], d.shape[:-1])
        return (np.broadcast_to(c, lead + c.shape[-2:]).copy(),
                np.broadcast_to(d, lead + d.shape[-1:]).copy())

    @final
    def base_reaction(self, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
        """Return the base load ``[T, Fx, Fy]`` [N m, N, N] of a motion (base_reaction_terms)."""
        q_, qd_, qdd_ = self.check_state(q=q, qd=qd, qdd=qdd)
        c, d = self.kernel.base_reaction_terms(q_, qd_)
        return (c @ qdd_[..., None])[..., 0] + d


def _frames(state: list[np.ndarray], names: tuple[str, ...], force: np.ndarray | None,
            moment: np.ndarray | None) -> None:
    named = [(name, arr, 1) for name, arr in zip(names, state, strict=True)]
    if force is not None:
        named.append(("contact_force", force, 1))
    if moment is not None:
        named.append(("contact_moment", moment, 0))
    frames(*named)


def _names(given: Sequence[str] | None, count: int, label: str, stem: str,
           default: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if given is None:
        return default if default is not None else tuple(f"{stem}{i + 1}" for i in range(count))
    if isinstance(given, str) or not all(isinstance(s, str) for s in given):
        raise TypeError(f"{label} must be a sequence of names (str); got {given!r}")
    out = tuple(given)
    if len(out) != count:
        raise ValueError(f"{label} must name the {count} {stem}(s); got {out}")
    return out
