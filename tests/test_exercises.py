"""Exercise sets: built with otter-grader, checked as students see them, graded locally.

One build of every master notebook (``exercises/build.py``) and one grading run
(``exercises/grade.py``, the instructor's command, with ``--gradebook``) per session, both
in subprocesses so that otter's imports and warnings stay out of this process. Graded are
the six solution notebooks (every test passes, each with its own student's data), the six
blank student notebooks (every hidden test fails through a message, none crashes), one
partially correct submission (its exact score) and the class of 12 of
``tests/classroom.py`` (its exact scores, the copy flagged, the LMS files written).
Meanwhile the partial submission runs in a plain Jupyter kernel from the student folder,
as a student runs it: every check cell is headed with what it judged, and none says
"passed" for a value it did not judge. The blank student versions, run with their checks,
pass nothing: no placeholder passes. The student versions hold no solution marker, no
solution line of the master, no output and no hidden test.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import classroom  # noqa: E402  (the class of 12, shared with the Gradescope test)

REPO = Path(__file__).resolve().parents[1]
EXERCISES = REPO / "exercises"
MASTERS = sorted(EXERCISES.glob("[0-9][0-9]_*.ipynb"))
STEMS = [m.stem for m in MASTERS]

pytestmark = pytest.mark.slow

# Set 1, partially answered: questions 1 and 3 right (2 + 2 points), question 2's practice
# signs wrong, questions 4 and 5 left blank.
PARTIAL_STEM = "01_one_link"
PARTIAL_RIGHT = {0: "q1", 2: "q3"}
PARTIAL_WRONG = {1: "practice_signs = (1, 1, 1)\nsign_tau = 1\nsign_Frx = -1\nsign_Fry = -1\n"}
PARTIAL_SCORES = {"q1": 2.0, "q2": 0.0, "q3": 2.0, "q4": 0.0, "q5": 0.0}


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _answer_cells(nb: dict, tag: str) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"
            and tag in c.get("metadata", {}).get("tags", [])]


def _question_points(master: dict) -> dict[str, float]:
    points = {}
    for cell in master["cells"]:
        text = _source(cell)
        if cell["cell_type"] == "raw" and text.startswith("# BEGIN QUESTION"):
            name = re.search(r"^name:\s*(\S+)", text, re.M).group(1)
            points[name] = float(re.search(r"^points:\s*(\S+)", text, re.M).group(1))
    return points


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["PYTHONWARNINGS"] = "ignore"  # otter's own deprecation noise, not under test here
    return env


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, env=_env(), **kwargs)


def _with_id(nb: dict, sid: str) -> dict:
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = _source(cell).replace('"your student id"', f'"{sid}"')
    return nb


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """Every exercise set built once (student and autograder versions)."""
    out = tmp_path_factory.mktemp("exercises") / "dist"
    done = _run([sys.executable, str(EXERCISES / "build.py"), "--out", str(out),
                 "--no-run-tests", "--no-environment"], timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _partial(dist: Path, folder: Path) -> Path:
    """Write the partially answered set-1 notebook into ``folder``."""
    student = _read(dist / PARTIAL_STEM / "student" / f"{PARTIAL_STEM}.ipynb")
    solution = _read(dist / PARTIAL_STEM / "autograder" / f"{PARTIAL_STEM}.ipynb")
    answers = _answer_cells(student, "otter_answer_cell")
    solved = _answer_cells(solution, "otter_assign_solution_cell")
    assert len(answers) == len(solved) == len(PARTIAL_SCORES)
    for i in PARTIAL_RIGHT:
        answers[i]["source"] = solved[i]["source"]
    for i, text in PARTIAL_WRONG.items():
        answers[i]["source"] = text
    path = folder / f"partial_{PARTIAL_STEM}.ipynb"
    path.write_text(json.dumps(_with_id(student, "s-partial"), indent=1), encoding="utf-8")
    return path


PLAIN_KERNEL = """
import sys, nbformat
from nbclient import NotebookClient
path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
               resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(nb, path)
"""


@pytest.fixture(scope="session")
def graded(dist, tmp_path_factory) -> dict:
    """Grade solutions, blank student versions, the partial submission and the class of 12;
    run the partial submission in a plain kernel from a copy of the student folder."""
    subs = tmp_path_factory.mktemp("submissions")
    for stem in STEMS:
        shutil.copy(dist / stem / "autograder" / f"{stem}.ipynb", subs / f"solution_{stem}.ipynb")
        shutil.copy(dist / stem / "student" / f"{stem}.ipynb", subs / f"blank_{stem}.ipynb")
    _partial(dist, subs)
    classroom.write(dist / classroom.STEM / "student" / f"{classroom.STEM}.ipynb", subs)

    handout = tmp_path_factory.mktemp("handout") / PARTIAL_STEM
    shutil.copytree(dist / PARTIAL_STEM / "student", handout)
    mine = _partial(dist, handout)
    plain = subprocess.Popen([sys.executable, "-c", PLAIN_KERNEL, str(mine), str(handout)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env())

    report = subs.parent / "grades.json"
    book = subs.parent / "gradebook"
    done = _run([sys.executable, str(EXERCISES / "grade.py"), str(subs), "--dist", str(dist),
                 "--out", str(subs.parent / "grades.csv"), "--json", str(report),
                 "--gradebook", str(book), "--jobs", "2"], timeout=900)
    out, err = plain.communicate(timeout=600)
    assert plain.returncode == 0, out + err
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {r["student_id"]: r for r in json.loads(report.read_text())}
    return {"rows": rows, "csv": subs.parent / "grades.csv", "plain": _read(mine),
            "book": book}


def test_every_topic_has_a_master_with_at_least_three_questions():
    # six topics: one-link, two-link, matrix formalism, gait, reactions, least squares
    assert len(MASTERS) == 6, STEMS
    for master in MASTERS:
        assert len(_question_points(_read(master))) >= 3, master.name


def test_build_writes_student_and_autograder_versions(dist):
    for stem in STEMS:
        assert (dist / stem / "student" / f"{stem}.ipynb").is_file()
        assert list((dist / stem / "student" / "tests").glob("q*.py")), stem
        assert (dist / stem / f"{stem}-autograder.zip").is_file()
        assert (dist / stem / f"{stem}-student.zip").is_file()
        student_tests = "".join(p.read_text() for p in
                                (dist / stem / "student" / "tests").glob("q*.py"))
        assert "hidden=True" not in student_tests and "bmc_answers" not in student_tests
        assert not list((dist / stem / "student").rglob("bmc_answers*"))


@pytest.mark.parametrize("stem", STEMS)
def test_student_version_reveals_no_solution(dist, stem):
    master = _read(EXERCISES / f"{stem}.ipynb")
    student = _read(dist / stem / "student" / f"{stem}.ipynb")
    texts = [_source(c) for c in student["cells"]]
    lines = {line.strip() for t in texts for line in t.splitlines()}
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "# SOLUTION"):
        assert not any(marker in t for t in texts), f"{stem}: marker {marker!r} left"
    assert all(not c.get("outputs") for c in student["cells"] if c["cell_type"] == "code")
    # Solution lines of the master: '... # SOLUTION' lines and lines inside BEGIN/END
    # SOLUTION comments of solution blocks, and the Markdown solutions.
    solution, in_block = [], False
    for cell in master["cells"]:
        text = _source(cell)
        if cell["cell_type"] == "raw":
            in_block = {"# BEGIN SOLUTION": True, "# END SOLUTION": False}.get(
                text.strip(), in_block)
            continue
        if not in_block:
            continue
        if cell["cell_type"] == "markdown":
            solution.append(text.strip())
            continue
        inside = False
        for line in text.splitlines():
            if line.strip().startswith("# BEGIN SOLUTION"):
                inside = True
            elif line.strip().startswith("# END SOLUTION"):
                inside = False
            elif inside or line.rstrip().endswith("# SOLUTION"):
                code = line.replace("# SOLUTION", "").strip()
                if code and not code.startswith("#"):
                    solution.append(code)
    assert solution, f"{stem}: no solution found in the master (parser out of date?)"
    for sol in solution:
        leaked = any(sol in t for t in texts) if "\n" in sol else sol in lines
        assert not leaked, f"{stem}: solution in the student version: {sol[:70]!r}"


@pytest.mark.parametrize("stem", STEMS)
def test_every_check_cell_is_headed_by_what_it_judged(dist, stem):
    student = _read(dist / stem / "student" / f"{stem}.ipynb")
    checks_cells = [_source(c) for c in student["cells"] if "grader.check" in _source(c)]
    assert checks_cells and all(c.startswith("checks.report(grader.check") for c in
                                checks_cells), checks_cells


@pytest.mark.parametrize("stem", STEMS)
def test_the_autograder_zip_keeps_the_answers_out_of_the_students_folder(dist, stem):
    import zipfile

    with zipfile.ZipFile(dist / stem / f"{stem}-autograder.zip") as zf:
        names = zf.namelist()
        config = json.loads(zf.read("otter_config.json"))
    assert any(n.startswith("bmc_answers/") for n in names)
    assert not any(n.startswith("files/") and "bmc_answers" in n for n in names)
    assert config["plugins"] == [{"bmc_grading.gradescope.BmcGrading": {}}]
    assert config["show_hidden"] is True and config["force_public_test_summary"] is False


@pytest.mark.parametrize("stem", STEMS)
def test_autograder_passes_every_solution(graded, stem):
    row = graded["rows"][f"solution_{stem}"]
    points = _question_points(_read(EXERCISES / f"{stem}.ipynb"))
    assert row["status"] == "ok", row["error"]
    assert set(row["questions"]) == set(points)
    failed = {q: r["messages"] for q, r in row["questions"].items() if r["score"] != r["possible"]}
    assert not failed, failed
    assert row["total"] == row["possible"] == sum(points.values())


@pytest.mark.parametrize("stem", STEMS)
def test_autograder_fails_every_blank_question_with_a_message(graded, stem):
    row = graded["rows"][f"blank_{stem}"]
    assert row["status"] == "ok", row["error"]
    assert row["total"] == 0 and row["possible"] > 0
    for name, result in row["questions"].items():
        for message in result["messages"]:
            # failed through a check's message, not a crash (NameError, TypeError ...)
            assert not re.match(r"\w+(Error|Exception):", message), (name, message)
            assert any(k in message for k in ("has no answer yet", "not defined",
                                              "returned nothing", "must be",
                                              "not correct yet", "not all right",
                                              "not right yet", "raised")), (name, message)


def test_autograder_scores_a_partial_submission(graded):
    row = graded["rows"][f"partial_{PARTIAL_STEM}"]
    assert row["status"] == "ok", row["error"]
    scores = {q: r["score"] for q, r in row["questions"].items()}
    assert scores == PARTIAL_SCORES
    assert row["total"] == sum(PARTIAL_SCORES.values()) == 4.0
    message = row["questions"]["q2"]["messages"][0]
    assert message.startswith("sign_tau, sign_Frx, sign_Fry are not all right yet")
    csv_text = graded["csv"].read_text()
    assert (f"partial_{PARTIAL_STEM},partial_{PARTIAL_STEM}.ipynb,bmc-01-one-link,4,11,ok,,"
            "2,0,2,0,0") in csv_text


def _reports(nb: dict) -> dict[str, str]:
    outputs = {}
    for cell in nb["cells"]:
        match = re.fullmatch(r'checks\.report\(grader\.check\("(q\d+)"\)\)', _source(cell).strip())
        if match:
            errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
            assert not errors, errors
            outputs[match.group(1)] = "".join(
                "".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"])
    return outputs


def test_grader_check_works_in_a_plain_kernel_from_the_student_folder(graded):
    outputs = _reports(graded["plain"])
    assert set(outputs) == set(PARTIAL_SCORES)
    assert outputs["q1"].startswith("✅ q1: right on the practice data")
    assert outputs["q3"].startswith("✅ q3: right on the practice data")
    # q2's practice signs are wrong: said so; its graded signs are never judged here
    assert outputs["q2"].startswith("❌ q2: not right yet"), outputs["q2"]
    assert "practice_signs" in outputs["q2"]
    assert "is not defined yet" in outputs["q4"] or "returned nothing" in outputs["q4"]
    assert "returned nothing" in outputs["q5"], outputs["q5"]
    assert "passed" not in "".join(outputs.values())


class _TestCase:
    """Stands for otter's ``test_case`` decorator: keeps the test function (no otter here)."""

    def __init__(self, **config) -> None:
        self.config = config

    def __call__(self, func):
        self.test_func = func
        return self


@pytest.mark.parametrize("stem", STEMS)
def test_no_placeholder_passes_a_check(dist, stem, monkeypatch):
    # The blank student version, run as a student would (with an id), then every public
    # check on what it left: none is right, none is "judged at grading"
    import inspect
    import types

    from bmc.checks import IncorrectAnswer, _core

    # the notebook's problem(..., student=...) is remembered for later calls: undo it after
    monkeypatch.setattr(_core, "_LAST_STUDENT", None)
    notebook = types.SimpleNamespace(check=lambda q: None, check_all=lambda: None)
    monkeypatch.setitem(sys.modules, "otter", types.SimpleNamespace(
        Notebook=lambda *a, **k: notebook))
    monkeypatch.setitem(sys.modules, "otter.test_files",
                        types.SimpleNamespace(test_case=_TestCase))
    blank = _with_id(_read(dist / stem / "student" / f"{stem}.ipynb"), "s-blank")
    namespace: dict = {"__name__": "__main__"}
    for cell in blank["cells"]:
        if cell["cell_type"] == "code":
            try:
                exec(compile(_source(cell), "<cell>", "exec"), namespace)
            except Exception:  # noqa: BLE001 (a blank answer may not even run)
                pass
    cases = []
    for path in sorted((dist / stem / "student" / "tests").glob("q*.py")):
        env: dict = {}
        exec(compile(path.read_text(), str(path), "exec"), env)
        cases += [(path.stem, v.test_func) for v in env.values() if isinstance(v, _TestCase)]
    assert cases
    for _question, func in cases:
        args = [namespace.get(name) for name in inspect.signature(func).parameters]
        with pytest.raises(IncorrectAnswer):  # not JudgedAtGrading, not a pass
            func(*args)


def test_the_class_of_12_gets_the_scores_its_answers_deserve(graded):
    for sid, score in classroom.EXPECTED.items():
        row = graded["rows"][sid]
        assert row["status"] == "ok", (sid, row["error"])
        assert row["total"] == score, (sid, classroom.STUDENTS[sid][2], row["questions"])


def test_an_exception_is_reported_once_and_the_question_that_depends_on_it_says_so(graded):
    row = graded["rows"]["s11"]["questions"]
    first = row["q1"]["messages"][0]
    assert first.startswith("the cell of Z raised ValueError") and "line 5" in first, first
    later = row["q3"]["messages"][0]
    assert "the same error as the cell of open_constraint_Z" in later, later
    assert "could not convert" not in later  # the error itself is told once


def _csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_the_copy_is_flagged_in_the_grade_book(graded):
    review = {r[0]: r for r in _csv(graded["book"] / "review.csv")[1:]
              if r[2] == classroom.ASSIGNMENT}
    a, b = classroom.COPY
    assert "the notebook says STUDENT_ID = 's01' but is filed as 's12'" in review[b][7]
    assert f"near copy of {b}" in review[a][7] and f"near copy of {a}" in review[b][7]
    others = {sid: r[7] for sid, r in review.items() if sid in classroom.EXPECTED
              and sid not in classroom.COPY and r[7]}
    assert not others, others  # every other student wrote their own code


def test_the_grade_book_has_one_canvas_and_one_moodle_file_per_set(graded):
    import test_gradebook

    canvas = graded["book"] / f"canvas_{classroom.ASSIGNMENT}.csv"
    moodle = graded["book"] / f"moodle_{classroom.ASSIGNMENT}.csv"
    test_gradebook.valid_canvas(canvas.read_text(encoding="utf-8"))
    test_gradebook.valid_moodle(moodle.read_text(encoding="utf-8"))
    rows = _csv(canvas)
    ids = [r[2] for r in rows[2:]]
    assert ids == sorted(ids) and set(classroom.EXPECTED) <= set(ids)  # sorted by student
    scores = {r[2]: float(r[5]) for r in rows[2:]}
    assert all(scores[sid] == s for sid, s in classroom.EXPECTED.items())
    assert {p.name for p in graded["book"].glob("canvas_*.csv")} == {
        f"canvas_bmc-0{i}-{n}.csv" for i, n in enumerate(
            ["one-link", "two-link", "matrix-formalism", "gait", "joint-reactions",
             "least-squares"], start=1)}
