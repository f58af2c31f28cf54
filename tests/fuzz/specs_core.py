"""Strategies for the core (layer 0): kinematics, rotations, signals, anthropometry,
muscles, datasets, precomputed, symbolic, simulate (issue 34)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from harness import OMIT, spec
from hostile import Arr, Choice, Flag, Int, Num, Obj, frames_context, labelled, shape_of, usable
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from bmc import anthropometry as am
from bmc import datasets, precomputed, signals
from bmc import kinematics as kin
from bmc import muscles as mu
from bmc import rotations as rot
from bmc import simulate as sim
from bmc import symbolic as sy


def shaped(*template):
    """result check: an array of the template's shape (``*`` the frames)."""

    def check(value, kwargs, ctx):
        want = shape_of(template, ctx)
        got = np.shape(value)
        return None if got == want else f"shape {got}, documented {want}"

    return check


def each_shaped(*templates):
    def check(value, kwargs, ctx):
        if not isinstance(value, tuple) or len(value) != len(templates):
            return f"expected a tuple of {len(templates)} arrays; got {type(value).__name__}"
        for i, (item, tmpl) in enumerate(zip(value, templates, strict=True)):
            want = shape_of(tmpl, ctx)
            if np.shape(item) != want:
                return f"item {i}: shape {np.shape(item)}, documented {want}"
        return None

    return check


ANGLE = dict(unit="rad", low=-2 * math.pi, high=2 * math.pi)
F = frames_context()
FN = frames_context(single=False)  # N frames only (time series)


def unit_vectors(template):
    def make(ctx, kwargs):
        shape = shape_of(template, ctx)[:-1]
        return hnp.arrays(np.float64, shape, elements=st.floats(-math.pi, math.pi)).map(
            lambda a: np.stack([np.cos(a), np.sin(a)], axis=-1))
    return make


def rotations(template):
    def make(ctx, kwargs):
        shape = shape_of(template, ctx)[:-2]
        return hnp.arrays(np.float64, (*shape, 3), elements=st.floats(-3.0, 3.0)).map(
            lambda a: rot.rotation_matrix(a))
    return make


def _raise_any(*args, **kwargs):
    raise ZeroDivisionError("division by zero")


# --------------------------------------------------------------------------- kinematics
spec("bmc.kinematics.planar_rotation", kin.planar_rotation, context=F,
     args={"angle": Arr(["*"], **ANGLE)}, result=shaped("*", 2, 2))
spec("bmc.kinematics.cross2", kin.cross2, context=F,
     args={"a": Arr(["*", 2]), "b": Arr(["*", 2])}, result=shaped("*"))
spec("bmc.kinematics.perp", kin.perp, context=F, args={"v": Arr(["*", 2])},
     result=shaped("*", 2))
NLINK = frames_context(n=st.integers(1, 4))
spec("bmc.kinematics.forward_kinematics", kin.forward_kinematics, context=NLINK,
     args={"lengths": Arr(["n"], unit="m", low=0.05, high=2.0, positive=True),
           "q": Arr(["*", "n"], **ANGLE), "joints": Flag()})
spec("bmc.kinematics.jacobian", kin.jacobian, context=NLINK,
     args={"lengths": Arr(["n"], unit="m", low=0.05, high=2.0, positive=True),
           "q": Arr(["*", "n"], **ANGLE)}, result=shaped("*", 2, "n"))
spec("bmc.kinematics.forward_reach", kin.forward_reach, context=FN,
     args={"t": Arr(["*"], unit="s", low=0.0, high=1.0, frames=False),
           "l1": Num(unit="m", low=0.15, high=0.45, positive=True),
           "l2": Num(unit="m", low=0.2, high=0.55, positive=True),
           "duration": Num(unit="s", low=0.2, high=3.0, positive=True, optional=True)},
     result=each_shaped(("*", 2), ("*", 2), ("*", 2)))


def reachable(ctx, kwargs):
    l1, l2 = 0.3, 0.25
    lead = ctx["lead"]
    def point(a):
        shoulder = a[..., 0]
        elbow = shoulder + 0.2 + 2.5 * (a[..., 1] + math.pi) / (2 * math.pi)
        return np.stack([l1 * np.cos(shoulder) + l2 * np.cos(elbow),
                         l1 * np.sin(shoulder) + l2 * np.sin(elbow)], axis=-1)

    return hnp.arrays(np.float64, (*lead, 2), elements=st.floats(-math.pi, math.pi)).map(point)


spec("bmc.kinematics.inverse_kinematics_2link", kin.inverse_kinematics_2link, context=F,
     args={"p": Arr(["*", 2], unit="m", make=reachable),
           "l1": Obj(st.just(0.3), labelled(("zero", 0.0), ("negative", -0.3), ("NaN", math.nan),
                                            ("cm", 30.0), ("text", "0.3"))),
           "l2": Obj(st.just(0.25), labelled(("zero", 0.0), ("negative", -0.25),
                                             ("inf", math.inf), ("None", None))),
           "elbow": Choice(["down", "up"], optional=True),
           "tol": Num(low=1e-12, high=1e-3, positive=True, optional=True, ints=False)},
     result=shaped("*", 2))
spec("bmc.kinematics.joint_rates_2link", kin.joint_rates_2link, context=F,
     args={"lengths": Arr([2], unit="m", low=0.1, high=0.6, positive=True),
           "q": Arr(["*", 2], make=lambda ctx, kw: hnp.arrays(
               np.float64, (*ctx["lead"], 2), elements=st.floats(0.2, 2.9))),
           "v": Arr(["*", 2], unit="m/s"),
           "a": Arr(["*", 2], unit="m/s^2", optional=True)})
spec("bmc.kinematics.minimum_jerk", kin.minimum_jerk, context=FN,
     args={"x0": Arr([], low=-1, high=1), "xf": Arr([], low=-1, high=1),
           "duration": Num(unit="s", low=0.05, high=10.0, positive=True),
           "t": Arr(["*"], unit="s", low=-1.0, high=11.0, frames=False)},
     # documented: each (N, ...) with ... the broadcast shape of x0 and xf (an xf of shape
     # (1,) is one coordinate, a valid call)
     result=lambda value, kw, ctx: each_shaped(*[("*", *np.broadcast_shapes(
         np.shape(kw["x0"]), np.shape(kw["xf"])))] * 3)(value, kw, ctx))
spec("bmc.kinematics.minimum_jerk_profile", kin.minimum_jerk_profile, context=F,
     args={"s": Arr(["*"], low=-2.0, high=3.0)},
     # documented: each the shape of s, any shape (s of shape (N, 1) is valid, no frames)
     result=lambda value, kw, ctx: each_shaped(*[np.shape(kw["s"])] * 3)(value, kw, ctx))
spec("bmc.kinematics.minimum_jerk_reach_2link", kin.minimum_jerk_reach_2link, context=FN,
     args={"p0": Obj(st.just([0.35, 0.2]),
                     labelled(("out of reach", [2.0, 0.0]), ("NaN", [np.nan, 0.2]),
                              ("3D", [0.3, 0.2, 0.0]))),
           "pf": Obj(st.sampled_from([[0.2, 0.35], [0.4, -0.1]]),
                     labelled(("cm", [20.0, 35.0]), ("at the base", [0.0, 0.0]))),
           "duration": Num(unit="s", low=0.1, high=5.0, positive=True),
           "t": Arr(["*"], unit="s", low=0.0, high=5.0, frames=False),
           "l1": Obj(st.just(0.3), labelled(("zero", 0.0), ("cm", 30.0))),
           "l2": Obj(st.just(0.25), labelled(("negative", -0.25), ("NaN", math.nan))),
           "elbow": Choice(["down", "up"], optional=True)},
     result=each_shaped(("*", 2), ("*", 2), ("*", 2)))
spec("bmc.kinematics.segment_angle", kin.segment_angle, context=F,
     args={"proximal": Arr(["*", 2], unit="m", low=-2, high=2),
           "distal": Arr(["*", 2], unit="m", make=lambda ctx, kw: hnp.arrays(
               np.float64, (*ctx["lead"], 2), elements=st.floats(-2, 2)).map(
                   lambda a: usable(kw.get("proximal"), np.zeros_like(a), a.shape) + a
                   + np.where(np.abs(a) < 0.01, 0.05, 0.0)))},
     result=shaped("*"))
LEVERS = frames_context(p=st.integers(1, 4), n=st.integers(1, 4))
spec("bmc.kinematics.lever_kinematics", kin.lever_kinematics, context=LEVERS,
     args={"levers": Arr(["p", "n"], unit="m", low=0.0, high=1.0, nonneg=True),
           "axes": Arr(["*", "n", 2], make=unit_vectors(["*", "n", 2])),
           "rates": Arr(["*", "n"], unit="rad/s", optional=True),
           "accelerations": Obj(lambda ctx, kw: st.just(OMIT) if "rates" not in kw else
                                st.one_of(st.just(OMIT), hnp.arrays(
                                    np.float64, (*ctx["lead"], ctx["n"]),
                                    elements=st.floats(-10, 10))),
                                labelled(("NaN", np.full((1, 9), np.nan)), ("text", "fast")))},
     aliases={"accelerations": ("rates",)})

# --------------------------------------------------------------------------- rotations
SEQ = Choice(["xyz", "zxz", "zyx", "xzy", "yxz", "zxy"], optional=True)
spec("bmc.rotations.axis_rotation", rot.axis_rotation, context=F,
     args={"axis": Choice(["x", "y", "z", 0, 1, 2]), "angle": Arr(["*"], **ANGLE)},
     # documented: angle of any shape (...) gives (..., 3, 3) (a column (N, 1) is valid)
     result=lambda value, kw, ctx: shaped(*np.shape(kw["angle"]), 3, 3)(value, kw, ctx))
spec("bmc.rotations.rotation_matrix", rot.rotation_matrix, context=F,
     args={"angles": Arr(["*", 3], **ANGLE), "sequence": SEQ, "intrinsic": Flag()},
     result=shaped("*", 3, 3))
spec("bmc.rotations.rotation_kinematics", rot.rotation_kinematics, context=F,
     args={"angles": Arr(["*", 3], **ANGLE), "rates": Arr(["*", 3], unit="rad/s"),
           "accelerations": Arr(["*", 3], unit="rad/s^2"), "sequence": SEQ,
           "intrinsic": Flag(), "frame": Choice(["segment", "global"], optional=True)},
     result=each_shaped(("*", 3, 3), ("*", 3), ("*", 3)))
FN3 = frames_context(single=False, counts=(3, 4, 9))
for _name, _func in (("angular_velocity", rot.angular_velocity),
                     ("angular_acceleration", rot.angular_acceleration)):
    spec(f"bmc.rotations.{_name}", _func, context=FN3,
         args={"R": Arr(["*", 3, 3], make=rotations(["*", 3, 3])),
               "dt": Num(unit="s", low=1e-4, high=0.1, positive=True, ints=False),
               "frame": Choice(["segment", "global"], optional=True)},
         result=shaped("*", 3))
spec("bmc.rotations.point_acceleration", rot.point_acceleration, context=F,
     args={"omega": Arr(["*", 3], unit="rad/s"), "omegadot": Arr(["*", 3], unit="rad/s^2"),
           "r": Arr(["*", 3], unit="m", low=-1, high=1)}, result=shaped("*", 3))
spec("bmc.rotations.skew", rot.skew, context=F, args={"a": Arr(["*", 3])},
     result=shaped("*", 3, 3))
spec("bmc.rotations.vee", rot.vee, context=F,
     args={"S": Arr(["*", 3, 3], make=lambda ctx, kw: hnp.arrays(
         np.float64, (*ctx["lead"], 3), elements=st.floats(-10, 10)).map(rot.skew)),
           "atol": Obj(st.sampled_from([OMIT, None, 1e-9, 1e-6]),
                       labelled(("negative", -1.0), ("NaN", math.nan), ("text", "1e-9")))},
     result=shaped("*", 3))

# --------------------------------------------------------------------------- signals
SIG = frames_context(single=False, counts=(40, 120), cols=st.sampled_from([(), (2,)]),
                     K=st.integers(3, 12))


def signal(ctx, kwargs):
    n = ctx["lead"][0]
    t = np.arange(n) / 100.0
    cols = ctx["cols"]
    return st.floats(-3, 3).map(lambda a: (a * np.sin(2 * np.pi * 1.5 * t)).reshape(
        (n, *([1] * len(cols)))) * np.ones((n, *cols)))


spec("bmc.signals.derivative", signals.derivative, context=SIG,
     args={"x": Arr(["*"], make=signal, frames=False),
           "dt": Num(unit="s", low=1e-4, high=0.1, positive=True, ints=False),
           "n": Choice([1, 2], optional=True)})
spec("bmc.signals.lowpass", signals.lowpass, context=SIG,
     args={"x": Arr(["*"], make=signal, frames=False),
           "freq": Num(unit="Hz", low=50.0, high=10_000.0, positive=True),
           # a valid cut-off below the drawn freq (from 100 Hz when freq is the hostile one)
           "cutoff": Obj(lambda ctx, kw: st.floats(
               0.5, max(1.0, 0.45 * float(usable(kw.get("freq"), 100.0, ())))),
                         labelled(("NaN", math.nan), ("zero", 0.0), ("negative", -5.0),
                                  ("above Nyquist", 1e6), ("text", "6"))),
           "order": Int(1, 4, optional=True)})
spec("bmc.signals.residual_analysis", signals.residual_analysis, context=SIG,
     args={"x": Arr(["*"], make=signal, frames=False),
           "freq": Obj(st.just(100.0), labelled(("NaN", math.nan), ("zero", 0.0),
                                                ("kHz", 0.1), ("text", "100"))),
           "cutoffs": Arr(["K"], unit="Hz", make=lambda ctx, kw: st.just(
               np.linspace(1.0, 40.0, ctx["K"])), frames=False),
           "order": Int(1, 3, optional=True),
           # valid: at most the second-highest cut-off (the line fit needs two of them; a
           # higher fit_from is refused by name, rightly)
           "fit_from": Obj(lambda ctx, kw: st.one_of(st.just(OMIT), st.floats(
               5.0, min(30.0, float(np.linspace(1.0, 40.0, ctx["K"])[-2])))),
               Num(unit="Hz", low=5.0, high=30.0).draw_hostile, types=False)})
PAIR = frames_context(single=False, counts=(1, 3, 10), cols=st.integers(1, 3))
spec("bmc.signals.rmse", signals.rmse, context=PAIR,
     args={"estimate": Arr(["*", "cols"]), "truth": Arr(["*", "cols"]),
           "axis": Choice([0, -2], optional=True)}, result=shaped("cols"))
spec("bmc.signals.overall_rmse", signals.overall_rmse, context=PAIR,
     args={"estimate": Arr(["*", "cols"]), "truth": Arr(["*", "cols"])}, result=shaped())

# --------------------------------------------------------------------------- anthropometry
DEMPSTER = am.segment_names("dempster")
DE_LEVA = am.segment_names("de_leva", sex="female")


@st.composite
def table_and_segment(draw):
    table = draw(st.sampled_from(["dempster", "de_leva"]))
    if table == "dempster":
        return {"table": table, "sex": None,
                "name": draw(st.sampled_from([n for n in DEMPSTER if n != "trunk"]))}
    return {"table": table, "sex": draw(st.sampled_from(["female", "male"])),
            "name": draw(st.sampled_from(DE_LEVA))}


TS = st.fixed_dictionaries({"pick": table_and_segment()})
spec("bmc.anthropometry.segment", am.segment, context=TS,
     args={"name": Obj(lambda ctx, kw: st.just(ctx["pick"]["name"]),
                       labelled(("unknown", "wing"), ("upper case", "THIGHS"), ("int", 3))),
           "body_mass": Num(unit="kg", low=2.0, high=400.0, positive=True),
           "height": Num(unit="m", low=0.45, high=2.7, positive=True),
           "table": Obj(lambda ctx, kw: st.just(ctx["pick"]["table"]),
                        labelled(("unknown", "winter"), ("None", None))),
           "sex": Obj(lambda ctx, kw: st.just(ctx["pick"]["sex"]),
                      labelled(("unknown", "m"), ("int", 1))),
           "axis": Obj(st.just(OMIT), labelled(("unknown", "sideways"), ("int", 2)))})
spec("bmc.anthropometry.table", am.table, context=TS,
     args={"name": Obj(lambda ctx, kw: st.just(ctx["pick"]["table"]),
                       labelled(("unknown", "winter"), ("int", 2))),
           "sex": Obj(lambda ctx, kw: st.just(ctx["pick"]["sex"]),
                      labelled(("unknown", "other"), ("bool", True)))})
spec("bmc.anthropometry.segment_names", am.segment_names, context=TS,
     args={"name": Obj(lambda ctx, kw: st.just(ctx["pick"]["table"]),
                       labelled(("unknown", "winter"), ("None", None))),
           "sex": Obj(lambda ctx, kw: st.just(ctx["pick"]["sex"]),
                      labelled(("unknown", "x"), ("list", ["male"])))})
_SEGS = [am.segment(n, body_mass=70.0, height=1.75) for n in ("upper_arm", "forearm", "hand")]
spec("bmc.anthropometry.combine", am.combine,
     args={"parts": Obj(st.lists(st.sampled_from(_SEGS), min_size=1, max_size=3),
                        labelled(("empty", []), ("a segment, not a list", _SEGS[0]),
                                 ("numbers", [1.0, 2.0]), ("None inside", [_SEGS[0], None]))),
           "name": Obj(st.sampled_from(["arm", "forearm_hand"]),
                       labelled(("int", 3), ("empty", "")))})


def _row_fields():
    row = am.table("dempster")["thigh"]
    return {f: getattr(row, f) for f in row.__dataclass_fields__}


_ROW = _row_fields()
spec("bmc.anthropometry.Row", am.Row, args={k: Obj(st.just(v), types=False,
                                                   hostile=st.just(("same", v)))
                                            for k, v in _ROW.items()},
     nonfinite="a record of the table: NaN marks a radius the source does not give "
               "(documented in Row)")
_SEG = {f: getattr(_SEGS[0], f) for f in _SEGS[0].__dataclass_fields__}
spec("bmc.anthropometry.Segment", am.Segment,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v)))
           for k, v in _SEG.items()})

# --------------------------------------------------------------------------- muscles
MUSC = frames_context(n=st.integers(1, 3))


def attachments(ctx, kwargs):
    n = ctx["n"]
    # points on the base above the line of the segments (v >= 3 cm), points on a segment
    # below that: no two points of different bodies meet where q = 0 lays the chain out
    on_base = st.tuples(st.just(0), st.tuples(st.floats(0.02, 0.25), st.floats(0.03, 0.06)))
    on_segment = st.tuples(st.integers(1, n), st.tuples(st.floats(0.02, 0.25),
                                                        st.floats(-0.05, 0.02)))
    return st.lists(st.one_of(on_base, on_segment), min_size=2, max_size=4).map(
        lambda pts: [(0, (0.0, 0.05)), *pts[1:], (n, (0.1, 0.02))]).filter(
        # no piece of zero length on one body
        lambda pts: all(a[0] != b[0] or math.dist(a[1], b[1]) > 1e-3
                        for a, b in zip(pts, pts[1:], strict=False)))


ATTACH_BAD = labelled(("one point", [(0, (0.0, 0.05))]),
                      ("body out of range", [(0, (0, 0.05)), (9, (0.1, 0))]),
                      ("coincident", [(0, (0.0, 0.0)), (0, (0.0, 0.0))]),
                      ("3D points", [(0, (0, 0, 0)), (1, (0.1, 0, 0))]),
                      ("text body", [(0, (0, 0.05)), ("1", (0.1, 0))]),
                      ("NaN point", [(0, (0, 0.05)), (1, (np.nan, 0))]),
                      ("cm", [(0, (0.0, 5.0)), (1, (10.0, 0.0))]))
for _name, _func in (("path_points", mu.path_points), ("muscle_length", mu.muscle_length),
                     ("moment_arms", mu.moment_arms)):
    spec(f"bmc.muscles.{_name}", _func, context=MUSC,
         args={"lengths": Arr(["n"], unit="m", low=0.25, high=0.5, positive=True),
               "q": Arr(["*", "n"], unit="rad", low=-2.5, high=2.5),
               "attachments": Obj(attachments, ATTACH_BAD)})
spec("bmc.muscles.compression_shear", mu.compression_shear, context=F,
     args={"force": Arr(["*", 2], unit="N", low=-3000, high=3000),
           "axis": Arr(["*", 2], make=unit_vectors(["*", 2]))},
     result=each_shaped(("*",), ("*",)))
spec("bmc.muscles.contact_force", mu.contact_force, context=F,
     args={"net_force": Arr(["*", 2], unit="N", low=-3000, high=3000),
           "net_moment": Arr(["*"], unit="N m", low=-300, high=300),
           "moment_arm": Arr(["*"], unit="m", make=lambda ctx, kw: hnp.arrays(
               np.float64, ctx["lead"], elements=st.floats(0.01, 0.08)).map(
                   lambda a: a * np.where(np.arange(a.size).reshape(a.shape) % 2, 1, -1))),
           "direction": Arr(["*", 2], make=unit_vectors(["*", 2]))},
     result=each_shaped(("*",), ("*", 2), ("*",)))

# --------------------------------------------------------------------------- datasets
spec("bmc.datasets.data_path", datasets.data_path,
     args={"name": Choice(sorted(datasets.REGISTRY)),
           "data_dir": Obj(st.just(OMIT), labelled(("missing directory", "/nonexistent/bmc"),
                                                    ("int", 3))),
           "deadline": Num(unit="s", low=1.0, high=600.0, positive=True, optional=True)},
     raises=(ValueError, TypeError, KeyError, FileNotFoundError),
     hostile_args=("name", "data_dir", "deadline"))
spec("bmc.datasets.load_running", datasets.load_running,
     args={"data_dir": Obj(st.just(OMIT), labelled(("missing directory", "/nonexistent/bmc"),
                                                    ("a file", __file__)))},
     raises=(ValueError, TypeError, FileNotFoundError), examples=3, cpu=15.0)
_RUN_FIELDS = dict(freq=10.0, time=np.zeros(3), markers=np.zeros((3, 8)), grf=np.zeros((3, 3)),
                   true_forces=np.zeros((3, 3)), true_moments=np.zeros((3, 3)),
                   segments=None, heel_strike=1, source="")
spec("bmc.datasets.Running", datasets.Running,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v)))
           for k, v in _RUN_FIELDS.items()})
spec("bmc.datasets.SegmentSet", datasets.SegmentSet,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v)))
           for k, v in dict(names=("a",), mass=np.ones(1), inertia=np.ones(1),
                            com_fraction=np.ones(1)).items()})

# --------------------------------------------------------------------------- precomputed
spec("bmc.precomputed.cached", precomputed.cached,
     args={"name": Obj(st.sampled_from(["05_joint_reactions", "06_least_squares"]),
                       labelled(("path", "../x"), ("empty", ""), ("int", 5), ("slash", "a/b")))})
spec("bmc.precomputed.directory", precomputed.directory, args={})
spec("bmc.precomputed.PrecomputedError", precomputed.PrecomputedError,
     args={"*message": Obj(st.just(("stale",)), types=False, hostile=st.just(("same", ("x",))))})

# --------------------------------------------------------------------------- symbolic
# Valid n stays at 1-2 links (a few seconds each); the hostile draws reach 3 (above the
# range: still answered) and 10**12 (refused at once, above symbolic.MAX_LINKS); the bound
# itself, n = 4 and 5, is in tests/test_bad_input_symbolic.py.
spec("bmc.symbolic.newton_euler_equations", sy.newton_euler_equations,
     args={"n": Int(1, 2), "coordinates": Choice(["joint", "segment"], optional=True),
           "simplify": Flag()}, cpu=10.0, examples=4)
spec("bmc.symbolic.lagrange_equations", sy.lagrange_equations,
     args={"n": Int(1, 2), "coordinates": Choice(["joint", "segment"], optional=True),
           "simplify": Flag()}, cpu=10.0, examples=4)
spec("bmc.symbolic.one_link", sy.one_link, args={"about": Choice(["joint", "com"], optional=True)},
     cpu=10.0, examples=4)
spec("bmc.symbolic.two_link", sy.two_link,
     args={"coordinates": Choice(["joint", "segment"], optional=True)}, cpu=10.0, examples=4)
spec("bmc.symbolic.Derivation.parameters", lambda ctx: _two().parameters, bound=True,
     args={"lengths": Arr([2], unit="m", low=0.1, high=1.0, positive=True, frames=False),
           "com": Arr([2], unit="m", low=0.0, high=0.1, nonneg=True, frames=False),
           "masses": Arr([2], unit="kg", low=0.1, high=10.0, positive=True, frames=False),
           "inertias": Arr([2], unit="kg m^2", low=0.0, high=0.5, nonneg=True, frames=False),
           "g": Num(unit="m/s^2", low=0.0, high=25.0, optional=True)})


def _two():
    return _cached_two()


import functools  # noqa: E402


@functools.cache
def _cached_two():
    return sy.two_link()


SYM_BAD = labelled(("text", "x + y"), ("a float", 1.5), ("None", None), ("a list", [1, 2]),
                   ("NaN", math.nan))
spec("bmc.symbolic.decompose", sy.decompose,
     args={"tau": Obj(st.just(None).map(lambda _: _two().tau), SYM_BAD),
           "q": Obj(st.just(None).map(lambda _: _two().q), SYM_BAD),
           "g": Obj(st.just(None).map(lambda _: _two().g), SYM_BAD),
           "force": Obj(st.just(None).map(lambda _: _two().F), SYM_BAD),
           "simplify": Flag()}, examples=3, cpu=10.0)
spec("bmc.symbolic.tidy", sy.tidy,
     args={"expr": Obj(st.just(None).map(lambda _: _two().M), SYM_BAD),
           "q": Obj(st.just(None).map(lambda _: _two().q), SYM_BAD), "factor": Flag()},
     examples=3, cpu=10.0)


def _sym_pairs():
    import sympy as sp

    x = sp.Symbol("x")
    return st.sampled_from([(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1), (x, x), (x + 1, x),
                            (sp.Matrix([x, 1]), sp.Matrix([x, 1]))])


spec("bmc.symbolic.symbolically_equal", lambda a, b: sy.symbolically_equal(a, b),
     args={"a": Obj(st.just(None).map(lambda _: _two().M), SYM_BAD),
           "b": Obj(st.just(None).map(lambda _: _two().M), SYM_BAD)}, examples=3, cpu=10.0)


def _lambdify_args():
    import sympy as sp

    x, y = sp.symbols("x y")
    return [x, y], sp.Matrix([[x, 1], [y**2, sp.sin(x)]])


spec("bmc.symbolic.broadcast_lambdify", sy.broadcast_lambdify,
     args={"args": Obj(st.just(None).map(lambda _: _lambdify_args()[0]),
                       labelled(("text", "x y"), ("numbers", [1.0, 2.0]), ("None", None))),
           "expr": Obj(st.just(None).map(lambda _: _lambdify_args()[1]),
                       labelled(("text", "x + "), ("unknown symbol", "z"), ("a float", 1.5)))})
_DERIV_FIELDS = ("n", "coordinates", "method", "q", "L", "d", "m", "I", "g", "F", "tau")
spec("bmc.symbolic.Derivation", lambda n, coordinates: sy.newton_euler_equations(
    n, coordinates=coordinates, simplify=False),
     args={"n": Int(1, 2), "coordinates": Choice(["joint", "segment"])}, examples=2, cpu=10.0)

# --------------------------------------------------------------------------- simulate
SPAN = Obj(st.tuples(st.floats(0.0, 1.0), st.floats(0.05, 1.0)).map(lambda a: (a[0], a[0] + a[1])),
           labelled(("reversed", (1.0, 0.0)), ("empty", (0.5, 0.5)), ("NaN", (0.0, math.nan)),
                    ("three values", (0.0, 0.5, 1.0)), ("huge", (0.0, 1e12))))
RHS = Obj(st.sampled_from([lambda t, y: -y, lambda t, y: np.cos(t) - 0.5 * y]),
          labelled(("returns None", lambda t, y: None), ("wrong shape", lambda t, y: np.zeros(7)),
                   ("raises", lambda t, y: 1 / 0), ("returns NaN", lambda t, y: y * np.nan),
                   ("returns text", lambda t, y: "fast"), ("not callable", 3.0),
                   ("diverges", lambda t, y: y**3 + 1e3)))
Y0 = Arr([2], low=-2, high=2, frames=False)
spec("bmc.simulate.simulate", sim.simulate,
     args={"fun": RHS, "t_span": SPAN, "y0": Y0,
           "method": Choice(["DOP853", "RK45", "LSODA", "Radau"], optional=True),
           "rtol": Num(low=1e-10, high=1e-3, positive=True, optional=True, ints=False),
           "atol": Num(low=1e-12, high=1e-3, positive=True, optional=True, ints=False),
           "max_step": Num(unit="s", low=0.01, high=10.0, positive=True, optional=True)},
     examples=6)
spec("bmc.simulate.euler", sim.euler,
     args={"fun": RHS, "t_span": SPAN, "y0": Y0,
           "dt": Num(unit="s", low=1e-3, high=0.05, positive=True, ints=False),
           "t_eval": Obj(st.just(OMIT), labelled(("outside", [5.0, 6.0]), ("NaN", [math.nan])))},
     examples=6)
CHAIN_CTX = st.fixed_dictionaries({"n": st.sampled_from([1, 2]),
                                   "lead": st.sampled_from([(5,), (20,)])})


def _chain_of(n):
    from bmc.chain import PlanarChain

    return PlanarChain([0.3, 0.25][:n], [0.13, 0.11][:n], [2.0, 1.2][:n], [0.02, 0.008][:n])


spec("bmc.simulate.simulate_chain", sim.simulate_chain, context=CHAIN_CTX,
     args={"chain": Obj(lambda ctx, kw: st.just(_chain_of(ctx["n"])),
                        labelled(("text", "arm"), ("a pendulum model", 3))),
           "t_eval": Arr(["*"], unit="s", make=lambda ctx, kw: st.floats(0.05, 1.0).map(
               lambda d: np.linspace(0.0, d, ctx["lead"][0])), frames=False),
           "q0": Arr(["n"], unit="rad", low=-3, high=3, frames=False),
           "qd0": Arr(["n"], unit="rad/s", low=-3, high=3, frames=False),
           "tau": Obj(lambda ctx, kw: st.one_of(st.just(OMIT), st.just(None),
                                                st.just(np.zeros(ctx["n"])),
                                                st.just(lambda t, q, qd: -qd)),
                      labelled(("wrong width", np.zeros(5)), ("NaN", np.full(2, np.nan)),
                               ("raises", _raise_any))),
           "F": Obj(st.one_of(st.just(OMIT), st.just(None), st.just(np.zeros(2))),
                    labelled(("wrong width", np.zeros(3)), ("inf", np.full(2, np.inf)))),
           "rtol": Num(low=1e-10, high=1e-4, positive=True, optional=True, ints=False)},
     examples=5, cpu=10.0)
spec("bmc.simulate.Simulation", sim.Simulation,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v))) for k, v in dict(
         t=np.zeros(1), y=np.zeros((1, 1)), nfev=1, message="").items()})
spec("bmc.simulate.ChainSimulation", sim.ChainSimulation,
     args={f.name: Obj(st.just(np.zeros(1)), types=False, hostile=st.just(("same", np.zeros(1))))
           for f in dataclasses.fields(sim.ChainSimulation) if f.init})
spec("bmc.signals.ResidualAnalysis", signals.ResidualAnalysis,
     args={f.name: Obj(st.just(np.zeros(1)), types=False, hostile=st.just(("same", np.zeros(1))))
           for f in dataclasses.fields(signals.ResidualAnalysis) if f.init})
spec("bmc.signals.BMCWarning", signals.BMCWarning,
     args={"*message": Obj(st.just(("doubtful",)), types=False,
                           hostile=st.just(("same", ("x",))))})

# --------------------------------------------------------------------------- Hill muscles
# Normalised fibre lengths l / l_opt around the working range (0.5 to 1.6, Thelen 2003),
# normalised velocities v / v_max from full shortening (-1) to fast lengthening, tendon
# strains from slack to beyond F0 (0.033).
NORM = frames_context()
spec("bmc.muscles.HillMuscle", mu.HillMuscle,
     args={"max_isometric_force": Num(unit="N", low=50.0, high=5000.0, positive=True),
           "optimal_fiber_length": Num(unit="m", low=0.02, high=0.3, positive=True, ints=False),
           "tendon_slack_length": Num(unit="m", low=0.01, high=0.4, positive=True, ints=False),
           "max_contraction_velocity": Num(unit="l_opt/s", low=2.0, high=15.0, positive=True,
                                           optional=True),
           "activation_time": Num(unit="s", low=0.005, high=0.05, positive=True, ints=False,
                                  optional=True),
           "deactivation_time": Num(unit="s", low=0.02, high=0.1, positive=True, ints=False,
                                    optional=True),
           "tendon_strain_at_f0": Num(low=0.02, high=0.1, positive=True, ints=False,
                                      optional=True),
           "passive_strain_at_f0": Num(low=0.3, high=1.0, positive=True, ints=False,
                                       optional=True),
           "active_width": Num(low=0.2, high=1.0, positive=True, ints=False, optional=True),
           "passive_shape": Num(low=1.0, high=8.0, positive=True, optional=True),
           "fv_shape": Num(low=0.1, high=1.0, positive=True, ints=False, optional=True),
           "max_lengthening_force": Num(unit="F0", low=1.1, high=2.0, ints=False,
                                        optional=True)})
UNIT = dict(unit="0 to 1", low=0.0, high=1.0)


def broadcast(*names):
    """result check: the broadcast shape of the named arguments (an elementwise curve)."""

    def check(value, kwargs, ctx):
        want = np.broadcast_shapes(*(np.shape(kwargs[n]) for n in names))
        got = np.shape(value)
        return None if got == want else f"shape {got}, the inputs broadcast to {want}"

    return check


spec("bmc.muscles.activation_rate", mu.activation_rate, context=NORM,
     args={"excitation": Arr(["*"], **UNIT), "activation": Arr(["*"], **UNIT),
           "activation_time": Num(unit="s", low=0.005, high=0.05, positive=True, ints=False,
                                  optional=True),
           "deactivation_time": Num(unit="s", low=0.02, high=0.1, positive=True, ints=False,
                                    optional=True)},
     result=broadcast("excitation", "activation"))
spec("bmc.muscles.force_length", mu.force_length, context=NORM,
     args={"length": Arr(["*"], unit="l_opt", low=0.5, high=1.6),
           "width": Num(low=0.2, high=1.0, positive=True, ints=False, optional=True)},
     result=broadcast("length"))
spec("bmc.muscles.passive_force", mu.passive_force, context=NORM,
     args={"length": Arr(["*"], unit="l_opt", low=0.5, high=1.6),
           "shape": Num(low=1.0, high=8.0, positive=True, optional=True),
           "strain_at_f0": Num(low=0.3, high=1.0, positive=True, ints=False, optional=True)},
     result=broadcast("length"))
spec("bmc.muscles.force_velocity", mu.force_velocity, context=NORM,
     args={"velocity": Arr(["*"], unit="v_max", low=-1.2, high=1.0),
           "shape": Num(low=0.1, high=1.0, positive=True, ints=False, optional=True),
           "max_lengthening_force": Num(unit="F0", low=1.1, high=2.0, ints=False,
                                        optional=True)},
     result=broadcast("velocity"))
spec("bmc.muscles.tendon_force", mu.tendon_force, context=NORM,
     args={"strain": Arr(["*"], low=-0.02, high=0.06),
           "strain_at_f0": Num(low=0.02, high=0.1, positive=True, ints=False, optional=True)},
     result=broadcast("strain"))


@functools.cache
def _forearm():
    """Notebook 2's forearm and hand (Dempster, 70 kg, 1.70 m) hinged at the elbow."""
    from bmc.chain import PlanarChain

    seg = am.combine([am.segment(s, body_mass=70.0, height=1.70) for s in ("forearm", "hand")],
                     name="forearm_hand")
    return PlanarChain([seg.length], [seg.com], [seg.mass], [seg.inertia], g=9.81)


# elbow flexion 15 to 145 deg (q = flexion - 90 deg): where the brachialis alone holds the
# forearm (nearer full extension its straight-line moment arm vanishes, and holding_activation
# refuses, as documented)
ELBOW_Q = Arr([1], unit="rad", low=math.radians(-75.0), high=math.radians(55.0), frames=False)
FOREARM = Obj(st.just(None).map(lambda _: _forearm()),
              labelled(("text", "forearm"), ("a number", 3.0), ("a segment", _SEGS[1])))
MUSCLE = Obj(st.just(mu.BRACHIALIS), labelled(("text", "brachialis"), ("a dict", {"F0": 987.0}),
                                              ("a number", 987.26)))
PATH = Obj(st.just(mu.BRACHIALIS_PATH), ATTACH_BAD)
spec("bmc.muscles.holding_activation", mu.holding_activation,
     args={"chain": FOREARM, "muscle": MUSCLE, "attachments": PATH, "q": ELBOW_Q,
           "joint": Obj(st.sampled_from([OMIT, 0, -1]),
                        labelled(("out of range", 1), ("float", 0.0), ("bool", True)))},
     result=lambda value, kw, ctx: None if 0.0 <= value <= 1.0 else f"activation {value}")


def _holding(kwargs):
    q = usable(kwargs.get("q0"), [math.radians(-45.0)], (1,))
    return mu.holding_activation(_forearm(), mu.BRACHIALIS, mu.BRACHIALIS_PATH, q)


# slow (an ODE with stiff fibre dynamics): few examples, 0.05 s of motion
spec("bmc.muscles.simulate_muscle", mu.simulate_muscle,
     args={"chain": FOREARM,
           "t_eval": Arr(["*"], unit="s", make=lambda ctx, kw: st.sampled_from(
               [np.linspace(0.0, 0.05, 6), np.linspace(0.0, 0.02, 3)]), frames=False),
           "q0": ELBOW_Q, "qd0": Arr([1], unit="rad/s", low=-1.0, high=1.0, frames=False),
           "muscle": MUSCLE, "attachments": PATH,
           "excitation": Obj(st.floats(0.0, 1.0), labelled(
               ("above 1", 1.5), ("percent", 40.0), ("NaN", math.nan), ("text", "0.4"),
               ("wrong samples", np.full(4, 0.2)), ("u(t) above 1", lambda t: 2.0))),
           "activation0": Obj(lambda ctx, kw: st.just(None).map(lambda _: _holding(kw)),
                              labelled(("above 1", 1.2), ("negative", -0.1), ("NaN", math.nan),
                                       ("percent", 30.0)))},
     examples=6, cpu=10.0)
spec("bmc.muscles.MuscleSimulation", mu.MuscleSimulation,
     args={f.name: Obj(st.just(np.zeros(1)), types=False, hostile=st.just(("same", np.zeros(1))))
           for f in dataclasses.fields(mu.MuscleSimulation)})

# --------------------------------------------------------------------------- LaTeX


def _latex_exprs():
    import sympy as sp

    a = sp.Function("alpha_1")(sy.t)
    return st.sampled_from([a.diff(sy.t, 2) + a.diff(sy.t) ** 2 * sp.sin(a),
                            sp.Matrix([a, a.diff(sy.t)]), sp.Symbol("m") * sy.t, 2])


spec("bmc.symbolic.latex", sy.latex,
     args={"expr": Obj(lambda ctx, kw: _latex_exprs(),
                       labelled(("text", "x + y"), ("code", "__import__('os')"),
                                ("None", None), ("an object", object())))},
     result=lambda value, kw, ctx: None if isinstance(value, str) else "not a str")
