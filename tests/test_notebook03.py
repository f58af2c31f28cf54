"""Notebook 3 reads as teaching: typeset results, prompts with solutions, cited sources."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

PATH = Path(__file__).resolve().parents[1] / "notebooks" / "03_matrix_formalism.ipynb"


@pytest.fixture(scope="module")
def nb():
    return nbformat.read(PATH, as_version=4)


def _plain_outputs(nb):
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            yield f'{out.get("text", "")}{out.get("data", {}).get("text/plain", "")}'


def test_symbolic_results_are_typeset_not_printed_as_sympy_code(nb):
    text = "\n".join(_plain_outputs(nb))
    assert "Derivative(" not in text and "Matrix([[" not in text
    latex = [out for cell in nb.cells for out in cell.get("outputs", [])
             if "text/latex" in out.get("data", {})]
    assert len(latex) >= 10  # the Lagrange derivation shows its steps


def test_checks_read_as_sentences_not_a_test_log(nb):
    for text in _plain_outputs(nb):
        assert not re.search(r"\b(True|False)\b", text), text
        assert "PASS" not in text and "rtol" not in text, text


def test_three_predict_then_check_prompts_each_with_a_solution_and_a_check(nb):
    prompts = [i for i, c in enumerate(nb.cells)
               if c.cell_type == "markdown" and "Predict, then check." in c.source]
    assert len(prompts) == 3
    for i in prompts:
        assert "<details><summary>Solution</summary>" in nb.cells[i].source
        following = nb.cells[i + 1]
        assert following.cell_type == "code" and following.outputs  # the check runs


def test_no_timings_in_the_notebook(nb):
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "perf_counter" not in code and "timeit" not in code


def test_exercises_link_the_graded_set_and_every_reference_is_cited(nb):
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    refs_at = next(i for i, s in enumerate(md) if s.startswith("## References"))
    body, refs = "\n".join(md[:refs_at]), md[refs_at]
    assert "(../exercises/03_matrix_formalism.ipynb)" in body
    authors = re.findall(r"^- ([^,]+),", refs, flags=re.M)
    assert len(authors) >= 12
    for author in authors:
        name = author.split()[-1] if author.startswith("de ") else author
        assert name in body, f"{author} is listed in References but not cited in the text"


def test_the_equations_the_notebook_derives_by_hand_match_sympy_lagranges_method():
    """An independent derivation (SymPy's rigid bodies and LagrangesMethod) gives the
    source's M and C + G + Q that notebook 3 derives step by step."""
    import sympy as sp
    from sympy.physics.mechanics import (
        LagrangesMethod,
        Lagrangian,
        Point,
        ReferenceFrame,
        RigidBody,
        dynamicsymbols,
        inertia,
    )

    m1, m2, l1, l2, g = sp.symbols("m1 m2 l1 l2 g", positive=True)
    M_1, M_12 = sp.symbols("M_1 M_12")
    th1, th2 = dynamicsymbols("theta1 theta2")
    w1, w2 = th1.diff(), th2.diff()
    N = ReferenceFrame("N")
    A = N.orientnew("A", "Axis", [th1, N.z])      # rod 1, hanging along -A.y
    B = N.orientnew("B", "Axis", [th2, N.z])      # rod 2, absolute angle
    pivot = Point("O")
    pivot.set_vel(N, 0)
    P1, J = pivot.locatenew("P1", -l1 / 2 * A.y), pivot.locatenew("J", -l1 * A.y)
    P2 = J.locatenew("P2", -l2 / 2 * B.y)
    P1.v2pt_theory(pivot, N, A)
    J.v2pt_theory(pivot, N, A)
    P2.v2pt_theory(J, N, B)
    rod1 = RigidBody("rod1", P1, A, m1, (inertia(A, 0, 0, m1 * l1**2 / 12), P1))
    rod2 = RigidBody("rod2", P2, B, m2, (inertia(B, 0, 0, m2 * l2**2 / 12), P2))
    rod1.potential_energy = m1 * g * P1.pos_from(pivot).dot(N.y)
    rod2.potential_energy = m2 * g * P2.pos_from(pivot).dot(N.y)
    lm = LagrangesMethod(Lagrangian(N, rod1, rod2), [th1, th2], frame=N,
                         forcelist=[(A, (M_1 - M_12) * N.z), (B, M_12 * N.z)])
    lm.form_lagranges_equations()
    d = th1 - th2
    M_src = sp.Matrix([[(m1 / 3 + m2) * l1**2, m2 * l1 * l2 / 2 * sp.cos(d)],
                       [m2 * l1 * l2 / 2 * sp.cos(d), m2 * l2**2 / 3]])
    rhs_src = sp.Matrix([
        -m2 * l1 * l2 / 2 * w2**2 * sp.sin(d) - (m1 / 2 + m2) * g * l1 * sp.sin(th1) + M_1 - M_12,
        m2 * l1 * l2 / 2 * w1**2 * sp.sin(d) - m2 * g * l2 / 2 * sp.sin(th2) + M_12])
    assert (lm.mass_matrix - M_src).applyfunc(sp.simplify) == sp.zeros(2, 2)
    assert (lm.forcing - rhs_src).applyfunc(sp.simplify) == sp.zeros(2, 1)
