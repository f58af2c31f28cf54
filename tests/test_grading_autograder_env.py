"""The autograder zip alone builds a grading environment that passes the solutions.

This is what otter's Docker mode and Gradescope do with ``NN_topic-autograder.zip``: create
an environment from the zip's ``requirements.txt`` (the course's exact pins) and its ``bmc``
wheel (``files/``), then run otter's own grader, whose hidden tests import ``bmc_answers``
from the zip. Here the environment is a fresh virtual environment of this Python, and the
grader ``otter run``; the solution must score every point and the blank student version none.

Slow (installing the pins took 261 s on the shared 2-core machine, grading 40 s per
notebook), so it runs only with ``BMC_TEST_AUTOGRADER_ENV=1``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STEM = "01_one_link"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.environ.get("BMC_TEST_AUTOGRADER_ENV") != "1",
                                 reason="set BMC_TEST_AUTOGRADER_ENV=1 (installs the pins)")]


def _clean_env() -> dict[str, str]:
    """Only the venv's packages: no PYTHONPATH, no user site (run from a clean folder too)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(OPENBLAS_NUM_THREADS="1", PYTHONNOUSERSITE="1")
    return env


def _otter_total(venv: Path, zip_path: Path, notebook: Path, out: Path) -> tuple[float, float]:
    out.mkdir()
    env = _clean_env()
    done = subprocess.run([str(venv / "bin" / "otter"), "run", "-a", str(zip_path), "-o",
                           str(out), str(notebook)], capture_output=True, text=True,
                          env=env, cwd=notebook.parent, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    scores = [(t["score"], t["max_score"]) for t in results["tests"]
              if t.get("max_score") is not None]
    _otter_total.output = json.dumps(results)[:4000] + done.stdout[-2000:]
    return sum(s for s, _ in scores), sum(m for _, m in scores)


def test_the_zip_alone_builds_an_environment_that_passes_the_solutions(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, str(REPO / "exercises" / "build.py"), STEM, "--out",
                    str(dist), "--no-run-tests"], check=True, capture_output=True)
    zip_path = dist / STEM / f"{STEM}-autograder.zip"
    source = tmp_path / "source"
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(source)
        names = zf.namelist()
    assert any(n.startswith("files/bmc_answers/") for n in names)
    wheels = sorted((source / "files").glob("bmc-[0-9]*.whl"))
    answers = sorted((source / "files").glob("bmc_answers-*.whl"))
    assert len(wheels) == len(answers) == 1
    environment = (source / "environment.yml").read_text()
    assert "-r /autograder/source/requirements.txt" in environment
    assert f"/autograder/source/files/{wheels[0].name}" in environment
    pins = (source / "requirements.txt").read_text()
    assert pins.startswith((REPO / "binder" / "requirements.txt").read_text())
    assert "otter-grader==" in pins  # installed with its requirements, unlike for students

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-r",
                    str(source / "requirements.txt"), str(wheels[0]), str(answers[0])],
                   check=True, cwd=tmp_path, env=_clean_env(),
                   timeout=1800)

    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import bmc, bmc_answers; print(bmc.__file__, bmc_answers.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=_clean_env())
    assert where.stdout.count(str(venv)) == 2, where.stdout + where.stderr  # from the zip

    solution = tmp_path / "solution" / f"{STEM}.ipynb"
    solution.parent.mkdir()
    solution.write_bytes((dist / STEM / "autograder" / f"{STEM}.ipynb").read_bytes())
    total, possible = _otter_total(venv, zip_path, solution, tmp_path / "out1")
    assert total == possible == 11.0, _otter_total.output

    blank = tmp_path / "blank" / f"{STEM}.ipynb"
    blank.parent.mkdir()
    blank.write_bytes((dist / STEM / "student" / f"{STEM}.ipynb").read_bytes())
    total, possible = _otter_total(venv, zip_path, blank, tmp_path / "out2")
    assert total == 0.0 and possible == 11.0, _otter_total.output
