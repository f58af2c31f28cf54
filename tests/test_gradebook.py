"""The grade book an LMS takes as it is: Canvas and Moodle import files, and the flags.

The two validators below check a file against what each LMS documents and does on import:

- **Canvas** (Instructor Guide, "How do I import grades in the Gradebook?"; the importer
  ``app/models/gradebook_importer.rb`` of instructure/canvas-lms): comma- (or semicolon-)
  separated UTF-8; the header's first column contains "Student", the second "ID"; with
  "SIS User ID" and "SIS Login ID" as third and fourth columns, the fifth must be
  "Section" (the last student column); every further column is an assignment, matched by
  "Title (id)" or its title, and a column that is not one creates an assignment; a row
  whose first cell contains "Points Possible" gives the points; each student row is matched
  by ID, else SIS User ID, else SIS Login ID, else name; a grade is a number (a decimal
  comma is read too), blank or "EX".
- **Moodle** (MoodleDocs "Grade import"; ``grade/import/csv/classes/load_data.php``): UTF-8,
  comma separated (the separator is chosen at import), one header row naming the columns;
  the user is identified by one column mapped to ``userid``, ``useridnumber``, ``useremail``
  or ``username``, and a row with that field blank is skipped; a grade is a number
  (``unformat_float``), "-" or blank for no grade, at most the grade point maximum (100 by
  default); columns not mapped are ignored, a column mapped "new grade item" creates one.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))
import gradebook  # noqa: E402

_NUMBER = re.compile(r"^-?[0-9]+([.,][0-9]+)?$")


def _rows(text: str) -> list[list[str]]:
    text.encode("utf-8")  # UTF-8 only
    return list(csv.reader(io.StringIO(text)))


def valid_canvas(text: str) -> dict[str, str]:
    """Check a Canvas gradebook import file; return SIS User ID -> grade."""
    rows = _rows(text)
    head = rows[0]
    assert len(head) > 3 and "Student" in head[0] and "ID" in head[1], head
    student_columns = 3
    if re.search(r"SIS\s+Login\s+ID", head[2]):
        student_columns += 1
    elif re.search(r"SIS\s+User\s+ID", head[2]) and re.search(r"SIS\s+Login\s+ID", head[3]):
        student_columns += 2
    assert "Section" in head[student_columns - 1], head  # the last student column
    assignments = head[student_columns:]
    reserved = {"Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Integration ID",
                "Root Account", "Current Score", "Final Score"}
    assert assignments and not set(assignments) & reserved, assignments
    points = [r for r in rows[1:] if "Points Possible" in r[0]]
    assert len(points) == 1 and all(_NUMBER.match(v) for v in points[0][student_columns:])
    grades = {}
    sis = head.index("SIS User ID")
    for row in rows[1:]:
        if "Points Possible" in row[0]:
            continue
        assert len(row) == len(head), row
        assert any(row[i] for i in (0, 1, sis)), row  # someone Canvas can find
        for value in row[student_columns:]:
            assert value in ("", "EX") or _NUMBER.match(value), row
        grades[row[sis]] = row[student_columns]
    return grades


def valid_moodle(text: str, *, identifier: str = "ID number",
                 maximum: float = 100.0) -> dict[str, str]:
    """Check a Moodle CSV grade import file; return identifier -> grade."""
    rows = _rows(text)
    head = rows[0]
    assert identifier in head and len(set(head)) == len(head), head
    user = head.index(identifier)
    grades = {}
    item = [i for i, h in enumerate(head)
            if h not in ("First name", "Last name", "ID number", "Email address")]
    assert len(item) == 1, head
    for row in rows[1:]:
        assert len(row) == len(head) and row[user].strip(), row  # a blank user is skipped
        value = row[item[0]].strip()
        assert value in ("-", "") or (_NUMBER.match(value)
                                      and float(value.replace(",", ".")) <= maximum), row
        grades[row[user]] = value
    return grades


ROWS = [
    {"student_id": "ab2", "file": "ab2.ipynb", "assignment": "bmc-01-one-link", "total": 7.5,
     "possible": 11.0, "status": "ok"},
    {"student_id": "ab1", "file": "ab1.ipynb", "assignment": "bmc-01-one-link", "total": 11.0,
     "possible": 11.0, "status": "ok"},
    {"student_id": "zz9", "file": "zz9.ipynb", "assignment": "bmc-01-one-link", "total": 0.0,
     "possible": 11.0, "status": "timeout"},
    {"student_id": "cd3", "file": "cd3.ipynb", "assignment": "bmc-01-one-link", "total": 0.0,
     "possible": 0.0, "status": "grader-error"},
]
ROSTER = {"ab1": {"name": "Zimmer, Ada", "email": "ada@uni.example", "section": "L1",
                  "canvas_id": "1001", "sis_login_id": "ada"},
          "ab2": {"name": "Alan Brook", "email": "alan@uni.example"}}


def test_canvas_file_is_valid_sorted_and_keeps_every_score():
    text = gradebook.canvas_csv(ROWS, "Exercise set 1 (4321)", 11.0)
    grades = valid_canvas(text)
    assert grades == {"ab1": "11", "ab2": "7.5", "cd3": "", "zz9": "0"}
    assert list(grades) == sorted(grades)  # sorted by student
    assert text.splitlines()[1] == "    Points Possible,,,,,11"
    with_roster = _rows(gradebook.canvas_csv(ROWS, "Exercise set 1", 11.0, ROSTER))
    # by "Last, First" where the roster names a student, by id otherwise
    assert [r[2] for r in with_roster[2:]] == ["ab2", "cd3", "ab1", "zz9"]
    assert with_roster[4][:5] == ["Zimmer, Ada", "1001", "ab1", "ada", "L1"]


def test_moodle_file_is_valid_sorted_and_keeps_every_score():
    text = gradebook.moodle_csv(ROWS, "Exercise set 1")
    grades = valid_moodle(text)
    assert grades == {"ab1": "11", "ab2": "7.5", "cd3": "-", "zz9": "0"}
    named = _rows(gradebook.moodle_csv(ROWS, "Exercise set 1", ROSTER))
    assert named[1][:4] == ["Alan", "Brook", "ab2", "alan@uni.example"]
    assert named[3][:4] == ["Ada", "Zimmer", "ab1", "ada@uni.example"]
    # mapped by email, every student needs one (Moodle skips a row with a blank user)
    valid_moodle(gradebook.moodle_csv(ROWS[:2], "x", ROSTER), identifier="Email address")
    with pytest.raises(AssertionError):
        valid_moodle(gradebook.moodle_csv(ROWS, "x", ROSTER), identifier="Email address")


def test_the_validators_catch_what_an_lms_rejects():
    good = gradebook.canvas_csv(ROWS, "Set 1", 11.0)
    for bad in (good.replace("Student,ID", "Name,Number", 1),
                good.replace(",Section,", ",Group,", 1),
                good.replace(",11\r\n", ",eleven\r\n", 1),
                good.replace("    Points Possible", "Possible", 1)):
        with pytest.raises(AssertionError):
            valid_canvas(bad)
    moodle = gradebook.moodle_csv(ROWS, "Set 1")
    for bad in (moodle.replace("ID number", "Student", 1), moodle.replace(",11\r\n", ",110\r\n"),
                moodle.replace("\r\n,,ab1", "\r\n,,", 1)):
        with pytest.raises(AssertionError):
            valid_moodle(bad)


def test_an_id_a_spreadsheet_would_run_is_refused():
    hostile = [dict(ROWS[0], student_id="=HYPERLINK(\"x\")")]
    with pytest.raises(ValueError, match="formula"):
        gradebook.canvas_csv(hostile, "Set 1", 11.0)


def _notebook(*sources: str) -> dict:
    return {"cells": [{"cell_type": "code", "source": s, "outputs": [], "metadata": {}}
                      for s in sources]}


TEMPLATE = _notebook('import numpy as np\nSTUDENT_ID = "your student id"\n',
                     "def f(p):\n    ...\n\n\ntau = f(p)\n")


def _answer(name: str) -> str:
    return (f"def f(p):\n    {name}_inertia = p.inertia + p.mass * p.com**2\n"
            f"    {name}_load = p.load * p.length**2\n"
            f"    return ({name}_inertia + {name}_load) * p.alphadd + (p.mass * p.com + p.load"
            f" * p.length) * p.g * np.cos(p.alpha)\n\n\ntau = f(p)\n")


def test_typed_ids_and_near_copies_are_flagged():
    nbs = {"a": _notebook('STUDENT_ID = "a"', _answer("mine")),
           "b": _notebook('STUDENT_ID = "a"', _answer("mine") + "# copied\n"),
           "c": _notebook('STUDENT_ID = "c"', _answer("other")),
           "d": _notebook('STUDENT_ID = "your student id"'),
           "e": _notebook('STUDENT_ID = "e"', "def f(p):\n    ...\n\n\ntau = f(p)\n")}
    rows = [{"student_id": k} for k in nbs]
    flags = gradebook.flags(rows, nbs, TEMPLATE, threshold=0.8)
    assert "STUDENT_ID = 'a' but is filed as 'b'" in flags["b"][0]
    assert any("near copy of b" in f for f in flags["a"])
    assert flags["c"] == [] and flags["e"] == []  # own names; the template is left out
    assert flags["d"] == ["STUDENT_ID was left empty or as the placeholder (graded with the "
                          "filed id's data)"]
    assert gradebook.typed_id(_notebook("x = 1", 'STUDENT_ID = "q"', "STUDENT_ID = name")) \
        == "q"  # a literal only: the notebook is read, never run


def test_write_gradebook_writes_the_files_and_neutralises_typed_text(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    rows = [dict(ROWS[0], student_id="ab2"), dict(ROWS[1])]
    (subs / "ab2.ipynb").write_text(json.dumps(_notebook('STUDENT_ID = "=cmd|x"')))
    (subs / "ab1.ipynb").write_text(json.dumps(_notebook('STUDENT_ID = "ab1"')))
    files = {p.name: p for p in subs.iterdir()}
    written = gradebook.write_gradebook(rows, files, tmp_path / "book")
    assert {p.name for p in written} == {"canvas_bmc-01-one-link.csv",
                                         "moodle_bmc-01-one-link.csv", "review.csv"}
    with open(tmp_path / "book" / "review.csv", encoding="utf-8") as handle:
        review = list(csv.reader(handle))
    assert review[0] == ["student_id", "file", "assignment", "total", "possible", "status",
                         "typed_id", "flags"]
    assert [r[0] for r in review[1:]] == ["ab1", "ab2"]
    assert review[2][6] == "'=cmd|x"  # what a student typed is shown as text
    assert "STUDENT_ID = '=cmd|x' but is filed as 'ab2'" in review[2][7]
