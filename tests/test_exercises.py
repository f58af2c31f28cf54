"""Exercise sets: built with otter-grader, graded locally without Docker.

One build of every master notebook (``exercises/build.py``) and one grading run
(``exercises/grade.py``, the instructor's command) per session, both in subprocesses so that
otter's imports and warnings stay out of this process. Graded are the six solution notebooks
(every test passes, each with its own student's data), the six blank student notebooks
(every hidden test fails through a hint, none crashes) and one partially correct submission
(its exact score). Meanwhile the same partial submission runs in a plain Jupyter kernel from
the student folder, as a student runs it: ``grader.check`` must find its public tests there
(form only). The student versions must hold no solution marker, no solution line of the
master, no output and no hidden test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXERCISES = REPO / "exercises"
MASTERS = sorted(EXERCISES.glob("[0-9][0-9]_*.ipynb"))
STEMS = [m.stem for m in MASTERS]

pytestmark = pytest.mark.slow

# Set 1, partially answered: questions 1 and 3 right (2 + 2 points), question 2 wrong,
# questions 4 and 5 left blank.
PARTIAL_STEM = "01_one_link"
PARTIAL_RIGHT = {0: "q1", 2: "q3"}
PARTIAL_WRONG = {1: "sign_T = 1\nsign_Frx = -1\nsign_Fry = -1\n"}
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
    path.write_text(json.dumps(student, indent=1), encoding="utf-8")
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
    """Grade solutions, blank student versions and the partial submission; run the partial
    submission in a plain kernel from a copy of the student folder at the same time."""
    subs = tmp_path_factory.mktemp("submissions")
    for stem in STEMS:
        shutil.copy(dist / stem / "autograder" / f"{stem}.ipynb", subs / f"solution_{stem}.ipynb")
        shutil.copy(dist / stem / "student" / f"{stem}.ipynb", subs / f"blank_{stem}.ipynb")
    _partial(dist, subs)

    handout = tmp_path_factory.mktemp("handout") / PARTIAL_STEM
    shutil.copytree(dist / PARTIAL_STEM / "student", handout)
    mine = _partial(dist, handout)
    plain = subprocess.Popen([sys.executable, "-c", PLAIN_KERNEL, str(mine), str(handout)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env())

    report = subs.parent / "grades.json"
    done = _run([sys.executable, str(EXERCISES / "grade.py"), str(subs), "--dist", str(dist),
                 "--out", str(subs.parent / "grades.csv"), "--json", str(report),
                 "--jobs", "2"], timeout=900)
    out, err = plain.communicate(timeout=600)
    assert plain.returncode == 0, out + err
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {r["student_id"]: r for r in json.loads(report.read_text())}
    return {"rows": rows, "csv": subs.parent / "grades.csv", "plain": _read(mine)}


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
def test_autograder_passes_every_solution(graded, stem):
    row = graded["rows"][f"solution_{stem}"]
    points = _question_points(_read(EXERCISES / f"{stem}.ipynb"))
    assert row["status"] == "ok", row["error"]
    assert set(row["questions"]) == set(points)
    failed = {q: r["messages"] for q, r in row["questions"].items() if r["score"] != r["possible"]}
    assert not failed, failed
    assert row["total"] == row["possible"] == sum(points.values())


@pytest.mark.parametrize("stem", STEMS)
def test_autograder_fails_every_blank_question_with_a_hint(graded, stem):
    row = graded["rows"][f"blank_{stem}"]
    assert row["status"] == "ok", row["error"]
    assert row["total"] == 0 and row["possible"] > 0
    for name, result in row["questions"].items():
        for message in result["messages"]:
            # failed through a check's message, not a crash (NameError, TypeError ...)
            assert not re.match(r"\w+(Error|Exception):", message), (name, message)
            assert any(k in message for k in ("Hint:", "has no answer yet", "not defined yet",
                                              "returned nothing")), (name, message)


def test_autograder_scores_a_partial_submission(graded):
    row = graded["rows"][f"partial_{PARTIAL_STEM}"]
    assert row["status"] == "ok", row["error"]
    scores = {q: r["score"] for q, r in row["questions"].items()}
    assert scores == PARTIAL_SCORES
    assert row["total"] == sum(PARTIAL_SCORES.values()) == 4.0
    hint = row["questions"]["q2"]["messages"][0]
    assert "sign_T is not the right sign yet" in hint and "Hint:" in hint
    csv_text = graded["csv"].read_text()
    assert (f"partial_{PARTIAL_STEM},partial_{PARTIAL_STEM}.ipynb,bmc-01-one-link,4,11,ok,,"
            "2,0,2,0,0") in csv_text


def test_grader_check_works_in_a_plain_kernel_from_the_student_folder(graded):
    outputs = {}
    for cell in graded["plain"]["cells"]:
        match = re.fullmatch(r'grader\.check\("(q\d+)"\)', _source(cell).strip())
        if match:
            errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
            assert not errors, errors
            outputs[match.group(1)] = "".join(
                "".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"])
    assert set(outputs) == set(PARTIAL_SCORES)
    # the public tests judge the form only: q2's wrong signs are valid signs
    for q in ("q1", "q2", "q3"):
        assert "the form of your answer is right" in outputs[q], outputs[q]
    assert "has no answer yet" in outputs["q5"], outputs["q5"]
    assert "is not correct yet" not in "".join(outputs.values())  # no exact test there
