"""Every notebook, run in a real JupyterLab in headless Chromium, with its widgets moved.

What is checked, for each ``notebooks/*.ipynb`` (a glob: new notebooks are picked up)
--------------------------------------------------------------------------------------
1. The notebook opens in JupyterLab with a ``python3`` kernel; its stored outputs are cleared,
   ``notebook:run-all-cells`` finishes, the kernel goes idle and every non-empty code cell
   has run.
2. The notebook model holds no error output and no stderr output.
3. The page shows no traceback and no stderr in any output area (widget ``Output`` areas
   included), no "Error displaying widget", no uncaught JavaScript error, and JupyterLab's
   log console for the notebook is empty. Errors raised inside widget callbacks reach the
   page only there: ipywidgets sends them to the log console, never to a cell's outputs.
4. Widgets render: every widget view in the model shows up in the page (within 30 s), and
   if the notebook uses ``bmc.widgets`` there is at least one ``.bmc-explorer``.
5. Every explorer and every animation renders: the page holds one ``.bmc-player`` per
   animation the kernel displayed (an output whose text is ``Animation(...)`` or
   ``Player(...)``) and one other ``.bmc-explorer`` per other widget view; each is visible and
   drawn (a ``<canvas>`` with at least one painted pixel, or a loaded ``<img>``).
6. Every enabled slider of every explorer (an animation's frame slider included) is moved
   one step with the keyboard (as a student with arrow keys would) and the explorer's figure
   (the pixels of the ``<canvas>`` the browser draws it on, or the ``<img>`` of the inline-PNG
   renderer) or its text must change to something that is not a traceback.
7. Play is pressed on every animation: the frame drawn in the browser must advance (by
   ``PLAY_FRAMES`` within ``PLAY_TIMEOUT``), then it is paused.
8. A screenshot goes to ``tests/browser/screenshots/<notebook>.png`` (git-ignored).

Three helper notebooks next to this file are controls, never course material:
``widget_smoke.ipynb`` (a working explorer: every check must pass and two sliders must move
the figure), ``broken_widget.ipynb`` (its ``update`` raises when a slider moves: the checks
must report it) and ``animation_player.ipynb`` (pressing play must advance the frame drawn in
the browser). All are ignored by nbval (``collect_ignore_glob`` in ``conftest.py``).

Running
-------
Needs Chromium at ``/usr/bin/chromium`` (``sudo apt-get install chromium``; never
``playwright install``) or ``BMC_CHROMIUM=/path/to/chrome``. Without it the tests skip, unless
``BMC_REQUIRE_BROWSER=1`` (CI) makes that a failure::

    python -m pytest tests/browser -p no:randomly          # all notebooks and the controls
    python -m pytest tests/browser -k 02_two_link           # one notebook
    python -m pytest -m "not browser"                       # everything else

The time each notebook took is printed at the end of the run.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
KEEP_AGG = os.environ.get("BMC_KEEP_AGG") == "1"  # keep the compared images (screenshots/agg)
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
SCREENSHOTS = HERE / "screenshots"
CONTROLS_DIR = "_browser_controls"  # same folder name as in conftest.py

# Bounds [s]. The slowest course notebook runs in < 60 s under nbval on 2 cores; a browser run
# adds page load and kernel start (~10 s) and rendering.
LAB_LOAD_TIMEOUT = 90.0
KERNEL_START_TIMEOUT = 90.0
RUN_ALL_TIMEOUT = 240.0
WIDGET_RENDER_TIMEOUT = 30.0  # every widget view in the model shows (or shows its error)
WIDGET_CHANGE_TIMEOUT = 60.0  # one slider step: the kernel recomputes and redraws one figure
SETTLE = 1.0  # the page must look finished for this long before it counts as finished
POLL = 0.25
GRACE = 3.0  # after the kernel handled a slider change, the new output must show within this
PLAY_TIMEOUT = 10.0  # pressing play: the drawn frame must advance by PLAY_FRAMES within this
PLAY_FRAMES = 3  # at 20-60 frames/s, three frames take 0.05-0.15 s: slack for a busy machine

ERROR_DISPLAYING_WIDGET = "Error displaying widget"
STDERR_MIME = "application/vnd.jupyter.stderr"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# --- JavaScript run in the page --------------------------------------------------------------

JS_OPEN = """
async ({path, timeout}) => {
  const open = async () => {
    const app = window.jupyterapp;
    await app.started;
    await app.restored;
    const panel = await app.commands.execute(
      'docmanager:open', {path, factory: 'Notebook', kernel: {name: 'python3'}});
    window.__bmcPanel = panel;
    window.__bmcBusy = 0;  // how often the kernel went busy: a slider change must make it work
    panel.sessionContext.statusChanged.connect((_, status) => {
      if (status === 'busy') window.__bmcBusy += 1;
    });
    await panel.context.ready;
    app.shell.activateById(panel.id);
    return 'opened';
  };
  const late = new Promise((resolve) => setTimeout(() => resolve('timed out'), timeout));
  return Promise.race([open(), late]);
}
"""

JS_RUN_ALL = """
() => {
  // Clear the stored outputs first, so that an execution count proves that a cell ran now.
  const commands = window.jupyterapp.commands;
  window.__bmcRunAll = 'running';
  commands.execute('notebook:clear-all-cell-outputs')
    .then(() => commands.execute('notebook:run-all-cells'))
    .then(
      (r) => { window.__bmcRunAll = 'done'; },
      (e) => { window.__bmcRunAll = 'failed: ' + e; });
}
"""

# A snapshot of the notebook model and of what the page shows.
JS_STATE = """
() => {
  const panel = window.__bmcPanel;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const model = panel.content.model;
  const state = {
    kernel: kernel ? kernel.status : 'none', runAll: window.__bmcRunAll || '',
    running: 0, unexecuted: 0, errors: [], stderr: [], widgetViews: 0, animationViews: 0,
    mentionsBmcWidgets: false,
  };
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    const source = cell.sharedModel.getSource();
    if (/bmc\\.widgets|from bmc import widgets/.test(source)) state.mentionsBmcWidgets = true;
    if (cell.executionState === 'running') state.running += 1;
    if (source.trim() && cell.executionCount === null) state.unexecuted += 1;
    for (let j = 0; j < cell.outputs.length; j++) {
      const out = cell.outputs.get(j).toJSON();
      if (out.output_type === 'error') {
        state.errors.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
      } else if (out.output_type === 'stream' && out.name === 'stderr') {
        const text = Array.isArray(out.text) ? out.text.join('') : out.text;
        state.stderr.push(`cell ${i}: ${text.slice(0, 500)}`);
      } else if (out.data && out.data['%WIDGET%']) {
        state.widgetViews += 1;
        // what the kernel says it displayed: bmc.drawing.animation or the player itself
        const text = [].concat(out.data['text/plain'] || []).join('');
        if (/^(Animation|Player)\\(/.test(text)) state.animationViews += 1;
      }
    }
  }
  return state;
}
""".replace("%WIDGET%", WIDGET_MIME)

JS_PAGE_PROBLEMS = """
() => {
  const node = window.__bmcPanel.node;
  const problems = [];
  for (const el of node.querySelectorAll('[data-mime-type="%STDERR%"]')) {
    problems.push('error or stderr shown in an output area: ' + el.textContent.trim().slice(-600));
  }
  for (const el of node.querySelectorAll('.jp-OutputArea')) {
    const text = el.textContent;
    const innermost = !el.querySelector('.jp-OutputArea');
    const shown = el.querySelector('[data-mime-type="%STDERR%"]');  // reported just above
    if (text.includes('Traceback (most recent call last)') && innermost && !shown) {
      problems.push('traceback in an output area: ' + text.trim().slice(-600));
    }
  }
  if (node.textContent.includes('%EDW%')) {
    const el = Array.from(node.querySelectorAll('.jp-OutputArea-output'))
      .find((e) => e.textContent.includes('%EDW%'));
    problems.push((el ? el.textContent : '%EDW%').trim().slice(0, 600));
  }
  // top-level widget views that have rendered: a view inside the output, or the output
  // itself showing "Error displaying widget"
  const renderedViews = Array.from(node.querySelectorAll(
    '.jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output'))
    .filter((e) => e.querySelector(':scope > .jupyter-widgets')
      || (e.matches('.jupyter-widgets') && e.textContent.trim())).length;
  return {
    problems,
    renderedViews,
    explorers: node.querySelectorAll('.bmc-explorer:not(.bmc-player)').length,
    animations: node.querySelectorAll('.bmc-player').length,
    widgets: node.querySelectorAll('.jupyter-widgets').length,
  };
}
""".replace("%STDERR%", STDERR_MIME).replace("%EDW%", ERROR_DISPLAYING_WIDGET)

# What an explorer currently shows: the pixels of its canvases (figures drawn in the browser,
# hashed), its images (the inline-PNG renderer) and the text of its Output areas.
JS_SIGNATURE = """
(el) => {
  const hash = (s) => {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    return s.length + ':' + h;
  };
  return Array.from(el.querySelectorAll('canvas')).map((c) => hash(c.toDataURL())).join('|')
    + '#' + Array.from(el.querySelectorAll('.widget-output img')).map((i) => i.src).join('|')
    + '#' + Array.from(el.querySelectorAll('.widget-output')).map((o) => o.textContent).join('|');
}
"""

# Is this explorer or animation visible and drawn? Returns a problem, or '' when it is.
JS_DRAWN = """
(el) => {
  const box = el.getBoundingClientRect();
  if (box.width < 1 || box.height < 1 || getComputedStyle(el).visibility === 'hidden') {
    return `not visible (${Math.round(box.width)} x ${Math.round(box.height)} px)`;
  }
  const painted = (c) => {
    if (!c.width || !c.height || c.getBoundingClientRect().width < 1) return false;
    const pixels = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) return true;
    return false;
  };
  const canvases = Array.from(el.querySelectorAll('canvas'));
  const images = Array.from(el.querySelectorAll('img'));
  if (canvases.some(painted) || images.some((i) => i.complete && i.naturalWidth > 0)) return '';
  return `nothing drawn (${canvases.length} blank canvas(es), ${images.length} image(s))`;
}
"""

JS_LOG_ENTRIES = """
() => Array.from(document.querySelectorAll('.jp-LogConsolePanel .jp-OutputArea-child'))
  .filter((e) => e.offsetParent !== null)
  .map((e) => {
    const prompt = e.querySelector('[data-log-level]');
    return {level: prompt ? prompt.dataset.logLevel : '?', text: e.textContent.trim()};
  })
"""


# --- explorers: Matplotlib's own rendering, accessibility, the keyboard, the layout ----------

# The canvas against Agg. The explorer's figure (background PNG, the canvas the browser draws
# on, legends) is screenshot in the page and compared with Matplotlib's Agg rendering of an
# independent copy of the same figure at the same values (built again in the kernel through
# the explorer's own function, never touched by the browser renderer), on the same canvas
# geometry. Two rasterisers never agree to the pixel (anti-aliasing, hinting, the browser's
# glyphs for Matplotlib's mathtext), so two measures look past that:
# - ink: both images blurred (Gaussian, AGG_BLUR px); a pixel differs where a colour channel
#   of the blurred images differs by more than AGG_INK. A glyph's anti-aliasing or a stroke
#   a pixel aside barely changes the blurred image; a missing, stray or doubled word, line
#   or tick does (a title painted over another one doubles its ink). At most AGG_INK_LIMIT.
# - pixels: a pixel of either image differs when no pixel within AGG_RADIUS of it in the
#   other image is within AGG_TOLERANCE of its colour (what one renderer draws and the other
#   does not, thin lines included). At most AGG_LIMIT.
# Measured on every course explorer (see the terminal summary): ink at most ~70 px, pixels at
# most ~310 px, except the one-link explorer (495-524 px: its verdict line under the panels
# adds ~200 px of glyph edges to its titles'); the three defects of issue 33 put back
# (canvas_defects.ipynb): ink 335-1515 px.
AGG_BLUR = 2.0  # [px] standard deviation of the blur
AGG_INK = 0.12  # [0-1] difference of a blurred channel that counts
AGG_INK_LIMIT = 150  # [px]
AGG_RADIUS = 1  # [px]
AGG_TOLERANCE = 0.35  # largest channel difference [0-1] that still counts as the same colour
AGG_LIMIT = 400  # [px]
AGG_LIMITS = {"01_one_link explorer 1": 650}  # [px] per explorer, where measured above
AGG_SETTLE_TIMEOUT = 60.0  # [s] for the kernel and the browser to show one state
# [s] for the frames computed ahead along a slider under the pointer: at most about 100
# positions of at most 50 ms each on this machine (bmc.widgets._sweep), with room
AHEAD_TIMEOUT = 30.0

# Slider tracks must stay usable (draggable) in windows this wide [px].
WINDOW_WIDTHS = (375, 1280, 1920)
MIN_TRACK = 150.0  # [px]

# axe-core's WCAG 2.1 A and AA rules (axe-core itself: conftest.py, AXE_VERSION)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

JS_KERNEL = """
async ({code}) => {
  const kernel = window.__bmcPanel.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  let out = '';
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'stream') out += msg.content.text;
    else if (t === 'error') out += `${msg.content.ename}: ${msg.content.evalue}`;
  };
  await future.done;
  return out;
}
"""

JS_VIEW_STATE = """
(el) => {
  const view = el.querySelector('[data-uid]');
  const fig = el.querySelector('.bmc-figure');
  return view ? {version: Number(view.dataset.version || -1), busy: view.dataset.busy === '1',
                 name: fig ? fig.getAttribute('aria-label') : null} : null;
}
"""

JS_CANVAS_HASH = """
(el) => {
  const c = el.querySelector('.bmc-figure canvas');
  const img = el.querySelector('.bmc-figure img');
  if (!c) return img ? img.src : '';
  const data = new Uint32Array(c.getContext('2d').getImageData(0, 0, c.width, c.height)
    .data.buffer);
  let h = 0;
  for (let i = 0; i < data.length; i++) h = (Math.imul(h, 31) + data[i]) | 0;
  return String(h);
}
"""

JS_TRACKS = """
(el) => Array.from(el.querySelectorAll('.bmc-controls input[type=range]'))
  .map((i) => ({label: i.labels.length ? i.labels[0].textContent : '?',
                width: i.getBoundingClientRect().width}))
"""


@dataclass
class AggDifference:
    """How an explorer's figure in the browser differs from Matplotlib's Agg rendering."""

    explorer: str
    when: str
    ink: int  # pixels where the blurred images differ (AGG_INK)
    pixels: int  # pixels drawn by only one of the two renderers (AGG_TOLERANCE)
    blob: int  # the most ink differences in one connected patch
    area: int  # pixels of the figure
    scaled: bool  # the figure was shown scaled (narrow window): compared after resizing

    @property
    def ok(self) -> bool:
        return self.ink <= AGG_INK_LIMIT and self.pixels <= self.limit

    @property
    def limit(self) -> int:
        return AGG_LIMITS.get(self.explorer, AGG_LIMIT)

    def describe(self) -> str:
        return (f"{self.explorer} ({self.when}): the blurred images differ at {self.ink} px "
                f"(limit {AGG_INK_LIMIT}), at most {self.blob} in one patch; {self.pixels} "
                f"px drawn by one renderer only (limit {self.limit}); of {self.area} px")


def _rgb(png: bytes) -> np.ndarray:
    """A PNG as (h, w, 3) floats in [0, 1], composited over white."""
    import io

    from matplotlib.image import imread

    image = imread(io.BytesIO(png), format="png").astype(float)
    if image.shape[2] == 4:
        alpha = image[..., 3:]
        image = image[..., :3] * alpha + (1.0 - alpha)
    return image[..., :3]


def _unexplained(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels of ``a`` with no pixel of ``b`` within AGG_RADIUS of the same colour."""
    r = AGG_RADIUS
    h, w, _ = a.shape
    padded = np.pad(b, ((r, r), (r, r), (0, 0)), constant_values=1.0)
    best = np.full((h, w), np.inf)
    for dy in range(2 * r + 1):
        for dx in range(2 * r + 1):
            np.minimum(best, np.abs(a - padded[dy:dy + h, dx:dx + w]).max(axis=2), out=best)
    return best > AGG_TOLERANCE


def compare_with_agg(shot: np.ndarray, truth: np.ndarray,
                     slack: int) -> tuple[int, int, int, np.ndarray]:
    """Ink differences, the largest patch of them, pixel differences, and the ink mask.

    ``shot`` is a screenshot ``slack`` px larger than the figure on every side (the page
    may place it at a fraction of a pixel); the crop that matches the truth best is used.
    """
    from scipy import ndimage

    h, w, _ = truth.shape
    best = None
    for y in range(2 * slack + 1):
        for x in range(2 * slack + 1):
            crop = shot[y:y + h, x:x + w]
            if crop.shape != truth.shape:
                continue
            cost = float(np.abs(crop - truth).sum())
            if best is None or cost < best[0]:
                best = (cost, crop)
    crop = best[1]
    blurred = [np.stack([ndimage.gaussian_filter(image[..., c], AGG_BLUR) for c in range(3)],
                        axis=-1) for image in (crop, truth)]
    ink = np.abs(blurred[0] - blurred[1]).max(axis=2) > AGG_INK
    labels, n = ndimage.label(ink)
    blob = int(np.bincount(labels[ink], minlength=n + 1)[1:].max()) if n else 0
    pixels = _unexplained(crop, truth) | _unexplained(truth, crop)
    return int(ink.sum()), blob, int(pixels.sum()), ink


def _kernel(page: Page, code: str) -> str:
    return page.evaluate(JS_KERNEL, {"code": code})


def _settle_view(page: Page, explorer: Locator, version: int | None = None,
                 timeout: float = AGG_SETTLE_TIMEOUT) -> dict:
    """Wait until the kernel is idle and the view shows ``version`` (or is stable) and idle."""
    deadline = time.monotonic() + timeout
    last, since = None, None
    while True:
        kernel = page.evaluate(JS_STATE)["kernel"]
        view = explorer.evaluate(JS_VIEW_STATE)
        now = time.monotonic()
        ready = (kernel == "idle" and view is not None and not view["busy"]
                 and (version is None or view["version"] >= version))
        if ready and view == last:
            since = since or now
            if now - since >= 0.3:
                return view
        else:
            since = None
        last = view
        if now > deadline:
            return view or {}
        time.sleep(0.05)


def agg_check(page: Page, server, explorer: Locator, name: str, when: str,
              keep: Path | None = None) -> AggDifference | None:
    """Compare the explorer's figure in the page with Matplotlib's Agg rendering of it."""
    uid = explorer.locator("[data-uid]").first.get_attribute("data-uid")
    _settle_view(page, explorer)
    folder = server.root / "_agg"
    folder.mkdir(exist_ok=True)
    target = folder / f"{uid}.png"
    code = ("print(__import__('bmc.widgets._base', fromlist=['_']).save_agg_image("
            f"{uid!r}, {str(target)!r}))")
    told = _kernel(page, code).strip()
    try:
        info = json.loads(told.splitlines()[-1])
    except (ValueError, IndexError):
        raise AssertionError(f"Agg rendering of {name} failed in the kernel: {told}") from None
    if "error" in info:
        if "no twin" in info["error"]:
            return None  # an explorer built by hand in a cell: nothing to build again
        raise AssertionError(f"Agg rendering of {name} failed in the kernel: {info['error']}")
    _settle_view(page, explorer, info["version"])
    figure = explorer.locator(".bmc-figure")
    figure.scroll_into_view_if_needed()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")
    box = figure.bounding_box()
    slack = 3
    shot = _rgb(page.screenshot(clip={"x": box["x"] - slack, "y": box["y"] - slack,
                                      "width": box["width"] + 2 * slack,
                                      "height": box["height"] + 2 * slack}))
    truth = _rgb(target.read_bytes())
    scaled = abs(box["width"] - truth.shape[1]) > 1.0
    if scaled:  # a narrow page shows the figure smaller: compare at its size on screen
        from PIL import Image

        size = (int(round(box["width"])), int(round(box["height"])))
        truth = np.asarray(Image.fromarray((truth * 255).astype(np.uint8)).resize(
            size, Image.LANCZOS), dtype=float) / 255
    ink, blob, pixels, mask = compare_with_agg(shot, truth, slack)
    if keep is not None:
        from PIL import Image

        keep.mkdir(parents=True, exist_ok=True)
        stem = f"{name}-{when}".replace(" ", "_")
        Image.fromarray((shot * 255).astype(np.uint8)).save(keep / f"{stem}-browser.png")
        Image.fromarray((truth * 255).astype(np.uint8)).save(keep / f"{stem}-agg.png")
        Image.fromarray(((1 - mask) * 255).astype(np.uint8)).save(keep / f"{stem}-diff.png")
    return AggDifference(name, when, ink, pixels, blob, int(truth.shape[0] * truth.shape[1]),
                         scaled)


def _press_and_wait(page: Page, explorer: Locator, key: str) -> tuple[bool, bool]:
    """Press ``key`` on the focused control; whether the figure's pixels and name changed."""
    before = explorer.evaluate(JS_CANVAS_HASH)
    name = explorer.evaluate(JS_VIEW_STATE)["name"]
    version = explorer.evaluate(JS_VIEW_STATE)["version"]
    page.keyboard.press(key)
    # drawn: a newer version, nothing in flight; or nothing comes: the kernel idle and no
    # answer awaited for GRACE (an error, or a key that changed nothing)
    deadline = time.monotonic() + WIDGET_CHANGE_TIMEOUT
    quiet = None
    while time.monotonic() < deadline:
        state = explorer.evaluate(JS_VIEW_STATE)
        if state["version"] > version and not state["busy"]:
            break
        now = time.monotonic()
        if not state["busy"] and page.evaluate(JS_STATE)["kernel"] == "idle":
            quiet = quiet or now
            if now - quiet > GRACE:
                break
        else:
            quiet = None
        time.sleep(0.05)
    _settle_view(page, explorer, timeout=10.0)
    after = explorer.evaluate(JS_CANVAS_HASH)
    return after != before, explorer.evaluate(JS_VIEW_STATE)["name"] != name


def keyboard_walk(page: Page, explorer: Locator, label: str, report: BrowserReport) -> int:
    """Operate every control of the explorer with the keyboard alone (Tab, arrows, space).

    Focus enters the explorer as it would from the element before it; each Tab must reach
    the next control, each key must change the figure (its pixels) and its accessible name.
    Returns how many controls did both.
    """
    controls = explorer.locator(".bmc-controls input, .bmc-controls select")
    n = controls.count()
    moved = 0
    explorer.evaluate("(el) => { const v = el.querySelector('[data-uid]');"
                      " v.tabIndex = -1; v.focus(); }")
    for k in range(n):
        page.keyboard.press("Tab")
        control = controls.nth(k)
        focused = control.evaluate("(c) => c === document.activeElement")
        what = control.evaluate(
            "(c) => ({type: c.type || c.tagName.toLowerCase(), label: c.labels.length ? "
            "c.labels[0].textContent : '', value: c.value, max: c.max, "
            "checked: !!c.checked, last: c.tagName === 'SELECT' ? "
            "c.selectedIndex === c.options.length - 1 : false})")
        where = f"{label}, control {what['label']!r}"
        if not focused:
            report.problems.append(f"{where}: Tab did not reach it (keyboard order)")
            control.focus()
        if what["type"] == "range":
            key = "ArrowLeft" if float(what["value"]) >= float(what["max"]) else "ArrowRight"
        elif what["type"].startswith("select"):
            key = "ArrowUp" if what["last"] else "ArrowDown"
        else:
            key = "Space"
        pixels, name = _press_and_wait(page, explorer, key)
        shown = explorer.locator(f'[data-mime-type="{STDERR_MIME}"]')
        if shown.count():
            report.problems.append(f"{where}: {key} showed an error in the explorer: "
                                   f"{_last_lines(shown.last.text_content())}")
        elif not pixels:
            report.problems.append(f"{where}: {key} did not change the figure")
        elif not name:
            report.problems.append(f"{where}: {key} did not change the figure's "
                                   "accessible name")
        else:
            moved += 1
    return moved


def burst(page: Page, explorer: Locator, presses: int = 5, spacing: float = 0.06) -> None:
    """Press an arrow key on the first slider ``presses`` times, like a hand (~60 ms apart)."""
    slider = explorer.locator(".bmc-controls input[type=range]").first
    if not slider.count():
        return
    slider.focus()
    value, top = float(slider.input_value()), float(slider.get_attribute("max"))
    key = "ArrowLeft" if value >= top else "ArrowRight"
    for _ in range(presses):
        page.keyboard.press(key)
        time.sleep(spacing)


def drawn_from_frames_ahead(page: Page, explorer: Locator) -> bool | None:
    """Rest the pointer on the first slider, then press a key: drawn from frames ahead?

    The pointer on a slider makes the browser ask the kernel for the figure at the slider's
    positions nearest its value, nearest first (bmc.widgets._sweep); once three have come,
    or none comes any more (the kernel idle, the count still for half a second: all
    computed already), one key press must be drawn from them, with no round trip. ``None``
    for an explorer without a slider or drawn by the kernel (PNG).
    """
    slider = explorer.locator(".bmc-controls input[type=range]").first
    view = explorer.locator("[data-uid]").first
    if not slider.count() or not explorer.locator(".bmc-figure canvas").count():
        return None
    first = int(view.get_attribute("data-held") or 0)
    slider.hover()
    deadline = time.monotonic() + AHEAD_TIMEOUT
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        held = view.get_attribute("data-held")
        if int(held or 0) >= first + 3:
            break
        if held != last or page.evaluate(JS_STATE)["kernel"] != "idle":
            last, since = held, time.monotonic()
        elif time.monotonic() - since > 0.5:
            break
        time.sleep(0.05)
    before = int(view.get_attribute("data-ahead") or 0)
    slider.focus()
    value, top = float(slider.input_value()), float(slider.get_attribute("max"))
    page.keyboard.press("ArrowLeft" if value >= top else "ArrowRight")
    deadline = time.monotonic() + 5.0
    while int(view.get_attribute("data-ahead") or 0) <= before and time.monotonic() < deadline:
        time.sleep(0.02)
    ahead = int(view.get_attribute("data-ahead") or 0) > before
    # the student moves on: the slider left, nothing more computed ahead
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    return ahead


def track_widths(page: Page) -> dict[int, list[tuple[str, float]]]:
    """Width [px] of every slider track of every explorer, per window width."""
    size = page.viewport_size
    widths = {}
    try:
        for width in WINDOW_WIDTHS:
            page.set_viewport_size({"width": width, "height": size["height"]})
            time.sleep(0.5)  # JupyterLab lays out again
            rows = []
            views = page.locator(".bmc-explorer:not(.bmc-player)")
            for i in range(views.count()):
                rows += [(f"explorer {i + 1}, {t['label']}", t["width"])
                         for t in views.nth(i).evaluate(JS_TRACKS)]
            widths[width] = rows
    finally:
        page.set_viewport_size(size)
    return widths


JS_AXE = """
async ({selector, exclude, tags}) => {
  const context = selector ? {include: Array.from(document.querySelectorAll(selector))}
                           : {include: [document], exclude: exclude.map((s) => [s])};
  const result = await window.axe.run(context, {runOnly: {type: 'tag', values: tags},
                                                resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
}
"""


def axe_run(page: Page, script: Path, selector: str | None, exclude: list[str]) -> list[dict]:
    """axe-core's violations (WCAG 2.1 A and AA) in the elements ``selector`` picks, or in the
    whole page but ``exclude``."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(script))
    return page.evaluate(JS_AXE, {"selector": selector, "exclude": exclude, "tags": AXE_TAGS})


# --- the check --------------------------------------------------------------------------------


@dataclass
class BrowserReport:
    """What one browser run of a notebook found."""

    notebook: str
    problems: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)  # [s] per phase
    explorers: int = 0  # .bmc-explorer views that are not animations
    animations: int = 0  # .bmc-player views (bmc.drawing.animation, bmc.widgets.animation)
    widgets: int = 0
    slider_moves: int = 0  # control changes (keyboard only) that changed figure and name
    agg: list[AggDifference] = field(default_factory=list)  # canvas against Agg
    ahead: int = 0  # explorers whose key press was drawn from frames computed ahead
    tracks: dict[int, list] = field(default_factory=dict)  # window width -> slider tracks
    axe: list[dict] = field(default_factory=list)  # violations in the explorers
    chrome: list[dict] = field(default_factory=list)  # ... in JupyterLab's own page

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return not self.problems

    def describe(self) -> str:
        """A failure message listing every problem."""
        lines = [f"{self.notebook}: {len(self.problems)} problem(s) in the browser"]
        lines += [f"  - {problem}" for problem in self.problems]
        return "\n".join(lines)


def _last_lines(text: str, n: int = 6) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-n:])


def _wait_until_settled(page: Page, deadline: float, *, need_all_cells: bool) -> dict:
    """Poll the model until the kernel is idle and no cell runs, for SETTLE seconds in a row.

    Returns the last state; its ``timed_out`` key says whether ``deadline`` passed first.
    """
    settled_since = None
    while True:
        state = page.evaluate(JS_STATE)
        finished = state["kernel"] in ("idle", "dead") and state["running"] == 0
        if need_all_cells:
            finished = finished and state["runAll"] != "running" and (
                state["unexecuted"] == 0 or state["errors"] or state["kernel"] == "dead")
        now = time.monotonic()
        if finished:
            settled_since = settled_since or now
            if now - settled_since >= SETTLE:
                state["timed_out"] = False
                return state
        else:
            settled_since = None
        if now > deadline:
            state["timed_out"] = True
            return state
        time.sleep(POLL)


def _slider_value(handle: Locator) -> str | None:
    # aria-valuetext carries the full value; noUiSlider rounds aria-valuenow to 0.1, so a
    # fine step (0.005 s) would look like no move at all.
    return handle.get_attribute("aria-valuetext") or handle.get_attribute("aria-valuenow")


def _at_max(handle: Locator) -> bool:
    top = handle.get_attribute("aria-valuemax")
    try:
        return float(_slider_value(handle)) >= float(top)
    except (TypeError, ValueError):  # e.g. a SelectionSlider's text label
        return handle.get_attribute("aria-valuenow") == top


def _move_slider(page: Page, explorer: Locator, handle: Locator, report: BrowserReport,
                 label: str) -> None:
    """Move one slider a step with the keyboard; record a problem if the output stays."""
    before = explorer.evaluate(JS_SIGNATURE)
    value = _slider_value(handle)
    at_max = _at_max(handle)
    vertical = handle.evaluate("(h) => !!h.closest('.widget-vslider')")
    key = {(False, False): "ArrowRight", (False, True): "ArrowLeft",
           (True, False): "ArrowUp", (True, True): "ArrowDown"}[(vertical, at_max)]
    busy = page.evaluate("() => window.__bmcBusy")
    handle.scroll_into_view_if_needed()
    handle.focus()
    page.keyboard.press(key)
    deadline = time.monotonic() + WIDGET_CHANGE_TIMEOUT
    while _slider_value(handle) == value:
        if time.monotonic() > deadline:
            report.problems.append(f"slider {label!r} did not move on {key}")
            return
        time.sleep(POLL)
    # The output has had its chance once the kernel has worked on the change (gone busy) and
    # is idle again; a short grace covers the redraw message still being rendered.
    worked = None
    while True:
        if explorer.evaluate(JS_SIGNATURE) != before:
            # Changed, but to a traceback? (an explorer that runs `update` inside its
            # Output shows the error there instead of the figure)
            shown = explorer.locator(f'[data-mime-type="{STDERR_MIME}"]')
            if shown.count():
                report.problems.append(f"moving slider {label!r} showed an error in the "
                                       f"explorer: {_last_lines(shown.last.text_content())}")
            else:
                report.slider_moves += 1
            return
        state = page.evaluate(JS_STATE)
        now = time.monotonic()
        if page.evaluate("() => window.__bmcBusy") > busy and state["kernel"] == "idle":
            worked = worked or now
        if state["kernel"] == "dead" or now > deadline or (worked and now - worked > GRACE):
            report.problems.append(
                f"moving slider {label!r} ({value} -> {_slider_value(handle)}) "
                "did not change the explorer's output")
            return
        time.sleep(POLL)


def _exercise_players(page: Page, report: BrowserReport) -> None:
    """Move the frame slider of every animation once (ipywidgets' slider, keyboard)."""
    explorers = page.locator(".bmc-player")
    for i in range(explorers.count()):
        explorer = explorers.nth(i)
        sliders = explorer.locator(".widget-slider")
        for j in range(sliders.count()):
            slider = sliders.nth(j)
            handle = slider.locator(".noUi-handle").first
            if slider.locator(".noUi-target[disabled]").count() or not handle.count():
                continue
            label = slider.locator(".widget-label").first.text_content() or f"#{j}"
            _move_slider(page, explorer, handle, report, f"animation {i + 1}, {label.strip()}")


def _check_explorers(page: Page, server, report: BrowserReport, axe: Path | None,
                     keep: Path | None) -> None:
    """Every explorer: axe-core, the canvas against Agg (at the values it opened with,
    after a keyboard step of every control, after a burst of key presses), the keyboard
    alone, its slider tracks at three window widths; JupyterLab's own page through axe."""
    explorers = page.locator(".bmc-explorer:not(.bmc-player)")
    if axe is not None and (explorers.count() or page.locator(".bmc-player").count()):
        report.axe = axe_run(page, axe, ".bmc-explorer", [])
        report.problems += [
            f"axe {v['id']} ({v['impact']}) in an explorer: {v['help']}; {v['nodes']} "
            f"element(s), e.g. {v['targets']}" for v in report.axe]
        report.chrome = axe_run(page, axe, None, [".bmc-explorer"])
    for i in range(explorers.count()):
        explorer = explorers.nth(i)
        name = f"{report.notebook} explorer {i + 1}"
        explorer.scroll_into_view_if_needed()
        checks = [agg_check(page, server, explorer, name, "as opened", keep)]
        report.slider_moves += keyboard_walk(page, explorer, f"explorer {i + 1}", report)
        checks.append(agg_check(page, server, explorer, name, "after a step of each control",
                                keep))
        burst(page, explorer)
        checks.append(agg_check(page, server, explorer, name, "after a burst of 5 keys",
                                keep))
        ahead = drawn_from_frames_ahead(page, explorer)
        if ahead is False:
            report.problems.append(f"{name}: a key press after the pointer rested on its "
                                   "first slider was not drawn from frames computed ahead")
        elif ahead:
            report.ahead += 1
            checks.append(agg_check(page, server, explorer, name,
                                    "a frame computed ahead", keep))
        for check in checks:
            if check is None:
                continue
            report.agg.append(check)
            if not check.ok:
                report.problems.append("canvas against Agg: " + check.describe())
    if explorers.count():
        report.tracks = track_widths(page)
        for width, rows in report.tracks.items():
            report.problems += [f"slider track {label!r} is {w:.0f} px wide in a {width} px "
                                f"window (at least {MIN_TRACK:.0f} px to drag it)"
                                for label, w in rows if w < MIN_TRACK]


def _check_views(page: Page, report: BrowserReport) -> None:
    """Every explorer and animation is visible and drawn."""
    views = page.locator(".bmc-explorer")  # the players carry .bmc-explorer too
    for i in range(views.count()):
        view = views.nth(i)
        view.scroll_into_view_if_needed()
        problem = view.evaluate(JS_DRAWN)
        if problem:
            kind = "animation" if "bmc-player" in (view.get_attribute("class") or "") else (
                "explorer")
            report.problems.append(f"{kind} {i + 1}: {problem}")


def _press_play(page: Page, report: BrowserReport) -> None:
    """Press Play on every animation: the frame drawn in the browser must advance; pause."""
    players = page.locator(".bmc-player")
    for i in range(players.count()):
        player = players.nth(i)
        drawing = player.locator("[data-frames]")
        buttons = player.locator(".widget-play button")
        if not drawing.count() or buttons.count() < 2:
            report.problems.append(f"animation {i + 1}: no drawing or no play button")
            continue
        player.scroll_into_view_if_needed()
        start = int(drawing.get_attribute("data-frame"))
        buttons.nth(0).click()
        deadline = time.monotonic() + PLAY_TIMEOUT
        frame = start
        while frame < start + PLAY_FRAMES and time.monotonic() < deadline:
            time.sleep(POLL / 5)
            frame = int(drawing.get_attribute("data-frame"))
        buttons.nth(1).click()  # pause: no more frames while the next one is checked
        if frame < start + PLAY_FRAMES:
            report.problems.append(
                f"animation {i + 1}: pressing play moved the drawn frame {start} -> {frame} "
                f"in {PLAY_TIMEOUT:.0f} s")


def check_notebook_in_browser(page: Page, server, path: str, *,
                              screenshot: Path | None = None, axe: Path | None = None,
                              keep: Path | None = None) -> BrowserReport:
    """Open ``path`` (relative to the server root) in JupyterLab, run it, move its widgets.

    Returns a :class:`BrowserReport`; ``report.ok`` is False when any check failed, and
    ``report.problems`` says which. Raises only when JupyterLab cannot open the notebook or
    start its kernel.
    """
    report = BrowserReport(Path(path).stem)
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    start = time.monotonic()

    page.goto(server.lab_url(), timeout=LAB_LOAD_TIMEOUT * 1000)
    page.wait_for_function("() => window.jupyterapp !== undefined",
                           timeout=LAB_LOAD_TIMEOUT * 1000)
    opened = page.evaluate(JS_OPEN, {"path": path, "timeout": LAB_LOAD_TIMEOUT * 1000})
    if opened != "opened":
        raise AssertionError(f"JupyterLab did not open {path}: {opened}")
    page.wait_for_function(
        "() => { const s = window.__bmcPanel.sessionContext.session;"
        " return s && s.kernel && s.kernel.status === 'idle'; }",
        timeout=KERNEL_START_TIMEOUT * 1000)
    report.timings["open"] = time.monotonic() - start

    # 1-2. run all, wait for the kernel, read the model
    t0 = time.monotonic()
    page.evaluate(JS_RUN_ALL)
    state = _wait_until_settled(page, t0 + RUN_ALL_TIMEOUT, need_all_cells=True)
    report.timings["run_all"] = time.monotonic() - t0
    if state["runAll"].startswith("failed"):
        report.problems.append(f"notebook:run-all-cells {state['runAll']}")
    if state["timed_out"]:
        report.problems.append(
            f"run-all did not finish within {RUN_ALL_TIMEOUT:.0f} s (kernel {state['kernel']}, "
            f"{state['running']} cell(s) running, {state['unexecuted']} not run)")
    elif state["kernel"] == "dead":
        report.problems.append("the kernel died")
    elif state["unexecuted"] and not state["errors"]:
        report.problems.append(f"{state['unexecuted']} code cell(s) never ran")
    report.problems += [f"error output in the notebook: {e}" for e in state["errors"]]
    report.problems += [f"stderr output in the notebook: {e}" for e in state["stderr"]]

    # 3-5. widgets render, sliders move the output
    t0 = time.monotonic()
    deadline = t0 + WIDGET_RENDER_TIMEOUT
    rendered = page.evaluate(JS_PAGE_PROBLEMS)
    while rendered["renderedViews"] < state["widgetViews"] and time.monotonic() < deadline:
        time.sleep(POLL)
        rendered = page.evaluate(JS_PAGE_PROBLEMS)
    if rendered["renderedViews"] < state["widgetViews"]:
        report.problems.append(
            f"{rendered['renderedViews']} of {state['widgetViews']} widget view(s) rendered "
            f"within {WIDGET_RENDER_TIMEOUT:.0f} s")
    report.explorers, report.widgets = rendered["explorers"], rendered["widgets"]
    report.animations = rendered["animations"]
    if state["widgetViews"] and state["mentionsBmcWidgets"] and not (
            report.explorers or report.animations):
        report.problems.append("the notebook uses bmc.widgets but no .bmc-explorer or "
                               ".bmc-player rendered")
    # every widget view of the course is an explorer or an animation
    expected = {"animations": state["animationViews"],
                "explorers": state["widgetViews"] - state["animationViews"]}
    if state["mentionsBmcWidgets"] or expected["animations"]:
        for kind, count in expected.items():
            if rendered[kind] != count:
                report.problems.append(f"{rendered[kind]} {kind} in the page, {count} displayed "
                                       "by the kernel")
    if not state["timed_out"] and state["kernel"] != "dead":
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # figures at full size
        _check_views(page, report)
        _check_explorers(page, server, report, axe, keep)
        if report.explorers and not report.slider_moves:
            report.problems.append("no control of any explorer changed its figure")
        _exercise_players(page, report)
        _press_play(page, report)
    report.timings["widgets"] = time.monotonic() - t0

    # What the page shows after the widgets moved: tracebacks in (widget) output areas,
    # then screenshot, then the log console, where ipywidgets sends callback errors.
    report.problems += page.evaluate(JS_PAGE_PROBLEMS)["problems"]
    if screenshot is not None:
        first = page.locator(".bmc-explorer").first
        if first.count():
            first.scroll_into_view_if_needed()
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshot))
    page.evaluate("() => { window.jupyterapp.commands.execute('logconsole:open'); }")
    page.wait_for_selector(".jp-LogConsolePanel", state="attached")
    time.sleep(SETTLE)  # the log console renders its entries after it attaches
    for entry in page.evaluate(JS_LOG_ENTRIES):
        report.problems.append(
            f"log console ({entry['level']}): {_last_lines(entry['text'])}")
    report.problems += [f"uncaught JavaScript error: {e}" for e in page_errors]
    report.timings["total"] = time.monotonic() - start
    return report


def _run(page: Page, server, path: str, timings: list, axe: Path | None = None) -> BrowserReport:
    name = Path(path).stem
    report = check_notebook_in_browser(page, server, path,
                                       screenshot=SCREENSHOTS / f"{name}.png", axe=axe,
                                       keep=SCREENSHOTS / "agg" if KEEP_AGG else None)
    timings.append((name, report.timings, report.explorers, report.animations,
                    report.slider_moves, report))
    return report


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_its_widgets_respond(notebook: Path, lab_page, lab_server,
                                               browser_timings, axe_script) -> None:
    report = _run(lab_page, lab_server, notebook.name, browser_timings, axe_script)
    assert report.ok, report.describe()


def test_positive_control_explorer_moves(lab_page, lab_server, browser_timings,
                                         axe_script) -> None:
    # A working two-slider explorer: every check passes and both sliders redraw the figure,
    # which proves the slider-moving and change-detection machinery works at all.
    report = _run(lab_page, lab_server, f"{CONTROLS_DIR}/widget_smoke.ipynb", browser_timings,
                  axe_script)
    assert report.ok, report.describe()
    assert report.explorers == 1
    assert report.slider_moves == 2
    assert report.ahead == 1  # its key press after the pointer rested: drawn from frames ahead


def test_negative_control_broken_callback_is_detected(lab_page, lab_server,
                                                      browser_timings) -> None:
    # The explorer's update raises on the first slider change. The notebook itself runs
    # cleanly (nbval would pass it): only the browser checks can see the failure.
    report = _run(lab_page, lab_server, f"{CONTROLS_DIR}/broken_widget.ipynb", browser_timings)
    assert not report.ok, "the browser checks missed a widget callback that raises"
    message = "RuntimeError: deliberately broken widget callback"
    assert any(message in problem for problem in report.problems), report.describe()
    assert not any("error output in the notebook" in p for p in report.problems), (
        "the control notebook should fail only in its callback:\n" + report.describe())
    assert report.slider_moves == 0, report.describe()



def test_animation_player_plays_in_the_browser(lab_page, lab_server, browser_timings) -> None:
    # The poses are drawn by the browser; Play is linked to the drawing in the page, so the
    # frame must advance with no kernel round trip.
    report = _run(lab_page, lab_server, f"{CONTROLS_DIR}/animation_player.ipynb",
                  browser_timings)
    assert report.ok, report.describe()
    assert (report.animations, report.explorers) == (1, 0), report.describe()
    assert report.slider_moves == 1, "its frame slider did not change the drawing"
    view = lab_page.locator(".bmc-player [data-frames]")
    view.wait_for(timeout=WIDGET_RENDER_TIMEOUT * 1000)
    # named for assistive technology: the buttons, the slider, the drawing
    buttons = lab_page.locator(".bmc-player .widget-play button")
    names = [buttons.nth(i).get_attribute("aria-label") for i in range(buttons.count())]
    assert names == ["Play", "Stop", "Loop"], names
    drawing = lab_page.locator(".bmc-player canvas")
    assert drawing.get_attribute("role") == "img"
    # named by the frame it shows (the slider check may leave it on any frame)
    k = int(view.get_attribute("data-frame"))
    shown = f"frame {k + 1} of 121, t = {2.0 * k / 120:.3f} s"  # t = linspace(0, 2, 121)
    assert drawing.get_attribute("aria-label") == f"arm: stick figure, {shown}"
    handle = lab_page.locator(".bmc-player .noUi-handle").first
    label = handle.get_attribute("aria-labelledby")
    assert label and lab_page.locator(f"#{label}").text_content().strip() == "frame"
    assert handle.get_attribute("aria-valuetext") == shown
    # played with the keyboard alone: Tab from the player's start to Play, Enter
    start = int(view.get_attribute("data-frame"))
    lab_page.locator(".bmc-player").first.evaluate("(el) => { el.tabIndex = -1; el.focus(); }")
    lab_page.keyboard.press("Tab")
    assert buttons.first.evaluate("(b) => b === document.activeElement"), (
        "Tab did not reach the Play button")
    lab_page.keyboard.press("Enter")
    deadline = time.monotonic() + 10.0
    while int(view.get_attribute("data-frame")) < start + 10 and time.monotonic() < deadline:
        time.sleep(POLL)
    assert int(view.get_attribute("data-frame")) >= start + 10, (
        "pressing play did not advance the frame drawn in the browser")
    lab_page.keyboard.press("Enter")  # the same button pauses
    assert buttons.first.get_attribute("aria-label") in ("Play", "Pause")
