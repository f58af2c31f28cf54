"""Build the course website (Sphinx + myst-nb) from the repository, offline.

Usage (from the repository root)::

    python tools/build_site.py                  # -> docs/_build/html/index.html
    python tools/build_site.py --out /tmp/site  # elsewhere (the test does this)
    BMC_HUB_URL=https://hub.example.edu python tools/build_site.py   # with JupyterHub links

What it does, in order:

1. Stages the Sphinx sources in ``OUT/src``: the hand-written pages of ``docs/``, the six
   course notebooks **as stored** (their nbval-checked outputs; nothing is executed), the
   student versions of the exercise sets (built by ``exercises/build.py``, which refuses a
   student notebook that leaks a solution), one API page per public ``bmc`` module found by
   walking the package, the README's instructor material and the changelog.
   It also writes the course-wide notation page (``notation.md``) from each notebook's
   ``## Notation`` table.
2. Checks the notebooks' citations against ``docs/references.bib`` (``tools/bibliography.py``):
   a cited key with no entry, or an incomplete entry, stops the build.
3. Runs Sphinx with warnings as errors (``-W --keep-going``) into ``OUT/html``. A citation
   link ``[...](#cite-KEY)`` whose anchor is not in the page's References is an unresolved
   reference, hence an error too.

Explorer outputs: a static page cannot run ipywidgets, so the site shows the ``image/png``
that an explorer cell stores next to its widget view (the figure at the default slider
values). A widget-view output without such a PNG is dropped from the staged copy (it would
only show ``VBox(children=...)``); ``tests/test_site.py`` then fails, because every explorer
must show one static figure.

Figures: ``bmc.plotting.show`` stores the text alternative and the caption in the PNG
output's metadata (and, for JupyterLab, a ``text/html`` ``<figure>`` with the PNG inlined).
The staged copy keeps the PNG and drops that HTML twin, so that the page links one image
file; ``docs/_ext/bmc_a11y.py`` gives the image its ``alt`` and caption from the metadata.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# Stylesheets or scripts that stored HTML outputs load from the web: matplotlib's JSHTML
# animation links Font Awesome 4 from a CDN (the theme's own Font Awesome draws the icons).
_REMOTE_ASSET = re.compile(r"<(link|script)\b[^>]*\b(href|src)=[\"']https?://[^>]*>(\s*</script>)?",
                           flags=re.I)
# The HTML twin of a figure that bmc.plotting.show stores beside its PNG (for JupyterLab).
_FIGURE_HTML = re.compile(r"^\s*<figure\b[^>]*\bclass=\"[^\"]*\bbmc-figure\b")
NOTATION = "## Notation"
# Hand-written docs/ content that must not be staged (build output, editor litter).
_SKIP = shutil.ignore_patterns("_build", "__pycache__", ".ipynb_checkpoints")


def course_notebooks(repo: Path = REPO) -> list[Path]:
    """Return the course notebooks ``notebooks/NN_*.ipynb`` (not the template), sorted."""
    return sorted((repo / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def public_modules(package: str = "bmc") -> list[str]:
    """Return every public module of ``package``, found by walking it (not a hand list).

    A module is public when no component of its dotted name starts with ``_``. The package
    itself comes first, then the modules in alphabetical order.

    Parameters
    ----------
    package : str, optional
        Importable package name.

    Returns
    -------
    list of str
        Dotted module names, e.g. ``["bmc", "bmc.anthropometry", ...]``.
    """
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        names.append(info.name)
    return [package, *sorted(names[1:])]


def module_all(name: str) -> list[str]:
    """Return the ``__all__`` of module ``name`` (empty when it defines none)."""
    return list(getattr(importlib.import_module(name), "__all__", []))


def _is_module(module: str, attr: str) -> bool:
    """Return True when ``module.attr`` is a submodule (a package listing it in ``__all__``)."""
    if not hasattr(importlib.import_module(module), "__path__"):
        return False
    return importlib.util.find_spec(f"{module}.{attr}") is not None


def _home(value: object, modules: list[str], here: str, attr: str) -> str | None:
    """Return the other public module that documents ``value`` in full, if there is one."""
    origin = getattr(value, "__module__", None)
    documented = inspect.isclass(value) or inspect.isroutine(value)
    if (documented and origin and origin != here and origin in modules
            and attr in module_all(origin)):
        return origin
    if documented and origin and origin not in modules:
        # Defined in a private module and re-exported by several public ones: the first
        # public module (in sorted order) that exports the same object documents it in full.
        first = next((m for m in sorted(modules) if attr in module_all(m)
                      and getattr(importlib.import_module(m), attr, None) is value), None)
        if first is not None and first != here:
            return first
    return None


def _api_page(name: str, modules: list[str]) -> str:
    """Return the reStructuredText of the API page of module ``name``.

    Each name of the module's ``__all__`` gets an entry whose anchor is its full dotted
    name (``bmc.chain.PlanarChain``). A name re-exported from another public module (such
    as ``bmc.PlanarChain``) gets a short entry pointing to its full documentation there.
    """
    module = importlib.import_module(name)
    lines = [f".. _api-{name}:", "", name, "=" * len(name), ""]
    exported = module_all(name)
    submodules = [a for a in exported if _is_module(name, a)]
    objects = [a for a in exported if a not in submodules and a != "__version__"]
    lines += [f".. automodule:: {name}", "   :no-members:", ""]
    if submodules:
        lines += ["Submodules: " + ", ".join(f":mod:`{name}.{s}`" for s in submodules), ""]
    lines += [f".. currentmodule:: {name}", ""]
    if "__version__" in exported:
        lines += [".. py:data:: __version__", "",
                  f"   The installed version of ``{name}`` (from the package metadata).", ""]
    if objects:
        lines += [".. autosummary::", ""]
        lines += [f"   {obj}" for obj in objects]
        lines += [""]
        for obj in objects:
            value = getattr(module, obj)
            home = _home(value, modules, name, obj)
            if home is not None:
                kind, role = ("class", "class") if inspect.isclass(value) else ("function", "func")
                lines += [f".. py:{kind}:: {obj}", "   :no-index-entry:", "",
                          f"   The same object as :py:{role}:`{home}.{obj}`, re-exported here.",
                          ""]
                continue
            if isinstance(value, type):
                directive = "autoclass"
                options = ["   :members:", "   :show-inheritance:"]
            elif callable(value):
                directive, options = "autofunction", []
            else:
                directive, options = "autodata", ["   :no-value:"]
            lines += [f".. {directive}:: {name}.{obj}", *options, ""]
    return "\n".join(lines)


def _stage_api(src: Path) -> list[str]:
    """Write ``api/index.rst`` and one page per public module; return the module names."""
    api = src / "api"
    api.mkdir(parents=True, exist_ok=True)
    modules = public_modules()
    for name in modules:
        (api / f"{name}.rst").write_text(_api_page(name, modules), encoding="utf-8")
    index = [
        "API reference", "=============", "",
        "Every public name of every ``bmc`` module (each module's ``__all__``), generated "
        "from the numpydoc docstrings. Units are given in square brackets.", "",
        ".. toctree::", "   :maxdepth: 1", "",
        *[f"   {name}" for name in modules], "",
    ]
    (api / "index.rst").write_text("\n".join(index), encoding="utf-8")
    return modules


def _text(value: str | list[str]) -> str:
    """Return a notebook's multi-line string field as one string."""
    return "".join(value) if isinstance(value, list) else value


def _static_notebook(source: Path, target: Path) -> None:
    """Copy a notebook for the site: drop widget-only outputs and saved widget state.

    An output bundle that carries both a widget view and an ``image/png`` keeps the PNG (the
    site's render priority shows it); one with a widget view and no image is removed, since a
    static page could only print its ``text/plain`` repr. A figure's ``text/html`` twin
    (``<figure class="bmc-figure">``, written by ``bmc.plotting.show``) is dropped when its
    PNG is there: the PNG and its metadata (``alt``, ``caption``) make the page's figure.
    Links to remote stylesheets and scripts in stored HTML outputs are removed: the site must
    work with no network.
    """
    nb = json.loads(source.read_text(encoding="utf-8"))
    nb.get("metadata", {}).pop("widgets", None)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        kept = []
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data:
                if "image/png" not in data:
                    continue
                out = {**out, "data": {k: v for k, v in data.items() if k != WIDGET_VIEW}}
            if "image/png" in out.get("data", {}) and _FIGURE_HTML.match(
                    _text(out["data"].get("text/html", ""))):
                out = {**out, "data": {k: v for k, v in out["data"].items() if k != "text/html"}}
            if "text/html" in out.get("data", {}):
                html = _text(out["data"]["text/html"])
                out = {**out, "data": {**out["data"], "text/html": _REMOTE_ASSET.sub("", html)}}
            kept.append(out)
        cell["outputs"] = kept
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _section(markdown: str, heading: str) -> str:
    """Return the level-2 section ``## heading`` of a Markdown text, promoted one level."""
    match = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", markdown,
                      flags=re.M | re.S)
    if match is None:
        raise SystemExit(f"README.md has no '## {heading}' section; the site needs it")
    body = re.sub(r"^#(#+) ", r"\1 ", match.group(1), flags=re.M)
    return f"# {heading}\n{body}"


def _stage_instructors(src: Path) -> None:
    """Write the instructor page from the README section and exercises/README.md."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    exercises = (REPO / "exercises" / "README.md").read_text(encoding="utf-8")
    exercises = re.sub(r"^#(#*) ", r"##\1 ", exercises, flags=re.M)  # under the page title
    (src / "instructors.md").write_text(
        _section(readme, "For instructors") + "\n" + exercises, encoding="utf-8")


def _table_cells(line: str) -> list[str]:
    r"""Split a Markdown table row at its column bars: not at ``\|`` nor inside ``$...$``."""
    cells, current, maths, i = [], [], False, 0
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    while i < len(line):
        char = line[i]
        if char == "\\" and i + 1 < len(line):
            current.append(line[i:i + 2])
            i += 2
            continue
        if char == "$":
            maths = not maths
        if char == "|" and not maths:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(char)
        i += 1
    cells.append("".join(current).strip())
    return cells


def notation_rows(notebook: dict) -> list[tuple[tuple[str, ...], str, str]]:
    r"""Return the rows of a notebook's ``## Notation`` table: (symbols, meaning, unit).

    The table is the one of CONTRIBUTING.md ("Writing for students"): ``| symbol | meaning |
    unit |``. A row may name several symbols that share its meaning (``$\mathbf F_p$,
    $\tau_p$``); a symbol is the TeX between its dollars. A notebook without a Notation cell
    gives ``[]``.

    Parameters
    ----------
    notebook : dict
        The notebook (nbformat 4 JSON).

    Returns
    -------
    list of tuple
        ``(symbols, meaning, unit)`` per row, in the table's order: the row's symbols as a
        tuple of TeX strings; meaning and unit as written (Markdown), whitespace collapsed.

    Raises
    ------
    ValueError
        If the Notation cell holds no ``symbol | meaning | unit`` table, or a row of it has
        another number of columns or no ``$symbol$``.
    """
    for cell in notebook.get("cells", []):
        source = _text(cell.get("source", ""))
        if cell.get("cell_type") != "markdown" or not source.lstrip().startswith(NOTATION):
            continue
        lines = [line for line in source.splitlines() if line.strip().startswith("|")]
        if len(lines) < 2 or [c.lower() for c in _table_cells(lines[0])] != [
                "symbol", "meaning", "unit"]:
            raise ValueError(f"the '{NOTATION}' cell holds no | symbol | meaning | unit | table")
        rows = []
        for line in lines[2:]:
            cells = _table_cells(line)
            symbols = re.findall(r"\$([^$]+)\$", cells[0])
            if len(cells) != 3 or not symbols:
                raise ValueError(f"a Notation row needs a $symbol$, a meaning and a unit: "
                                 f"{line.strip()}")
            meaning, unit = (" ".join(c.split()) for c in cells[1:])
            rows.append((tuple(symbol.strip() for symbol in symbols), meaning, unit))
        return rows
    return []


_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda "
          "mu nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi "
          "omega").split()


def _symbol_order(symbol: str) -> tuple:
    """Sort key of a symbol: Latin letters, then Greek (in alphabet order), then the rest."""
    bare = re.sub(r"\\(mathbf|mathrm|mathit|mathcal|boldsymbol|bm|hat|dot|ddot|bar|tilde|vec|"
                  r"operatorname)\b", "", symbol)
    bare = re.sub(r"[{}\s]", "", bare)
    greek = re.match(r"\\([A-Za-z]+)", bare)
    if greek and greek.group(1).lower() in _GREEK:
        name = greek.group(1)
        return (1, _GREEK.index(name.lower()), name[0].isupper(), symbol)
    if bare[:1].isalpha():
        return (0, bare[0].lower(), bare[0].isupper(), bare.lower(), symbol)
    return (2, symbol)


def notation_page(notebooks: list[Path]) -> str:
    """Write the course-wide notation page (MyST Markdown) from the notebooks' tables.

    Each row of the notebooks' tables is listed once with its meaning, unit and the
    notebooks that give it, sorted by symbol (Latin, then Greek letters). A symbol that two
    notebooks define differently therefore appears once per meaning; the notebooks' own
    check of their tables fails on that.

    Parameters
    ----------
    notebooks : list of pathlib.Path
        The course notebooks, in course order.

    Returns
    -------
    str
        The page, with a ``list-table`` (a Markdown table would split at a ``|`` in TeX).
    """
    uses: dict[tuple[tuple[str, ...], str, str], list[int]] = {}
    titles, missing = [], []
    for number, path in enumerate(notebooks, start=1):
        nb = json.loads(path.read_text(encoding="utf-8"))
        headings = [_text(c["source"]).strip().splitlines()[0] for c in nb["cells"]
                    if c["cell_type"] == "markdown"
                    and _text(c["source"]).lstrip().startswith("# ")]
        title = re.sub(r"^#\s*(\d+\.\s*)?", "", headings[0]) if headings else path.stem
        titles.append(f"{number}. [{title}](notebooks/{path.stem}.ipynb)")
        rows = notation_rows(nb)
        if not rows:
            missing.append(str(number))
        for row in rows:
            used = uses.setdefault(row, [])
            if number not in used:
                used.append(number)
    lines = [
        "# Notation", "",
        "One symbol, one meaning, in the whole course. Each notebook lists the symbols it "
        "uses in its Notation section; this table gathers them, each symbol once, with its "
        "meaning, its unit and the notebooks that use it (by number):", "",
        *titles, "",
    ]
    if missing:
        lines += [f"Notebook{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                  f"{'have' if len(missing) > 1 else 'has'} no Notation table yet.", ""]
    lines += [
        "Conventions: $x$ forward, $y$ up, $z$ out of the plane; angles in radians, "
        "counter-clockwise positive; SI units. The equations of motion are written "
        "$\\tau = M(q)\\ddot q + C(q,\\dot q) + G(q) + E(q)$.", "",
        "```{list-table} Symbols of the course",
        ":header-rows: 1", ":widths: 15 55 15 15", ":class: bmc-notation", "",
        "* - symbol", "  - meaning", "  - unit", "  - notebooks",
    ]
    for (symbols, meaning, unit), used in sorted(uses.items(),
                                                 key=lambda kv: _symbol_order(kv[0][0][0])):
        links = ", ".join(f"[{n}](notebooks/{notebooks[n - 1].stem}.ipynb)" for n in used)
        lines += ["* - " + ", ".join(f"${s}$" for s in symbols), f"  - {meaning}",
                  f"  - {unit}", f"  - {links}"]
    lines += ["```", ""]
    return "\n".join(lines)


def check_citations(notebooks: list[Path]) -> list[str]:
    """Return what stops the build in the notebooks' citations (``tools/bibliography.py``).

    A cited key with no entry in ``docs/references.bib``, or an entry that lacks a field a
    reader needs, stops the build. (A References cell that is out of date is the notebook
    tests' business; on the site, a citation whose anchor is missing from the page fails the
    Sphinx build.)

    Parameters
    ----------
    notebooks : list of pathlib.Path
        Notebooks to check.

    Returns
    -------
    list of str
        One sentence per problem; empty when every citation resolves to a complete entry.
    """
    spec = importlib.util.spec_from_file_location("bibliography",
                                                  REPO / "tools" / "bibliography.py")
    bibliography = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bibliography)
    entries = bibliography.load()
    problems = []
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for key in bibliography.cited_keys(cells):
            if key not in entries:
                problems.append(f"{path.name} cites '{key}', which is not in "
                                "docs/references.bib")
            elif bibliography.missing_fields(entries[key]):
                problems.append(f"{path.name} cites '{key}', whose entry lacks "
                                f"{', '.join(bibliography.missing_fields(entries[key]))}")
    return problems


def _stage_exercises(src: Path, work: Path) -> list[str]:
    """Build the exercise sets with otter (no solution run) and stage the student versions."""
    dist = work / "exercises-dist"
    shutil.rmtree(dist, ignore_errors=True)
    subprocess.run([sys.executable, str(REPO / "exercises" / "build.py"), "--no-run-tests",
                    "--no-environment", "--out", str(dist)], check=True,
                   cwd=REPO, stdout=subprocess.DEVNULL)
    staged = []
    downloads = src / "_extra" / "exercises"
    downloads.mkdir(parents=True, exist_ok=True)
    for folder in sorted(dist.glob("[0-9][0-9]_*/")):
        name = folder.name
        student = folder / "student" / f"{name}.ipynb"
        _static_notebook(student, src / "exercises" / f"{name}.ipynb")
        shutil.copy2(folder / f"{name}-student.zip", downloads / f"{name}-student.zip")
        staged.append(name)
    return staged


def stage(src: Path, work: Path) -> dict[str, list[str]]:
    """Assemble the Sphinx source folder ``src``; return what was staged, by kind."""
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(DOCS, src, ignore=_SKIP)
    if not (src / "jupyterhub.md").exists():
        # The hub guide (docs/jupyterhub.md) is optional; Sphinx warns on an empty glob.
        index = src / "index.md"
        index.write_text(index.read_text(encoding="utf-8").replace("jupyterhub*\n", ""),
                         encoding="utf-8")
    notebooks = []
    for nb in course_notebooks():
        _static_notebook(nb, src / "notebooks" / nb.name)
        extra = src / "_extra" / "notebooks"
        extra.mkdir(parents=True, exist_ok=True)
        shutil.copy2(nb, extra / nb.name)  # "download notebook": the stored file itself
        notebooks.append(nb.stem)
    (src / "notation.md").write_text(notation_page(course_notebooks()), encoding="utf-8")
    shutil.copy2(REPO / "CHANGELOG.md", src / "changelog.md")
    shutil.copy2(REPO / "CITATION.cff", src / "CITATION.cff")
    _stage_instructors(src)
    return {"notebooks": notebooks, "exercises": _stage_exercises(src, work),
            "modules": _stage_api(src)}


def build(out: Path, *, warnings_as_errors: bool = True) -> float:
    """Stage the sources in ``out/src`` and build the HTML site in ``out/html``.

    Parameters
    ----------
    out : pathlib.Path
        Build folder; ``out/html/index.html`` is the site's front page.
    warnings_as_errors : bool, optional
        Pass ``-W --keep-going`` to Sphinx (default; CI builds this way).

    Returns
    -------
    float
        Wall-clock build time [s], staging included.
    """
    start = time.perf_counter()
    problems = check_citations(course_notebooks())
    if problems:
        raise SystemExit("citations that do not resolve (docs/references.bib):\n  "
                         + "\n  ".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    staged = stage(out / "src", out)
    args = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "1",
            "-d", str(out / "doctrees"), str(out / "src"), str(out / "html")]
    if warnings_as_errors:
        args[3:3] = ["-W", "--keep-going"]
    env = {**os.environ, "BMC_REPO_ROOT": str(REPO), "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    subprocess.run(args, check=True, cwd=REPO, env=env)
    elapsed = time.perf_counter() - start
    print(f"built {len(staged['notebooks'])} notebooks, {len(staged['exercises'])} exercise "
          f"sets, {len(staged['modules'])} API modules in {elapsed:.1f} s: "
          f"{out / 'html' / 'index.html'}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DOCS / "_build",
                        help="build folder (default docs/_build); the site is OUT/html")
    parser.add_argument("--allow-warnings", action="store_true",
                        help="do not turn Sphinx warnings into errors")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), warnings_as_errors=not args.allow_warnings)
    except subprocess.CalledProcessError as exc:
        print(f"site build failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
