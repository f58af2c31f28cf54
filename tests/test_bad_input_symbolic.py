"""bmc.symbolic: bad input refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from bmc import symbolic as sy

X = sp.Symbol("x")
VALID = {
    sy.newton_euler_equations: {"n": 1},
    sy.lagrange_equations: {"n": 1},
    sy.one_link: {},
    sy.two_link: {},
    sy.tidy: {"expr": X, "q": []},
    sy.broadcast_lambdify: {"args": [X], "expr": X},
    sy.latex: {"expr": X},
    sy.decompose: {"tau": sp.Matrix([X]), "q": [], "g": sp.Symbol("g"), "force": []},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # text is refused, never parsed (sympify would run it as Python)
    case(sy.latex, TypeError, "expr", expr="__import__('os').getcwd()"),
    case(sy.latex, TypeError, "expr", expr=object()),
    case(sy.newton_euler_equations, ValueError, "n", n=0),
    case(sy.newton_euler_equations, TypeError, "n", n=1.5),
    case(sy.newton_euler_equations, TypeError, "n", n=True),
    case(sy.newton_euler_equations, TypeError, "n", n="2"),
    case(sy.newton_euler_equations, ValueError, "coordinates", coordinates="absolute"),
    case(sy.lagrange_equations, TypeError, "n", n=2.0),
    case(sy.lagrange_equations, ValueError, "coordinates", coordinates=None),
    # sizes: each link multiplies the derivation's time by about five (n = 6 took 116 s)
    case(sy.lagrange_equations, ValueError, "n", n=4),
    case(sy.lagrange_equations, ValueError, "n", n=10**9),
    case(sy.newton_euler_equations, ValueError, "n", n=5),
    case(sy.two_link, ValueError, "coordinates", coordinates="x"),
    case(sy.one_link, ValueError, "about", about=3),
    case(sy.tidy, TypeError, "q", q=3),
    case(sy.broadcast_lambdify, TypeError, "args", args=3),
    # issue 34's long survey, round 2: a dict sympified to a Dict (AttributeError: no
    # expand); an array switch raised NumPy's ambiguous truth value
    case(sy.tidy, TypeError, "expr", expr={"value": 1.0}),
    case(sy.tidy, TypeError, "factor", factor=np.array([True, False])),
    case(sy.lagrange_equations, TypeError, "simplify", simplify=np.array([True, False])),
    case(sy.newton_euler_equations, TypeError, "simplify", simplify="False"),
    case(sy.decompose, TypeError, "simplify", simplify=np.array([True, False])),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    f = sy.broadcast_lambdify([X], sp.Matrix([[1, X], [X**2, 2]]))
    assert np.all(np.isfinite(f(rng.uniform(-3, 3, 7))))
