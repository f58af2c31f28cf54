"""Strategies for the serving layer: checks, drawings, plotting, explorers (issue 34)."""

from __future__ import annotations

import functools
import math

import numpy as np
from harness import OMIT, spec
from hostile import WRONG_TYPES, Arr, Choice, Flag, Int, Num, Obj, frames_context, labelled, usable
from hypothesis import strategies as st
from specs_models import STATE_ALIASES, Q, model_context, models

from bmc import checks, drawing, plotting, widgets
from bmc.checks import _core as core
from bmc.checks import _gait_inverse_dynamics as gait
from bmc.checks import _joint_reactions as jr
from bmc.checks import _least_squares as lsq
from bmc.checks import _matrix_formalism as mfm
from bmc.checks import _one_link as one
from bmc.checks import _two_link as two

STUDENT_RAISES = (ValueError, TypeError, checks.IncorrectAnswer, checks.JudgedAtGrading)


def _raise(*args, **kwargs):
    raise ZeroDivisionError("division by zero")


# What a student's answer can be by mistake: a value where a function belongs, a function
# that raises or returns nothing, NaN, text, the wrong shape, a sign of 2.
BAD_ANSWERS = labelled(("Ellipsis (no answer)", ...), ("None", None), ("text", "12.3"),
                       ("NaN", math.nan), ("inf", math.inf), ("a function that raises", _raise),
                       ("a function returning None", lambda *a, **k: None),
                       ("a function returning NaN", lambda *a, **k: math.nan),
                       ("a function returning text", lambda *a, **k: "1.0"),
                       ("a function of no argument", lambda: 1.0),
                       ("a function returning a huge array", lambda *a, **k: np.zeros(10**5)),
                       ("a list", [1.0, 2.0]), ("complex", 1 + 2j), ("bool", True),
                       ("a dict", {"a": 1}), ("an object", object()))
BAD_SIGNS = labelled(("2", 2), ("-3.5", -3.5), ("NaN", math.nan), ("text", "up"), ("None", None),
                     ("Ellipsis", ...), ("a list", [1]), ("bool", True), ("inf", math.inf))
SIGN = Obj(st.sampled_from([-1, 0, 1, "positive", "negative", "zero", 1.0]), BAD_SIGNS,
           types=False)
NUMBER = Obj(st.floats(-100, 100), BAD_ANSWERS, types=False)


def _sign(x: float) -> int:
    return int(np.sign(round(float(x), 9)))


def _student(**kinds):
    return tuple(kinds)


def check_spec(name: str, func, args: dict, *, examples: int = 4, cpu: float = 10.0):
    spec(f"bmc.checks.{name}", func, args=args, raises=STUDENT_RAISES, student=tuple(args),
         examples=examples, cpu=cpu)


def right(value_fn):
    """An argument whose valid value is the right answer (computed lazily)."""
    return Obj(st.just(None).map(lambda _: value_fn()), BAD_ANSWERS, types=False)


def own(topic):
    return checks.problem(topic)


def prac(topic):
    return checks.practice(topic)


# ----------------------------------------------------------------------------- set 1
def _torque(d):
    return one.answer_torque(d)[0]


check_spec("check_one_link_torque", checks.check_one_link_torque,
           {"joint_torque": right(lambda: _torque), "tau": right(lambda: _torque(own("one_link"))),
            "p": Obj(st.sampled_from([OMIT, None]).map(
                lambda v: v if v is OMIT else own("one_link")), BAD_ANSWERS, types=False)})
check_spec("check_one_link_centripetal", checks.check_one_link_centripetal,
           {"practice_signs": right(lambda: tuple(_sign(x) for x in one.answer_spin(
               prac("one_link"), prac("one_link").alpha_spin_practice,
               prac("one_link").alphadd_spin_practice))),
            "sign_tau": SIGN, "sign_Frx": SIGN, "sign_Fry": SIGN})
check_spec("check_one_link_hanging", checks.check_one_link_hanging,
           {"hanging_qdd": right(lambda: lambda b, bd, t, p: one.answer_hanging_qdd(p, b, bd, t))})
check_spec("check_one_link_euler_step", checks.check_one_link_euler_step,
           {"euler_step": right(lambda: lambda b, bd, t, dt, p: one.answer_euler_step(
               p, b, bd, t, dt))})
check_spec("check_one_link_period", checks.check_one_link_period,
           {"small_period": right(lambda: lambda d: one.answer_period(d)[0]),
            "period": right(lambda: one.answer_period(own("one_link"))[0]),
            "ratio": NUMBER})
# ----------------------------------------------------------------------------- set 2
check_spec("check_two_link_velocity_terms", checks.check_two_link_velocity_terms,
           {"velocity_terms": right(lambda: lambda d: two.answer_velocity_terms(d)[0]),
            "C": right(lambda: two.answer_velocity_terms(own("two_link"))[0])})
SETS = Obj(st.sampled_from([set(), {"C1"}, {"C2"}, {"C1", "C2"}]),
           labelled(("unknown item", {"C3"}), ("a list", ["C1"]), ("text", "C1"),
                    ("None", None), ("Ellipsis", ...)), types=False)
check_spec("check_two_link_vanishing", checks.check_two_link_vanishing,
           {"vanish_practice": right(lambda: two.vanishing(prac("two_link"),
                                                           *two.PRACTICE_VANISH)),
            "vanish_a": SETS, "vanish_b": SETS, "vanish_c": SETS, "vanish_d": SETS})
check_spec("check_two_link_segmental_mass_matrix", checks.check_two_link_segmental_mass_matrix,
           {"mass_matrix_segmental": right(lambda: lambda t1, t2, p:
                                           two.answer_segmental_mass_matrix(p, t1, t2))})
check_spec("check_two_link_time_scaling", checks.check_two_link_time_scaling,
           {"speedup_factors": right(lambda: lambda d: two.answer_speedup(d)[:2]),
            "factor_inertial": right(lambda: two.answer_speedup(own("two_link"))[0]),
            "factor_velocity": right(lambda: two.answer_speedup(own("two_link"))[1]),
            "factor_gravity": NUMBER})
# ----------------------------------------------------------------------------- set 3
check_spec("check_matrix_form_skew", checks.check_matrix_form_skew,
           {"skew": right(lambda: mfm.answer_skew)})
check_spec("check_matrix_form_accelerations", checks.check_matrix_form_accelerations,
           {"pendulum_accelerations": right(lambda: lambda d: mfm.answer_accelerations(d)[0]),
            "thetadd": right(lambda: mfm.answer_accelerations(own("matrix_form"))[0])})
check_spec("check_matrix_form_seed_error", checks.check_matrix_form_seed_error,
           {"source_error": right(lambda: lambda d: mfm.answer_seed_error(d)[0]),
            "delta": right(lambda: mfm.answer_seed_error(own("matrix_form"))[0])})
check_spec("check_matrix_form_double_pendulum_3d", checks.check_matrix_form_double_pendulum_3d,
           {"joint_loads": right(lambda: lambda d: mfm.answer_bars_loads(d)[0]),
            "loads": right(lambda: mfm.answer_bars_loads(own("matrix_form"))[0])})
# ----------------------------------------------------------------------------- set 4
check_spec("check_gait_signs", checks.check_gait_signs,
           {"practice_signs": right(lambda: (
               _sign(gait.answer_signs(gait.PRACTICE_SAMPLES[0], 1)[0]),
               _sign(gait.answer_signs(gait.PRACTICE_SAMPLES[1], 1)[1]))),
            "sign_ankle_moment": SIGN, "sign_power_early": SIGN, "sign_power_late": SIGN})
check_spec("check_gait_foot_loads", checks.check_gait_foot_loads,
           {"ankle_loads": right(lambda: lambda run, k: gait.answer_ankle_loads(k)),
            "Fa": right(lambda: gait.answer_ankle_loads(int(own("gait").k))[0]),
            "tau_a": right(lambda: gait.answer_ankle_loads(int(own("gait").k))[1])},
           examples=3)


def _rmse(run, start, stop, **kw):
    return gait.answer_rmse(start, stop, **kw)


check_spec("check_gait_seed_error", checks.check_gait_seed_error,
           {"moment_rmse": right(lambda: _rmse),
            "rmse_diff2": right(lambda: _rmse(None, own("gait").start, own("gait").stop,
                                              derivative="diff2")),
            "rmse_central": right(lambda: _rmse(None, own("gait").start, own("gait").stop))},
           examples=3)
check_spec("check_gait_quasi_static", checks.check_gait_quasi_static,
           {"moment_rmse": right(lambda: _rmse),
            "rmse_quasi": right(lambda: _rmse(None, own("gait").start, own("gait").stop,
                                              quasi_static=True))}, examples=3)
# ----------------------------------------------------------------------------- set 5
check_spec("check_reactions_Z", checks.check_reactions_Z,
           {"open_constraint_Z": right(lambda: jr.answer_Z), "Z": right(lambda: jr.answer_Z(3))})
check_spec("check_reactions_accelerations", checks.check_reactions_accelerations,
           {"accelerations": right(lambda: lambda d: jr.answer_accelerations(d)[0]),
            "pdd": right(lambda: jr.answer_accelerations(own("reactions"))[0])})
check_spec("check_reactions_lambda", checks.check_reactions_lambda,
           {"joint_reactions": right(lambda: lambda d: jr.answer_reactions(d)[0]),
            "lam": right(lambda: jr.answer_reactions(own("reactions"))[0])})
check_spec("check_reactions_predictions", checks.check_reactions_predictions,
           {"practice_sign": right(lambda: _sign(jr.answer_reactions(
               jr.standing(prac("reactions")))[0][1])),
            "sign_lam2_flight": SIGN,
            "largest_vertical": Obj(st.sampled_from(["hip", "knee", "ankle"]),
                                    labelled(("unknown", "toe"), ("int", 1), ("None", None)),
                                    types=False)})
# ----------------------------------------------------------------------------- set 6
check_spec("check_least_squares_wls", checks.check_least_squares_wls,
           {"wls": right(lambda: lsq.answer_wls)})
check_spec("check_least_squares_std", checks.check_least_squares_std,
           {"torque_std": right(lambda: lsq.answer_std),
            "std_tau": right(lambda: lsq.answer_std(own("least_squares").A,
                                                    own("least_squares").sd))})
check_spec("check_least_squares_drop_channel", checks.check_least_squares_drop_channel,
           {"hip_factor": right(lambda: lsq.answer_hip_factor),
            "factor_hip": right(lambda: lsq.answer_hip_factor(
                own("least_squares").A, own("least_squares").sd,
                int(own("least_squares").missing))),
            "can_improve": Obj(st.booleans(), labelled(("text", "no"), ("int", 2), ("None", None)),
                               types=False)})
check_spec("check_least_squares_bias", checks.check_least_squares_bias,
           {"bias_estimate": right(lambda: lsq.answer_bias),
            "beta": right(lambda: lsq.answer_bias(own("least_squares").A_frames,
                                                  own("least_squares").b_frames))})

# ----------------------------------------------------------------------------- generic checks
# A check's name is any non-empty text (a variable, "tau(1.0)" for a call): text such as
# "0.3" is a valid label, so the generic wrong types' text is left out of its hostile values
NAME = Obj(st.sampled_from(["x", "tau", "lam"]),
           st.one_of(labelled(("int", 3), ("None", None), ("empty", ""), ("blank", "  ")),
                     st.sampled_from([t for t in WRONG_TYPES if not isinstance(t[1], str)])),
           types=False)
GEN = (ValueError, TypeError, checks.IncorrectAnswer)
# A check's tolerance: every finite size >= 0 is valid (a large atol makes the expected sign
# zero; a one-element array is that number), so a unit slip or a huge value is no hostile
# value of it: the check's verdict on the answer is then the right outcome, not a refusal.
TOLERANCE = Obj(st.one_of(st.just(OMIT), st.floats(0.0, 1.0)),
                labelled(("NaN", math.nan), ("inf", math.inf), ("-inf", -math.inf),
                         ("negative", -1e-3), ("text", "1e-9"), ("pair", [0.0, 0.0]),
                         ("complex", 1e-9 + 1j), ("empty", np.array([]))))
spec("bmc.checks.check_value", checks.check_value, raises=GEN, student=("answer",),
     context=frames_context(),
     args={"name": NAME,
           "expected": Arr(["*"], low=-100, high=100),
           "answer": Obj(lambda ctx, kw: st.just(kw["expected"]), BAD_ANSWERS, types=False),
           "rtol": Num(low=1e-12, high=0.5, positive=True, optional=True, ints=False),
           "atol": Num(low=0.0, high=1.0, nonneg=True, optional=True),
           "unit": Choice(["", "m", "rad", "N m"], optional=True),
           "level": Choice(["graded", "practice", "concept"], optional=True)})
spec("bmc.checks.check_sign", checks.check_sign, raises=GEN, student=("answer",),
     # expected: any finite real number (only its sign counts, so a unit slip or a huge
     # value keeps it valid; the verdict on the answer is then the right outcome)
     args={"name": NAME, "answer": SIGN,
           "expected": Obj(st.one_of(st.floats(-10, 10), st.integers(-10, 10)),
                           labelled(("NaN", math.nan), ("inf", math.inf), ("-inf", -math.inf),
                                    ("text", "-1.0"), ("pair", [1.0, 1.0]),
                                    ("complex", 1.0 + 1j))),
           "atol": TOLERANCE})
spec("bmc.checks.check_choice", checks.check_choice, raises=GEN, student=("answer",),
     args={"name": NAME, "answer": Obj(st.sampled_from(["hip", "knee"]),
                                       labelled(("unknown", "toe"), ("None", None), ("int", 1)),
                                       types=False),
           "expected": Choice(["hip", "knee"]),
           "choices": Obj(st.just(["hip", "knee", "ankle"]),
                          labelled(("empty", []), ("a string", "hip"), ("None", None)))})
spec("bmc.checks.check_set", checks.check_set, raises=GEN, student=("answer",),
     args={"name": NAME, "answer": SETS, "expected": Obj(st.sampled_from([{"C1"}, set()])),
           # items of any hashable kind are valid options (numbers, None, text alike): the
           # generic wrong types that are lists ([0.1, "0.2"]) are valid lists of items
           "allowed": Obj(st.just(["C1", "C2"]),
                          labelled(("empty", []), ("a string", "C1"), ("None", None),
                                   ("int", 1), ("object", object()), ("Ellipsis", ...)),
                          types=False)})
spec("bmc.checks.check_function", checks.check_function, raises=GEN, student=("func",),
     args={"name": NAME,
           "func": Obj(st.just(lambda x: 2 * x), BAD_ANSWERS, types=False),
           "cases": Obj(st.just([(1.0,), (2.0,)]), labelled(("empty", []), ("numbers", [1.0, 2.0]),
                                                           ("None", None))),
           "expected": Obj(st.just([2.0, 4.0]),
                           labelled(("too few", [2.0]), ("text", ["a", "b"]))),
           "rtol": Num(low=1e-12, high=0.5, positive=True, optional=True, ints=False)})
spec("bmc.checks.check_form", checks.check_form, raises=GEN, student=("answer",),
     args={"name": NAME,
           "answer": Obj(st.sampled_from([1.0, np.array([1.0, 2.0])]), BAD_ANSWERS, types=False),
           "kind": Obj(st.just("value"), labelled(("unknown", "number"), ("None", None))),
           "shape": Obj(st.just(OMIT), labelled(("negative", (-1,)), ("text", "2"),
                                                ("huge", (10**9, 10**9))))})


def _problem(topic, student=OMIT):
    try:
        return checks.problem(topic) if student is OMIT else checks.problem(topic, student)
    finally:
        core._LAST_STUDENT = None  # forget the id (the tests that follow use common data)


_problem.__name__ = "problem"
TOPIC = Obj(st.sampled_from(core.problems()), labelled(("unknown", "pendulum"), ("int", 1),
                                                       ("None", None), ("upper case", "ONE_LINK")))
spec("bmc.checks.problem", _problem,
     args={"topic": TOPIC, "student": Obj(st.one_of(st.just(OMIT), st.just(None), st.text(
         "abcdefghij0123456789-", min_size=1, max_size=8)),
         labelled(("placeholder", "your student id"), ("int", 12345), ("bytes", b"ab1")))})
spec("bmc.checks.practice", checks.practice, args={"topic": TOPIC})
spec("bmc.checks.problems", checks.problems, args={})


def _student_data(student):
    with checks.student_data(student):
        return checks.problem("one_link")


_student_data.__name__ = "student_data"
spec("bmc.checks.student_data", _student_data,
     args={"student": Obj(st.one_of(st.just(None), st.just(""), st.text("abc123", min_size=1,
                                                                         max_size=6)),
                          labelled(("int", 5), ("a list", ["a"])))})


def _register(topic, title, build, vary=OMIT, variant=OMIT):
    saved = (dict(core._PROBLEM_SPECS), dict(core._PROBLEM_CACHE), dict(core._PRACTICE_CACHE))
    try:
        kwargs = {k: v for k, v in (("vary", vary), ("variant", variant)) if v is not OMIT}
        checks.register_problem(topic, title, build, **kwargs)
        return checks.problem(topic) if isinstance(topic, str) and topic in core._PROBLEM_SPECS \
            else None
    finally:
        for live, old in zip((core._PROBLEM_SPECS, core._PROBLEM_CACHE, core._PRACTICE_CACHE),
                             saved, strict=True):
            live.clear()
            live.update(old)


_register.__name__ = "register_problem"
spec("bmc.checks.register_problem", _register,
     args={"topic": Obj(st.just("fuzz_topic"),
                        labelled(("int", 3), ("None", None), ("empty", ""))),
           "title": Obj(st.just("A fuzzed set"), labelled(("int", 3))),
           "build": Obj(st.just(lambda: [("x", 1.0, "m", "a length")]),
                        labelled(("not callable", [("x", 1.0, "m", "a length")]),
                                 ("raises", _raise), ("returns None", lambda: None),
                                 ("bad entries", lambda: [("x", 1.0)]))),
           "vary": Obj(st.sampled_from([OMIT, {"x": 0.1}]),
                       labelled(("unknown quantity", {"y": 0.1}), ("negative", {"x": -0.5}),
                                ("NaN", {"x": math.nan}))),
           "variant": Obj(st.just(OMIT), labelled(("not callable", 3)))})
spec("bmc.checks.Problem", checks.Problem,
     args={"topic": Obj(st.just("t"), labelled(("int", 1))),
           "title": Obj(st.just("T"), labelled(("int", 1))),
           "entries": Obj(st.just([("x", 1.0, "m", "a length")]),
                          labelled(("short entries", [("x", 1.0)]), ("not a list", 3),
                                   ("text value", [("x", "a", "m", "")]))),
           "practice": Flag()})
spec("bmc.checks.Problem.units", lambda ctx: checks.practice("one_link").units, bound=True,
     args={})
spec("bmc.checks.Problem.modified", lambda ctx: checks.practice("one_link").modified,
     bound=True,
     args={"note": Obj(st.sampled_from([OMIT, "changed"]), labelled(("int", 3))),
           "mass": Obj(st.floats(0.5, 5.0), labelled(("text", "heavy"), ("array", np.ones(3)),
                                                     ("NaN", math.nan), ("None", None)))})


class _Case:
    def __init__(self, passed, message="", success=None):
        self.passed, self.message = passed, message
        self.test_case = type("TC", (), {"success_message": success})()


class _File:
    def __init__(self, name, results):
        self.name, self.test_case_results = name, results


spec("bmc.checks.report", checks.report,
     args={"result": Obj(st.sampled_from([None, _File("q1", [_Case(True)]),
                                          _File("q2", [_Case(False, "Error at line 1\n\n"
                                                             "IncorrectAnswer: x is wrong")])]),
                         labelled(("a list of text", ["x"]), ("results of text",
                                                              _File("q", ["passed"])),
                                  ("an int", 3)))})
spec("bmc.checks.IncorrectAnswer", checks.IncorrectAnswer,
     args={"*message": Obj(st.just(("x is wrong",)), types=False,
                           hostile=st.just(("same", ("x",))))})
spec("bmc.checks.JudgedAtGrading", checks.JudgedAtGrading,
     args={"*message": Obj(st.just(("x at grading",)), types=False,
                           hostile=st.just(("same", ("x",))))})

# ----------------------------------------------------------------------------- drawings
AX = Obj(st.just(OMIT), labelled(("text", "x"), ("an int", 1), ("a figure", "FIGURE")))
CHAINS = model_context("arm", "chain3", "one_link", counts=())
spec("bmc.drawing.diagrams.free_body_diagram", drawing.free_body_diagram, context=CHAINS,
     args={"chain": Obj(lambda ctx, kw: st.just(ctx["model"]),
                        labelled(("a tree", models()["human"]), ("text", "arm"))),
           "q": Q,
           "segment": Obj(lambda ctx, kw: st.integers(-ctx["model"].n, ctx["model"].n - 1),
                          labelled(("out of range", 9), ("float", 0.0), ("name", "forearm"))),
           "qd": Arr(["k"], unit="rad/s", optional=True, frames=False),
           "qdd": Arr(["k"], unit="rad/s^2", optional=True, frames=False),
           "contact_force": Arr([2], unit="N", low=-100, high=100, optional=True,
                                frames=False),
           "symbolic": Flag(), "lever_arms": Flag(),
           "force_scale": Num(unit="m/N", low=1e-4, high=0.1, positive=True, optional=True,
                              ints=False),
           "ax": AX}, examples=4)


def sketch_model(ctx, kwargs):
    return st.sampled_from(["arm", "chain3", "human", "kuo", "floating_arm"]).map(
        lambda k: models()[k])


spec("bmc.drawing.sketch.model_sketch", drawing.model_sketch,
     context=model_context("arm", "chain3", "human", "kuo", "floating_arm", counts=()),
     args={"model": Obj(lambda ctx, kw: st.just(ctx["model"]),
                        labelled(("text", "arm"), ("a number", 3.0))),
           "q": Q,
           "angles": Choice(["joint", "segment", None], optional=True),
           "values": Flag(), "gravity": Flag(), "numbers": Flag(), "ax": AX},
     # a model names its coordinates (FourSegmentModel: phi), as its check_state says
     aliases=STATE_ALIASES, examples=4)
POSES = st.fixed_dictionaries({"lead": st.sampled_from([(2,), (6,), (15,)]),
                               "points": st.integers(2, 4)})


def poses(ctx, kwargs):
    n, p = ctx["lead"][0], ctx["points"]
    return st.floats(0.1, 1.5).map(lambda s: np.cumsum(
        np.stack([np.cos(np.linspace(0, s, n))[:, None] * np.ones(p),
                  np.sin(np.linspace(0, s, n))[:, None] * np.arange(p)], -1) * 0.3, axis=1))


POSE = Arr(["*", "points", 2], unit="m", make=poses)
spec("bmc.drawing.motion.strobe", drawing.strobe, context=POSES,
     args={"poses": POSE,
           "times": Arr(["*"], unit="s", make=lambda ctx, kw: st.just(
               np.arange(ctx["lead"][0]) / 50.0), optional=True),
           "every": Int(1, 5, optional=True),
           "path": Obj(lambda ctx, kw: st.one_of(st.just(OMIT), st.integers(0, ctx["points"] - 1)),
                       labelled(("out of range", 99), ("wrong frames", np.zeros((3, 2))))),
           "spread": Num(unit="m", low=0.0, high=0.5, nonneg=True, optional=True),
           "cmap": Choice(["viridis", "cividis"], optional=True), "ax": AX}, examples=4)
spec("bmc.drawing.motion.animation", drawing.animation, context=POSES,
     args={"poses": POSE,
           "times": Arr(["*"], unit="s", make=lambda ctx, kw: st.just(
               np.arange(ctx["lead"][0]) / 50.0), optional=True),
           "interval": Int(10, 200, optional=True), "every": Int(1, 5, optional=True),
           "dpi": Int(40, 120, optional=True)}, examples=3)
spec("bmc.drawing.motion.Animation", drawing.Animation,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         poses=np.zeros((2, 2, 2)), pairs=[(0, 1)], times=None, interval=50, path_xy=None,
         strobe_kwargs={}, dpi=80).items()})
spec("bmc.drawing.diagrams.segment_diagram", drawing.segment_diagram,
     args={"proximal": Arr([2], unit="m", low=-1, high=1, frames=False),
           "distal": Obj(lambda ctx, kw: st.tuples(st.floats(0.1, 0.5), st.floats(-3.1, 3.1)).map(
               lambda a: usable(kw.get("proximal"), [0.0, 0.0], (2,)) + a[0] * np.array(
                   [np.cos(a[1]), np.sin(a[1])])),
               labelled(("coincident", "SAME"), ("NaN", [np.nan, 0.0]), ("3 values", [0, 0, 0]))),
           "com": Obj(lambda ctx, kw: st.floats(0.2, 0.8).map(
               lambda f: (1 - f) * usable(kw.get("proximal"), [0.0, 0.0], (2,))
               + f * usable(kw.get("distal"), [0.3, 0.0], (2,))),
               labelled(("far away", [50.0, 50.0]), ("text", "com"))),
           "mass": Num(unit="kg", low=0.1, high=40.0, positive=True, optional=True),
           "forces": Obj(lambda ctx, kw: st.sampled_from([OMIT, {r"F_p": (kw["proximal"],
                                                                          [10.0, 50.0])}]),
                         labelled(("not a mapping", [1.0, 2.0]), ("NaN force",
                                                                  {"F": ([0, 0], [np.nan, 1])}),
                                  ("bad pair", {"F": 3.0}))),
           "moments": Obj(lambda ctx, kw: st.sampled_from([OMIT, {r"M_p": (kw["proximal"], 5.0)}]),
                          labelled(("not a mapping", 5.0), ("bad pair", {"M": "x"}))),
           "symbolic": Flag(), "lever_arms": Flag(), "ax": AX}, examples=4)


@functools.cache
def _limb():
    from bmc.datasets import load_running
    from bmc.newton_euler import lower_limb

    run = load_running()
    cut = slice(2900, 3300)
    return run, lower_limb(run.markers[cut], run.grf[cut], run.freq, run.segments), cut


spec("bmc.drawing.diagrams.lower_limb_diagrams", drawing.lower_limb_diagrams,
     args={"result": Obj(st.just(OMIT).map(lambda _: _limb()[1]),
                         labelled(("text", "result"), ("None", None))),
           "grf": Arr(["*", 3], make=lambda ctx, kw: st.just(_limb()[0].grf[_limb()[2]]),
                      frames=False),
           "frame": Obj(st.integers(0, 399), labelled(("out of range", 400), ("negative", -401),
                                                      ("float", 10.0), ("bool", True))),
           "masses": Arr([3], unit="kg", make=lambda ctx, kw: st.just(_limb()[0].segments.mass),
                         positive=True, frames=False),
           "symbolic": Flag()}, context=st.just({"lead": (400,)}), examples=3)


def _drawing():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    return drawing.Drawing(ax)


spec("bmc.drawing.Drawing", drawing.Drawing,
     args={"ax": Obj(st.just(OMIT).map(lambda _: _drawing().ax), labelled(("same", None)),
                     types=False)})
spec("bmc.drawing.Drawing.describe", lambda ctx: drawing.model_sketch(
    models()["arm"], [0.3, 0.5]).describe, bound=True, args={})
spec("bmc.drawing.Arrow", drawing.Arrow,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         label="F", kind="force", tail=np.zeros(2), vector=np.ones(2), delta=np.ones(2)).items()})
spec("bmc.drawing.Moment", drawing.Moment,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         label="M", centre=np.zeros(2), value=1.0, sense=1).items()})

# ----------------------------------------------------------------------------- plotting


def _figure():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3))
    ax.plot([0, 1], [0, 1], label="a")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("angle [rad]")
    return fig


FIG = Obj(st.just(OMIT).map(lambda _: _figure()),
          labelled(("text", "figure"), ("None", None), ("an axes list", [1, 2])))
spec("bmc.plotting.check_figure", plotting.check_figure,
     args={"figure": FIG, "min_text": Num(unit="pt", low=1.0, high=20.0, positive=True,
                                          optional=True),
           "width": Num(unit="px", low=100.0, high=2000.0, positive=True, optional=True),
           "colour_distance": Num(low=1.0, high=40.0, positive=True, optional=True)},
     examples=4)
COLOUR = Obj(st.sampled_from(["#0072B2", "C1", (0.1, 0.2, 0.3), "black"]),
             labelled(("unknown name", "blurple"), ("out of range", (2.0, 0.0, 0.0)),
                      ("NaN", (math.nan, 0.0, 0.0))))
spec("bmc.plotting.colour_distances", plotting.colour_distances,
     args={"first": COLOUR, "second": COLOUR})
spec("bmc.plotting.cycle", plotting.cycle, args={"markers": Flag()})
spec("bmc.plotting.describe_figure", plotting.describe_figure, args={"figure": FIG})
spec("bmc.plotting.series_style", plotting.series_style,
     args={"index": Int(0, 20), "marker": Flag()})


def _use_style():
    import matplotlib

    with matplotlib.rc_context():
        return plotting.use_style()


_use_style.__name__ = "use_style"
spec("bmc.plotting.use_style", _use_style, args={})
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
spec("bmc.plotting.figure_html", plotting.figure_html,
     args={"png": Obj(st.sampled_from([PNG, "iVBORw0KGgo="]),
                      labelled(("None", None), ("an int", 3), ("a list", [1]))),
           "alt": Obj(st.text(min_size=1, max_size=40), labelled(("empty", ""), ("None", None),
                                                               ("int", 3))),
           "caption": Obj(st.one_of(st.just(OMIT), st.text(max_size=20)),
                          labelled(("int", 3))),
           "width": Int(10, 2000, optional=True), "height": Int(10, 2000, optional=True)})
spec("bmc.plotting.show", plotting.show,
     args={"figure": FIG, "alt": Obj(st.text(min_size=1, max_size=40).filter(str.strip),
                                     labelled(("empty", ""), ("blank", " "), ("int", 3))),
           # a caption is a non-empty sentence (or None): blank text is a hostile value
           "caption": Obj(st.one_of(st.just(OMIT), st.just(None),
                                    st.text(min_size=1, max_size=20).filter(str.strip)),
                          labelled(("int", 3), ("empty", ""), ("blank", "  ")))}, examples=4)


def _axes():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], label="a")
    ax.plot([0, 1], [1, 0], label="b")
    return ax


spec("bmc.plotting.legend_outside", plotting.legend_outside,
     args={"ax": Obj(st.just(OMIT).map(lambda _: _axes()),
                     labelled(("text", "x"), ("None", None))),
           "side": Choice(["below", "right"], optional=True),
           "ncol": Int(1, 4, optional=True)})
SERIES = st.fixed_dictionaries({"lead": st.sampled_from([(5,), (20,)]), "k": st.integers(1, 3)})
spec("bmc.plotting.estimates_against_truth", plotting.estimates_against_truth, context=SERIES,
     args={"t": Arr(["*"], unit="s",
                    make=lambda ctx, kw: st.just(np.arange(ctx["lead"][0]) / 10.0)),
           "truth": Arr(["*", "k"]),
           "estimates": Obj(st.just({"estimate": {"linestyle": "--"}}),
                            labelled(("not a dict", ["a"]), ("bad options", {"a": 3}))),
           "titles": Obj(lambda ctx, kw: st.just([f"joint {i}" for i in range(ctx["k"])]),
                         labelled(("too few", []), ("a string", "hip"))),
           "ylabel": Obj(st.just("torque [N m]"), labelled(("int", 3))),
           "margin": Num(low=0.0, high=1.0, nonneg=True, optional=True)}, examples=4)
def _drawn():
    fig = _figure()
    fig.canvas.draw()
    return fig


def _is_png(value, kwargs, ctx):
    return None if isinstance(value, bytes) and value.startswith(b"\x89PNG") else \
        f"not a PNG: {type(value).__name__}"


spec("bmc.plotting.tight_png", plotting.tight_png, args={"figure": FIG, "fallback": Flag()},
     # None is documented without the fallback (savefig settings that do not follow the figure)
     result=lambda value, kw, ctx: None if value is None and kw.get("fallback") is False
     else _is_png(value, kw, ctx), examples=4)
def _bbox(x0, y0, x1, y1):
    from matplotlib.transforms import Bbox

    return Bbox.from_extents(x0, y0, x1, y1)


# a box in figure inches: inside the 7 x 3 in figure, or reaching past its edge (padding)
BOX = Obj(st.tuples(st.floats(-0.2, 3.0), st.floats(-0.2, 1.0), st.floats(0.5, 4.0),
                    st.floats(0.5, 2.0)).map(
                        lambda b: _bbox(b[0], b[1], b[0] + b[2], b[1] + b[3])),
          labelled(("a tuple", (0.0, 0.0, 1.0, 1.0)), ("reversed", _bbox(2.0, 2.0, 1.0, 1.0)),
                   ("NaN", _bbox(0.0, 0.0, math.nan, 1.0)),
                   ("inf", _bbox(0.0, 0.0, math.inf, 1.0)),
                   ("far outside", _bbox(100.0, 100.0, 101.0, 101.0)),
                   ("pixels", _bbox(0.0, 0.0, 700.0, 300.0)),
                   ("huge", _bbox(0.0, 0.0, 1e9, 1e9)), ("empty", _bbox(1.0, 1.0, 1.0, 1.0))))


spec("bmc.plotting.cropped_png", plotting.cropped_png,
     args={"figure": Obj(st.just(OMIT).map(lambda _: _drawn()),
                         labelled(("text", "figure"), ("None", None), ("an axes list", [1, 2]))),
           "box": BOX}, result=_is_png, examples=4)

spec("bmc.plotting.FigureProblem", plotting.FigureProblem,
     args={"rule": Obj(st.just("overlap"), types=False, hostile=st.just(("same", "overlap"))),
           "message": Obj(st.just("m"), types=False, hostile=st.just(("same", "m")))})
spec("bmc.plotting.FigureWarning", plotting.FigureWarning,
     args={"*message": Obj(st.just(("w",)), types=False, hostile=st.just(("same", ("w",))))})

# ----------------------------------------------------------------------------- explorers


def values_of(ranges: dict):
    """Valid ``values`` dicts: a subset of the controls, each within its slider."""
    items = {}
    for key, rng in ranges.items():
        if isinstance(rng, tuple) and len(rng) == 2 and all(isinstance(v, (int, float))
                                                           and not isinstance(v, bool)
                                                           for v in rng):
            items[key] = st.floats(*rng)
        else:
            items[key] = st.sampled_from(list(rng))
    return st.fixed_dictionaries({}, optional=items)


def bad_values(ranges: dict):
    keys = list(ranges)
    first = keys[0]
    return st.one_of(
        st.sampled_from(keys).flatmap(lambda k: st.sampled_from(WRONG_TYPES + (
            ("NaN", math.nan), ("huge", 1e300), ("below the slider", -1e6))).map(
            lambda lv, k=k: (f"{k} {lv[0]}", {k: lv[1]}))),
        st.just(("unknown key", {first + "_x": 1.0})),
        st.just(("not a dict", [1.0])), st.just(("a string", first)))


EXPLORERS = {
    "one_link.torque_explorer": {"mean_deg": (-90.0, 90.0), "amplitude_deg": (0.0, 90.0),
                                 "frequency": (0.1, 4.0)},
    "two_link.reach_explorer": {"duration": (0.3, 4.0), "g": (0.0, 9.81),
                                "forearm_mass": (0.5, 5.0), "forearm_com": (0.05, 0.432)},
    "matrix_formalism.energy_explorer": {"log_dt": (-4.0, -2.0), "log_rtol": (-12.0, -4.0)},
    "matrix_formalism.frames_explorer": {"angle1": (-180.0, 180.0), "angle2": (-90.0, 90.0),
                                         "angle3": (-180.0, 180.0),
                                         "sequence": ("zxy", "xyz", "zyx", "zxz", "yxy"),
                                         "intrinsic": (True, False)},
    "gait_inverse_dynamics.noise_explorer": {"marker_noise": (0.0, 3.0),
                                             "force_noise": (0.0, 10.0), "cutoff": (5.0, 100.0)},
    "joint_reactions.reaction_explorer": {"time": (0.0, 2.0), "noise": (0.0, 100.0)},
    "least_squares_inverse_dynamics.torque_explorer": {"marker_noise": (0.01, 3.16),
                                                       "force_noise": (0.001, 10.0),
                                                       "weights": ("propagated", "paper")},
}


def _errors_named(value, kwargs, ctx):
    """On the interactive path a refused value is shown in place, naming the control."""
    return None


def explorer_spec(path: str, ranges: dict, **extra):
    import importlib

    module, name = path.split(".")
    func = getattr(importlib.import_module(f"bmc.widgets.{module}"), name)
    spec(f"bmc.widgets.{path}", func,
         args={"values": Obj(values_of(ranges), bad_values(ranges), types=False),
               "interactive": Obj(st.just(False), labelled(("text", "no"), ("None", None)),
                                  types=False), **extra},
         examples=2, cpu=15.0)


explorer_spec("one_link.torque_explorer", EXPLORERS["one_link.torque_explorer"],
              length=Num(unit="m", low=0.2, high=0.6, positive=True, optional=True),
              com_fraction=Num(low=0.3, high=0.6, positive=True, optional=True),
              mass=Num(unit="kg", low=0.5, high=5.0, positive=True, optional=True))
spec("bmc.widgets.one_link.outside_human_range", widgets.one_link.outside_human_range,
     context=frames_context(single=False, counts=(1, 5, 40)),
     args={"flexion_deg": Arr(["*"], unit="deg", low=-20.0, high=170.0),
           "torque": Arr(["*"], unit="N m", low=-80.0, high=100.0),
           "speed_deg_s": Num(unit="deg/s", low=0.0, high=3000.0, nonneg=True, optional=True),
           "body_mass": Num(unit="kg", low=20.0, high=150.0, positive=True, optional=True)},
     result=lambda value, kw, ctx: None if isinstance(value, list) and all(
         isinstance(s, str) for s in value) else "not a list of sentences")
explorer_spec("two_link.reach_explorer", EXPLORERS["two_link.reach_explorer"])
explorer_spec("matrix_formalism.energy_explorer", EXPLORERS["matrix_formalism.energy_explorer"],
              duration=Num(unit="s", low=0.5, high=5.0, positive=True, optional=True))
explorer_spec("matrix_formalism.frames_explorer", EXPLORERS["matrix_formalism.frames_explorer"])
explorer_spec("gait_inverse_dynamics.noise_explorer",
              EXPLORERS["gait_inverse_dynamics.noise_explorer"],
              step=Int(5, 20, optional=True), seed=Int(0, 100, optional=True))
explorer_spec("joint_reactions.reaction_explorer", EXPLORERS["joint_reactions.reaction_explorer"],
              seed=Int(0, 100, optional=True))
explorer_spec("least_squares_inverse_dynamics.torque_explorer",
              EXPLORERS["least_squares_inverse_dynamics.torque_explorer"],
              seed=Int(0, 100, optional=True))


def _run():
    from bmc.datasets import load_running

    return load_running()


spec("bmc.widgets.gait_inverse_dynamics.noisy_running",
     widgets.gait_inverse_dynamics.noisy_running,
     args={"run": Obj(st.just(OMIT), labelled(("text", "run"), ("a dict", {"markers": 1}))),
           "step": Int(1, 50, optional=True),
           "marker_noise": Num(unit="m", low=0.0, high=0.01, nonneg=True, optional=True),
           "force_noise": Num(unit="N", low=0.0, high=20.0, nonneg=True, optional=True),
           "cop_noise": Num(unit="m", low=0.0, high=0.02, nonneg=True, optional=True),
           "seed": Int(0, 2**31, optional=True)}, examples=4)
spec("bmc.widgets.gait_inverse_dynamics.NoisyTrial", widgets.gait_inverse_dynamics.NoisyTrial,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         freq=100.0, time=np.zeros(1), markers=np.zeros((1, 8)), grf=np.zeros((1, 3)),
         true_moments=np.zeros((1, 3)), segments=None, window=slice(0, 1)).items()})
spec("bmc.widgets.animation.player", widgets.animation.player, context=POSES,
     args={"poses": POSE,
           "fps": Num(unit="frames/s", low=1.0, high=120.0, positive=True, optional=True),
           "times": Arr(["*"], unit="s", make=lambda ctx, kw: st.just(
               np.arange(ctx["lead"][0]) / 50.0), optional=True),
           "title": Obj(st.sampled_from([OMIT, "swing"]), labelled(("int", 3))),
           "margin": Num(low=0.0, high=0.5, nonneg=True, optional=True),
           "size": Obj(st.sampled_from([OMIT, (320, 240)]),
                       labelled(("huge", (10**6, 10**6)), ("negative", (-1, 10)),
                                ("floats", (320.5, 240.0)))),
           "interactive": Flag()}, examples=4)
spec("bmc.widgets.animation.PoseView", widgets.animation.PoseView, args={})


def _slider(ctx, kwargs):
    import ipywidgets as w

    return st.tuples(st.floats(-100, 100), st.floats(0.1, 100), st.floats(0.01, 10)).map(
        lambda a: w.FloatSlider(value=a[0], min=a[0] - a[1], max=a[0] + a[1], step=a[2]))


def _bad_slider(ctx, kwargs):
    import ipywidgets as w

    return st.sampled_from([
        ("tiny step", lambda: w.FloatSlider(value=0.0, min=0.0, max=1e6, step=1e-6)),
        ("huge range", lambda: w.FloatSlider(value=0.0, min=-1e12, max=1e12, step=0.001)),
        ("a dropdown", lambda: w.Dropdown(options=["a", "b"])),
    ]).map(lambda lv: (lv[0], lv[1]()))


spec("bmc.widgets.slider_values", widgets.slider_values,
     args={"control": Obj(_slider, _bad_slider)})
spec("bmc.widgets.cache_key", widgets.cache_key,
     args={"value": Num(low=-1e6, high=1e6)})


def _warm_up(*calls, controls=OMIT, quiet=OMIT):
    kwargs = {k: v for k, v in (("controls", controls), ("quiet", quiet)) if v is not OMIT}
    thread = widgets.warm_up(*calls, **kwargs)
    if hasattr(thread, "join"):
        thread.join(timeout=5.0)
    return thread


_warm_up.__name__ = "warm_up"
spec("bmc.widgets.warm_up", _warm_up,
     args={"*calls": Obj(st.lists(st.just(lambda: 1), max_size=3).map(tuple),
                         labelled(("a number", (5,)), ("None", (None,)), ("text", ("f",))),
                         types=False),
           "quiet": Num(unit="s", low=0.0, high=0.05, nonneg=True, optional=True)})


def _explorer(values=OMIT, interactive=OMIT, renderer=OMIT):
    import ipywidgets as w
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    line, = ax.plot([0, 1], [0, 1])

    def update(a):
        line.set_ydata([0, a])

    controls = {"a": w.FloatSlider(value=1.0, min=0.0, max=2.0, step=0.1,
                                   description="a [m]")}
    kwargs = {k: v for k, v in (("values", values), ("interactive", interactive),
                                ("renderer", renderer)) if v is not OMIT}
    return widgets.explorer(fig, update, controls, **kwargs)


_explorer.__name__ = "explorer"
spec("bmc.widgets.explorer", _explorer,
     args={"values": Obj(st.fixed_dictionaries({}, optional={"a": st.floats(0.0, 2.0)}),
                         bad_values({"a": (0.0, 2.0)}), types=False),
           "interactive": Flag(), "renderer": Choice(["canvas", "png"], optional=True)},
     examples=4)
