"""The repository as a user meets it: README, CI script and Binder configuration agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

COURSE = sorted(p for p in (Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb")
                if not p.name.startswith("_"))


def test_readme_lists_every_course_notebook(repo):
    readme = (repo / "README.md").read_text()
    missing = [p.name for p in COURSE if f"notebooks/{p.name}" not in readme]
    assert missing == [], f"README's notebook table lacks {missing}"


def test_ci_runs_the_readme_test_command(repo):
    readme = (repo / "README.md").read_text()
    match = re.search(r"<!-- test-command -->\s*```(?:bash|sh)?\n(.+?)\n```", readme, re.S)
    assert match, "README must mark its test command with <!-- test-command -->"
    command = match.group(1).strip()
    ci = (repo / ".ci" / "run").read_text()
    assert command in ci, f".ci/run does not run the README's test command {command!r}"


def test_binder_pins_every_dependency(repo):
    pins = "\n".join((repo / name).read_text() for name in (
        "binder/requirements.txt", "binder/requirements-nodeps.txt", "requirements-dev.txt"))
    pinned = {line.split("==")[0].strip().lower() for line in pins.splitlines()
              if "==" in line and not line.startswith("#")}
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library "
                                  "from Python 3.11 on")
    project = tomllib.loads((repo / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    wanted = (project["dependencies"] + extras["test"] + extras.get("docs", [])
              + extras.get("hub", []))
    names = {re.split(r"[<>=\[; ]", req, maxsplit=1)[0].lower() for req in wanted}
    assert names - pinned == set(), f"the pin files do not pin {names - pinned}: run " \
        "python tools/pin_environments.py"


def test_binder_postbuild_starts_with_set_e(repo):
    lines = [line for line in (repo / "binder" / "postBuild").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[0] == "set -e", "repo2docker's rule: a postBuild starts with `set -e`"


def test_binder_runtime_names_a_python_the_project_supports(repo):
    runtime = (repo / "binder" / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-3\.(\d+)", runtime)
    assert match and int(match.group(1)) >= 10, runtime
