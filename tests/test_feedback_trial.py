"""The five-way trial: every question of every set answered as a student would, five ways.

For each question: the right answer, a sign error, a unit mistake (degrees for radians,
centimetres for metres), a forgotten term, and a right value in the wrong shape or type.
Where a mistake cannot happen (a root-mean-square has no sign, a ratio of durations no
unit, a 0/1 matrix neither), the attempt is another mistake a student makes there, named in
the case. Each attempt is run through

- the public check (what a student sees while working, ``bmc.checks``): the right one is
  right on the practice data, or for a prediction "judged at grading"; every wrong one gets
  :class:`~bmc.checks.IncorrectAnswer` with a message that says what is wrong (how far off
  and which way, or the likely mistake) and never a pass;
- the grader's hidden check (``exercises/bmc_answers``) on the student's own data: the right
  one passes, every wrong one fails with a message, and answers with few possible values
  get the concept only.

The student functions below are written from the notebooks' formulas, independently of the
checks' right answers (which come from ``bmc``), so a check and the library cannot agree on
a wrong value.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from bmc import checks
from bmc.checks import IncorrectAnswer, JudgedAtGrading

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))
import bmc_answers as hidden  # noqa: E402  (the grader-side exact checks)

STUDENT = "s-trial"
KINDS = ("right", "sign", "units", "term", "shape")
# What a message must contain to say what is wrong: how far off and which way, a named
# mistake, a wrong form, or (few possible values) the concept
SAYS_WHAT = re.compile(r"wrong sign|% too|times too|should be zero|is zero|it is what you get|"
                       r"it matches|must be|must return|not right yet: |not correct yet: |"
                       r"entries|raised|returned nothing|is too (large|small)|must take|"
                       r"has no answer|not the right (sign|choice)|does not belong|missing")


def _data(topic):
    with checks.student_data(STUDENT):
        return checks.problem(topic)


# ----------------------------------------------------------------------------- set 1
def _torque(deg=False, sign=1.0, term=True):
    def joint_torque(p):
        I_o = p.inertia + p.mass * p.com**2
        load = p.load * p.length**2 if term else 0.0
        alpha = math.degrees(p.alpha) if deg else p.alpha
        return sign * ((I_o + load) * p.alphadd
                       + (p.mass * p.com + p.load * p.length) * p.g * math.cos(alpha))
    return joint_torque


def _hanging(deg=False, sign=1.0, about_com=False, pair=False):
    def hanging_qdd(theta, theta_dot, torque, p=None):
        inertia = p.inertia if about_com else p.inertia + p.mass * p.com**2
        b = math.degrees(theta) if deg else theta
        out = sign * (torque - p.mass * p.g * p.com * math.sin(b)) / inertia
        return (out, out) if pair else out
    return hanging_qdd


def _euler(deg=False, sign=1.0, symplectic=False, shape=False):
    right = _hanging()

    def euler_step(theta, theta_dot, torque, dt, p=None):
        qdd = right(theta, theta_dot, torque, p=p)
        new_rate = theta_dot + sign * dt * qdd
        new = theta + dt * (new_rate if symplectic else theta_dot)
        if deg:
            new = math.degrees(new)
        return (new, new_rate, dt) if shape else (new, new_rate)
    return euler_step


def _period(sign=1.0, about_com=False, shape=False, cm=False):
    def small_period(p):
        d = 100 * p.com if cm else p.com
        inertia = p.inertia if about_com else p.inertia + p.mass * d**2
        T = sign * 2 * math.pi * math.sqrt(inertia / (p.mass * p.g * d))
        return np.array([T, T]) if shape else T
    return small_period


# ----------------------------------------------------------------------------- set 2
def _velocity(deg=False, sign=1.0, coriolis=True, shape=False):
    def velocity_terms(p):
        L1, d2, m2 = p.lengths[0], p.com[1], p.masses[1]
        q2 = math.degrees(p.q[1]) if deg else p.q[1]
        q1d, q2d = p.qd
        first = (2 * q1d + q2d) if coriolis else q2d
        C = sign * np.array([-L1 * d2 * m2 * first * q2d * math.sin(q2),
                             L1 * d2 * m2 * q1d**2 * math.sin(q2)])
        return np.r_[C, 0.0] if shape else C
    return velocity_terms


def _segmental(deg=False, sign=1.0, parallel=True, flat=False):
    def mass_matrix_segmental(phi1, phi2, p=None):
        L1, (d1, d2), (m1, m2) = p.lengths[0], p.com, p.masses
        I1, I2 = p.inertias
        diff = math.degrees(phi2 - phi1) if deg else phi2 - phi1
        k = sign * m2 * L1 * d2 * math.cos(diff)
        extra = (m1 * d1**2, m2 * d2**2) if parallel else (0.0, 0.0)
        M = np.array([[I1 + extra[0] + m2 * L1**2, k], [k, I2 + extra[1]]])
        return M.ravel() if flat else M
    return mass_matrix_segmental


def _speedup(power=2, invert=False, single=False):
    def speedup_factors(p):
        r = p.durations[0] / p.durations[1]
        f = (1 / r if invert else r) ** power
        return f if single else (f, f)
    return speedup_factors


# ----------------------------------------------------------------------------- set 3
def _skew(transpose=False, missing=False, flat=False):
    def skew(v):
        x, y, z = v
        S = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
        if missing:
            S[0, 1] = 0.0
        S = S.T if transpose else S
        return S.ravel() if flat else S
    return skew


def _source_matrices(p, lever2=None, deg=False):
    (m1, m2), (l1, l2), g = p.m, p.l, p.g
    t1, t2 = (np.degrees(p.theta) if deg else p.theta)
    w1, w2 = p.omega
    M = np.array([[m1 * l1**2 / 3 + m2 * l1**2, m2 * l1 * l2 * math.cos(t1 - t2) / 2],
                  [m2 * l1 * l2 * math.cos(t1 - t2) / 2, m2 * l2**2 / 3]])
    C = m2 * l1 * l2 / 2 * math.sin(t1 - t2) * np.array([-w2**2, w1**2])
    lever = l1 if lever2 is None else lever2
    G = -g * np.array([m1 * l1 / 2 * math.sin(t1) + m2 * lever * math.sin(t1),
                       m2 * l2 / 2 * math.sin(t2)])
    return M, C, G


def _pendulum(deg=False, sign=1.0, source=False, shape=False):
    def pendulum_accelerations(p):
        M, C, G = _source_matrices(p, p.l[1] if source else None, deg)
        out = sign * np.linalg.solve(M, C + G)
        return np.r_[out, 0.0] if shape else out
    return pendulum_accelerations


def _seed(deg=False, sign=1.0, unsubtracted=False, shape=False):
    def source_error(p):
        M, C, G = _source_matrices(p, deg=deg)
        _, _, Gs = _source_matrices(p, p.l[1], deg=deg)
        wrong, right = np.linalg.solve(M, C + Gs), np.linalg.solve(M, C + G)
        delta = wrong - (0.0 if unsubtracted else right)
        return sign * (delta if shape else delta[0])
    return source_error


def _bars(deg=False, sign=1.0, rotate=True, flat=False):
    def joint_loads(p):
        m, inertia, R = p.bars_mass, p.bars_inertia, p.bars_R
        w = np.degrees(p.bars_omega) if deg else p.bars_omega
        wd, J, rc, ac = p.bars_omegadot, p.bars_joint, p.bars_rcm, p.bars_acm
        gvec = np.array([0.0, -p.bars_g, 0.0])
        A, b, eye = np.zeros((12, 12)), np.zeros(12), np.eye(3)
        S = _skew()
        for i in range(2):  # x = [F1, M1, F2, M2]; bar i: own joint load, minus the one below
            f, r = slice(6 * i, 6 * i + 3), slice(6 * i + 3, 6 * i + 6)
            A[f, 6 * i:6 * i + 3], A[r, 6 * i:6 * i + 3] = eye, S(J[i] - rc[i])
            A[r, 6 * i + 3:6 * i + 6] = eye
            if i == 0:
                A[f, 6:9], A[r, 6:9], A[r, 9:12] = -eye, -S(J[1] - rc[0]), -eye
            Ib = np.diag(inertia[i])
            b[f] = m[i] * (ac[i] - gvec)
            euler = Ib @ wd[i] + np.cross(w[i], Ib @ w[i])
            b[r] = R[i] @ euler if rotate else euler
        loads = sign * np.linalg.solve(A, b)
        return loads if flat else loads.reshape(4, 3)
    return joint_loads


# ----------------------------------------------------------------------------- set 4
def _ankle(deg=False, g_sign=-1.0, inertia=True, shape=False):
    def ankle_loads(run, k):
        f = run.freq
        ankle, toe = run.markers[:, 4:6], run.markers[:, 6:8]
        acc = (ankle[k + 1] - 2 * ankle[k] + ankle[k - 1]) * f**2 if inertia else 0 * ankle[k]
        angle = np.unwrap(np.arctan2(toe[:, 1] - ankle[:, 1], toe[:, 0] - ankle[:, 0]))
        if deg:
            angle = np.degrees(angle)
        alpha = (angle[k + 1] - 2 * angle[k] + angle[k - 1]) * f**2 if inertia else 0.0
        grf, cop = run.grf[k, :2], np.array([run.grf[k, 2], 0.0])
        mass, inertia_foot = run.segments.mass[2], run.segments.inertia[2]
        Fa = mass * acc - mass * np.array([0.0, g_sign * 9.80665]) - grf
        lever = cop - ankle[k]
        tau_a = inertia_foot * alpha - (lever[0] * grf[1] - lever[1] * grf[0])
        return (np.r_[Fa, 0.0] if shape else Fa), tau_a
    return ankle_loads


def _rmse(root=True, total=False, truth_sign=1.0):
    from bmc.newton_euler import lower_limb

    def moment_rmse(run, start, stop, derivative="central", quasi_static=False):
        res = lower_limb(run.markers, run.grf, run.freq, run.segments, derivative=derivative,
                         quasi_static=quasi_static)
        err = res.moments[start:stop] - truth_sign * run.true_moments[start:stop]
        ms = np.mean(err**2) if total else np.mean(err**2, axis=0)
        return np.sqrt(ms) if root else ms
    return moment_rmse


# ----------------------------------------------------------------------------- set 5
def _Z(sign=1.0, every=True, transpose=False):
    def open_constraint_Z(n):
        Z = np.zeros((3 * n, 2 * n))
        for seg in range(n):
            for joint in (range(seg + 1) if every else [seg]):
                Z[3 * seg, 2 * joint] = Z[3 * seg + 1, 2 * joint + 1] = sign
        return Z.T if transpose else Z
    return open_constraint_Z


def _points(q, p, deg=False):
    (l2, l3), (c2, c3, c4) = p.lengths, p.com
    xh, yh, f2, f3, f4 = q
    if deg:
        f2, f3, f4 = np.degrees([f2, f3, f4])
    knee = np.array([xh + l2 * math.sin(f2), yh - l2 * math.cos(f2)])
    ankle = knee + l3 * np.array([math.sin(f3), -math.cos(f3)])
    return np.concatenate([[xh + c2 * math.sin(f2), yh - c2 * math.cos(f2), f2],
                           knee + c3 * np.array([math.sin(f3), -math.cos(f3)]), [f3],
                           ankle + c4 * np.array([math.sin(f4), -math.cos(f4)]), [f4]])


def _accelerations(deg=False, sign=1.0, hip=True, shape=False):
    def accelerations(p):
        # p''(0) by central differences along q(t) = q + q' t + q'' t^2 / 2 (rtol 1e-4 holds)
        h = 1e-4
        qdd = p.qdd if hip else np.r_[0.0, 0.0, p.qdd[2:]]

        def at(t):
            return _points(p.q + p.qd * t + qdd * t**2 / 2, p, deg)

        pdd = sign * (at(h) - 2 * at(0.0) + at(-h)) / h**2
        return pdd.reshape(3, 3) if shape else pdd
    return accelerations


def _reactions(sign=1.0, bed=True, shape=False):
    acc = _accelerations()
    Z = _Z()(3)

    def joint_reactions(p):
        m2, m3, m4 = p.masses
        M_p = np.diag([m2, m2, 1.0, m3, m3, 1.0, m4, m4, 1.0])
        R = p.F_bed if bed else np.zeros(2)
        h = np.array([0.0, -m2 * p.g, 0.0, 0.0, -m3 * p.g, 0.0, R[0], R[1] - m4 * p.g, 0.0])
        lam = sign * Z.T @ (h - M_p @ acc(p))
        return lam.reshape(3, 2) if shape else lam
    return joint_reactions


# ----------------------------------------------------------------------------- set 6
def _wls(weights="sd", sign=1.0, extra=False):
    def wls(A, b, var):
        var = np.asarray(var, dtype=float)
        finite = np.isfinite(var)
        w = np.zeros_like(var)
        w[finite] = {"sd": 1 / np.sqrt(var[finite]), "none": 1.0,
                     "var": 1 / var[finite]}[weights]
        tau = sign * np.linalg.lstsq(A * w[:, None], b * w, rcond=None)[0]
        return np.r_[tau, 0.0] if extra else tau
    return wls


def _std(root=True, sign=1.0, w_sd=False, full=False):
    def torque_std(A, sd):
        W = np.diag(np.asarray(sd) if w_sd else np.asarray(sd) ** 2)
        X = np.linalg.inv(A.T @ np.linalg.inv(W) @ A)
        if full:
            return X
        d = np.diag(X)
        return sign * (np.sqrt(d) if root else d)
    return torque_std


def _hip(invert=False, variance=False, vector=False):
    std = _std()

    def hip_factor(A, sd, missing):
        sd2 = np.array(sd, dtype=float)
        sd2[missing] = 1e12  # a huge error: the channel carries no information
        ratio = std(A, sd2) / std(A, sd)
        ratio = 1 / ratio if invert else ratio
        ratio = ratio**2 if variance else ratio
        return ratio if vector else ratio[2]
    return hip_factor


def _bias(sign=1.0, column=True, everything=False):
    def bias_estimate(A_frames, b_frames):
        n = A_frames.shape[0]
        big = np.zeros((6 * n, 3 * n + 1))
        for i in range(n):
            big[6 * i:6 * i + 6, 3 * i:3 * i + 3] = A_frames[i]
            if column:
                big[6 * i, -1] = 1.0
        sol = np.linalg.lstsq(big, b_frames.ravel(), rcond=None)[0]
        return sol if everything else sign * sol[-1]
    return bias_estimate


# ----------------------------------------------------------------------------- the trial
# question -> (topic, {kind: student answer}, public call, hidden call, few values?)
TRIAL = {
    "1.q1": ("one_link", {"right": _torque(), "sign": _torque(sign=-1), "units":
                          _torque(deg=True), "term": _torque(term=False),
                          "shape": lambda p: str(_torque()(p))},
             lambda f, p: checks.check_one_link_torque(f, _values(f, p, "tau"), p),
             lambda f, p: hidden.check_one_link_torque(f(p)), False),
    "1.q3": ("one_link", {"right": _hanging(), "sign": _hanging(sign=-1), "units":
                          _hanging(deg=True), "term": _hanging(about_com=True),
                          "shape": _hanging(pair=True)},
             lambda f, p: checks.check_one_link_hanging(f),
             lambda f, p: hidden.check_one_link_hanging(
                 lambda b, bd, t: f(b, bd, t, p=p)), False),
    "1.q4": ("one_link", {"right": _euler(), "sign": _euler(sign=-1), "units":
                          _euler(deg=True), "term": _euler(symplectic=True),
                          "shape": _euler(shape=True)},
             lambda f, p: checks.check_one_link_euler_step(f),
             lambda f, p: hidden.check_one_link_euler_step(
                 lambda b, bd, t, dt: f(b, bd, t, dt, p=p)), False),
    # ratio is the same for everyone: its public check judges the form only (see below)
    "1.q5": ("one_link", {"right": _period(), "sign": _period(sign=-1), "units":
                          _period(cm=True), "term": _period(about_com=True),
                          "shape": _period(shape=True)},
             lambda f, p: checks.check_one_link_period(f, _values(f, p, "period"), 1.0, p),
             lambda f, p: hidden.check_one_link_period(f(p), 1.0), False),
    "2.q1": ("two_link", {"right": _velocity(), "sign": _velocity(sign=-1), "units":
                          _velocity(deg=True), "term": _velocity(coriolis=False),
                          "shape": _velocity(shape=True)},
             lambda f, p: checks.check_two_link_velocity_terms(f, _values(f, p, "C"), p),
             lambda f, p: hidden.check_two_link_velocity_terms(f(p)), False),
    "2.q3": ("two_link", {"right": _segmental(), "sign": _segmental(sign=-1), "units":
                          _segmental(deg=True), "term": _segmental(parallel=False),
                          "shape": _segmental(flat=True)},
             lambda f, p: checks.check_two_link_segmental_mass_matrix(f),
             lambda f, p: hidden.check_two_link_segmental_mass_matrix(
                 lambda a, b: f(a, b, p=p)), False),
    # a ratio of durations has no unit: the "units" attempt forgets the square instead
    "2.q4": ("two_link", {"right": _speedup(), "sign": _speedup(invert=True),
                          "units": _speedup(power=1), "term": _speedup(power=1),
                          "shape": _speedup(single=True)},
             lambda f, p: checks.check_two_link_time_scaling(f, *_two(_values(f, p, "")),
                                                             1.0, p),
             lambda f, p: hidden.check_two_link_time_scaling(*f(p), 1.0), False),
    # the skew operator has no unit: the "units" attempt puts a wrong entry instead
    "3.q1": ("matrix_form", {"right": _skew(), "sign": _skew(transpose=True),
                             "units": _skew(missing=True), "term": _skew(missing=True),
                             "shape": _skew(flat=True)},
             lambda f, p: checks.check_matrix_form_skew(f),
             lambda f, p: hidden.check_matrix_form_skew(f), False),
    "3.q2": ("matrix_form", {"right": _pendulum(), "sign": _pendulum(sign=-1), "units":
                             _pendulum(deg=True), "term": _pendulum(source=True),
                             "shape": _pendulum(shape=True)},
             lambda f, p: checks.check_matrix_form_accelerations(f, _values(f, p, ""), p),
             lambda f, p: hidden.check_matrix_form_accelerations(f(p)), False),
    "3.q3": ("matrix_form", {"right": _seed(), "sign": _seed(sign=-1), "units":
                             _seed(deg=True), "term": _seed(unsubtracted=True),
                             "shape": _seed(shape=True)},
             lambda f, p: checks.check_matrix_form_seed_error(f, _values(f, p, ""), p),
             lambda f, p: hidden.check_matrix_form_seed_error(f(p)), False),
    "3.q4": ("matrix_form", {"right": _bars(), "sign": _bars(sign=-1), "units":
                             _bars(deg=True), "term": _bars(rotate=False),
                             "shape": _bars(flat=True)},
             lambda f, p: checks.check_matrix_form_double_pendulum_3d(f, _values(f, p, ""),
                                                                       p),
             lambda f, p: hidden.check_matrix_form_double_pendulum_3d(f(p)), False),
    "4.q2": ("gait", {"right": _ankle(), "sign": _ankle(g_sign=1.0), "units":
                      _ankle(deg=True), "term": _ankle(inertia=False),
                      "shape": _ankle(shape=True)},
             lambda f, p: checks.check_gait_foot_loads(f, *_gait_values(f, p), p),
             lambda f, p: hidden.check_gait_foot_loads(*_gait_values(f, p)), False),
    # a root-mean-square has no sign and no unit to confuse: the "sign" attempt subtracts
    # minus the truth, the "units" attempt forgets the root
    "4.q3": ("gait", {"right": _rmse(), "sign": _rmse(truth_sign=-1.0), "units":
                      _rmse(root=False), "term": _rmse(root=False),
                      "shape": _rmse(total=True)},
             lambda f, p: checks.check_gait_seed_error(f, *_rmse_values(f, p), p),
             lambda f, p: hidden.check_gait_seed_error(*_rmse_values(f, p)), False),
    "4.q4": ("gait", {"right": _rmse(), "sign": _rmse(truth_sign=-1.0), "units":
                      _rmse(root=False), "term": _rmse(root=False),
                      "shape": _rmse(total=True)},
             lambda f, p: checks.check_gait_quasi_static(f, _quasi_values(f, p), p),
             lambda f, p: hidden.check_gait_quasi_static(_quasi_values(f, p)), False),
    # Z holds zeros and ones: no unit; the "units" attempt moves each segment by its own
    # joint only; every message names a concept, never an entry
    "5.q1": ("reactions", {"right": _Z(), "sign": _Z(sign=-1.0), "units": _Z(every=False),
                           "term": _Z(every=False), "shape": _Z(transpose=True)},
             lambda f, p: checks.check_reactions_Z(f, _values(f, 3, "Z")),
             lambda f, p: hidden.check_reactions_Z(f(3)), True),
    "5.q2": ("reactions", {"right": _accelerations(), "sign": _accelerations(sign=-1),
                           "units": _accelerations(deg=True),
                           "term": _accelerations(hip=False),
                           "shape": _accelerations(shape=True)},
             lambda f, p: checks.check_reactions_accelerations(f, _values(f, p, ""), p),
             lambda f, p: hidden.check_reactions_accelerations(f(p)), False),
    # reactions have no angle or length: the "units" attempt drops the bed force too
    "5.q3": ("reactions", {"right": _reactions(), "sign": _reactions(sign=-1),
                           "units": _reactions(bed=False), "term": _reactions(bed=False),
                           "shape": _reactions(shape=True)},
             lambda f, p: checks.check_reactions_lambda(f, _values(f, p, ""), p,
                                                        _accelerations()),
             lambda f, p: hidden.check_reactions_lambda(f(p)), False),
    # weights are variances: the "units" attempt weighs rows by 1/var, not 1/sd
    "6.q1": ("least_squares", {"right": _wls(), "sign": _wls(sign=-1), "units":
                               _wls(weights="var"), "term": _wls(weights="none"),
                               "shape": _wls(extra=True)},
             lambda f, p: checks.check_least_squares_wls(f),
             lambda f, p: hidden.check_least_squares_wls(f), False),
    "6.q2": ("least_squares", {"right": _std(), "sign": _std(sign=-1), "units":
                               _std(w_sd=True), "term": _std(root=False),
                               "shape": _std(full=True)},
             lambda f, p: checks.check_least_squares_std(f, _values(f, p, ""), p),
             lambda f, p: hidden.check_least_squares_std(f(p.A, p.sd)), False),
    "6.q3": ("least_squares", {"right": _hip(), "sign": _hip(invert=True), "units":
                               _hip(variance=True), "term": _hip(variance=True),
                               "shape": _hip(vector=True)},
             lambda f, p: checks.check_least_squares_drop_channel(
                 f, _values(f, p, ""), False, p),
             lambda f, p: hidden.check_least_squares_drop_channel(
                 f(p.A, p.sd, int(p.missing)), False), False),
    "6.q4": ("least_squares", {"right": _bias(), "sign": _bias(sign=-1), "units":
                               _bias(column=False), "term": _bias(column=False),
                               "shape": _bias(everything=True)},
             lambda f, p: checks.check_least_squares_bias(f, _values(f, p, ""), p),
             lambda f, p: hidden.check_least_squares_bias(f(p.A_frames, p.b_frames)),
             False),
}


def _values(func, p, name):
    """What the notebook's answer line computes (``None`` if the function raises)."""
    try:
        if isinstance(p, checks.Problem) and p.topic == "least_squares":
            if "torque_std" in func.__name__:
                return func(p.A, p.sd)
            if "hip_factor" in func.__name__:
                return func(p.A, p.sd, int(p.missing))
            if "bias" in func.__name__:
                return func(p.A_frames, p.b_frames)
        return func(p)
    except Exception:  # noqa: BLE001 (a wrong-shape attempt may not even run)
        return None


def _two(values):
    """The notebook's ``a, b = f(p)``: (None, None) where that line would raise."""
    return tuple(values) if isinstance(values, (tuple, list)) and len(values) == 2 else (
        None, None)


def _run_data():
    from bmc import datasets

    return datasets.load_running()


def _gait_values(f, p):
    try:
        return f(_run_data(), p.k)
    except Exception:  # noqa: BLE001
        return None, None


def _rmse_values(f, p):
    run = _run_data()
    return (f(run, p.start, p.stop, derivative="diff2"), f(run, p.start, p.stop))


def _quasi_values(f, p):
    return f(_run_data(), p.start, p.stop, quasi_static=True)


CASES = [(q, kind) for q in TRIAL for kind in KINDS]


@pytest.mark.parametrize(("question", "kind"), CASES, ids=[f"{q}-{k}" for q, k in CASES])
def test_public_check_passes_only_the_right_answer_and_says_what_is_wrong(question, kind):
    topic, attempts, public, _, _ = TRIAL[question]
    p = _data(topic)
    if kind == "right":
        try:
            assert public(attempts[kind], p) is True
        except JudgedAtGrading:
            pass  # a question with a part only the grader may judge: not "passed" either
        return
    with pytest.raises(IncorrectAnswer) as info:
        public(attempts[kind], p)
    assert SAYS_WHAT.search(str(info.value)), str(info.value)


@pytest.mark.parametrize(("question", "kind"), CASES, ids=[f"{q}-{k}" for q, k in CASES])
def test_graders_check_on_the_students_own_data(question, kind):
    topic, attempts, _, graded, few = TRIAL[question]
    p = _data(topic)
    with checks.student_data(STUDENT):
        if kind == "right":
            assert graded(attempts[kind], p) is True
            return
        with pytest.raises((IncorrectAnswer, TypeError, ValueError)) as info:
            graded(attempts[kind], p)
    message = str(info.value)
    assert message, question
    if few:  # no entry named (a shape may be)
        entries = re.sub(r"shape \(\d+, \d+\)", "", message)
        assert not re.search(r"\[\d+(, \d+)?\]|index|\(\d+, \d+\)", entries), message


# ----------------------------------------------------------------------------- predictions
# question -> (topic, public check, hidden check, the right (practice, graded) answers,
# wrong practice answers by kind). A sign has no unit: the "units" attempt is another
# mistake of the concept (named there).
PREDICTIONS = {
    "1.q2": (checks.check_one_link_centripetal, hidden.check_one_link_centripetal,
             (-1, 1, 1), (0, -1, -1),
             {"sign": (1, -1, -1), "term": (0, 1, 1),  # slowing down forgotten
              "units": (-1, -1, -1),  # the force on the joint, not on the segment
              "shape": "(-1, 1, 1)"}),
    "2.q2": (checks.check_two_link_vanishing, None, set(),
             ({"C2"}, {"C1", "C2"}, {"C1"}, {"C1"}),
             {"sign": {"C1", "C2"}, "term": {"C2"}, "units": {"C1"}, "shape": "C1"}),
    "4.q1": (checks.check_gait_signs, hidden.check_gait_signs, (1, -1), (-1, -1, 1),
             {"sign": (-1, 1), "term": (0, -1), "units": (1, 0), "shape": ("up", -1)}),
    "5.q4": (checks.check_reactions_predictions, hidden.check_reactions_predictions, 1,
             (0, "ankle"), {"sign": -1, "term": 0, "units": 0, "shape": "plus"}),
}
PREDICTION_CASES = [(q, k) for q in PREDICTIONS for k in KINDS]


def _public(question, practice_answer, graded):
    check = PREDICTIONS[question][0]
    return check(practice_answer, *graded)


@pytest.mark.parametrize(("question", "kind"), PREDICTION_CASES,
                         ids=[f"{q}-{k}" for q, k in PREDICTION_CASES])
def test_a_prediction_is_never_passed_and_its_practice_case_says_what_is_wrong(question,
                                                                              kind):
    _, _, right_practice, graded, wrong = PREDICTIONS[question]
    with checks.student_data(STUDENT):
        if kind == "right":
            with pytest.raises(JudgedAtGrading, match="judged when your notebook is graded"):
                _public(question, right_practice, graded)
            return
        with pytest.raises(IncorrectAnswer) as info:
            _public(question, wrong[kind], graded)
    assert SAYS_WHAT.search(str(info.value)), str(info.value)


def _alternatives(graded):
    """Every graded answer that differs from the right one in one place."""
    out = []
    for i, value in enumerate(graded):
        if isinstance(value, str):
            options = ["hip", "knee", "ankle"]
        elif isinstance(value, set):
            options = [set(), {"C1"}, {"C2"}, {"C1", "C2"}]
        else:
            options = [-1, 0, 1]
        for other in options:
            if other != value:
                out.append(tuple(graded[:i]) + (other,) + tuple(graded[i + 1:]))
    return out


@pytest.mark.parametrize("question", sorted(PREDICTIONS))
def test_a_prediction_check_is_the_same_for_every_answer_of_the_right_form(question):
    # no leak: what the public check says does not depend on the graded prediction
    _, _, right_practice, graded, _ = PREDICTIONS[question]
    graded = graded if isinstance(graded, tuple) else (graded,)
    said = set()
    for answer in [graded, *_alternatives(graded)]:
        with checks.student_data(STUDENT), pytest.raises(JudgedAtGrading) as info:
            _public(question, right_practice, answer)
        said.add(str(info.value))
    assert len(said) == 1, said


@pytest.mark.parametrize("question", ["1.q2", "4.q1", "5.q4"])
def test_the_graders_message_for_a_prediction_never_says_which_is_wrong(question):
    _, graded_check, _, graded, _ = PREDICTIONS[question]
    graded = graded if isinstance(graded, tuple) else (graded,)
    with checks.student_data(STUDENT):
        assert graded_check(*graded) is True
        said = set()
        for answer in _alternatives(graded):
            with pytest.raises(IncorrectAnswer) as info:
                graded_check(*answer)
            said.add(str(info.value))
    # one message per wrong answer, whichever it is (5.q4 has two separately named answers:
    # its sign and its joint, each with one message)
    assert len(said) <= (2 if question == "5.q4" else 1), said


@pytest.mark.parametrize("case", ["a", "b", "c", "d"])
def test_the_graders_message_for_a_set_names_no_item(case):
    right = dict(zip("abcd", PREDICTIONS["2.q2"][3], strict=True))[case]
    with checks.student_data(STUDENT):
        assert hidden.check_two_link_vanishing(case, right)
        said = set()
        for other in (set(), {"C1"}, {"C2"}, {"C1", "C2"}):
            if other != right:
                with pytest.raises(IncorrectAnswer) as info:
                    hidden.check_two_link_vanishing(case, other)
                said.add(str(info.value))
    assert len(said) == 1 and "C1" not in said.pop().split("Hint")[0]


@pytest.mark.parametrize(("question", "name", "call"), [
    ("1.q5", "ratio", lambda r: hidden.check_one_link_period(_period()(_data("one_link")), r)),
    ("2.q4", "factor_gravity", lambda r: hidden.check_two_link_time_scaling(
        *_speedup()(_data("two_link")), r)),
])
def test_an_answer_the_same_for_everyone_gets_the_concept_only(question, name, call):
    with checks.student_data(STUDENT):
        assert call(1.0)
        said = set()
        for wrong in (0.0, 0.5, 2.0, math.sqrt(2), -1.0, 64.0):
            with pytest.raises(IncorrectAnswer) as info:
                call(wrong)
            said.add(str(info.value))
    assert len(said) == 1, said  # neither how far off nor which way
