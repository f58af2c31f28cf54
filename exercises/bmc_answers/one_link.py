"""Exact checks of exercise set 1 (grader side: never shipped to students).

The right answers are those of :mod:`bmc.checks._one_link` (``answer_*``, computed with
``bmc.PlanarChain``), here on the student's own data; the messages name the likely mistake
(a wrong answer computed from the same data), never the value.
"""

from __future__ import annotations

import math
from typing import Any

from bmc.checks._core import (
    IncorrectAnswer,
    _fail,
    check_function,
    check_value,
    problem,
)
from bmc.checks._one_link import (
    _torque_without_load_inertia,
    _torque_without_parallel_axis,
    answer_euler_step,
    answer_hanging_qdd,
    answer_period,
    answer_spin,
    answer_torque,
)
from bmc.checks._practice import check_group
from bmc.checks._sections import section

__all__ = [
    "check_one_link_centripetal",
    "check_one_link_euler_step",
    "check_one_link_hanging",
    "check_one_link_period",
    "check_one_link_torque",
]


def check_one_link_torque(tau: Any) -> bool:
    """Question: joint torque [N m] of the loaded segment at ``alpha``, ``alphadd``.

    Parameters
    ----------
    tau : float
        The student's joint torque [N m].

    Returns
    -------
    bool
        ``True`` if right (else :class:`IncorrectAnswer`).
    """
    p = problem("one_link")
    return check_value(
        "tau", tau, answer_torque(p)[0], unit="N m",
        mistakes=[("the torque with the load's weight but not its inertia",
                   _torque_without_load_inertia(p)[0]),
                  ("the torque with I about the centre of mass where I_o about the joint "
                   "belongs", _torque_without_parallel_axis(p)[0]),
                  ("the torque with the angle taken in degrees",
                   answer_torque(p.modified(alpha=math.degrees(p.alpha)))[0])],
        hint=section("one_link.moments", "the load is a point mass at the tip, so it adds "
                     "its weight (lever arm l cos(alpha)) and its inertia (m_L l^2 about the "
                     "joint) to the segment's I_o alpha'' + m g d cos(alpha); I_o from the "
                     "parallel-axis theorem"))


def check_one_link_centripetal(sign_tau: Any, sign_Frx: Any, sign_Fry: Any) -> bool:
    """Question: signs of the torque and of the joint force on a segment spinning freely.

    The segment turns at constant ``alphad_spin`` in the horizontal plane (no gravity, no
    external force) and is observed at ``alpha_spin``. Three signs have few possible values:
    the message names only the concept, never which sign is wrong.

    Parameters
    ----------
    sign_tau, sign_Frx, sign_Fry : int or str
        Predicted signs of the joint torque and of the x, y components of the force the
        joint exerts on the segment.

    Returns
    -------
    bool
        ``True`` if all three are right.
    """
    p = problem("one_link")
    tau, fx, fy = answer_spin(p, p.alpha_spin)
    scale = p.mass * p.com * p.alphad_spin**2  # the centripetal force [N]
    return check_group(
        [("sign_tau", sign_tau, tau / scale), ("sign_Frx", sign_Frx, fx / scale),
         ("sign_Fry", sign_Fry, fy / scale)], kind="sign",
        hint=section("one_link.newton_euler", "at a constant rate the only acceleration of "
                     "the centre of mass is centripetal, from the centre of mass towards "
                     "the joint; the joint force produces it, and a force through the joint "
                     "has no moment about it"))


#: Inputs the grader calls ``hanging_qdd(theta, theta_dot, torque)`` with (the student's
#: data are its default ``p``).
_HANGING_CASES = [(0.3, 0.0, 0.0), (-1.0, 2.0, 0.5), (2.5, -1.0, -1.2), (0.0, 0.0, 1.0)]


def check_one_link_hanging(hanging_qdd: Any) -> bool:
    """Question: ``hanging_qdd(theta, theta_dot, torque)`` of the hanging pendulum [rad/s^2].

    ``theta`` is the angle from the downward vertical, counter-clockwise positive.

    Parameters
    ----------
    hanging_qdd : callable
        The student's function (its data argument ``p`` defaults to the student's data).

    Returns
    -------
    bool
        ``True`` if it returns the right angular acceleration for several states.
    """
    p = problem("one_link")
    expected = [answer_hanging_qdd(p, *case) for case in _HANGING_CASES]
    return check_function(
        "hanging_qdd", hanging_qdd, _HANGING_CASES, expected, rtol=1e-4, atol=1e-8,
        unit="rad/s^2",
        hint=section("one_link.hanging", "take moments about the joint, where the reaction "
                     "force has no lever arm; with theta from the downward vertical the lever "
                     "arm of the weight is d sin(theta), and it pulls the segment back to "
                     "theta = 0"))


_EULER_CASES = [(0.3, 0.0, 0.0, 0.01), (-1.0, 2.0, 0.5, 0.005), (2.5, -1.0, -1.2, 0.02)]


def check_one_link_euler_step(euler_step: Any) -> bool:
    """Question: one explicit Euler step ``euler_step(theta, theta_dot, torque, dt)``.

    Parameters
    ----------
    euler_step : callable
        The student's function, returning ``(theta_new, theta_dot_new)``.

    Returns
    -------
    bool
        ``True`` if it takes the explicit Euler step for several states.
    """
    p = problem("one_link")
    hint = section("one_link.forward", "explicit Euler advances the state with the "
                   "derivatives evaluated at the *start* of the step, theta_new = theta + dt "
                   "theta', theta'_new = theta' + dt theta''(theta, theta', torque)")
    expected = [answer_euler_step(p, *case) for case in _EULER_CASES]
    symplectic = []
    for theta, thetad, tau, dt in _EULER_CASES:
        new = thetad + dt * answer_hanging_qdd(p, theta, thetad, tau)
        symplectic.append([theta + dt * new, new])
    try:
        return check_function("euler_step", euler_step, _EULER_CASES, expected, rtol=1e-6,
                              hint=hint)
    except IncorrectAnswer as original:
        try:
            check_function("euler_step", euler_step, _EULER_CASES, symplectic, rtol=1e-6)
        except IncorrectAnswer:
            raise original from None
        raise _fail("euler_step", "takes a semi-implicit (symplectic) Euler step: the "
                    "position update must use the old velocity", hint) from None


def check_one_link_period(period: Any, ratio: Any) -> bool:
    """Question: small-oscillation period [s] and its ratio when the density doubles.

    Parameters
    ----------
    period : float
        Period of small oscillations of the hanging segment (no load) [s].
    ratio : float
        New period / old period when the segment's density doubles (mass and moment of
        inertia both double, same shape): the same for everyone, so its message names only
        the concept.

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    p = problem("one_link")
    base = answer_period(p)[0]
    hint = section("one_link.hanging", "linearise the hanging pendulum's equation of motion "
                   "for small theta (sin theta ~ theta): I_o theta'' = -m g d theta is a harmonic "
                   "oscillator")
    check_value("period", period, base, unit="s", hint=hint,
                mistakes=[("the angular frequency, not the period", 2 * math.pi / base),
                          ("I about the centre of mass where I_o = I + m d^2 belongs",
                           base * math.sqrt(p.inertia / (p.inertia + p.mass * p.com**2)))])
    return check_value("ratio", ratio, answer_period(p, 2.0)[0] / base, level="concept",
                       hint=section("one_link.hanging", "write the period with I_o = I + m "
                                    "d^2 and see which factors cancel when both m and I "
                                    "double"))
