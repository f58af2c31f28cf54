"""The site resolves the notebooks' citation links, [Kuo (1998)](#cite-kuo1998).

In JupyterLab the link jumps to the ``<a id="cite-kuo1998">`` anchor that
``tools/bibliography.py`` writes before each References entry; MyST, which builds the site,
resolves ``#`` links to its own targets only, so the site's copy of a notebook gives each
entry a ``(cite-KEY)=`` target (``tools/build_site.py``); ``tests/test_site.py`` builds the
site with warnings as errors, which fails on a link without a target.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
build_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_site)


def test_references_entries_become_myst_targets():
    cell = ('## References\n\n- <a id="cite-kuo1998"></a>Kuo, A. D. (1998). Title.\n'
            '- <a id="cite-winter2009"></a>Winter, D. A. (2009). *Book*.')
    out = build_site._citation_targets(cell)
    assert "(cite-kuo1998)=\nKuo, A. D. (1998). Title." in out
    assert "(cite-winter2009)=\nWinter, D. A. (2009). *Book*." in out
    assert "<a id" not in out


def test_other_cells_are_left_alone():
    text = 'As [Kuo (1998)](#cite-kuo1998) showed.\n- <a id="cite-x"></a>not a reference list'
    assert build_site._citation_targets(text) == text
