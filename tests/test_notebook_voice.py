"""The course notebooks read like a textbook, not like a test log (issue 28).

Everything a student reads is scanned: every Markdown cell and every stored output (printed
text, the plain-text and LaTeX forms of results, and the text alternatives of figures). A
notebook fails when that text speaks of tolerances ("agree to within 1e-12 N m"), prints a
bare boolean ("True", "...: True"), gives a verdict of the kind a test gives ("PASS",
"DISAGREE", "ABOVE"), or talks about the course's machinery instead of physics: round-off
and machine precision, seeding, installation and path hacks, nbval, CI and the test suite,
the versions of packages, "accuracy goals" and "significant digits are plenty", or the text
extraction the sources reached the authors through. Where two methods must agree, the
notebook says so once, as physics and with the number; the agreement to round-off is checked
in ``tests/`` (for example ``tests/test_notebook_01.py``).

The rules are regular expressions (:data:`RULES`); ``test_rules_catch_every_example`` shows
that they catch each example issue 28 quotes, and ``test_rules_leave_physics_alone`` that
they leave ordinary physics text alone.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# new notebooks start from the contributors' skeleton: it keeps the same voice
SCANNED = [*COURSE, ROOT / "tools" / "templates" / "notebook.ipynb"]

_SMALL = (r"(?:\$?\d(?:\.\d+)?\s*[eE]\s*-\s*\d+\$?"          # 1e-12, 2e-4
          r"|\$?(?:\d(?:\.\d+)?\s*\\times\s*)?10\^\{?-\d+\}?\$?"  # $10^{-8}$, 3 \times 10^{-5}
          r"|10\*\*-\d+)")                                      # 10**-8
RULES: dict[str, re.Pattern] = {
    # a tolerance: a comparison word followed by a small power of ten
    "tolerance": re.compile(
        r"\b(?:to within|within|below|under|better than|less than|smaller than|agrees? to|"
        r"agree to within|differ(?:s|ence)? of at most|at most|error of)\s+(?:about\s+|~\s*)?"
        + _SMALL, re.I),
    "solver tolerance": re.compile(r"\b[ra]tol\b|\btolerances?\b", re.I),
    # a boolean printed as an answer: a line that is only True/False, or "...: True"
    "bare boolean": re.compile(
        r"^\s*(?:True|False)\s*$|[:=]\s*(?:True|False)\b|->\s*(?:True|False)\b", re.M),
    "verdict": re.compile(r"\b(?:PASS(?:ED|ES)?|FAIL(?:ED|S)?|ABOVE|DISAGREES?|DIFFER(?:S)?|"
                          r"MISMATCH(?:ES)?|NOT within|OK)\b"),
    "test outcome": re.compile(r"\b(?:checks?|tests?|assertions?|verification)\s+"
                               r"(?:passed|failed|passes|fails)\b", re.I),
    "round-off": re.compile(r"round-?off|rounding errors?|machine (?:precision|epsilon)|"
                            r"floating[- ]point (?:error|noise|precision)", re.I),
    "seeding": re.compile(r"\bseed(?:ed|s)?\b", re.I),
    "installation": re.compile(r"path[- ]hack|sys\.path|\bbmc\W{0,3}\s+is installed|"
                               r"\bpip install\b", re.I),
    "test machinery": re.compile(r"\bnbval\b|\bpytest\b|\btest suite\b|\bunit tests?\b|"
                                 r"continuous integration|(?-i:\bCI\b)|\bour tests\b|"
                                 r"course's (?:own )?tests", re.I),
    "package version": re.compile(
        r"\b(?:numpy|scipy|sympy|matplotlib|python|ipywidgets|jupyterlab|pandas|bmc)\s*"
        r"\(?\s*(?:since|version|v\.?|>=|<=|<|>)?\s*\d+\.\d+", re.I),
    "course goals": re.compile(r"accuracy goal|goal set for this course|"
                               r"significant digits are plenty|as expected\W*$", re.I | re.M),
    "extraction": re.compile(r"text available to us|is an extraction|extraction damage|"
                             r"extracted text|the extraction", re.I),
}


def student_texts(nb: nbformat.NotebookNode):
    """Yield (cell index, kind, text) for everything a student reads in a notebook."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            yield i, "markdown", cell.source
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield i, "output", out.get("text", "")
            data = out.get("data", {})
            for mime in ("text/plain", "text/latex", "text/markdown"):
                if mime in data:
                    text = data[mime]
                    yield i, "output", text if isinstance(text, str) else "".join(text)
            for meta in out.get("metadata", {}).values():
                if isinstance(meta, dict) and isinstance(meta.get("alt"), str):
                    yield i, "figure text", meta["alt"]


# A printed boolean is a verdict; in prose, `symbolic=True` is an argument being explained.
OUTPUT_ONLY = {"bare boolean"}


def breaches(text: str, kind: str = "output") -> list[tuple[str, str]]:
    """Every rule a text breaks, with the words that break it (``kind``: "markdown",
    "output" or "figure text")."""
    return [(name, m[0]) for name, rule in RULES.items()
            if kind != "markdown" or name not in OUTPUT_ONLY
            for m in [rule.search(text)] if m]


def notebook_breaches(nb: nbformat.NotebookNode) -> list[str]:
    return [f"cell {i} ({kind}): {name}: {words!r}"
            for i, kind, text in student_texts(nb) for name, words in breaches(text, kind)]


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: p.name)
def test_notebook_reads_like_a_textbook(path):
    assert notebook_breaches(nbformat.read(path, as_version=4)) == []


# What issue 28 quotes from the notebooks (and from the contributors' template), each caught.
EXAMPLES = [
    "M from SymPy and from PlanarChain: agree to within 1e-12 kg m^2",
    "the two derivations agree: holds to better than 1e-14",
    "Newton-Euler and least squares DISAGREE by 3.2 N m",
    "the orthogonality check FAILS",
    "residual below 1e-13",
    "residual 2.1e-9: ABOVE",
    "Newton-Euler residual on the exact data below 1e-9: True",
    "True",
    "against the accuracy goal set for this course",
    "4 significant digits are plenty",
    "`bmc` is installed, never path-hacked",
    "every random number in this notebook is seeded",
    "relative difference 7.6e-05: within 2e-4, as expected",
    "np.trapz no longer exists in NumPy 2.4",
    "which NumPy (since 1.24) refuses to turn into an array",
    "the text available to us is an extraction",
    "Cells that only draw are tagged `nbval-ignore-output`.",
    "energy stays constant to within 1e-8 of its value.",
    "The movement is reproduced to better than $10^{-5}$ degrees",
    "conserves energy to better than $10^{-8}$",
    "largest joint-angle error of the simulated reach: below 1e-5 deg",
    "bmc and SymPy agree to within 1e-15 m/rad.",
    "PASS: the moment arms match",
    "the hidden tests passed",
    "bmc 0.1.0",
    "horizontal plane: joint torque = vertical-plane torque minus G: agree to within 1e-12 N m",
    "free swing for 3 s: relative energy error below 1e-8",
    "the error is at round-off level",
]

PHYSICS = [
    "Both methods give the shoulder 8.42 N m, as they must: they solve the same equations.",
    "the simulated swing is longer by a fraction 7.6e-05; theta_0^2 / 16 = 7.6e-05",
    "peak moment 44.1 N m at t = 0.00 s: 81% of an average young man's elbow flexor strength",
    "The elbow flexes to 150 deg, the end of its normal range; the knee is below the hip.",
    "The fibres shorten below their optimal length; the force falls under 1.8 F0.",
    "energy: 2.5682 J at release, 2.5682 J at the lowest angle",
    "A flexor moment is positive; the muscle passes in front of the joint.",
    "The tendon stretches by about a millimetre, 2 % strain, within its toe region.",
    "M, C, G, E equal those of symbolic.two_link(): yes",
    "Thelen (2003) measured older adults; Holzbaur et al. (2005) give 987 N.",
    "The test subject stood on the force plate for 10 s.",
    "speed at most 600 deg/s, less than 2300 deg/s of a pitcher's elbow",
    "explicit Euler, dt = 1e-03 s: energy grows to 2.610 J",
    "peak torque (+ flexor, - extensor) above the isometric force",
    "The ratio alpha_2 / sigma^1.5 tends to a constant, 11.4 rad.",
    "each segment has a distance $l_{ci}$ from its lower joint to its centre of mass",
    r"$\ddot\theta_1 \approx -\frac{m_1 g d_1}{I_o}\theta_1$",
]


def test_rules_catch_every_example():
    missed = [text for text in EXAMPLES if not breaches(text)]
    assert missed == []


def test_rules_leave_physics_alone():
    flagged = {text: breaches(text) for text in PHYSICS if breaches(text)}
    assert flagged == {}
    # an argument named in prose is explained, not printed as a verdict
    assert breaches("the sketch with `symbolic=True` draws symbols", "markdown") == []
    assert breaches("symbolic=True", "output") != []


def test_every_part_a_student_reads_is_scanned(tmp_path):
    """Markdown, printed output, plain-text results and figure text are all scanned."""
    cells = [
        nbformat.v4.new_markdown_cell("The torques agree to within 1e-12 N m."),
        nbformat.v4.new_code_cell("print(ok)", execution_count=1, outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="check: True\n")]),
        nbformat.v4.new_code_cell("ok", execution_count=2, outputs=[
            nbformat.v4.new_output("execute_result", data={"text/plain": "False"})]),
        nbformat.v4.new_code_cell("show(fig)", execution_count=3, outputs=[
            nbformat.v4.new_output("display_data", data={"image/png": "", "text/plain": "x"},
                                   metadata={"image/png": {"alt": "residual below 1e-9"}})]),
        nbformat.v4.new_code_cell("# rtol = 1e-12 in code is not what a student reads",
                                  execution_count=4),
    ]
    found = notebook_breaches(nbformat.v4.new_notebook(cells=cells))
    assert [f.split(":")[0] for f in found] == ["cell 0 (markdown)", "cell 1 (output)",
                                                "cell 2 (output)", "cell 3 (figure text)"]
