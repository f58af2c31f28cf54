"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium per session.

The server runs the venv's own ``python -m jupyter lab`` on 127.0.0.1 (a free port, a random
token, ``--LabApp.expose_app_in_browser=True`` so that the tests can drive
``window.jupyterapp.commands``) with a temporary copy of ``notebooks/`` as its root, so that
running the notebooks never modifies the stored ones. Jupyter's config, data and runtime
directories and IPython's directory point to temporary folders too, so a developer's personal
Jupyter or IPython configuration cannot change the result. The server is stopped by its PID at
the end of the session (terminate, then kill after a timeout).

Environment variables
---------------------
BMC_CHROMIUM
    Path of the Chromium (or Chrome) executable; default ``/usr/bin/chromium``.
BMC_REQUIRE_BROWSER
    ``1`` turns "Chromium is missing, skipping" into a failure (CI sets it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The helper notebooks next to this file are opened in the browser, never collected by nbval.
collect_ignore_glob = ["*.ipynb"]

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CONTROLS_DIR = "_browser_controls"  # folder (inside the server root) for the helper notebooks
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT = 90.0  # [s] cold start of jupyter lab on 2 shared cores takes ~5-10 s
SERVER_STOP_TIMEOUT = 20.0  # [s] graceful shutdown (kernels included) before SIGKILL

# JupyterLab settings for reproducible runs: every cell stays in the DOM (no windowing, so
# widgets far down the notebook can be queried), and no news or update pop-ups.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

TIMINGS = pytest.StashKey[list]()


@dataclass(frozen=True)
class LabServer:
    """A running JupyterLab server: where it is, how to reach it, where it logs."""

    url: str  # base URL without trailing slash, e.g. http://127.0.0.1:40123
    token: str
    root: Path  # the temporary copy of notebooks/ it serves
    log: Path  # server (and kernel) stdout and stderr
    pid: int

    def lab_url(self) -> str:
        """URL of a fresh, reset JupyterLab workspace (nothing restored from earlier tests)."""
        return f"{self.url}/lab?reset&token={self.token}"

    def api(self, method: str, path: str) -> object:
        """Call the server's REST API; return the decoded JSON (or None)."""
        request = urllib.request.Request(
            f"{self.url}{path}", method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, n: int = 40) -> str:
        """The last ``n`` lines of the server log (for failure messages)."""
        lines = self.log.read_text(errors="replace").splitlines()
        return "\n".join(lines[-n:])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server by its PID: SIGTERM, then SIGKILL of its process group after a timeout."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=SERVER_STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        # The server was started in its own session, so its group id is its PID: this kills
        # the server and any kernel it left behind, nothing else.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=SERVER_STOP_TIMEOUT)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Path of the Chromium executable; skip (or fail under BMC_REQUIRE_BROWSER=1) if missing."""
    path = os.environ.get("BMC_CHROMIUM", "/usr/bin/chromium")
    if Path(path).is_file() and os.access(path, os.X_OK):
        return path
    message = (
        f"Chromium not found at {path}. Install it with `sudo apt-get install chromium` "
        "(Debian/Ubuntu) or point BMC_CHROMIUM at a Chromium or Chrome executable. "
        "Do not run `playwright install`: the tests use the system browser."
    )
    if os.environ.get("BMC_REQUIRE_BROWSER") == "1":
        pytest.fail(f"BMC_REQUIRE_BROWSER=1 but {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def lab_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """Start one JupyterLab server for the session on a copy of notebooks/; stop it at the end."""
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "root"
    shutil.copytree(
        REPO / "notebooks", root,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", ".benchmarks", "__pycache__"),
    )
    (root / CONTROLS_DIR).mkdir()
    for notebook in HERE.glob("*.ipynb"):
        shutil.copy2(notebook, root / CONTROLS_DIR / notebook.name)
    settings = base / "lab-settings"
    for relative, values in LAB_SETTINGS.items():
        target = settings / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    env = dict(os.environ)
    env.update(
        OPENBLAS_NUM_THREADS="1",
        JUPYTER_PLATFORM_DIRS="1",
        JUPYTER_CONFIG_DIR=str(base / "config"),
        JUPYTER_DATA_DIR=str(base / "data"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        IPYTHONDIR=str(base / "ipython"),
    )
    env.pop("MPLBACKEND", None)  # the notebooks choose the inline backend themselves
    token = secrets.token_hex(16)
    port = _free_port()
    log = base / "server.log"
    command = [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--ServerApp.terminals_enabled=False",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}",
        "--LabApp.extension_manager=readonly",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with open(log, "wb") as log_file:
        proc = subprocess.Popen(
            command, cwd=root, env=env, stdin=subprocess.DEVNULL,
            stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = LabServer(f"http://127.0.0.1:{port}", token, root, log, proc.pid)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with code {proc.returncode}:\n"
                            f"{server.log_tail()}", pytrace=False)
            try:
                server.api("GET", "/api/status")
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer within {SERVER_START_TIMEOUT:.0f} s:"
                                f"\n{server.log_tail()}", pytrace=False)
                time.sleep(0.5)
        yield server
    finally:
        _stop(proc)


@pytest.fixture(scope="module")
def browser_context(chromium: str, tmp_path_factory: pytest.TempPathFactory):
    """One headless Chromium (fresh user-data-dir) for the browser tests' module.

    Module scope, not session: while Playwright's sync API is started, the main thread
    reports a running asyncio loop, which would change how later tests in the same session
    behave (explorer updates, Playwright in tests/test_site.py).
    """
    from playwright.sync_api import sync_playwright

    manager = sync_playwright().start()
    try:
        context = manager.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=chromium, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 1000},
        )
        try:
            yield context
        finally:
            context.close()
    finally:
        manager.stop()


@pytest.fixture
def lab_page(browser_context, lab_server: LabServer):
    """A new browser tab; afterwards every kernel the test started is shut down."""
    page = browser_context.new_page()
    page.set_default_timeout(60_000)  # [ms] bound on every single Playwright action
    try:
        yield page
    finally:
        page.close()
        for session in lab_server.api("GET", "/api/sessions") or []:
            lab_server.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in lab_server.api("GET", "/api/kernels") or []:
            lab_server.api("DELETE", f"/api/kernels/{kernel['id']}")


@pytest.fixture(scope="session")
def browser_timings(request: pytest.FixtureRequest) -> list:
    """Rows (notebook, phase timings [s], explorers, animations, slider moves) for the summary."""
    return request.config.stash.setdefault(TIMINGS, [])


def _load_tool(name: str):
    """A module of the repository's tools/ folder (not a package), loaded by path."""
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_axe = _load_tool("axe")
axe_path, AXE_VERSION = _axe.axe_path, _axe.AXE_VERSION


@pytest.fixture(scope="session")
def axe_script(chromium: str) -> Path:
    """axe-core's axe.min.js (see AXE_VERSION), injected into the page by the tests."""
    path = axe_path()
    if path is None:
        message = ("npm is missing: the accessibility checks need axe-core from npm "
                   "(apt-get install npm)")
        if os.environ.get("BMC_REQUIRE_BROWSER") == "1":
            pytest.fail(f"BMC_REQUIRE_BROWSER=1 but {message}", pytrace=False)
        pytest.skip(message)
    return path


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """Print the time each notebook took in the browser, and how much of it was interactive;
    then the explorers: canvas against Agg, slider tracks, axe-core."""
    rows = config.stash.get(TIMINGS, [])
    if not rows:
        return
    terminalreporter.section(
        "browser tests: time per notebook [s], explorers, animations, slider moves")
    phases = ("open", "run_all", "widgets", "total")
    terminalreporter.line(
        f"{'notebook':36s}" + "".join(f"{p:>9s}" for p in phases)
        + "  explorers  animations  moves")
    for name, timing, explorers, animations, moves, *_ in rows:
        terminalreporter.line(
            f"{name:36s}" + "".join(f"{timing.get(p, float('nan')):9.1f}" for p in phases)
            + f"{explorers:11d}{animations:12d}{moves:7d}"
        )
    total = sum(row[1].get("total", 0.0) for row in rows)
    terminalreporter.line(f"{'all notebooks':36s}{'':27s}{total:9.1f}")
    reports = [row[5] for row in rows if len(row) > 5]
    checks = [check for report in reports for check in report.agg]
    if checks:
        terminalreporter.section("explorers: canvas against Matplotlib's Agg rendering [px]")
        for check in checks:
            terminalreporter.line(
                f"{check.explorer:44s} {check.when:30s} ink {check.ink:5d} (patch "
                f"{check.blob:4d}), pixels {check.pixels:5d} of {check.area:6d}"
                + ("  SCALED" if check.scaled else "") + ("" if check.ok else "  FAIL"))
    tracks = {}
    for report in reports:
        for width, items in report.tracks.items():
            tracks.setdefault(width, []).extend(w for _, w in items)
    if tracks:
        terminalreporter.section("explorers: slider track widths [px] by window width")
        for width, values in sorted(tracks.items()):
            terminalreporter.line(f"{width:5d} px window: {len(values)} sliders, narrowest "
                                  f"{min(values):.0f} px, widest {max(values):.0f} px")
    if any(report.axe or report.chrome for report in reports) or reports:
        terminalreporter.section("axe-core (WCAG 2.1 A and AA): explorers and JupyterLab")
        seen: dict[str, dict] = {}
        for report in reports:
            own = ", ".join(f"{v['id']} ({v['nodes']})" for v in report.axe) or "none"
            chrome = ", ".join(f"{v['id']} ({v['nodes']})" for v in report.chrome) or "none"
            terminalreporter.line(f"{report.notebook:36s} explorers: {own}; JupyterLab's own "
                                  f"page: {chrome}")
            for v in report.chrome:
                seen.setdefault(v["id"], v)
        for rule, v in sorted(seen.items()):  # what JupyterLab (not the course) shows
            terminalreporter.line(f"  {rule} ({v['impact']}): {v['help']}; e.g. "
                                  f"{v['targets'][0] if v['targets'] else '?'}")
