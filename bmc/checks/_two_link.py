"""Checks of exercise set 2: the two-link arm."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem

__all__ = [
    "check_two_link_segmental_mass_matrix",
    "check_two_link_time_scaling",
    "check_two_link_vanishing",
    "check_two_link_velocity_terms",
]


def _two_link_entries() -> list[tuple[str, Any, str, str]]:
    from bmc.models.arm import SUBJECT, arm_segments

    arm = arm_segments()  # notebook 2's subject
    person = f"{SUBJECT['height']:.2f} m, {SUBJECT['body_mass']:.0f} kg person"
    return [
        ("lengths", [s.length for s in arm], "m", "upper arm, forearm + hand (Dempster's "
         f"parameters of a {person}, as in notebook 2)"),
        ("com", [s.com for s in arm], "m", "joint-to-centre-of-mass distances d1, d2"),
        ("masses", [s.mass for s in arm], "kg", "segment masses"),
        ("inertias", [s.inertia for s in arm], "kg m^2",
         "moments of inertia about each centre of mass"),
        ("g", 9.81, "m/s^2", "gravitational acceleration, along -y"),
        ("q", [np.pi / 6, np.pi / 3], "rad", "joint angles (shoulder from +x, elbow "
         "relative to the upper arm)"),
        ("qd", [1.5, -2.0], "rad/s", "joint angular velocities"),
        ("q_start", [-np.pi / 2, 0.0], "rad", "start of the reach (arm hanging)"),
        ("q_end", [0.0, np.pi / 2], "rad", "end of the reach (upper arm forward, elbow at "
         "90 deg)"),
        ("durations", [4.0, 0.5], "s", "slow and fast movement times"),
    ]


register_problem("two_link", "Two-link arm: upper arm and forearm + hand",
                 _two_link_entries, vary={"qd": 0.3, "durations": 0.2})


_NB2 = "notebook 2 (two-link arm)"



def check_two_link_velocity_terms(C: Any) -> bool:
    """Public check of question 1: velocity terms ``C``: two numbers [N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("C", C, shape=(2,), unit="N m", hint=f"{_NB2}, coupling effects.")


def check_two_link_vanishing(case: str, answer: Any) -> bool:
    """Public check of question 2: a set of items from {'C1', 'C2'} (``set()`` for none).

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form(f"vanish_{case}", answer, kind="set", choices=["C1", "C2"],
                      hint=f"{_NB2}, coupling effects.")


def check_two_link_segmental_mass_matrix(mass_matrix_segmental: Any) -> bool:
    """Public check of question 3: ``mass_matrix_segmental(theta1, theta2)``, (2, 2) [kg m^2].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("mass_matrix_segmental", mass_matrix_segmental, kind="function",
                      example=(0.3, 1.2), shape=(2, 2), unit="kg m^2",
                      hint=f"{_NB2}, segment angles.")


def check_two_link_time_scaling(factor_inertial: Any, factor_velocity: Any,
                                factor_gravity: Any) -> bool:
    """Public check of question 4: three numbers [-].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB2}, time scaling of a movement."
    check_form("factor_inertial", factor_inertial, hint=hint)
    check_form("factor_velocity", factor_velocity, hint=hint)
    return check_form("factor_gravity", factor_gravity, hint=hint)
