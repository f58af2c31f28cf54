"""Exercise set 1, the one-link pendulum: data, right answers from ``bmc``, public checks.

The right answers are computed by :class:`bmc.chain.PlanarChain` from any data; the public
checks call them on :func:`~bmc.checks.practice` data only, the grader
(``exercises/bmc_answers``) on a student's own.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np

from bmc.checks._core import Problem, _fail, practice, register_problem
from bmc.checks._practice import (
    Output,
    answer_of,
    judged_at_grading,
    practice_function,
    practice_prediction,
    require_answer,
)
from bmc.checks._sections import section

__all__ = [
    "check_one_link_centripetal",
    "check_one_link_euler_step",
    "check_one_link_hanging",
    "check_one_link_period",
    "check_one_link_torque",
]


def _one_link_entries() -> list[tuple[str, Any, str, str]]:
    from bmc.models.arm import SUBJECT, forearm_hand

    seg = forearm_hand()  # notebook 1's subject
    person = f"{SUBJECT['height']:.2f} m, {SUBJECT['body_mass']:.0f} kg person"
    return [
        ("length", seg.length, "m", "segment length l, elbow to the tip of the hand "
         f"(Dempster's forearm + hand of a {person}, as in notebook 1)"),
        ("com", seg.com, "m", "joint-to-centre-of-mass distance d"),
        ("mass", seg.mass, "kg", "segment mass m"),
        ("inertia", seg.inertia, "kg m^2", "moment of inertia about the centre of mass I"),
        ("g", 9.81, "m/s^2", "gravitational acceleration, along -y"),
        ("alpha", np.pi / 6, "rad", "segment angle from the horizontal (+x), CCW"),
        ("alphadd", 5.0, "rad/s^2", "angular acceleration"),
        ("load", 2.0, "kg", "a load held in the hand: a point mass at the tip (its weight "
         "and its inertia)"),
        ("alphad_spin", 3.0, "rad/s", "angular velocity of the spinning segment "
         "(question 2)"),
        ("alpha_spin", np.pi / 4, "rad", "angle at which the spinning segment is observed "
         "(question 2)"),
        ("alpha_spin_practice", 5 * np.pi / 4, "rad", "angle of the practice case of "
         "question 2"),
        ("alphadd_spin_practice", -4.0, "rad/s^2", "angular acceleration of the practice "
         "case of question 2 (the segment is slowing down)"),
    ]


register_problem(
    "one_link",
    "One-link pendulum: a forearm-and-hand segment hinged at the elbow",
    _one_link_entries,
    vary={"mass": 0.15, "com": 0.1, "inertia": 0.15, "alphadd": 0.3, "load": 0.25},
)


# ----------------------------------------------------------------------------- answers
def _chain(data: Problem, *, g: float | None = None, load: bool = False):
    """Return the segment of ``data`` as a :class:`bmc.PlanarChain` (loaded if ``load``)."""
    from bmc.chain import PlanarChain

    chain = PlanarChain([data.length], [data.com], [data.mass], [data.inertia],
                        g=data.g if g is None else g)
    return chain.with_point_mass(data.load) if load and data.load > 0 else chain


def answer_torque(data: Problem) -> tuple[float]:
    """Joint torque [N m] of the loaded segment at ``alpha``, ``alphadd`` (at rest)."""
    return (float(_chain(data, load=True).inverse_dynamics([data.alpha], [0.0],
                                                           [data.alphadd])[0]),)


def _torque_without_load_inertia(data: Problem) -> tuple[float]:
    """Return the torque with the load's weight but not its inertia (a load is a mass)."""
    bare = _chain(data).inverse_dynamics([data.alpha], [0.0], [data.alphadd])[0]
    return (float(bare + data.load * data.g * data.length * math.cos(data.alpha)),)


def _torque_without_parallel_axis(data: Problem) -> tuple[float]:
    """Return the torque with I about the centre of mass where I_o belongs."""
    return (answer_torque(data)[0] - data.mass * data.com**2 * data.alphadd,)


def answer_spin(data: Problem, alpha: float, alphadd: float = 0.0) -> tuple[float, float, float]:
    """Return the joint torque [N m] and force (x, y) [N] on the spinning segment.

    The segment turns in the horizontal plane (no gravity) at the rate ``alphad_spin``
    and is observed at ``alpha``.
    """
    from bmc.kinematics import lever_kinematics

    chain = _chain(data, g=0.0)
    w = data.alphad_spin
    tau = float(chain.inverse_dynamics([alpha], [w], [alphadd])[0])
    # Newton: the joint force is m a_cm (no gravity, nothing else acts)
    acc = lever_kinematics(chain.levers, [[math.cos(alpha), math.sin(alpha)]], [w],
                           [alphadd])[2][0]
    force = data.mass * acc
    return tau, float(force[0]), float(force[1])


def answer_hanging_qdd(data: Problem, theta: float, theta_dot: float, tau: float) -> float:
    """Return the angular acceleration [rad/s^2] of the hanging segment.

    ``theta`` is measured from the downward vertical (the chain's angle from +x is
    theta - pi/2).
    """
    return float(_chain(data).forward_dynamics([theta - np.pi / 2], [theta_dot], [tau])[0])


def answer_euler_step(data: Problem, theta: float, theta_dot: float, tau: float,
               dt: float) -> tuple[float, float]:
    """One explicit Euler step of the hanging segment: derivatives at the step's start."""
    theta_ddot = answer_hanging_qdd(data, theta, theta_dot, tau)
    return (theta + dt * theta_dot, theta_dot + dt * theta_ddot)


def answer_period(data: Problem, density: float = 1.0) -> tuple[float]:
    """Small-oscillation period [s] of the hanging segment, 2 pi sqrt(I_o / (m g d)).

    ``density`` scales mass and moment of inertia alike (same shape).
    """
    from bmc.chain import PlanarChain

    chain = PlanarChain([data.length], [data.com], [density * data.mass],
                        [density * data.inertia], g=data.g)
    # I_o theta'' = -m g d theta: I_o is the one-link mass matrix, m g d the weight's moment
    # with the segment held horizontal
    stiffness = abs(chain.gravity_terms([0.0])[0])
    return (2 * np.pi * math.sqrt(chain.mass_matrix([0.0])[0, 0] / stiffness),)


# ----------------------------------------------------------------------------- checks
_TORQUE_HINT = section("one_link.moments", "I_o alpha'' + m g d cos(alpha) for the segment") \
    + "; and " + section("one_link.load", "the load adds its weight and its inertia")


def check_one_link_torque(joint_torque: Any, tau: Any, p: Any = None) -> bool:
    """Question 1: ``joint_torque(p)`` [N m] on the practice data; ``tau`` is its value for you.

    Returns
    -------
    bool
        ``True`` if the function is right on the practice data and ``tau`` has its form.
    """
    practice_function(
        "joint_torque", joint_torque, topic="one_link", outputs=[Output("tau", (), "N m")],
        expected=answer_torque,
        probes=[("the hand empty (p.load = 0)", {"load": 0.0}),
                ("no angular acceleration (p.alphadd = 0)", {"alphadd": 0.0}),
                ("no gravity (p.g = 0)", {"g": 0.0})],
        mistakes=[("the load's weight but not its inertia (a held load is a mass: "
                   "p.load p.length^2 p.alphadd is missing)", _torque_without_load_inertia),
                  ("the moment of inertia about the centre of mass where the one about "
                   "the joint belongs (the parallel-axis term m d^2 is missing)",
                   _torque_without_parallel_axis)],
        hint=_TORQUE_HINT)
    return answer_of("tau", tau, joint_torque, p, unit="N m", hint=_TORQUE_HINT)


def check_one_link_centripetal(practice_signs: Any, sign_tau: Any, sign_Frx: Any,
                               sign_Fry: Any) -> bool:
    """Question 2: the practice signs are judged; the three signs are judged at grading."""
    hint = section("one_link.newton_euler", "the centre of mass accelerates towards the "
                   "joint when the segment turns (alpha'^2 terms), along its path when it "
                   "speeds up or slows down (alpha'' terms); the joint force is m a_cm")
    data = practice("one_link")
    expected = answer_spin(data, data.alpha_spin_practice, data.alphadd_spin_practice)
    if not isinstance(practice_signs, (tuple, list)) or len(practice_signs) != 3:
        require_answer("practice_signs", practice_signs, kind="value", shape=(3,), hint=hint)
    scale = data.mass * data.com * data.alphad_spin**2
    practice_prediction(
        [(f"practice_signs[{i}] ({what})", s, e / scale, "sign", None)
         for i, (what, s, e) in enumerate(zip(("torque", "Fx", "Fy"), practice_signs,
                                              expected, strict=True))], hint=hint)
    for name, value in (("sign_tau", sign_tau), ("sign_Frx", sign_Frx), ("sign_Fry", sign_Fry)):
        require_answer(name, value, kind="sign", hint=hint)
    judged_at_grading(["sign_tau", "sign_Frx", "sign_Fry"],
                      "three signs have 27 possible answers, so a check here would give "
                      "them away; the practice case tests the same physics",
                      right="Your practice signs are right")
    return True


_HANGING_PRACTICE = [(0.4, 0.0, 0.0), (-1.2, 1.5, 0.8), (2.0, -2.0, -1.0)]


def _needs_data_argument(name: str, func: Any, signature: str, hint: str) -> None:
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return
    if "p" not in params:
        raise _fail(name, f"must take the data as its last argument with your data as the "
                    f"default: def {name}({signature}, p=p). The check passes the practice "
                    "data as p=...", hint)


def check_one_link_hanging(hanging_qdd: Any) -> bool:
    """Question 3: ``hanging_qdd(theta, theta_dot, torque, p=p)`` on the practice data."""
    hint = section("one_link.hanging", "take moments about the joint; with theta from the "
                   "downward vertical the weight's lever arm is d sin(theta) and it pulls the "
                   "segment back to theta = 0")
    if callable(hanging_qdd):
        _needs_data_argument("hanging_qdd", hanging_qdd, "theta, theta_dot, torque", hint)
    for case in _HANGING_PRACTICE:
        practice_function(
            f"hanging_qdd{case}", hanging_qdd, topic="one_link",
            outputs=[Output("theta''", (), "rad/s^2")],
            expected=lambda d, c=case: (answer_hanging_qdd(d, *c),),
            call=lambda f, d, c=case: f(*c, p=d),
            probes=[("no gravity (p.g = 0)", {"g": 0.0})],
            mistakes=[("the weight pushing away from theta = 0 (the inverted pendulum's "
                       "sign)", lambda d, c=case: (2 * c[2] / _inertia_o(d)
                                                   - answer_hanging_qdd(d, *c),)),
                      ("I about the centre of mass where I_o = I + m d^2 belongs",
                       lambda d, c=case: (answer_hanging_qdd(d, *c) * _inertia_o(d)
                                          / d.inertia,))],
            parameter=None, rtol=1e-4, hint=hint)
    return True



def _inertia_o(data: Problem) -> float:
    return data.inertia + data.mass * data.com**2


_EULER_PRACTICE = [(0.4, 0.0, 0.0, 0.01), (-1.2, 1.5, 0.8, 0.02)]


def check_one_link_euler_step(euler_step: Any) -> bool:
    """Question 4: ``euler_step(theta, theta_dot, torque, dt, p=p)`` on the practice data."""
    hint = section("one_link.forward", "explicit Euler takes the derivatives at the *start* "
                   "of the step: theta_new = theta + dt theta', theta'_new = theta' + dt "
                   "theta''(theta, theta', torque)")
    if callable(euler_step):
        _needs_data_argument("euler_step", euler_step, "theta, theta_dot, torque, dt", hint)
    for case in _EULER_PRACTICE:
        practice_function(
            f"euler_step{case}", euler_step, topic="one_link",
            outputs=[Output("theta_new", (), "rad"), Output("theta_dot_new", (), "rad/s")],
            expected=lambda d, c=case: answer_euler_step(d, *c),
            call=lambda f, d, c=case: f(*c, p=d),
            mistakes=[("a semi-implicit (symplectic) step: the position update must use "
                       "the old velocity", lambda d, c=case: _symplectic(d, *c))],
            parameter=None, rtol=1e-6, hint=hint)
    return True



def _symplectic(data: Problem, theta: float, theta_dot: float, tau: float,
                dt: float) -> tuple[float, float]:
    new = theta_dot + dt * answer_hanging_qdd(data, theta, theta_dot, tau)
    return theta + dt * new, new


def check_one_link_period(small_period: Any, period: Any, ratio: Any, p: Any = None) -> bool:
    """Question 5: ``small_period(p)`` [s] on the practice data; ``ratio`` at grading."""
    hint = section("one_link.hanging", "for small theta, sin(theta) ~ theta turns I_o theta'' = "
                   "-m g d theta into a harmonic oscillator")
    practice_function(
        "small_period", small_period, topic="one_link", outputs=[Output("period", (), "s")],
        expected=answer_period,
        probes=[("twice the gravity (p.g doubled)", {"g": 19.62})],
        mistakes=[("the angular frequency sqrt(m g d / I_o) where the period 2 pi / omega "
                   "belongs", lambda d: (2 * np.pi / answer_period(d)[0],)),
                  ("I about the centre of mass where I_o = I + m d^2 belongs",
                   lambda d: (answer_period(d)[0] * math.sqrt(d.inertia / _inertia_o(d)),))],
        hint=hint)
    answer_of("period", period, small_period, p, unit="s", hint=hint)
    require_answer("ratio", ratio, unit="-", hint=hint)
    judged_at_grading(["ratio"], "it is one number, the same for everyone, which a check "
                      "would give away: reason it out from the formula of the period",
                      right="small_period is right on the practice data")
    return True

