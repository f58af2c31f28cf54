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

import asyncio
import concurrent.futures
import functools
import http.server
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
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


@functools.cache
def _soup(path: Path):
    """The parsed page, parsed once per session (tests only read it; ~2 s a page)."""
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


# --------------------------------------------------------------------------- figures, notation,
# bibliography (static)

# A text alternative that is not one: Sphinx's fallback (the image's path), Matplotlib's repr,
# a widget's repr.
_NOT_AN_ALT = re.compile(r"(^|/)_images/|\.(png|jpe?g|gif|svg)$|^<Figure size|^<matplotlib|"
                         r"^VBox\(|^HBox\(|^Output\(", flags=re.I)


@pytest.mark.slow
def test_every_figure_on_the_site_has_a_text_alternative(site: Path) -> None:
    """Every picture of every page says what it shows (WCAG 2.1, 1.1.1)."""
    missing: dict[str, list[str]] = {}
    n_images = 0
    for page in _pages(site):
        soup = _soup(page)
        for img in (soup.select_one("main") or soup).select("img"):
            n_images += 1
            alt = " ".join((img.get("alt") or "").split())
            if not alt or _NOT_AN_ALT.search(alt):
                missing.setdefault(page.relative_to(site).as_posix(), []).append(
                    alt[:60] or "(no alt)")
    assert n_images > 40, f"only {n_images} images on the site: are the figures shown?"
    assert not missing, (
        f"{sum(map(len, missing.values()))} of {n_images} figures have no text alternative "
        "(show them with bmc.plotting.show(fig, alt=...); an explorer stores its own):\n"
        + "\n".join(f"  {page}: {len(alts)} ({alts[0]!r}, ...)" for page, alts in missing.items()))


def _stored_figure_texts(cell: dict) -> list[tuple[str | None, str | None]]:
    """(alt, caption) stored with each image output of a code cell, in output order."""
    texts = []
    for output in cell.get("outputs", []):
        if "image/png" in output.get("data", {}):
            meta = output.get("metadata", {}).get("image/png", {})
            texts.append((meta.get("alt"), meta.get("caption")))
    return texts


@pytest.mark.slow
def test_figures_carry_the_text_stored_with_them(site: Path) -> None:
    """The alt and caption of each page's figure are the ones its notebook output stores."""
    checked, wrong = 0, []
    for nb in build_site.course_notebooks():
        cells = _soup(site / "notebooks" / f"{nb.stem}.html").select("div.cell")
        for i, (cell, html_cell) in enumerate(zip(_notebook_cells(nb), cells, strict=True)):
            for (alt, caption), img in zip(_stored_figure_texts(cell),
                                           html_cell.select(FIGURE), strict=True):
                if alt is None:
                    continue  # a figure without one: the test above reports it
                checked += 1
                if img.get("alt") != " ".join(alt.split()):
                    wrong.append(f"{nb.name}, code cell {i}: alt {img.get('alt')[:60]!r}")
                figure = img.find_parent("figure")
                shown = figure.select_one("figcaption").get_text(" ", strip=True) \
                    if figure is not None and figure.select_one("figcaption") else None
                if (" ".join(caption.split()) if caption else None) != shown:
                    wrong.append(f"{nb.name}, code cell {i}: caption {shown!r}, "
                                 f"stored {caption!r}")
    assert checked, "no figure of the notebooks carries a stored text alternative"
    assert not wrong, "\n".join(wrong[:30])


def _course_rows() -> dict[tuple, list[str]]:
    """Each Notation row of the course -> the stems of the notebooks that list it."""
    rows: dict[tuple, list[str]] = {}
    for nb in build_site.course_notebooks():
        for row in build_site.notation_rows(json.loads(nb.read_text(encoding="utf-8"))):
            rows.setdefault(row, []).append(nb.stem)
    return rows


@pytest.mark.slow
def test_notation_page_lists_each_symbol_with_its_meaning_unit_and_notebooks(site: Path):
    soup = _soup(site / "notation.html")
    table = soup.select_one("table.bmc-notation")
    assert table is not None, "the notation page has no table"
    headers = [th.get_text(strip=True) for th in table.select("thead th")]
    assert headers == ["symbol", "meaning", "unit", "notebooks"]
    page_rows = table.select("tbody tr")
    rows = _course_rows()
    assert len(page_rows) == len(rows), f"{len(page_rows)} rows on the page, {len(rows)} in the " \
        "notebooks' tables"
    for tr, ((symbols, _meaning, _unit), stems) in zip(page_rows, sorted(
            rows.items(), key=lambda kv: build_site._symbol_order(kv[0][0][0])), strict=True):
        cells = tr.select("td")
        tex = [m.get_text() for m in cells[0].select(".math")]
        assert tex == [f"\\({s}\\)" for s in symbols], (tex, symbols)
        links = [a["href"] for a in cells[3].select("a")]
        assert links == [f"notebooks/{stem}.html" for stem in stems], (symbols, links)


def test_each_symbol_is_listed_once_course_wide():
    """The course-wide table lists a symbol once only if the notebooks agree on its row."""
    rows: dict[str, list[str]] = {}
    for (symbols, meaning, unit), stems in _course_rows().items():
        for symbol in symbols:
            rows.setdefault(symbol, []).append(f"{', '.join(stems)}: '{meaning}' [{unit}]")
    twice = {s: r for s, r in rows.items() if len(r) > 1}
    assert not twice, ("symbols that the notebooks' Notation tables define differently (or "
                       "group with other symbols differently):\n" + "\n".join(
                           f"  ${s}$: " + " | ".join(r) for s, r in sorted(twice.items())))


@pytest.mark.slow
def test_bibliography_page_lists_every_entry_with_its_anchor(site: Path) -> None:
    from docutils.nodes import make_id
    from pybtex.database import parse_file

    keys = set(parse_file(str(REPO / "docs" / "references.bib")).entries)
    soup = _soup(site / "bibliography.html")
    entries = soup.select('[role="list"] > div.citation[role="listitem"]')
    # docutils ids: lower case, "_" as "-" (duarte_bmc -> cite-duarte-bmc)
    assert {e["id"] for e in entries} == {make_id(f"cite-{k}") for k in keys}
    labels = [e.select_one(".label").get_text(strip=True).strip("[]") for e in entries]
    assert all(re.fullmatch(r".+ \d{4}[a-z]?", label) for label in labels), labels


@pytest.mark.slow
def test_every_citation_link_reaches_its_reference_on_the_page(site: Path) -> None:
    """``[Kuo (1998)](#cite-kuo1998)`` jumps to the entry in the page's References."""
    dead, links = [], 0
    for nb in build_site.course_notebooks():
        soup = _soup(site / "notebooks" / f"{nb.stem}.html")
        for a in soup.select('a[href^="#cite-"]'):
            links += 1
            target = soup.find(id=a["href"][1:])
            if target is None or "bmc-cite" not in target.get("class", []) \
                    or target.find_parent(id=re.compile("^references")) is None:
                dead.append(f"{nb.name}: {a['href']}")
    cited = sum(len(bibliography.cited_keys(json.loads(nb.read_text())["cells"]))
                for nb in build_site.course_notebooks())
    assert links >= cited, f"{links} citation links on the pages, {cited} cited keys"
    assert not dead, "citation links without their reference:\n" + "\n".join(dead)


@pytest.mark.slow
def test_accessibility_statement_is_on_the_site_and_linked_from_the_readme(site: Path):
    text = _soup(site / "accessibility.html").get_text(" ")
    for part in ("WCAG 2.1 level AA", "Known limits", "Report a barrier", "file://",
                 "axe-core"):
        assert part in text, f"the accessibility statement does not say {part!r}"
    assert "accessibility.html" in (site / "index.html").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "](docs/accessibility.md)" in readme, "README.md does not link the statement"


# --------------------------------------------------------------------------- figures, notation,
# citations (units)


def _spec(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bibliography = _spec("bibliography", REPO / "tools" / "bibliography.py")
axe_tool = _spec("axe", REPO / "tools" / "axe.py")
AXE_VERSION = axe_tool.AXE_VERSION


def test_staged_notebook_keeps_a_figure_png_and_drops_its_html_twin(tmp_path):
    figure = {"output_type": "display_data",
              "data": {"image/png": "iVBORw0KGgo=", "text/plain": "A line up to 1 N.",
                       "text/html": '<figure class="bmc-figure" style="margin: 0"><img '
                                    'src="data:image/png;base64,iVBORw0KGgo=" alt="A line">'
                                    "</figure>"},
              "metadata": {"image/png": {"alt": "A line up to 1 N.", "caption": "One line."}}}
    table = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": "iVBORw0KGgo=", "text/html": "<table></table>"}}
    nb = {"cells": [{"cell_type": "code", "source": "", "metadata": {}, "execution_count": 1,
                     "outputs": [figure, table]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    source, target = tmp_path / "in.ipynb", tmp_path / "out.ipynb"
    source.write_text(json.dumps(nb))
    build_site._static_notebook(source, target)
    first, second = json.loads(target.read_text())["cells"][0]["outputs"]
    assert sorted(first["data"]) == ["image/png", "text/plain"]
    assert first["metadata"] == figure["metadata"]
    assert sorted(second["data"]) == ["image/png", "text/html"]  # not a bmc figure: kept


def test_figure_texts_name_each_image_by_its_digest_and_the_page_uses_them(tmp_path):
    import base64
    import hashlib
    from types import SimpleNamespace

    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    a11y = _spec("bmc_a11y", REPO / "docs" / "_ext" / "bmc_a11y.py")
    png_a, png_b = b"\x89PNG first", b"\x89PNG second"
    b64 = base64.b64encode(png_a).decode()
    outputs = [
        {"data": {"image/png": [b64[:8] + "\n", b64[8:]]},
         "metadata": {"image/png": {"alt": "  Hip moment,\n peak 2 N m/kg.",
                                    "caption": "The hip."}}},
        {"data": {"image/png": base64.b64encode(png_b).decode()}, "metadata": {}},
    ]
    nb = {"cells": [{"cell_type": "code", "outputs": outputs}]}
    texts = a11y.figure_texts(nb)
    digest_a, digest_b = (hashlib.sha256(p).hexdigest() for p in (png_a, png_b))
    assert texts == {digest_a: {"alt": "Hip moment, peak 2 N m/kg.", "caption": "The hip."}}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    document = new_document("nb", get_default_settings(Parser))
    first, second = (nodes.image(uri=f"../_images/{d}.png") for d in (digest_a, digest_b))
    document += [nodes.container("", first), nodes.container("", second)]
    app = SimpleNamespace(env=SimpleNamespace(docname="nb", doc2path=lambda name: path))
    a11y._describe_figures(app, document)
    assert first["alt"] == "Hip moment, peak 2 N m/kg." and "alt" not in second
    assert isinstance(first.parent, nodes.figure)
    assert first.parent.next_node(nodes.caption).astext() == "The hip."


def _notebook(path: Path, *markdown: str) -> Path:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": m} for m in markdown]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    return path


def test_notation_rows_split_at_column_bars_only(tmp_path):
    table = ("## Notation\n\nSymbols.\n\n| symbol | meaning | unit |\n|---|---|---|\n"
             "| $\\tau_i$ | net joint moment at joint $i$ | N m |\n"
             "| $\\mathbf F_p$, $\\tau_p$ | force and moment, $|\\mathbf F_p|$ its size | "
             "N, N m |\n| $a \\| b$ | a row with an escaped bar \\| inside | - |\n")
    nb = json.loads(_notebook(tmp_path / "nb.ipynb", "# 1. Title", table).read_text())
    assert build_site.notation_rows(nb) == [
        (("\\tau_i",), "net joint moment at joint $i$", "N m"),
        (("\\mathbf F_p", "\\tau_p"), "force and moment, $|\\mathbf F_p|$ its size", "N, N m"),
        (("a \\| b",), "a row with an escaped bar \\| inside", "-"),
    ]
    assert build_site.notation_rows({"cells": []}) == []
    bad = json.loads(_notebook(tmp_path / "bad.ipynb", "## Notation\n\n| a | b |\n|---|---|\n"
                               ).read_text())
    with pytest.raises(ValueError, match="symbol | meaning | unit"):
        build_site.notation_rows(bad)


def test_notation_page_gathers_rows_once_with_their_notebooks(tmp_path):
    row = "| $m_i$ | mass of segment $i$ | kg |"
    head = "## Notation\n\n| symbol | meaning | unit |\n|---|---|---|\n"
    first = _notebook(tmp_path / "01_a.ipynb", "# 1. First", head + row + "\n| $\\alpha$ | "
                      "angle | rad |\n| $g$ | gravitational acceleration | m/s$^2$ |")
    second = _notebook(tmp_path / "02_b.ipynb", "# 2. Second", head + row)
    third = _notebook(tmp_path / "03_c.ipynb", "# 3. Third")
    page = build_site.notation_page([first, second, third])
    assert "1. [First](notebooks/01_a.ipynb)" in page
    assert "Notebook 3 has no Notation table yet." in page
    body = page.split("  - notebooks\n")[1]
    # Latin before Greek; a row listed by two notebooks is listed once, with both
    assert body.index("$g$") < body.index("$m_i$") < body.index("$\\alpha$")
    assert body.count("$m_i$") == 1
    assert "[1](notebooks/01_a.ipynb), [2](notebooks/02_b.ipynb)" in body


def test_the_build_refuses_a_citation_without_a_complete_entry(tmp_path):
    entries = bibliography.load()
    good = _notebook(tmp_path / "good.ipynb", "as [Kuo (1998)](#cite-kuo1998) showed")
    unknown = _notebook(tmp_path / "unknown.ipynb", "as [Kuo (1999)](#cite-kuo1999) showed")
    assert "kuo1998" in entries and "kuo1999" not in entries
    assert build_site.check_citations([good]) == []
    problems = build_site.check_citations([good, unknown])
    assert problems == ["unknown.ipynb cites 'kuo1999', which is not in docs/references.bib"]


# --------------------------------------------------------------------------- browser

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Rules beyond the WCAG tags, all named in issue 32: an empty table header (best practice).
AXE_RULES = ["empty-table-header"]
# Code cells and outputs (syntax-highlighted blocks: thousands of token spans on a notebook
# page, half of axe's time there, all styled by the one Pygments stylesheet of the site) are
# checked on AXE_WHOLE_PAGES only; every other part of every page is checked everywhere.
AXE_EXCLUDE = [".highlight"]
AXE_WHOLE_PAGES = ("notebooks/01_one_link.html", "api/bmc.chain.html")
WORKERS = 2  # pages checked at once: one per core of a CI machine
# A page every rule above must fault: the controls that show the check can fail.
AXE_CONTROL = """<!doctype html><html lang="en"><head><title>control</title></head><body><main>
<h1>Control</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button type="button" aria-label="Search">Search Ctrl+K</button>
<div role="list"><div role="doc-biblioentry">Kuo, A. D. (1998)</div></div>
<table><thead><tr><th></th><th>source</th></tr></thead><tbody><tr><td>a</td><td>b</td></tr>
</tbody></table></main></body></html>"""
AXE_CONTROL_FINDS = {"image-alt", "label-content-name-mismatch", "aria-required-children",
                     "empty-table-header"}


def _axe_script() -> Path | None:
    """axe-core's axe.min.js (tools/axe.py: one pinned version for every test)."""
    return axe_tool.axe_path()


_PAGE = """async () => {
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
  const boxes = [...document.querySelectorAll('mjx-container')];
  const scrolls = b => ['auto', 'scroll'].includes(getComputedStyle(b).overflowX)
                       && b.scrollWidth > b.clientWidth;
  return {maths: maths.length, mjx: boxes.length,
          raw: raw.slice(0, 3), broken: broken.slice(0, 3), dollars: dollars,
          imgs: imgs.length,
          scrolling: boxes.filter(scrolls).length,
          stops: boxes.filter(b => b.tabIndex >= 0).length,
          stops_that_do_not_scroll: boxes.filter(b => b.tabIndex >= 0 && !scrolls(b)).length,
          scrolling_out_of_reach: boxes.filter(b => b.tabIndex < 0 && scrolls(b)).length,
          mathml: boxes.filter(b => b.querySelector('mjx-assistive-mml math')).length,
          spoken: boxes.filter(b => (b.getAttribute('aria-label') || '').trim()).length};
}"""

_AXE = """async ([tags, rules, exclude]) => {
  const context = exclude.length ? {exclude: exclude.map(s => [s])} : document;
  const result = await axe.run(context, {
    runOnly: {type: 'tag', values: tags},
    rules: Object.fromEntries(rules.map(r => [r, {enabled: true}])),
    preload: false,  // no XHR for the stylesheets: over file:// the browser blocks it
    resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, count: v.nodes.length,
                                      where: v.nodes.slice(0, 2).map(n => n.target.join(' '))}));
}"""


async def _open_page(browser, viewport: dict, events: list[str], origin: str):
    """A new page that records console errors, failed requests and requests off ``origin``."""
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    page.on("console", lambda m: events.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: events.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: events.append(f"failed request: {r.url} {r.failure}"))
    page.on("request", lambda r: None if r.url.startswith((origin, "data:", "about:"))
            else events.append(f"request leaves the site: {r.url}"))
    return context, page


async def _check_pages(urls: dict[str, str], axe: Path | None, origin: str,
                       screenshots: tuple[str, ...] = ()) -> dict[str, dict]:
    """Open every page (name -> URL), typeset it, run axe; return what each page showed.

    ``WORKERS`` pages are checked at once, each in its own browser context. The axe control
    page is checked first, under the name ``"<control>"``.
    """
    from playwright.async_api import async_playwright

    results: dict[str, dict] = {}
    queue = list(urls.items())
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)

        async def worker(first: bool) -> None:
            events: list[str] = []
            context, page = await _open_page(browser, {"width": 1280, "height": 900}, events,
                                             origin)
            if first and axe is not None:
                await page.set_content(AXE_CONTROL)
                await page.add_script_tag(path=str(axe))
                results["<control>"] = {"axe": await page.evaluate(
                    _AXE, [AXE_TAGS, AXE_RULES, []])}
            while queue:
                name, url = queue.pop(0)
                events.clear()
                start = time.perf_counter()
                await page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
                facts = await page.evaluate(_PAGE)
                facts["load_s"] = time.perf_counter() - start
                if axe is not None:
                    start = time.perf_counter()
                    await page.add_script_tag(path=str(axe))
                    exclude = [] if name in AXE_WHOLE_PAGES else AXE_EXCLUDE
                    facts["axe"] = await page.evaluate(_AXE, [AXE_TAGS, AXE_RULES, exclude])
                    facts["axe_s"] = time.perf_counter() - start
                facts["events"] = list(events)
                results[name] = facts
                if name in screenshots:
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    await page.screenshot(path=str(SCREENSHOTS / name.replace("/", "_").replace(
                        ".html", ".png")), full_page=name.startswith("api"))
            await context.close()

        await asyncio.gather(*(worker(i == 0) for i in range(WORKERS)))
        await browser.close()
    return results


def _in_thread(coroutine):
    """Run a coroutine in a thread of its own (kernel clients earlier in the session can leave
    an asyncio loop running in the main thread)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        _skip_or_fail(f"Chromium not found at {CHROMIUM} (set BMC_CHROMIUM)")
    pytest.importorskip("playwright.async_api")


def _need_axe(axe: Path | None) -> Path:
    if axe is None:
        _skip_or_fail("npm is missing: the accessibility checks need axe-core from npm "
                      "(apt-get install npm)")
    return axe


@pytest.fixture(scope="module")
def offline_pages(site: Path, request: pytest.FixtureRequest) -> dict[str, dict]:
    """Every page of the site opened over ``file://`` in Chromium, checked by axe-core."""
    _need_chromium()
    axe = _axe_script()
    pages = {p.relative_to(site).as_posix(): p.as_uri() for p in _pages(site)}
    start = time.perf_counter()
    results = _in_thread(_check_pages(pages, axe, "file://", screenshots=(
        "notebooks/01_one_link.html", "api/index.html")))
    elapsed = time.perf_counter() - start
    axe_s = sum(r.get("axe_s", 0.0) for r in results.values())
    maths = sum(r.get("maths", 0) for r in results.values() if "maths" in r)
    _report(request, f"\nsite: {len(pages)} pages checked in Chromium in {elapsed:.1f} s "
                     f"({WORKERS} at once; axe-core {axe_s:.1f} s of page time; {maths} maths "
                     f"elements); screenshots in {SCREENSHOTS}")
    results["<axe>"] = {"path": str(axe) if axe else None}
    return results


def _site_pages(results: dict[str, dict]) -> dict[str, dict]:
    return {name: r for name, r in results.items() if not name.startswith("<")}


@pytest.mark.browser
def test_every_page_loads_offline_in_chromium(offline_pages: dict[str, dict]) -> None:
    problems = []
    pages = _site_pages(offline_pages)
    for name, result in pages.items():
        if result["raw"]:
            problems.append(f"{name}: maths not typeset: {result['raw']}")
        if result["mjx"] < result["maths"]:
            problems.append(f"{name}: {result['maths']} maths, {result['mjx']} typeset")
        if result["dollars"]:
            problems.append(f"{name}: raw $...$ left: {result['dollars']}")
        if result["broken"]:
            problems.append(f"{name}: images not shown: {result['broken']}")
        problems += [f"{name}: {e}" for e in result["events"]]
    assert sum(r["maths"] for r in pages.values()) > 100, \
        "suspiciously few maths elements: is MathJax wired?"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def _violations(axe: list[dict]) -> str:
    return "; ".join(f"{v['id']} ({v['impact']}) x{v['count']}: {', '.join(v['where'])}"
                     for v in axe)


@pytest.mark.browser
def test_axe_finds_no_wcag_violation_on_any_page(offline_pages: dict[str, dict],
                                                 request: pytest.FixtureRequest) -> None:
    """axe-core, WCAG 2.0/2.1 A and AA rules (and an empty table header): zero violations.

    Code blocks are checked on ``AXE_WHOLE_PAGES`` (see there); the control page shows that
    the run finds each kind of fault the site had.
    """
    _need_axe(offline_pages["<axe>"]["path"])
    found = {v["id"] for v in offline_pages["<control>"]["axe"]}
    assert AXE_CONTROL_FINDS <= found, f"axe missed faults of the control page: " \
        f"{sorted(AXE_CONTROL_FINDS - found)}"
    pages = _site_pages(offline_pages)
    failing = {name: r["axe"] for name, r in pages.items() if r["axe"]}
    slowest = sorted(pages.items(), key=lambda kv: -kv[1]["axe_s"])[:3]
    _report(request, f"\naxe-core {AXE_VERSION}: {len(pages) - len(failing)} of {len(pages)} "
                     f"pages without violations; slowest: " + ", ".join(
                         f"{name} {r['axe_s']:.1f} s" for name, r in slowest))
    assert not failing, f"axe-core violations on {len(failing)} pages:\n" + "\n".join(
        f"  {name}: {_violations(axe)}" for name, axe in failing.items())


@pytest.mark.browser
def test_formulas_are_not_tab_stops_unless_they_scroll(offline_pages: dict[str, dict]) -> None:
    """A formula is a Tab stop only when it is wider than its box (to be scrolled by keys)."""
    problems, formulas = [], 0
    for name, r in _site_pages(offline_pages).items():
        formulas += r["mjx"]
        if r["stops_that_do_not_scroll"]:
            problems.append(f"{name}: {r['stops_that_do_not_scroll']} formulas are Tab stops "
                            "but do not scroll")
        if r["scrolling_out_of_reach"]:
            problems.append(f"{name}: {r['scrolling_out_of_reach']} formulas scroll but cannot "
                            "be focused")
        if r["mathml"] < r["mjx"]:
            problems.append(f"{name}: {r['mjx'] - r['mathml']} formulas without assistive "
                            "MathML")
        if r["spoken"]:  # over file:// the speech component is not loaded at all
            problems.append(f"{name}: {r['spoken']} formulas carry speech over file://")
    assert formulas > 100, f"only {formulas} formulas on the site"
    assert not problems, "\n".join(problems)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serve the site quietly; answer the browser's own /favicon.ico request with 204."""

    def log_message(self, *args) -> None:  # no request log on the test's output
        pass

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":  # asked for by Chromium, not by a page of the site
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture(scope="module")
def served_site(site: Path):
    """The site served over HTTP on 127.0.0.1 (a local http.server); yields its address."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


# Pages whose formulas are checked for speech over HTTP: every symbol of the course, and a
# notebook's inline and display formulas.
SPOKEN_PAGES = ("notation.html", "notebooks/01_one_link.html")


@pytest.mark.browser
def test_formulas_speak_when_the_site_is_served_over_http(served_site: str, site: Path,
                                                          request) -> None:
    _need_chromium()
    axe = _need_axe(_axe_script())
    start = time.perf_counter()
    results = _in_thread(_check_pages({n: f"{served_site}/{n}" for n in SPOKEN_PAGES}, axe,
                                      served_site))
    _report(request, f"\nsite over HTTP: {len(SPOKEN_PAGES)} pages with speech in "
                     f"{time.perf_counter() - start:.1f} s")
    problems = []
    for name in SPOKEN_PAGES:
        r = results[name]
        if r["spoken"] < r["mjx"] or r["mjx"] < 20:
            problems.append(f"{name}: {r['spoken']} of {r['mjx']} formulas carry speech")
        if r["axe"]:
            problems.append(f"{name}: {_violations(r['axe'])}")
        problems += [f"{name}: {e}" for e in r["events"]]
    assert not problems, "\n".join(problems)


_SPEECH = """() => [...document.querySelectorAll('mjx-container')].map(b => ({
  label: b.getAttribute('aria-label'), role: b.getAttribute('role'),
  hidden: [...b.children].every(c => c.getAttribute('aria-hidden') === 'true')}))"""


@pytest.mark.browser
def test_spoken_formulas_say_the_symbols(served_site: str) -> None:
    """The spoken form of a formula names its symbols (ClearSpeak), as a math role's name."""
    _need_chromium()

    async def speech() -> list[dict]:
        from playwright.async_api import async_playwright

        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = await browser.new_page()
            await page.goto(f"{served_site}/notation.html", wait_until="load",
                            timeout=PAGE_TIMEOUT)
            await page.evaluate("async () => { await MathJax.startup.promise; }")
            found = await page.evaluate(_SPEECH)
            await browser.close()
            return found

    found = _in_thread(speech())
    assert found and all(f["role"] == "math" and f["hidden"] for f in found), found[:3]
    labels = " | ".join(f["label"] for f in found)
    for spoken in ("tau", "alpha", "x", "y"):
        assert re.search(rf"\b{spoken}\b", labels), f"no formula says {spoken!r}: {labels[:300]}"


_FOCUSABLE_BOX = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  e.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = e.getBoundingClientRect();
  return {tag: e.tagName.toLowerCase(), text: (e.getAttribute('aria-label') || e.textContent
          || '').trim().slice(0, 40), x: r.x, y: r.y, w: r.width, h: r.height};
}"""


def _changed_pixels(before: bytes, after: bytes) -> int:
    import io

    from PIL import Image, ImageChops

    a, b = (Image.open(io.BytesIO(x)).convert("RGB") for x in (before, after))
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


@pytest.mark.browser
def test_focus_is_visible_and_a_wide_formula_scrolls_by_keyboard(site: Path) -> None:
    """Tab through the top of notebook 2's page, then to each formula that scrolls: each
    focused element looks different from unfocused (its outline is not clipped), and a
    focused formula scrolls with the arrow keys."""
    _need_chromium()
    url = (site / "notebooks" / "02_two_link.html").as_uri()

    async def walk() -> tuple[list[tuple[dict, int]], list[int]]:
        from playwright.async_api import async_playwright

        seen, scrolled = [], []
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = await browser.new_page(viewport={"width": 1000, "height": 800})
            await page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
            await page.evaluate("async () => { await MathJax.startup.promise; }")

            async def ring() -> None:
                box = await page.evaluate(_FOCUSABLE_BOX)
                if box is None or box["w"] * box["h"] == 0:
                    return
                clip = {"x": max(box["x"] - 6, 0), "y": max(box["y"] - 6, 0),
                        "width": box["w"] + 12, "height": box["h"] + 12}
                focused = await page.screenshot(clip=clip)
                await page.evaluate("() => { window.__bmcFocus = document.activeElement;"
                                    " document.activeElement.blur(); }")
                blurred = await page.screenshot(clip=clip)
                await page.evaluate("() => window.__bmcFocus.focus()")
                seen.append((box, _changed_pixels(focused, blurred)))

            for _ in range(25):
                await page.keyboard.press("Tab")
                await ring()
            # the control: an element whose focus shows nothing must be found out
            await page.evaluate("""() => { const s = document.createElement('span');
              s.tabIndex = 0; s.textContent = 'control'; s.style.outline = 'none';
              s.id = 'bmc-control'; document.querySelector('main p').append(s); }""")
            await page.focus("#bmc-control")
            await ring()
            control = seen.pop()
            await page.evaluate("() => document.getElementById('bmc-control').remove()")
            seen.insert(0, control)
            formulas = await page.query_selector_all('mjx-container[tabindex="0"]')
            for formula in formulas:
                await formula.focus()
                await ring()
                before = await formula.evaluate("b => b.scrollLeft")
                await page.keyboard.press("ArrowRight")
                await page.wait_for_timeout(400)  # keyboard scrolling is animated
                scrolled.append(await formula.evaluate("b => b.scrollLeft") - before)
            await browser.close()
        return seen, scrolled

    seen, scrolled = _in_thread(walk())
    (control, changed), seen = seen[0], seen[1:]
    assert control["text"] == "control" and changed < 20, \
        f"the check missed an invisible focus ({changed} pixels changed)"
    formulas = [box for box, _ in seen if box["tag"] == "mjx-container"]
    assert len(seen) >= 25 and formulas, f"{len(seen)} stops, {len(formulas)} formulas"
    invisible = [f"{box['tag']} {box['text']!r}" for box, changed in seen if changed < 20]
    assert not invisible, "focus not visible on: " + "; ".join(invisible)
    assert all(step > 0 for step in scrolled), f"formulas that did not scroll: {scrolled}"


# A phone: 375 px window, 343 px of column. A notebook figure is checked for text of at least
# 7 pt where it shows 600 px wide, or at its own width if narrower (bmc.plotting.check_figure);
# squeezed into 343 px, 7 pt would show at about 4 pt.
PHONE = {"width": 375, "height": 812}
LEGIBLE_PX = 600  # [CSS px] the width check_figure reads a picture's text at

_FIGURES = """() => [...document.querySelectorAll('main img')]
  .filter(i => i.closest('div.cell_output, figure.bmc-figure')).map(i => {
    const box = i.closest('div.cell_output, figure.bmc-figure');
    return {src: i.src.split('/').pop().slice(0, 16), natural: i.naturalWidth,
            shown: i.getBoundingClientRect().width, column: box.clientWidth,
            scrolls: box.scrollWidth > box.clientWidth + 1, stop: box.tabIndex >= 0,
            name: box.getAttribute('aria-label') || '', role: box.getAttribute('role')};
  })"""


@pytest.mark.browser
def test_figures_keep_legible_text_on_a_phone(site: Path) -> None:
    """On a 375 px phone every notebook figure shows at least 600 px (or its own width) wide:
    its box scrolls sideways, is a named keyboard stop and scrolls with the arrow keys, and
    axe-core finds no violation at that width; on a 1280 px screen no figure box scrolls.
    The control squeezes the pictures back to the column and must be caught."""
    _need_chromium()
    axe = _need_axe(_axe_script())
    pages = sorted(p for p in _pages(site) if p.parent.name == "notebooks")
    assert len(pages) >= 6, [p.name for p in pages]

    async def visit() -> dict[str, dict]:
        from playwright.async_api import async_playwright

        out: dict[str, dict] = {}
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            phone = await browser.new_page(viewport=PHONE)
            wide = await browser.new_page(viewport={"width": 1280, "height": 900})
            for path in pages:
                url = path.as_uri()
                await phone.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
                await phone.wait_for_timeout(100)  # figure-scroll.js marks on the next frame
                found = {"phone": await phone.evaluate(_FIGURES)}
                box = await phone.query_selector('div.cell_output[tabindex="0"]')
                if box is not None:
                    await box.focus()
                    await phone.keyboard.press("ArrowRight")
                    await phone.wait_for_timeout(400)  # keyboard scrolling is animated
                    found["scrolled"] = await box.evaluate("b => b.scrollLeft")
                await phone.add_script_tag(path=str(axe))
                found["axe"] = await phone.evaluate(_AXE, [AXE_TAGS, AXE_RULES, AXE_EXCLUDE])
                await phone.add_style_tag(content="main img { max-width: 100% !important; }")
                found["squeezed"] = await phone.evaluate(_FIGURES)
                await wide.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
                await wide.wait_for_timeout(100)
                found["wide"] = await wide.evaluate(_FIGURES)
                out[path.name] = found
            await browser.close()
        return out

    results = _in_thread(visit())
    problems, figures, squeezed = [], 0, 0

    def narrow(f: dict) -> bool:  # shown narrower than the width its text was checked at
        return f["shown"] < min(f["natural"], LEGIBLE_PX) - 1

    for name, r in results.items():
        figures += len(r["phone"])
        for f in r["phone"]:
            if narrow(f):
                problems.append(f"{name}: {f['src']} shows {f['shown']:.0f} px wide on a phone "
                                f"({f['natural']} px picture)")
            if f["scrolls"] and not (f["stop"] and f["name"] and f["role"] == "region"):
                problems.append(f"{name}: {f['src']}'s box scrolls but is not a named stop")
            if f["stop"] and not f["scrolls"]:
                problems.append(f"{name}: {f['src']}'s box is a stop but does not scroll")
        if any(f["scrolls"] for f in r["phone"]) and not r.get("scrolled", 0) > 0:
            problems.append(f"{name}: a figure box did not scroll with ArrowRight")
        if r["axe"]:
            problems.append(f"{name} on a phone: {_violations(r['axe'])}")
        for f in r["wide"]:
            if f["scrolls"] or f["stop"] or f["shown"] < min(f["natural"], f["column"]) - 1:
                problems.append(f"{name} at 1280 px: {f['src']} changed ({f})")
        squeezed += sum(narrow(f) for f in r["squeezed"])
    assert figures >= 40, f"only {figures} figures on the notebook pages"
    assert squeezed >= figures // 2, f"the control was not caught: {squeezed} squeezed"
    assert not problems, "\n".join(problems)
