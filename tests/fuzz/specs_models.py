"""Strategies for the model interface, the formulations and the worked models (issue 34)."""

from __future__ import annotations

import functools
import math

import numpy as np
from harness import OMIT, spec
from hostile import Arr, Choice, Flag, Num, Obj, frames_context, labelled
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from specs_core import each_shaped, rotations, shaped

from bmc import matrix_form as mf
from bmc import newton_euler as ne
from bmc.anthropometry import segment
from bmc.chain import PlanarChain
from bmc.models import arm, human, stance, standing
from bmc.planar import InverseDynamics, PlanarModel
from bmc.tree import PlanarTree


# --------------------------------------------------------------------------- models
@functools.cache
def models() -> dict[str, PlanarModel]:
    return {
        "arm": PlanarChain.from_segments(arm.arm_segments()),
        "chain3": PlanarChain([0.3, 0.25, 0.2], [0.13, 0.11, 0.08], [2.0, 1.2, 0.5],
                              [0.02, 0.008, 0.002]),
        "one_link": PlanarChain([0.45], [0.19], [1.5], [0.025]),
        "human": human.human_model(),
        "kuo": standing.FourSegmentModel(),
        "floating_arm": PlanarModel([-1, 0, 1], [0.0, 0.30, 0.27], [0.30, 0.27, 0.19],
                                    [0.13, 0.12, 0.07], [2.0, 1.2, 0.45],
                                    [0.02, 0.008, 0.001], floating=True,
                                    names=["upper_arm", "forearm", "hand"],
                                    joint_names=["elbow", "wrist"]),
    }


def _sizes(ctx: dict) -> dict:
    model = ctx["model"]
    return {**ctx, "k": model.k, "n": model.n, "nj": len(model.joint_names), "m": model.m,
            "n3": 3 * model.n}


def model_context(*names: str, single: bool = True, counts=(1, 2, 4)) -> st.SearchStrategy:
    pool = names or tuple(models())
    leads = ([st.just(())] if single else []) + [st.just((n,)) for n in counts]
    return st.fixed_dictionaries({
        "model": st.sampled_from(pool).map(lambda key: models()[key]),
        "lead": st.one_of(leads)}).map(_sizes)


def coords(ctx: dict, kwargs: dict, scale: float = 1.0) -> st.SearchStrategy:
    """Valid coordinates: base position within 2 m (floating), any angles."""
    model = ctx["model"]
    k = model.k
    lead = ctx["lead"]
    low = np.array([-2.0, -2.0] + [-2 * math.pi] * (k - 2)) if model.floating else \
        np.full(k, -2 * math.pi)
    return hnp.arrays(np.float64, (*lead, k), elements=st.floats(-1, 1)).map(
        lambda a: a * np.abs(low) * scale)


Q = Arr(["*", "k"], unit="rad", make=coords)
QD = Arr(["*", "k"], unit="rad/s", low=-10, high=10)
QDD = Arr(["*", "k"], unit="rad/s^2", low=-100, high=100)
STATE_ALIASES = {"q": ("phi",), "qd": ("phid",), "qdd": ("phidd",)}


def point_on(ctx: dict, kwargs: dict) -> st.SearchStrategy:
    model = ctx["model"]
    return st.integers(0, model.n - 1).flatmap(lambda i: st.tuples(
        st.sampled_from([i, model.names[i]]), st.floats(0.0, float(model.lengths[i]))))


POINT_BAD = labelled(("unknown segment", ("wing", 0.1)), ("index out of range", (99, 0.1)),
                     ("off the segment", (0, 5.0)), ("negative distance", (0, -0.1)),
                     ("cm", (0, 30.0)), ("NaN distance", (0, math.nan)),
                     ("not a pair", 0.1), ("triple", (0, 0.1, 0.2)), ("text", "hand"),
                     ("bool segment", (True, 0.1)), ("float segment", (1.0, 0.1)))
SEGMENT = Obj(lambda ctx, kw: st.integers(0, ctx["model"].n - 1).flatmap(
    lambda i: st.sampled_from([i, ctx["model"].names[i]])),
    labelled(("unknown", "wing"), ("out of range", 99), ("negative", -99), ("float", 1.0),
             ("bool", True)))
DISTANCE = Obj(lambda ctx, kw: st.floats(0.0, 0.15),
               labelled(("negative", -0.1), ("cm", 25.0), ("NaN", math.nan), ("text", "0.1"),
                        ("pair", [0.1, 0.2])))


def method(name: str):
    return lambda ctx: getattr(ctx["model"], name)


def planar(method_name: str, args: dict, *, models_: tuple[str, ...] = (), result=None,
           **options):
    context = options.pop("context", model_context(*models_))
    aliases = {**STATE_ALIASES, **options.pop("aliases", {})}
    spec(f"bmc.planar.PlanarModel.{method_name}", method(method_name), bound=True,
         context=context, args=args, result=result, aliases=aliases, **options)


FIXED = ("arm", "chain3", "one_link", "kuo")
FLOATING = ("human", "floating_arm")
planar("segment_index", {"segment": SEGMENT})
planar("locate", {"point": Obj(point_on, POINT_BAD),
                  "name": Obj(st.sampled_from([OMIT, "contact_point", "where"]),
                              labelled(("int", 3)))},
       # locate names the point by its `name` (the caller's argument: "where" here)
       aliases={"point": ("contact_point", "where")})
planar("joint_columns", {"joints": Obj(lambda ctx, kw: st.one_of(
    st.just(None), st.lists(st.sampled_from(list(ctx["model"].joint_names)
                                            + list(range(len(ctx["model"].joint_names)))),
                            max_size=3)),
    labelled(("unknown", ["wrist_x"]), ("out of range", [99]), ("a name, not a list", "elbow"),
             ("float", [1.0]), ("bool", [True])))})
planar("check_state", {"q": Q, "qd": Arr(["*", "k"], unit="rad/s", optional=True),
                       "qdd": Arr(["*", "k"], unit="rad/s^2", optional=True)})
for _m in ("segment_angles", "proximal_positions", "distal_positions", "com_positions",
           "jacobian_q", "mass_matrix", "gravity_terms", "com_jacobian"):
    planar(_m, {"q": Q})
planar("axes", {"angles": Arr(["*", "n"], unit="rad", low=-7, high=7)},
       result=shaped("*", "n", 2))
planar("point", {"q": Q, "segment": SEGMENT, "distance": DISTANCE}, result=shaped("*", 2))
planar("point_jacobian", {"q": Q, "segment": SEGMENT, "distance": DISTANCE},
       result=shaped("*", 2, "k"))
planar("kinematics", {"q": Q, "qd": QD, "qdd": QDD},
       result=each_shaped(("*", "n", 2), ("*", "n", 2), ("*", "n", 2)))
planar("absolute_coordinates", {"q": Q, "z": Arr(["*", "m"], unit="m", low=-0.1, high=0.1,
                                                 optional=True)}, result=shaped("*", "n3"))
planar("jacobian_z", {}, result=shaped("n3", "m"))
planar("gamma", {"q": Q, "qd": QD}, result=shaped("*", "n3"))
planar("constraints", {"p": Arr(["*", "n3"], unit="m, rad", low=-2, high=2)})
planar("constraint_jacobian", {"p": Arr(["*", "n3"], unit="m, rad", low=-2, high=2)})
planar("mass_diagonal", {}, result=shaped("n3"))
def _needs_point(kind):
    def make(ctx, kwargs):
        values = kind.draw_valid(ctx, kwargs)
        if "contact_point" not in kwargs and ctx["model"].floating:
            return st.just(OMIT)
        return st.one_of(st.just(OMIT), values)
    return make


_FORCE = Arr(["*", 2], unit="N", low=-2000, high=2000)
_MOMENT = Arr(["*"], unit="N m", low=-100, high=100)
LOAD = {"contact_point": Obj(point_on, POINT_BAD, optional=True),
        "contact_force": Obj(_needs_point(_FORCE), _FORCE.draw_hostile, types=False),
        "contact_moment": Obj(_needs_point(_MOMENT), _MOMENT.draw_hostile, types=False)}
_APPLIED = {"contact_point": LOAD["contact_point"],
            "contact_force": Obj(lambda ctx, kw: st.just(OMIT) if "contact_point" not in kw
                                 else st.one_of(st.just(OMIT), _FORCE.draw_valid(ctx, kw)),
                                 _FORCE.draw_hostile, types=False),
            "contact_moment": Obj(lambda ctx, kw: st.just(OMIT) if "contact_point" not in kw
                                  else st.one_of(st.just(OMIT), _MOMENT.draw_valid(ctx, kw)),
                                  _MOMENT.draw_hostile, types=False)}
planar("applied_forces", {"q": Q, "torques": Arr(["*", "nj"], unit="N m", low=-200, high=200,
                                                  optional=True), **_APPLIED},
       result=shaped("*", "n3"))
planar("bias_forces", {"q": Q, "qd": QD}, result=shaped("*", "k"))
planar("velocity_terms", {"q": Q, "qd": QD}, result=shaped("*", "k"))
planar("inverse_dynamics", {"q": Q, "qd": QD, "qdd": QDD, **LOAD}, models_=FIXED,
       result=shaped("*", "nj"))
planar("contact_inverse_dynamics",
       {"q": Q, "qd": QD, "qdd": QDD,
        "contact_point": Obj(point_on, POINT_BAD),
        "contact_force": LOAD["contact_force"], "contact_moment": LOAD["contact_moment"]},
       models_=FLOATING)
planar("forward_dynamics", {"q": Q, "qd": QD,
                            "tau": Arr(["*", "nj"], unit="N m", low=-200, high=200), **LOAD},
       result=shaped("*", "k"))
planar("energy", {"q": Q, "qd": QD}, result=shaped("*"))
planar("base_reaction_terms", {"q": Q, "qd": QD}, models_=FIXED,
       result=each_shaped(("*", 3, "k"), ("*", 3)))
planar("base_reaction", {"q": Q, "qd": QD, "qdd": QDD}, models_=FIXED, result=shaped("*", 3))


@st.composite
def body(draw, n: int | None = None):
    """Valid segment parameters of n segments (any human or robot arm)."""
    n = n or draw(st.integers(1, 4))
    lengths = np.array(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    frac = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n)))
    masses = np.array(draw(st.lists(st.floats(0.05, 60.0), min_size=n, max_size=n)))
    gyr = np.array(draw(st.lists(st.floats(0.0, 0.6), min_size=n, max_size=n)))
    return {"n": n, "lengths": lengths, "com": frac * lengths, "masses": masses,
            "inertias": masses * (gyr * lengths) ** 2}


BODY = st.fixed_dictionaries({"body": body()}).map(lambda c: {**c, "n": c["body"]["n"]})


def from_body(key: str, unit: str):
    return Arr(["n"], unit=unit, make=lambda ctx, kw: st.just(ctx["body"][key]),
               positive=key in ("lengths", "masses"), nonneg=key in ("com", "inertias"),
               frames=False)


GRAV = Num(unit="m/s^2", low=0.0, high=25.0, optional=True, values=(0.0, 9.81, 1.62))
spec("bmc.planar.PlanarModel", PlanarModel, context=BODY,
     args={"parent": Obj(lambda ctx, kw: st.just(list(range(-1, ctx["n"] - 1))),
                         labelled(("no root", [0]), ("child before parent", [-1, 2, 0]),
                                  ("text", "-1 0"), ("floats", [-1.0, 0.0]), ("empty", []))),
           "attach": Arr(["n"], unit="m", make=lambda ctx, kw: st.just(
               np.r_[0.0, ctx["body"]["lengths"][:-1]]), frames=False),
           "lengths": from_body("lengths", "m"), "com": from_body("com", "m"),
           "masses": from_body("masses", "kg"), "inertias": from_body("inertias", "kg m^2"),
           "floating": Flag(), "g": GRAV})
spec("bmc.chain.PlanarChain", PlanarChain, context=BODY,
     args={"lengths": from_body("lengths", "m"), "com": from_body("com", "m"),
           "masses": from_body("masses", "kg"), "inertias": from_body("inertias", "kg m^2"),
           "g": GRAV})
_SEGMENTS = [segment(n, body_mass=70.0, height=1.75) for n in ("thigh", "shank", "foot")]
spec("bmc.chain.PlanarChain.from_segments", PlanarChain.from_segments,
     args={"segments": Obj(st.lists(st.sampled_from(_SEGMENTS), min_size=1, max_size=3),
                           labelled(("empty", []), ("one segment, not a list", _SEGMENTS[0]),
                                    ("numbers", [0.4, 0.3]), ("dicts without mass",
                                                              [{"length": 0.4}]),
                                    ("None inside", [_SEGMENTS[0], None]))),
           "g": GRAV})


def chain_method(name: str, args: dict, result=None, **options):
    spec(f"bmc.chain.PlanarChain.{name}", method(name), bound=True,
         context=options.pop("context", model_context("arm", "chain3", "one_link")),
         args=args, result=result, **options)


chain_method("to_segment_angles", {"q": Q}, result=shaped("*", "k"))
chain_method("from_segment_angles", {"phi": Arr(["*", "k"], unit="rad", low=-7, high=7)},
             result=shaped("*", "k"))
chain_method("joint_positions", {"q": Q})
chain_method("endpoint", {"q": Q}, result=shaped("*", 2))
chain_method("jacobian", {"q": Q}, result=shaped("*", 2, "k"))
chain_method("external_terms", {"q": Q, "F": Arr(["*", 2], unit="N", low=-500, high=500)},
             result=shaped("*", "k"))
ONE = model_context("arm", "chain3", "one_link", counts=())
chain_method("frame_accelerations",
             {"q": Arr(["k"], unit="rad", low=-7, high=7, lists=False),
              "qd": Arr(["k"], unit="rad/s", low=-10, high=10, lists=False),
              "tau": Arr(["k"], unit="N m", low=-100, high=100, lists=False),
              "F": Arr([2], unit="N", low=-100, high=100, optional=True, lists=False)},
             context=ONE)
chain_method("with_point_mass",
             {"mass": Num(unit="kg", low=0.01, high=50.0, positive=True),
              "segment": Obj(lambda ctx, kw: st.integers(-ctx["model"].n, ctx["model"].n - 1),
                             labelled(("out of range", 99), ("float", 1.0), ("name", "hand"))),
              "distance": Obj(st.one_of(st.just(OMIT), st.just(None), st.floats(0.0, 0.19)),
                              labelled(("negative", -0.1), ("cm", 19.0), ("NaN", math.nan)))})
spec("bmc.tree.PlanarTree", PlanarTree, context=BODY,
     args={"names": Obj(lambda ctx, kw: st.just([f"s{i}" for i in range(ctx["n"])]),
                        labelled(("too few", ["a"] * 0), ("not text", [1, 2, 3, 4]))),
           "parent": Obj(lambda ctx, kw: st.just(list(range(-1, ctx["n"] - 1))),
                         labelled(("no root", [0]), ("child first", [-1, 2, 0]))),
           "attach": Arr(["n"], unit="m", make=lambda ctx, kw: st.just(
               np.r_[0.0, ctx["body"]["lengths"][:-1]]), frames=False),
           "direction": Arr(["n"], make=lambda ctx, kw: st.lists(
               st.sampled_from([1.0, -1.0]), min_size=ctx["n"], max_size=ctx["n"]).map(
                   np.array), frames=False),
           "lengths": from_body("lengths", "m"), "com": from_body("com", "m"),
           "masses": from_body("masses", "kg"),
           "inertias": Arr(["n"], unit="kg m^2", make=lambda ctx, kw: st.just(
               ctx["body"]["inertias"] + 1e-4), positive=True, frames=False),
           "g": GRAV})
spec("bmc.tree.PlanarTree.joint_positions", method("joint_positions"), bound=True,
     context=model_context("human"), args={"q": Q})
spec("bmc.planar.InverseDynamics", InverseDynamics,
     args={k: Obj(st.just(np.zeros(2)), types=False, hostile=st.just(("same", np.zeros(2))))
           for k in ("contact_force", "contact_moment", "torques", "residual")})

# --------------------------------------------------------------------------- Newton-Euler
F2 = frames_context()
spec("bmc.newton_euler.invdyn2d", ne.invdyn2d, context=F2,
     args={"rcm": Arr(["*", 2], unit="m", low=-2, high=2),
           "rd": Arr(["*", 2], unit="m", low=-2, high=2),
           "rp": Arr(["*", 2], unit="m", low=-2, high=2),
           "acm": Arr(["*", 2], unit="m/s^2", low=-50, high=50),
           "alpha": Arr(["*"], unit="rad/s^2", low=-100, high=100),
           "mass": Arr([], unit="kg", low=0.1, high=50.0, positive=True, frames=False),
           "Icm": Arr([], unit="kg m^2", low=0.0, high=2.0, nonneg=True, frames=False),
           "Fd": Arr(["*", 2], unit="N", low=-2000, high=2000),
           "Md": Arr(["*"], unit="N m", low=-200, high=200),
           "g": GRAV}, result=each_shaped(("*", 2), ("*",)))


def inertia_tensor(ctx, kwargs):
    return hnp.arrays(np.float64, 3, elements=st.floats(0.01, 0.2)).flatmap(
        lambda d: st.just(np.diag([d[0] + d[1], d[1] + d[2], d[0] + d[2]])))


spec("bmc.newton_euler.invdyn3d", ne.invdyn3d, context=F2,
     args={"rcm": Arr(["*", 3], unit="m", low=-2, high=2),
           "rd": Arr(["*", 3], unit="m", low=-2, high=2),
           "rp": Arr(["*", 3], unit="m", low=-2, high=2),
           "acm": Arr(["*", 3], unit="m/s^2", low=-50, high=50),
           "omega": Arr(["*", 3], unit="rad/s"), "omegadot": Arr(["*", 3], unit="rad/s^2"),
           "R": Arr(["*", 3, 3], make=rotations(["*", 3, 3])),
           "mass": Num(unit="kg", low=0.1, high=50.0, positive=True),
           "inertia": Arr([3, 3], unit="kg m^2", make=inertia_tensor, frames=False),
           "Fd": Arr(["*", 3], unit="N", low=-2000, high=2000),
           "Md": Arr(["*", 3], unit="N m", low=-200, high=200), "g": GRAV},
     result=each_shaped(("*", 3), ("*", 3)))


@functools.cache
def _stance():
    return stance.stance_example(n_frames=9)


def stance_input(key):
    def make(ctx, kwargs):
        value = _stance().inputs()[key]
        lead = ctx["lead"]
        if value.ndim and value.shape[0] == 9 and key not in ("mass", "inertia"):
            return st.just(value[0] if lead == () else value[: lead[0]])
        return st.just(value)
    return make


STANCE = frames_context(counts=(1, 3, 9))
_UNITS3 = {"mass": "kg", "inertia": "kg m^2", "R": "", "rcm": "m", "rp": "m", "acm": "m/s^2",
           "omega": "rad/s", "omegadot": "rad/s^2", "f_ext": "N", "p_ext": "m",
           "free_moment": "N m"}
_SHAPES3 = {"mass": ["n"], "inertia": ["n", 3, 3], "R": ["*", "n", 3, 3],
            "f_ext": ["*", 3], "p_ext": ["*", 3], "free_moment": ["*", 3]}


def stance_args(*, free_optional=True):
    out = {}
    for key, unit in _UNITS3.items():
        shape = _SHAPES3.get(key, ["*", "n", 3])
        out[key] = Arr(shape, unit=unit, make=stance_input(key),
                       positive=key == "mass", optional=key == "free_moment" and free_optional)
    return out


STANCE_CTX = STANCE.map(lambda c: {**c, "n": 2})
spec("bmc.matrix_form.assemble", mf.assemble, context=STANCE_CTX,
     args={**stance_args(), "g": GRAV})
spec("bmc.matrix_form.joint_loads", mf.joint_loads, context=STANCE_CTX,
     args={**stance_args(), "g": GRAV, "frame": Choice(["segment", "global"], optional=True)},
     result=each_shaped(("*", "n", 3), ("*", "n", 3)))
spec("bmc.newton_euler.joint_loads3d", ne.joint_loads3d, context=STANCE_CTX,
     args={**stance_args(), "g": GRAV, "frame": Choice(["segment", "global"], optional=True)},
     result=each_shaped(("*", "n", 3), ("*", "n", 3)))


@functools.cache
def _system():
    return mf.assemble(**_stance().inputs())


spec("bmc.matrix_form.solve", mf.solve,
     args={"system": Obj(st.just(OMIT).map(lambda _: _system()),
                         labelled(("a dict", {"M": np.eye(3)}), ("an array", np.eye(12))))})
spec("bmc.matrix_form.MatrixForm", mf.MatrixForm,
     args={k: Obj(st.just(np.zeros((1, 2))), types=False,
                  hostile=st.just(("same", np.zeros((1, 2)))))
           for k in ("M", "qdd", "C", "G", "E", "A")})


@functools.cache
def _run():
    from bmc.datasets import load_running

    return load_running()


def running_slice(key, n=400):
    def make(ctx, kwargs):
        run = _run()
        value = {"markers": run.markers, "grf": run.grf}[key]
        return st.integers(2800, 3200).map(lambda s: value[s:s + n])
    return make


spec("bmc.newton_euler.lower_limb", ne.lower_limb, context=st.just({"lead": (400,)}),
     args={"markers": Arr(["*", 8], unit="m", make=running_slice("markers")),
           "grf": Arr(["*", 3], unit="N, N, m", make=running_slice("grf")),
           "freq": Obj(st.just(10_000.0), labelled(("kHz", 10.0), ("zero", 0.0),
                                                  ("NaN", math.nan), ("text", "10000"))),
           "segments": Obj(st.just(OMIT).map(lambda _: _run().segments),
                           labelled(("empty", []), ("numbers", [1.0, 2.0, 3.0]),
                                    ("two segments", _SEGMENTS[:2]))),
           "derivative": Choice(["central", "diff2"], optional=True),
           "cutoff": Num(unit="Hz", low=5.0, high=100.0, positive=True, optional=True),
           "quasi_static": Flag(), "g": GRAV}, examples=6)
spec("bmc.newton_euler.LowerLimbResult", ne.LowerLimbResult,
     args={k: Obj(st.just(v), types=False, hostile=st.just(("same", v)))
           for k, v in dict(forces=np.zeros((1, 3, 2)), moments=np.zeros((1, 3)),
                            markers=np.zeros((1, 4, 2)), angles=np.zeros((1, 3)),
                            joint_angles=np.zeros((1, 3)), com=np.zeros((1, 3, 2)),
                            com_acceleration=np.zeros((1, 3, 2)),
                            angular_velocity=np.zeros((1, 3)),
                            angular_acceleration=np.zeros((1, 3)), freq=100.0,
                            derivative="central", cutoff=None).items()})
