"""Checks of exercise set 5: joint reactions by the augmented joint coordinates (Blajer).

The model is the leg of Blajer and Czaplicki (2005), eq. (3.1): thigh (segment 2), shank
(3) and foot (4) below a moving hip, angles from the downward vertical, both legs lumped
together, taken from :func:`bmc.models.human.human_model` (de Leva's segments scaled to a
body mass and height). A student's variant (``problem("reactions", student=ID)``) has its
own jumper (height and body mass) and its own support-phase instant (``q``, ``qd``,
``qdd``, bed force ``R``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem
from bmc.constants import G

__all__ = [
    "check_reactions_E",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]

def _leg_entries(body_mass: float = 60.0, height: float = 1.70,
                 q: tuple[float, ...] = (0.05, 0.95, 0.6, -0.3, 1.2),
                 qd: tuple[float, ...] = (1.0, -0.5, 2.0, -1.5, 0.8),
                 qdd: tuple[float, ...] = (3.0, 12.0, -8.0, 5.0, 2.0),
                 R: tuple[float, float] = (150.0, 1800.0)) -> list[tuple[str, Any, str, str]]:
    """Return the leg of :func:`bmc.models.human.human_model` for one body, at one instant."""
    from bmc.models.human import human_model, leg_segments

    model = human_model(body_mass=body_mass, height=height)
    legs = list(leg_segments(model))
    return [
        ("body_mass", body_mass, "kg", "body mass of the jumper (de Leva's segments)"),
        ("height", height, "m", "body height of the jumper"),
        ("masses", model.masses[legs], "kg", "m2, m3, m4: thigh, shank, foot (both legs)"),
        ("lengths", model.attach[legs[1:]], "m", "l2, l3: thigh (hip to knee), shank "
         "(knee to ankle)"),
        ("com", model.com[legs], "m", "c2, c3, c4: hip to thigh COM, knee to shank COM, "
         "ankle to foot COM"),
        ("g", model.g, "m/s^2", "acceleration of free fall, along -y"),
        ("q", q, "m, rad", "[x_H, y_H, phi2, phi3, phi4]: hip position and segment angles "
         "from the downward vertical (CCW)"),
        ("qd", qd, "m/s, rad/s", "their first derivatives"),
        ("qdd", qdd, "m/s^2, rad/s^2", "their second derivatives"),
        ("R", R, "N", "force of the trampoline bed on the feet [R_x, R_y]"),
    ]


def _leg_variant(rng: np.random.Generator) -> dict[str, Any]:
    """Draw a student's jumper (height 1.55-1.95 m, body-mass index 19-27 kg/m^2) and instant.

    The support-phase state stays near the common one (angles within +-0.15 rad, rates and
    accelerations within +-20 %), and the bed pushes with 2.5 to 3.5 body weights, up to
    15 % of it forwards: the hip decelerates upwards as on a trampoline.
    """
    height = float(rng.uniform(1.55, 1.95))
    body_mass = float(rng.uniform(19.0, 27.0) * height**2)
    q = np.array([0.05, 0.95 * height / 1.70, 0.6, -0.3, 1.2]) + np.r_[
        rng.uniform(-0.05, 0.05), 0.0, rng.uniform(-0.15, 0.15, 3)]
    qd = np.array([1.0, -0.5, 2.0, -1.5, 0.8]) * rng.uniform(0.8, 1.2, 5)
    qdd = np.array([3.0, 12.0, -8.0, 5.0, 2.0]) * rng.uniform(0.8, 1.2, 5)
    Ry = float(body_mass * G * rng.uniform(2.5, 3.5))
    return {"body_mass": body_mass, "height": height, "q": tuple(q), "qd": tuple(qd),
            "qdd": tuple(qdd), "R": (float(Ry * rng.uniform(0.0, 0.15)), Ry)}


register_problem(
    "reactions",
    "Blajer's leg: thigh, shank and foot of both legs below a moving hip",
    _leg_entries, variant=_leg_variant,
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
