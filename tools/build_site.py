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
2. Runs Sphinx with warnings as errors (``-W --keep-going``) into ``OUT/html``.

Explorer outputs: a static page cannot run ipywidgets, so the site shows the ``image/png``
that an explorer cell stores next to its widget view (the figure at the default slider
values). A widget-view output without such a PNG is dropped from the staged copy (it would
only show ``VBox(children=...)``); ``tests/test_site.py`` then fails, because every explorer
must show one static figure.
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


_CITE_ENTRY = re.compile(r'^- <a id="(cite-[^"]+)"></a>', re.M)


def _citation_targets(markdown: str) -> str:
    """Give each References entry a MyST target, for the citation links of the site.

    ``[Kuo (1998)](#cite-kuo1998)`` jumps to an ``<a id>`` anchor in JupyterLab
    (tools/bibliography.py writes the entries as ``- <a id="cite-KEY"></a>...``); MyST
    resolves ``#`` links to its own targets only. Other text is left alone.
    """
    if not markdown.startswith("## References"):
        return markdown
    return _CITE_ENTRY.sub(lambda m: f"\n({m[1]})=\n", markdown)


def _static_notebook(source: Path, target: Path) -> None:
    """Copy a notebook for the site: drop widget-only outputs and saved widget state.

    An output bundle that carries both a widget view and an ``image/png`` keeps the PNG (the
    site's render priority shows it); one with a widget view and no image is removed, since a
    static page could only print its ``text/plain`` repr. Links to remote stylesheets and
    scripts in stored HTML outputs are removed: the site must work with no network.
    """
    nb = json.loads(source.read_text(encoding="utf-8"))
    nb.get("metadata", {}).pop("widgets", None)
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = _citation_targets("".join(cell["source"]))
        if cell["cell_type"] != "code":
            continue
        kept = []
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data:
                if "image/png" not in data:
                    continue
                out = {**out, "data": {k: v for k, v in data.items() if k != WIDGET_VIEW}}
            if "text/html" in out.get("data", {}):
                html = out["data"]["text/html"]
                html = "".join(html) if isinstance(html, list) else html
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
