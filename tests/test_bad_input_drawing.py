"""bmc.drawing: wrong poses, chains, loads and options refused by name."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from bmc import drawing as dr
from bmc.chain import PlanarChain

ARM = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
POSES = np.cumsum(np.random.default_rng(0).uniform(0, 0.3, (10, 3, 2)), axis=1)
VALID = {
    dr.strobe: {"poses": POSES},
    dr.animation: {"poses": POSES},
    dr.free_body_diagram: {"chain": ARM, "q": [0.1, 0.2]},
    dr.segment_diagram: {"proximal": [0, 0], "distal": [1, 0], "com": [0.5, 0]},
    dr.model_sketch: {"model": ARM, "q": [0.1, 0.2]},
    dr.lower_limb_diagrams: {"result": None, "grf": np.zeros((5, 3)), "frame": 0,
                             "masses": [7.0, 3.0, 1.0]},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    case(dr.strobe, TypeError, "poses", poses="x"),
    case(dr.strobe, ValueError, "poses", poses=POSES[..., :1]),
    case(dr.strobe, ValueError, "poses", poses=POSES * np.nan),
    case(dr.strobe, ValueError, "every", every=1.5),
    case(dr.strobe, ValueError, "every", every=True),
    case(dr.strobe, TypeError, "parents", parents=[-1, 0.0, 1]),
    case(dr.strobe, ValueError, "parents", parents=[-1, 5, 1]),
    case(dr.strobe, ValueError, "segments", segments=[(0, 1, 2)]),
    case(dr.strobe, ValueError, "times", times=np.arange(5.0)),
    case(dr.strobe, ValueError, "forces", forces=np.ones((10, 3))),
    case(dr.strobe, ValueError, "path", path=7),
    case(dr.strobe, ValueError, "spread", spread=np.nan),
    case(dr.strobe, ValueError, "cmap", cmap="nope"),
    case(dr.strobe, TypeError, "ground", ground="floor"),
    case(dr.strobe, ValueError, "ground", ground=np.nan),
    case(dr.strobe, ValueError, "force_scale", forces=np.ones((10, 2)), force_points=0,
         force_scale=-1.0),
    case(dr.animation, ValueError, "interval", interval=-5),
    case(dr.animation, ValueError, "dpi", dpi="80"),
    case(dr.free_body_diagram, TypeError, "chain", chain="arm"),
    case(dr.free_body_diagram, ValueError, "q", q=[0.1]),
    case(dr.free_body_diagram, ValueError, "q", q=[0.1, np.nan]),
    case(dr.free_body_diagram, ValueError, "q", q=np.zeros((3, 2))),
    case(dr.free_body_diagram, ValueError, "segment", segment=5),
    case(dr.free_body_diagram, ValueError, "segment", segment=1.5),
    case(dr.free_body_diagram, ValueError, "contact_force", contact_force=[1, 2, 3]),
    case(dr.free_body_diagram, ValueError, "force_scale", force_scale=-1.0),
    case(dr.segment_diagram, TypeError, "proximal", proximal="0"),
    case(dr.segment_diagram, ValueError, "com", com=[0.5, 0, 0]),
    case(dr.segment_diagram, ValueError, "mass", mass=-1.0),
    case(dr.segment_diagram, TypeError, "forces", forces=[1, 2]),
    case(dr.segment_diagram, ValueError, "forces", forces={"F": ([0, 0], [1, 2, 3])}),
    case(dr.segment_diagram, TypeError, "moments", moments={"M": ([0, 0], "3")}),
    case(dr.segment_diagram, ValueError, "distal", distal=[0, 0], com=[0, 0]),
    case(dr.segment_diagram, ValueError, "moments", moments={"M": ([0, 0], np.nan)}),
    case(dr.segment_diagram, ValueError, "moments", moments={"M": ([0, 0], np.inf)},
         symbolic=True),
    case(dr.model_sketch, ValueError, "angles", angles="x"),
    case(dr.model_sketch, ValueError, "q", q=[0.1]),
    case(dr.lower_limb_diagrams, TypeError, "result", result="r"),
    # issue 34's long survey, round 2: switches given an array raised NumPy's ambiguous
    # truth value, and text spread reached np.isfinite (TypeError without a name)
    case(dr.free_body_diagram, TypeError, "symbolic", symbolic=np.array([True, False])),
    case(dr.segment_diagram, TypeError, "symbolic", symbolic="False"),
    case(dr.model_sketch, TypeError, "values", values=np.array([True, False])),
    case(dr.model_sketch, TypeError, "gravity", gravity=None),
    case(dr.model_sketch, TypeError, "numbers", numbers="yes"),
    case(dr.strobe, TypeError, "spread", spread="0.2"),
    case(dr.strobe, ValueError, "poses", times=np.arange(6.0)),  # 10 poses, 6 times
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    try:
        refuses(func, kwargs, exc, arg)
    finally:
        plt.close("all")


def test_valid_input_draws_finite_points(rng):
    poses = np.cumsum(rng.uniform(0, 0.3, (8, 3, 2)), axis=1)
    d = dr.strobe(poses, parents=[-1, 0, 1], every=2)
    q = rng.uniform(-1, 1, 2)
    fbd = dr.free_body_diagram(ARM, q, segment=1, contact_force=rng.uniform(-20, 20, 2))
    assert all(np.all(np.isfinite(a.vector)) for a in fbd.arrows)
    assert d.ax is not None
    plt.close("all")


@pytest.mark.parametrize(("bad", "exc"), [({"frame": True}, TypeError),
                                          ({"frame": 99}, ValueError),
                                          ({"symbolic": np.array([True, False])}, TypeError)])
def test_lower_limb_diagrams_check_frame_and_symbolic(refuses, bad, exc):
    # frame=True drew frame 1 (a bool is an int to Python); an array symbolic raised NumPy's
    # ambiguous truth value (issue 34's long survey, round 2)
    from bmc import newton_euler as ne

    legs = np.tile([0, 0.9, 0, 0.45, 0, 0.08, 0.15, 0.0], (10, 1))
    grf = np.tile([0.0, 700.0, 0.0], (10, 1))
    seg = {"mass": [7.0, 3.0, 1.0], "inertia": [0.1, 0.04, 0.005],
           "com_fraction": [0.43, 0.43, 0.5]}
    result = ne.lower_limb(legs, grf, 100.0, seg)
    try:
        refuses(dr.lower_limb_diagrams, {"result": result, "grf": grf, "frame": 0,
                                         "masses": seg["mass"], **bad}, exc, next(iter(bad)))
    finally:
        plt.close("all")
