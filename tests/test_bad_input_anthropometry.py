"""bmc.anthropometry: every bad input refused with a message naming the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bmc import anthropometry as am

KW = {"body_mass": 70.0, "height": 1.70}
FOREARM = am.segment("forearm", **KW)
HAND = am.segment("hand", **KW)

VALID = {
    am.segment: {"name": "thigh", **KW},
    am.table: {"name": "dempster"},
    am.segment_names: {"name": "de_leva", "sex": "male"},
    am.combine: {"parts": [FOREARM, HAND], "name": "forearm_hand"},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


WRONG_TYPES = [("'70'", "70"), ("True", True), ("complex", 70 + 1j), ("None", None),
               ("object", object()), ("list", [70.0, 71.0])]

CASES = [
    # wrong types
    *[case(am.segment, TypeError, "body_mass", body_mass=v) for _, v in WRONG_TYPES[:5]],
    *[case(am.segment, TypeError, "height", height=v) for _, v in WRONG_TYPES[:5]],
    case(am.segment, ValueError, "body_mass", body_mass=[70.0, 71.0]),
    case(am.segment, ValueError, "height", height=np.array([1.7, 1.8])),
    case(am.segment, TypeError, "name", name=3),
    case(am.segment, TypeError, "name", name=None),
    case(am.segment, TypeError, "axis", axis=2),
    case(am.segment, TypeError, "axis", axis=True),
    case(am.segment, ValueError, "table", table=None),
    case(am.segment, ValueError, "table", table=1),
    case(am.segment, ValueError, "sex", table="de_leva", sex=True),
    case(am.table, ValueError, "table", name=3),
    case(am.table, ValueError, "sex", name="de_leva", sex=None),
    case(am.segment_names, ValueError, "sex", sex="M"),
    case(am.combine, TypeError, "parts", parts=[FOREARM, "hand"]),
    case(am.combine, TypeError, "parts", parts=FOREARM),
    case(am.combine, TypeError, "parts", parts="forearm"),
    case(am.combine, TypeError, "parts", parts=None),
    case(am.combine, TypeError, "name", name=None),
    case(am.combine, TypeError, "name", name=3),
    # shapes: an empty combination
    case(am.combine, TypeError, "parts", parts=[]),
    # unknown names and axes
    case(am.segment, ValueError, "femur", name="femur"),
    case(am.segment, ValueError, "axis", axis="frontal"),
    case(am.segment, ValueError, "axis", axis="longitudinal"),          # Dempster has none
    case(am.segment, ValueError, "trunk", name="trunk"),               # no radius: no NaN
    case(am.combine, ValueError, "parts",
         parts=[FOREARM, am.segment("hand", axis="longitudinal", table="de_leva", sex="male",
                                    **KW)]),
    # non-finite values
    case(am.segment, ValueError, "body_mass", body_mass=np.nan),
    case(am.segment, ValueError, "height", height=np.inf),
    # wrong signs
    case(am.segment, ValueError, "body_mass", body_mass=-70.0),
    case(am.segment, ValueError, "body_mass", body_mass=0.0),
    case(am.segment, ValueError, "height", height=-1.7),
    # out of every human's range
    case(am.segment, ValueError, "height", height=0.1),
    case(am.segment, ValueError, "height", height=25.0),
    case(am.segment, ValueError, "body_mass", body_mass=0.5),
    case(am.segment, ValueError, "body_mass", body_mass=5000.0),
    # implausible units: centimetres, millimetres, feet for metres; grams for kilograms
    case(am.segment, ValueError, "height", height=175.0),
    case(am.segment, ValueError, "height", height=1750.0),
    case(am.segment, ValueError, "height", height=5.9),
    case(am.segment, ValueError, "body_mass", body_mass=70000.0),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


@pytest.mark.parametrize(("kwargs", "unit", "meant"), [
    ({"height": 175.0}, "cm", "1.75"), ({"height": 1750.0}, "mm", "1.75"),
    ({"height": 5.9}, "ft", "1.798"), ({"body_mass": 70000.0}, "g", "70")])
def test_unit_mistakes_name_the_unit_probably_meant(kwargs, unit, meant):
    with pytest.raises(ValueError, match=rf"looks like {unit}: pass {meant}\b"):
        am.segment("thigh", **{**KW, **kwargs})


@pytest.mark.parametrize("table", ["dempster", "de_leva"])
def test_no_nan_or_inf_from_any_valid_segment(table):
    sexes = [None] if table == "dempster" else ["female", "male"]
    rng = np.random.default_rng(3)
    for sex in sexes:
        for name in am.segment_names(table, sex=sex):
            if table == "dempster" and name == "trunk":
                continue   # refused above: Dempster gives it no radius of gyration
            for _ in range(3):
                s = am.segment(name, body_mass=float(rng.uniform(3, 200)),
                               height=float(rng.uniform(0.5, 2.5)), table=table, sex=sex)
                values = (s.mass, s.length, s.com, s.inertia)
                assert all(math.isfinite(v) and v > 0 for v in values[:2] + values[3:])
                assert 0 <= s.com <= s.length
