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

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
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
    slider_moves: int = 0  # slider steps that changed the explorer's output

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


def _exercise_explorers(page: Page, report: BrowserReport) -> None:
    """Move every enabled slider of every explorer once."""
    explorers = page.locator(".bmc-explorer")
    for i in range(explorers.count()):
        explorer = explorers.nth(i)
        sliders = explorer.locator(".widget-slider")
        for j in range(sliders.count()):
            slider = sliders.nth(j)
            handle = slider.locator(".noUi-handle").first
            if slider.locator(".noUi-target[disabled]").count() or not handle.count():
                continue
            label = slider.locator(".widget-label").first.text_content() or f"#{j}"
            _move_slider(page, explorer, handle, report, f"explorer {i + 1}, {label.strip()}")


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
                              screenshot: Path | None = None) -> BrowserReport:
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
        _check_views(page, report)
        _exercise_explorers(page, report)
        if report.explorers and not report.slider_moves:
            report.problems.append("no slider of any explorer changed its output")
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


def _run(page: Page, server, path: str, timings: list) -> BrowserReport:
    name = Path(path).stem
    report = check_notebook_in_browser(page, server, path,
                                       screenshot=SCREENSHOTS / f"{name}.png")
    timings.append((name, report.timings, report.explorers, report.animations,
                    report.slider_moves))
    return report


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_its_widgets_respond(notebook: Path, lab_page, lab_server,
                                               browser_timings) -> None:
    report = _run(lab_page, lab_server, notebook.name, browser_timings)
    assert report.ok, report.describe()


def test_positive_control_explorer_moves(lab_page, lab_server, browser_timings) -> None:
    # A working two-slider explorer: every check passes and both sliders redraw the figure,
    # which proves the slider-moving and change-detection machinery works at all.
    report = _run(lab_page, lab_server, f"{CONTROLS_DIR}/widget_smoke.ipynb", browser_timings)
    assert report.ok, report.describe()
    assert report.explorers == 1
    assert report.slider_moves == 2


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
    start = int(view.get_attribute("data-frame"))  # 1: the slider check moved it a step
    lab_page.locator(".bmc-player .widget-play button").first.click()
    deadline = time.monotonic() + 10.0
    while int(view.get_attribute("data-frame")) < start + 10 and time.monotonic() < deadline:
        time.sleep(POLL)
    assert int(view.get_attribute("data-frame")) >= start + 10, (
        "pressing play did not advance the frame drawn in the browser")
