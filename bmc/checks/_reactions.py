"""Checks of exercise set 5: joint reactions by the augmented joint coordinates (Blajer).

The model is the leg of Blajer and Czaplicki (2005), eq. (3.1): thigh (segment 2), shank
(3) and foot (4) below a moving hip, angles from the downward vertical, both legs lumped
together. The expected values are computed here from the paper's resolved formulas,
eq. (3.3) with its misprinted "=" read as "+", which never build ``D``, ``E`` or ``M``:
an independent route to the same reactions.
"""

from __future__ import annotations

from typing import Any

from bmc.checks._core import check_form, register_problem

__all__ = [
    "check_reactions_E",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]

register_problem(
    "reactions",
    "Blajer's leg: thigh, shank and foot of both legs below a moving hip",
    lambda: [
        ("masses", [17.0, 5.2, 1.6], "kg", "m2, m3, m4: thigh, shank, foot (both legs)"),
        ("lengths", [0.42, 0.43], "m", "l2, l3: thigh (hip to knee), shank (knee to ankle)"),
        ("c", [0.18, 0.19, 0.05], "m", "c2, c3, c4: hip to thigh COM, knee to shank COM, "
         "ankle to foot COM"),
        ("g", 9.81, "m/s^2", "acceleration of free fall, along -y"),
        ("q", [0.05, 0.95, 0.6, -0.3, 1.2], "m, rad", "[x_H, y_H, phi2, phi3, phi4]: hip "
         "position and segment angles from the downward vertical (CCW)"),
        ("qd", [1.0, -0.5, 2.0, -1.5, 0.8], "m/s, rad/s", "their first derivatives"),
        ("qdd", [3.0, 12.0, -8.0, 5.0, 2.0], "m/s^2, rad/s^2", "their second derivatives"),
        ("R", [150.0, 1800.0], "N", "force of the trampoline bed on the feet [R_x, R_y]"),
    ],
)

_NB5 = "notebooks/05_joint_reactions.ipynb"



def check_reactions_E(E: Any) -> bool:
    """Public check of question 1: the (9, 6) matrix E [-].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("E", E, shape=(9, 6), unit="-", hint=f"{_NB5}, section 3, eq. (2.10).")


def check_reactions_accelerations(pdd: Any) -> bool:
    """Public check of question 2: 9 accelerations [m/s^2, rad/s^2].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("pdd", pdd, shape=(9,), unit="m/s^2, rad/s^2",
                      hint=f"{_NB5}, section 3 (D q'' + gamma).")


def check_reactions_lambda(lam: Any) -> bool:
    """Public check of question 3: 6 joint reactions [N].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("lam", lam, shape=(6,), unit="N", hint=f"{_NB5}, section 3, eq. (2.10).")


def check_reactions_predictions(sign_lam2_flight: Any, largest_vertical: Any) -> bool:
    """Public check of question 4: a sign and one of 'hip', 'knee', 'ankle'.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    hint = f"{_NB5}, section 3.1."
    check_form("sign_lam2_flight", sign_lam2_flight, kind="sign", hint=hint)
    return check_form("largest_vertical", largest_vertical, kind="choice",
                      choices=["hip", "knee", "ankle"], hint=hint)
