"""Notebook 1 reads as teaching: rendered derivations, pictures, prompts, links, citations.

nbval checks that the stored outputs are what the code prints; these tests check what a
student sees in them: symbolic results rendered as LaTeX (never SymPy's ``Derivative(``
text), no test-log lines (``PASS``, a bare ``True``), a solution under every
predict-then-check prompt, figures tagged so nbval does not compare pixels, hyperlinks to
files that exist, and every author cited in the text listed under References.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "notebooks" / "01_one_link.ipynb"
IGNORE = "nbval-ignore-output"


@pytest.fixture(scope="module")
def nb():
    return nbformat.read(PATH, as_version=4)


def _texts(nb):
    """(cell index, text/plain or stream text) of every stored output."""
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            text = out.get("text", "") or out.get("data", {}).get("text/plain", "")
            yield i, text if isinstance(text, str) else "".join(text)


def _markdown(nb):
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def test_symbolic_results_are_rendered_not_printed(nb):
    raw = [(i, t[:60]) for i, t in _texts(nb) if "Derivative(" in t or "Matrix([[" in t]
    assert raw == [], f"SymPy repr in an output (display Math(vlatex(...)) instead): {raw}"
    latex = sum("text/latex" in out.get("data", {}) for c in nb.cells
                for out in c.get("outputs", []))
    assert latex >= 15, f"only {latex} rendered equations; the derivations should be in view"


def test_no_test_log_lines(nb):
    bad = re.compile(r"^(True|False)$|\bPASS\b|\bFAIL\b|rtol|round-off|nbval|\bCI\b", re.M)
    found = [(i, m[0]) for i, t in _texts(nb) for m in [bad.search(t)] if m]
    assert found == [], found
    words = re.compile(r"\bnbval\b|\bCI\b|round-off|\bissue \d", re.I)
    sources = [i for i, c in enumerate(nb.cells) if words.search(c.source)]
    assert sources == [], f"cells speaking about tooling, not physics: {sources}"


def test_every_prompt_has_a_solution(nb):
    prompts = [i for i, c in enumerate(nb.cells)
               if c.cell_type == "markdown" and "**Predict, then check.**" in c.source]
    assert 2 <= len(prompts) <= 4, prompts
    for i in prompts:
        # the prompt, then the cell(s) that check it, then the hidden solution
        following = nb.cells[i + 1:i + 4]
        assert following[0].cell_type == "code", f"cell {i}: no check cell after the prompt"
        assert any(c.cell_type == "markdown" and "<details><summary>Solution</summary>"
                   in c.source for c in following), f"cell {i}: no hidden solution"


def test_figures_and_widgets_are_not_compared(nb):
    visual = ("image/png", "application/vnd.jupyter.widget-view+json")
    untagged = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                and any(k in out.get("data", {}) for out in c.get("outputs", []) for k in visual)
                and IGNORE not in c.metadata.get("tags", [])]
    assert untagged == []
    n_figures = sum(any("image/png" in out.get("data", {}) for out in c.get("outputs", []))
                    for c in nb.cells)
    assert n_figures >= 8, "sketch, two free-body diagrams, strobe, animation and plots"


def test_pictures_are_drawn_from_the_model(nb):
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for call in ("drawing.model_sketch(rod", "drawing.free_body_diagram(rod",
                 "symbolic=True", "drawing.strobe(", "drawing.animation(",
                 "with_point_mass("):
        assert call in code, call


def test_links_resolve(nb):
    links = re.findall(r"\]\(([^)\s]+\.ipynb)\)", _markdown(nb))
    assert any("02_two_link" in link for link in links)
    assert any("exercises/01_one_link" in link for link in links)
    missing = [link for link in links if not (PATH.parent / link).resolve().exists()]
    assert missing == [], missing


def test_every_citation_is_in_the_references(nb):
    text = _markdown(nb)
    body, _, references = text.partition("## References")
    assert references, "no References section"
    cited = set(re.findall(r"([A-Z][a-z]+)(?: et al\.| and [A-Z][a-z]+)? \(?(\d{4})\)?", body))
    cited |= {("Duarte", "")} if "Duarte" in body else set()
    for author, year in cited:
        assert author in references and year in references, f"{author} {year} not in References"
    listed = re.findall(r"^- ([A-Z][a-z]+)", references, re.M)
    uncited = [a for a in listed if a not in body]
    assert uncited == [], f"in References but never cited: {uncited}"


def test_source_erratum_stated(nb):
    text = _markdown(nb)
    assert "Errata of the source" in text
    assert r"(0, -mg, 0)" in text and r"(0, -g, 0)" in text
