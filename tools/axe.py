"""axe-core, the accessibility engine the browser and site tests inject into pages.

One pinned version (``AXE_VERSION``), installed with npm under ``.ci/node`` (beside the
JupyterHub test's proxy) the first time a test asks for it. ``tests/browser/conftest.py``
(explorers in JupyterLab) and ``tests/test_site.py`` (the course site) both use
:func:`axe_path`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

AXE_VERSION = "4.14.1"  # axe-core (npm), pinned
NODE = Path(__file__).resolve().parents[1] / ".ci" / "node"


def axe_path() -> Path | None:
    """Return axe-core's ``axe.min.js`` at AXE_VERSION, installing it with npm when missing.

    Returns
    -------
    pathlib.Path or None
        The script; None when npm is not installed.

    Raises
    ------
    RuntimeError
        If npm fails to install the package (its last error lines are in the message).
    """
    package = NODE / "node_modules" / "axe-core" / "package.json"
    if package.is_file() and json.loads(package.read_text()).get("version") == AXE_VERSION:
        return package.parent / "axe.min.js"
    if not shutil.which("npm"):
        return None
    done = subprocess.run(["npm", "install", "--prefix", str(NODE), "--no-audit", "--no-fund",
                           "--loglevel=error", f"axe-core@{AXE_VERSION}"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(f"npm could not install axe-core {AXE_VERSION}:\n"
                           f"{done.stderr[-2000:]}")
    return package.parent / "axe.min.js"
