"""The unchecked computations of a planar model (private; see :class:`bmc.planar.PlanarModel`).

:class:`Kernel` holds one model's constant matrices and evaluates its kinematics, Jacobians
and dynamics on float arrays without checking them. :class:`bmc.planar.PlanarModel` builds
one, checks its own arguments and calls it; a formulation that takes a model checks its
arguments once at its entry and then calls ``model.kernel`` directly.

Notation: ``n`` segments, ``k`` coordinates ``q`` (the base point first when it floats),
``nj`` pin joints. Segment angles ``theta = A q + theta0`` (``A`` = ``angle_map`` over the
coordinates), axis directions ``psi = theta + zero_direction`` and unit axes
``e = (cos psi, sin psi)``. A point at lever row ``l`` sits at ``r_B + sum_j l_j e_j``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bmc._kernels import (
    blocked_forces,
    cross,
    lever_jacobian,
    perp,
    points_on_segments,
    upward,
)

__all__ = ["Kernel", "Topology"]


@dataclass(frozen=True)
class Topology:
    """Joints and levers of a tree: the constant matrices every computation uses."""

    lever: np.ndarray  # (n, n) proximal joints: L[i, j] along e_j on the path to segment i
    com_lever: np.ndarray  # (n, n) the same for the centres of mass
    joint_child: np.ndarray  # (nj,) the segment each pin joint is the proximal joint of
    joint_parent: np.ndarray  # (nj,) its parent segment, -1 for the ground
    torque_map: np.ndarray  # (n, nj) +1 on the child, -1 on the parent (times the sign)
    subtree: np.ndarray  # (n, nj) 1 where the segment lies beyond the joint


def topology(parent: tuple[int, ...], attach: np.ndarray, com: np.ndarray,
             base_pin: bool, sign: float = 1.0) -> Topology:
    """Levers and joints of a tree whose parents come before their children.

    ``sign`` is +1 when a joint torque acts counter-clockwise on the child, -1 when it acts
    on the parent (:attr:`bmc.planar.PlanarModel.torque_on`).
    """
    n = len(parent)
    lever = np.zeros((n, n))
    for i in range(n):
        child, k = i, parent[i]
        while k >= 0:
            lever[i, k] = attach[child]
            child, k = k, parent[k]
    child_of = np.arange(0 if base_pin else 1, n)
    parent_of = np.asarray([parent[c] for c in child_of], dtype=int).reshape(-1)
    nj = child_of.size
    tmap = np.zeros((n, nj))
    tmap[child_of, np.arange(nj)] = 1.0
    inner = parent_of >= 0
    tmap[parent_of[inner], np.arange(nj)[inner]] -= 1.0
    tmap = tmap * sign + 0.0  # (+ 0.0: no -0.0 entries)
    subtree = np.zeros((n, nj))
    for j, c in enumerate(child_of):
        for i in range(n):
            k = i
            while k >= 0 and k != c:
                k = parent[k]
            subtree[i, j] = float(k == c)
    out = Topology(lever, lever + np.diag(com), child_of, parent_of, tmap, subtree)
    for arr in (out.lever, out.com_lever, out.joint_child, out.joint_parent, out.torque_map,
                out.subtree):
        arr.setflags(write=False)
    return out


class Kernel:
    """One planar model's computations on float arrays, without argument checks.

    Every method takes coordinates of shape (..., k) (and broadcasts leading axes the
    caller has matched) and trusts them; see :class:`bmc.planar.PlanarModel` for the
    meaning of each result, which its public methods document.
    """

    def __init__(self, parent: tuple[int, ...], attach: np.ndarray, lengths: np.ndarray,
                 com: np.ndarray, masses: np.ndarray, inertias: np.ndarray,
                 angle_map: np.ndarray, angle_offset: np.ndarray, zero_direction: np.ndarray,
                 floating: bool, base: np.ndarray, g: float, torque_sign: float = 1.0) -> None:
        n, m = angle_map.shape
        self.n, self.floating, self.g = n, floating, g
        self.k = m + (2 if floating else 0)
        self.parent, self.lengths, self.com = parent, lengths, com
        self.masses, self.inertias, self.base = masses, inertias, base
        self.total = float(masses.sum())
        a = np.zeros((n, self.k))
        a[:, self.k - m:] = angle_map
        self.A = a  # (n, k): theta = A q + theta0
        self.theta0 = angle_offset
        self.psi0 = angle_offset + zero_direction
        turn = np.stack([np.cos(zero_direction), np.sin(zero_direction)])
        self._turn = np.where(np.abs(turn) < 1e-15, 0.0, turn)  # cos(pi/2) is 6e-17
        moving = np.flatnonzero(np.any(angle_map != 0.0, axis=1))
        self.moving = moving
        self.topology = topology(parent, np.asarray(attach), com,
                                 base_pin=not floating and bool(np.any(angle_map[0] != 0.0)),
                                 sign=torque_sign)
        self.torque_sign = float(torque_sign)  # +1: torques on the child; -1: on the parent
        t = self.topology
        self.nj = t.joint_child.size
        # generalized forces of unit joint torques, P = A^T torque_map (k, nj)
        self.P = a.T @ t.torque_map
        lm = t.com_lever[:, moving]
        bm = lm.T @ (masses[:, None] * lm)
        self.first = masses @ lm  # s_i = sum_k m_k L_ki [kg m]
        self.Bm = bm
        am = a[moving]
        offsets = self.psi0[moving]
        self._am, self._am_t = np.ascontiguousarray(am), np.ascontiguousarray(am.T)
        self._psi0m = np.ascontiguousarray(offsets)
        self._Im = np.diag(inertias[moving])
        self._gsm = g * self.first
        self._blocked = {"angles": np.ascontiguousarray(am),
                         "offsets": offsets if np.any(offsets != 0.0) else None,
                         "B": bm, "gs": g * self.first,
                         "diag": np.diag(bm) + inertias[moving],
                         "floating": (self.first, self.total, g) if floating else None}
        extra = 2 if floating else 0
        gen = np.zeros((self.k, extra + moving.size))
        gen[:extra, :extra] = np.eye(extra)
        gen[:, extra:] = am.T
        self._generalized = gen
        self._identity = am.shape == (self.k, self.k) and np.array_equal(am, np.eye(self.k))
        # the coordinates whose columns are the segment angles, when A is [0 | I]
        eye = np.eye(n)
        self._embedded = (slice(self.k - n, None) if np.array_equal(a[:, self.k - n:], eye)
                          and not np.any(a[:, :self.k - n]) else None)
        self.W: np.ndarray | None = None
        if not floating and self.P.shape[0] == self.P.shape[1]:
            self.W = np.linalg.inv(self.P)  # joint torques of generalized forces
            self._torques = self.W @ am.T

    # ------------------------------------------------------------------ kinematics
    def theta(self, q: np.ndarray) -> np.ndarray:
        """Segment angles (..., n) [rad]."""
        return q @ self.A.T + self.theta0

    def axes(self, theta: np.ndarray) -> np.ndarray:
        """Return the unit axes (..., n, 2) of segment angles (..., n).

        ``theta`` turned by the zero direction (exact for quarter turns: Blajer's
        ``s (-sin phi, cos phi)``).
        """
        c, s = np.cos(theta), np.sin(theta)
        c0, s0 = self._turn
        return np.stack([c0 * c - s0 * s, s0 * c + c0 * s], axis=-1)

    def points(self, q: np.ndarray, levers: np.ndarray) -> np.ndarray:
        """Points at the rows of ``levers`` (p, n): (..., p, 2) [m]."""
        r = points_on_segments(levers, self.axes(self.theta(q)))[0]
        return r + (q[..., None, :2] if self.floating else self.base)

    def point(self, q: np.ndarray, segment: int, distance: float) -> np.ndarray:
        """Return the point ``distance`` along ``segment`` from its proximal joint [m]."""
        e = self.axes(self.theta(q))
        joint = points_on_segments(self.topology.lever[segment][None], e)[0][..., 0, :]
        return joint + (q[..., :2] if self.floating else self.base) + distance * e[..., segment, :]

    def lever_row(self, segment: int, distance: float) -> np.ndarray:
        """Lever row (n,) of the point ``distance`` along ``segment`` from its proximal joint."""
        row = self.topology.lever[segment].copy()
        row[segment] += distance
        return row

    def com_kinematics(self, q: np.ndarray, qd: np.ndarray,
                       qdd: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centre-of-mass positions, velocities, accelerations, each (..., n, 2)."""
        r, v, a = points_on_segments(self.topology.com_lever, self.axes(self.theta(q)),
                                     qd @ self.A.T, qdd @ self.A.T)
        if self.floating:
            return (r + q[..., None, :2], v + qd[..., None, :2], a + qdd[..., None, :2])
        return r + self.base, v, a

    def point_jacobian(self, q: np.ndarray, levers: np.ndarray) -> np.ndarray:
        """``d r / d q`` of the points at ``levers`` (p, n): (..., p, 2, k) [m/rad, 1]."""
        axes = self.axes(self.theta(q))
        if self._embedded is None:
            jac = lever_jacobian(levers, axes, self.A)
        else:  # the angles are coordinates (a tree's): place the columns, no product
            jac = np.zeros(axes.shape[:-2] + (levers.shape[0], 2, self.k))
            jac[..., self._embedded] = lever_jacobian(levers, axes, None)
        if self.floating:
            jac[..., 0, 0] += 1.0
            jac[..., 1, 1] += 1.0
        return jac

    def jacobian_q(self, q: np.ndarray) -> np.ndarray:
        """``D``: derivative of ``[x_i, y_i, theta_i]`` with respect to ``q``, (..., 3n, k)."""
        axes = self.axes(self.theta(q))
        d = np.zeros(axes.shape[:-2] + (self.n, 3, self.k))
        per_angle = lever_jacobian(self.topology.com_lever, axes, None)  # (..., n, 2, n)
        if self._embedded is None:
            d[..., :2, :] = per_angle @ self.A
        else:
            d[..., :2, self._embedded] = per_angle
        if self.floating:
            d[..., 0, 0] = 1.0
            d[..., 1, 1] = 1.0
        d[..., 2, :] = self.A
        return d.reshape(d.shape[:-3] + (3 * self.n, self.k))

    def gamma(self, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        """``Ddot qd``: the accelerations (..., 3n) at ``qdd = 0``."""
        w = qd @ self.A.T
        acc = points_on_segments(self.topology.com_lever, self.axes(self.theta(q)), w,
                                 np.zeros_like(w))[2]
        out = np.concatenate([acc, np.zeros(acc.shape[:-1] + (1,))], axis=-1)
        return out.reshape(acc.shape[:-2] + (3 * self.n,))

    def mass_diagonal(self) -> np.ndarray:
        """``diag(m_1, m_1, I_1, ...)``, shape (3n,)."""
        return np.stack([self.masses, self.masses, self.inertias], axis=-1).reshape(-1)

    def jacobian_z(self) -> np.ndarray:
        """``Z = dp/dz`` (the paper's ``E``): each segment's translation per joint, (3n, 2 nj)."""
        e = np.zeros((self.n, 3, self.nj, 2))
        e[:, 0, :, 0] = self.topology.subtree
        e[:, 1, :, 1] = self.topology.subtree
        return e.reshape(3 * self.n, 2 * self.nj)

    def path_loads(self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, path: list[int],
                   levers: np.ndarray, force: np.ndarray, moment: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Run the upward Newton-Euler recursion along ``path`` (segment indices).

        ``force`` [N] and ``moment`` [N m] act on ``path[0]`` at the point of lever row
        ``levers[0]``; segment ``path[j]`` passes its load on at ``levers[j + 1]``. Returns
        the load ON each segment of the path at its far point (``bmc._kernels.upward``).
        """
        r, _, a = self.com_kinematics(q, qd, qdd)
        alpha = (qdd @ self.A.T)[..., path]
        return upward(r[..., path, :], a[..., path, :], alpha, self.masses[path],
                      self.inertias[path], self.points(q, levers), force, moment, self.g)

    # ------------------------------------------------------------------ dynamics
    def _project(self, x: np.ndarray, base: np.ndarray | None) -> np.ndarray:
        """Generalized forces from forces on the moving angles (..., nm) (and the base)."""
        out = x if self._identity else x @ self._am
        if base is not None:
            out[..., :2] += base
        return out

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        """``M(q)`` in the model's coordinates, (..., k, k)."""
        psi = q @ self._am_t + self._psi0m
        mpsi = self.Bm * np.cos(psi[..., :, None] - psi[..., None, :]) + self._Im
        am = self._am
        m = mpsi if self._identity else self._am_t @ mpsi @ am
        if self.floating:
            en = self.first[:, None] * perp(np.stack([np.cos(psi), np.sin(psi)], axis=-1))
            coupling = np.swapaxes(en, -1, -2) @ am  # (..., 2, k)
            m[..., :2, :] += coupling
            m[..., :, :2] += np.swapaxes(coupling, -1, -2)
            m[..., 0, 0] += self.total
            m[..., 1, 1] += self.total
        return m

    def bias(self, q: np.ndarray, qd: np.ndarray, *, velocity: bool = True,
             gravity: bool = True) -> np.ndarray:
        """``h(q, qd)`` (velocity and gravity terms) in the model's coordinates, (..., k)."""
        psi = q @ self._am_t + self._psi0m
        w = qd @ self._am_t
        base = np.zeros(np.broadcast_shapes(psi.shape, w.shape)[:-1] + (2,)) \
            if self.floating else None
        h = self._gsm * np.cos(psi) if gravity else np.zeros_like(psi)
        if velocity:
            coupling = self.Bm * np.sin(psi[..., :, None] - psi[..., None, :])
            h = h + (coupling @ (w * w)[..., None])[..., 0]
            if base is not None:
                e = np.stack([np.cos(psi), np.sin(psi)], axis=-1)
                base = base - np.einsum("i,...i,...id->...d", self.first, w**2, e)
        if gravity and base is not None:
            base = base + np.array([0.0, self.total * self.g])
        return self._project(h, base)

    def forces(self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, *,
               torques: bool = False) -> np.ndarray:
        """``M qdd + h`` (..., k), or for a fixed base the joint torques (..., nj), blocked."""
        q, qd, qdd = np.broadcast_arrays(q, qd, qdd)
        shape = q.shape[:-1]
        project = self._torques if torques else self._generalized
        out = blocked_forces(q.reshape(-1, self.k), qd.reshape(-1, self.k),
                             qdd.reshape(-1, self.k), project=project, **self._blocked)
        return out.reshape(shape + (project.shape[0],))

    def load_forces(self, q: np.ndarray, levers: np.ndarray, segment: int, force: np.ndarray,
                    moment: np.ndarray | float) -> np.ndarray:
        """Return ``J^T F + A[segment] M`` (..., k): the generalized forces of a load.

        ``force`` acts at the point of lever row ``levers`` (n,), the free ``moment`` on
        ``segment``.
        """
        jac = self.point_jacobian(q, levers[None])[..., 0, :, :]  # (..., 2, k)
        return (np.einsum("...dk,...d->...k", jac, force)
                + np.multiply.outer(np.asarray(moment), self.A[segment]))

    def applied(self, q: np.ndarray, torques: np.ndarray | None,
                contact: tuple[int, float] | None, force: np.ndarray | None,
                moment: np.ndarray | None) -> np.ndarray:
        """Return the applied forces ``h`` on ``[x_i, y_i, theta_i]`` (..., 3n)."""
        shapes = [q.shape[:-1]] + [x.shape[:-1] for x in (torques, force) if x is not None]
        if moment is not None:
            shapes.append(moment.shape)
        lead = np.broadcast_shapes(*shapes)
        h = np.zeros(lead + (self.n, 3))
        h[..., 1] = -self.masses * self.g
        if torques is not None:
            h[..., 2] += torques @ self.topology.torque_map.T
        if contact is not None:
            i, dist = contact
            e = self.axes(self.theta(q))[..., i, :]
            if force is not None:
                h[..., i, :2] += force
                h[..., i, 2] += cross((dist - self.com[i]) * e, force)
            if moment is not None:
                h[..., i, 2] += moment
        return h.reshape(lead + (3 * self.n,))

    def base_reaction_terms(self, q: np.ndarray, qd: np.ndarray
                            ) -> tuple[np.ndarray, np.ndarray]:
        """``C`` (..., 3, k) and ``d`` (..., 3) of the load ``[T, Fx, Fy]`` at the base point.

        The load the environment exerts on the model at its base point (moment about it,
        force) when nothing else acts on it: ``C qdd + d`` by the momentum balances. With
        ``a_i = sum_j L_ij psidd_j perp(e_j) + ...`` the force needs the first moments
        ``s_j = sum_i m_i L_ij`` and the moment ``sum_i m_i L_ij (r_i - r_B) . e_j``.
        """
        e = self.axes(self.theta(q))
        c, s = e[..., 0], e[..., 1]
        m, lever = self.masses, self.topology.com_lever
        w2 = qd @ self.A.T
        w2 = w2 * w2
        # centres of mass relative to the base point and their centripetal accelerations
        # (qdd = 0): sums over the levers, (frames, n) @ (n, n) products on components
        x, y = c @ lever.T, s @ lever.T
        ax, ay = -(w2 * c) @ lever.T, -(w2 * s) @ lever.T
        # the force: sum_i m_i a_i = sum_j s_j psidd_j perp(e_j) (+ M a_B), s_j = sum_i m_i L_ij
        first = m @ lever
        c_force = np.stack([(-s * first) @ self.A, (c * first) @ self.A], axis=-2)
        if self.floating:
            c_force[..., 0, 0] += self.total
            c_force[..., 1, 1] += self.total
        # the moment about B: sum_j (I_j + sum_i m_i L_ij (r_i - r_B) . e_j) psidd_j
        arm = c * ((x * m) @ lever) + s * ((y * m) @ lever)
        c_torque = (self.inertias + arm) @ self.A
        if self.floating:  # and the moment of sum_i m_i a_B about B
            c_torque[..., 0] -= y @ m
            c_torque[..., 1] += x @ m
        C = np.concatenate([c_torque[..., None, :], c_force], axis=-2)
        d = np.stack([(x * (ay + self.g) - y * ax) @ m, ax @ m,
                      ay @ m + self.total * self.g], axis=-1)
        return C, d

    def contact_solution(self, q: np.ndarray, generalized: np.ndarray, segment: int,
                         distance: float, force: np.ndarray | None,
                         moment: np.ndarray | None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Contact load, joint torques and residual of a floating base from ``M qdd + h``."""
        rhs = generalized
        R = rhs[..., :2] if force is None else np.broadcast_to(force, rhs.shape[:-1] + (2,))
        lever = self.lever_row(segment, distance)
        rest = rhs - self.load_forces(q, lever, segment, R, 0.0)
        angles = rest[..., 2:]
        total = angles.sum(axis=-1)  # whole-body moment balance: the torques cancel
        Mc = total if moment is None else np.broadcast_to(moment, total.shape)
        angles = angles.copy()
        angles[..., segment] -= Mc
        B = self.topology.torque_map
        tau = np.linalg.solve(B[1:], angles[..., 1:, None])[..., 0]
        resid = np.concatenate([rest[..., :2], angles[..., :1] - tau @ B[0][:, None]], axis=-1)
        return R, Mc, tau, resid

    def constraints(self, p: np.ndarray, *, values: bool = True
                    ) -> tuple[np.ndarray | None, np.ndarray]:
        """Return the constraints ``Phi(p)`` (..., c) and their Jacobian ``C`` (..., c, 3n).

        Rows: each pin joint (x, y: the child's proximal joint from the child's
        coordinates minus the same point from the parent's, or the base point), then for a
        fixed base whose root does not turn the base point (x, y) and every segment whose
        angle is fixed (one row each).
        """
        n = self.n
        pp = p.reshape(p.shape[:-1] + (n, 3))
        e = self.axes(pp[..., 2])
        en = perp(e)
        t = self.topology
        lead = p.shape[:-1]
        pins = [(int(c), int(b)) for c, b in zip(t.joint_child, t.joint_parent, strict=True)]
        if not self.floating and (not pins or pins[0][1] >= 0):
            pins.append((0, -1))  # a welded root: its base point is held too
        fixed = np.flatnonzero(~np.any(self.A != 0.0, axis=1))
        rows = 2 * len(pins) + fixed.size
        phi = np.empty(lead + (rows,)) if values else None
        jac = np.zeros(lead + (rows, n, 3))
        for j, (ch, b) in enumerate(pins):  # joints (model size), not frames
            xy = slice(2 * j, 2 * j + 2)
            # the child's proximal joint from the child's coordinates minus the same point
            # from the parent's (or the base point)
            jac[..., 2 * j, ch, 0] = jac[..., 2 * j + 1, ch, 1] = 1.0
            jac[..., xy, ch, 2] = -self.com[ch] * en[..., ch, :]
            arm = float(t.lever[ch, b]) - self.com[b] if b >= 0 else 0.0
            if b >= 0:
                jac[..., 2 * j, b, 0] = jac[..., 2 * j + 1, b, 1] = -1.0
                jac[..., xy, b, 2] = -arm * en[..., b, :]
            if phi is not None:
                point = pp[..., ch, :2] - self.com[ch] * e[..., ch, :]
                phi[..., xy] = point - (pp[..., b, :2] + arm * e[..., b, :] if b >= 0
                                        else self.base)
        for r, i in enumerate(fixed, start=2 * len(pins)):
            if phi is not None:
                phi[..., r] = pp[..., i, 2] - self.theta0[i]
            jac[..., r, i, 2] = 1.0
        return phi, jac.reshape(lead + (rows, 3 * n))
