"""Each course notebook, as stored, shows its figures on a static page (no kernel).

A reader of the rendered site, nbviewer or GitHub sees the notebook's stored outputs only: no
kernel runs, so a widget has nothing to draw from. Each notebook is converted to HTML with
nbconvert's ``HTMLExporter`` exactly as stored (nothing executed) and the page must show:

- every stored ``image/png`` output as an ``<img>`` (the same picture, byte for byte);
- every explorer and every animation as an ``<img>`` of its static picture (the explorer at
  its default values, the animation's strobe), never as the widget's ``VBox(children=...)``
  text;
- at least as many pictures as the notebook has figure cells;
- every picture with its text alternative (WCAG 2.1, 1.1.1): the ``alt`` stored in the
  output's metadata by ``bmc.plotting.show`` (or by an explorer). nbconvert does not read
  that metadata: it shows the output's ``text/html`` form when there is one (``show`` stores
  a ``<figure>`` with ``<img alt>`` for that reason), else the bare PNG, to which it gives
  the ``alt`` "No description has been provided for this image".

The explorers and animations store their static picture only when the notebook was executed
with the current ``bmc.widgets``; re-execute a notebook with ``python tools/run_notebooks.py
notebooks/NN_x.ipynb`` to bring its stored outputs up to date.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_TEXT = "VBox(children="  # what a page shows for a widget that stored no picture
IMG_SRC = re.compile(r"<img\b[^>]*\bsrc=\"data:image/png;base64,([^\"]+)\"")
NO_ALT = "No description has been provided for this image"  # nbconvert's stand-in


def _squeeze(data: str | list[str]) -> str:
    """Base64 text without line breaks (nbformat may store it split into lines)."""
    return re.sub(r"\s+", "", "".join(data) if isinstance(data, list) else data)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_static_page_shows_every_figure(notebook: Path) -> None:
    from nbconvert import HTMLExporter

    nb = nbformat.read(notebook, as_version=4)
    html, _ = HTMLExporter().from_notebook_node(nb)  # as stored: no kernel, nothing executed
    shown = [_squeeze(src) for src in IMG_SRC.findall(html)]
    problems = []
    figure_cells = 0
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        first_line = (cell.source.strip().splitlines() or [""])[-1][:70]
        where = f"cell {number} ({first_line!r})"
        pictures = 0
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_MIME in data and "image/png" not in data:
                problems.append(f"{where}: a widget with no stored picture; the page shows "
                                f"{data.get('text/plain', '')[:40]!r}")
            if "image/png" in data:
                pictures += 1
                if _squeeze(data["image/png"]) not in shown:
                    problems.append(f"{where}: its stored PNG is not shown as an <img>")
        figure_cells += pictures > 0
    if WIDGET_TEXT in html:
        problems.append(f"the page shows widget text {WIDGET_TEXT!r} instead of a picture")
    if len(shown) < figure_cells:
        problems.append(f"{len(shown)} picture(s) on the page for {figure_cells} figure cells")
    assert figure_cells, f"{notebook.name} stores no figure at all: was it executed?"
    assert not problems, f"{notebook.name} on a static page:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_static_page_gives_every_figure_its_text_alternative(notebook: Path) -> None:
    from bs4 import BeautifulSoup
    from nbconvert import HTMLExporter

    nb = nbformat.read(notebook, as_version=4)
    html, _ = HTMLExporter().from_notebook_node(nb)
    alts: dict[str, list[str]] = {}
    for img in BeautifulSoup(html, "html.parser").select('img[src^="data:image/png;base64,"]'):
        alts.setdefault(_squeeze(img["src"].split(",", 1)[1]), []).append(img.get("alt", ""))
    problems = []
    for number, cell in enumerate(nb.cells, start=1):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if "image/png" not in output.get("data", {}):
                continue
            stored = output.get("metadata", {}).get("image/png", {}).get("alt")
            shown = alts.get(_squeeze(output["data"]["image/png"]), [NO_ALT])
            where = f"cell {number}"
            if not stored:
                problems.append(f"{where}: no text alternative stored with the figure "
                                "(bmc.plotting.show(fig, alt=...))")
            elif " ".join(stored.split()) not in shown:
                problems.append(f"{where}: the page shows alt {shown[0][:50]!r}, not the "
                                "stored one")
    assert not problems, f"{notebook.name} on a static page:\n  " + "\n  ".join(problems)
