"""Every citation of the course resolves to a complete entry of docs/references.bib."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if not p.name.startswith("_"))
_spec = importlib.util.spec_from_file_location("bibliography", ROOT / "tools" / "bibliography.py")
bibliography = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bibliography)


@pytest.fixture(scope="module")
def entries():
    return bibliography.load()


def test_every_entry_is_complete(entries):
    incomplete = {k: bibliography.missing_fields(e) for k, e in entries.items()
                  if bibliography.missing_fields(e)}
    assert incomplete == {}


@pytest.mark.parametrize("path", COURSE, ids=lambda p: p.name)
def test_notebook_citations_resolve(path, entries):
    assert bibliography.problems(path, entries) == []
    assert bibliography.cited_keys(json.loads(path.read_text())["cells"]), \
        f"{path.name} cites no source through docs/references.bib"


def _nb(tmp_path, *markdown):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": m} for m in markdown]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    return path


def test_the_check_fails_on_an_unknown_key_a_stale_cell_and_an_incomplete_entry(
        tmp_path, entries):
    path = _nb(tmp_path, "as [Kuo (1998)](#cite-kuo1999) showed", "## References\n")
    assert any("not in docs/references.bib" in p for p in bibliography.problems(path, entries))
    path = _nb(tmp_path, "as [Kuo (1998)](#cite-kuo1998) showed", "## References\n\n- old")
    assert any("not the one generated" in p for p in bibliography.problems(path, entries))
    good = bibliography.references_cell(["kuo1998"], entries)
    path = _nb(tmp_path, "as [Kuo (1998)](#cite-kuo1998) showed", good)
    assert bibliography.problems(path, entries) == []
    broken = dict(entries["kuo1998"])
    del broken["volume"]
    assert bibliography.missing_fields(broken) == ["volume"]


def test_an_entry_is_formatted_with_everything_a_reader_needs(entries):
    text = bibliography.format_entry(entries["kuo1998"])
    for part in ("Kuo, A. D.", "(1998)", "least-squares", "Journal of Biomechanical Engineering",
                 "120", "148\u2013159", "10.1115/1.2834295"):
        assert part in text
