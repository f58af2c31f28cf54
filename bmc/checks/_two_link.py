"""Exercise set 2, the two-link arm: data, right answers from ``bmc``, public checks.

The right answers are computed by :class:`bmc.chain.PlanarChain` from any data; the public
checks call them on :func:`~bmc.checks.practice` data only, the grader
(``exercises/bmc_answers``) on a student's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import Problem, _fail, register_problem
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


# ----------------------------------------------------------------------------- answers
def _chain(data: Problem, g: float | None = None):
    from bmc.chain import PlanarChain

    return PlanarChain(data.lengths, data.com, data.masses, data.inertias,
                       g=data.g if g is None else g)


def answer_velocity_terms(data: Problem) -> tuple[np.ndarray]:
    """Centripetal and Coriolis torques C (2,) [N m] at ``q``, ``qd``."""
    return (_chain(data).velocity_terms(data.q, data.qd),)


def _without_coriolis(data: Problem) -> tuple[np.ndarray]:
    """C with the shoulder's Coriolis part (in q1' q2') left out."""
    full = answer_velocity_terms(data)[0]
    # with the shoulder still, C1 = -l1 d2 m2 q2'^2 sin(q2): its part without q1'
    shoulder_still = _chain(data).velocity_terms(data.q, [0.0, data.qd[1]])
    return (np.array([shoulder_still[0], full[1]]),)


def vanishing(data: Problem, q: Any, qd: Any) -> set[str]:
    """Entries of C that are zero at ``q``, ``qd`` (horizontal plane, no gravity)."""
    chain = _chain(data, g=0.0)
    C = chain.velocity_terms(q, qd)
    scale = np.abs(chain.velocity_terms([0.7, 1.1], [1.4, 2.3])).max()
    return {f"C{i + 1}" for i in range(2) if abs(C[i]) < 1e-9 * scale}


def answer_segmental_mass_matrix(data: Problem, phi1: float, phi2: float) -> np.ndarray:
    """Mass matrix M_phi (2, 2) [kg m^2] in the segment angles phi1, phi2 (from +x).

    With ``S = dq/dphi`` (q = (phi1, phi2 - phi1), the joint angles), the kinetic energy
    gives ``M_phi = S^T M(q) S``.
    """
    chain = _chain(data)
    S = np.array([[1.0, 0.0], [-1.0, 1.0]])
    return S.T @ chain.mass_matrix(chain.from_segment_angles([phi1, phi2])) @ S


def _min_jerk_peaks(data: Problem, duration: float) -> tuple[float, float, float]:
    """Peak |M qdd|, |C| and |G| at the shoulder for a minimum-jerk joint movement."""
    from bmc.kinematics import minimum_jerk

    chain = _chain(data)
    q, qd, qdd = minimum_jerk(data.q_start, data.q_end, duration,
                              np.linspace(0.0, duration, 401))
    inertial = np.einsum("kij,kj->ki", chain.mass_matrix(q), qdd)
    return (np.abs(inertial[:, 0]).max(), np.abs(chain.velocity_terms(q, qd)[:, 0]).max(),
            np.abs(chain.gravity_terms(q)[:, 0]).max())


def answer_speedup(data: Problem) -> tuple[float, float, float]:
    """Fast/slow ratios of the peak shoulder torques: inertial, velocity, gravity."""
    slow, fast = (_min_jerk_peaks(data, d) for d in data.durations)
    return fast[0] / slow[0], fast[1] / slow[1], fast[2] / slow[2]


# ----------------------------------------------------------------------------- checks
_C_HINT = section("two_link.form", "C1 = -l1 d2 m2 (2 q1' + q2') q2' sin(q2) and C2 = l1 d2 "
                  "m2 q1'^2 sin(q2); only the elbow angle enters")


def check_two_link_velocity_terms(velocity_terms: Any, C: Any, p: Any = None) -> bool:
    """Question 1: ``velocity_terms(p)`` (2,) [N m] on the practice data; ``C`` for you."""
    practice_function(
        "velocity_terms", velocity_terms, topic="two_link",
        outputs=[Output("C", (2,), "N m")], expected=answer_velocity_terms,
        probes=[("the shoulder still (p.qd[0] = 0)", {"qd": [0.0, -2.0]}),
                ("the elbow still (p.qd[1] = 0)", {"qd": [1.5, 0.0]})],
        mistakes=[("the shoulder's Coriolis part, in q1' q2', left out",
                   _without_coriolis)],
        hint=_C_HINT)
    return answer_of("C", C, velocity_terms, p, shape=(2,), unit="N m", hint=_C_HINT)


#: The practice condition of question 2: both joints turn at the same rate.
PRACTICE_VANISH = ([0.7, 1.1], [1.3, 1.3])


def check_two_link_vanishing(vanish_practice: Any, vanish_a: Any, vanish_b: Any,
                             vanish_c: Any, vanish_d: Any) -> bool:
    """Question 2: the practice set is judged; the four sets are judged at grading."""
    from bmc.checks._core import practice

    hint = section("two_link.horizontal", "write C1 and C2 and see which factor (sin q2, "
                   "q1', q2', 2 q1' + q2') becomes zero under the condition; for d, "
                   "differentiate the condition in time")
    practice_prediction([("vanish_practice", vanish_practice,
                          vanishing(practice("two_link"), *PRACTICE_VANISH), "set",
                          ["C1", "C2"])], hint=hint)
    for name, value in (("vanish_a", vanish_a), ("vanish_b", vanish_b),
                        ("vanish_c", vanish_c), ("vanish_d", vanish_d)):
        require_answer(name, value, kind="set", choices=["C1", "C2"], hint=hint)
    judged_at_grading(["vanish_a", "vanish_b", "vanish_c", "vanish_d"],
                      "each is one of four sets, which a check would give away",
                      right="Your practice set is right")
    return True


_SEGMENTAL_PRACTICE = [(0.4, 1.0), (-0.8, 0.9), (1.5, 2.6)]


def _joint_form(data: Problem, phi1: float, phi2: float) -> np.ndarray:
    """Return the mistake of keeping M(q) of the joint angles, at q = (phi1, phi2)."""
    return _chain(data).mass_matrix([phi1, phi2])


def check_two_link_segmental_mass_matrix(mass_matrix_segmental: Any) -> bool:
    """Question 3: ``mass_matrix_segmental(phi1, phi2, p=p)`` (2, 2) on practice data.

    ``phi1``, ``phi2`` [rad] are the segment angles from the forward horizontal
    (notebook 2's varphi_1 = alpha1, varphi_2 = alpha1 + alpha2).
    """
    hint = section("two_link.segment_angles", "write the centre-of-mass velocities with "
                   "phi1 and phi2 (or substitute alpha1 = phi1, alpha2 = phi2 - phi1 into "
                   "the kinetic energy); the coupling entry depends on phi2 - phi1")
    if callable(mass_matrix_segmental):
        import inspect

        try:
            params = inspect.signature(mass_matrix_segmental).parameters
        except (TypeError, ValueError):
            params = {"p": None}
        if "p" not in params:
            raise _fail("mass_matrix_segmental", "must take the data as its last argument "
                        "with your data as the default: def mass_matrix_segmental(phi1, "
                        "phi2, p=p)", hint)
    for case in _SEGMENTAL_PRACTICE:
        practice_function(
            f"mass_matrix_segmental{case}", mass_matrix_segmental, topic="two_link",
            outputs=[Output("M_phi", (2, 2), "kg m^2")],
            expected=lambda d, c=case: (answer_segmental_mass_matrix(d, *c),),
            call=lambda f, d, c=case: f(*c, p=d),
            mistakes=[("the joint-angle mass matrix M(q) kept as it is (its entries mix "
                       "both segments: transform it with q = (phi1, phi2 - phi1))",
                       lambda d, c=case: (_joint_form(d, *c),)),
                      # the diagonal is constant, the coupling cos(phi2 - phi1)
                      ("the coupling cos(phi1 + phi2) where cos(phi2 - phi1) belongs",
                       lambda d, c=case: (answer_segmental_mass_matrix(d, 0.0, c[0] + c[1]),))],
            parameter=None, rtol=1e-6, hint=hint)
    return True


def check_two_link_time_scaling(speedup_factors: Any, factor_inertial: Any,
                                factor_velocity: Any, factor_gravity: Any,
                                p: Any = None) -> bool:
    """Question 4: ``speedup_factors(p)`` on practice data; ``factor_gravity`` at grading."""
    hint = section("two_link.reaches", "on the same path q(t) = path(t / t_f), so q' "
                   "scales with 1/t_f and q'' with 1/t_f^2")
    practice_function(
        "speedup_factors", speedup_factors, topic="two_link",
        outputs=[Output("factor_inertial", (), "-"), Output("factor_velocity", (), "-")],
        expected=lambda d: answer_speedup(d)[:2],
        mistakes=[("the ratio of the durations where its square belongs: velocities grow "
                   "with 1/t_f, accelerations with 1/t_f^2",
                   lambda d: tuple(np.sqrt(answer_speedup(d)[:2]))),
                  ("the ratio upside down (slow over fast)",
                   lambda d: tuple(1 / np.asarray(answer_speedup(d)[:2])))],
        rtol=1e-3, hint=hint)
    answer_of("factor_inertial", factor_inertial, speedup_factors, p, unit="-", hint=hint,
              pick=0, call="speedup_factors(p)")
    answer_of("factor_velocity", factor_velocity, speedup_factors, p, unit="-", hint=hint,
              pick=1, call="speedup_factors(p)")
    require_answer("factor_gravity", factor_gravity, unit="-", hint=hint)
    judged_at_grading(["factor_gravity"], "it is one number, the same for everyone, which "
                      "a check would give away: which torque depends on the posture only?",
                      right="speedup_factors is right on the practice data")
    return True
