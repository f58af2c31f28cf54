"""The two pinned environments: what they hold, and that the student one is what Binder builds.

- The pin files cover ``pyproject.toml`` (offline).
- ``tools/check_binder.py`` passes on the pins and fails on an injected pin that conflicts with
  repo2docker's base environment (needs jupyter-repo2docker and PyPI for metadata).
- In the student environment itself (``BMC_STUDENT_PYTHON``, set by ``.ci/run``): ``import
  otter`` loads none of the instructor-only packages and no grammar build, every course
  notebook runs, and ``grader.check`` passes on a solved exercise set.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
STUDENT_PINS = REPO / "binder" / "requirements.txt"
NODEPS_PINS = REPO / "binder" / "requirements-nodeps.txt"
DEV_PINS = REPO / "requirements-dev.txt"
COURSE = sorted(p for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pins(*files: Path) -> dict[str, str]:
    return _tool("check_binder").read_pins(*files)


def test_student_pins_satisfy_the_runtime_dependencies_and_the_hub_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pins = _pins(STUDENT_PINS, NODEPS_PINS)
    for text in project["dependencies"] + project["optional-dependencies"]["hub"]:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in pins, f"binder/requirements.txt does not pin {name}: run " \
                             "python tools/pin_environments.py"
        assert req.specifier.contains(pins[name]), f"pin {name}=={pins[name]} breaks {text}"


def test_dev_pins_satisfy_every_extra_and_add_to_the_student_pins():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    student, dev = _pins(STUDENT_PINS, NODEPS_PINS), _pins(DEV_PINS)
    assert DEV_PINS.read_text().count("-r binder/requirements.txt") == 1
    clash = {n: (student[n], dev[n]) for n in set(student) & set(dev) if student[n] != dev[n]}
    assert clash == {}, f"the two pin files disagree: {clash}"
    both = {**student, **dev}
    extras = project["optional-dependencies"]
    for text in extras["test"] + extras.get("docs", []):
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in both, f"no pin for {name}: run python tools/pin_environments.py"
        assert req.specifier.contains(both[name]), f"pin {name}=={both[name]} breaks {text}"


def test_student_pins_leave_out_the_instructor_only_packages():
    student = _pins(STUDENT_PINS, NODEPS_PINS)
    # playwright (PDF export), python-on-whales (Docker), Sphinx (fica's docs), the test kit,
    # and rfc3987-syntax (its grammar is built on every import of jsonschema).
    heavy = {"playwright", "python-on-whales", "sphinx", "pytest", "nbval", "ruff",
             "coverage", "rfc3987-syntax", "lark"}
    assert heavy & set(student) == set()
    omitted = _tool("check_binder").allowed_omissions()
    assert omitted == {("otter-grader", "python-on-whales"), ("fica", "sphinx"),
                       ("otter-grader", "nbconvert")}


@pytest.fixture(scope="module")
def binder_check():
    pytest.importorskip("repo2docker", reason="jupyter-repo2docker is in requirements-dev.txt")
    tool = _tool("check_binder")
    dockerfile = tool.binder_dockerfile(REPO)
    return tool, tool.read_lock(tool.base_lock(dockerfile)), dockerfile


@pytest.mark.slow
def test_binder_builds_our_files_on_its_base_environment(binder_check):
    tool, base, dockerfile = binder_check
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in dockerfile
    assert "./binder/postBuild" in dockerfile
    runtime = (REPO / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")
    assert f"environment.py-{runtime}-linux-64.lock" in str(tool.base_lock(dockerfile))
    assert {"notebook", "jupyterlab", "jupyterhub", "jupyter-server"} <= set(base)


@pytest.mark.slow
def test_binder_check_passes_our_pins_and_fails_an_injected_conflict(binder_check):
    tool, base, _ = binder_check
    pins = _pins(STUDENT_PINS, NODEPS_PINS)
    assert tool.conflicts(pins, base, tool.allowed_omissions()) == []
    # The fault this check was written for: jupyterlab 4.6 over the base's notebook 7.4,
    # which requires jupyterlab<4.5.
    bad = {**pins, "jupyterlab": "4.6.6", "jupyter-builder": "1.3.0"}
    problems = tool.conflicts(bad, base, tool.allowed_omissions())
    assert any(p.startswith("notebook ") and "jupyterlab 4.6.6 (pinned)" in p
               for p in problems), problems
    # And an omission that is not declared is reported too.
    assert tool.conflicts(pins, base, set()) != []


# --- the student environment itself ----------------------------------------------------------

STUDENT_PYTHON = os.environ.get("BMC_STUDENT_PYTHON")
needs_student_env = pytest.mark.skipif(
    not STUDENT_PYTHON, reason="BMC_STUDENT_PYTHON is not set: build the student environment "
    "(binder/requirements.txt, then binder/postBuild) and point it at its python, as .ci/run "
    "does")

IMPORT_OTTER = """
import json, sys, time
t = time.perf_counter()
import otter
dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


@needs_student_env
def test_import_otter_in_the_student_environment_is_lean():
    done = subprocess.run([STUDENT_PYTHON, "-c", IMPORT_OTTER], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    loaded = set(result["modules"])
    assert loaded & {"rfc3987_syntax", "lark", "sphinx", "playwright", "python_on_whales"} == \
        set()
    print(f"import otter in the student environment: {result['seconds']:.2f} s")


# Runs notebooks in a fresh kernel of the interpreter it is run with; the first argument is
# "write" (store the executed notebook in place) or "-".
RUN_NOTEBOOKS = """
import sys, pathlib, nbformat
from nbclient import NotebookClient
for path in sys.argv[2:]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(pathlib.Path(path).parent)}}).execute()
    if sys.argv[1] == "write":
        nbformat.write(nb, path)
    print("ran", path, flush=True)
"""


@needs_student_env
@pytest.mark.slow
def test_every_course_notebook_runs_in_the_student_environment():
    # the figure checker is a development tool (colorspacious is not in the student pins)
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore",
           "BMC_FIGURE_CHECK": "off"}
    done = subprocess.run([STUDENT_PYTHON, "-c", RUN_NOTEBOOKS, "-", *map(str, COURSE)],
                          capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    assert done.stdout.count("ran ") == len(COURSE) == 6


@needs_student_env
@pytest.mark.slow
def test_grader_check_passes_a_solved_set_in_the_student_environment(tmp_path):
    # Built with the development environment (otter assign), checked with the student one.
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    built = subprocess.run([sys.executable, str(REPO / "exercises" / "build.py"), "01",
                            "--out", str(tmp_path), "--no-run-tests"],
                           capture_output=True, text=True, timeout=600, env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    (solved,) = (tmp_path / "01_one_link" / "autograder").glob("01_one_link.ipynb")
    student = tmp_path / "01_one_link" / "student"
    target = student / "solved.ipynb"
    target.write_text(solved.read_text())
    done = subprocess.run([STUDENT_PYTHON, "-c", RUN_NOTEBOOKS, "write", str(target)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    ran = json.loads(target.read_text())
    checks = [c for c in ran["cells"] if c["cell_type"] == "code"
              and re.search(r"grader\.check\(", "".join(c["source"]))]
    assert len(checks) >= 3
    for cell in checks:
        plain = "".join("".join(o.get("data", {}).get("text/plain", [])) for o in cell["outputs"])
        # the check cells report in words (bmc.checks.report), never otter's "passed" headline
        assert plain.startswith(("\u2705", "\u270d")), cell["outputs"]
        assert "not right yet" not in plain and "All test cases passed" not in plain
