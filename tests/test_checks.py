"""The checks: generic helpers, the public checks (practice data) and the grader's checks.

The public checks of bmc.checks judge a student's function on practice data only; the
grader's checks (exercises/bmc_answers) judge the answers for the student's own data.

The topic checks compute their expected values with bmc (PlanarChain, lower_limb, ...);
these tests give them answers computed independently (closed forms, the source's own
matrices, a matrix solve where the check uses a recursion, finite differences, a known
injected bias), so a check and the library cannot agree on a wrong value.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from bmc import checks
from bmc.checks import IncorrectAnswer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))
import bmc_answers as answers  # noqa: E402  (the grader-side exact checks)


def _fails(call, *args, **kwargs) -> str:
    with pytest.raises(IncorrectAnswer) as info:
        call(*args, **kwargs)
    return str(info.value)


def _no_leak(message: str, expected) -> None:
    """The message must not contain the expected value in any common rounding."""
    for value in np.atleast_1d(np.asarray(expected, dtype=float)).ravel():
        if value == 0 or not np.isfinite(value):
            continue
        for text in {f"{value:.3g}", f"{value:.4g}", f"{value:.6g}", f"{value:.2f}",
                     f"{value:.3f}", repr(float(value))}:
            if len(text.lstrip("-").replace(".", "").replace("0", "")) >= 2:
                assert text not in message, f"{text!r} (expected value) leaked: {message}"


# ----------------------------------------------------------------------------- generic
def test_check_value_passes_within_tolerance_and_returns_true():
    assert checks.check_value("x", 2.0005, 2.0) is True  # rtol 1e-3: four digits suffice
    assert checks.check_value("x", [[1.0], [2.0]], [1.0, 2.0])  # a column is accepted


@pytest.mark.parametrize("answer, fragment", [
    (..., "has no answer yet"),
    (None, "has no answer yet"),
    ("twelve", "must be a number"),
    (True, "must be a number"),
    (print, "is a function"),
    ([1.0, 2.0], "must be a single number"),
    (float("nan"), "contains NaN"),
    (-12.34, "wrong sign"),
    (13.0, "is not correct yet"),
])
def test_check_value_explains_what_is_wrong(answer, fragment):
    message = _fails(checks.check_value, "x", answer, 12.34, hint="See section 2.")
    assert message.startswith("x ") and fragment in message
    _no_leak(message, 12.34)


def test_check_value_diagnoses_degrees_transpose_and_entries():
    angle = 0.7
    assert "degrees" in _fails(checks.check_value, "a", math.degrees(angle), angle, unit="rad")
    M = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert "transposed" in _fails(checks.check_value, "M", M.T, M)
    message = _fails(checks.check_value, "v", [1.0, 2.5, 3.0], [1.0, 2.0, 3.0])
    assert "v[1] is not right (the other entries are)" in message
    assert "twice the right value" in _fails(checks.check_value, "v", [2.0, 4.0], [1.0, 2.0])
    # on practice data (level="practice") it says how far off and which way
    assert "v[1] is 25 % too large" in _fails(checks.check_value, "v", [1.0, 2.5, 3.0],
                                               [1.0, 2.0, 3.0], level="practice")
    # a mistake model is named, never the value
    message = _fails(checks.check_value, "tau", 3.0, 5.0, mistakes=[("the torque without "
                                                                      "its load", 3.0)])
    assert "it matches the torque without its load" in message and "5" not in message
    # answers with few possible values: the concept only
    assert _fails(checks.check_value, "E", [[0.0, 1.0]], [[1.0, 1.0]],
                  level="concept", hint="h") == "E is not correct yet. Hint: h"


def test_hint_is_appended_and_never_the_value():
    message = _fails(checks.check_value, "tau", 1.0, 9.3936, hint="Read section 2.")
    assert message.endswith("Hint: Read section 2.")
    _no_leak(message, 9.3936)


def test_check_sign_accepts_numbers_and_words():
    assert checks.check_sign("s", -1, -3.0) and checks.check_sign("s", "Negative", -3.0)
    assert checks.check_sign("s", 0, 1e-12) and checks.check_sign("s", "zero", 0.0)
    assert "not the right sign" in _fails(checks.check_sign, "s", "+1", -3.0)
    assert "must be +1, -1 or 0" in _fails(checks.check_sign, "s", "down", -3.0)
    assert "no answer yet" in _fails(checks.check_sign, "s", ..., -3.0)


def test_check_set_and_choice():
    assert checks.check_set("z", ["c1"], {"C1"}, allowed=["C1", "C2"])
    assert checks.check_set("z", set(), set(), allowed=["C1", "C2"])
    assert "missing" in _fails(checks.check_set, "z", set(), {"C1"}, allowed=["C1", "C2"])
    assert "does not belong" in _fails(checks.check_set, "z", {"C1", "C2"}, {"C1"},
                                       allowed=["C1", "C2"])
    assert "not one of" in _fails(checks.check_set, "z", {"C3"}, {"C1"}, allowed=["C1", "C2"])
    assert "must be a set" in _fails(checks.check_set, "z", "C1", {"C1"}, allowed=["C1"])
    assert checks.check_choice("c", "Ankle", "ankle", choices=["hip", "ankle"])
    assert "not the right choice" in _fails(checks.check_choice, "c", "hip", "ankle",
                                            choices=["hip", "ankle"])
    assert "must be one of" in _fails(checks.check_choice, "c", "toe", "ankle",
                                      choices=["hip", "ankle"])


def test_check_function_reports_the_call_and_survives_student_errors():
    cases, expected = [(1.0,), (2.0,)], [2.0, 4.0]
    assert checks.check_function("f", lambda x: 2 * x, cases, expected)
    assert "raised ZeroDivisionError" in _fails(checks.check_function, "f", lambda x: 1 / 0,
                                                cases, expected)
    assert "returned nothing" in _fails(checks.check_function, "f", lambda x: None,
                                        cases, expected)
    message = _fails(checks.check_function, "f", lambda x: x + 1, cases, expected)
    assert message.startswith("f(2.) is not correct yet")  # the first call is right
    assert "must be a function" in _fails(checks.check_function, "f", 3.0, cases, expected)


def test_problem_is_read_only_with_units_and_copies():
    p = checks.problem("one_link")
    with pytest.raises(AttributeError, match="read-only"):
        p.mass = 3.0
    q = checks.problem("two_link").q
    q[0] = 99.0
    assert checks.problem("two_link").q[0] != 99.0  # a student's change stays in their copy
    assert p.units()["mass"] == "kg" and re.search(r"mass +\= 1\.54 \[kg\]", repr(p))
    assert isinstance(checks.problem("gait").k, int)  # sample indices stay integers
    with pytest.raises(AttributeError, match="has no quantity 'masss'"):
        p.masss  # noqa: B018
    with pytest.raises(ValueError, match="topic must be one of"):
        checks.problem("pendulum")
    assert set(checks.problems()) == {"gait", "least_squares", "matrix_form", "one_link",
                                      "reactions", "two_link"}


# ----------------------------------------------------------------------------- 1 one link
@pytest.fixture
def one():
    p = checks.problem("one_link")
    return p, p.inertia + p.mass * p.com**2


def test_one_link_torque_closed_form(one):
    p, I_o = one
    # The load as a force at the tip, F = -M (a_tip - g) (the check uses one combined body):
    # at alpha' = 0 the tip accelerates L alpha'' perpendicular to the segment.
    a_tip = p.length * p.alphadd * np.array([-math.sin(p.alpha), math.cos(p.alpha)])
    F = -p.load * (a_tip - np.array([0.0, -p.g]))
    tau = (I_o * p.alphadd + p.mass * p.g * p.com * math.cos(p.alpha)
           - p.length * (math.cos(p.alpha) * F[1] - math.sin(p.alpha) * F[0]))  # - r x F
    assert answers.check_one_link_torque(tau)
    assert answers.check_one_link_torque(round(tau, 3))  # rounded answers pass
    weight_only = tau - p.load * p.length**2 * p.alphadd  # the load's inertia forgotten
    message = _fails(answers.check_one_link_torque, weight_only)
    assert "Hint:" in message and "inertia" in message
    _no_leak(message, tau)


def test_one_link_centripetal_signs(one):
    assert answers.check_one_link_centripetal(0, -1, -1)  # no torque; pull towards the joint
    message = _fails(answers.check_one_link_centripetal, 0, 1, -1)
    # three signs have few possible values: the message never says which is wrong
    assert message.startswith("sign_tau, sign_Frx, sign_Fry are not all right yet")
    assert message == _fails(answers.check_one_link_centripetal, 1, -1, -1)


def test_one_link_hanging_and_euler(one):
    p, I_o = one

    def qdd(theta, theta_dot, torque):  # I_o theta'' = tau - m g d sin(theta)
        return (torque - p.mass * p.g * p.com * math.sin(theta)) / I_o

    def euler(theta, theta_dot, torque, dt):
        return theta + dt * theta_dot, theta_dot + dt * qdd(theta, theta_dot, torque)

    def symplectic(theta, theta_dot, torque, dt):
        new = theta_dot + dt * qdd(theta, theta_dot, torque)
        return theta + dt * new, new

    assert answers.check_one_link_hanging(qdd)
    inverted = _fails(answers.check_one_link_hanging,
                      lambda b, bd, t: (t + p.mass * p.g * p.com * math.sin(b)) / I_o)
    assert "hanging_qdd(" in inverted and "Hint:" in inverted
    assert answers.check_one_link_euler_step(euler)
    assert "semi-implicit" in _fails(answers.check_one_link_euler_step, symplectic)
    assert "returned nothing" in _fails(answers.check_one_link_euler_step,
                                        lambda b, bd, t, dt: None)


def test_one_link_period(one):
    p, I_o = one
    period = 2 * math.pi * math.sqrt(I_o / (p.mass * p.g * p.com))
    assert answers.check_one_link_period(period, 1.0)  # mass cancels: same period
    message = _fails(answers.check_one_link_period, period, math.sqrt(2.0))
    assert message.startswith("ratio")
    _no_leak(_fails(answers.check_one_link_period, 2 * math.pi * math.sqrt(
        p.inertia / (p.mass * p.g * p.com)), 1.0), period)  # forgot the parallel axis


# ----------------------------------------------------------------------------- 2 two link
@pytest.fixture
def two():
    return checks.problem("two_link")


def test_two_link_velocity_terms_source_formula(two):
    (L1, _), (_, d2), (_, m2) = two.lengths, two.com, two.masses
    (_, q2), (q1d, q2d) = two.q, two.qd
    # the source's C: -L1 d2 m2 (2 q1' + q2') q2' sin q2 and L1 d2 m2 q1'^2 sin q2
    C = np.array([-L1 * d2 * m2 * (2 * q1d + q2d) * q2d * math.sin(q2),
                  L1 * d2 * m2 * q1d**2 * math.sin(q2)])
    assert answers.check_two_link_velocity_terms(C)
    message = _fails(answers.check_two_link_velocity_terms, C[::-1])
    _no_leak(message, C)


@pytest.mark.parametrize("case, answer", [("a", {"C2"}), ("b", {"C1", "C2"}),
                                          ("c", {"C1"}), ("d", {"C1"})])
def test_two_link_vanishing_terms(case, answer):
    assert answers.check_two_link_vanishing(case, answer)
    with pytest.raises(IncorrectAnswer):
        answers.check_two_link_vanishing(case, {"C1", "C2"} - answer or {"C1"})


def test_two_link_segmental_mass_matrix_closed_form(two):
    L1, (d1, d2), (m1, m2), (I1, I2) = two.lengths[0], two.com, two.masses, two.inertias

    def M(t1, t2):  # kinetic energy in absolute angles
        k = m2 * L1 * d2 * math.cos(t2 - t1)
        return np.array([[I1 + m1 * d1**2 + m2 * L1**2, k], [k, I2 + m2 * d2**2]])

    assert answers.check_two_link_segmental_mass_matrix(M)
    message = _fails(answers.check_two_link_segmental_mass_matrix,
                     lambda t1, t2: M(t1, t2) + np.diag([I1, 0.0]))
    assert "[0, 0] is not right (the other entries are)" in message


def test_two_link_time_scaling(two):
    ratio = (two.durations[0] / two.durations[1]) ** 2  # accelerations scale with 1/T^2
    assert answers.check_two_link_time_scaling(ratio, ratio, 1.0)
    assert _fails(answers.check_two_link_time_scaling, 8.0, 64.0, 1.0).startswith(
        "factor_inertial")


# ----------------------------------------------------------------------------- 3 matrix form
def _skew(v):
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def test_matrix_form_skew():
    assert answers.check_matrix_form_skew(_skew)
    assert "wrong sign" in _fails(answers.check_matrix_form_skew, lambda v: _skew(v).T)


def _source_pendulum(lever2):
    p = checks.problem("matrix_form")
    (m1, m2), (l1, l2), g = p.m, p.l, p.g
    (t1, t2), (w1, w2) = p.theta, p.omega
    c, s = math.cos(t1 - t2), math.sin(t1 - t2)
    M = np.array([[m1 * l1**2 / 3 + m2 * l1**2, m2 * l1 * l2 * c / 2],
                  [m2 * l1 * l2 * c / 2, m2 * l2**2 / 3]])
    C = m2 * l1 * l2 * s / 2 * np.array([-w2**2, w1**2])
    G = -g * np.array([m1 * l1 / 2 * math.sin(t1) + m2 * lever2 * math.sin(t1),
                       m2 * l2 / 2 * math.sin(t2)])
    return np.linalg.solve(M, C + G)


def test_matrix_form_accelerations_agree_with_the_source_matrices():
    p = checks.problem("matrix_form")
    right = _source_pendulum(p.l[0])
    assert answers.check_matrix_form_accelerations(right)  # PlanarChain == source's M, C, G
    message = _fails(answers.check_matrix_form_accelerations, _source_pendulum(p.l[1]))
    assert "l1" in message  # the hint names the known error in the source
    _no_leak(message, right)
    assert answers.check_matrix_form_seed_error(_source_pendulum(p.l[1])[0] - right[0])


def _bars_loads(p):
    """Joint loads (4, 3) of the 3D bars by one 12x12 solve (the check uses a recursion)."""
    return _bars_system(p)[0]


def _bars_system(p):
    m, inertia, R = p.bars_mass, p.bars_inertia, p.bars_R
    w, wd, J, rc, ac = p.bars_omega, p.bars_omegadot, p.bars_joint, p.bars_rcm, p.bars_acm
    gvec = np.array([0.0, -p.bars_g, 0.0])
    A, b, eye = np.zeros((12, 12)), np.zeros(12), np.eye(3)
    for i in range(2):  # x = [F1, M1, F2, M2]; bar i: own joint load, minus the one below
        f, r = slice(6 * i, 6 * i + 3), slice(6 * i + 3, 6 * i + 6)
        A[f, 6 * i:6 * i + 3], A[r, 6 * i:6 * i + 3] = eye, _skew(J[i] - rc[i])
        A[r, 6 * i + 3:6 * i + 6] = eye
        if i == 0:
            A[f, 6:9], A[r, 6:9], A[r, 9:12] = -eye, -_skew(J[1] - rc[0]), -eye
        Ib = np.diag(inertia[i])
        b[f] = m[i] * (ac[i] - gvec)
        b[r] = R[i] @ (Ib @ wd[i] + np.cross(w[i], Ib @ w[i]))
    return np.linalg.solve(A, b).reshape(4, 3), A, b, inertia, w, wd


def test_matrix_form_3d_loads_one_solve_equals_the_recursion():
    loads, A, b, inertia, w, wd = _bars_system(checks.problem("matrix_form"))
    assert answers.check_matrix_form_double_pendulum_3d(loads)
    # forgetting to rotate Euler's equation to the global frame is caught, on the moments
    b2 = b.copy()
    for i in range(2):
        Ib = np.diag(inertia[i])
        b2[6 * i + 3:6 * i + 6] = Ib @ wd[i] + np.cross(w[i], Ib @ w[i])
    message = _fails(answers.check_matrix_form_double_pendulum_3d,
                     np.linalg.solve(A, b2).reshape(4, 3))
    assert "Euler's equation left in each bar's own frame" in message


# ----------------------------------------------------------------------------- 4 gait
def _foot_loads(p):
    """Force [N] and moment [N m] on the foot at sample p.k, by hand (second differences)."""
    import bmc

    run = bmc.datasets.load_running()
    k, f = p.k, run.freq
    ankle, toe = run.markers[:, 4:6], run.markers[:, 6:8]
    acc = (ankle[k + 1] - 2 * ankle[k] + ankle[k - 1]) * f**2
    angle = np.unwrap(np.arctan2(toe[:, 1] - ankle[:, 1], toe[:, 0] - ankle[:, 0]))
    alpha = (angle[k + 1] - 2 * angle[k] + angle[k - 1]) * f**2
    grf = run.grf[k, :2]
    lever = np.array([run.grf[k, 2], 0.0]) - ankle[k]  # COP relative to the foot's COM
    m, inertia = run.segments.mass[2], run.segments.inertia[2]
    Fa = m * acc - m * np.array([0.0, -p.g]) - grf
    tau_a = inertia * alpha - (lever[0] * grf[1] - lever[1] * grf[0])
    return Fa, tau_a


def test_gait_foot_loads_by_hand_equal_lower_limb():
    Fa, tau_a = _foot_loads(checks.problem("gait"))
    assert answers.check_gait_foot_loads(Fa, tau_a)
    message = _fails(answers.check_gait_foot_loads, Fa, -tau_a)
    assert message.startswith("tau_a") and "sign" in message
    _no_leak(message, tau_a)


def test_gait_signs_and_errors():
    from bmc import datasets
    from bmc.newton_euler import lower_limb

    assert answers.check_gait_signs(-1, -1, +1)  # plantarflexor; absorb, then generate
    assert _fails(answers.check_gait_signs, +1, -1, +1).startswith("sign_ankle_moment")
    run = datasets.load_running()
    p = checks.problem("gait")
    window = slice(p.start, p.stop)

    def rmse(**kw):
        res = lower_limb(run.markers, run.grf, run.freq, run.segments, **kw)
        return np.sqrt(np.mean((res.moments[window] - run.true_moments[window]) ** 2, axis=0))

    diff2, central = rmse(derivative="diff2"), rmse()
    assert np.all(diff2 > 5 * central)  # the source's shifted accelerations cost accuracy
    assert answers.check_gait_seed_error(diff2, central)
    assert "rmse_diff2" in _fails(answers.check_gait_seed_error, central, central)
    quasi = rmse(quasi_static=True)
    assert quasi[0] > quasi[1] > quasi[2]  # neglected inertia accumulates up the chain
    assert answers.check_gait_quasi_static(quasi)


# ----------------------------------------------------------------------------- 5 reactions
def _leg_points(q, p):
    (l2, l3), (c2, c3, c4) = p.lengths, p.com
    xh, yh, f2, f3, f4 = q
    knee = np.array([xh + l2 * math.sin(f2), yh - l2 * math.cos(f2)])
    ankle = knee + l3 * np.array([math.sin(f3), -math.cos(f3)])
    return np.concatenate([
        [xh + c2 * math.sin(f2), yh - c2 * math.cos(f2), f2],
        knee + c3 * np.array([math.sin(f3), -math.cos(f3)]), [f3],
        ankle + c4 * np.array([math.sin(f4), -math.cos(f4)]), [f4]])


def _leg_by_matrices(p):
    """Z, pdd (finite differences of the positions) and lambda by eq. (2.10), as a student."""
    Z = np.zeros((9, 6))
    for seg in range(3):
        for joint in range(seg + 1):
            Z[3 * seg, 2 * joint] = Z[3 * seg + 1, 2 * joint + 1] = 1.0
    # p''(0) by central differences of the positions along q(t) = q + q' t + q'' t^2 / 2
    h = 1e-4

    def at(t):
        return _leg_points(p.q + p.qd * t + p.qdd * t**2 / 2, p)

    pdd = (at(h) - 2 * at(0.0) + at(-h)) / h**2
    m2, m3, m4 = p.masses
    M_p = np.diag([m2, m2, 1.0, m3, m3, 1.0, m4, m4, 1.0])
    hvec = np.array([0.0, -m2 * p.g, 0.0, 0.0, -m3 * p.g, 0.0,
                     p.F_bed[0], p.F_bed[1] - m4 * p.g, 0.0])
    return Z, pdd, Z.T @ (hvec - M_p @ pdd)  # eq. (2.10); the check uses eq. (3.3)


def test_reactions_by_matrices_equal_the_resolved_formulas():
    Z, pdd, lam = _leg_by_matrices(checks.problem("reactions"))
    assert answers.check_reactions_Z(Z)
    assert answers.check_reactions_accelerations(pdd)  # finite differences: rtol 1e-4 holds
    assert answers.check_reactions_lambda(lam)
    message = _fails(answers.check_reactions_lambda, lam + np.r_[0, 1, 0, 1, 0, 1] * 50.0)
    assert "lam[1], lam[3], lam[5] are not right" in message
    _no_leak(message, lam)
    assert answers.check_reactions_predictions("zero", "ankle")
    assert "largest_vertical" in _fails(answers.check_reactions_predictions, 0, "hip")


def test_reactions_problem_is_the_leg_of_the_human_model():
    # the data come from bmc.models.human (de Leva), never typed in: 60 kg, 1.70 m
    from bmc.models.human import human_model

    p = checks.problem("reactions")
    tree = human_model(body_mass=p.body_mass, height=p.height)
    np.testing.assert_array_equal(p.masses, tree.masses[1:4])
    # de Leva (1996) Table 4, male: thigh 14.16 %, shank 4.33 %, foot 1.37 %, both legs
    np.testing.assert_allclose(p.masses, 2 * 60.0 * np.array([0.1416, 0.0433, 0.0137]),
                               rtol=1e-3)


def test_reactions_agree_with_bmc_reactions_for_the_leg():
    # eq. (2.10) of bmc.reactions on the whole seven-segment jumper (trunk, arms and head
    # unturned: they hang on the proximal side of the hip) gives at hip, knee and ankle what
    # the check takes from eq. (3.3); rtol 1e-6: the finite differences of _leg_by_matrices
    from bmc import reactions
    from bmc.models.human import human_model

    for student in ("", "s-ada"):
        with checks.student_data(student):
            p = checks.problem("reactions")
            tree = human_model(body_mass=p.body_mass, height=p.height)
            full = [np.zeros(tree.k) for _ in range(3)]
            for x, leg in zip(full, (p.q, p.qd, p.qdd), strict=True):
                x[:2], x[3:6] = leg[:2], leg[2:]
            h = tree.applied_forces(full[0])
            h[9:11] += p.F_bed  # the bed force on the foot's centre of mass (x, y rows)
            lam = reactions.reactions_augmented(tree, *full, h,
                                                joints=["hip", "knee", "ankle"])
            assert checks.check_value("lam", lam, _leg_by_matrices(p)[2], rtol=1e-6)
            assert answers.check_reactions_lambda(lam)


def test_reactions_set_writes_notebook_5s_letters():
    # Notebook 5 writes Blajer's angles phi_i as psi_i and his bed force R_x, R_y as F_bed
    # (issue 28): so do the set's text, its data, hints and messages; only the sentence of
    # its introduction that names the paper's letters shows those
    from bmc.checks import _joint_reactions as jr

    paper = re.compile(r"\\?\b(var)?phi|\bR_[xy]\b|\bp\.R\b|\bR\b")
    said = [repr(checks.problem("reactions")), repr(jr.standing(checks.practice("reactions"))),
            jr._Z_HINT, jr._ACC_HINT, jr._LAM_HINT, jr._Z_concept(np.ones((6, 4)), 2),
            _fails(answers.check_reactions_accelerations, np.zeros(9)),
            _fails(answers.check_reactions_lambda, np.zeros(6))]
    for text in said:
        assert not paper.search(text), text
    assert "psi" in said[0] and "F_bed" in said[0] and "F_bed" in said[4]
    master = json.loads((Path(__file__).resolve().parents[1] / "exercises"
                         / "05_joint_reactions.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in master["cells"])
    naming = re.compile(r"its segment angles \$\\varphi_i\$ are \$\\psi_i\$.*?\$R_x\$, \$R_y\$ is",
                        re.DOTALL)
    assert len(naming.findall(text)) == 1
    for line in naming.sub("", text).splitlines():
        assert not paper.search(line), line


# ----------------------------------------------------------------------------- 6 least squares
def test_least_squares_wls_normal_equations():
    def wls(A, b, var):  # eq. (8) literally, dropping infinite variances
        keep = np.isfinite(var)
        Wi = np.diag(1.0 / var[keep])
        A, b = A[keep], b[keep]
        return np.linalg.solve(A.T @ Wi @ A, A.T @ Wi @ b)

    assert answers.check_least_squares_wls(wls)
    message = _fails(answers.check_least_squares_wls,
                     lambda A, b, var: np.linalg.lstsq(A, b, rcond=None)[0])
    assert re.match(r"wls\(\[\[", message) and "Hint:" in message


def test_least_squares_std_and_dropped_channel():
    p = checks.problem("least_squares")
    info = np.diag(1.0 / p.sd**2)
    std = np.sqrt(np.diag(np.linalg.inv(p.A.T @ info @ p.A)))
    assert answers.check_least_squares_std(std)
    _no_leak(_fails(answers.check_least_squares_std, std**2), std)
    info[p.missing, p.missing] = 0.0  # the failed channel is gone
    dropped = np.sqrt(np.diag(np.linalg.inv(p.A.T @ info @ p.A)))
    assert np.all(dropped >= std)  # information only adds up
    assert answers.check_least_squares_drop_channel(dropped[2] / std[2], False)
    assert "can_improve" in _fails(answers.check_least_squares_drop_channel,
                                   dropped[2] / std[2], True)


def test_least_squares_bias_recovers_the_injected_offset():
    # the problem's b_frames were made with a 2.7 N m offset on N_O and no noise
    assert answers.check_least_squares_bias(2.7)
    assert "wrong sign" in _fails(answers.check_least_squares_bias, -2.7)


def test_two_link_problem_is_the_corrected_arm_of_notebook_2(two):
    # The check's arm comes from bmc.anthropometry (upper arm; forearm and hand joined), the
    # arm notebook 2 uses; the source's error applied Winter's forearm-and-hand fractions
    # (COM 0.682, radius of gyration 0.468) to the elbow-to-fingertip length 0.253 H.
    from bmc import anthropometry as am

    size = {"body_mass": 70.0, "height": 1.70}
    forearm = am.segment("forearm", **size)
    forearm_hand = am.combine([forearm, am.segment("hand", **size)], name="forearm_hand")
    np.testing.assert_allclose(two.com[1], forearm_hand.com, rtol=1e-12)  # same formula, same data
    np.testing.assert_allclose(two.inertias[1], forearm_hand.inertia, rtol=1e-12)
    source_com = 0.682 * 0.253 * 1.70
    source_inertia = 0.022 * 70.0 * (0.468 * 0.253 * 1.70) ** 2
    assert two.com[1] < forearm.length, "the forearm+hand COM must lie before the wrist"
    assert abs(two.com[1] - source_com) > 0.1, "the source's COM fraction came back"
    assert two.inertias[1] < 0.5 * source_inertia, "the source's inertia came back"


# ----------------------------------------------------------------------------- split
def test_public_checks_compute_answers_on_practice_data_only(monkeypatch):
    # The public checks compute right answers (with bmc) only for practice data and its
    # probes, never for a student's own data: they judge a function there, not the value
    # that is graded. Spy on every answer function while a student with an id works.
    from bmc.checks import (
        _gait_inverse_dynamics,
        _joint_reactions,
        _least_squares,
        _matrix_formalism,
        _one_link,
        _two_link,
    )

    seen = []
    for module in (_one_link, _two_link, _matrix_formalism, _gait_inverse_dynamics,
                   _joint_reactions, _least_squares):
        for name in [n for n in dir(module) if n.startswith("answer_")]:
            original = getattr(module, name)

            def spy(*args, _o=original, **kw):
                seen.extend(a for a in args if isinstance(a, checks.Problem))
                return _o(*args, **kw)

            monkeypatch.setattr(module, name, spy)
    p = checks.problem("one_link", student="s-spy")
    checks.problem("one_link", student="")  # forget the id for the tests that follow

    def mine(data):  # a wrong answer: the practice check computes, and fails
        return 1.0

    _fails(checks.check_one_link_torque, mine, mine(p), p)
    q = checks.problem("two_link", student="s-spy")
    _fails(checks.check_two_link_velocity_terms, lambda d: np.ones(2), np.ones(2), q)
    checks.problem("two_link", student="")
    assert seen and all(d.is_practice for d in seen)


def test_the_public_check_never_judges_the_students_own_value():
    # the same right function with a wrong tau (not what the function gives) is told so;
    # a tau that is the function's value passes whatever it is (it is graded later)
    p = checks.problem("one_link", student="s-own")
    checks.problem("one_link", student="")

    def joint_torque(d):
        I_o = d.inertia + d.mass * d.com**2
        return ((I_o + d.load * d.length**2) * d.alphadd
                + (d.mass * d.com + d.load * d.length) * d.g * np.cos(d.alpha))

    assert checks.check_one_link_torque(joint_torque, joint_torque(p), p)
    message = _fails(checks.check_one_link_torque, joint_torque, 2 * joint_torque(p), p)
    assert "tau is not what joint_torque(p) gives with your data" in message


def test_public_checks_still_reject_the_wrong_form():
    assert "is not defined yet" in _fails(checks.check_one_link_torque, ..., ..., None)
    assert "shape (2,)" in _fails(checks.check_two_link_velocity_terms,
                                  lambda d: [1.0, 2.0, 3.0], None, None)
    assert "must be +1, -1 or 0" in _fails(checks.check_gait_signs, ("up", 1), 1, 1, 1)
    assert "must be one of" in _fails(checks.check_reactions_predictions, 1, 0, "hand")
    assert "returned nothing" in _fails(checks.check_one_link_hanging,
                                        lambda b, bd, t, p=None: None)
    assert "must take the data as its last argument" in _fails(
        checks.check_one_link_hanging, lambda b, bd, t: 0.0)


def test_bmc_checks_and_the_grader_are_different_functions():
    import bmc.checks as public

    for name in answers.__all__:
        if name.startswith("check_"):
            assert getattr(public, name) is not getattr(answers, name), name


def test_practice_data_are_the_common_data_whatever_the_grader_sets():
    common = checks.problem("one_link", student="")
    with checks.student_data("s-ada"):
        practice = checks.practice("one_link")
        own = checks.problem("one_link")
    assert practice.is_practice and not own.is_practice
    assert practice.mass == common.mass != own.mass
    assert "practice" in repr(practice)


def test_the_placeholder_id_is_refused_unless_a_grader_sets_the_student():
    with pytest.raises(ValueError, match="STUDENT_ID is still the placeholder"):
        checks.problem("one_link", student="your student id")
    with checks.student_data("s-ada"):  # graded: the filed id wins, the cell runs
        assert checks.problem("one_link", student="your student id").mass == \
            checks.problem("one_link", student="s-ada").mass
    checks.problem("one_link", student="")


def test_modified_copies_keep_units_and_practice_flag():
    p = checks.practice("two_link")
    q = p.modified("the elbow still", qd=[1.5, 0.0])
    assert q.is_practice and q.qd[1] == 0.0 and p.qd[1] == -2.0
    assert q.units() == p.units() and "the elbow still" in repr(q)
    with pytest.raises(AttributeError, match="no quantity 'qdd'"):
        p.modified(qdd=[0.0, 0.0])


# ----------------------------------------------------------------------------- hints
def _slug(text: str) -> str:
    """The anchor myst gives a heading (myst_heading_anchors): GitHub's slug."""
    import unicodedata

    text = unicodedata.normalize("NFKD", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _headings(stem: str) -> dict[str, str]:
    """Heading text without its number -> anchor, for one course notebook."""
    import json

    path = Path(__file__).resolve().parents[1] / "notebooks" / f"{stem}.ipynb"
    found = {}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            match = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
            if match:
                full = match.group(1)
                bare = re.sub(r"^\d+(\.\d+)*\.?\s+", "", full)
                found[bare] = _slug(full)
    return found


@pytest.mark.parametrize("key", sorted(__import__("bmc.checks._sections",
                                                  fromlist=["SECTIONS"]).SECTIONS))
def test_every_hint_target_is_a_heading_of_the_course_notebook(key):
    from bmc.checks._sections import SECTIONS

    stem, heading = SECTIONS[key]
    anchors = _headings(stem)
    assert heading in anchors, (f"{key}: notebooks/{stem}.ipynb has no heading {heading!r}; "
                                f"its headings: {sorted(anchors)}: update "
                                "bmc/checks/_sections.py")
    assert anchors[heading]


def test_every_hint_of_the_checks_names_a_registered_section():
    # hints are built by section(key): a key that is not in the table fails at once
    from bmc.checks._sections import section

    with pytest.raises(KeyError):
        section("one_link.nowhere")
    source = "".join(path.read_text() for path in
                     (Path(checks.__file__).parent).glob("_*.py"))
    source += "".join(path.read_text() for path in Path(answers.__file__).parent.glob("*.py"))
    assert "notebooks/0" not in source and "section 4" not in source


# ----------------------------------------------------------------------------- errors
def test_a_cell_that_raised_is_reported_with_its_line_and_dependents_say_so():
    from bmc.checks._cells import CellLog

    log = CellLog.from_cells(
        ["import numpy as np", "E = np.zeros((9, 6))\nE[0, 0] = 'one'",
         "lam = E.T @ np.ones(9)", "x = undefined_name"],
        [{"cell": 1, "type": "ValueError", "message": "could not convert", "line": 2},
         {"cell": 3, "type": "NameError", "message": "name 'undefined_name' is not defined",
          "line": 1}])
    said = log.explain("E")
    assert "ValueError: could not convert at line 2 (`E[0, 0] = 'one'`)" in said
    assert log.explain("lam") is None  # its cell ran (with the stale E: judged by value)
    assert log.explain("np") is None and log.explain("nothing") is None
    log.add("y = E.sum() + z", "NameError", "name 'z' is not defined", 1)
    log.add("z = 1 / 0", "ZeroDivisionError", "division by zero", 1)
    log.add("w = z + 1", "NameError", "name 'z' is not defined", 1)
    assert "its cell uses z, which is not defined because the cell of z raised " \
        "ZeroDivisionError" in log.explain("w")
    log.add("def f():\n    return 1 / 0\nv = f()", "ZeroDivisionError", "division by zero", 2)
    log.add("u = f() + 1", "ZeroDivisionError", "division by zero", 1)
    assert "the same error as the cell of f" in log.explain("u")


def test_line_in_cell_finds_the_deepest_line_of_the_cell():
    from bmc.checks._cells import line_in_cell

    code = compile("def f():\n    return 1 / 0\n\nf()\n", "<cell-7>", "exec")
    try:
        exec(code, {})
    except ZeroDivisionError as exc:
        assert line_in_cell(exc) == 2
    assert line_in_cell(SyntaxError("x", ("<cell>", 3, 1, "x"))) == 3


# ----------------------------------------------------------------------------- report
class _Case:
    def __init__(self, success_message=None):
        self.success_message = success_message


class _Result:
    def __init__(self, passed, message="", success=None):
        self.passed, self.message, self.test_case = passed, message, _Case(success)


class _File:
    def __init__(self, name, results):
        self.name, self.test_case_results = name, results


def _otter_failure(kind, text):
    return (f"❌ Test case failed\nError at line 6 in test q1:\n      checks.f(x)\n"
            f"{kind}: {text}")


def test_report_heads_each_result_with_what_was_judged():
    right = checks.report(_File("q1", [_Result(True, success="right on practice")]))
    assert repr(right).startswith("✅ q1: right on the practice data")
    form = checks.report(_File("q2", [_Result(False, _otter_failure(
        "JudgedAtGrading", "sign_tau is answered in the right form"))]))
    assert "judged when your notebook is graded" in repr(form) and "passed" not in repr(form)
    wrong = checks.report(_File("q3", [_Result(False, _otter_failure(
        "IncorrectAnswer", "tau is 12 % too small"))]))
    assert repr(wrong).splitlines() == ["❌ q3: not right yet", "    tau is 12 % too small"]
    broken = checks.report(_File("q4", [_Result(False, _otter_failure("TypeError", "bad"))]))
    assert "the check stopped at an error" in repr(broken) and "TypeError: bad" in repr(broken)
    assert "<strong>" in wrong._repr_html_() and "&#x27;" not in wrong._repr_html_()
    assert "nothing was checked" in repr(checks.report(None))


# ----------------------------------------------------------------------------- variants
def test_two_students_get_different_data_and_the_grader_reproduces_each():
    a = checks.problem("one_link", student="s-ada")
    b = checks.problem("one_link", student="s-alan")
    assert a.mass != b.mass and a.alphadd != b.alphadd
    common = _forearm_hand_70kg()
    assert abs(a.mass / common.mass - 1) <= 0.15 and abs(b.inertia / common.inertia - 1) <= 0.15
    assert a.g == b.g == 9.81  # only the declared quantities vary
    with checks.student_data("s-ada"):
        again = checks.problem("one_link")
    assert again.mass == a.mass  # the grader gets exactly the student's data
    with checks.student_data(""):
        assert checks.problem("one_link").mass == common.mass  # "" is the common data


def _forearm_hand_70kg():
    from bmc import anthropometry as am

    size = {"body_mass": 70.0, "height": 1.70}
    return am.combine([am.segment("forearm", **size), am.segment("hand", **size)],
                      name="forearm_hand")


def test_one_link_data_is_notebook_1s_forearm_from_anthropometry():
    # Set 1's segment comes from bmc.anthropometry (as notebook 1 builds it), never typed in:
    # the numbers once typed here (0.40 m, 0.17 m, 1.6 kg, 0.011 kg m^2) must not return.
    with checks.student_data(""):  # the common data, whatever id this session runs under
        p = checks.problem("one_link")
    seg = _forearm_hand_70kg()
    for name in ("length", "com", "mass", "inertia"):
        assert getattr(p, name) == getattr(seg, name), name
    assert (p.length, p.mass, p.inertia) != (0.40, 1.6, 0.011)


def _torque(p):
    I_o = p.inertia + p.mass * p.com**2  # parallel axis, independent of PlanarChain
    return ((I_o + p.load * p.length**2) * p.alphadd
            + (p.mass * p.com + p.load * p.length) * p.g * np.cos(p.alpha))


def _velocity_terms(p):
    (L1, _), (_, d2), (_, m2) = p.lengths, p.com, p.masses
    (_, q2), (q1d, q2d) = p.q, p.qd
    return np.array([-L1 * d2 * m2 * (2 * q1d + q2d) * q2d * math.sin(q2),
                     L1 * d2 * m2 * q1d**2 * math.sin(q2)])


def _std_tau(p, missing=None):
    info = np.diag(1.0 / p.sd**2)
    if missing is not None:
        info[missing, missing] = 0.0
    return np.sqrt(np.diag(np.linalg.inv(p.A.T @ info @ p.A)))


# One numeric question per set: the topic, an independent solution from the problem data,
# and the grader's exact check it is handed to.
def _time_scaling(p):
    ratio = (p.durations[0] / p.durations[1]) ** 2  # accelerations scale with 1/T^2
    return ratio, ratio, 1.0


VARIANT_CASES = {
    "one_link": (lambda p: (_torque(p),), "check_one_link_torque"),
    "two_link": (lambda p: (_velocity_terms(p),), "check_two_link_velocity_terms"),
    "two_link/time": (_time_scaling, "check_two_link_time_scaling"),
    "matrix_form": (lambda p: (_source_pendulum(p.l[0]),), "check_matrix_form_accelerations"),
    "matrix_form/bars": (lambda p: (_bars_loads(p),), "check_matrix_form_double_pendulum_3d"),
    "gait": (_foot_loads, "check_gait_foot_loads"),
    "reactions": (lambda p: (_leg_by_matrices(p)[2],), "check_reactions_lambda"),
    "least_squares": (lambda p: (_std_tau(p),), "check_least_squares_std"),
}


@pytest.mark.parametrize("case", sorted(VARIANT_CASES))
def test_each_students_answer_passes_only_for_that_student(case):
    solve, name = VARIANT_CASES[case]
    topic = case.split("/")[0]
    check = getattr(answers, name)
    mine = {}
    for student in ("s-ada", "s-alan"):
        with checks.student_data(student):
            mine[student] = solve(checks.problem(topic))
    a, b = (np.concatenate([np.ravel(x) for x in mine[s]]) for s in ("s-ada", "s-alan"))
    assert np.max(np.abs(a / b - 1)) > 0.01, case  # different enough to fail rtol 1e-3
    for student, other in (("s-ada", "s-alan"), ("s-alan", "s-ada")):
        with checks.student_data(student):
            assert check(*mine[student])
            _fails(check, *mine[other])  # a copied neighbour's answer


@pytest.mark.parametrize("topic", sorted(checks.problems()))
def test_two_ids_give_different_data_and_the_grader_reproduces_them(topic):
    common = checks.problem(topic, student="")
    ada, alan = (checks.problem(topic, student=s) for s in ("s-ada", "s-alan"))
    checks.problem(topic, student="")  # forget the last id for the tests that follow

    def differ(x, y):
        return [n for n in dir(x) if n != "topic"
                and not np.array_equal(getattr(x, n), getattr(y, n))]

    assert differ(ada, alan) and differ(ada, common)
    with checks.student_data("s-ada"):
        assert not differ(checks.problem(topic), ada)  # the grader sees the same data


def test_set_4_variants_keep_the_signs_and_the_windows_inside_the_trial():
    from bmc import datasets

    n = len(datasets.load_running().true_moments)
    for i in range(100):
        with checks.student_data(f"id{i:03d}"):
            p = checks.problem("gait")
            assert p.k_early < p.k < p.k_late and p.start < p.stop <= n
            assert answers.check_gait_signs(-1, -1, +1)  # the master's fixed solution


def test_set_5_variants_are_plausible_jumpers_and_keep_the_predictions():
    for i in range(100):
        with checks.student_data(f"id{i:03d}"):
            p = checks.problem("reactions")
            assert 1.55 <= p.height <= 1.95 and 19 <= p.body_mass / p.height**2 <= 27
            assert answers.check_reactions_predictions("zero", "ankle")


def test_set_6_variants_recover_their_own_bias_and_lose_precision_without_a_channel():
    from bmc.checks._core import _student_rng
    from bmc.checks._least_squares import _kuo_variant

    seen = set()
    for i in range(60):
        student = f"id{i:03d}"
        bias = _kuo_variant(_student_rng("least_squares", student))["bias"]
        with checks.student_data(student):
            p = checks.problem("least_squares")
            seen.add(p.missing)
            assert answers.check_least_squares_bias(bias)  # no noise: exactly the injected
            ratio = _std_tau(p, p.missing) / _std_tau(p)
            assert np.all(ratio >= 1 - 1e-12)  # information only adds up
            assert answers.check_least_squares_drop_channel(ratio[2], False)
    assert seen == {0, 1, 2}


def test_student_must_be_a_string():
    with pytest.raises(ValueError, match="student must be your student id"):
        checks.problem("one_link", student=42)


# ----------------------------------------------------------------------------- question text
_TOPIC_OF = {"01_one_link": "one_link", "02_two_link": "two_link",
             "03_matrix_formalism": "matrix_form", "05_joint_reactions": "reactions",
             "06_least_squares": "least_squares"}


@pytest.mark.parametrize("stem", sorted(_TOPIC_OF))
def test_question_text_names_no_number_that_varies_between_students(stem):
    # A student reads the text beside their own data: a varied quantity's common value in
    # the text ("p.durations[0] = 4 s") contradicts it. The questions name the quantity.
    import json

    from bmc.checks._core import _PROBLEM_SPECS

    master = json.loads((Path(__file__).resolve().parents[1] / "exercises" /
                         f"{stem}.ipynb").read_text(encoding="utf-8"))
    text, solution = [], False
    for cell in master["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "raw":
            solution = {"# BEGIN SOLUTION": True, "# END SOLUTION": False}.get(
                source.strip(), solution)
        elif cell["cell_type"] == "markdown" and not solution:
            text.append(source)
    text = "\n".join(text)
    topic = _TOPIC_OF[stem]
    _, _, vary, _ = _PROBLEM_SPECS[topic]
    common = checks.practice(topic)
    assert vary or topic in ("matrix_form", "reactions", "least_squares")
    for name in vary:
        unit = common.units()[name]
        for value in np.ravel(getattr(common, name)):
            for shown in {f"{value:g}", f"{value:.2f}", f"{value:.3g}"}:
                assert not re.search(rf"(?<![\w.]){re.escape(shown)}\s*{re.escape(unit)}\b",
                                     text), f"{stem}: {shown} {unit} ({name}) in the text"
    # and the reported case itself
    assert "= 4 s" not in text and "eight times" not in text
