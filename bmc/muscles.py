"""Muscle paths on a planar chain: musculotendon lengths and moment arms.

A muscle is drawn as a polyline through attachment points (origin, via points, insertion),
each fixed in one body: the base (the trunk, body 0) or segment ``k`` (body ``k``, 1-based).
A point is given in its body's frame as ``(u, v)`` [m]: ``u`` along the segment from its
proximal joint, ``v`` perpendicular to it, positive on the counter-clockwise side (for the
base, ``u`` along +x and ``v`` along +y from the first joint).

The moment arm of muscle ``i`` about joint ``j`` is ``R[i, j] = dL_i / dq_j`` (virtual work:
the power a muscle of tension ``F_i`` delivers, ``-F_i dL_i/dt``, equals the joint torques'
power ``tau . qd``), so that with the course's convention (counter-clockwise positive) the
joint torques of the muscle forces are ``tau = -R^T F``. A muscle that shortens when a joint
angle grows (a flexor, for the arm seen from its right side) has a negative ``R[i, j]`` and
a positive (counter-clockwise, flexing) torque.

:func:`muscle_length` and :func:`moment_arms` work on one frame or ``N`` frames (axis 0 is
time). The moment arms are checked against a finite difference of the length and against
the perpendicular distance from the joint to the line of action.

:func:`contact_force` turns a net joint force and moment (inverse dynamics) into a muscle
tension and the bone-on-bone force when one muscle carries the moment, and
:func:`compression_shear` resolves a joint force in a segment's frame.

**Muscle-driven motion.** A Hill-type muscle (:class:`HillMuscle`) turns a neural
excitation ``u(t)`` into force in three steps, each a function here: activation dynamics
(:func:`activation_rate`), the contractile element's force-length and force-velocity curves
(:func:`force_length`, :func:`force_velocity`) with a parallel elastic element
(:func:`passive_force`), and an elastic tendon in series (:func:`tendon_force`). The curves
are those of Thelen (2003), the model of OpenSim's ``Thelen2003Muscle``; fibres are taken
parallel to the tendon (no pennation). :func:`simulate_muscle` drives a chain with one
muscle: state ``q, qd``, activation ``a`` and fibre length; the tendon force ``F_T`` acts
on the joints as ``tau = -R^T F_T``. :func:`holding_activation` gives the activation that
holds a posture against gravity.

Normalised quantities: fibre length ``l / l_opt``, fibre velocity ``v / (v_max l_opt)``
(lengthening positive), forces ``F / F0``, tendon strain ``(l_T - l_ts) / l_ts``.

References
----------
Thelen DG (2003). Adjustment of muscle mechanics model parameters to simulate dynamic
contractions in older adults. *Journal of Biomechanical Engineering* 125(1), 70-77.

Holzbaur KRS, Murray WM, Delp SL (2005). A model of the upper extremity for simulating
musculoskeletal surgery and analyzing neuromuscular control. *Annals of Biomedical
Engineering* 33(6), 829-840.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames, in_range, number, plausible, positive
from bmc.kinematics import forward_kinematics, perp

__all__ = ["BRACHIALIS", "BRACHIALIS_PATH", "HillMuscle", "MuscleSimulation", "activation_rate",
           "compression_shear", "contact_force", "force_length", "force_velocity",
           "holding_activation", "moment_arms", "muscle_length", "passive_force", "path_points",
           "simulate_muscle", "tendon_force"]


def __dir__() -> list[str]:
    return sorted(__all__)


def _path(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> tuple:
    """Global attachment points (..., P, 2), body indices, joint positions (..., n, 2)."""
    lengths = as_array(lengths, "lengths", unit="m", ndim=1)
    n = lengths.shape[0]
    if n == 0 or np.any(lengths <= 0):
        raise ValueError(f"lengths [m] must hold one positive length per segment; got "
                         f"{lengths.tolist()}")
    for value in lengths:
        plausible(float(value), "lengths", unit="m", low=1e-3, high=10.0,
                  quantity="segment length", units={"cm": 0.01, "mm": 0.001})
    q = as_array(q, "q", unit="rad")
    if q.ndim == 0 or q.shape[-1] != n:
        raise ValueError(f"q [rad] must hold one angle per segment of lengths ({n}): shape "
                         f"({n},) for one frame or (N, {n}); got shape {q.shape}")
    if isinstance(attachments, (str, bytes)) or not hasattr(attachments, "__len__"):
        raise TypeError("attachments must be a sequence of (body, (u, v)) points, origin "
                        f"first; got {type(attachments).__name__}")
    if len(attachments) < 2:
        raise ValueError("attachments must hold at least two points (origin and insertion), "
                         f"each (body, (u, v)) with u, v in m; got {len(attachments)}")
    bodies, local = [], []
    for k, item in enumerate(attachments):
        try:
            body, uv = item
        except (TypeError, ValueError):
            raise ValueError(f"attachments[{k}] must be (body, (u, v)) with body an integer "
                             f"from 0 (base) to {n} and u, v in m; got {item!r}") from None
        if isinstance(body, (bool, np.bool_)) or not isinstance(body, (int, np.integer)) \
                or not 0 <= body <= n:
            raise ValueError(f"attachments[{k}]: body must be an integer from 0 (base) to {n} "
                             f"(segment number, 1-based); got {body!r}")
        bodies.append(int(body))
        local.append(as_array(uv, f"attachments[{k}] point", unit="m", last=2, ndim=1))
    return _geometry(lengths, q, bodies, local)


def _geometry(lengths: np.ndarray, q: np.ndarray, bodies: list[int], local: list) -> tuple:
    """Compute the global path points, unchecked (the kernel a simulation calls per step)."""
    # every segment's proximal joint and its axes u (along the segment) and v = perp(u)
    joints = forward_kinematics(lengths, q, joints=True)[..., :-1, :]    # (..., n, 2)
    phi = np.cumsum(q, axis=-1)                                          # segment angles
    axes_u = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    axes_v = perp(axes_u)
    points = []
    for body, (u, v) in zip(bodies, local, strict=True):
        if body == 0:
            points.append(np.broadcast_to(np.array([u, v]), q.shape[:-1] + (2,)))
        else:
            k = body - 1
            points.append(joints[..., k, :] + u * axes_u[..., k, :] + v * axes_v[..., k, :])
    return np.stack(points, axis=-2), bodies, joints


def path_points(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Positions of a muscle's attachment points in the global frame (for drawing).

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].
    attachments : sequence of (int, (float, float))
        As in :func:`muscle_length`.

    Returns
    -------
    numpy.ndarray, shape (..., P, 2)
        Origin, via points and insertion [m], x forward and y up from the first joint.

    Examples
    --------
    >>> print(path_points([0.3], [np.pi / 2], [(0, (0.0, 0.05)), (1, (0.1, 0.0))]).round(3) + 0.0)
    [[0.   0.05]
     [0.   0.1 ]]
    """
    return _path(lengths, q, attachments)[0]


def muscle_length(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Length of a muscle path through attachment points fixed on a planar chain.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad] (``q[0]`` from the horizontal, the others relative).
    attachments : sequence of (int, (float, float))
        Origin, via points and insertion in order, each ``(body, (u, v))``: body 0 the base,
        ``k`` segment ``k`` (1-based); ``(u, v)`` [m] in that body's frame (module docstring).

    Returns
    -------
    numpy.ndarray, shape (...)
        Musculotendon length ``L_MT`` [m], the sum of the straight pieces.

    Examples
    --------
    A muscle from 5 cm above the shoulder to 10 cm down a horizontal upper arm:

    >>> print(round(float(muscle_length([0.3], [0.0], [(0, (0.0, 0.05)), (1, (0.1, 0.0))])), 4))
    0.1118
    """
    return _segments_length(_path(lengths, q, attachments)[0])


def moment_arms(lengths: ArrayLike, q: ArrayLike, attachments: Sequence) -> np.ndarray:
    """Moment arms of one muscle about every joint, ``r = dL_MT / dq`` (exact).

    A point fixed on segment ``k`` moves with every joint ``j <= k``:
    ``dp/dq_j = e_z x (p - joint_j)``. The length of a straight piece from ``a`` to ``b``
    changes by ``e . (db/dq_j - da/dq_j)`` with ``e`` its unit vector; the moment arm is the
    sum over the pieces.

    Parameters
    ----------
    lengths : array_like, shape (n,)
        Segment lengths [m].
    q : array_like, shape (..., n)
        Joint coordinates [rad].
    attachments : sequence of (int, (float, float))
        As in :func:`muscle_length`.

    Returns
    -------
    numpy.ndarray, shape (..., n)
        ``dL_MT/dq_j`` [m/rad, i.e. m]: negative where the muscle shortens as the joint angle
        grows (it then pulls the joint counter-clockwise); zero for joints it does not span.
        Joint torque of a tension ``F`` [N]: ``tau = -r F`` [N m].

    Examples
    --------
    The muscle of :func:`muscle_length`, horizontal arm: it shortens as the arm rises, so
    its tension turns the arm counter-clockwise (up).

    >>> r = moment_arms([0.3], [0.0], [(0, (0.0, 0.05)), (1, (0.1, 0.0))])
    >>> print(np.round(r, 4))
    [-0.0447]
    """
    return _arms(*_path(lengths, q, attachments))


def _arms(points: np.ndarray, bodies: list[int], joints: np.ndarray) -> np.ndarray:
    """Moment arms from the global path points (the kernel of :func:`moment_arms`)."""
    n = joints.shape[-2]
    pieces = np.diff(points, axis=-2)
    size = np.linalg.norm(pieces, axis=-1, keepdims=True)
    if np.any(size == 0):
        where = np.argwhere(size[..., 0] == 0)[0]
        same = points[tuple(where)].tolist()
        raise ValueError(
            f"attachments {int(where[-1])} and {int(where[-1]) + 1} coincide"
            + (f" in frame {tuple(int(i) for i in where[:-1])}" if where.size > 1 else "")
            + f" (got both at {np.round(same, 4).tolist()} m): the direction of that piece "
            "of the path, and so the moment arm, is undefined (a singular configuration); "
            "move one point or drop it")
    unit = pieces / size                                                  # (..., P-1, 2)
    r = np.zeros(points.shape[:-2] + (n,))
    for j in range(n):
        rel = points - joints[..., j:j + 1, :]
        moves = np.array([body - 1 >= j for body in bodies])            # spanned by joint j
        dp = perp(rel) * moves[:, None]
        r[..., j] = np.einsum("...pk,...pk->...", unit, np.diff(dp, axis=-2))
    return r


def contact_force(net_force: ArrayLike, net_moment: ArrayLike, moment_arm: ArrayLike,
                  direction: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Muscle tension and bone-on-bone force when one muscle carries the net joint moment.

    Everything that crosses a joint acts on the distal segment: the muscle's pull
    ``F e`` and the contact force of the articular surfaces, which acts through the joint
    centre (frictionless surfaces). Inverse dynamics gives only their sums: the net force
    and the net moment. With a single muscle the moment fixes the tension,
    ``F = -tau / r`` (``r = dL_MT/dq`` as in :func:`moment_arms`), and the force balance
    of the distal segment then gives the contact force. A muscle cannot push: where the
    moment has the other sign the tension is zero and the moment stays unbalanced (an
    antagonist would be needed).

    Parameters
    ----------
    net_force : array_like, shape (..., 2)
        Net joint force that the distal segment exerts on the proximal one [N].
    net_moment : array_like, shape (...)
        Net joint moment on the distal segment [N m], counter-clockwise positive.
    moment_arm : array_like, shape (...)
        The muscle's moment arm ``dL_MT/dq`` about the joint [m]; negative for a muscle
        that turns the distal segment counter-clockwise.
    direction : array_like, shape (..., 2)
        Unit vector of the muscle's pull on the distal segment (dimensionless).

    Returns
    -------
    tension : numpy.ndarray, shape (...)
        Muscle tension ``F >= 0`` [N].
    contact : numpy.ndarray, shape (..., 2)
        Force of the distal bone on the proximal bone [N]: ``net_force + F e``.
    unbalanced : numpy.ndarray, shape (...)
        Part of the net moment the muscle cannot produce [N m] (zero where ``F > 0``).

    Examples
    --------
    A knee extensor with a 5 cm moment arm, pulling the shank straight up, carries a
    100 N m extensor moment; a 500 N net compression becomes 2500 N of contact:

    >>> F, c, rest = contact_force([0.0, 500.0], 100.0, -0.05, [0.0, 1.0])
    >>> print(round(float(F)), np.round(c, 1) + 0.0, float(rest))
    2000 [   0. 2500.] 0.0
    """
    lam = as_array(net_force, "net_force", unit="N", last=2)
    tau = as_array(net_moment, "net_moment", unit="N m")
    r = as_array(moment_arm, "moment_arm", unit="m")
    e = as_array(direction, "direction", unit="1 (unit vector)", last=2)
    # one frame goes with N; each result has the common frames (not some one, some N)
    lead = frames(("net_force", lam, 1), ("net_moment", tau, 0), ("moment_arm", r, 0),
                  ("direction", e, 1))
    if np.any(r == 0):
        raise ValueError("moment_arm [m] must be nonzero: a muscle through the joint centre "
                         "cannot carry a moment; got 0")
    norm = np.linalg.norm(e, axis=-1)
    if np.any(np.abs(norm - 1.0) > 1e-6):
        raise ValueError("direction must be a unit vector (dimensionless); got lengths "
                         f"from {norm.min():.3g} to {norm.max():.3g}: divide by its norm")
    tension = np.broadcast_to(np.maximum(-tau / r, 0.0), lead).copy()
    contact = lam + tension[..., None] * e
    return tension, contact, tau + r * tension


def compression_shear(force: ArrayLike, axis: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Resolve a joint force in a segment's frame: compression along it, shear across.

    Parameters
    ----------
    force : array_like, shape (..., 2)
        Force that the distal segment exerts on the proximal one at the joint [N].
    axis : array_like, shape (..., 2)
        Unit vector along the distal segment, pointing away from the joint (dimensionless).

    Returns
    -------
    compression : numpy.ndarray, shape (...)
        ``-force . axis`` [N]: positive when the distal bone pushes into the joint.
    shear : numpy.ndarray, shape (...)
        ``force . perp(axis)`` [N]: the component across the segment, positive along the
        axis turned 90 degrees counter-clockwise.

    Examples
    --------
    A shank hanging straight down (axis ``(0, -1)``) pushing up with 300 N and 40 N
    forward (+x is ``perp((0, -1))``):

    >>> print(compression_shear([40.0, 300.0], [0.0, -1.0]))
    (np.float64(300.0), np.float64(40.0))
    """
    f = as_array(force, "force", unit="N", last=2)
    a = as_array(axis, "axis", unit="1 (unit vector)", last=2)
    return -np.einsum("...k,...k->...", f, a), np.einsum("...k,...k->...", f, perp(a))


# --- Hill-type muscle: excitation -> activation -> force -> joint torques -> motion ---------

# Thelen's tendon curve: an exponential toe up to the strain _TOE * eps0, then linear, with
# value and slope continuous there and F = F0 at eps0 (the values of OpenSim's
# Thelen2003Muscle; Thelen 2003 gives 0.609 eps0 and a slope of 1.712 / eps0 rounded).
_TOE_FORCE, _TOE_SHAPE = 0.33, 3.0
_TOE = 0.99 * math.e**3 / (1.66 * math.e**3 - 0.67)
# Guards of Thelen's fibre-velocity equation, singular where a or f_L vanish, as in OpenSim
_MIN_ACTIVATION, _MIN_FORCE_LENGTH, _ECCENTRIC_KNEE = 0.01, 0.1, 0.95
_EXP_CAP = 700.0  # exp(709) overflows a float


def _passive_shape(value: float, name: str) -> float:
    """``k_PE``, positive and small enough that ``exp(k_PE)`` stays finite."""
    k = positive(value, name, unit="-")
    if k > _EXP_CAP:
        raise ValueError(f"{name} [-] (k_PE, exponential shape of the passive curve) must be at "
                         f"most {_EXP_CAP:g}, where exp(k_PE) overflows (Thelen's value is 4); "
                         f"got {k!r}")
    return k


@dataclass(frozen=True)
class HillMuscle:
    """Parameters of a Hill-type muscle with Thelen's (2003) curves; fibres along the tendon.

    Attributes
    ----------
    max_isometric_force : float
        ``F0`` [N], the active force at optimal length and zero velocity.
    optimal_fiber_length : float
        ``l_opt`` [m], the fibre length of peak active force.
    tendon_slack_length : float
        ``l_ts`` [m], the tendon length below which it carries no force.
    max_contraction_velocity : float
        ``v_max`` [optimal fibre lengths per second] at full activation; default 10.
    activation_time, deactivation_time : float
        Time constants of activation and deactivation [s]; defaults 0.01 and 0.04.
    tendon_strain_at_f0 : float
        Tendon strain at ``F0`` [-]; default 0.033.
    passive_strain_at_f0 : float
        Fibre strain at which the passive force reaches ``F0`` [-]; default 0.6.
    active_width : float
        Width ``gamma`` of the Gaussian force-length curve [-]; default 0.5.
    passive_shape : float
        Exponential shape factor ``k_PE`` of the passive curve [-]; default 4.
    fv_shape : float
        Hill's shape factor ``A_f`` of the force-velocity curve [-]; default 0.3.
    max_lengthening_force : float
        Force while lengthening fast, ``F_len`` [F0]; default 1.8.

    Notes
    -----
    The defaults are the curve parameters of the muscles of OpenSim's ``arm26`` model,
    adapted from Holzbaur et al. (2005); :data:`BRACHIALIS` is its brachialis.
    """

    max_isometric_force: float
    optimal_fiber_length: float
    tendon_slack_length: float
    max_contraction_velocity: float = 10.0
    activation_time: float = 0.01
    deactivation_time: float = 0.04
    tendon_strain_at_f0: float = 0.033
    passive_strain_at_f0: float = 0.6
    active_width: float = 0.5
    passive_shape: float = 4.0
    fv_shape: float = 0.3
    max_lengthening_force: float = 1.8

    def __post_init__(self) -> None:
        units = {"max_isometric_force": "N", "optimal_fiber_length": "m",
                 "tendon_slack_length": "m", "max_contraction_velocity": "l_opt/s",
                 "activation_time": "s", "deactivation_time": "s"}
        for f in fields(self):
            value = number(getattr(self, f.name), f.name, unit=units.get(f.name, "-"))
            if value <= 0:
                raise ValueError(f"{f.name} [{units.get(f.name, '-')}] must be positive; got "
                                 f"{value!r}")
            object.__setattr__(self, f.name, value)
        plausible(self.max_isometric_force, "max_isometric_force", unit="N", low=1.0,
                  high=2e4, quantity="muscle force", units={"kN": 1e3})
        for name in ("optimal_fiber_length", "tendon_slack_length"):
            plausible(getattr(self, name), name, unit="m", low=1e-3, high=1.0,
                      quantity="muscle or tendon length", units={"cm": 0.01, "mm": 0.001})
        _passive_shape(self.passive_shape, "passive_shape")
        if self.max_lengthening_force <= 1:
            raise ValueError("max_lengthening_force [F0] must exceed 1 (a lengthening muscle "
                             f"resists more than its isometric force); got "
                             f"{self.max_lengthening_force!r}")


BRACHIALIS = HillMuscle(max_isometric_force=987.26, optimal_fiber_length=0.0858,
                        tendon_slack_length=0.0535)
"""Brachialis of Holzbaur et al. (2005) as in OpenSim's arm26 model: 987 N, 8.58 cm, 5.35 cm."""

BRACHIALIS_PATH = ((0, (0.0007, 0.1165)), (1, (0.0239, -0.0032)))
"""The brachialis of arm26 as a straight line, on a chain whose base is the upper arm hanging
vertically and whose first joint is the elbow: origin on the humerus 11.65 cm above the
elbow's centre, insertion on the ulna 2.39 cm from it (arm26's points relative to its
elbow, x forward and y up with the arm hanging; its wrapping surface left out)."""


def _unit_interval(value: ArrayLike, name: str) -> np.ndarray:
    return in_range(as_array(value, name, unit="0 to 1"), name, unit="0 to 1", low=0.0,
                    high=1.0, why="a fraction of full activation")


def activation_rate(excitation: ArrayLike, activation: ArrayLike, *,
                    activation_time: float = 0.01,
                    deactivation_time: float = 0.04) -> np.ndarray:
    """Rate of change of muscle activation, Thelen's (2003) first-order dynamics.

    ``da/dt = (u - a) / (t_act (0.5 + 1.5 a))`` while the excitation ``u`` exceeds the
    activation ``a`` and ``(u - a) (0.5 + 1.5 a) / t_deact`` otherwise: activation follows
    excitation with a delay that is shorter when rising than when falling.

    Parameters
    ----------
    excitation, activation : array_like
        Neural excitation ``u`` and activation ``a``, fractions of the maximum (0 to 1).
    activation_time, deactivation_time : float, optional
        Time constants [s] (keyword-only); defaults 0.01 and 0.04 s.

    Returns
    -------
    numpy.ndarray
        ``da/dt`` [1/s], broadcast over the inputs.

    Examples
    --------
    >>> print(activation_rate(1.0, 0.0))
    200.0
    """
    u = _unit_interval(excitation, "excitation")
    a = _unit_interval(activation, "activation")
    try:
        np.broadcast_shapes(u.shape, a.shape)
    except ValueError:
        raise ValueError("excitation and activation must have the same shape, or one be a "
                         f"single value; got shapes {u.shape} and {a.shape}") from None
    t_act = number(activation_time, "activation_time", unit="s")
    t_deact = number(deactivation_time, "deactivation_time", unit="s")
    if t_act <= 0 or t_deact <= 0:
        raise ValueError(f"activation_time and deactivation_time [s] must be positive; got "
                         f"{t_act!r} and {t_deact!r}")
    return _activation_rate(u, a, t_act, t_deact)


def _activation_rate(u, a, t_act: float, t_deact: float):
    scale = 0.5 + 1.5 * a
    return np.where(u > a, (u - a) / (t_act * scale), (u - a) * scale / t_deact)


def force_length(length: ArrayLike, *, width: float = 0.5) -> np.ndarray:
    """Active force-length curve: ``f_L = exp(-(l - 1)^2 / width)``, 1 at optimal length.

    Parameters
    ----------
    length : array_like
        Fibre length over optimal fibre length [-].
    width : float, optional
        Width ``gamma`` of the curve [-] (keyword-only); default 0.5.

    Returns
    -------
    numpy.ndarray
        Active force at full activation and zero velocity, over ``F0`` [-].

    Examples
    --------
    >>> print(force_length([1.0, 1.5]).round(3))
    [1.    0.607]
    """
    lm = as_array(length, "length", unit="optimal fibre lengths")
    return np.exp(-(lm - 1.0) ** 2 / positive(width, "width", unit="-"))


def passive_force(length: ArrayLike, *, shape: float = 4.0,
                  strain_at_f0: float = 0.6) -> np.ndarray:
    """Force of the parallel elastic element, zero up to optimal length, ``F0`` at ``1 + eps0``.

    ``f_PE = (exp(k (l - 1) / eps0) - 1) / (exp(k) - 1)`` for ``l > 1``.

    Parameters
    ----------
    length : array_like
        Fibre length over optimal fibre length [-].
    shape, strain_at_f0 : float, optional
        ``k_PE`` and ``eps0`` [-] (keyword-only); defaults 4 and 0.6.

    Returns
    -------
    numpy.ndarray
        Passive force over ``F0`` [-].

    Examples
    --------
    >>> print(passive_force([0.9, 1.6]).round(3))
    [0. 1.]
    """
    lm = as_array(length, "length", unit="optimal fibre lengths")
    k, eps0 = _passive_shape(shape, "shape"), positive(strain_at_f0, "strain_at_f0", unit="-")
    return _passive(lm, k, eps0)


def _passive(lm, k: float, eps0: float):
    # the exponent is capped where exp() would overflow: far beyond any fibre length
    return np.expm1(np.minimum(k * np.maximum(lm - 1.0, 0.0) / eps0, _EXP_CAP)) / math.expm1(k)


def force_velocity(velocity: ArrayLike, *, shape: float = 0.3,
                   max_lengthening_force: float = 1.8) -> np.ndarray:
    """Force-velocity curve of the contractile element (Hill's hyperbola when shortening).

    Shortening (``v < 0``): ``(1 + v) / (1 - v / A_f)``, zero at ``v = -1``; lengthening:
    ``(k v F_len + F_len - 1) / (k v + F_len - 1)`` with ``k = 2 + 2 / A_f``, rising towards
    ``F_len`` with twice the slope of shortening at ``v = 0``. These are the exact inverse of
    Thelen's (2003) velocity equation; in a muscle of activation ``a`` the velocity is scaled
    by ``(0.25 + 0.75 a) v_max``.

    Parameters
    ----------
    velocity : array_like
        Fibre velocity over the maximum velocity [-], lengthening positive.
    shape, max_lengthening_force : float, optional
        ``A_f`` [-] and ``F_len`` [F0] (keyword-only); defaults 0.3 and 1.8.

    Returns
    -------
    numpy.ndarray
        Force over the isometric force at the same length and activation [-]; 1 at zero
        velocity, 0 at or beyond the maximum shortening velocity.

    Examples
    --------
    >>> print(force_velocity([-1.0, 0.0]).round(3))
    [0. 1.]
    """
    v = as_array(velocity, "velocity", unit="v_max")
    af = positive(shape, "shape", unit="-")
    flen = positive(max_lengthening_force, "max_lengthening_force", unit="F0")
    if flen <= 1:
        raise ValueError(f"max_lengthening_force [F0] must exceed 1; got {flen!r}")
    k = 2.0 + 2.0 / af
    shortening = np.maximum((1.0 + v) / (1.0 - np.minimum(v, 0.0) / af), 0.0)
    vl = np.maximum(v, 0.0)
    lengthening = (k * vl * flen + flen - 1.0) / (k * vl + flen - 1.0)
    return np.where(v <= 0, shortening, lengthening)


def _velocity_from_force(x, af: float, flen: float):
    """Inverse of :func:`force_velocity` (Thelen's equation), linear beyond its eccentric knee."""
    k = 2.0 + 2.0 / af
    shortening = (x - 1.0) / (1.0 + np.maximum(x, 0.0) / af)
    lengthening = (x - 1.0) * (flen - 1.0) / (k * (flen - np.minimum(x, _ECCENTRIC_KNEE * flen)))
    return np.where(x <= 1.0, shortening, lengthening)


def tendon_force(strain: ArrayLike, *, strain_at_f0: float = 0.033) -> np.ndarray:
    """Tendon force-strain curve of Thelen (2003): exponential toe, then linear.

    Zero when slack (strain <= 0); ``F0`` at ``strain_at_f0``.

    Parameters
    ----------
    strain : array_like
        Tendon strain ``(l_T - l_ts) / l_ts`` [-].
    strain_at_f0 : float, optional
        Strain at ``F0`` [-] (keyword-only); default 0.033.

    Returns
    -------
    numpy.ndarray
        Tendon force over ``F0`` [-].

    Examples
    --------
    >>> print(tendon_force([0.0, 0.033]).round(6))
    [0. 1.]
    """
    eps = as_array(strain, "strain", unit="-")
    return _tendon_force(eps, positive(strain_at_f0, "strain_at_f0", unit="-"))


def _tendon_force(eps, eps0: float):
    toe = _TOE * eps0
    slope = (1.0 - _TOE_FORCE) / (eps0 - toe)
    curved = _TOE_FORCE * np.expm1(_TOE_SHAPE * np.clip(eps, 0.0, toe) / toe) / math.expm1(
        _TOE_SHAPE)
    return np.where(eps <= 0, 0.0, np.where(eps <= toe, curved, _TOE_FORCE + slope * (eps - toe)))


def _tendon_strain(f: float, eps0: float) -> float:
    """Inverse of the tendon curve for a force ``f >= 0`` [F0]."""
    toe = _TOE * eps0
    if f <= _TOE_FORCE:
        return toe / _TOE_SHAPE * math.log1p(f * math.expm1(_TOE_SHAPE) / _TOE_FORCE)
    return toe + (f - _TOE_FORCE) * (eps0 - toe) / (1.0 - _TOE_FORCE)


def _checked_path(lengths: ArrayLike, attachments: Sequence):
    """Validate a path once (with a trial frame); return the kernel's inputs."""
    lengths = as_array(lengths, "lengths", unit="m", ndim=1)
    _, bodies, _ = _path(lengths, np.zeros(lengths.shape[0]), attachments)
    local = [np.asarray(uv, dtype=float) for _, uv in attachments]
    return lengths, bodies, local


def holding_activation(chain: Any, muscle: HillMuscle, attachments: Sequence, q: ArrayLike,
                       *, joint: int = -1) -> float:
    """Activation with which one muscle holds a chain still at ``q`` against gravity.

    At rest the tendon force ``F_T`` must balance gravity's torque at ``joint``,
    ``-r F_T = G``; the tendon curve gives the tendon's stretch, the rest of the
    musculotendon length is the fibre, and ``F_T / F0 = a f_L + f_PE`` gives ``a``.
    Only ``joint`` is balanced: the other joints need other muscles.

    Parameters
    ----------
    chain : bmc.chain.PlanarChain
        The model (its ``g`` is used).
    muscle : HillMuscle
        The muscle.
    attachments : sequence of (int, (float, float))
        Its path, as in :func:`muscle_length`.
    q : array_like, shape (n,)
        Joint angles of the posture [rad].
    joint : int, optional
        The joint to balance (0-based, negative from the end; keyword-only). Default the last.

    Returns
    -------
    float
        Activation ``a`` (0 to 1).

    Raises
    ------
    ValueError
        If the muscle would have to push (its moment has the wrong sign), if the posture
        would need more than full activation, or if the tendon is slack.
    """
    from bmc.chain import PlanarChain

    if not isinstance(chain, PlanarChain):
        raise TypeError(f"chain must be a bmc.PlanarChain; got {type(chain).__name__}")
    if not isinstance(muscle, HillMuscle):
        raise TypeError(f"muscle must be a HillMuscle; got {type(muscle).__name__}")
    q = as_array(q, "q", unit="rad", last=chain.n, ndim=1)
    if isinstance(joint, bool) or not isinstance(joint, (int, np.integer)) \
            or not -chain.n <= joint < chain.n:
        raise ValueError(f"joint must be an integer index of one of the chain's {chain.n} "
                         f"joints; got {joint!r}")
    r = moment_arms(chain.lengths, q, attachments)[joint]
    gravity = chain.gravity_terms(q)[joint]
    tension = -gravity / r if r != 0 else np.inf
    if not np.isfinite(tension) or tension < 0:
        raise ValueError(f"this muscle cannot hold q [rad]: got q = {np.round(q, 4).tolist()}, "
                         f"where holding needs {gravity:.4g} N m at joint {joint}, and with a "
                         f"moment arm of {r * 100:.3g} cm the muscle would have to push; choose "
                         "another posture, or attachments on the other side of the joint")
    f = tension / muscle.max_isometric_force
    tendon = muscle.tendon_slack_length * (1.0 + _tendon_strain(f, muscle.tendon_strain_at_f0))
    fibre = (float(muscle_length(chain.lengths, q, attachments)) - tendon) / \
        muscle.optimal_fiber_length
    active = f - float(passive_force(fibre, shape=muscle.passive_shape,
                                     strain_at_f0=muscle.passive_strain_at_f0))
    fl = float(force_length(fibre, width=muscle.active_width))
    if fibre <= 0 or fl < _MIN_FORCE_LENGTH:
        raise ValueError(f"the muscle's fibres would be {fibre:.3g} optimal lengths long at q, "
                         f"where they can pull little or nothing (got a path of "
                         f"{tendon + fibre * muscle.optimal_fiber_length:.4g} m for a tendon of "
                         f"{muscle.tendon_slack_length:.4g} m and fibres of "
                         f"{muscle.optimal_fiber_length:.4g} m): check the attachments (u, v in "
                         "m) and the muscle's lengths (m)")
    a = active / fl
    if not 0.0 <= a <= 1.0:
        raise ValueError(f"holding q [rad] = {np.round(q, 4).tolist()} needs a tension of "
                         f"{tension:.4g} N, activation {a:.3g} at a fibre length of "
                         f"{fibre:.3g} l_opt: outside 0 to 1 (got a muscle of "
                         f"{muscle.max_isometric_force:.4g} N); this muscle cannot hold the "
                         "posture alone")
    return float(a)


@dataclass(frozen=True)
class MuscleSimulation:
    """The result of :func:`simulate_muscle` (time on axis 0).

    Attributes
    ----------
    t : numpy.ndarray, shape (N,)
        Sample times [s].
    q, qd : numpy.ndarray, shape (N, n)
        Joint angles [rad] and angular velocities [rad/s].
    excitation, activation : numpy.ndarray, shape (N,)
        Neural excitation and muscle activation (0 to 1).
    fiber_length : numpy.ndarray, shape (N,)
        Fibre length [m].
    fiber_velocity : numpy.ndarray, shape (N,)
        Fibre velocity [m/s], lengthening positive.
    musculotendon_length : numpy.ndarray, shape (N,)
        Length of the path [m].
    tendon_force : numpy.ndarray, shape (N,)
        Tension of the tendon (the muscle's pull) [N].
    moment_arms : numpy.ndarray, shape (N, n)
        ``dL_MT/dq`` [m].
    tau : numpy.ndarray, shape (N, n)
        Joint torques of the muscle, ``-r F_T`` [N m].
    nfev : int
        Evaluations of the right-hand side.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    excitation: np.ndarray
    activation: np.ndarray
    fiber_length: np.ndarray
    fiber_velocity: np.ndarray
    musculotendon_length: np.ndarray
    tendon_force: np.ndarray
    moment_arms: np.ndarray
    tau: np.ndarray
    nfev: int


def _excitation(spec: Any, times: np.ndarray) -> Callable[[float], float]:
    if callable(spec):
        return spec
    u = _unit_interval(spec, "excitation")
    if u.ndim == 0:
        value = float(u)
        return lambda t: value
    if u.shape != times.shape:
        raise ValueError(f"excitation given as samples must have one value per time in "
                         f"t_eval ({times.size}); got shape {u.shape}")
    return lambda t: float(np.interp(t, times, u))


def simulate_muscle(chain: Any, t_eval: ArrayLike, q0: ArrayLike, qd0: ArrayLike, *,
                    muscle: HillMuscle, attachments: Sequence, excitation: Any,
                    activation0: float, method: str = "LSODA", rtol: float = 1e-8,
                    atol: float = 1e-10, max_step: float = 0.005) -> MuscleSimulation:
    """Simulate a chain driven by one Hill-type muscle from its neural excitation.

    The state is the chain's ``q, qd``, the activation ``a`` and the normalised fibre
    length ``l``. At each instant: the path gives ``L_MT`` and the moment arms ``r``; the
    tendon, ``L_MT - l l_opt`` long, carries ``F_T`` (:func:`tendon_force`); the fibre
    carries the same force, ``F_T = F0 (a f_L f_V + f_PE)``, which fixes its velocity
    (Thelen's equation, the inverse of :func:`force_velocity`); the joints turn under
    ``tau = -r F_T`` (:meth:`~bmc.chain.PlanarChain.frame_accelerations`), and ``a``
    follows ``u(t)`` (:func:`activation_rate`). The fibre starts at rest, in equilibrium
    with the tendon.

    Parameters
    ----------
    chain : bmc.chain.PlanarChain
        The model.
    t_eval : array_like, shape (N,)
        Output times [s], strictly increasing.
    q0, qd0 : array_like, shape (n,)
        Initial joint angles [rad] and angular velocities [rad/s].
    muscle : HillMuscle
        The muscle (keyword-only, as every argument below).
    attachments : sequence of (int, (float, float))
        Its path on the chain, as in :func:`muscle_length`.
    excitation : float, array_like of shape (N,) or callable
        Neural excitation ``u`` (0 to 1): constant, samples at ``t_eval`` (linear between
        them) or a function ``u(t)``.
    activation0 : float
        Initial activation (0 to 1), e.g. :func:`holding_activation`.
    method, rtol, atol, max_step
        As in :func:`bmc.simulate.simulate`; the default ``"LSODA"`` switches to a stiff
        method when the fibre dynamics of a barely active muscle become fast.

    Returns
    -------
    MuscleSimulation

    Raises
    ------
    ValueError
        On bad input, or if the excitation leaves 0 to 1 during the run.
    """
    from bmc.chain import PlanarChain
    from bmc.simulate import simulate

    if not isinstance(chain, PlanarChain):
        raise TypeError(f"chain must be a bmc.PlanarChain; got {type(chain).__name__}")
    if not isinstance(muscle, HillMuscle):
        raise TypeError(f"muscle must be a HillMuscle; got {type(muscle).__name__}")
    n = chain.n
    times = as_array(t_eval, "t_eval", unit="s", ndim=1)
    if times.size < 2 or np.any(np.diff(times) <= 0):
        raise ValueError(f"t_eval [s] must hold at least two strictly increasing times; got "
                         f"{times.size} value(s)")
    q0 = as_array(q0, "q0", unit="rad", last=n, ndim=1)
    qd0 = as_array(qd0, "qd0", unit="rad/s", last=n, ndim=1)
    a0 = float(_unit_interval(number(activation0, "activation0", unit="0 to 1"),
                              "activation0"))
    lengths, bodies, local = _checked_path(chain.lengths, attachments)
    u_of = _excitation(excitation, times)
    m = muscle
    l_opt, l_ts, f0 = m.optimal_fiber_length, m.tendon_slack_length, m.max_isometric_force
    v_max, af, flen = m.max_contraction_velocity, m.fv_shape, m.max_lengthening_force
    eps0, width = m.tendon_strain_at_f0, m.active_width
    pe_k, pe_eps = m.passive_shape, m.passive_strain_at_f0

    def fibre_forces(lm):  # f_L and f_PE for arrays or floats
        return np.exp(-(lm - 1.0) ** 2 / width), _passive(lm, pe_k, pe_eps)

    def fibre_speed(a, lm, ft):  # Thelen's fibre velocity [l_opt/s]
        fl, fpe = fibre_forces(lm)
        a_eff = np.maximum(a, _MIN_ACTIVATION)
        x = (ft - fpe) / (a_eff * np.maximum(fl, _MIN_FORCE_LENGTH))
        return (0.25 + 0.75 * a_eff) * v_max * _velocity_from_force(x, af, flen)

    # the fibre at rest, in equilibrium with the tendon (bisection on l / l_opt)
    path_length = float(_segments_length(_geometry(lengths, q0, bodies, local)[0]))

    def imbalance(lm):
        fl, fpe = fibre_forces(lm)
        strain = (path_length - lm * l_opt - l_ts) / l_ts
        return float(_tendon_force(strain, eps0)) - (a0 * fl + fpe)

    lo, hi = 0.05, (path_length - l_ts) / l_opt
    if hi <= lo or imbalance(lo) <= 0:
        raise ValueError(f"the path is {path_length:.4g} m long at q0, too short for this "
                         f"muscle's tendon ({l_ts:.4g} m) and fibres ({l_opt:.4g} m optimal): "
                         "check the attachments and the muscle")
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if imbalance(mid) > 0 else (lo, mid)
    lm0 = 0.5 * (lo + hi)
    if fibre_forces(lm0)[0] < _MIN_FORCE_LENGTH:
        raise ValueError(f"the muscle's fibres would be {lm0:.3g} optimal lengths long at q0, "
                         f"where they can pull little or nothing (got a path of "
                         f"{path_length:.4g} m for a tendon of {l_ts:.4g} m and fibres of "
                         f"{l_opt:.4g} m): check the attachments (u, v in m) and the muscle's "
                         "lengths (m)")

    def rhs(t, y):
        q, qd, a, lm = y[:n], y[n:2 * n], y[2 * n], y[2 * n + 1]
        points, _, joints = _geometry(lengths, q, bodies, local)
        r = _arms(points, bodies, joints)
        strain = (float(_segments_length(points)) - lm * l_opt - l_ts) / l_ts
        ft = float(_tendon_force(strain, eps0))
        speed = float(fibre_speed(a, lm, ft))
        u = u_of(t)
        if not 0.0 <= u <= 1.0:
            raise ValueError(f"excitation(t) must lie between 0 and 1; got {u!r} at t = {t} s")
        qdd, _ = chain.frame_accelerations(q, qd, -r * ft * f0)
        da = (u - a) / (m.activation_time * (0.5 + 1.5 * a)) if u > a else \
            (u - a) * (0.5 + 1.5 * a) / m.deactivation_time
        return np.concatenate([qd, qdd, [da, speed]])

    res = simulate(rhs, (times[0], times[-1]), np.concatenate([q0, qd0, [a0, lm0]]),
                   t_eval=times, method=method, rtol=rtol, atol=atol, max_step=max_step)
    y = res.y
    q, qd, act, lm = y[:, :n], y[:, n:2 * n], y[:, 2 * n], y[:, 2 * n + 1]
    points, _, joints = _geometry(lengths, q, bodies, local)
    r = _arms(points, bodies, joints)
    path = _segments_length(points)
    ft = _tendon_force((path - lm * l_opt - l_ts) / l_ts, eps0)
    speed = fibre_speed(act, lm, ft)
    ft = f0 * ft
    return MuscleSimulation(
        t=res.t, q=q, qd=qd, excitation=np.array([u_of(ti) for ti in res.t]), activation=act,
        fiber_length=lm * l_opt, fiber_velocity=speed * l_opt, musculotendon_length=path,
        tendon_force=ft, moment_arms=r, tau=-r * ft[:, None], nfev=res.nfev)


def _segments_length(points: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.diff(points, axis=-2), axis=-1).sum(axis=-1)
