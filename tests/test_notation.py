"""One meaning per symbol: in each notebook, and course-wide (issue 28).

Every course notebook has a ``## Notation`` cell with one table in the format of
CONTRIBUTING.md ("Writing for students")::

    | symbol | meaning | unit |
    |---|---|---|
    | $\\tau_i$ | net joint moment at joint $i$, on the distal segment, ... | N m |

A row may name several symbols that share a meaning (``$f_L$, $f_V$``). A symbol is the exact
TeX between the dollars. The tests fail when one notebook's table gives a symbol two meanings
(or two units), and when two notebooks give the same symbol different meaning texts or units
(whitespace and a final full stop aside): a symbol listed by several notebooks carries the
same row in each. ``test_both_failures_are_caught`` shows that the checks can fail.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
_spec = importlib.util.spec_from_file_location("notation_tool", ROOT / "tools" / "notation.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)
notation, conflicts_within, conflicts_across = (tool.notation, tool.conflicts_within,
                                                tool.conflicts_across)


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
               "| $f_L$, $f_V$ | force-length and force-velocity curves | 1 |\n"
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
    same = notation(_nb("| $\\tau_{i}$ |  net joint moment at   joint $i$. | N m |\n"))
    assert conflicts_across({"a": rows, "b": same}) == []
    # one symbol however it is braced: \mathbf{F}_i and \mathbf F_{i} are the same letter
    bold = notation(_nb("| $\\mathbf{F}_i$ | net joint force | N |\n"))
    other_bold = notation(_nb("| $\\mathbf F_{i}$ | reaction force | N |\n"))
    assert len(conflicts_across({"a": bold, "b": other_bold})) == 1
    # and a unit however its power is written
    assert notation(_nb("| $I_i$ | inertia | kg m$^2$ |\n"))[0][2] == "kg m²"
    # one letter as a reader sees it: bold or not, \varphi or \phi, braces or not
    assert len(conflicts_across({
        "a": notation(_nb("| $F_0$ | maximal isometric force of a muscle | N |\n")),
        "b": notation(_nb("| $\\mathbf F_0 = (F_x, F_y)$ | force of the plate | N |\n"))
    })) == 1
    assert len(conflicts_across({
        "a": notation(_nb("| $\\varphi_i$ | angle of segment $i$ from the horizontal | rad |\n")),
        "b": notation(_nb("| $\\phi_{i}$ | angle of segment $i$ from the vertical | rad |\n"))
    })) == 1
    # ... except a declared vector-and-scalar twin (gravity's magnitude and vector)
    assert conflicts_within(notation(_nb(
        "| $g$ | gravitational acceleration | m/s² |\n"
        "| $\\mathbf g$ | gravity as a vector, $(0, -g)$ | m/s² |\n"))) == []
    # one meaning, two symbols: r_i in one notebook, x_i in another
    assert len(conflicts_across({
        "a": notation(_nb("| $\\mathbf r_i$ | position of the centre of mass | m |\n")),
        "b": notation(_nb("| $\\mathbf x_i$ | position of the centre of mass | m |\n"))
    })) == 1
    # ... but a shared row written as one TeX group or as several is the same row
    assert conflicts_across({
        "a": notation(_nb("| $K_P$, $K_D$ | gains | N m/rad, N m s/rad |\n")),
        "b": notation(_nb("| $K_P, K_D$ | gains | N m/rad, N m s/rad |\n"))}) == []
    # ... and members of an indexed family are the family
    assert conflicts_across({
        "a": notation(_nb("| $\\theta_i$ | angle of segment $i$ | rad |\n")),
        "b": notation(_nb("| $\\theta_1, \\theta_2$ | angle of segment $i$ | rad |\n"))}) == []
    # a dimensionless unit is written 1
    assert len(conflicts_within(notation(_nb("| $s$ | path fraction | - |\n")))) == 1
    # a notebook without a Notation cell, or without a table, is refused
    with pytest.raises(ValueError, match="Notation"):
        notation(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title")]))
    with pytest.raises(ValueError, match="table"):
        notation(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("## Notation\n")]))


def test_the_course_wide_table_lists_each_symbol_once():
    tables = {"a": notation(_nb("| $\\tau_i$ | net joint moment | N m |\n")),
              "b": notation(_nb("| $\\tau_i$ | net joint moment | N m |\n"
                                "| $g$ | gravity | m/s² |\n"))}
    table = tool.course_table(tables)
    assert table.count("$\\tau_i$") == 1 and "| a, b |" in table and "| b |" in table
    assert tool.main(["--check", *map(str, COURSE[:2])]) == 0
