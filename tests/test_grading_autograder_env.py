"""The autograder zip alone builds a grading environment, and grades as ``grade.py`` does.

This is what otter's Docker mode and Gradescope do with ``NN_topic-autograder.zip``: create
an environment from the zip's ``requirements.txt`` (the course's exact pins) and its wheels
(``files/``: ``bmc`` and the otter plugin ``bmc_grading``), then run otter's own grader.
Here the environment is a fresh virtual environment of this Python, and Gradescope is
simulated: each submission gets its own ``autograder/`` folder (``source/`` the unzipped
autograder, ``submission/`` the notebook, ``submission_metadata.json`` in Gradescope's
documented format naming the student) and otter's entry point ``run_autograder`` runs on it,
as the zip's ``run_otter.py`` does on Gradescope. ``otter run`` (no metadata: the file's
name is the id) is run once too.

The class of 12 of ``tests/classroom.py`` (set 5) must get the same scores as from
``grade.py`` (sandboxed, in this environment), and the copy must be flagged in the plugin's
report; a thirteenth submission that imports the grader's ``bmc_answers`` must find it
missing.

Slow, so it runs only with ``BMC_TEST_AUTOGRADER_ENV=1``: on the shared 2-core machine at a
load of 12-14, building the zip and installing its pins took 613 s, grading the 13
notebooks both ways (grade.py, then Gradescope two at a time, 20-30 s each) 257 s, and
``otter run`` 36 s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import classroom  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
STEM = classroom.STEM

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.environ.get("BMC_TEST_AUTOGRADER_ENV") != "1",
                                 reason="set BMC_TEST_AUTOGRADER_ENV=1 (installs the pins)")]

ATTACK = '''
try:
    import bmc_answers  # the grader's answers, if a submission could reach them
    largest_vertical = "bmc_answers is importable"
except ImportError:
    pass
'''


def _clean_env() -> dict[str, str]:
    """Only the venv's packages: no PYTHONPATH, no user site (run from a clean folder too)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OPENBLAS_NUM_THREADS="1", PYTHONNOUSERSITE="1")
    return env


def _gradescope(venv: Path, source: Path, notebook: Path, student: str, work: Path) -> dict:
    """Grade one notebook as Gradescope does; return its results and the report."""
    ag = work / "autograder"
    shutil.copytree(source, ag / "source")
    (ag / "submission").mkdir()
    (ag / "results").mkdir()
    shutil.copy(notebook, ag / "submission" / notebook.name)
    (ag / "submission_metadata.json").write_text(json.dumps({  # Gradescope's format
        "id": 123456, "created_at": "2026-01-12T14:22:32.365935-07:00",
        "assignment": {"id": 25828, "course_id": 1234, "title": classroom.ASSIGNMENT,
                       "total_points": "9.0", "due_date": None, "group_size": None,
                       "group_submission": False, "late_due_date": None,
                       "release_date": None},
        "submission_method": "upload", "previous_submissions": [],
        "users": [{"email": f"{student}@uni.example", "id": 1000, "name": student,
                   "sid": student}]}))
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         f"from otter.run.run_autograder import main; main({str(ag)!r})"],
        capture_output=True, text=True, env=_clean_env(), cwd=work, timeout=900)
    results = json.loads((ag / "results" / "results.json").read_text())
    return {"returncode": done.returncode, "output": done.stdout + done.stderr,
            "results": results,
            "total": sum(t["score"] for t in results["tests"] if "score" in t),
            "possible": sum(t["max_score"] for t in results["tests"] if "max_score" in t)}


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    """Set 5 built with its environment, and a fresh venv built from the zip alone."""
    tmp = tmp_path_factory.mktemp("autograder-env")
    dist = tmp / "dist"
    subprocess.run([sys.executable, str(REPO / "exercises" / "build.py"), STEM, "--out",
                    str(dist), "--no-run-tests"], check=True, capture_output=True)
    zip_path = dist / STEM / f"{STEM}-autograder.zip"
    source = tmp / "source"
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(source)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheels = sorted((source / "files").glob("*.whl"))
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-r",
                    str(source / "requirements.txt"), *map(str, wheels)],
                   check=True, cwd=tmp, env=_clean_env(), timeout=1800)
    return {"tmp": tmp, "dist": dist, "zip": zip_path, "source": source, "venv": venv,
            "wheels": wheels}


def test_the_zip_holds_the_pins_the_plugin_and_the_answers_out_of_reach(environment):
    source = environment["source"]
    names = {w.name.split("-")[0] for w in environment["wheels"]}
    assert names == {"bmc", "bmc_grading"}  # no wheel of bmc_answers: it is never installed
    assert (source / "bmc_answers" / "__init__.py").is_file()
    assert not any("bmc_answers" in p.name for p in (source / "files").iterdir())
    yml = (source / "environment.yml").read_text()
    assert "-r /autograder/source/requirements.txt" in yml and "bmc_grading-" in yml
    pins = (source / "requirements.txt").read_text()
    assert pins.startswith((REPO / "binder" / "requirements.txt").read_text())
    assert "otter-grader==" in pins  # installed with its requirements, unlike for students
    config = json.loads((source / "otter_config.json").read_text())
    assert config["plugins"] == [{"bmc_grading.gradescope.BmcGrading": {}}]
    where = subprocess.run(
        [str(environment["venv"] / "bin" / "python"), "-c",
         "import bmc, bmc_grading.gradescope as g; print(bmc.__file__, g.__file__)\n"
         "import importlib.util; print(importlib.util.find_spec('bmc_answers'))"],
        capture_output=True, text=True, cwd=environment["tmp"], env=_clean_env())
    assert where.stdout.count(str(environment["venv"])) == 2, where.stdout + where.stderr
    assert where.stdout.strip().endswith("None")  # bmc_answers: nowhere in the environment


@pytest.fixture(scope="module")
def both_paths(environment):
    """The class of 12 and the attacker, graded by grade.py and by simulated Gradescope."""
    tmp = environment["tmp"]
    student_version = environment["dist"] / STEM / "student" / f"{STEM}.ipynb"
    subs = tmp / "class"
    paths = classroom.write(student_version, subs)
    solution = json.loads((environment["dist"] / STEM / "autograder" / f"{STEM}.ipynb")
                          .read_text())
    for cell in solution["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = "".join(cell["source"]).replace('STUDENT_ID = ""',
                                                             'STUDENT_ID = "s13"')
    solution["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {},
                              "outputs": [], "source": ATTACK})
    paths["s13"] = subs / "s13.ipynb"
    paths["s13"].write_text(json.dumps(solution))

    report = tmp / "grades.json"
    local = subprocess.run(
        [sys.executable, str(REPO / "exercises" / "grade.py"), str(subs), "--dist",
         str(environment["dist"]), "--out", str(tmp / "grades.csv"), "--json", str(report),
         "--gradebook", str(tmp / "book"), "--jobs", "2"],
        capture_output=True, text=True, timeout=900,
        env=dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONWARNINGS="ignore"))
    assert local.returncode == 0, local.stdout + local.stderr
    rows = {r["student_id"]: r for r in json.loads(report.read_text())}

    def one(sid):
        work = tmp / "gradescope" / sid
        work.mkdir(parents=True)
        return sid, _gradescope(environment["venv"], environment["source"], paths[sid], sid,
                                work)

    with ThreadPoolExecutor(max_workers=2) as pool:
        remote = dict(pool.map(one, sorted(paths)))
    return {"local": rows, "remote": remote, "book": tmp / "book"}


def test_gradescope_and_grade_py_give_the_class_the_same_scores(both_paths):
    for sid, expected in {**classroom.EXPECTED, "s13": 9.0}.items():
        remote = both_paths["remote"][sid]
        assert remote["returncode"] == 0, remote["output"][-3000:]
        assert remote["possible"] == 9.0, remote["results"]
        assert both_paths["local"][sid]["total"] == expected, both_paths["local"][sid]
        assert remote["total"] == expected, (sid, json.dumps(remote["results"])[:2000])


def test_gradescope_gives_the_same_messages_as_grade_py(both_paths):
    for sid, remote in both_paths["remote"].items():
        tests = {t["name"]: t for t in remote["results"]["tests"]}
        assert "Public Tests" not in tests  # otter's headline would say "passed"
        for name, result in both_paths["local"][sid]["questions"].items():
            if result["score"] < result["possible"]:
                for message in result["messages"]:
                    assert message in tests[name]["output"], (sid, name, message)
            assert tests[name]["visibility"] == "after_published"


def test_the_copy_is_flagged_on_both_paths(both_paths):
    a, b = classroom.COPY
    assert f"FLAG: the notebook says STUDENT_ID = '{a}' but is filed as '{b}'" in \
        both_paths["remote"][b]["output"]
    assert f"student: {b} (from the LMS" in both_paths["remote"][b]["output"]
    assert "FLAG" not in both_paths["remote"][a]["output"]
    review = (both_paths["book"] / "review.csv").read_text()
    assert f"STUDENT_ID = '{a}' but is filed as '{b}'" in review


def test_a_submission_cannot_import_the_graders_answers(both_paths):
    # s13 is the solution plus a cell that would spoil its last answer if it could import
    # bmc_answers: on Gradescope it is deleted before the kernel starts, in the sandbox it
    # was never there
    assert both_paths["remote"]["s13"]["total"] == 9.0
    assert both_paths["local"]["s13"]["total"] == 9.0


def test_otter_run_without_metadata_takes_the_id_from_the_file_name(environment, tmp_path):
    student_version = environment["dist"] / STEM / "student" / f"{STEM}.ipynb"
    paths = classroom.write(student_version, tmp_path / "one")
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run([str(environment["venv"] / "bin" / "otter"), "run", "-a",
                           str(environment["zip"]), "-o", str(out), str(paths["s05"])],
                          capture_output=True, text=True, env=_clean_env(),
                          cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "student: s05 (from the file name" in done.stdout
    results = json.loads((out / "results.json").read_text())
    assert sum(t["score"] for t in results["tests"] if "score" in t) == \
        classroom.EXPECTED["s05"]
