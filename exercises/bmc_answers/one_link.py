"""Exact checks of exercise set 1 (grader side: never shipped to students)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bmc.checks._core import (
    IncorrectAnswer,
    _fail,
    check_function,
    check_sign,
    check_value,
    problem,
)
from bmc.checks._one_link import _NB1

__all__ = [
    "check_one_link_centripetal",
    "check_one_link_euler_step",
    "check_one_link_hanging",
    "check_one_link_period",
    "check_one_link_torque",
]



def _one_link_chain(g: float | None = None, *, density: float = 1.0):
    """Return the problem's segment as a :class:`bmc.PlanarChain`.

    ``g`` [m/s^2] replaces the problem's; ``density`` [-] scales mass and inertia alike.
    """
    from bmc.chain import PlanarChain

    p = problem("one_link")
    return PlanarChain([p.length], [p.com], [density * p.mass], [density * p.inertia],
                       g=p.g if g is None else g)


def check_one_link_torque(T: Any) -> bool:
    """Question: joint torque [N m] of the loaded segment at ``alpha``, ``alphadd``.

    Parameters
    ----------
    T : float
        The student's joint torque [N m].

    Returns
    -------
    bool
        ``True`` if right (else :class:`IncorrectAnswer`).
    """
    p = problem("one_link")
    chain = _one_link_chain().with_point_mass(p.load)  # the load at the tip, one rigid body
    expected = chain.inverse_dynamics([p.alpha], [0.0], [p.alphadd])[0]
    return check_value(
        "T", T, expected, unit="N m",
        hint=f"{_NB1}, section 4 (moments about the joint): the load is a point mass at the "
        "tip, so it adds its weight (lever arm L cos(alpha)) *and* its inertia (M L^2 about "
        "the joint) to the segment's I_o alpha'' + m g d cos(alpha); I_o from the "
        "parallel-axis theorem.")


def check_one_link_centripetal(sign_T: Any, sign_Frx: Any, sign_Fry: Any) -> bool:
    """Question: signs of the torque and of the joint reaction of a segment spinning freely.

    The segment turns at constant ``alphad_spin`` in the horizontal plane (no gravity, no
    external force) and is observed at ``alpha_spin``.

    Parameters
    ----------
    sign_T, sign_Frx, sign_Fry : int or str
        Predicted signs of the joint torque and of the x, y components of the force the
        joint exerts on the segment.

    Returns
    -------
    bool
        ``True`` if all three are right.
    """
    from bmc.kinematics import lever_kinematics

    p = problem("one_link")
    a, w = p.alpha_spin, p.alphad_spin
    chain = _one_link_chain(g=0.0)
    torque = chain.inverse_dynamics([a], [w], [0.0])[0]
    # Newton: F_r = m a_cm (no gravity, no other force); one link: segment angle = alpha
    force = p.mass * lever_kinematics(chain.levers, [[math.cos(a), math.sin(a)]], [w], [0.0])[2][0]
    scale = float(np.linalg.norm(force))  # the centripetal force [N]
    hint = (f"{_NB1}, sections 2-3 ('Where did the centripetal terms go?'): the terms in "
            "alpha'^2 are the centripetal acceleration, "
            "directed from the centre of mass towards the joint; the reaction force passes "
            "through the joint.")
    check_sign("sign_T", sign_T, torque, atol=1e-9 * scale, hint=hint)
    check_sign("sign_Frx", sign_Frx, force[0], atol=1e-9 * scale, hint=hint)
    return check_sign("sign_Fry", sign_Fry, force[1], atol=1e-9 * scale, hint=hint)


_HANGING_CASES = [(0.3, 0.0, 0.0), (-1.0, 2.0, 0.5), (2.5, -1.0, -1.2), (0.0, 0.0, 1.0)]


def _hanging_qdd(beta: float, betad: float, torque: float) -> float:
    # beta from the downward vertical = chain angle from +x plus pi/2
    chain = _one_link_chain()
    return float(chain.forward_dynamics([beta - np.pi / 2], [betad], [torque])[0])


def check_one_link_hanging(hanging_qdd: Any) -> bool:
    """Question: ``hanging_qdd(beta, beta_dot, torque)`` of the hanging pendulum [rad/s^2].

    ``beta`` is the angle from the downward vertical, counter-clockwise positive.

    Parameters
    ----------
    hanging_qdd : callable
        The student's function.

    Returns
    -------
    bool
        ``True`` if it returns the right angular acceleration for several states.
    """
    expected = [_hanging_qdd(*case) for case in _HANGING_CASES]
    return check_function(
        "hanging_qdd", hanging_qdd, _HANGING_CASES, expected, rtol=1e-4, atol=1e-8,
        unit="rad/s^2",
        hint=f"{_NB1}, section 9 (the hanging pendulum): take moments about the joint, where the "
        "reaction force has no lever arm; with beta from the downward vertical the lever "
        "arm of the weight is d sin(beta), and it pulls the segment back to beta = 0.")


_EULER_CASES = [(0.3, 0.0, 0.0, 0.01), (-1.0, 2.0, 0.5, 0.005), (2.5, -1.0, -1.2, 0.02)]


def check_one_link_euler_step(euler_step: Any) -> bool:
    """Question: one explicit Euler step ``euler_step(beta, beta_dot, torque, dt)``.

    Parameters
    ----------
    euler_step : callable
        The student's function, returning ``(beta_new, beta_dot_new)``.

    Returns
    -------
    bool
        ``True`` if it takes the explicit Euler step for several states.
    """
    hint = (f"{_NB1}, section 7 (forward dynamics): explicit Euler advances the state with the "
            "derivatives "
            "evaluated at the *start* of the step, beta_new = beta + dt beta', beta'_new = "
            "beta' + dt beta''(beta, beta', torque).")
    expected, symplectic = [], []
    for beta, betad, torque, dt in _EULER_CASES:
        qdd = _hanging_qdd(beta, betad, torque)
        expected.append([beta + dt * betad, betad + dt * qdd])
        symplectic.append([beta + dt * (betad + dt * qdd), betad + dt * qdd])
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


def _one_link_period(density: float = 1.0) -> float:
    """Small-oscillation period [s] of the hanging segment, ``2 pi sqrt(I_o / (m g d))``."""
    chain = _one_link_chain(density=density)
    # I_o beta'' = -m g d beta: I_o is the (constant) mass matrix of one link, m g d the
    # moment of its weight when it is held horizontal
    stiffness = abs(chain.gravity_terms([0.0])[0])
    return 2 * np.pi * math.sqrt(chain.mass_matrix([0.0])[0, 0] / stiffness)


def check_one_link_period(period: Any, ratio: Any) -> bool:
    """Question: small-oscillation period [s] and its ratio when the mass doubles.

    Parameters
    ----------
    period : float
        Period of small oscillations of the hanging segment (no load) [s].
    ratio : float
        New period / old period when the segment's density doubles (mass and moment of
        inertia both double, same shape).

    Returns
    -------
    bool
        ``True`` if both are right.
    """
    base = _one_link_period()
    hint = (f"{_NB1}, section 9: linearise the hanging pendulum's equation of motion for small "
            "beta "
            "(sin beta ~ beta): I_o beta'' = -m g d beta is a harmonic oscillator.")
    check_value("period", period, base, unit="s", hint=hint)
    return check_value("ratio", ratio, _one_link_period(2.0) / base,
                       hint="write the period with I_o = I + m d^2 and see which factors "
                       "cancel when both m and I double.")


