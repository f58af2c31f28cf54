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


def test_readme_explorer_latency_is_the_benchmark_s(repo):
    """README's explorer-latency block: its table and each figure of its prose are the
    benchmark's (benchmarks/results_explorers.json), its slider sizes the explorers'."""
    import json

    import matplotlib.pyplot as plt

    from bmc.widgets import joint_reactions, matrix_formalism

    readme = (repo / "README.md").read_text()
    block = readme.split("<!-- explorer-latency:start -->")[1].split(
        "<!-- explorer-latency:end -->")[0]
    prose = " ".join(block.split("| case |")[0].split())
    results = (repo / "benchmarks" / "results_explorers.md").read_text()
    rows = [line for line in results.split("README rows:")[1].splitlines()
            if line.startswith("| Explorer latency")]
    assert len(rows) == 2 and all(row in block for row in rows), "README's table is stale"

    phases = json.loads((repo / "benchmarks" / "results_explorers.json").read_text())["phases"]
    idle = phases["idle"]["results"]["canvas"]
    bursts = max(r["burst_max"] for ph in phases.values()
                 for r in ph["results"]["canvas"].values())
    control = sorted(round(ph["ceiling"]["fps"]) for ph in phases.values())
    five = [round(r["drag_fps"]) for name, r in idle.items()
            if name not in ("energy", "reactions")]

    def positions(slider) -> int:
        return int(round((slider.max - slider.min) / slider.step)) + 1

    energy = positions(matrix_formalism.energy_explorer(duration=5.0).controls["log_dt"])
    reactions = positions(joint_reactions.reaction_explorer().controls["time"])
    plt.close("all")
    quoted = [
        f"within {round(bursts)} ms of the last key",
        f"drags at {control[0]}-{control[-1]} frames/s",
        f"{len(five)} explorers drag at {min(five)}-{max(five)} frames/s idle"
        .replace("5 explorers", "five explorers"),
        f"first slider has {energy} positions",
        f"change its value {round(idle['energy']['drag']['most_values_per_s'])} times",
        f"time slider has {reactions}",
        f"asks for {round(idle['reactions']['drag']['most_values_per_s'])} new figures",
        f"{round(idle['reactions']['drag_fps'])} frames/s)",
    ]
    stale = [q for q in quoted if q not in prose]
    assert stale == [], f"README's explorer prose does not say what was measured: {stale}"
