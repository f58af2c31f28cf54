"""tools/hub_links.py: nbgitpuller links for every notebook and exercise set."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "tools" / "hub_links.py"


def _tool():
    spec = importlib.util.spec_from_file_location("hub_links", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_link_per_notebook_and_exercise_set_opening_that_file():
    links = _tool().course_links("https://hub.example.edu/", repo="https://github.com/o/bmc.git",
                                 exercises_repo="https://github.com/o/bmc-exercises")
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    sets = sorted(p.stem for p in (REPO / "exercises").glob("[0-9][0-9]_*.ipynb"))
    assert len(links) == len(notebooks) + len(sets) == 12
    for (title, link), name in zip(links, notebooks + sets, strict=True):
        parts = urlsplit(link)
        assert (parts.scheme, parts.netloc, parts.path) == \
            ("https", "hub.example.edu", "/hub/user-redirect/git-pull")
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if title.startswith("notebook"):
            # nbgitpuller clones into the repository's name, without .git
            assert query["repo"] == "https://github.com/o/bmc.git"
            assert query["urlpath"] == f"lab/tree/bmc/notebooks/{name}"
        else:
            assert query["repo"] == "https://github.com/o/bmc-exercises"
            assert query["urlpath"] == f"lab/tree/bmc-exercises/{name}/{name}.ipynb"
        assert query["branch"] == "main"


def test_command_line_prints_links_and_says_why_exercises_are_missing():
    done = subprocess.run([sys.executable, str(TOOL), "--hub", "https://hub.example.edu",
                           "--app", "notebook"], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert len(lines) == 6 and all("urlpath=tree%2Fbmc%2Fnotebooks%2F" in x for x in lines)
    assert "--exercises-repo" in done.stderr


@pytest.mark.parametrize(("hub", "app", "message"), [
    ("hub.example.edu", "lab", "hub must be the URL of a JupyterHub"),
    ("ftp://hub.example.edu", "lab", "hub must be the URL of a JupyterHub"),
    ("https://hub.example.edu", "voila", "app must be 'lab' or 'notebook'"),
])
def test_bad_hub_or_app_is_refused_with_a_clear_message(hub, app, message):
    with pytest.raises(ValueError, match=message):
        _tool().nbgitpuller_link(hub, "https://github.com/o/bmc", "x.ipynb", app=app)
