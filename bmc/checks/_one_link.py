"""Checks of exercise set 1: the one-link pendulum."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem

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
        ("length", seg.length, "m", "segment length L, elbow to the tip of the hand "
         f"(Dempster's forearm + hand of a {person}, as in notebook 1)"),
        ("com", seg.com, "m", "joint-to-centre-of-mass distance d"),
        ("mass", seg.mass, "kg", "segment mass m"),
        ("inertia", seg.inertia, "kg m^2", "moment of inertia about the centre of mass I"),
        ("g", 9.81, "m/s^2", "gravitational acceleration, along -y"),
        ("alpha", np.pi / 6, "rad", "segment angle from the horizontal (+x), CCW"),
        ("alphadd", 5.0, "rad/s^2", "angular acceleration"),
        ("load", 2.0, "kg", "a load held in the hand: a point mass at the tip (its weight "
         "and its inertia)"),
        ("alphad_spin", 3.0, "rad/s", "constant angular velocity of the spinning segment "
         "(question 2)"),
        ("alpha_spin", np.pi / 4, "rad", "angle at which the spinning segment is observed "
         "(question 2)"),
    ]


register_problem(
    "one_link",
    "One-link pendulum: a forearm-and-hand segment hinged at the elbow",
    _one_link_entries,
    vary={"mass": 0.15, "com": 0.1, "inertia": 0.15, "alphadd": 0.3, "load": 0.25},
)


_NB1 = "notebooks/01_one_link.ipynb"



def check_one_link_torque(T: Any) -> bool:
    """Public check of question 1: joint torque ``T``: one number [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("T", T, unit="N m", hint=f"{_NB1}, section 4 (moments about the joint).")


def check_one_link_centripetal(sign_T: Any, sign_Frx: Any, sign_Fry: Any) -> bool:
    """Public check of question 2: three signs (+1, -1, 0 or words).

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB1}, sections 2-3 ('Where did the centripetal terms go?')."
    check_form("sign_T", sign_T, kind="sign", hint=hint)
    check_form("sign_Frx", sign_Frx, kind="sign", hint=hint)
    return check_form("sign_Fry", sign_Fry, kind="sign", hint=hint)


def check_one_link_hanging(hanging_qdd: Any) -> bool:
    """Public check of question 3: ``hanging_qdd(beta, beta_dot, torque)`` [rad/s^2].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("hanging_qdd", hanging_qdd, kind="function", example=(0.3, 0.0, 0.0),
                      unit="rad/s^2", hint=f"{_NB1}, section 9 (the hanging pendulum).")


def check_one_link_euler_step(euler_step: Any) -> bool:
    """Public check of question 4: ``euler_step(beta, beta_dot, torque, dt)`` returns two numbers.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("euler_step", euler_step, kind="function", example=(0.3, 0.0, 0.0, 0.01),
                      shape=(2,), hint=f"{_NB1}, section 7 (forward dynamics).")


def check_one_link_period(period: Any, ratio: Any) -> bool:
    """Public check of question 5: two numbers, a period [s] and a ratio [-].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB1}, section 9: linearise for small beta."
    check_form("period", period, unit="s", hint=hint)
    return check_form("ratio", ratio, unit="-", hint=hint)
