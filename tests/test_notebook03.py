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
