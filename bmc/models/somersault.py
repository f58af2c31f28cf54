r"""A generated back somersault on Blajer and Czaplicki's seven-segment human model.

:func:`somersault` generates, on :func:`bmc.models.human.human_model`, a
back somersault in pike from a compliant trampoline bed: the body shape follows a smooth
program, the hip position and the trunk angle follow from the whole-body Newton-Euler
equations, so the result is dynamically consistent by construction. It comes back as a
:class:`Motion`, which holds everything that inverse dynamics and the joint reactions of
:mod:`bmc.reactions` need.

Conventions as in :mod:`bmc.tree`: SI units; x forward, y up; gravity ``g > 0`` along
-y; angles in radians, counter-clockwise positive, measured from the vertical; generalised
coordinates ``q = [x_H, y_H, phi_1, ..., phi_7]`` (hip position, segment angles); **axis 0
is time**.

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
.. [2] W. Blajer, A. Czaplicki, "Modeling and inverse simulation of somersaults on the
   trampoline", *Journal of Biomechanics* 34, 1619-1629, 2001.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import number, plausible, positive, tolerance
from bmc.kinematics import cross2, perp
from bmc.models.human import SEGMENTS, human_model
from bmc.tree import PlanarTree

__all__ = ["Motion", "somersault"]


def __dir__() -> list[str]:
    return sorted(__all__)

# Tuned constants of the generated somersault
BED_CONTACT = 0.3  # contact point on the foot / foot length, from the ankle (mid-foot)
TOUCHDOWN_TRUNK = -0.32161  # trunk angle at touchdown [rad]: centre of mass above contact
COP_FOLLOW = 0.65  # weight of the contact point in the centre of pressure (see somersault)
LEVER = 0.026266  # moment arm of the bed force about the COM [m] (tuned: one somersault)
DRIFT = 0.246430  # forward COM speed at touchdown [m/s] (tuned: land where touched down)


# ------------------------------------------------------------------- generated somersault
@dataclass(frozen=True, eq=False)
class Motion:
    """A generated motion with everything inverse dynamics needs (axis 0 is time).

    Attributes
    ----------
    model : PlanarTree
    t : numpy.ndarray, shape (N,)
        Time [s].
    q, qd, qdd : numpy.ndarray, shape (N, k)
        Generalised coordinates [m, rad] and their derivatives.
    contact_force : numpy.ndarray, shape (N, 2)
        Force of the bed on the feet [N] (zero in flight), acting at ``contact_point``.
    contact_moment : numpy.ndarray, shape (N,)
        Free moment of the bed on the feet [N m]: the centre of pressure's shift from
        ``contact_point`` times the force (zero in flight).
    in_contact : numpy.ndarray of bool, shape (N,)
    contact_point : (str, float)
        The foot and the distance of the contact point from the ankle [m].
    takeoff : float
        Time of take-off [s].
    """

    model: PlanarTree
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    contact_force: np.ndarray
    contact_moment: np.ndarray
    in_contact: np.ndarray
    contact_point: tuple[str, float]
    takeoff: float

    def applied_forces(self, *, torques: ArrayLike | None = None,
                       contact_force: ArrayLike | None = None) -> np.ndarray:
        """Return ``h`` along the motion with these torques and contact force (default own)."""
        R = self.contact_force if contact_force is None else contact_force
        return self.model.applied_forces(self.q, torques=torques, contact_force=R,
                                         contact_point=self.contact_point,
                                         contact_moment=self.contact_moment)


# Relative joint angles (child minus parent) [rad] for hip, knee, ankle, shoulder, elbow,
# neck: the value at touchdown and then smooth steps (joint, start [s], end [s], change).
# Touchdown in a half squat (hip flexed 57 deg, knee 69 deg, ankle dorsiflexed 19 deg): the
# knees ahead of the centre of pressure, the hips behind it, so that knee and hip need
# extensor moments and the ankle a plantarflexor one while the bed pushes.
_SHAPE_START = np.array([1.0, -1.2, 1.9, 0.2, 0.4, 0.0])
_SHAPE_STEPS = (
    (0, 0.15, 0.45, -1.0), (1, 0.25, 0.45, 1.2), (2, 0.30, 0.45, np.pi / 2 - 2.6),
    (3, 0.00, 0.40, np.pi - 0.4), (4, 0.00, 0.30, -0.3), (5, 0.20, 0.45, 0.25),
    (0, 0.50, 0.80, 2.3), (3, 0.50, 0.80, -1.3), (5, 0.50, 0.80, -0.45),
    (0, 1.15, 1.45, -2.2), (3, 1.15, 1.45, 1.0), (5, 1.15, 1.45, 0.2),
    (1, 1.30, 1.50, -0.3), (2, 1.30, 1.50, 0.7),
)
_STEP_JOINT = np.array([j for j, *_ in _SHAPE_STEPS])
_STEP_T0 = np.array([t0 for _, t0, _, _ in _SHAPE_STEPS])
_STEP_T = np.array([t1 - t0 for _, t0, t1, _ in _SHAPE_STEPS])
_STEP_DELTA = np.array([d for *_, d in _SHAPE_STEPS])
_STEP_TO_JOINT = np.eye(6)[_STEP_JOINT]  # (steps, 6)


def _shape(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Relative joint angles and their first two derivatives at times t, each (N, 6).

    Each step is a quintic 0 -> 1 with zero slope and curvature at both ends, so angles,
    rates and accelerations are continuous.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    s = np.clip((t[:, None] - _STEP_T0) / _STEP_T, 0.0, 1.0)
    val = s**3 * (10 - 15 * s + 6 * s**2)
    rate = 30 * s**2 * (1 - s) ** 2 / _STEP_T
    acc = 60 * s * (1 - s) * (1 - 2 * s) / _STEP_T**2
    psi = _SHAPE_START + (val * _STEP_DELTA) @ _STEP_TO_JOINT
    return psi, (rate * _STEP_DELTA) @ _STEP_TO_JOINT, (acc * _STEP_DELTA) @ _STEP_TO_JOINT


def _assemble(model: PlanarTree, base: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, ...]:
    """q, qd and the known part of qdd from base states (N, 6) and the shape program."""
    psi, dpsi, ddpsi = _shape(t)
    St = model.path[1:].T
    q = np.concatenate([base[:, :3], base[:, 2:3] + psi @ St], axis=1)
    qd = np.concatenate([base[:, 3:], base[:, 5:6] + dpsi @ St], axis=1)
    qdd0 = np.concatenate([np.zeros((t.size, 3)), ddpsi @ St], axis=1)
    return q, qd, qdd0


def _contact_point(model: PlanarTree, q: np.ndarray, dist: float) -> np.ndarray:
    """Contact point on the foot, (N, 2), without argument checks (inner loop)."""
    row = model.lever[3].copy()
    row[3] += dist
    return q[:, :2] + row @ model.axes(q[:, 2:])


def _bed_force(model: PlanarTree, q: np.ndarray, dist: float, stiffness: float,
               lean: float) -> tuple[np.ndarray, np.ndarray]:
    """Force of the spring bed on the contact point, and the point; (N, 2) each."""
    rp = _contact_point(model, q, dist)
    depth = np.maximum(-rp[:, 1], 0.0)
    R = stiffness * depth[:, None] * np.stack([-rp[:, 0] / lean, np.ones_like(depth)], -1)
    return R, rp


def _base_acceleration(model: PlanarTree, q: np.ndarray, qd: np.ndarray, qdd0: np.ndarray,
                       R: np.ndarray, torque: np.ndarray) -> np.ndarray:
    """Solve the whole-body Newton-Euler equations for [xdd_B, ydd_B, phidd_root], (N, 3).

    Linear momentum: ``sum m_i a_i = R + sum m_i g``; angular momentum about the whole-body
    COM G: ``sum (J_i phidd_i + m_i (r_i - r_G) x a_i) = torque`` (of the contact load
    about G). Each COM
    acceleration is ``a_i = a_B + a0_i + b_i phidd_root`` (direct kinematics, no ``D``):
    ``a0`` from the prescribed shape, ``b_i`` the effect of turning the whole body. Since
    ``sum m_i (r_i - r_G) = 0`` the base acceleration drops out of the moment equation, which
    gives ``phidd_root`` first.
    """
    m, J, mt, rc = model.masses, model.inertias, model.total_mass, model.com_lever
    e = model.axes(q[:, 2:])
    en = perp(e)
    w, al0 = qd[:, 2:, None], qdd0[:, 2:, None]
    r = q[:, None, :2] + rc @ e
    rho = r - (m @ r / mt)[:, None]
    a0 = rc @ (al0 * en - w**2 * e)
    b = rc @ en
    ang0 = qdd0[:, 2:] @ J + cross2(rho, a0) @ m
    angb = J.sum() + cross2(rho, b) @ m
    phidd = (torque - ang0) / angb
    lin = R + np.array([0.0, -mt * model.g]) - m @ a0 - (m @ b) * phidd[:, None]
    return np.concatenate([lin / mt, phidd[:, None]], axis=1)


class _ScalarModel:
    """Plain-Python one-frame version of :func:`_base_acceleration` for the integrator.

    NumPy's per-call overhead dominates for seven segments and one frame; this loop over the
    tree is several times faster. A test checks it against the vectorised function.
    """

    def __init__(self, model: PlanarTree, dist: float, stiffness: float, lean: float,
                 lever: float):
        self.parent = model.parent
        self.dir = [float(d) for d in model.direction]
        self.att = [float(a) for a in model.attach]
        self.com = [float(c) for c in model.com]
        self.m = [float(x) for x in model.masses]
        self.J = [float(x) for x in model.inertias]
        self.mt, self.g, self.n = model.total_mass, model.g, model.n
        self.dist, self.k, self.lean, self.lever = dist, stiffness, lean, lever
        self.steps = list(zip(_STEP_JOINT.tolist(), _STEP_T0.tolist(), _STEP_T.tolist(),
                              _STEP_DELTA.tolist(), strict=True))

    def _frame(self, t: float, y: Sequence[float]):
        psi = _SHAPE_START.tolist()
        dpsi, ddpsi = [0.0] * 6, [0.0] * 6
        for j, t0, T, d in self.steps:
            s = (t - t0) / T
            if s <= 0.0:
                continue
            if s >= 1.0:
                psi[j] += d
                continue
            psi[j] += d * s**3 * (10.0 - 15.0 * s + 6.0 * s * s)
            dpsi[j] += d * 30.0 * s * s * (1.0 - s) ** 2 / T
            ddpsi[j] += d * 60.0 * s * (1.0 - s) * (1.0 - 2.0 * s) / (T * T)
        phi, w, al = [y[2]], [y[5]], [0.0]
        ex, ey = [-self.dir[0] * math.sin(y[2])], [self.dir[0] * math.cos(y[2])]
        P = [(0.0, 0.0)]
        for i in range(1, self.n):
            b = self.parent[i]
            phi.append(phi[b] + psi[i - 1])
            w.append(w[b] + dpsi[i - 1])
            al.append(al[b] + ddpsi[i - 1])
            ex.append(-self.dir[i] * math.sin(phi[i]))
            ey.append(self.dir[i] * math.cos(phi[i]))
            P.append((P[b][0] + self.att[i] * ex[b], P[b][1] + self.att[i] * ey[b]))
        return w, al, ex, ey, P

    def height(self, t: float, y: Sequence[float]) -> float:
        """Height of the contact point [m]."""
        _, _, ex, ey, P = self._frame(t, y)
        return y[1] + P[3][1] + self.dist * ey[3]

    def rhs(self, t: float, y: Sequence[float], contact: bool) -> list[float]:
        """Time derivative of the base state [x, y, phi, xd, yd, phid]."""
        w, al, ex, ey, P = self._frame(t, y)
        n, m, c = self.n, self.m, self.com
        A, B = [(0.0, 0.0)], [(0.0, 0.0)]
        for i in range(1, n):
            b, a = self.parent[i], self.att[i]
            A.append((A[b][0] + a * (-al[b] * ey[b] - w[b] ** 2 * ex[b]),
                      A[b][1] + a * (al[b] * ex[b] - w[b] ** 2 * ey[b])))
            B.append((B[b][0] - a * ey[b], B[b][1] + a * ex[b]))
        rx = [P[i][0] + c[i] * ex[i] for i in range(n)]
        ry = [P[i][1] + c[i] * ey[i] for i in range(n)]
        gx = sum(m[i] * rx[i] for i in range(n)) / self.mt
        gy = sum(m[i] * ry[i] for i in range(n)) / self.mt
        angb = sum(self.J)
        ang0 = sum(self.J[i] * al[i] for i in range(n))
        lx = ly = mbx = mby = 0.0
        for i in range(n):
            a0x = A[i][0] + c[i] * (-al[i] * ey[i] - w[i] ** 2 * ex[i])
            a0y = A[i][1] + c[i] * (al[i] * ex[i] - w[i] ** 2 * ey[i])
            bx, by = B[i][0] - c[i] * ey[i], B[i][1] + c[i] * ex[i]
            px, py = rx[i] - gx, ry[i] - gy
            ang0 += m[i] * (px * a0y - py * a0x)
            angb += m[i] * (px * by - py * bx)
            lx, ly = lx + m[i] * a0x, ly + m[i] * a0y
            mbx, mby = mbx + m[i] * bx, mby + m[i] * by
        Rx = Ry = torque = 0.0
        if contact:
            cx = P[3][0] + self.dist * ex[3]
            cy = P[3][1] + self.dist * ey[3]
            depth = max(-(y[1] + cy), 0.0)
            Rx, Ry = -self.k * depth * (y[0] + cx) / self.lean, self.k * depth
            torque = (self.lever * Ry
                      + COP_FOLLOW * ((cx - gx) * Ry - (cy - gy) * Rx))
        phidd = (torque - ang0) / angb
        return [y[3], y[4], y[5], (Rx - lx - mbx * phidd) / self.mt,
                (Ry - self.mt * self.g - ly - mby * phidd) / self.mt, phidd]


def somersault(model: PlanarTree | None = None, *, freq: float = 250.0,
               lever: float = LEVER, drift: float = DRIFT, speed: float = 6.1,
               stiffness: float = 3100.0, rtol: float = 1e-8) -> Motion:
    """Generate a back somersault in pike from a compliant bed, dynamically consistent.

    The body shape (six relative joint angles) follows a smooth program: knees and hips
    extend and the arms swing up on the bed, the hips flex into a pike in flight and open
    again before landing. The hip position and the trunk angle are **not** prescribed:
    they follow from the whole-body Newton-Euler equations under gravity and the bed's
    load, integrated with :func:`scipy.integrate.solve_ivp`.

    The athlete faces +x (toes forward; the knee flexes as the shank turns clockwise). The
    bed is a spring under the middle of the foot ``P`` (``BED_CONTACT`` = 0.3 of the foot
    length from the ankle: trampolinists land flat-footed): ``R = k d (-x_P / L, 1)``, with
    ``d`` the depth of ``P`` below the bed's surface and ``L = 10 m`` (the force leans
    slightly toward the point of first contact, the origin). At touchdown the athlete is in
    a half squat (knees flexed 69 deg) with the trunk leaning forward by 0.32 rad, which
    puts the centre of mass G above ``P``, and the body does not rotate; the knees extend
    late in the contact, after the peak bed force. The knees stay ahead of the centre of
    pressure and the hips behind it while the bed pushes hard, so the net moments are knee
    and hip extensor and ankle plantarflexor ones, as in a two-legged jump.

    The centre of pressure is not fixed at ``P``: it lies between ``P`` (weight
    ``COP_FOLLOW = 0.65``) and the point below G (weight 0.35), and ``lever`` further
    forward, so that the bed's moment about G is ``lever R_y + 0.65 (r_P - r_G) x R``. With a
    fixed centre of pressure the stance would be an inverted pendulum whose outcome swings
    by turns for millimetres of lean; following the body's lean in part keeps it tunable
    and the centre of pressure on the foot. The model applies the
    load as ``R`` at ``P`` plus the free moment ``Motion.contact_moment`` on the foot.

    Accelerations are evaluated from the equations at every sample, so
    ``(q, qd, qdd, R, contact_moment)`` satisfy eq. (2.9) to rounding error whatever the
    integration error.

    Parameters
    ----------
    model : PlanarTree, optional
        Default :func:`human_model` (60 kg, 1.70 m, male).
    freq : float, optional
        Sampling rate of the returned motion [Hz] (default 250).
    lever : float, optional
        Moment arm [m] of the vertical bed force about G beyond what the lean gives,
        positive for backward rotation. The default is tuned, with ``drift``, for one
        somersault by the landing.
    drift : float, optional
        Forward COM speed at touchdown [m/s]. The default is tuned so that the feet land
        where they touched down.
    speed : float, optional
        Downward COM speed at touchdown [m/s] (default 6.1, a 1.9 m fall).
    stiffness : float, optional
        Bed stiffness ``k`` [N/m] (default 3100; about 0.5 s of contact for 60 kg).
    rtol : float, optional
        Relative (and absolute) tolerance of the integration (default 1e-8).

    Returns
    -------
    Motion
        From touchdown (t = 0) to the next landing.

    Examples
    --------
    >>> mo = somersault(freq=100.0)
    >>> round(mo.takeoff, 2), round(float((mo.q[-1, 2] - mo.q[0, 2]) / (2 * np.pi)), 2)
    (0.5, 1.0)
    """
    from scipy.integrate import solve_ivp

    model = human_model() if model is None else model
    if not isinstance(model, PlanarTree):
        raise TypeError(f"model must be a PlanarTree from human_model(); got "
                        f"{type(model).__name__}")
    if model.names != SEGMENTS:
        raise ValueError(f"somersault needs the human_model() layout {SEGMENTS}; "
                         f"got {model.names}")
    freq = positive(freq, "freq", unit="Hz")
    speed = plausible(positive(speed, "speed", unit="m/s"), "speed", unit="m/s", low=0.5,
                      high=20.0,
                      quantity="touchdown speed on a trampoline (a fall of 1 cm to 20 m)",
                      units={"km/h": 1 / 3.6, "cm/s": 0.01})
    stiffness = positive(stiffness, "stiffness", unit="N/m")
    lever = number(lever, "lever", unit="m")
    drift = number(drift, "drift", unit="m/s")
    rtol = tolerance(rtol, "rtol", upper=1e-2)
    lean_len = 10.0
    dist = BED_CONTACT * model.lengths[3]
    m, mt = model.masses, model.total_mass

    def com_and_momentum(q: np.ndarray, qd: np.ndarray) -> tuple[np.ndarray, float]:
        r, v, _ = model.kinematics(q, qd, np.zeros_like(q))
        vG = m @ v[0] / mt
        H = model.inertias @ qd[0, 2:] + m @ cross2(r[0] - m @ r[0] / mt, v[0] - vG)
        return vG, float(H)

    # touchdown: contact point at the origin, COM falling at `speed`, no angular momentum
    t0 = np.zeros(1)
    base = np.array([[0.0, 0.0, TOUCHDOWN_TRUNK, 0.0, 0.0, 0.0]])
    q, qd, _ = _assemble(model, base, t0)
    base[0, :2] = -_contact_point(model, q, dist)[0]
    q, qd, _ = _assemble(model, base, t0)
    _, H0 = com_and_momentum(q, qd)
    _, H1 = com_and_momentum(q, qd + np.r_[0.0, 0.0, np.ones(model.n)])
    base[0, 5] = -H0 / (H1 - H0)
    q, qd, _ = _assemble(model, base, t0)
    vG, _ = com_and_momentum(q, qd)
    base[0, 3:5] = np.array([float(drift), -speed]) - vG

    fast = _ScalarModel(model, dist, stiffness, lean_len, float(lever))

    def takeoff(t: float, y: np.ndarray, contact: bool) -> float:
        return fast.height(t, y) if t > 0.05 else -1.0

    def landing(t: float, y: np.ndarray, contact: bool) -> float:
        return fast.height(t, y) if t > 0.9 else 1.0

    takeoff.terminal, takeoff.direction = True, 1.0  # type: ignore[attr-defined]
    landing.terminal, landing.direction = True, -1.0  # type: ignore[attr-defined]
    opts = {"method": "DOP853", "rtol": rtol, "atol": rtol, "dense_output": True}
    sup = solve_ivp(fast.rhs, (0.0, 1.0), base[0], events=takeoff, args=(True,), **opts)
    if sup.status != 1:
        raise RuntimeError(f"no take-off within 1 s of contact: {sup.message}")
    t_off = float(sup.t_events[0][0])
    fly = solve_ivp(fast.rhs, (t_off, 4.0), sup.y[:, -1], events=landing, args=(False,), **opts)
    if fly.status != 1:
        raise RuntimeError(
            f"no landing between 0.9 s and 4 s after touchdown at speed = {speed:g} m/s: the "
            "flight is too short or too long for this model; take a speed of 2 to 12 m/s"
        )
    t_end = float(fly.t[-1])

    t = np.arange(0.0, t_end, 1.0 / freq)
    contact = t <= t_off
    y = np.empty((t.size, 6))
    y[contact] = sup.sol(t[contact]).T
    y[~contact] = fly.sol(t[~contact]).T
    q, qd, qdd0 = _assemble(model, y, t)
    R, rp = _bed_force(model, q, dist, stiffness, lean_len)
    R[~contact] = 0.0
    r, _, _ = model.kinematics(q, qd, qdd0)
    arm = cross2(rp - m @ r / mt, R)  # moment of R at P about the centre of mass
    torque = float(lever) * R[:, 1] + COP_FOLLOW * arm
    acc = _base_acceleration(model, q, qd, qdd0, R, torque)
    qdd = qdd0.copy()
    qdd[:, :2] = acc[:, :2]
    qdd[:, 2:] += acc[:, 2:3]
    return Motion(model, t, q, qd, qdd, R, torque - arm, contact, ("foot", dist), t_off)
