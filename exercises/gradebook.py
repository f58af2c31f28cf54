"""The grade book an LMS takes as it is, and what the instructor should look at.

Usage (after ``grade.py ... --json grades.json``, or by ``grade.py --gradebook DIR``)::

    python exercises/gradebook.py grades.json submissions/ --out gradebook/ [--roster roster.csv]

writes, per exercise set (otter assignment), sorted by student:

- ``canvas_<assignment>.csv``: Canvas's gradebook import format (columns ``Student, ID,
  SIS User ID, SIS Login ID, Section`` and one assignment column, a ``Points Possible``
  row; the student id goes to ``SIS User ID``, by which Canvas matches the student);
- ``moodle_<assignment>.csv``: Moodle's CSV grade import (``First name, Last name, ID
  number, Email address`` and one grade column; map "ID number" to ``useridnumber``);
- ``review.csv``: one row per submission with its status and its *flags*: a notebook
  whose typed ``STUDENT_ID`` differs from the id it is filed under, and near copies (the
  student-written code of two submissions, comments and whitespace removed, shares most of
  its 5-token sequences; the template every student starts from is left out).

The optional roster (``--roster``, the same file as ``grade.py --ids``) maps a file to its
``student_id`` and may give ``name`` ("Last, First" or "First Last"), ``email``,
``section``, ``canvas_id`` and ``sis_login_id`` for the LMS files.
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import io
import itertools
import json
import sys
import tokenize
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["canvas_csv", "code_tokens", "flags", "identity_flag", "main", "moodle_csv",
           "near_copies", "read_roster", "templates", "typed_id", "write_gradebook"]

_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}
_FORMULA = ("=", "+", "@", "\t", "\r")


def _code_cells(notebook: Any) -> list[str]:
    cells = notebook.get("cells", []) if isinstance(notebook, Mapping) else getattr(
        notebook, "cells", [])
    out = []
    for cell in cells:
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            out.append("".join(source) if isinstance(source, list) else str(source))
    return out


def typed_id(notebook: Any) -> str | None:
    """The ``STUDENT_ID = "..."`` a notebook's cells assign last (read, never run)."""
    found = None
    for source in _code_cells(notebook):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name)
                                                     and t.id == "STUDENT_ID"
                                                     for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                found = node.value.value.strip()
    return found


def identity_flag(typed: str | None, student: str) -> str:
    """What to tell the instructor about the ``STUDENT_ID`` typed in a notebook.

    Empty if it is the student's id (or absent); a note if it is still the placeholder; a
    flag if it is another id: a notebook handed in by one student with another's id in it.
    """
    from bmc.checks import PLACEHOLDER_ID

    if typed is None or typed == student:
        return ""
    if typed.strip().lower() in (PLACEHOLDER_ID, ""):
        return ("STUDENT_ID was left empty or as the placeholder (graded with the filed id's "
                "data)")
    return (f"the notebook says STUDENT_ID = {typed!r} but is filed as {student!r}: a "
            "copy? (graded with the filed id's data)")


def code_tokens(notebook: Any, template: Any = None) -> list[str]:
    """The student-written code as tokens: comments, whitespace and template lines removed."""
    skip = {line.strip() for source in (_code_cells(template) if template else [])
            for line in source.splitlines()}
    kept = "\n".join(line for source in _code_cells(notebook)
                     for line in source.splitlines()
                     if line.strip() and line.strip() not in skip
                     and not line.lstrip().startswith(("%", "!")))
    tokens = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(kept).readline):
            if tok.type not in _SKIP:
                tokens.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        tokens = kept.split()
    return tokens


def _shingles(tokens: list[str], k: int = 5) -> set[str]:
    return {hashlib.sha1(" ".join(tokens[i:i + k]).encode()).hexdigest()[:16]
            for i in range(max(len(tokens) - k + 1, 0))}


def near_copies(notebooks: Mapping[str, Any], template: Any = None, *,
                threshold: float = 0.8, min_tokens: int = 40
                ) -> list[tuple[str, str, float]]:
    """Pairs of submissions whose student-written code is nearly the same.

    Parameters
    ----------
    notebooks : mapping
        Student id -> notebook (a parsed ``.ipynb``).
    template : notebook, optional
        The student version every submission started from; its lines are left out.
    threshold : float, optional
        Jaccard similarity of the 5-token sequences at or above which a pair is a near copy.
    min_tokens : int, optional
        Submissions with less student-written code (empty ones) are never compared.

    Returns
    -------
    list of (id, id, similarity)
        Sorted by decreasing similarity.
    """
    prints = {}
    for sid, nb in notebooks.items():
        tokens = code_tokens(nb, template)
        if len(tokens) >= min_tokens:
            prints[sid] = _shingles(tokens)
    pairs = []
    for a, b in itertools.combinations(sorted(prints), 2):
        union = prints[a] | prints[b]
        score = len(prints[a] & prints[b]) / len(union) if union else 0.0
        if score >= threshold:
            pairs.append((a, b, round(score, 3)))
    return sorted(pairs, key=lambda p: (-p[2], p[0], p[1]))


def flags(rows: Iterable[Mapping[str, Any]], notebooks: Mapping[str, Any],
          template: Any = None, *, threshold: float = 0.8) -> dict[str, list[str]]:
    """What the instructor should look at, per student id: typed ids and near copies."""
    out: dict[str, list[str]] = {}
    for row in rows:
        sid = str(row["student_id"])
        flag = identity_flag(typed_id(notebooks[sid]) if sid in notebooks else None, sid)
        out.setdefault(sid, []).extend([flag] if flag else [])
    for a, b, score in near_copies(notebooks, template, threshold=threshold):
        out.setdefault(a, []).append(f"near copy of {b}'s code (similarity {score:.2f})")
        out.setdefault(b, []).append(f"near copy of {a}'s code (similarity {score:.2f})")
    return out


def read_roster(path: Path | None) -> dict[str, dict[str, str]]:
    """Roster rows by student id (columns ``file, student_id`` and optional LMS fields)."""
    if path is None:
        return {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return {r["student_id"].strip(): {k: (v or "").strip() for k, v in r.items() if k}
                for r in csv.DictReader(handle) if r.get("student_id")}


def _safe(text: str, what: str) -> str:
    """Refuse text a spreadsheet would run as a formula (a roster or file name to fix)."""
    if text.startswith(_FORMULA):
        raise ValueError(f"{what} {text!r} starts with {text[0]!r}, which a spreadsheet "
                         "would read as a formula: fix it in the roster or the file name")
    return text


def _score(row: Mapping[str, Any]) -> str:
    """The total, or empty where nothing was graded (a grader fault, no autograder)."""
    if row.get("status") in ("grader-error", "no-autograder"):
        return ""
    return f"{float(row['total']):g}"


def _order(rows: Iterable[Mapping[str, Any]], roster: Mapping[str, Mapping[str, str]]
           ) -> list[Mapping[str, Any]]:
    """Rows by student: by "Last, First" where the roster names them, else by id."""
    def key(row):
        sid = str(row["student_id"])
        name = roster.get(sid, {}).get("name", "")
        if name:
            first, last = _split_name(name)
            name = f"{last}, {first}"
        return (name or sid).casefold(), sid
    return sorted(rows, key=key)


def _split_name(name: str) -> tuple[str, str]:
    if "," in name:
        last, first = (part.strip() for part in name.split(",", 1))
        return first, last
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name, "")


def _write(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def canvas_csv(rows: Iterable[Mapping[str, Any]], title: str, possible: float,
               roster: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """One exercise set as a Canvas gradebook import file (UTF-8, comma separated).

    The header names the student columns Canvas expects and the assignment ``title``
    (as it is, or ``"Title (canvas assignment id)"`` to update an existing one); the
    ``Points Possible`` row follows; each student is matched by ``SIS User ID``.
    """
    roster = roster or {}
    out = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", _safe(title, "title")],
           ["    Points Possible", "", "", "", "", f"{possible:g}"]]
    for row in _order(rows, roster):
        sid = str(row["student_id"])
        info = roster.get(sid, {})
        out.append([_safe(info.get("name", ""), "name"), _safe(info.get("canvas_id", ""),
                                                                "Canvas ID"),
                    _safe(sid, "student id"), _safe(info.get("sis_login_id", ""), "login"),
                    _safe(info.get("section", ""), "section"), _score(row)])
    return _write(out)


def moodle_csv(rows: Iterable[Mapping[str, Any]], item: str,
               roster: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """One exercise set as a Moodle CSV grade import file (UTF-8, comma separated).

    Columns ``First name, Last name, ID number, Email address`` and the grade ``item``; at
    import, map "ID number" to ``useridnumber`` (or "Email address" to ``useremail``) and
    the grade column to the grade item.
    """
    roster = roster or {}
    out = [["First name", "Last name", "ID number", "Email address", _safe(item, "item")]]
    for row in _order(rows, roster):
        sid = str(row["student_id"])
        info = roster.get(sid, {})
        first, last = _split_name(info.get("name", ""))
        out.append([_safe(first, "name"), _safe(last, "name"), _safe(sid, "student id"),
                    _safe(info.get("email", ""), "email"), _score(row) or "-"])
    return _write(out)


def _neutral(text: str) -> str:
    """Text a spreadsheet shows as text (for what students typed)."""
    return "'" + text if text.startswith((*_FORMULA, "-")) else text


def write_gradebook(rows: list[Mapping[str, Any]], files: Mapping[str, Path], out: Path, *,
                    roster: Mapping[str, Mapping[str, str]] | None = None,
                    templates: Mapping[str, Any] | None = None,
                    threshold: float = 0.8) -> list[Path]:
    """Write the Canvas and Moodle files of every set, and ``review.csv``.

    Parameters
    ----------
    rows : list of dict
        ``grade.py``'s rows (``student_id, file, assignment, total, possible, status``).
    files : mapping
        File name -> path of each submission (read, never run, for the flags).
    out : Path
        Folder for the files.
    roster : mapping, optional
        :func:`read_roster`'s result.
    templates : mapping, optional
        Assignment -> its student version (left out of the near-copy comparison).
    threshold : float, optional
        Similarity of a near copy.

    Returns
    -------
    list of Path
        The files written.
    """
    from grade import load_submission

    def read(path: Path) -> dict:  # within grade.py's caps; a link or a FIFO is refused
        return {"cells": [{"cell_type": "code", "source": c}
                          for c in load_submission(path).cells]}

    roster = roster or {}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    review = [["student_id", "file", "assignment", "total", "possible", "status", "typed_id",
               "flags"]]
    for assignment in sorted({str(r["assignment"]) for r in rows}):
        group = [r for r in rows if str(r["assignment"]) == assignment]
        notebooks = {}
        for r in group:
            try:
                notebooks[str(r["student_id"])] = read(files[r["file"]])
            except (KeyError, OSError, ValueError):
                pass
        marks = flags(group, notebooks, (templates or {}).get(assignment),
                      threshold=threshold)
        possible = max(float(r.get("possible") or 0) for r in group)
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in assignment)
        for name, text in ((f"canvas_{stem}.csv", canvas_csv(group, assignment, possible,
                                                              roster)),
                           (f"moodle_{stem}.csv", moodle_csv(group, assignment, roster))):
            (out / name).write_text(text, encoding="utf-8", newline="")
            written.append(out / name)
        for r in _order(group, roster):
            sid = str(r["student_id"])
            typed = typed_id(notebooks[sid]) if sid in notebooks else None
            review.append([_neutral(sid), _neutral(str(r["file"])), assignment,
                           f"{float(r['total']):g}", f"{float(r['possible']):g}",
                           str(r["status"]), _neutral(typed or ""),
                           _neutral("; ".join(marks.get(sid, [])))])
    (out / "review.csv").write_text(_write(review), encoding="utf-8", newline="")
    written.append(out / "review.csv")
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("grades", type=Path, help="grade.py's --json file")
    parser.add_argument("submissions", type=Path, help="the folder of the submissions")
    parser.add_argument("--out", type=Path, default=Path("gradebook"))
    parser.add_argument("--roster", type=Path, help="CSV with file, student_id (and name, "
                        "email, section, canvas_id, sis_login_id)")
    parser.add_argument("--dist", type=Path, default=Path(__file__).resolve().parent / "dist",
                        help="build.py's output, for the student versions (templates)")
    parser.add_argument("--threshold", type=float, default=0.8)
    args = parser.parse_args(argv)
    rows = json.loads(args.grades.read_text(encoding="utf-8"))
    files = {p.name: p for p in args.submissions.iterdir() if p.is_file()}
    for path in write_gradebook(rows, files, args.out, roster=read_roster(args.roster),
                                templates=templates(args.dist), threshold=args.threshold):
        print(path)
    return 0


def templates(dist: Path) -> dict[str, Any]:
    """Assignment name -> student version, from build.py's output folder."""
    found = {}
    for path in sorted(dist.glob("*/student/*.ipynb")) if dist.is_dir() else []:
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = nb.get("metadata", {}).get("otter", {}).get("assignment_name")
        if isinstance(name, str):
            found[name] = nb
    return found


if __name__ == "__main__":
    sys.exit(main())
