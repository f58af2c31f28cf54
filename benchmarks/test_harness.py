"""Checks of the benchmark harness (no timing): ``pytest benchmarks/test_harness.py``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


h = _load("_harness")


def _case() -> h.Case:
    rows = [h.Row("1e4 frames", "bmc thing", 0.010, 0.012, subject=True, cpu=0.008),
            h.row("1e4 frames", "loop", h.Timing(0.15, 0.2, 0.12).scaled(10), note="scaled x10"),
            h.Row("1e5 frames", "bmc thing", 0.1, 0.11, subject=True, cpu=0.09),
            h.Row("1e5 frames", "floor", 0.002, 0.003)]  # no CPU time: the wall time is used
    h.add_ratios(rows)
    return h.Case("k", "A case", "What it measures.", rows,
                  [h.Goal("fast", "3.0x", True), h.Goal("faster", "0.5x", False)])


def test_ratios_are_against_the_subject_of_the_same_size():
    rows = _case().rows
    # CPU 1.2 / 0.008; wall 0.002 / CPU 0.09 (no CPU time measured): exact up to rounding.
    assert rows[1].ratio == pytest.approx(150.0, rel=1e-12)
    assert rows[3].ratio == pytest.approx(0.002 / 0.09, rel=1e-12)


def test_markdown_table_and_goals():
    md = h.case_markdown(_case())
    assert "| 1e4 frames | **bmc thing** | 8 ms | 10 ms | 12 ms | 1x |  |" in md
    assert "| 1e4 frames | loop | 1.20 s | 1.50 s | 2.00 s | 150x | scaled x10 |" in md
    assert "| 1e5 frames | floor | – | 2 ms | 3 ms | 0.0222x |  |" in md  # no CPU time: a dash
    assert "| faster | 0.5x | **not met** |" in md


def test_readme_block_is_replaced_between_the_markers():
    text = f"intro\n{h.START}\nold table\n{h.END}\nrest\n"
    out = h.replace_block(text, "new table\n", Path("README.md"))
    assert out == f"intro\n{h.START}\nnew table\n{h.END}\nrest\n"
    # Idempotent: replacing again gives the same text.
    assert h.replace_block(out, "new table", Path("README.md")) == out


@pytest.mark.parametrize("text", ["no markers at all", f"{h.END}\n{h.START}\n",
                                  f"{h.START}\n{h.START}\n{h.END}\n", f"{h.START} only"])
def test_missing_or_misplaced_markers_fail_clearly(text):
    with pytest.raises(SystemExit, match="expected exactly one"):
        h.replace_block(text, "table", Path("README.md"))


def test_json_round_trip(tmp_path):
    case = _case()
    info = {"date": "today", "cpu": "x"}
    h.save_json([case], info, "cmd", tmp_path / "r.json")
    cases, info2, cmd = h.load_json(tmp_path / "r.json")
    assert info2 == info and cmd == "cmd"
    assert cases[0].rows[0] == case.rows[0] and cases[0].rows[2] == case.rows[2]  # no NaN
    assert cases[0].goals == case.goals


def test_readme_flag_fails_before_running_when_markers_are_missing(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# A README without the benchmark markers\n")
    proc = subprocess.run(
        [sys.executable, str(HERE / "run.py"), "--readme", "--only", "import",
         "--readme-path", str(readme), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0
    assert "expected exactly one '<!-- benchmarks:start -->'" in proc.stderr
    assert not (tmp_path / "results.md").exists()  # nothing ran


def test_headline_lists_each_subject_at_its_largest_size():
    table = h.headline_table([_case()])
    assert "| A case | 1e5 frames | bmc thing | 90 ms | floor 0.0222x |" in table
    assert "1e4 frames" not in table
