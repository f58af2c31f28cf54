r"""Joint reaction forces by the augmented joint coordinate method (Blajer and Czaplicki 2005).

A planar multibody model of ``n`` rigid segments linked by pin joints into a tree is described
in three sets of coordinates:

- **absolute coordinates** ``p = [x_1, y_1, theta_1, ..., x_n, y_n, theta_n]`` (length
  ``3n``): the centre of mass (COM) and the orientation of every segment;
- **generalised (joint) coordinates** ``q = [x_B, y_B, phi_1, ..., phi_n]`` (length
  ``k = n + 2``): a base point (the proximal end of the root segment, the hip in the human
  model) and the absolute angle of every segment;
- **open-constraint coordinates** ``z`` (length ``m = 2(n - 1)``): the relative translations
  that the pin joints prohibit, two per joint (x, y), zero for a real motion.

The augmented map ``p = g(q, z)`` gives ``D = dg/dq`` and ``E = dg/dz`` at ``z = 0``, and
``pddot = D qddot + gamma`` with ``gamma = Ddot qdot``. Projecting the Newton-Euler equations
``M pddot = h - C^T lambda`` with ``D^T`` gives the minimal form
``Mbar qddot + d = hbar`` (eq. 2.9 of the paper); projecting with ``E^T`` gives the joint
reactions without any matrix inversion (eq. 2.10),

.. math:: \lambda = E^T\,(h - M(D\ddot q + \gamma)),

while the classical formula (eq. 2.11) needs the implicit constraint Jacobian ``C`` and a
linear solve per frame,

.. math:: \lambda = (C M^{-1} C^T)^{-1} C (M^{-1} h - \gamma).

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive; **axis 0 is time** (every function takes one frame or ``N``).
Segment ``i`` has a unit axis ``e_i = s_i (-sin phi_i, cos phi_i)`` pointing from its
proximal joint to its distal end, with ``s_i = +1`` for segments that point up at
``phi_i = 0`` (trunk, head) and ``-1`` for segments that hang down (limbs); so the paper's
``x = x_H + c sin(phi)``, ``y = y_H - c cos(phi)`` for the leg segments holds as printed.
``lambda`` for a joint is the force that the distal (child) segment exerts on the proximal
(parent) segment there [N]; its vertical component is positive in compression.

The paper's seven-segment human model and a generated somersault to apply all this to are
in :mod:`bmc.somersault`; the sympy derivation of ``g``, ``D``, ``E``, ``gamma`` and of the
paper's explicit formulas (3.3) is :func:`symbolic_model` and :func:`paper_formulas`.

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, positive

if TYPE_CHECKING:
    from bmc.somersault import Motion

__all__ = [
    "InverseDynamics",
    "PlanarTree",
    "SymbolicModel",
    "inverse_dynamics",
    "minimal_form",
    "motion_reactions",
    "paper_formulas",
    "reactions_augmented",
    "reactions_classical",
    "reactions_explicit",
    "reactions_newton_euler",
    "symbolic_model",
]

G = 9.81  # acceleration of free fall used by the models here [m/s^2]


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Z-component of the planar cross product (..., 2) x (..., 2)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _perp(v: np.ndarray) -> np.ndarray:
    """Rotate planar vectors (..., 2) by +90 degrees: (x, y) -> (-y, x)."""
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


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
    length : array_like, shape (n,)
        Segment length from the proximal joint to the distal end [m] (drawing only).
    com : array_like, shape (n,)
        Distance of the COM from the proximal joint along the axis [m].
    mass : array_like, shape (n,)
        Segment mass [kg].
    inertia : array_like, shape (n,)
        Moment of inertia about the COM, z axis [kg m^2].
    g : float, optional
        Acceleration of free fall [m/s^2] (keyword-only, default 9.81).
    joint_names : sequence of str, optional
        Names of the ``n - 1`` joints (default ``"joint1"``, ...).

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
    length: np.ndarray
    com: np.ndarray
    mass: np.ndarray
    inertia: np.ndarray
    g: float = G
    joint_names: tuple[str, ...] = ()

    def __init__(self, names: Sequence[str], parent: Sequence[int], attach: ArrayLike,
                 direction: ArrayLike, length: ArrayLike, com: ArrayLike, mass: ArrayLike,
                 inertia: ArrayLike, *, g: float = G,
                 joint_names: Sequence[str] | None = None) -> None:
        names = tuple(str(s) for s in names)
        n = len(names)
        if n < 1:
            raise ValueError("names must list at least one segment")
        parent = tuple(int(p) for p in parent)
        if len(parent) != n or parent[0] != -1 or any(
                not 0 <= p < i for i, p in enumerate(parent) if i > 0):
            raise ValueError(
                "parent must give, for each of the n segments, the index of an earlier "
                f"segment (-1 for the root, which comes first); got {parent} for {n} names")
        arrays = {}
        for label, value, unit in (("attach", attach, "m"), ("direction", direction, ""),
                                   ("length", length, "m"), ("com", com, "m"),
                                   ("mass", mass, "kg"), ("inertia", inertia, "kg m^2")):
            arr = as_array(value, label, unit=unit, ndim=1)
            if arr.shape != (n,):
                raise ValueError(f"{label} must have shape ({n},), one value per segment; "
                                 f"got shape {arr.shape}")
            arr.setflags(write=False)
            arrays[label] = arr
        if not np.all(np.isin(arrays["direction"], (-1.0, 1.0))):
            raise ValueError(f"direction must be +1 or -1 per segment; got {direction!r}")
        for label in ("mass", "inertia", "length"):
            if np.any(arrays[label] <= 0):
                raise ValueError(f"{label} must be positive; got {arrays[label]}")
        if joint_names is None:
            joint_names = [f"joint{j + 1}" for j in range(n - 1)]
        joint_names = tuple(str(s) for s in joint_names)
        if len(joint_names) != n - 1:
            raise ValueError(f"joint_names must name the {n - 1} joints; got {joint_names}")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "parent", parent)
        for label, arr in arrays.items():
            object.__setattr__(self, label, arr)
        object.__setattr__(self, "g", positive(g, "g", unit="m/s^2", allow_zero=True))
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
        for label, arr in (("_a", a), ("_rc", a + np.diag(arrays["com"])), ("_s", s),
                           ("_torque_map", tmap)):
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
        return float(self.mass.sum())

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
        i = int(segment)
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
                j = int(jnt)
                if not 0 <= j < self.n - 1:
                    raise ValueError(f"joint index must be in 0..{self.n - 2}; got {jnt!r}")
            idx += [2 * j, 2 * j + 1]
        return np.asarray(idx, dtype=int)

    # ------------------------------------------------------------------ argument checks
    def _check(self, value: ArrayLike, name: str, size: int, unit: str) -> np.ndarray:
        arr = as_array(value, name, unit=unit)
        if arr.ndim == 0 or arr.shape[-1] != size:
            raise ValueError(
                f"{name} [{unit}] must have trailing size {size} (one frame) or shape "
                f"(N, {size}) (N frames, time on axis 0); got shape {arr.shape}")
        return arr

    def _q(self, q: ArrayLike, name: str = "q", unit: str = "m, rad") -> np.ndarray:
        return self._check(q, name, self.k, unit)

    # --------------------------------------------------------------------- kinematics
    def axes(self, phi: ArrayLike) -> np.ndarray:
        """Return the unit axis of every segment (proximal to distal), shape (..., n, 2)."""
        phi = np.asarray(phi, dtype=float)
        return self.direction[:, None] * np.stack([-np.sin(phi), np.cos(phi)], axis=-1)

    def joint_positions(self, q: ArrayLike) -> np.ndarray:
        """Proximal joint of every segment (the base for the root), shape (..., n, 2) [m]."""
        q = self._q(q)
        e = self.axes(q[..., 2:])
        return q[..., None, :2] + np.einsum("ik,...kd->...id", self._a, e)

    def distal_positions(self, q: ArrayLike) -> np.ndarray:
        """Distal end of every segment, shape (..., n, 2) [m]."""
        q = self._q(q)
        return self.joint_positions(q) + self.length[:, None] * self.axes(q[..., 2:])

    def point(self, q: ArrayLike, segment: int | str, distance: float) -> np.ndarray:
        """Position of a point on a segment's axis, ``distance`` [m] from its proximal joint.

        Returns shape (..., 2) [m].
        """
        q = self._q(q)
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
        q, qd = self._q(q), self._q(qd, "qd", "m/s, rad/s")
        qdd = self._q(qdd, "qdd", "m/s^2, rad/s^2")
        e = self.axes(q[..., 2:])
        w, al = qd[..., None, 2:], qdd[..., None, 2:]
        en = _perp(e)
        r = q[..., None, :2] + np.einsum("ik,...kd->...id", self._rc, e)
        v = qd[..., None, :2] + np.einsum("ik,...kd->...id", self._rc, w[..., 0, :, None] * en)
        acc = al[..., 0, :, None] * en - (w[..., 0, :, None] ** 2) * e
        a = qdd[..., None, :2] + np.einsum("ik,...kd->...id", self._rc, acc)
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
        q = self._q(q)
        e = self.axes(q[..., 2:])
        r = q[..., None, :2] + np.einsum("ik,...kd->...id", self._rc, e)
        if z is not None:
            z = self._check(z, "z", self.m, "m")
            zz = z.reshape(z.shape[:-1] + (self.n - 1, 2))
            r = r + np.einsum("ij,...jd->...id", self._s, zz)
        theta = np.broadcast_to(q[..., 2:], r.shape[:-1])
        return np.concatenate([r, theta[..., None]], axis=-1).reshape(r.shape[:-2] + (-1,))

    def jacobian_q(self, q: ArrayLike) -> np.ndarray:
        """``D = dg/dq`` at ``z = 0`` (eq. 2.4), shape (..., 3n, k)."""
        q = self._q(q)
        n = self.n
        en = _perp(self.axes(q[..., 2:]))
        d = np.zeros(q.shape[:-1] + (n, 3, self.k))
        d[..., :, 0, 0] = 1.0
        d[..., :, 1, 1] = 1.0
        d[..., :, :2, 2:] = np.einsum("ik,...kd->...idk", self._rc, en)
        d[..., np.arange(n), 2, 2 + np.arange(n)] = 1.0
        return d.reshape(q.shape[:-1] + (3 * n, self.k))

    def jacobian_z(self) -> np.ndarray:
        """``E = dg/dz`` (eq. 2.4), shape (3n, m); constant for this parametrisation.

        Column pair ``2j, 2j+1`` translates every segment on the distal side of joint ``j``
        in x and y: ones in their position rows, zeros elsewhere (the paper's eq. 3.2).
        """
        n = self.n
        e = np.zeros((n, 3, n - 1, 2))
        e[:, 0, :, 0] = self._s
        e[:, 1, :, 1] = self._s
        return e.reshape(3 * n, self.m)

    def gamma(self, q: ArrayLike, qd: ArrayLike) -> np.ndarray:
        """``gamma = Ddot qdot`` (eq. 2.5), shape (..., 3n) [m/s^2, rad/s^2]."""
        q, qd = self._q(q), self._q(qd, "qd", "m/s, rad/s")
        e = self.axes(q[..., 2:])
        w2 = qd[..., 2:, None] ** 2
        acc = -np.einsum("ik,...kd->...id", self._rc, w2 * e)
        out = np.concatenate([acc, np.zeros(acc.shape[:-1] + (1,))], axis=-1)
        return out.reshape(acc.shape[:-2] + (3 * self.n,))

    def constraints(self, p: ArrayLike) -> np.ndarray:
        """Implicit joint constraints ``z = Phi(p)`` (eq. 2.1), shape (..., m) [m].

        For joint ``j`` (child ``c``, parent ``b``): the child's proximal joint computed from
        the child's coordinates minus the same point computed from the parent's.
        """
        p = self._check(p, "p", 3 * self.n, "m, rad")
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
        p = self._check(p, "p", 3 * self.n, "m, rad")
        n = self.n
        pp = p.reshape(p.shape[:-1] + (n, 3))
        en = _perp(self.axes(pp[..., 2]))
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
        return np.stack([self.mass, self.mass, self.inertia], axis=-1).reshape(-1)

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
        q = self._q(q)
        n = self.n
        h = np.zeros(q.shape[:-1] + (n, 3))
        h[..., 1] = -self.mass * self.g
        if torques is not None:
            tau = self._check(torques, "torques", n - 1, "N m")
            h = h + np.zeros(tau.shape[:-1] + (1, 1))
            h[..., 2] += tau @ self._torque_map.T
        if contact_force is not None or contact_moment is not None:
            if contact_point is None:
                raise ValueError("contact_point=(segment, distance [m]) is required with "
                                 "contact_force or contact_moment")
            f = (np.zeros(2) if contact_force is None
                 else as_array(contact_force, "contact_force", unit="N", last=2))
            i = self.segment_index(contact_point[0])
            lever = (float(contact_point[1]) - self.com[i]) * self.axes(q[..., 2:])[..., i, :]
            h = h + np.zeros(f.shape[:-1] + (1, 1))
            h[..., i, :2] += f
            h[..., i, 2] += _cross2(lever, f)
            if contact_moment is not None:
                mc = as_array(contact_moment, "contact_moment", unit="N m")
                h = h + np.zeros(mc.shape + (1, 1))
                h[..., i, 2] += mc
        return h.reshape(h.shape[:-2] + (3 * n,))


# ---------------------------------------------------------------------------- formulations
def minimal_form(model: PlanarTree, q: ArrayLike, qd: ArrayLike,
                 h: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Project the Newton-Euler equations onto the joint coordinates (eq. 2.9).

    Returns
    -------
    Mbar : numpy.ndarray, shape (..., k, k)
        ``D^T M D`` [kg, kg m, kg m^2].
    d : numpy.ndarray, shape (..., k)
        ``D^T M gamma``, centripetal and Coriolis terms [N, N m].
    hbar : numpy.ndarray, shape (..., k)
        ``D^T h``, generalised applied forces [N, N m].

    Examples
    --------
    >>> from bmc.somersault import human_model
    >>> tree = human_model()
    >>> Mbar, d, hbar = minimal_form(tree, np.zeros(9), np.zeros(9),
    ...                              tree.applied_forces(np.zeros(9)))
    >>> round(float(Mbar[0, 0]), 3) == round(tree.total_mass, 3)   # whole-body mass
    True
    """
    D = model.jacobian_q(q)
    mdiag = model.mass_diagonal()
    h = model._check(h, "h", 3 * model.n, "N, N m")
    gam = model.gamma(q, qd)
    Mbar = np.einsum("...ai,a,...aj->...ij", D, mdiag, D)
    d = np.einsum("...ai,a,...a->...i", D, mdiag, gam)
    hbar = np.einsum("...ai,...a->...i", D, h)
    return Mbar, d, hbar


def reactions_augmented(model: PlanarTree, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                        h: ArrayLike, *, joints: Sequence[int | str] | None = None
                        ) -> np.ndarray:
    """Joint reactions by eq. (2.10): ``lambda = E^T (h - M (D qdd + gamma))``.

    No matrix is inverted; only the columns of ``E`` for the requested joints are used.

    Parameters
    ----------
    model : PlanarTree
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates [m, rad] and their first and second time derivatives.
    h : array_like, shape (..., 3n)
        Applied forces (see :meth:`PlanarTree.applied_forces`) [N, N m].
    joints : sequence of str or int, optional
        Joints to compute (default all), by name or index.

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        ``[lambda_x, lambda_y]`` per joint: force of the distal on the proximal segment [N].
    """
    cols = model.joint_columns(joints)
    D = model.jacobian_q(q)
    qdd = model._q(qdd, "qdd", "m/s^2, rad/s^2")
    pdd = np.einsum("...ai,...i->...a", D, qdd) + model.gamma(q, qd)
    h = model._check(h, "h", 3 * model.n, "N, N m")
    return (h - model.mass_diagonal() * pdd) @ model.jacobian_z()[:, cols]


def reactions_classical(model: PlanarTree, q: ArrayLike, qd: ArrayLike, h: ArrayLike, *,
                        joints: Sequence[int | str] | None = None) -> np.ndarray:
    """Joint reactions by the classical eq. (2.11): one linear solve per frame.

    ``lambda = (C M^-1 C^T)^-1 C (M^-1 h - gamma)``: the reactions of the motion that the
    applied forces ``h`` would produce. It uses no measured acceleration, and it agrees with
    :func:`reactions_augmented` only when ``qdd`` and ``h`` satisfy eq. (2.9).

    Returns
    -------
    numpy.ndarray, shape (..., 2 * len(joints))
        Force of the distal on the proximal segment at each joint [N].
    """
    cols = model.joint_columns(joints)
    C = model.constraint_jacobian(model.absolute_coordinates(q))
    minv = 1.0 / model.mass_diagonal()
    h = model._check(h, "h", 3 * model.n, "N, N m")
    A = np.einsum("...ia,a,...ja->...ij", C, minv, C)
    b = np.einsum("...ia,...a->...i", C, minv * h - model.gamma(q, qd))
    return np.linalg.solve(A, b[..., None])[..., 0][..., cols]


def _leg(model: PlanarTree) -> tuple[int, int, int]:
    """Return the indices of thigh, shank and foot, checked against the paper's layout."""
    try:
        idx = tuple(model.names.index(s) for s in ("thigh", "shank", "foot"))
    except ValueError as exc:
        raise ValueError(f"the model needs segments 'thigh', 'shank', 'foot'; it has "
                         f"{model.names}") from exc
    th, sh, ft = idx
    ok = (model.parent[th] == 0 and model.attach[th] == 0.0 and model.parent[sh] == th
          and model.parent[ft] == sh and np.all(model.direction[list(idx)] == -1))
    if not ok:
        raise ValueError("eq. (3.3) needs thigh hanging from the base point of the root, "
                         "shank from the thigh, foot from the shank (direction -1)")
    return idx


def reactions_explicit(model: PlanarTree, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                       contact_force: ArrayLike) -> np.ndarray:
    """Hip, knee and ankle reactions by the explicit formulas (3.3) of the paper.

    With the erratum corrected: in ``lambda_4`` the sign before ``c3 phi3dot^2 cos phi3``
    is ``+``. Segment numbers follow the paper: 2 thigh, 3 shank, 4 foot.

    Parameters
    ----------
    model : PlanarTree
        Must contain segments ``thigh``, ``shank``, ``foot`` as in
        :func:`bmc.somersault.human_model`.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates and derivatives.
    contact_force : array_like, shape (..., 2)
        ``[R_x, R_y]``, the force on the feet from the environment [N].

    Returns
    -------
    numpy.ndarray, shape (..., 6)
        ``[lambda_1, ..., lambda_6]``: hip x, y, knee x, y, ankle x, y [N].
    """
    th, sh, ft = _leg(model)
    q, qd = model._q(q), model._q(qd, "qd", "m/s, rad/s")
    qdd = model._q(qdd, "qdd", "m/s^2, rad/s^2")
    R = as_array(contact_force, "contact_force", unit="N", last=2)
    m2, m3, m4 = model.mass[[th, sh, ft]]
    c2, c3, c4 = model.com[[th, sh, ft]]
    l2, l3 = model.attach[sh], model.attach[ft]
    g = model.g
    xdd, ydd = qdd[..., 0], qdd[..., 1]
    p2, p3, p4 = (q[..., 2 + i] for i in (th, sh, ft))
    w2, w3, w4 = (qd[..., 2 + i] for i in (th, sh, ft))
    a2, a3, a4 = (qdd[..., 2 + i] for i in (th, sh, ft))
    s2, s3, s4, k2, k3, k4 = np.sin(p2), np.sin(p3), np.sin(p4), np.cos(p2), np.cos(p3), \
        np.cos(p4)
    # accelerations of C2, C3, C4, written as in (3.3)
    ax2 = xdd + c2 * a2 * k2 - c2 * w2**2 * s2
    ax3 = xdd + l2 * a2 * k2 + c3 * a3 * k3 - l2 * w2**2 * s2 - c3 * w3**2 * s3
    ax4 = (xdd + l2 * a2 * k2 + l3 * a3 * k3 + c4 * a4 * k4 - l2 * w2**2 * s2
           - l3 * w3**2 * s3 - c4 * w4**2 * s4)
    ay2 = ydd + c2 * a2 * s2 + c2 * w2**2 * k2
    ay3 = ydd + l2 * a2 * s2 + c3 * a3 * s3 + l2 * w2**2 * k2 + c3 * w3**2 * k3
    ay4 = (ydd + l2 * a2 * s2 + l3 * a3 * s3 + c4 * a4 * s4 + l2 * w2**2 * k2
           + l3 * w3**2 * k3 + c4 * w4**2 * k4)
    rx, ry = R[..., 0], R[..., 1]
    lam = [rx - m2 * ax2 - m3 * ax3 - m4 * ax4,
           ry - (m2 + m3 + m4) * g - m2 * ay2 - m3 * ay3 - m4 * ay4,
           rx - m3 * ax3 - m4 * ax4,
           ry - (m3 + m4) * g - m3 * ay3 - m4 * ay4,
           rx - m4 * ax4,
           ry - m4 * g - m4 * ay4]
    return np.stack(np.broadcast_arrays(*lam), axis=-1)


def reactions_newton_euler(model: PlanarTree, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                           contact_force: ArrayLike, contact_distance: float, *,
                           contact_moment: ArrayLike = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Hip, knee and ankle loads by the recursive Newton-Euler pass, feet upward.

    Uses :func:`bmc.invdyn2d` for foot, shank and thigh in turn; each segment's
    proximal load, reversed, is the next one's distal load.

    Parameters
    ----------
    model : PlanarTree
        With segments ``thigh``, ``shank``, ``foot``.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates and their derivatives [m, rad, s].
    contact_force : array_like, shape (..., 2)
        Force on the foot from the environment [N].
    contact_distance : float
        Where it acts: distance along the foot's axis from the ankle [m].
    contact_moment : array_like, shape (...,), optional
        Free moment of the environment on the foot [N m] (default 0); it changes the
        joint torques, not the reactions.

    Returns
    -------
    reactions : numpy.ndarray, shape (..., 6)
        Hip x, y, knee x, y, ankle x, y: force of the distal on the proximal segment [N].
    torques : numpy.ndarray, shape (..., 3)
        Hip, knee, ankle joint torques acting on the distal segment [N m].
    """
    from bmc.newton_euler import invdyn2d

    legs = _leg(model)
    r, _, a = model.kinematics(q, qd, qdd)
    q, qdd = model._q(q), model._q(qdd, "qdd", "m/s^2, rad/s^2")
    joints = model.joint_positions(q)
    F = as_array(contact_force, "contact_force", unit="N", last=2)
    Md = as_array(contact_moment, "contact_moment", unit="N m")
    rd = model.point(q, legs[2], contact_distance)
    forces, moments = [], []
    for i in legs[::-1]:  # foot, shank, thigh
        Fp, Mp = invdyn2d(r[..., i, :], rd, joints[..., i, :], a[..., i, :],
                          qdd[..., 2 + i], model.mass[i], model.inertia[i], F, Md, g=model.g)
        forces.append(-Fp)  # force of this (distal) segment on its parent
        moments.append(Mp)  # moment on this segment at its proximal joint
        F, Md, rd = -Fp, -Mp, joints[..., i, :]
    lam = np.concatenate(forces[::-1], axis=-1)
    return lam, np.stack(moments[::-1], axis=-1)


@dataclass(frozen=True)
class InverseDynamics:
    """What inverse dynamics in joint coordinates returns (see :func:`inverse_dynamics`).

    Attributes
    ----------
    contact_force : numpy.ndarray, shape (..., 2)
        Contact force [N] (computed, or the one given).
    contact_moment : numpy.ndarray, shape (...,)
        Free contact moment on the contact segment [N m] (computed, or the one given).
    torques : numpy.ndarray, shape (..., n - 1)
        Joint torques on the child segments [N m].
    residual : numpy.ndarray, shape (..., 3)
        Left-over of the three whole-body equations, x and y force [N] and moment [N m];
        zero for dynamically consistent data (and for whatever was computed).
    """

    contact_force: np.ndarray
    contact_moment: np.ndarray
    torques: np.ndarray
    residual: np.ndarray


def inverse_dynamics(model: PlanarTree, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, *,
                     contact_point: tuple[int | str, float],
                     contact_force: ArrayLike | None = None,
                     contact_moment: ArrayLike | None = None) -> InverseDynamics:
    """Contact load and joint torques from the minimal-form equations (2.9).

    The ``k = n + 2`` rows of (2.9) are the whole-body force balance (rows ``x_B``,
    ``y_B``), and one moment equation per segment about its proximal joint, which holds the
    subtree beyond it. The base rows give the contact force; the sum of the angle rows, in
    which the joint torques cancel, is the whole-body moment balance and gives the free
    contact moment; the rows of the child segments then give the joint torques from the
    free ends inward. A measured contact force or moment is used as given instead, and the
    equation it would have come from is reported as ``residual``.

    Parameters
    ----------
    model : PlanarTree
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates and their derivatives [m, rad, s].
    contact_point : (segment, distance)
        Segment (name or index) and distance from its proximal joint [m] where the contact
        force acts.
    contact_force : array_like, shape (..., 2), optional
        A measured contact force [N]; computed when omitted.
    contact_moment : array_like, shape (...,), optional
        A measured free contact moment [N m]; computed when omitted.

    Returns
    -------
    InverseDynamics
    """
    q = model._q(q)
    i = model.segment_index(contact_point[0])
    Mbar, d, hg = minimal_form(model, q, qd, model.applied_forces(q))
    qdd = model._q(qdd, "qdd", "m/s^2, rad/s^2")
    lhs = np.einsum("...ij,...j->...i", Mbar, qdd) + d - hg
    R = (lhs[..., :2].copy() if contact_force is None
         else as_array(contact_force, "contact_force", unit="N", last=2))
    hR = model.applied_forces(q, contact_force=R, contact_point=contact_point) \
        - model.applied_forces(q)
    rhs = lhs - np.einsum("...ai,...a->...i", model.jacobian_q(q), hR)
    total = rhs[..., 2:].sum(axis=-1)  # whole-body moment balance: torques cancel
    Mc = (total if contact_moment is None
          else as_array(contact_moment, "contact_moment", unit="N m"))
    rhs[..., 2 + i] = rhs[..., 2 + i] - Mc
    B = model._torque_map
    tau = np.linalg.solve(B[1:], rhs[..., 3:, None])[..., 0]
    resid = np.concatenate([rhs[..., :2], rhs[..., 2:3] - tau @ B[0][:, None]], axis=-1)
    shape = rhs.shape[:-1]
    return InverseDynamics(np.broadcast_to(R, shape + (2,)).copy(),
                           np.broadcast_to(Mc, shape).copy(), tau, resid)


def motion_reactions(motion: Motion, *, contact_force: ArrayLike | None = None,
                     joints: Sequence[int | str] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Reactions along a motion by eq. (2.10) and eq. (2.11), from a measured contact force.

    Inverse dynamics with the given contact force (default: the motion's own) gives the
    joint torques and the free contact moment; with them ``h`` is complete and both
    formulas apply. They agree when the force is the true one and differ otherwise.

    Parameters
    ----------
    motion : bmc.somersault.Motion
        For example from :func:`bmc.somersault.somersault`; any object with the attributes
        ``model``, ``q``, ``qd``, ``qdd``, ``contact_force`` and ``contact_point`` will do.
    contact_force : array_like, shape (N, 2), optional
        A measured (for example noisy) contact force [N].
    joints : sequence of str or int, optional
        Joints to report (default all).

    Returns
    -------
    augmented, classical : numpy.ndarray, shape (N, 2 * len(joints))
        Eq. (2.10) and eq. (2.11) [N].
    """
    m = motion.model
    R = motion.contact_force if contact_force is None else contact_force
    idr = inverse_dynamics(m, motion.q, motion.qd, motion.qdd,
                           contact_point=motion.contact_point, contact_force=R)
    h = m.applied_forces(motion.q, torques=idr.torques, contact_force=idr.contact_force,
                         contact_point=motion.contact_point,
                         contact_moment=idr.contact_moment)
    return (reactions_augmented(m, motion.q, motion.qd, motion.qdd, h, joints=joints),
            reactions_classical(m, motion.q, motion.qd, h, joints=joints))


# -------------------------------------------------------------------------- symbolic
@dataclass(frozen=True, eq=False)
class SymbolicModel:
    """The augmented map and its Jacobians of a :class:`PlanarTree`, in sympy.

    Attributes
    ----------
    q, qd, qdd, z : sympy.Matrix
        Column vectors of symbols: ``x_H, y_H, phi1..phin`` and derivatives ``xd_H``...,
        open-constraint coordinates ``z1..zm``.
    p : sympy.Matrix
        ``g(q, z)``, shape (3n, 1).
    D, E : sympy.Matrix
        ``dg/dq`` (at ``z = 0``) and ``dg/dz``.
    gamma : sympy.Matrix
        ``Ddot qdot``.
    M : sympy.Matrix
        ``diag(m1, m1, J1, ...)``.
    params : dict
        Numeric value of every parameter symbol (``m1``, ``J1``, ``c1``, ``l1``, ...).
    """

    q: Any
    qd: Any
    qdd: Any
    z: Any
    p: Any
    D: Any
    E: Any
    gamma: Any
    M: Any
    params: dict

    def gravity(self) -> Any:
        """Return ``h`` of gravity alone, ``(0, -m_i g, 0)`` per segment, with symbol ``g``."""
        import sympy as sp

        g = sp.Symbol("g", positive=True)
        rows = []
        for i in range(self.M.shape[0] // 3):
            rows += [0, -self.M[3 * i, 3 * i] * g, 0]
        return sp.Matrix(rows)

    def reactions(self, h: Any, columns: Sequence[int] | None = None) -> Any:
        """Return eq. (2.10), ``E^T (h - M (D qdd + gamma))``, for the chosen columns of E."""
        E = self.E if columns is None else self.E[:, list(columns)]
        return E.T * (h - self.M * (self.D * self.qdd + self.gamma))

    def lambdify(self, expr: Any):
        """Return a NumPy function ``f(q, qd, qdd)`` (one frame) of ``expr``, numbers in."""
        import sympy as sp

        names = list(self.params)
        values = [self.params[s] for s in names]
        f = sp.lambdify([list(self.q), list(self.qd), list(self.qdd), names],
                        sp.Matrix(expr), "numpy")
        return lambda q, qd, qdd: np.asarray(f(q, qd, qdd, values), dtype=float)


def symbolic_model(model: PlanarTree) -> SymbolicModel:
    """Build ``p = g(q, z)``, ``D``, ``E`` and ``gamma`` of a tree symbolically (sympy).

    Segments are numbered from 1 as in the paper; a segment attached at its parent's distal
    end uses the parent's length symbol ``l_b``, one attached at the parent's proximal end
    uses 0, any other attachment a symbol ``a_i``.

    Examples
    --------
    >>> from bmc.somersault import human_model
    >>> sm = symbolic_model(human_model())
    >>> sm.p[3:6, 0].T      # thigh: the paper's eq. (3.1), first line
    Matrix([[c2*sin(phi2) + x_H + z1, -c2*cos(phi2) + y_H + z2, phi2]])
    """
    import sympy as sp

    n = model.n
    q = sp.Matrix(sp.symbols(f"x_H y_H phi1:{n + 1}"))
    qd = sp.Matrix(sp.symbols(f"xd_H yd_H phid1:{n + 1}"))
    qdd = sp.Matrix(sp.symbols(f"xdd_H ydd_H phidd1:{n + 1}"))
    z = sp.Matrix(sp.symbols(f"z1:{model.m + 1}")) if n > 1 else sp.zeros(0, 1)
    params: dict = {}
    sym = {}
    for i in range(n):
        for name, value in (("m", model.mass[i]), ("J", model.inertia[i]),
                            ("c", model.com[i]), ("l", model.length[i])):
            s = sp.Symbol(f"{name}{i + 1}", positive=True)
            sym[name, i] = s
            params[s] = float(value)
    prox, rows = [], []
    for i in range(n):
        phi = q[2 + i]
        e = int(model.direction[i]) * sp.Matrix([-sp.sin(phi), sp.cos(phi)])
        if i == 0:
            P = sp.Matrix([q[0], q[1]])
        else:
            b = model.parent[i]
            att = model.attach[i]
            if att == 0.0:
                a = sp.Integer(0)
            elif np.isclose(att, model.length[b]):
                a = sym["l", b]
            else:
                a = sp.Symbol(f"a{i + 1}", positive=True)
                params[a] = float(att)
            eb = int(model.direction[b]) * sp.Matrix([-sp.sin(q[2 + b]), sp.cos(q[2 + b])])
            P = prox[b] + a * eb + sp.Matrix([z[2 * i - 2], z[2 * i - 1]])
        prox.append(P)
        r = P + sym["c", i] * e
        rows += [r[0], r[1], phi]
    p = sp.Matrix(rows)
    zero = dict.fromkeys(z, 0)
    D = p.jacobian(q).subs(zero)
    E = p.jacobian(z)
    gamma = (D * qd).jacobian(q) * qd
    M = sp.diag(*[sym[s, i] for i in range(n) for s in ("m", "m", "J")])
    return SymbolicModel(q, qd, qdd, z, p, D, E, gamma, M, params)


def paper_formulas(*, misprint: bool = False):
    """Return the paper's explicit hip, knee and ankle reactions (3.3) in sympy.

    Written with the symbols of :func:`symbolic_model` (``m2, c2, l2, phi2, phid2, ...``)
    plus ``g`` (positive) and ``R_x, R_y`` (real). With ``misprint=True`` the ``=`` printed before
    ``c3 phi3dot^2 cos phi3`` in ``lambda_4`` is read as ``-`` instead of the correct ``+``.

    Returns
    -------
    sympy.Matrix, shape (6, 1)
    """
    import sympy as sp

    xdd, ydd = sp.symbols("xdd_H ydd_H")
    g = sp.Symbol("g", positive=True)
    Rx, Ry = sp.symbols("R_x R_y", real=True)
    m2, m3, m4, c2, c3, c4, l2, l3 = sp.symbols("m2 m3 m4 c2 c3 c4 l2 l3", positive=True)
    p2, p3, p4 = sp.symbols("phi2:5")
    w2, w3, w4 = sp.symbols("phid2:5")
    a2, a3, a4 = sp.symbols("phidd2:5")
    S, Co = sp.sin, sp.cos
    X2 = xdd + c2 * a2 * Co(p2) - c2 * w2**2 * S(p2)
    X3 = xdd + l2 * a2 * Co(p2) + c3 * a3 * Co(p3) - l2 * w2**2 * S(p2) - c3 * w3**2 * S(p3)
    X4 = (xdd + l2 * a2 * Co(p2) + l3 * a3 * Co(p3) + c4 * a4 * Co(p4) - l2 * w2**2 * S(p2)
          - l3 * w3**2 * S(p3) - c4 * w4**2 * S(p4))
    Y2 = ydd + c2 * a2 * S(p2) + c2 * w2**2 * Co(p2)
    Y3 = ydd + l2 * a2 * S(p2) + c3 * a3 * S(p3) + l2 * w2**2 * Co(p2) + c3 * w3**2 * Co(p3)
    Y4 = (ydd + l2 * a2 * S(p2) + l3 * a3 * S(p3) + c4 * a4 * S(p4) + l2 * w2**2 * Co(p2)
          + l3 * w3**2 * Co(p3) + c4 * w4**2 * Co(p4))
    sign = -1 if misprint else 1
    Y3_in_4 = (ydd + l2 * a2 * S(p2) + c3 * a3 * S(p3) + l2 * w2**2 * Co(p2)
               + sign * c3 * w3**2 * Co(p3))
    return sp.Matrix([
        Rx - m2 * X2 - m3 * X3 - m4 * X4,
        Ry - (m2 + m3 + m4) * g - m2 * Y2 - m3 * Y3 - m4 * Y4,
        Rx - m3 * X3 - m4 * X4,
        Ry - (m3 + m4) * g - m3 * Y3_in_4 - m4 * Y4,
        Rx - m4 * X4,
        Ry - m4 * g - m4 * Y4,
    ])
