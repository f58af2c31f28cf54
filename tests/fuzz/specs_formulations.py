"""Strategies for reactions, least squares and the worked models (issue 34)."""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
from harness import OMIT, spec
from hostile import Arr, Choice, Flag, Int, Num, Obj, frames_context, labelled, usable
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from specs_core import each_shaped, shaped
from specs_models import (
    LOAD,
    POINT_BAD,
    QD,
    QDD,
    STATE_ALIASES,
    Q,
    model_context,
    models,
)

from bmc import least_squares as ls
from bmc import reactions as rx
from bmc.models import arm, human, stance, standing
from bmc.models import double_pendulum as dp
from bmc.models import somersault as so

MODEL_BAD = labelled(("a string", "human"), ("None", None), ("a number", 3),
                     ("a dict", {"masses": [1.0]}))
MODEL = Obj(lambda ctx, kw: st.just(ctx["model"]), MODEL_BAD)
H = Arr(["*", "n3"], unit="N, N m", low=-1000, high=1000)
JOINTS = Obj(lambda ctx, kw: st.one_of(st.just(OMIT), st.just(None), st.lists(
    st.sampled_from(list(ctx["model"].joint_names) + list(range(len(ctx["model"].joint_names)))),
    min_size=1, max_size=3, unique=True)),
    labelled(("unknown", ["wrist_x"]), ("out of range", [99]), ("a name, not a list", "knee"),
             ("float", [1.0])))
ALL = ("arm", "chain3", "human", "kuo", "floating_arm")

# --------------------------------------------------------------------------- reactions
spec("bmc.reactions.minimal_form", rx.minimal_form, context=model_context(*ALL),
     args={"model": MODEL, "q": Q, "qd": QD, "h": H}, aliases=STATE_ALIASES,
     result=each_shaped(("*", "k", "k"), ("*", "k"), ("*", "k")))
spec("bmc.reactions.reactions_augmented", rx.reactions_augmented, context=model_context(*ALL),
     args={"model": MODEL, "q": Q, "qd": QD, "qdd": QDD, "h": H, "joints": JOINTS},
     aliases=STATE_ALIASES)
spec("bmc.reactions.reactions_classical", rx.reactions_classical, context=model_context(*ALL),
     args={"model": MODEL, "q": Q, "qd": QD, "h": H, "joints": JOINTS}, aliases=STATE_ALIASES)


def joint_point(ctx, kwargs):
    model = ctx["model"]
    rooted = not model.floating and len(model.joint_names) == model.n  # the root turns
    ok = [i for i in range(model.n) if i > 0 or rooted]
    return st.sampled_from(ok).flatmap(lambda i: st.tuples(
        st.sampled_from([i, model.names[i]]), st.floats(0.0, float(model.lengths[i]))))


spec("bmc.reactions.reactions_newton_euler", rx.reactions_newton_euler,
     context=model_context(*ALL),
     args={"model": MODEL, "q": Q, "qd": QD, "qdd": QDD,
           "contact_force": Arr(["*", 2], unit="N", low=-2000, high=2000),
           "contact_point": Obj(joint_point, POINT_BAD),
           "contact_moment": LOAD["contact_moment"]}, aliases=STATE_ALIASES)


@functools.cache
def _motion():
    return so.somersault(freq=25.0)


MOTION = Obj(st.just(OMIT).map(lambda _: _motion()),
             labelled(("a model", human.human_model()), ("a dict", {"q": np.zeros(9)}),
                      ("None", None)))
spec("bmc.reactions.motion_reactions", rx.motion_reactions,
     args={"motion": MOTION,
           "contact_force": Arr(["*", 2], unit="N", low=-2000, high=2000, optional=True),
           "joints": Obj(st.one_of(st.just(OMIT), st.lists(st.sampled_from(
               list(human.JOINTS)), min_size=1, max_size=3, unique=True)),
               labelled(("unknown", ["wrist"]), ("out of range", [99])))},
     context=st.just({"lead": None}).map(lambda c: {"lead": (_motion().t.size,)}),
     examples=6)
spec("bmc.reactions.symbolic_model", rx.symbolic_model,
     args={"model": Obj(st.just(OMIT).map(lambda _: models()["human"]),
                        labelled(("a chain", models()["arm"]), ("Kuo's body", models()["kuo"]),
                                 ("text", "human")))}, examples=3, cpu=10.0)


@functools.cache
def _symbolic():
    return rx.symbolic_model(models()["human"])


def sym_method(name, args, **options):
    spec(f"bmc.reactions.SymbolicModel.{name}", lambda ctx: getattr(_symbolic(), name),
         bound=True, args=args, examples=3, cpu=10.0, **options)


sym_method("gravity", {})
sym_method("reactions", {"h": Obj(st.just(OMIT).map(lambda _: _symbolic().gravity()),
                                  labelled(("wrong size", np.zeros(4)), ("text", "h"))),
                         "columns": Obj(st.one_of(st.just(None), st.lists(
                             st.integers(0, 11), min_size=1, max_size=3)),
                             labelled(("out of range", [99]), ("float", [1.5])))})
sym_method("lambdify", {"expr": Obj(st.just(OMIT).map(lambda _: _symbolic().gamma),
                                    labelled(("text", "x + y"), ("a number", 3.0),
                                             ("unknown symbol", "zeta")))})
spec("bmc.reactions.SymbolicModel", rx.SymbolicModel,
     args={k: Obj(st.just(None), types=False, hostile=st.just(("same", None)))
           for k in ("q", "qd", "qdd", "z", "p", "D", "E", "gamma", "M")}
     | {"params": Obj(st.just({}), types=False, hostile=st.just(("same", {})))})

# --------------------------------------------------------------------------- least squares
KUO = model_context("kuo")
PHI = Arr(["*", 3], unit="rad", make=lambda ctx, kw: hnp.arrays(
    np.float64, (*ctx["lead"], 3), elements=st.floats(0.6, 2.5)))
PHID = Arr(["*", 3], unit="rad/s", low=-3, high=3)
PHIDD = Arr(["*", 3], unit="rad/s^2", low=-30, high=30)
GRF = Arr(["*", 3], unit="N m, N, N", make=lambda ctx, kw: hnp.arrays(
    np.float64, (*ctx["lead"], 3), elements=st.floats(-50, 50)).map(
        lambda a: a + np.array([100.0, 0.0, 680.0])))
KUO_ALIASES = {"phi": ("q",), "phid": ("qd",), "phidd": ("qdd",)}
COV6 = Arr(["*", 6], unit="", make=lambda ctx, kw: hnp.arrays(
    np.float64, (*ctx["lead"], 6), elements=st.floats(1e-4, 1.0)))
spec("bmc.least_squares.system", ls.system, context=KUO,
     args={"model": MODEL, "phi": PHI, "phid": PHID, "phidd": PHIDD, "grf": GRF},
     aliases=KUO_ALIASES, result=each_shaped(("*", 6, 3), ("*", 6)))
spec("bmc.least_squares.newton_euler", ls.newton_euler, context=KUO,
     args={"model": MODEL, "phi": PHI, "phid": PHID, "phidd": PHIDD, "grf": GRF},
     aliases=KUO_ALIASES)
spec("bmc.least_squares.least_squares", ls.least_squares, context=KUO,
     args={"model": MODEL, "phi": PHI, "phid": PHID, "phidd": PHIDD, "grf": GRF, "cov": COV6,
           "available": Obj(st.one_of(st.just(OMIT), st.just(None), st.just([False] + [True] * 5)),
                            labelled(("too few rows", [True, False, False, False, False, False]),
                                     ("wrong length", [True] * 5), ("numbers", [1.0] * 6)))},
     aliases=KUO_ALIASES)
spec("bmc.least_squares.newton_euler_gain", ls.newton_euler_gain, context=KUO,
     args={"model": MODEL, "phi": PHI, "phid": PHID}, aliases=KUO_ALIASES,
     result=shaped("*", 3, 6))
SYS = frames_context(counts=(1, 3), m=st.integers(3, 6), p=st.integers(1, 3))


def full_rank(ctx, kwargs):
    """Well-conditioned systems (a seeded normal matrix plus a diagonal)."""
    m, p = ctx["m"], min(ctx["p"], ctx["m"])
    return st.integers(0, 2**32 - 1).map(lambda s: np.random.default_rng(s).normal(
        size=(*ctx["lead"], m, p)) + 3.0 * np.eye(m, p))


spec("bmc.least_squares.weighted_least_squares", ls.weighted_least_squares, context=SYS,
     args={"A": Arr(["*", "m", "p"], make=full_rank), "b": Arr(["*", "m"]),
           "cov": Arr(["*", "m"], low=0.01, high=10.0, positive=True),
           "available": Obj(st.just(OMIT),
                            labelled(("all missing", [False] * 6), ("numbers", [1.0] * 6)))})
spec("bmc.least_squares.estimate_bias", ls.estimate_bias,
     context=frames_context(single=False, counts=(4, 8), m=st.just(6), p=st.just(3)),
     args={"A": Arr(["*", "m", "p"], make=full_rank), "b": Arr(["*", "m"]),
           "cov": Arr(["*", "m"], low=0.01, high=10.0, positive=True),
           "B": Obj(st.just(np.eye(6, 1)),
                    labelled(("wrong rows", np.ones((5, 1))), ("NaN", np.full((6, 1), np.nan)),
                             ("dependent on A", np.ones((6, 6))))),
           "groups": Obj(st.just(OMIT), labelled(("wrong length", [0, 1]), ("text", ["a"] * 4))),
           "available": Obj(st.just(OMIT), labelled(("all missing", [False] * 6)))})
spec("bmc.least_squares.error_covariance", ls.error_covariance,
     context=frames_context(m=st.integers(1, 6), p=st.integers(1, 3)),
     args={"gain": Arr(["*", "p", "m"]), "cov": Arr(["*", "m"], low=0.0, high=5.0, nonneg=True)},
     result=shaped("*", "p", "p"))
spec("bmc.least_squares.overall_rmse_by_realisation", ls.overall_rmse_by_realisation,
     context=st.fixed_dictionaries({"R": st.integers(1, 4), "N": st.integers(1, 5),
                                    "cols": st.integers(1, 3)}).map(
         lambda c: {**c, "lead": (c["R"] * c["N"],)}),
     args={"estimate": Arr(["*", "cols"]), "truth": Arr(["*", "cols"]),
           "realisations": Obj(lambda ctx, kw: st.just(ctx["R"]),
                               labelled(("does not divide", 7), ("zero", 0), ("float", 2.0),
                                        ("huge", 10**12)))},
     result=shaped("R"))


@functools.cache
def _sway():
    return standing.simulate_sway(duration=0.5, margin=0.1)


@functools.cache
def _measurement():
    return standing.measure(_sway(), realisations=2)


MEAS = Obj(st.just(OMIT).map(lambda _: _measurement()),
           labelled(("a sway", OMIT), ("text", "meas"), ("None", None)))
spec("bmc.least_squares.paper_covariance", ls.paper_covariance, context=KUO,
     args={"model": MODEL, "meas": Obj(st.just(OMIT).map(lambda _: _measurement()),
                                       labelled(("text", "meas"), ("None", None), ("a model",
                                                models()["kuo"])))})
spec("bmc.least_squares.propagated_covariance", ls.propagated_covariance, context=KUO,
     args={"model": MODEL, "meas": Obj(st.just(OMIT).map(lambda _: _measurement()),
                                       labelled(("text", "meas"), ("None", None))),
           "tau": Obj(st.just(OMIT), labelled(("wrong frames", np.zeros((3, 3))),
                                              ("NaN", np.full((60, 3), np.nan))))})
for _name, _cls, _fields in (
        ("NewtonEulerResult", ls.NewtonEulerResult, ("tau", "residual")),
        ("BiasResult", ls.BiasResult, ("tau", "beta")),
        ("LeastSquaresResult", ls.LeastSquaresResult, ("tau", "covariance", "gain"))):
    spec(f"bmc.least_squares.{_name}", _cls,
         args={k: Obj(st.just(np.zeros(3)), types=False, hostile=st.just(("same", np.zeros(3))))
               for k in _fields})

# --------------------------------------------------------------------------- standing (Kuo)
KUO_BODY = {"lengths": (0.177, 0.405, 0.44, 0.795), "com": (0.086, 0.235, 0.268, 0.302),
            "masses": (1.78, 7.3, 15.5, 44.6), "inertias": (0.008, 0.097, 0.253, 1.51)}


def scaled_body(key, unit):
    base = np.array(KUO_BODY[key])
    power = {"lengths": 1, "com": 1, "masses": 3, "inertias": 5}[key]
    return Arr([4], unit=unit, make=lambda ctx, kw: st.just(base * ctx["scale"] ** power),
               positive=key in ("lengths", "masses"), nonneg=key in ("com", "inertias"),
               frames=False)


spec("bmc.models.standing.FourSegmentModel", standing.FourSegmentModel,
     context=st.fixed_dictionaries({"scale": st.sampled_from([1.0, 0.7, 1.2])}),
     args={"lengths": scaled_body("lengths", "m"), "com": scaled_body("com", "m"),
           "masses": scaled_body("masses", "kg"), "inertias": scaled_body("inertias", "kg m^2"),
           "foot_angle": Num(unit="rad", low=0.05, high=math.pi - 0.05, optional=True),
           "g": Num(unit="m/s^2", low=0.0, high=25.0, optional=True)})


def kuo_method(name, args, result=None, **options):
    spec(f"bmc.models.standing.FourSegmentModel.{name}", lambda ctx: getattr(ctx["model"], name),
         bound=True, context=KUO, args=args, aliases=KUO_ALIASES, result=result, **options)


kuo_method("to_joint_angles", {"phi": PHI}, result=shaped("*", 3))
kuo_method("joint_positions", {"phi": PHI}, result=shaped("*", 5, 2))
kuo_method("com_accelerations", {"phi": PHI, "phid": PHID, "phidd": PHIDD},
           result=shaped("*", 4, 2))
kuo_method("ground_reaction_terms", {"phi": PHI, "phid": PHID},
           result=each_shaped(("*", 3, 3), ("*", 3)))
kuo_method("ground_reaction", {"phi": PHI, "phid": PHID, "phidd": PHIDD}, result=shaped("*", 3))
spec("bmc.models.standing.simulate_sway", standing.simulate_sway,
     args={"model": Obj(st.just(OMIT), labelled(("a chain", models()["arm"]), ("text", "kuo"))),
           # valid: at least 16 frames at the lowest freq drawn (40 Hz); fewer are refused
           # by name (duration * freq), rightly
           "duration": Num(unit="s", low=0.4, high=1.0, positive=True, optional=True),
           "margin": Num(unit="s", low=0.0, high=0.3, nonneg=True, optional=True),
           "freq": Num(unit="Hz", low=40.0, high=120.0, positive=True, optional=True),
           "seed": Int(0, 2**31, optional=True),
           "amplitude": Num(low=0.0, high=2.0, nonneg=True, optional=True),
           "posture": Arr([3], unit="rad", low=0.6, high=2.5, optional=True, frames=False)},
     examples=4, cpu=10.0)
spec("bmc.models.standing.measure", standing.measure,
     args={"sway": Obj(st.just(OMIT).map(lambda _: _sway()),
                       labelled(("a model", models()["kuo"]), ("text", "sway"))),
           "marker_noise": Num(unit="m", low=0.0, high=0.02, nonneg=True, optional=True),
           "force_noise": Num(unit="N", low=0.0, high=2.0, nonneg=True, optional=True),
           "torque_noise": Num(unit="N m", low=0.0, high=2.0, nonneg=True, optional=True),
           "offset": Num(unit="m", low=-0.05, high=0.05, optional=True),
           "realisations": Int(1, 5, optional=True),
           "seed": Int(0, 2**31, optional=True),
           "cutoff": Num(unit="Hz", low=2.0, high=20.0, positive=True, optional=True),
           "order": Int(1, 4, optional=True), "exact_angles": Flag()}, examples=8)
spec("bmc.models.standing.noise_gains", standing.noise_gains,
     args={"n_frames": Int(16, 2000), "freq": Num(unit="Hz", low=20.0, high=1000.0,
                                                   positive=True),
           "cutoff": Obj(lambda ctx, kw: st.floats(
               0.5, max(1.0, 0.4 * float(usable(kw.get("freq"), 60.0, ())))),
                         labelled(("NaN", math.nan), ("zero", 0.0), ("above Nyquist", 1e6))),
           "order": Int(1, 4, optional=True)},
     result=lambda v, kw, ctx: None if np.shape(v) == (kw["n_frames"], 3, 3)
     else f"shape {np.shape(v)}")


def meas_method(name, args, **options):
    spec(f"bmc.models.standing.Measurement.{name}", lambda ctx: getattr(_measurement(), name),
         bound=True, args=args, **options)


N_TRIAL = 30
meas_method("stack", {"x": Arr([N_TRIAL, 3], make=lambda ctx, kw: st.just(np.zeros((N_TRIAL, 3))),
                               frames=False)})
meas_method("per_frame", {"values": Arr([2], frames=False)})
meas_method("split", {"x": Arr([2 * N_TRIAL, 3], frames=False)})
meas_method("gains", {}, result=shaped(N_TRIAL, 3, 3))
spec("bmc.models.standing.Measurement", standing.Measurement,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         sway=None, phi=np.zeros((1, 3)), phid=np.zeros((1, 3)), phidd=np.zeros((1, 3)),
         grf=np.zeros((1, 3)), marker_noise=np.zeros(1), force_noise=np.zeros(1),
         torque_noise=np.zeros(1), offset=np.zeros(1), cutoff=5.0, order=3).items()})
spec("bmc.models.standing.Sway", standing.Sway,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         model=None, freq=60.0, t=np.zeros(1), phi=np.zeros((1, 3)), phid=np.zeros((1, 3)),
         phidd=np.zeros((1, 3)), tau=np.zeros((1, 3)), grf=np.zeros((1, 3)),
         markers=np.zeros((1, 5, 2))).items()})

# --------------------------------------------------------------------------- human
BODY_MASS = Num(unit="kg", low=20.0, high=200.0, positive=True, optional=True)
HEIGHT = Num(unit="m", low=1.0, high=2.2, positive=True, optional=True)
spec("bmc.models.human.human_model", human.human_model,
     args={"body_mass": BODY_MASS, "height": HEIGHT,
           "sex": Choice(["male", "female"], optional=True),
           "g": Num(unit="m/s^2", low=0.0, high=25.0, optional=True)})
HUMAN = model_context("human")
spec("bmc.models.human.leg_reactions", human.leg_reactions, context=HUMAN,
     args={"model": MODEL, "q": Q, "qd": QD, "qdd": QDD,
           "contact_force": Arr(["*", 2], unit="N", low=-3000, high=3000)},
     aliases=STATE_ALIASES, result=shaped("*", 6))
spec("bmc.models.human.leg_segments", human.leg_segments, context=HUMAN,
     args={"model": Obj(lambda ctx, kw: st.just(ctx["model"]),
                        labelled(("a chain", models()["arm"]), ("text", "human")))})
spec("bmc.models.human.paper_formulas", human.paper_formulas, args={"misprint": Flag()},
     examples=3, cpu=10.0)

# --------------------------------------------------------------------------- somersault
spec("bmc.models.somersault.somersault", so.somersault,
     args={"model": Obj(st.just(OMIT), labelled(("a chain", models()["arm"]), ("text", "x"))),
           "freq": Num(unit="Hz", low=20.0, high=100.0, positive=True, optional=True),
           "lever": Num(unit="m", low=0.0, high=0.05, optional=True),
           "drift": Num(unit="m/s", low=0.0, high=0.5, optional=True),
           "speed": Num(unit="m/s", low=2.0, high=9.0, positive=True, optional=True),
           "stiffness": Num(unit="N/m", low=1500.0, high=6000.0, positive=True, optional=True),
           "rtol": Num(low=1e-9, high=1e-5, positive=True, optional=True, ints=False)},
     examples=3, cpu=20.0)


def motion_method(name, args, **options):
    spec(f"bmc.models.somersault.Motion.{name}", lambda ctx: getattr(_motion(), name),
         bound=True, args=args,
         context=st.just(None).map(lambda _: {"lead": (_motion().t.size,), "nj": 6}),
         **options)


motion_method("applied_forces", {
    "torques": Arr(["*", "nj"], unit="N m", low=-100, high=100, optional=True),
    "contact_force": Arr(["*", 2], unit="N", low=-2000, high=2000, optional=True)})
motion_method("contact_inverse_dynamics", {
    "contact_force": Arr(["*", 2], unit="N", low=-2000, high=2000, optional=True)})
motion_method("reactions_newton_euler", {})
spec("bmc.models.somersault.Motion", so.Motion,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         model=None, t=np.zeros(1), q=np.zeros((1, 9)), qd=np.zeros((1, 9)),
         qdd=np.zeros((1, 9)), contact_force=np.zeros((1, 2)), contact_moment=np.zeros(1),
         in_contact=np.zeros(1, bool), contact_point=("foot", 0.0), takeoff=0.0).items()})

# --------------------------------------------------------------------------- stance
spec("bmc.models.stance.stance_example", stance.stance_example,
     args={"body_mass": BODY_MASS, "height": HEIGHT,
           "duration": Num(unit="s", low=0.2, high=1.2, positive=True, optional=True),
           "n_frames": Int(3, 300, optional=True), "planar": Flag()})
spec("bmc.models.stance.Stance.inputs", lambda ctx: stance.stance_example(n_frames=5).inputs,
     bound=True, args={})
spec("bmc.models.stance.Stance", stance.Stance,
     args={k: Obj(st.just(np.zeros(1)), types=False, hostile=st.just(("same", np.zeros(1))))
           for k in ("t", "mass", "inertia", "angles", "R", "rcm", "rp", "acm", "omega",
                     "omegadot", "f_ext", "p_ext", "free_moment")})

# --------------------------------------------------------------------------- arm
spec("bmc.models.arm.arm_segments", arm.arm_segments,
     args={"body_mass": BODY_MASS, "height": HEIGHT})
spec("bmc.models.arm.forearm_hand", arm.forearm_hand,
     args={"body_mass": BODY_MASS, "height": HEIGHT})

# --------------------------------------------------------------------------- double pendulum
PEND_ARGS = {"m1": Num(unit="kg", low=0.05, high=20.0, positive=True, optional=True),
             "m2": Num(unit="kg", low=0.05, high=20.0, positive=True, optional=True),
             "l1": Num(unit="m", low=0.05, high=2.0, positive=True, optional=True),
             "l2": Num(unit="m", low=0.05, high=2.0, positive=True, optional=True),
             "g": Num(unit="m/s^2", low=0.0, high=25.0, optional=True)}
spec("bmc.models.double_pendulum.DoublePendulum", dp.DoublePendulum, args=PEND_ARGS)
PEND = st.fixed_dictionaries({"lead": st.sampled_from([(), (1,), (3,)]),
                              "pend": st.sampled_from([dp.DoublePendulum(),
                                                       dp.DoublePendulum(2.0, 1.0, 0.4, 0.35)])})
TH = Arr(["*", 2], unit="rad", low=-7, high=7)
OM = Arr(["*", 2], unit="rad/s", low=-10, high=10)


def pend_method(name, args, result=None, **options):
    spec(f"bmc.models.double_pendulum.DoublePendulum.{name}",
         lambda ctx: getattr(ctx["pend"], name), bound=True, context=PEND, args=args,
         result=result, **options)


pend_method("mass_matrix", {"theta": TH}, result=shaped("*", 2, 2))
pend_method("velocity_terms", {"theta": TH, "omega": OM}, result=shaped("*", 2))
pend_method("gravity_terms", {"theta": TH}, result=shaped("*", 2))
pend_method("generalized_forces", {"M1": Arr(["*"], unit="N m"), "M12": Arr(["*"], unit="N m")},
            result=shaped("*", 2))
pend_method("accelerations", {"theta": TH, "omega": OM,
                              "Q": Arr(["*", 2], unit="N m", optional=True)},
            result=shaped("*", 2))
pend_method("rhs", {"t": Num(unit="s", low=0.0, high=10.0),
                    "y": Arr([4], low=-5, high=5, frames=False),
                    "Q": Arr([2], unit="N m", optional=True, frames=False)}, result=shaped(4))
pend_method("energy", {"theta": TH, "omega": OM}, result=shaped("*"))
pend_method("positions", {"theta": TH})
pend_method("to_chain", {})
spec("bmc.models.double_pendulum.DoublePendulum.to_chain_coordinates",
     dp.DoublePendulum.to_chain_coordinates, context=PEND, args={"theta": TH},
     result=shaped("*", 2))
spec("bmc.models.double_pendulum.euler_double_pendulum", dp.euler_double_pendulum,
     context=PEND,
     args={"pend": Obj(lambda ctx, kw: st.just(ctx["pend"]),
                       labelled(("a chain", models()["arm"]), ("text", "pendulum"))),
           "y0": Arr([4], low=-1.0, high=1.0, frames=False),
           "t_end": Num(unit="s", low=0.01, high=0.5, positive=True),
           "dt": Num(unit="s", low=1e-4, high=1e-2, positive=True, ints=False),
           "every": Int(1, 10, optional=True)},
     # an unstable step (dt too long for the speeds of y0) is refused as FloatingPointError
     # naming dt and y0, as documented by tests/test_bad_input_double_pendulum.py
     raises=(ValueError, TypeError, FloatingPointError))

# --------------------------------------------------------------------------- running norms
from bmc.models import running_norms as rn  # noqa: E402

spec("bmc.models.running_norms.references", rn.references,
     args={"joint": Obj(st.sampled_from([OMIT, None, *rn.JOINTS]),
                        labelled(("upper case", "Knee"), ("unknown", "shoulder"), ("int", 1),
                                 ("tuple", ("hip",)), ("empty", "")))},
     result=lambda value, kw, ctx: None if isinstance(value, tuple) and all(
         isinstance(r, rn.Reference) for r in value) else "not a tuple of Reference")
_REF = rn.references()[0]
spec("bmc.models.running_norms.Reference", rn.Reference,
     args={f.name: Obj(st.just(getattr(_REF, f.name)), types=False,
                       hostile=st.just(("same", getattr(_REF, f.name))))
           for f in dataclasses.fields(rn.Reference)})
