r"""A generated back somersault on Blajer and Czaplicki's seven-segment human model.

:func:`somersault` generates, on :func:`bmc.models.human.human_model`, a
back somersault in pike from a compliant trampoline bed: the body shape follows a smooth
program, the hip position and the trunk angle follow from the whole-body Newton-Euler
equations, so the result is dynamically consistent by construction. It comes back as a
:class:`Motion`, which holds everything that inverse dynamics and the joint reactions of
:mod:`bmc.reactions` need.

Conventions as in :mod:`bmc.tree`: SI units; x forward, y up; gravity ``g > 0`` along
-y; angles in radians, counter-clockwise positive, measured from the vertical (notebook 5's
``psi_i``: from the upward vertical for trunk and head, the downward vertical for the
limbs); generalised coordinates ``q = [x_H, y_H, psi_1, ..., psi_7]`` (hip position, segment
angles); **axis 0 is time**. The force of the bed on the feet is notebook 5's
``F_bed = (F_bed,x, F_bed,y)`` (the paper's ``R_x``, ``R_y``).

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
.. [2] W. Blajer, A. Czaplicki, "Modeling and inverse simulation of somersaults on the
   trampoline", *Journal of Biomechanics* 34, 1619-1629, 2001.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import number, plausible, positive, tolerance
from bmc.kinematics import cross2, minimum_jerk_profile, perp
from bmc.models.human import SEGMENTS, human_model
from bmc.planar import InverseDynamics
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

    def contact_inverse_dynamics(self, *, contact_force: ArrayLike | None = None
                                 ) -> InverseDynamics:
        """Inverse dynamics of the motion at its contact point (eq. 2.9).

        The bed's force and free moment are computed from the motion, or the force given
        (e.g. a noisy measurement) is used and the moment computed:
        :meth:`bmc.planar.PlanarModel.contact_inverse_dynamics` with this motion's ``q``,
        ``qd``, ``qdd`` and ``contact_point``.
        """
        return self.model.contact_inverse_dynamics(self.q, self.qd, self.qdd,
                                                   contact_point=self.contact_point,
                                                   contact_force=contact_force)

    def reactions_newton_euler(self) -> tuple[np.ndarray, np.ndarray]:
        """Leg reactions and torques by the Newton-Euler recursion from the bed's load.

        :func:`bmc.reactions.reactions_newton_euler` with this motion's state, contact
        force, contact point and free moment: reactions (N, 6) [N] and torques (N, 3)
        [N m] at hip, knee and ankle.
        """
        from bmc.reactions import reactions_newton_euler

        return reactions_newton_euler(self.model, self.q, self.qd, self.qdd,
                                      self.contact_force, self.contact_point,
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

    Each step is a minimum-jerk step (:func:`bmc.kinematics.minimum_jerk_profile`), with
    zero rate and acceleration at both ends, so angles, rates and accelerations are
    continuous.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    val, slope, curv = minimum_jerk_profile((t[:, None] - _STEP_T0) / _STEP_T)
    psi = _SHAPE_START + (val * _STEP_DELTA) @ _STEP_TO_JOINT
    dpsi = (slope * (_STEP_DELTA / _STEP_T)) @ _STEP_TO_JOINT
    return psi, dpsi, (curv * (_STEP_DELTA / _STEP_T**2)) @ _STEP_TO_JOINT


def _assemble(model: PlanarTree, base: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, ...]:
    """q, qd and the known part of qdd from base states (N, 6) and the shape program."""
    psi, dpsi, ddpsi = _shape(t)
    St = model.path[1:].T
    q = np.concatenate([base[:, :3], base[:, 2:3] + psi @ St], axis=1)
    qd = np.concatenate([base[:, 3:], base[:, 5:6] + dpsi @ St], axis=1)
    qdd0 = np.concatenate([np.zeros((t.size, 3)), ddpsi @ St], axis=1)
    return q, qd, qdd0


@dataclass(frozen=True)
class _Bed:
    """The trampoline bed and where and how it pushes (see :func:`somersault`)."""

    dist: float  # contact point P on the foot, from the ankle [m]
    stiffness: float  # [N/m]
    lean: float  # length over which the force leans toward the origin [m]
    lever: float  # moment arm of the vertical force about G beyond the lean [m]


def _height(model: PlanarTree, bed: _Bed, t: float, base: np.ndarray) -> float:
    """Return the height of the contact point P above the bed [m] for one base state."""
    q, _, _ = _assemble(model, base[None], np.array([t]))
    return float(model.point(q, "foot", bed.dist)[0, 1])


def _dynamics(model: PlanarTree, bed: _Bed, t: np.ndarray, base: np.ndarray,
              contact: np.ndarray) -> tuple[np.ndarray, ...]:
    """Return the motion at times t (N,) from base states (N, 6): q, qd, qdd, bed load.

    The shape program fixes every joint; the base accelerations ``[xdd_B, ydd_B,
    psidd_root]`` follow from the whole-body Newton-Euler equations. Linear momentum:
    ``sum m_i a_i = F_bed + sum m_i g``; angular momentum about the whole-body centre of mass
    G: ``sum (J_i psidd_i + m_i (r_i - r_G) x a_i) = M_G``, the moment of the bed's load
    about G. The centres of mass move as ``a_i = a_B + a0_i + b_i psidd_root``
    (:meth:`PlanarTree.kinematics`): ``a0`` with the base held and the body not turning,
    ``b = k x (r_i - r_B)`` the velocity of each centre of mass when the whole body turns
    rigidly about the base B at 1 rad/s.
    ``sum m_i (r_i - r_G) = 0`` takes ``a_B`` out of the moment equation, which gives
    ``psidd_root`` first. ``contact`` (N,) switches the bed on. (In the code ``R`` is
    ``F_bed`` and ``phidd`` is ``psidd_root``.)
    """
    q, qd, qdd = _assemble(model, base, t)
    m, J, mt = model.masses, model.inertias, model.total_mass
    r, _, a0 = model.kinematics(q, qd, qdd)
    b = perp(r - q[:, None, :2])  # a rigid turn about B at 1 rad/s: b_i = k x (r_i - r_B)
    rG = m @ r / mt
    rp = model.point(q, "foot", bed.dist)
    depth = np.where(contact, np.maximum(-rp[:, 1], 0.0), 0.0)
    R = bed.stiffness * depth[:, None] * np.stack([-rp[:, 0] / bed.lean,
                                                   np.ones_like(depth)], -1)
    arm = cross2(rp - rG, R)  # moment of R at P about G
    moment = bed.lever * R[:, 1] + COP_FOLLOW * arm
    rho = r - rG[:, None]
    phidd = (moment - qdd[:, 2:] @ J - cross2(rho, a0) @ m) / (J.sum() + cross2(rho, b) @ m)
    linear = R + np.array([0.0, -mt * model.g]) - m @ a0 - (m @ b) * phidd[:, None]
    qdd[:, :2] = linear / mt
    qdd[:, 2:] += phidd[:, None]
    return q, qd, qdd, R, moment - arm


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
    length from the ankle: trampolinists land flat-footed): ``F_bed = k d (-x_P / L, 1)``, with
    ``d`` the depth of ``P`` below the bed's surface and ``L = 10 m`` (the force leans
    slightly toward the point of first contact, the origin). At touchdown the athlete is in
    a half squat (knees flexed 69 deg) with the trunk leaning forward by 0.32 rad, which
    puts the centre of mass G above ``P``, and the body does not rotate; the knees extend
    late in the contact, after the peak bed force. The knees stay ahead of the centre of
    pressure and the hips behind it while the bed pushes hard, so the net moments are knee
    and hip extensor and ankle plantarflexor ones, as in a two-legged jump.

    The centre of pressure is not fixed at ``P``: it lies between ``P`` (weight
    ``COP_FOLLOW = 0.65``) and the point below G (weight 0.35), and ``lever`` further
    forward, so that the bed's moment about G is ``lever F_bed,y + 0.65 (r_P - r_G) x F_bed``.
    With a fixed centre of pressure the stance would be an inverted pendulum whose outcome
    swings by turns for millimetres of lean; following the body's lean in part keeps it
    tunable and the centre of pressure on the foot. The model applies the load as ``F_bed``
    at ``P`` plus the free moment ``Motion.contact_moment`` on the foot.

    Accelerations are evaluated from the equations at every sample, so
    ``(q, qd, qdd, F_bed, contact_moment)`` satisfy eq. (2.9) to rounding error whatever the
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
    base[0, :2] = -model.point(q, "foot", dist)[0]
    q, qd, _ = _assemble(model, base, t0)
    _, H0 = com_and_momentum(q, qd)
    _, H1 = com_and_momentum(q, qd + np.r_[0.0, 0.0, np.ones(model.n)])
    base[0, 5] = -H0 / (H1 - H0)
    q, qd, _ = _assemble(model, base, t0)
    vG, _ = com_and_momentum(q, qd)
    base[0, 3:5] = np.array([float(drift), -speed]) - vG

    bed = _Bed(dist, stiffness, lean_len, float(lever))

    def rhs(t: float, y: np.ndarray, contact: bool) -> np.ndarray:
        _, _, qdd, _, _ = _dynamics(model, bed, np.array([t]), y[None], np.array([contact]))
        return np.concatenate([y[3:], qdd[0, :3]])

    def takeoff(t: float, y: np.ndarray, contact: bool) -> float:
        return _height(model, bed, t, y) if t > 0.05 else -1.0

    def landing(t: float, y: np.ndarray, contact: bool) -> float:
        return _height(model, bed, t, y) if t > 0.9 else 1.0

    takeoff.terminal, takeoff.direction = True, 1.0  # type: ignore[attr-defined]
    landing.terminal, landing.direction = True, -1.0  # type: ignore[attr-defined]
    opts = {"method": "DOP853", "rtol": rtol, "atol": rtol, "dense_output": True}
    sup = solve_ivp(rhs, (0.0, 1.0), base[0], events=takeoff, args=(True,), **opts)
    if sup.status != 1:
        raise RuntimeError(f"no take-off within 1 s of contact: {sup.message}")
    t_off = float(sup.t_events[0][0])
    fly = solve_ivp(rhs, (t_off, 4.0), sup.y[:, -1], events=landing, args=(False,), **opts)
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
    q, qd, qdd, R, moment = _dynamics(model, bed, t, y, contact)
    return Motion(model, t, q, qd, qdd, R, moment, contact, ("foot", dist), t_off)
