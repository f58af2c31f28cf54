"""House rules for the stored notebooks (their execution is checked by nbval)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
COURSE = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
# The contributors' skeleton lives outside the folder students open (CONTRIBUTING.md,
# "Adding a notebook"); it keeps the same house rules and skeleton as the notebooks.
TEMPLATE = ROOT / "tools" / "templates" / "notebook.ipynb"
NOTEBOOKS = [*COURSE, TEMPLATE]
# the skeleton's sections, in this order
SECTIONS = ("Learning objectives", "Notation", "Setup", "Summary", "Exercises", "References")
ALLOWED_CELL_METADATA = {"tags"}
# A measured value printed as d.de-06 or smaller is round-off or integration error: its
# digits change with the machine and the library version, so nbval cannot compare them.
ROUND_OFF = re.compile(r"\d\.\d+e-(0[6-9]|[1-9]\d)")


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """Every breach of the house rules in one notebook, as readable sentences."""
    found = []
    for index, cell in enumerate(nb.cells):
        where = f"cell {index}"
        if cell.cell_type == "code":
            if cell.execution_count is None and cell.source.strip():
                found.append(f"{where}: unexecuted code cell (run tools/run_notebooks.py)")
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    found.append(f"{where}: stored error output {out.get('ename')}")
                if out.get("name") == "stderr" and "Traceback" in out.get("text", ""):
                    found.append(f"{where}: stored traceback on stderr")
            if re.search(r"sys\.path\.(insert|append)", cell.source):
                found.append(f"{where}: sys.path hack; import the installed bmc instead")
            if "%matplotlib notebook" in cell.source or "%matplotlib widget" in cell.source:
                found.append(f"{where}: only %matplotlib inline (one backend, JupyterLab 4)")
            if re.search(r"^\s*from\s+\S+\s+import\s+\*", cell.source, re.M):
                found.append(f"{where}: star import")
            if "nbval-ignore-output" not in cell.metadata.get("tags", []):
                for out in cell.get("outputs", []):
                    text = f'{out.get("text", "")} {out.get("data", {}).get("text/plain", "")}'
                    tiny = ROUND_OFF.search(text)
                    if tiny:
                        found.append(f"{where}: compared output prints round-off {tiny[0]!r}; "
                                     "print the physical quantity the student needs, rounded "
                                     "(both results to the digits that matter), and check the "
                                     "agreement to round-off in tests/")
        extra = set(cell.metadata) - ALLOWED_CELL_METADATA
        if extra:
            found.append(f"{where}: metadata noise {sorted(extra)} (run tools/run_notebooks.py)")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_follows_house_rules(path):
    nb = nbformat.read(path, as_version=4)
    assert problems(nb) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_the_skeleton(path):
    nb = nbformat.read(path, as_version=4)
    headings = [line.lstrip("#").strip() for cell in nb.cells if cell.cell_type == "markdown"
                for line in cell.source.splitlines() if line.startswith("## ")]
    assert headings and nb.cells[0].source.startswith("# "), "first cell must be the title"
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"no '## {section}' section"
    order = [next(i for i, h in enumerate(headings) if h.startswith(s)) for s in SECTIONS]
    assert order == sorted(order), f"the skeleton's sections must come in the order {SECTIONS}"
    first_code = next(c for c in nb.cells if c.cell_type == "code")
    assert "import bmc" in first_code.source or "from bmc" in first_code.source, \
        "the first code cell is the setup cell and imports bmc"


def _notebook(cells):
    return nbformat.v4.new_notebook(cells=cells)


def test_the_template_is_outside_the_students_folder():
    assert TEMPLATE.exists()
    assert not list(NOTEBOOK_DIR.glob("_*.ipynb")), \
        "contributors' files do not belong in notebooks/"


def test_rules_catch_each_breach():
    """The checker must flag each thing it guards (a test that cannot fail is a defect)."""
    bad_error = nbformat.v4.new_code_cell("1/0", execution_count=1, outputs=[
        nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="", traceback=[])])
    unexecuted = nbformat.v4.new_code_cell("x = 1")
    path_hack = nbformat.v4.new_code_cell("import sys\nsys.path.insert(0, '..')",
                                          execution_count=2)
    backend = nbformat.v4.new_code_cell("%matplotlib notebook", execution_count=3)
    noisy = nbformat.v4.new_code_cell("y = 2", execution_count=4,
                                      metadata={"collapsed": False})
    digits = nbformat.v4.new_code_cell("print(err)", execution_count=5, outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="error 3.4e-06 deg\n")])
    found = problems(_notebook([bad_error, unexecuted, path_hack, backend, noisy, digits]))
    assert len(found) == 6, found
    digits.metadata["tags"] = ["nbval-ignore-output"]
    shown = nbformat.v4.new_code_cell("err", execution_count=7, outputs=[
        nbformat.v4.new_output("execute_result", data={"text/plain": "4.2e-10"})])
    assert len(problems(_notebook([shown]))) == 1
    physics = nbformat.v4.new_code_cell("print(d)", execution_count=6, outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="difference 7.6e-05\n")])
    assert problems(_notebook([digits, physics])) == []
    ok = nbformat.v4.new_code_cell("x = 1", execution_count=1)
    assert problems(_notebook([ok])) == []
