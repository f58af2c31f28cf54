"""A figure shown with ``bmc.plotting.show`` keeps its text alternative on the course website.

The website renders the stored notebooks with myst-nb (``docs/conf.py``: never executed,
HTML before PNG in the render priority). myst-nb 1.4 writes an ``image/png`` output to a
file and gives the ``<img>`` an ``alt`` only from the *cell's* metadata (``mystnb.image``);
the ``alt`` in the output's metadata is not read, so Sphinx falls back to the file's path
(what the site showed for its 57 figures). ``show`` also stores ``text/html`` (a
``<figure>`` with ``<img alt>`` and ``<figcaption>``), which myst-nb copies into the page.
This test builds a one-notebook site with the course's myst-nb settings and reads the page.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.slow

ALT = 'Hip moment over stance: peak 0.64 N m/kg at 62 % of stance, "extensor".'
CAPTION = "The hip moment of one running stance."


def _site(tmp_path: Path) -> str:
    from nbclient import NotebookClient
    from sphinx.cmd.build import build_main

    src = tmp_path / "src"
    src.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Figures"),
        nbformat.v4.new_code_cell(
            "%matplotlib inline\nimport matplotlib.pyplot as plt\nimport bmc\n"
            "fig, ax = plt.subplots(figsize=(6, 3))\nax.plot([0, 1], [0, 0.64])\n"
            f"bmc.plotting.show(fig, alt={ALT!r}, caption={CAPTION!r})"),
        nbformat.v4.new_code_cell(
            "import io\nfrom IPython.display import publish_display_data\n"
            "fig, ax = plt.subplots(figsize=(4, 2))\nbuf = io.BytesIO()\n"
            "fig.savefig(buf, format='png')\nplt.close(fig)\n"
            "publish_display_data({'image/png': buf.getvalue(), 'text/plain': 'a line'},"
            " {'image/png': {'alt': 'an alt in the metadata'}})"),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(src)}}).execute()
    nbformat.write(nb, src / "figures.ipynb")
    # the course's myst-nb settings (docs/conf.py)
    (src / "conf.py").write_text(
        "extensions = ['myst_nb']\n"
        "nb_execution_mode = 'off'\n"
        "nb_mime_priority_overrides = [('html', 'application/vnd.jupyter.widget-view+json',"
        " None)]\n"
        "exclude_patterns = ['_build']\n")
    (src / "index.md").write_text("# Test\n\n```{toctree}\nfigures\n```\n")
    out = tmp_path / "html"
    assert build_main(["-q", "-b", "html", str(src), str(out)]) == 0
    return (out / "figures.html").read_text(encoding="utf-8")


def test_the_website_page_carries_the_alt_and_the_caption(tmp_path):
    import html

    from bs4 import BeautifulSoup

    page = _site(tmp_path)
    soup = BeautifulSoup(page, "html.parser")
    (figure,) = soup.select("figure.bmc-figure")
    img = figure.select_one("img")
    assert img["alt"] == ALT and img["src"].startswith("data:image/png;base64,")
    assert figure.select_one("figcaption").get_text() == CAPTION
    assert html.escape(ALT, quote=True) in page          # escaped in the HTML source
    # the control: a PNG whose alt is only in its output metadata gets its file path
    others = [i for i in soup.select(".cell_output img") if i not in figure.select("img")]
    assert len(others) == 1 and others[0]["alt"] != "an alt in the metadata"
    assert others[0]["alt"].startswith("_images/") or others[0]["alt"].endswith(".png")
