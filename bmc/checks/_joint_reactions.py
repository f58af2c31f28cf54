"""Exercise set 5, joint reactions by augmented joint coordinates (Blajer).

Its data, the right answers from ``bmc`` and the public checks.

The model is the leg of Blajer and Czaplicki (2005), eq. (3.1): thigh (segment 2), shank
(3) and foot (4) below a moving hip, angles from the downward vertical, both legs lumped
together, taken from :func:`bmc.models.human.human_model` (de Leva's segments scaled to a
body mass and height). A student's variant (``problem("reactions", student=ID)``) has its
own jumper (height and body mass) and its own support-phase instant (``q``, ``qd``,
``qdd``, bed force ``F_bed``). The letters are notebook 5's: segment angles ``psi_i``
(the paper's ``phi_i``), the bed force ``F_bed`` (the paper's ``R_x``, ``R_y``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import (
    IncorrectAnswer,
    Problem,
    _fail,
    _numeric,
    practice,
    register_problem,
)
from bmc.checks._practice import (
    Output,
    answer_of,
    call_student,
    judged_at_grading,
    practice_function,
    practice_prediction,
    require_answer,
    require_function,
)
from bmc.checks._sections import section
from bmc.constants import G

__all__ = [
    "check_reactions_Z",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
]

def _leg_entries(body_mass: float = 60.0, height: float = 1.70,
                 q: tuple[float, ...] = (0.05, 0.95, 0.6, -0.3, 1.2),
                 qd: tuple[float, ...] = (1.0, -0.5, 2.0, -1.5, 0.8),
                 qdd: tuple[float, ...] = (3.0, 12.0, -8.0, 5.0, 2.0),
                 F_bed: tuple[float, float] = (150.0, 1800.0),
                 ) -> list[tuple[str, Any, str, str]]:
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
        ("com", model.com[legs], "m", "d2, d3, d4: hip to thigh COM, knee to shank COM, "
         "ankle to foot COM"),
        ("g", model.g, "m/s^2", "acceleration of free fall, along -y"),
        ("q", q, "m, rad", "[x_H, y_H, psi2, psi3, psi4]: hip position and segment angles "
         "psi_i from the downward vertical (CCW)"),
        ("qd", qd, "m/s, rad/s", "their first derivatives"),
        ("qdd", qdd, "m/s^2, rad/s^2", "their second derivatives"),
        ("F_bed", F_bed, "N", "force of the trampoline bed on the feet, [F_bed,x, F_bed,y]"),
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
    Fy = float(body_mass * G * rng.uniform(2.5, 3.5))
    return {"body_mass": body_mass, "height": height, "q": tuple(q), "qd": tuple(qd),
            "qdd": tuple(qdd), "F_bed": (float(Fy * rng.uniform(0.0, 0.15)), Fy)}


register_problem(
    "reactions",
    "Blajer's leg: thigh, shank and foot of both legs below a moving hip",
    _leg_entries, variant=_leg_variant,
)

# ----------------------------------------------------------------------------- answers
def _model(data: Problem):
    """Return the data's jumper (:func:`bmc.models.human.human_model`) and its leg indices."""
    from bmc.models.human import human_model, leg_segments

    model = human_model(body_mass=data.body_mass, height=data.height)
    return model, list(leg_segments(model))


def _full(model, legs: list[int], leg_q: np.ndarray) -> np.ndarray:
    """Return the tree's coordinates with the leg's ``[x_H, y_H, psi2, psi3, psi4]``."""
    q = np.zeros(model.k)
    q[:2] = leg_q[:2]
    q[[2 + i for i in legs]] = leg_q[2:]
    return q


def answer_Z(n: int = 3) -> np.ndarray:
    """Z = dp/dz (3n, 2n) of the first ``n`` leg segments below the hip and their joints.

    From :meth:`bmc.tree.PlanarTree.jacobian_z` of the course's jumper (Z does not depend
    on the body's size): rows x, y, psi per segment, columns x, y per joint.
    """
    model, legs = _model(practice("reactions"))
    legs = legs[:n]
    rows = [3 * i + r for i in legs for r in range(3)]
    return model.jacobian_z()[np.ix_(rows, model.joint_columns(["hip", "knee", "ankle"][:n]))]


def answer_accelerations(data: Problem) -> tuple[np.ndarray]:
    """Pdd (9,): COM accelerations and angular accelerations of thigh, shank, foot."""
    model, legs = _model(data)
    qdd = _full(model, legs, data.qdd)
    _, _, acc = model.kinematics(_full(model, legs, data.q), _full(model, legs, data.qd), qdd)
    return (np.concatenate([np.r_[acc[i], qdd[2 + i]] for i in legs]),)


def answer_reactions(data: Problem, *, flight: bool = False) -> tuple[np.ndarray]:
    """Return the reactions (6,) [N] by eq. (3.3), :func:`bmc.models.human.leg_reactions`.

    ``flight``: the idealised flight, every point at -g, nothing turning, no bed force.
    """
    from bmc.models.human import leg_reactions

    model, legs = _model(data)
    if flight:
        zero = np.zeros(model.k)
        return (leg_reactions(model, _full(model, legs, data.q), zero,
                              np.r_[0.0, -model.g, zero[2:]], [0.0, 0.0]),)
    return (leg_reactions(model, *(_full(model, legs, x) for x in (data.q, data.qd,
                                                                      data.qdd)), data.F_bed),)


def _inertial_sign(data: Problem) -> tuple[np.ndarray]:
    """Return the mistake Z^T (h + M_p pdd): twice the reactions at rest minus the right ones."""
    rest = data.modified("at rest", qd=np.zeros(5), qdd=np.zeros(5))
    return (2 * answer_reactions(rest)[0] - answer_reactions(data)[0],)


def standing(data: Problem) -> Problem:
    """Return the practice case of question 4: at rest on the bed, carrying the body weight."""
    return data.modified("standing still on the bed", qd=np.zeros(5), qdd=np.zeros(5),
                         F_bed=[0.0, data.body_mass * data.g])


def _Z_concept(Z: np.ndarray, n: int) -> str:
    """Say what is wrong with a student's Z, as concepts (never an entry: few values)."""
    right = answer_Z(n)
    psi = np.arange(2, 3 * n, 3)
    said = []
    if not np.any(Z):
        said.append("it is all zeros, the placeholder")
    if np.any(Z[psi]):
        said.append("a row of a segment angle psi is not zero, but a translation turns no "
                    "segment")
    if np.any((Z != 0) & (Z != 1)):
        said.append("it holds values other than 0 and 1, but a translation moves a "
                    "segment by exactly its own amount")
    xy = Z[np.ix_(np.arange(0, 3 * n, 3), np.arange(1, 2 * n, 2))]
    yx = Z[np.ix_(np.arange(1, 3 * n, 3), np.arange(0, 2 * n, 2))]
    if np.any(xy) or np.any(yx):
        said.append("an x translation appears in a y row (or a y translation in an x row)")
    extra = (Z != 0) & (right == 0)
    missing = (Z == 0) & (right != 0)
    if np.any(extra[np.setdiff1d(np.arange(3 * n), psi)]) and not said:
        said.append("a translation at a joint moves a segment above that joint; it moves "
                    "only the segments below it")
    if np.any(missing) and np.any(Z):
        said.append("a translation at a joint must move *every* segment below it by the "
                    "same amount")
    return "; ".join(said)


# ----------------------------------------------------------------------------- checks
_Z_HINT = section("reactions.coordinates", "a prohibited translation z at a joint moves "
                  "every segment below that joint by the same amount and turns none of "
                  "them; Z holds the coefficients of z in p = p(q, z)")


def check_reactions_Z(open_constraint_Z: Any, Z: Any) -> bool:
    """Question 1: ``open_constraint_Z(n)`` for the practice leg of 2 segments.

    ``Z`` is its value for 3 segments. Z holds only zeros and ones: messages name
    concepts, never entries.
    """
    name = "open_constraint_Z(2)"
    require_function("open_constraint_Z", open_constraint_Z, hint=_Z_HINT)
    got = _numeric(name, call_student(name, open_constraint_Z, 2, hint=_Z_HINT),
                   shape=(6, 4), unit="-", hint=_Z_HINT)
    if not np.array_equal(got, answer_Z(2)):
        concept = _Z_concept(got, 2)
        raise _fail(name, "(the practice leg: thigh and shank below the hip) is not right "
                    "yet" + (f": {concept}" if concept else ""), _Z_HINT)
    return answer_of("Z", Z, lambda d: open_constraint_Z(3), None, shape=(9, 6), unit="-",
                     hint=_Z_HINT)


_ACC_HINT = section("reactions.jacobian", "differentiate x = x_H + d sin(psi), y = y_H "
                    "- d cos(psi) twice (chain rule: psi'' cos(psi) - psi'^2 sin(psi) for "
                    "x); the shank's centre adds the whole thigh length l2, the foot's adds "
                    "l2 and l3; the angle rows hold psi_i'' itself")


def _degrees(data: Problem) -> Problem:
    q = data.q
    return data.modified("angles in degrees", q=np.r_[q[:2], np.degrees(q[2:])])


def check_reactions_accelerations(accelerations: Any, pdd: Any, p: Any = None) -> bool:
    """Question 2: ``accelerations(p)`` (9,) on the practice data; ``pdd`` for you."""
    practice_function(
        "accelerations", accelerations, topic="reactions",
        outputs=[Output("pdd", (9,), "m/s^2, rad/s^2")], expected=answer_accelerations,
        probes=[("the leg not turning (p.qd = 0 except the hip)",
                 {"qd": [1.0, -0.5, 0.0, 0.0, 0.0]})],
        mistakes=[("the angles taken in degrees",
                   lambda d: answer_accelerations(_degrees(d))),
                  ("the hip's own acceleration left out",
                   lambda d: answer_accelerations(d.modified(qdd=np.r_[0.0, 0.0,
                                                                        d.qdd[2:]])))],
        rtol=1e-4, hint=_ACC_HINT)
    return answer_of("pdd", pdd, accelerations, p, shape=(9,), unit="m/s^2, rad/s^2",
                     hint=_ACC_HINT)


_LAM_HINT = section("reactions.resolved", "lambda = Z^T (h - M_p pdd) with M_p = diag(m2, "
                    "m2, I2, ...) (the I's do not matter: why?) and h holding the weights (-m g "
                    "on the y rows) and the bed force F_bed on the foot's x and y rows")


def check_reactions_lambda(joint_reactions: Any, lam: Any, p: Any = None,
                           accelerations: Any = None) -> bool:
    """Question 3: ``joint_reactions(p)`` (6,) [N] on the practice data; ``lam`` for you."""
    data = practice("reactions")
    try:
        practice_function(
            "joint_reactions", joint_reactions, topic="reactions",
            outputs=[Output("lam", (6,), "N")], expected=answer_reactions,
            probes=[("no bed force (p.F_bed = 0)", {"F_bed": [0.0, 0.0]}),
                    ("no gravity (p.g = 0)", {"g": 0.0}),
                    ("the leg at rest (p.qd = p.qdd = 0)", {"qd": np.zeros(5),
                                                            "qdd": np.zeros(5)})],
            mistakes=[("the bed force left out",
                       lambda d: answer_reactions(d.modified(F_bed=[0.0, 0.0]))),
                      ("the weights with the wrong sign (+m g on the y rows)",
                       lambda d: answer_reactions(d.modified(g=-d.g))),
                      ("the inertial forces with the wrong sign, Z^T (h + M_p pdd)",
                       _inertial_sign)],
            rtol=1e-4, atol=1e-6, hint=_LAM_HINT)
    except IncorrectAnswer as exc:
        if callable(accelerations):
            try:
                ok = np.allclose(accelerations(data), answer_accelerations(data)[0],
                                 rtol=1e-4)
            except Exception:  # noqa: BLE001 (its own check reports it)
                ok = False
            if not ok:
                raise IncorrectAnswer(f"{exc} Note: joint_reactions uses your "
                                      "accelerations, which are not right on the practice "
                                      "data yet (question 2): fix those first.") from None
        raise
    return answer_of("lam", lam, joint_reactions, p, shape=(6,), unit="N", hint=_LAM_HINT)


def check_reactions_predictions(practice_sign: Any, sign_lam2_flight: Any,
                                largest_vertical: Any) -> bool:
    """Question 4: the practice sign is judged; the two predictions at grading."""
    hint = section("reactions.formulas", "each joint carries the bed force minus the weight "
                   "and the inertial force of the segments below it")
    data = standing(practice("reactions"))
    practice_prediction([("practice_sign", practice_sign, answer_reactions(data)[0][1],
                          "sign", None)], hint=hint)
    require_answer("sign_lam2_flight", sign_lam2_flight, kind="sign", hint=hint)
    require_answer("largest_vertical", largest_vertical, kind="choice",
                   choices=["hip", "knee", "ankle"], hint=hint)
    judged_at_grading(["sign_lam2_flight", "largest_vertical"], "a sign and one of three "
                      "joints, which a check would give away",
                      right="Your practice sign is right")
    return True
