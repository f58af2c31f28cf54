"""bmc.symbolic.latex: the dot notation of sympy.physics.vector.vlatex, without its import."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy as sp

from bmc import symbolic

t = sp.Symbol("t")
a1, a2 = sp.Function("alpha1")(t), sp.Function("alpha_2")(t)
ell, d = sp.symbols("ell_1 d_2", positive=True)
EXPRESSIONS = [
    a1.diff(t, 2) + a1.diff(t) ** 2 * sp.sin(a1),
    sp.Matrix([ell * d * sp.sin(a2) * a1.diff(t) * a2.diff(t), a1 ** 2]),
    (a1.diff(t) + a2.diff(t)) ** 2 * sp.cos(a1 + a2),
    sp.Function("beta_1")(t).diff(t, 3) - sp.Function("x")(sp.Symbol("s")),   # not of t
    sp.Derivative(a1, t, 4),                                                    # no accent
]


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=range(len(EXPRESSIONS)))
def test_same_text_as_vlatex(expr):
    from sympy.physics.vector import vlatex  # the independent printer

    assert symbolic.latex(expr) == vlatex(expr)


def test_does_not_import_sympy_physics():
    code = ("import sympy as sp, sys; from bmc import symbolic; t = sp.Symbol('t'); "
            "symbolic.latex(sp.Function('q')(t).diff(t)); "
            "print(any(m.startswith('sympy.physics') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"
