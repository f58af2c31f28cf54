"""The explorers' browser code (bmc/widgets/explorer.js) under Node: tests/js/explorer_cases.mjs.

The store and views of explorer.js run against a small stand-in for the page and the
widget model, with a clock moved by hand (tests/js/harness.mjs): two views of one explorer,
frames computed ahead used only at exactly their values, a sweep left unanswered, an
explorer that shows an error, the frames kept within their limit. The same cases in a real
browser, with a real kernel, are in tests/browser.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def test_explorer_js_cases_under_node(tmp_path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("BMC_REQUIRE_BROWSER"):
            pytest.fail("node is missing: install Node.js (CI installs it for npm)")
        pytest.skip("node is not installed")
    module = tmp_path / "explorer.mjs"  # Node reads an ES module by its .mjs name
    shutil.copyfile(HERE.parent / "bmc" / "widgets" / "explorer.js", module)
    run = subprocess.run([node, str(HERE / "js" / "explorer_cases.mjs"), str(module)],
                         capture_output=True, text=True, timeout=60)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("\nok") + run.stdout.startswith("ok") >= 6, run.stdout
