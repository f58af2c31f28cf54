"""Explorer latency in a real browser: key press (or drag) to changed pixels, idle and loaded.

Every explorer of ``bmc.widgets`` is shown in one JupyterLab page in headless Chromium. Real
input events (Playwright's keyboard and mouse, which Chromium receives as trusted
``keydown`` and pointer events) move its sliders, and the clock runs in the page: a
``keydown`` listener stamps each key press, and an animation-frame loop hashes the pixels of
the explorer's figure (the canvas the browser draws on; with ``--png`` also the inline-PNG
renderer's image) and stamps every frame in which they changed. Nothing the widget reports
about itself is used.

- **single**: one arrow key on a slider, then the figure left to settle; keydown to the
  first frame with changed pixels. Walks every slider of the explorer in turn, a step at a
  time, turning at its ends.
- **burst**: five key presses ~60 ms apart, as a hand presses them; from the *last* keydown
  to the *last* frame that changed (the figure then unchanged for 0.6 s): how long the
  student waits for the value they stopped at.
- **drag**: the first slider's thumb dragged across its track with the mouse for ~2 s
  (a pointer move every ~16 ms); changed frames per second while the pointer moves, and
  the slider's value changes per second, and the most it could make: its positions from
  its value to the end of the track and back, over the drag's time (the energy explorer's
  first slider has 9 positions: swept across in a second, its value changes about 9
  times, however fast the figure follows). A control slider
  of the page itself, repainting a canvas of an explorer's size with no kernel behind it,
  is dragged the same way once per phase: the most frames per second this harness and
  this browser deliver (pointer events arrive no faster than the page draws frames).

Each phase runs idle and under an artificial load (``--load``, default 2: one busy process
per core of a 2-core machine, ``os.cpu_count()`` of them at the default), with the
machine's load average recorded before, during and after. On a shared machine "idle" is
only as idle as the others let it be: the load average says how idle it was.

Usage (from the repository root, Chromium at /usr/bin/chromium or ``BMC_CHROMIUM``)::

    python benchmarks/bench_explorers_browser.py                 # ~10 min on 2 cores
    python benchmarks/bench_explorers_browser.py --presses 8 --bursts 3 --phases idle
    python benchmarks/bench_explorers_browser.py --only pendulum energy --png

Writes ``benchmarks/results_explorers.json`` and ``benchmarks/results_explorers.md`` (a
table per phase and the rows for README's goals table). Goals (issue 33): every explorer
p50 <= 100 ms, p95 <= 150 ms, bursts <= 200 ms, idle and under load 2; drag >= 20 frames/s
idle.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))
from conftest import CHROMIUM_FLAGS, LAB_SETTINGS, _free_port  # noqa: E402

GOAL_P50, GOAL_P95, GOAL_BURST, GOAL_DRAG = 100.0, 150.0, 200.0, 20.0  # [ms], [frames/s]
HAND = 0.060  # [s] between the key presses of a burst
QUIET = 0.6  # [s] without a changed frame: the figure has settled

# name -> (setup code, expression that returns the explorer)
EXPLORERS = {
    "pendulum": ("from bmc.widgets import one_link as pendulum",
                 "pendulum.torque_explorer()"),
    "two_link": ("from bmc.widgets import two_link", "two_link.reach_explorer()"),
    "energy": ("from bmc.widgets import matrix_formalism as matrix_form",
               "matrix_form.energy_explorer(duration=5.0)"),
    "frames": ("from bmc.widgets import matrix_formalism as matrix_form",
               "matrix_form.frames_explorer()"),
    "gait": ("from bmc.widgets import gait_inverse_dynamics as gait", "gait.noise_explorer()"),
    "reactions": ("from bmc.widgets import joint_reactions as reactions",
                  "reactions.reaction_explorer()"),
    "kuo": ("from bmc.widgets import least_squares_inverse_dynamics as kuo",
            "kuo.torque_explorer()"),
}

JS_OPEN = """
async ({path}) => {
  const app = window.jupyterapp;
  await app.started; await app.restored;
  const panel = await app.commands.execute(
    'docmanager:open', {path, factory: 'Notebook', kernel: {name: 'python3'}});
  window.__bmcPanel = panel;
  await panel.context.ready;
  await panel.sessionContext.ready;
  app.shell.activateById(panel.id);
  app.shell.collapseLeft();
  await app.commands.execute('notebook:run-all-cells');
  return 'ok';
}
"""

JS_KERNEL = """
() => { const s = window.__bmcPanel.sessionContext.session;
        return s && s.kernel ? s.kernel.status : 'none'; }
"""

JS_EXEC = """
async ({code}) => {
  const kernel = window.__bmcPanel.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  let out = '';
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}
"""

# In the page: stamp every keydown and pointer move, and every animation frame in which the
# figure's pixels changed (a hash of the canvas, or the <img> the PNG renderer replaces).
JS_WATCH = """
(sel) => {
  const root = document.querySelector(sel);
  const canvas = root.querySelector('.bmc-figure canvas');
  const figure = () => {
    if (canvas) {
      // every other row: a changed digit of a title (8 px tall) still changes the hash,
      // and the watcher takes half the time from the page it measures
      const w = canvas.width, data = new Uint32Array(canvas.getContext('2d')
        .getImageData(0, 0, w, canvas.height).data.buffer);
      let h = 0;
      for (let row = 0; row < canvas.height; row += 2) {
        for (let i = row * w, end = i + w; i < end; i++) h = (Math.imul(h, 31) + data[i]) | 0;
      }
      return String(h);
    }
    const img = root.querySelector('.bmc-figure img');
    return img && img.complete ? img.src : '';
  };
  if (window.__bmcWatch) window.__bmcWatch.stop();
  const w = {keys: [], moves: [], inputs: [], changes: [], last: figure(), on: true};
  const key = () => w.keys.push(performance.now());
  const move = () => w.moves.push(performance.now());
  const input = () => w.inputs.push(performance.now());  // a slider's value changed
  document.addEventListener('keydown', key, true);
  document.addEventListener('pointermove', move, true);
  document.addEventListener('input', input, true);
  const loop = (t) => {
    if (!w.on) return;
    const now = figure();
    if (now !== w.last) { w.last = now; w.changes.push(t); }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  w.stop = () => { w.on = false; document.removeEventListener('keydown', key, true);
                   document.removeEventListener('pointermove', move, true);
                   document.removeEventListener('input', input, true); };
  w.reset = () => { w.keys = []; w.moves = []; w.inputs = []; w.changes = []; };
  window.__bmcWatch = w;
}
"""

JS_READ = """
() => { const w = window.__bmcWatch;
        return {keys: w.keys, moves: w.moves, inputs: w.inputs, changes: w.changes,
                now: performance.now()}; }
"""


def _start_lab(root: Path, base: Path) -> tuple[subprocess.Popen, str, str, Path]:
    import secrets
    import urllib.request

    settings = base / "lab-settings"
    for relative, values in LAB_SETTINGS.items():
        target = settings / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", JUPYTER_PLATFORM_DIRS="1",
               JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_DATA_DIR=str(base / "data"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"), IPYTHONDIR=str(base / "ipython"))
    env.pop("MPLBACKEND", None)
    env.pop("BMC_WIDGETS_RENDERER", None)
    token, port = secrets.token_hex(16), _free_port()
    log = base / "server.log"
    command = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.terminals_enabled=False", "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}",
        "--LabApp.extension_manager=readonly",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with open(log, "wb") as log_file:
        proc = subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.DEVNULL,
                                stdout=log_file, stderr=subprocess.STDOUT,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            request = urllib.request.Request(f"{url}/api/status",
                                             headers={"Authorization": f"token {token}"})
            urllib.request.urlopen(request, timeout=5).read()
            return proc, url, token, log
        except OSError as error:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("jupyter lab did not start:\n"
                                   + log.read_text()[-3000:]) from error
            time.sleep(0.5)


def _notebook(names: list[str], renderers: tuple[str, ...]) -> dict:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": "%matplotlib inline\nimport os\nimport bmc\nbmc.plotting.use_style()\n"}]
    done = set()
    for name in names:
        setup, call = EXPLORERS[name]
        if setup not in done:
            cells.append({"cell_type": "code", "metadata": {}, "outputs": [],
                          "execution_count": None, "source": setup})
            done.add(setup)
        for renderer in renderers:
            source = (f"os.environ['BMC_WIDGETS_RENDERER'] = '{renderer}'\n"
                      f"box = {call}\nbox.add_class('bench-{name}-{renderer}')\nbox")
            cells.append({"cell_type": "code", "metadata": {}, "outputs": [],
                          "execution_count": None, "source": source})
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3",
                                                          "display_name": "Python 3",
                                                          "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def _wait_idle(page, quiet: float = 0.15, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    since = None
    while time.monotonic() < deadline:
        if page.evaluate(JS_KERNEL) == "idle":
            since = since or time.monotonic()
            if time.monotonic() - since >= quiet:
                return
        else:
            since = None
        time.sleep(0.03)


def _settle(page, quiet: float = QUIET, timeout: float = 20.0) -> dict:
    """Wait until no frame changed for ``quiet`` seconds; return what the page recorded."""
    deadline = time.monotonic() + timeout
    while True:
        seen = page.evaluate(JS_READ)
        last = max([*seen["changes"], *seen["keys"], *seen["moves"]], default=0.0)
        if (seen["now"] - last) / 1000 >= quiet or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


class _Slider:
    """One range input that walks a step at a time and turns at its ends."""

    def __init__(self, handle) -> None:
        self.handle = handle
        self.direction = +1

    def key(self) -> str:
        value = float(self.handle.input_value())
        low, high = (float(self.handle.get_attribute(a)) for a in ("min", "max"))
        step = float(self.handle.get_attribute("step") or 1)
        if self.direction > 0 and value + step > high + 1e-9 * step:
            self.direction = -1
        elif self.direction < 0 and value - step < low - 1e-9 * step:
            self.direction = +1
        return "ArrowRight" if self.direction > 0 else "ArrowLeft"


def _cpu_by_kind() -> dict[int, tuple[str, float]]:
    """CPU time [s] of every process so far, by pid, with what it is (browser, kernel, ...)."""
    import psutil

    out = {}
    for proc in psutil.process_iter(["cmdline"]):
        try:
            cmd = " ".join(proc.info["cmdline"] or [])
            times = proc.cpu_times()
        except (psutil.Error, OSError):
            continue
        kind = ("browser" if "chrom" in cmd else "kernel" if "ipykernel" in cmd
                else "jupyter server" if "jupyter" in cmd else "other")
        out[proc.pid] = (kind, times.user + times.system)
    return out


def _cpu_spent(before: dict, after: dict) -> dict[str, float]:
    spent: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        if pid in before:
            spent[kind] = spent.get(kind, 0.0) + seconds - before[pid][1]
    return {kind: round(v, 2) for kind, v in sorted(spent.items())}


def _drag(page, handle, seconds: float = 2.0, step: float = 0.016) -> dict:
    """Drag the slider's thumb across its track and back with the mouse, ~1 move per frame.

    Also returns the CPU time each kind of process (browser, kernel, Jupyter server, other)
    spent during the drag: on 2 cores at most twice the wall time in all.
    """
    box = handle.bounding_box()
    low, high = (float(handle.get_attribute(a)) for a in ("min", "max"))
    value = float(handle.input_value())
    spacing = float(handle.get_attribute("step") or 0) or (high - low) / 100  # value step
    x = box["x"] + 8 + (box["width"] - 16) * (value - low) / (high - low or 1)
    y = box["y"] + box["height"] / 2
    left, right = box["x"] + 8, box["x"] + box["width"] - 8
    page.mouse.move(x, y)
    page.mouse.down()
    page.evaluate("() => window.__bmcWatch.reset()")
    cpu_before = _cpu_by_kind()
    start = time.monotonic()
    target = right if right - x > x - left else left
    while time.monotonic() - start < seconds:
        frac = (time.monotonic() - start) / seconds
        # there and back: the whole track in the first half, home in the second
        there = frac * 2 if frac < 0.5 else 2 - frac * 2
        page.mouse.move(x + (target - x) * there, y)
        time.sleep(max(0.0, step - 0.004))
    page.mouse.up()
    wall = time.monotonic() - start
    cpu = _cpu_spent(cpu_before, _cpu_by_kind())
    seen = page.evaluate(JS_READ)
    moves = seen["moves"]
    # the most value changes this drag can make: the slider's positions from its value to
    # the end of the track and back (a slider of few steps changes value less often than
    # 20 times a second however fast the figure follows)
    passed = 2 * round(abs(target - x) / max(right - left, 1.0) * (high - low) / spacing)
    if len(moves) < 2:
        return {"fps": float("nan"), "moves": len(moves), "frames": 0, "seconds": 0.0,
                "most_values_per_s": float("nan")}
    t0, t1 = moves[0], moves[-1]
    frames = [t for t in seen["changes"] if t0 <= t <= t1 + 50]
    values = [t for t in seen["inputs"] if t0 <= t <= t1]
    span = (t1 - t0) / 1000
    return {"fps": len(frames) / span, "moves": len(moves), "frames": len(frames),
            "values_per_s": len(values) / span, "moves_per_s": len(moves) / span,
            "most_values_per_s": passed / span,
            "seconds": span, "cpu": cpu, "wall": round(wall, 2)}


# The control for the drag: a slider of the page itself that repaints a canvas of an
# explorer's size on every value, with no kernel behind it. Its frames per second are what
# this harness and this browser allow at most (pointer events are delivered no faster than
# the page draws frames); an explorer's drag is read against it.
JS_CEILING = """
() => {
  const d = document.createElement('div');
  d.className = 'bench-ceiling';
  d.style.cssText = 'position:fixed;left:300px;top:120px;z-index:9999;background:white';
  d.innerHTML = '<div class="bmc-controls"><input type="range" min="0" max="100" step="0.5" '
    + 'value="10" aria-label="control" style="width:400px"></div><div class="bmc-figure">'
    + '<canvas width="810" height="360"></canvas></div>';
  document.body.append(d);
  const ctx = d.querySelector('canvas').getContext('2d');
  d.querySelector('input').addEventListener('input', (e) => {
    const v = Number(e.target.value);
    ctx.fillStyle = 'white'; ctx.fillRect(0, 0, 810, 360); ctx.fillStyle = 'black';
    for (let k = 0; k < 60; k++) ctx.fillRect(v * 6 + k, 6 * k, 4, 4);
  });
}
"""


def drag_ceiling(page) -> dict:
    """Drag the control slider (no kernel) as the explorers' sliders are dragged."""
    page.evaluate(JS_CEILING)
    try:
        page.evaluate(JS_WATCH, ".bench-ceiling")
        return _drag(page, page.locator(".bench-ceiling input"))
    finally:
        page.evaluate("() => { window.__bmcWatch.stop(); "
                      "document.querySelector('.bench-ceiling').remove(); }")


def measure(page, name: str, renderer: str, presses: int, bursts: int) -> dict:
    """Single presses, bursts and a drag on one explorer."""
    sel = f".bench-{name}-{renderer}"
    page.locator(sel).scroll_into_view_if_needed()
    page.evaluate(JS_WATCH, sel)
    handles = page.locator(f"{sel} .bmc-controls input[type=range]")
    sliders = [_Slider(handles.nth(i)) for i in range(handles.count())]
    singles, settles, misses = [], [], 0
    for i in range(presses):
        slider = sliders[i % len(sliders)]
        slider.handle.focus()
        key = slider.key()
        page.evaluate("() => window.__bmcWatch.reset()")
        page.keyboard.press(key)
        seen = _settle(page)
        if seen["keys"] and seen["changes"]:
            singles.append(seen["changes"][0] - seen["keys"][0])
        else:
            misses += 1
        _wait_idle(page)
    for _ in range(bursts):
        slider = sliders[0]
        slider.handle.focus()
        page.evaluate("() => window.__bmcWatch.reset()")
        start = time.monotonic()
        for k in range(5):  # like a hand: a key every HAND seconds
            time.sleep(max(0.0, start + k * HAND - time.monotonic()))
            page.keyboard.press(slider.key())
        seen = _settle(page)
        if seen["keys"] and seen["changes"]:
            settles.append(max(0.0, seen["changes"][-1] - seen["keys"][-1]))
        else:
            misses += 1
        _wait_idle(page, quiet=0.3)
    drag = _drag(page, sliders[0].handle)
    _settle(page)
    _wait_idle(page, quiet=0.3)
    values = np.array(singles)
    return {
        "p50": float(np.percentile(values, 50)) if values.size else float("nan"),
        "p95": float(np.percentile(values, 95)) if values.size else float("nan"),
        "burst": float(np.median(settles)) if settles else float("nan"),
        "burst_max": float(np.max(settles)) if settles else float("nan"),
        "drag_fps": drag["fps"], "drag": drag,
        "n": int(values.size), "bursts": len(settles), "misses": misses,
        "singles": singles, "settles": settles,
    }


def _kernel_seconds(page, names: list[str], renderer: str) -> dict[str, float]:
    """Median kernel time per update [ms] (check, update, describe, send), per explorer."""
    code = ("import json, statistics\nfrom bmc.widgets import _base\n"
            "print(json.dumps({b.view.uid: 1e3 * statistics.median(b.explorer.seconds) "
            "for b in list(_base._REGISTRY.values()) if b.explorer.seconds}))")
    told = json.loads(page.evaluate(JS_EXEC, {"code": code}).strip().splitlines()[-1])
    out = {}
    for name in names:
        uid = page.locator(f".bench-{name}-{renderer} [data-uid]").first.get_attribute(
            "data-uid")
        out[name] = told.get(uid, float("nan"))
    return out


class _Load:
    """``n`` busy processes (the artificial load), stopped by their PIDs."""

    def __init__(self, n: int) -> None:
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                      for _ in range(n)]

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _load() -> list[float]:
    return [round(v, 2) for v in os.getloadavg()]


def _table(results: dict[str, dict], kernel: dict[str, float]) -> str:
    lines = ["| explorer | p50 [ms] | p95 [ms] | burst median [ms] | burst max [ms] | "
             "drag [frames/s] | drag: value changes [1/s] | drag: most value changes the "
             "slider allows [1/s] | drag: CPU of browser / kernel [s] | kernel per update "
             "[ms] | presses / bursts |",
             "|---|" + "---:|" * 10]
    for name, r in results.items():
        cpu = r["drag"].get("cpu", {})
        lines.append(
            f"| {name} | {r['p50']:.0f} | {r['p95']:.0f} | {r['burst']:.0f} | "
            f"{r['burst_max']:.0f} | {r['drag_fps']:.0f} | "
            f"{r['drag'].get('values_per_s', float('nan')):.0f} | "
            f"{r['drag'].get('most_values_per_s', float('nan')):.0f} | "
            f"{cpu.get('browser', float('nan')):.1f} / {cpu.get('kernel', float('nan')):.1f}"
            f" of {r['drag'].get('wall', float('nan')):.1f} | "
            f"{kernel.get(name, float('nan')):.0f} | {r['n']} / {r['bursts']} |")
    return "\n".join(lines)


def _cpu_text(cpu: dict[str, float]) -> str:
    return ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in cpu.items()) or "n/a"


def _met(results: dict[str, dict], *, drag: bool) -> bool:
    return all(r["p50"] <= GOAL_P50 and r["p95"] <= GOAL_P95 and r["burst_max"] <= GOAL_BURST
               and (not drag or r["drag_fps"] >= GOAL_DRAG) for r in results.values())


def _readme_rows(phases: dict[str, dict]) -> str:
    """Rows of README's goals table (case | goal | measured | status), one per phase."""
    rows = []
    for phase, data in phases.items():
        r = data["results"]["canvas"]
        if not r:
            continue
        p50, p95 = [v["p50"] for v in r.values()], [v["p95"] for v in r.values()]
        burst, drag = [v["burst_max"] for v in r.values()], [v["drag_fps"] for v in r.values()]
        idle = phase == "idle"
        goal = ("p50 <= 100 ms, p95 <= 150 ms, bursts <= 200 ms" +
                (", drag >= 20 frames/s" if idle else ""))
        ok = _met(r, drag=idle)
        load = data["load"]
        rows.append(
            f"| Explorer latency in JupyterLab, {phase} (load average {load['during'][0]:.1f}"
            f"{', ' + str(data['busy']) + ' busy processes' if data['busy'] else ''}), key "
            f"press to changed pixels ({len(r)} explorers) | {goal} | p50 "
            f"{min(p50):.0f}-{max(p50):.0f} ms, p95 {min(p95):.0f}-{max(p95):.0f} ms, bursts "
            f"(last key to last frame, worst) {min(burst):.0f}-{max(burst):.0f} ms, drag "
            f"{min(drag):.0f}-{max(drag):.0f} frames/s | {'met' if ok else '**not met**'} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return 0 if every explorer meets the goals, 1 otherwise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=16, help="single presses per explorer")
    parser.add_argument("--bursts", type=int, default=5, help="bursts of five per explorer")
    parser.add_argument("--only", nargs="*", choices=sorted(EXPLORERS), default=None)
    parser.add_argument("--phases", nargs="*", choices=["idle", "load"],
                        default=["idle", "load"])
    parser.add_argument("--load", type=int, default=os.cpu_count() or 2,
                        help="busy processes of the loaded phase (default: one per core)")
    parser.add_argument("--png", action="store_true",
                        help="also measure the inline-PNG renderer, in the same page")
    parser.add_argument("--json", type=Path, default=HERE / "results_explorers.json")
    parser.add_argument("--settle", type=float, default=20.0,
                        help="seconds between building the explorers and the first press: "
                             "the energy explorer fills its caches in a background thread")
    args = parser.parse_args(argv)
    names = args.only or list(EXPLORERS)
    renderers = ("canvas", "png") if args.png else ("canvas",)
    chromium = os.environ.get("BMC_CHROMIUM", "/usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="bmc-bench-explorers-"))
    root = base / "root"
    root.mkdir()
    (root / "bench.ipynb").write_text(json.dumps(_notebook(names, renderers)))
    proc, url, token, log = _start_lab(root, base)
    phases: dict[str, dict] = {}
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                str(base / "profile"), executable_path=chromium, headless=True,
                args=CHROMIUM_FLAGS, viewport={"width": 1280, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.goto(f"{url}/lab?reset&token={token}")
            page.wait_for_function("() => window.jupyterapp !== undefined")
            page.evaluate(JS_OPEN, {"path": "bench.ipynb"})
            for name in names:
                for renderer in renderers:
                    page.wait_for_selector(f".bench-{name}-{renderer} .bmc-figure",
                                           timeout=240_000)
            _wait_idle(page, quiet=1.0, timeout=240)
            time.sleep(args.settle)  # one-off warm-ups (the energy explorer's caches)
            for phase in args.phases:
                busy = args.load if phase == "load" else 0
                load = {"before": _load()}
                stress = _Load(busy) if busy else None
                try:
                    if stress:
                        time.sleep(5)  # the busy processes take their share first
                    results: dict[str, dict] = {r: {} for r in renderers}
                    for name in names:
                        for renderer in renderers:
                            r = results[renderer][name] = measure(page, name, renderer,
                                                                  args.presses, args.bursts)
                            print(f"{phase:5s} {renderer:6s} {name:10s} p50 {r['p50']:5.0f} "
                                  f"p95 {r['p95']:5.0f} burst {r['burst']:5.0f} (max "
                                  f"{r['burst_max']:4.0f}) ms, drag {r['drag_fps']:4.0f} "
                                  f"frames/s (n {r['n']}, misses {r['misses']})", flush=True)
                        load.setdefault("during", _load())
                    kernel = {r: _kernel_seconds(page, names, r) for r in renderers}
                    ceiling = drag_ceiling(page)
                    print(f"{phase:5s} control slider without a kernel: drag "
                          f"{ceiling['fps']:.0f} frames/s", flush=True)
                finally:
                    if stress:
                        stress.stop()
                load["after"] = _load()
                phases[phase] = {"busy": busy, "load": load, "results": results,
                                 "kernel_ms": kernel, "ceiling": ceiling}
            context.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
        shutil.rmtree(base, ignore_errors=True)
    info = {"machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "presses": args.presses, "bursts": args.bursts}
    md = [f"# Explorer latency in the browser\n\nReal key presses and a mouse drag in "
          f"JupyterLab (headless Chromium) to changed pixels of the figure, "
          f"`python benchmarks/bench_explorers_browser.py`; {info['machine']}, "
          f"{info['date']}. Single presses: {args.presses} per explorer over all its "
          f"sliders (keydown to the first changed frame); bursts: {args.bursts} of five "
          f"presses {HAND * 1000:.0f} ms apart (last keydown to the last changed frame); "
          f"drag: the first slider dragged across its track and back for 2 s (changed "
          f"frames per second, and how often the slider's value changed meanwhile: a "
          f"slider of few steps changes value less often than a figure could follow); "
          f"kernel: median time of one update in the kernel (check, update, describe, "
          f"send)."]
    for phase, data in phases.items():
        load = data["load"]
        for renderer, results in data["results"].items():
            md.append(f"\n## {phase}, {renderer} renderer\n\nLoad average (1/5/15 min) "
                      f"before {load['before']}, during {load.get('during')}, after "
                      f"{load['after']}; {data['busy']} busy processes of the benchmark. "
                      f"The control (a slider of the page repainting a canvas of an "
                      f"explorer's size, no kernel) drags at {data['ceiling']['fps']:.0f} "
                      f"frames/s: the most this harness and browser deliver; during its "
                      f"{data['ceiling'].get('wall', float('nan')):.1f} s drag the processes "
                      f"used {_cpu_text(data['ceiling'].get('cpu', {}))} of CPU (2 cores: at "
                      f"most {2 * data['ceiling'].get('wall', float('nan')):.1f} s).\n\n"
                      + _table(results, data["kernel_ms"][renderer]))
    md.append("\nREADME rows:\n\n" + _readme_rows(phases) + "\n")
    text = "\n".join(md)
    print("\n" + text)
    args.json.write_text(json.dumps({"info": info, "phases": phases}, indent=1))
    args.json.with_suffix(".md").write_text(text)
    met = all(_met(data["results"]["canvas"], drag=phase == "idle")
              for phase, data in phases.items())
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
