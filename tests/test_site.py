"""The course website: built offline with warnings as errors, then checked in headless Chromium.

One build per session (``python tools/build_site.py --out TMP`` in a subprocess, with the
network cut when bubblewrap can do it, and proxies pointing nowhere in any case). Then:

- static checks on the HTML: every internal ``href``/``src`` resolves to a file and, if it has
  one, to an anchor in that file; the API reference has an entry for every name of every
  public module's ``__all__``; every stored figure of a notebook appears on its page; launch
  links point at the right notebook paths; the version is shown;
- in Chromium, every page over ``file://``: no console error, no failed request, no request
  leaving ``file://``, every maths element typeset by MathJax (no raw TeX left), every image
  decoded; screenshots of a notebook page and of the API index go to
  ``tests/site/screenshots/``.

Needs the ``docs`` extra (Sphinx, myst-nb, numpydoc, pydata-sphinx-theme,
sphinx-mathjax-offline) and Chromium at ``/usr/bin/chromium`` (or ``BMC_CHROMIUM``). Either
missing skips the tests with a message, unless ``BMC_REQUIRE_BROWSER=1`` (CI), which makes it a
failure.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

REPO = Path(__file__).resolve().parents[1]
SCREENSHOTS = REPO / "tests" / "site" / "screenshots"
CHROMIUM = os.environ.get("BMC_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
REQUIRED = os.environ.get("BMC_REQUIRE_BROWSER") == "1"
HUB = "https://hub.example.edu"  # any address: the test checks the links built from it
REPOSITORY, BRANCH = "bmc-course/bmc", "main"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
BUILD_TIMEOUT = 300  # [s] about 16 s on 2 shared cores; generous for a loaded CI machine
# A stored figure on a page: an image output, written to _images/ (an animation's HTML output
# carries its frames inline and is not counted).
FIGURE = '.cell_output img[src*="_images/"]'
PAGE_TIMEOUT = 30_000  # [ms] one page load plus MathJax typesetting

# Explorers store a static figure beside their widget view: one output bundle with both
# "application/vnd.jupyter.widget-view+json" and "image/png", or an "image/png" output in
# the same cell; the site shows that picture.


def _skip_or_fail(message: str) -> None:
    if REQUIRED:
        pytest.fail(f"{message} (BMC_REQUIRE_BROWSER=1)")
    pytest.skip(message)


def _load_build_tool():
    spec = importlib.util.spec_from_file_location("build_site", REPO / "tools" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_site = _load_build_tool()


def _report(request: pytest.FixtureRequest, line: str) -> None:
    """Write a line to the terminal even under output capture."""
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    if reporter is None:
        return
    if capture is None:
        reporter.write_line(line)
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(line)


def _offline_prefix() -> list[str]:
    """Return a bubblewrap prefix that runs a command without network, or [] if unusable."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return []
    prefix = [bwrap, "--dev-bind", "/", "/", "--unshare-net", "--die-with-parent"]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    return prefix if probe.returncode == 0 else []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """Build the site once, offline, warnings as errors; return its html folder."""
    missing = [m for m in ("sphinx", "myst_nb", "numpydoc", "pydata_sphinx_theme",
                           "sphinx-mathjax-offline", "bs4")
               if importlib.util.find_spec(m) is None]
    if missing:
        _skip_or_fail(f"the site needs the docs extra (pip install -e '.[docs]'); "
                      f"missing: {', '.join(missing)}")
    out = tmp_path_factory.mktemp("site")
    nowhere = "http://127.0.0.1:9"  # discard port: any HTTP(S) attempt fails at once
    env = {**os.environ, "BMC_HUB_URL": HUB, "BMC_REPOSITORY": REPOSITORY,
           "BMC_BRANCH": BRANCH, "http_proxy": nowhere, "https_proxy": nowhere,
           "HTTP_PROXY": nowhere, "HTTPS_PROXY": nowhere, "no_proxy": "", "NO_PROXY": ""}
    prefix = _offline_prefix()
    start = time.perf_counter()
    result = subprocess.run(
        [*prefix, sys.executable, str(REPO / "tools" / "build_site.py"), "--out", str(out)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, (
        f"site build failed (warnings are errors):\n{result.stdout[-4000:]}\n"
        f"{result.stderr[-8000:]}")
    html = out / "html"
    pages = _pages(html)
    _report(request, f"\nsite: built {len(pages)} pages in {elapsed:.1f} s "
                     f"({'network cut by bubblewrap' if prefix else 'proxies to nowhere'})")
    return html


def _soup(path: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _pages(site: Path) -> list[Path]:
    """Return the site's pages (not the theme's template fragments copied into _static/)."""
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site).parts[0] != "_static")


# --------------------------------------------------------------------------- staging


def _bundle(*mimes: str) -> dict:
    data = {m: {"model_id": "abc", "version_major": 2, "version_minor": 0} if m == WIDGET_VIEW
            else "iVBORw0KGgo=" if m == "image/png" else "x" for m in mimes}
    return {"output_type": "display_data", "data": data, "metadata": {}}


def test_staged_notebook_keeps_the_explorer_png_and_drops_widget_only_outputs(tmp_path):
    cells = [
        {"cell_type": "code", "source": "", "metadata": {}, "execution_count": 1,
         "outputs": [_bundle(WIDGET_VIEW, "image/png", "text/plain")]},   # one bundle
        {"cell_type": "code", "source": "", "metadata": {}, "execution_count": 2,
         "outputs": [_bundle("image/png"), _bundle(WIDGET_VIEW, "text/plain")]},  # two outputs
        {"cell_type": "code", "source": "", "metadata": {}, "execution_count": 3,
         "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"text/html": [
             '<link rel="stylesheet" href="https://cdn.example.org/fa.css">\n',
             '<script src="https://cdn.example.org/x.js"></script><div id="anim"></div>']}}]},
    ]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {}}}}
    source, target = tmp_path / "in.ipynb", tmp_path / "out" / "nb.ipynb"
    source.write_text(json.dumps(nb))
    build_site._static_notebook(source, target)
    staged = json.loads(target.read_text())
    assert "widgets" not in staged["metadata"]
    first, second, third = (c["outputs"] for c in staged["cells"])
    assert [sorted(o["data"]) for o in first] == [["image/png", "text/plain"]]
    assert [sorted(o["data"]) for o in second] == [["image/png"]]
    assert third[0]["data"]["text/html"] == '\n<div id="anim"></div>'
    assert json.loads(source.read_text()) == nb, "the stored notebook must not change"


def test_public_modules_are_walked_not_listed():
    modules = build_site.public_modules()
    assert modules[0] == "bmc" and modules[1:] == sorted(modules[1:])
    assert not [m for m in modules if any(p.startswith("_") for p in m.split("."))]
    # every module file of the package is there, subpackages included
    files = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
             for p in (REPO / "bmc").rglob("*.py")}
    public = {f for f in files if not any(part.startswith("_") for part in f.split("."))}
    assert public == set(modules)


# --------------------------------------------------------------------------- static checks


@pytest.mark.slow
def test_internal_links_resolve(site: Path) -> None:
    ids: dict[Path, set[str]] = {}

    def anchors(path: Path) -> set[str]:
        if path not in ids:
            soup = _soup(path)
            ids[path] = ({t["id"] for t in soup.find_all(id=True)}
                         | {t["name"] for t in soup.find_all("a", attrs={"name": True})})
        return ids[path]

    broken, external_assets = [], []
    for page in _pages(site):
        soup = _soup(page)
        for tag in soup.find_all(["a", "link", "script", "img", "iframe", "source"]):
            attr = "href" if tag.name in ("a", "link") else "src"
            url = tag.get(attr)
            if not url or url.startswith(("javascript:", "data:", "mailto:")):
                continue
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                if tag.name != "a":
                    external_assets.append(f"{page.relative_to(site)}: <{tag.name}> {url}")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {url} (no file)")
            elif parts.fragment and target.suffix == ".html" \
                    and unquote(parts.fragment) not in anchors(target):
                broken.append(f"{page.relative_to(site)}: {url} (no anchor)")
    assert not external_assets, "pages load assets from outside the site:\n" + "\n".join(
        external_assets[:20])
    assert not broken, f"{len(broken)} broken internal links:\n" + "\n".join(broken[:30])


@pytest.mark.slow
def test_api_reference_lists_every_public_name(site: Path) -> None:
    modules = build_site.public_modules()
    assert {"bmc", "bmc.chain", "bmc.kinematics"} <= set(modules)
    missing = []
    for name in modules:
        page = site / "api" / f"{name}.html"
        assert page.is_file(), f"no API page for {name}"
        ids = {t["id"] for t in _soup(page).find_all(id=True)}
        for attr in build_site.module_all(name):
            if importlib.util.find_spec(f"{name}.{attr}") is not None \
                    if hasattr(importlib.import_module(name), "__path__") else False:
                if not (site / "api" / f"{name}.{attr}.html").is_file():
                    missing.append(f"{name}.{attr} (submodule page)")
            elif f"{name}.{attr}" not in ids:
                missing.append(f"{name}.{attr}")
    assert not missing, "API reference lacks:\n" + "\n".join(missing)
    index = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in modules:
        assert f"{name}.html" in index, f"API index does not link {name}"


def _notebook_cells(nb_path: Path) -> list[dict]:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _stored_images(cell: dict) -> int:
    return sum(1 for o in cell.get("outputs", []) if "image/png" in o.get("data", {}))


@pytest.mark.slow
def test_notebook_pages_show_every_stored_figure(site: Path) -> None:
    for nb in build_site.course_notebooks():
        page = site / "notebooks" / f"{nb.stem}.html"
        soup = _soup(page)
        cells = soup.select("div.cell")
        code = _notebook_cells(nb)
        assert len(cells) == len(code), f"{nb.name}: {len(code)} code cells, {len(cells)} on page"
        for i, (cell, html_cell) in enumerate(zip(code, cells, strict=True)):
            shown = len(html_cell.select(FIGURE))
            assert shown == _stored_images(cell), (
                f"{nb.name}, code cell {i}: {_stored_images(cell)} stored figures, "
                f"{shown} on the page")
        text = soup.get_text()
        assert "VBox(children=" not in text, f"{nb.name}: a widget repr is printed on the page"


@pytest.mark.slow
def test_every_explorer_shows_one_static_figure(site: Path) -> None:
    problems, explorers = [], 0
    for nb in build_site.course_notebooks():
        cells = _soup(site / "notebooks" / f"{nb.stem}.html").select("div.cell")
        for i, (cell, html_cell) in enumerate(zip(_notebook_cells(nb), cells, strict=True)):
            if not any(WIDGET_VIEW in o.get("data", {}) for o in cell.get("outputs", [])):
                continue
            explorers += 1
            shown = len(html_cell.select(FIGURE))
            if shown != 1:
                problems.append(f"{nb.name}, code cell {i}: {shown} static figures (want 1)")
    assert explorers >= 6, f"found only {explorers} explorer cells in the notebooks"
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_launch_links_point_at_the_notebook(site: Path) -> None:
    for nb in build_site.course_notebooks():
        page = site / "notebooks" / f"{nb.stem}.html"
        soup = _soup(page)
        binder = soup.select_one(".bmc-launch a.bmc-binder")["href"]
        assert binder == (f"https://mybinder.org/v2/gh/{REPOSITORY}/{BRANCH}"
                          f"?urlpath=lab%2Ftree%2Fnotebooks%2F{nb.name}")
        hub = soup.select_one(".bmc-launch a.bmc-hub")["href"]
        assert hub.startswith(f"{HUB}/hub/user-redirect/git-pull?"), hub
        assert f"urlpath=lab%2Ftree%2Fbmc%2Fnotebooks%2F{nb.name}" in hub, hub
        assert "repo=https%3A%2F%2Fgithub.com%2Fbmc-course%2Fbmc" in hub, hub
        download = soup.select_one(".bmc-launch a.bmc-download")["href"]
        assert (page.parent / download).read_bytes() == nb.read_bytes(), (
            f"{nb.name}: the download link does not serve the stored notebook")
    for page in sorted((site / "exercises").glob("*.html")):
        link = _soup(page).select_one(".bmc-launch a.bmc-download")["href"]
        assert (page.parent / link).is_file() and link.endswith("-student.zip"), link


@pytest.mark.slow
def test_exercise_pages_hold_no_solution(site: Path) -> None:
    pages = sorted((site / "exercises").glob("*.html"))
    masters = sorted((REPO / "exercises").glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in pages] == [m.stem for m in masters]
    for page in pages:
        text = _soup(page).get_text()
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "# SOLUTION", "BEGIN TESTS"):
            assert marker not in text, f"{page.name} shows {marker!r}"


@pytest.mark.slow
def test_version_is_shown_and_citation_agrees(site: Path) -> None:
    version = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(),
                        flags=re.M).group(1)
    citation = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf"^version: {re.escape(version)}$", citation, flags=re.M), (
        f"CITATION.cff version differs from pyproject.toml's {version}")
    label = _soup(site / "index.html").select_one(".bmc-version")
    assert label is not None and version in label.get_text(), "version not shown on the site"


# --------------------------------------------------------------------------- browser


_TYPESET = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  const maths = [...document.querySelectorAll('.math')];
  const raw = maths.filter(m => !m.querySelector('mjx-container')).map(m => m.textContent);
  const imgs = [...document.querySelectorAll('img')];
  const broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);
  const main = document.querySelector('main') || document.body;
  const clone = main.cloneNode(true);
  clone.querySelectorAll('pre, code, mjx-container, script, .highlight').forEach(e => e.remove());
  const dollars = (clone.textContent.match(/\\$[^$\\s][^$]*\\$/g) || []).slice(0, 3);
  return {maths: maths.length, mjx: document.querySelectorAll('mjx-container').length,
          raw: raw.slice(0, 3), broken: broken.slice(0, 3), dollars: dollars,
          imgs: imgs.length};
}"""


@pytest.mark.slow
def _chromium_pass(site: Path) -> tuple[list[str], dict[str, int], int, float]:
    """Open every page in headless Chromium; return the problems found and the totals.

    Runs in a thread of its own: Playwright's sync API refuses a thread with a running
    asyncio loop, which kernel clients earlier in the session can leave behind.
    """
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        events: list[str] = []
        page.on("console", lambda m: events.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: events.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: events.append(f"failed request: {r.url} {r.failure}"))
        page.on("request", lambda r: None if r.url.startswith(("file://", "data:", "about:"))
                else events.append(f"request leaves the site: {r.url}"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pages = _pages(site)
        totals = {"maths": 0, "imgs": 0}
        start = time.perf_counter()
        for path in pages:
            events.clear()
            name = path.relative_to(site).as_posix()
            page.goto(path.as_uri(), wait_until="load", timeout=PAGE_TIMEOUT)
            result = page.evaluate(_TYPESET)
            totals["maths"] += result["maths"]
            totals["imgs"] += result["imgs"]
            if result["raw"]:
                problems.append(f"{name}: maths not typeset: {result['raw']}")
            if result["mjx"] < result["maths"]:
                problems.append(f"{name}: {result['maths']} maths, {result['mjx']} typeset")
            if result["dollars"]:
                problems.append(f"{name}: raw $...$ left: {result['dollars']}")
            if result["broken"]:
                problems.append(f"{name}: images not shown: {result['broken']}")
            problems += [f"{name}: {e}" for e in events]
            if name in ("notebooks/01_one_link.html", "api/index.html"):
                page.screenshot(path=str(SCREENSHOTS / name.replace("/", "_").replace(
                    ".html", ".png")), full_page=name.startswith("api"))
        context.close()
        browser.close()
    return problems, totals, len(pages), time.perf_counter() - start


@pytest.mark.browser
def test_every_page_loads_offline_in_chromium(site: Path, request) -> None:
    if not Path(CHROMIUM).exists():
        _skip_or_fail(f"Chromium not found at {CHROMIUM} (set BMC_CHROMIUM)")
    pytest.importorskip("playwright.sync_api")
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        problems, totals, n_pages, elapsed = pool.submit(_chromium_pass, site).result()
    _report(request, f"\nsite: {n_pages} pages checked in Chromium in "
                     f"{elapsed:.1f} s ({totals['maths']} maths elements, "
                     f"{totals['imgs']} images); screenshots in {SCREENSHOTS}")
    assert totals["maths"] > 100, "suspiciously few maths elements: is MathJax wired?"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
