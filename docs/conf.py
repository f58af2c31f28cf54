"""Sphinx configuration of the course website.

Build with ``python tools/build_site.py`` (it stages the notebooks, exercise sets and API
pages next to these files, then runs Sphinx with warnings as errors). Settings read from the
environment:

BMC_HUB_URL
    Address of the JupyterHub that the "JupyterHub" launch link pulls the course into with
    nbgitpuller (e.g. ``https://hub.example.edu``). Without it the link is left out.
BMC_REPOSITORY, BMC_BRANCH
    GitHub ``owner/name`` and branch that Binder and nbgitpuller open (default
    ``bmc-course/bmc`` and ``main``).
"""

from __future__ import annotations

import os
import re
import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))


def _version() -> str:
    """Return bmc's version: the installed metadata, else pyproject.toml (one source)."""
    try:
        return _dist_version("bmc")
    except PackageNotFoundError:  # a source tree on PYTHONPATH; build_site.py names it
        for folder in (Path(os.environ.get("BMC_REPO_ROOT", HERE)), HERE, *HERE.parents):
            pyproject = folder / "pyproject.toml"
            if pyproject.is_file():
                found = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"),
                                  flags=re.M)
                if found:
                    return found.group(1)
    return "unknown"


project = "bmc: the dynamics of human movement"
author = "The bmc authors"
copyright = "the bmc authors; text and figures CC BY 4.0, code BSD-3-Clause"
release = version = _version()

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx-mathjax-offline",  # MathJax 3 copied from the installed package: no CDN
    "sphinxcontrib.bibtex",
    "bmc_site",
    "bmc_a11y",
    "bmc_bibliography",
]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_extra", "_ext"]
html_extra_path = ["_extra"] if (HERE / "_extra").is_dir() else []
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["bmc.css"]
# Figure boxes that scroll on a narrow screen become named keyboard stops (see the file).
html_js_files = ["figure-scroll.js"]

# Notebooks: rendered from their stored, nbval-checked outputs; never executed here.
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no widget manager from a CDN; explorers show their stored PNG
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
]
myst_enable_extensions = ["dollarmath", "amsmath"]
# Formulas: out of the tab order unless they scroll; speech text over HTTP(S) (see the file).
mathjax_config_path = "_ext/mathjax-config.js"

# The course's one bibliography (docs/references.bib): bibliography.md renders all of it,
# in author-year form, each entry with the anchor cite-KEY (bmc_bibliography.py).
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "bmc_author_year"
bibtex_cite_id = "cite-{key}"
myst_heading_anchors = 3
suppress_warnings = [
    "mystnb.unknown_mime_type",
    # numpydoc References sections list sources that the summary need not cite inline.
    "ref.citation",
    # otter's student notebooks go from the set's title (H1) to question headings (H3).
    "myst.header",
]

# API reference from numpydoc docstrings; build_site.py writes the module pages.
autosummary_generate = False
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the numpydoc Parameters section states types and units
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Theme: pydata-sphinx-theme ships its fonts and scripts; nothing is fetched when opened.
html_theme = "pydata_sphinx_theme"
html_title = f"bmc {version}"
html_last_updated_fmt = None
html_theme_options = {
    "navbar_end": ["version-label", "navbar-icon-links"],
    "footer_start": ["copyright"],
    "footer_end": ["version-label"],
    "secondary_sidebar_items": ["page-toc"],
    "show_prev_next": True,
    "navigation_with_keys": False,
}
html_context = {"default_mode": "light"}
html_show_sourcelink = False
html_copy_source = False

bmc_repository = os.environ.get("BMC_REPOSITORY", "bmc-course/bmc")
bmc_branch = os.environ.get("BMC_BRANCH", "main")
bmc_hub_url = os.environ.get("BMC_HUB_URL", "").rstrip("/")
