"""One meaning per symbol: in each notebook, and course-wide (issue 28).

Every course notebook has a ``## Notation`` cell with one table in the format of
CONTRIBUTING.md ("Writing for students")::

    | symbol | meaning | unit |
    |---|---|---|
    | $\\tau_i$ | net joint moment at joint $i$, on the distal segment, counter-clockwise positive | N m |

A row may name several symbols that share a meaning (``$f_L$, $f_V$``). A symbol is the exact
TeX between the dollars. The tests fail when one notebook's table gives a symbol two meanings
(or two units), and when two notebooks give the same symbol different meaning texts or units
(whitespace and a final full stop aside): a symbol listed by several notebooks carries the
same row in each. ``test_both_failures_are_caught`` shows that the checks can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
HEADING = "## Notation"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(".").strip()


def notation(nb: nbformat.NotebookNode) -> list[tuple[str, str, str]]:
    """The rows of a notebook's Notation table: (symbol, meaning, unit), one per symbol.

    Raises
    ------
    ValueError
        If the notebook has no Notation cell, or it holds no table in the course's format.
    """
    cells = [c for c in nb.cells if c.cell_type == "markdown"
             and c.source.lstrip().startswith(HEADING)]
    if len(cells) != 1:
        raise ValueError(f"needs exactly one '{HEADING}' cell; has {len(cells)}")
    lines = [line.strip() for line in cells[0].source.splitlines() if line.strip().startswith("|")]
    if len(lines) < 3 or [_normal(c).lower() for c in lines[0].strip("|").split("|")] != [
            "symbol", "meaning", "unit"]:
        raise ValueError(f"the '{HEADING}' cell needs a table | symbol | meaning | unit |")
    rows = []
    for line in lines[2:]:
        # split on the column bars, not on bars inside $...$ (|x| in TeX)
        parts = re.split(r"\|(?=(?:[^$]*\$[^$]*\$)*[^$]*$)", line.strip().strip("|"))
        if len(parts) != 3:
            raise ValueError(f"a Notation row needs three columns (symbol, meaning, unit): {line}")
        symbols = re.findall(r"\$([^$]+)\$", parts[0])
        if not symbols:
            raise ValueError(f"a Notation row names no $symbol$: {line}")
        rows += [(s.strip(), _normal(parts[1]), _normal(parts[2])) for s in symbols]
    return rows


def conflicts_within(rows: list[tuple[str, str, str]]) -> list[str]:
    """Symbols that one table lists with two meanings or units."""
    seen: dict[str, tuple[str, str]] = {}
    found = []
    for symbol, meaning, unit in rows:
        if symbol in seen and seen[symbol] != (meaning, unit):
            found.append(f"${symbol}$: '{seen[symbol][0]}' [{seen[symbol][1]}] and "
                         f"'{meaning}' [{unit}]")
        seen.setdefault(symbol, (meaning, unit))
    return found


def conflicts_across(tables: dict[str, list[tuple[str, str, str]]]) -> list[str]:
    """Symbols that two notebooks list with different meaning texts or units."""
    first: dict[str, tuple[str, str, str]] = {}
    found = []
    for name, rows in tables.items():
        for symbol, meaning, unit in rows:
            if symbol not in first:
                first[symbol] = (name, meaning, unit)
            elif first[symbol][1:] != (meaning, unit):
                other, m0, u0 = first[symbol]
                found.append(f"${symbol}$: {other} says '{m0}' [{u0}], {name} says "
                             f"'{meaning}' [{unit}]")
    return found


@pytest.mark.parametrize("path", COURSE, ids=lambda p: p.name)
def test_each_notebook_gives_each_symbol_one_meaning(path):
    rows = notation(nbformat.read(path, as_version=4))
    assert rows, "the Notation table is empty"
    assert conflicts_within(rows) == []


def test_the_course_gives_each_symbol_one_meaning():
    tables = {}
    for path in COURSE:
        try:
            tables[path.name] = notation(nbformat.read(path, as_version=4))
        except ValueError:
            continue  # no table: test_each_notebook_gives_each_symbol_one_meaning fails for it
    assert conflicts_across(tables) == []


def _nb(table: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title"),
        nbformat.v4.new_markdown_cell("## Notation\n\n| symbol | meaning | unit |\n|---|---|---|\n"
                                      + table)])


def test_both_failures_are_caught():
    good = _nb("| $\\tau_i$ | net joint moment at joint $i$ | N m |\n"
               "| $f_L$, $f_V$ | force-length and force-velocity curves | - |\n"
               "| $\\|\\mathbf{v}\\|$ | speed | m/s |\n")
    rows = notation(good)
    assert [r[0] for r in rows] == ["\\tau_i", "f_L", "f_V", "\\|\\mathbf{v}\\|"]
    assert conflicts_within(rows) == []
    # one notebook, one symbol, two meanings: T as kinetic energy and as joint torque
    twice = notation(_nb("| $T$ | kinetic energy | J |\n| $T$ | joint torque | N m |\n"))
    assert len(conflicts_within(twice)) == 1
    # two notebooks, one symbol, different meaning texts
    other = notation(_nb("| $\\tau_i$ | joint torque | N m |\n"))
    assert len(conflicts_across({"a": rows, "b": other})) == 1
    # the same row twice, with different spacing and a full stop, is one meaning
    same = notation(_nb("| $\\tau_i$ |  net joint moment at   joint $i$. | N m |\n"))
    assert conflicts_across({"a": rows, "b": same}) == []
    # a notebook without a Notation cell, or without a table, is refused
    with pytest.raises(ValueError, match="Notation"):
        notation(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title")]))
    with pytest.raises(ValueError, match="table"):
        notation(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("## Notation\n")]))
