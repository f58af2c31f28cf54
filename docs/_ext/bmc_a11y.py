"""Sphinx extension of the course site: what a screen reader or a keyboard user needs.

- **Figures with their text alternative.** ``bmc.plotting.show`` (and an explorer's static
  picture) store the text alternative, and optionally a caption, in the output's metadata:
  ``{"image/png": {"alt": ..., "caption": ...}}``. myst-nb writes every PNG output to a file
  named after the SHA-256 of its bytes but reads ``alt`` only from a *cell's* metadata, so
  Sphinx falls back to the file's path. Here each notebook's PNG outputs are read once, keyed
  by that digest, and every image node of the page gets its ``alt``; a caption wraps the
  image in a figure with a ``figcaption``.
- **Citation lists** (numpydoc's References, the bibliography page): docutils writes
  ``<div role="list">`` around entries with ``role="doc-biblioentry"``, which is not a list
  item (axe: ``aria-required-children``, critical; ``doc-biblioentry`` is deprecated). Entries
  are written as ``role="listitem"``.
- **Empty header cells**: a table header cell with no text (the corner of a translation
  table) is written as ``<td>``: it heads nothing, and a screen reader would announce an
  empty column header.
- **MathJax**: ``mathjax-config.js`` (beside this file) takes formulas out of the tab order,
  makes those that scroll focusable, and loads the speech component over HTTP(S).
"""

from __future__ import annotations

import binascii
import hashlib
import json
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

IMAGE_MIMES = ("image/png", "image/jpeg", "image/gif")


def figure_texts(notebook: dict) -> dict[str, dict[str, str]]:
    """Return ``{sha256 of the image bytes: {"alt": ..., "caption": ...}}`` of a notebook.

    Parameters
    ----------
    notebook : dict
        The notebook (nbformat 4 JSON).

    Returns
    -------
    dict
        For each image output whose metadata gives an ``alt``, its text alternative and, when
        given, its caption (whitespace collapsed), keyed by the SHA-256 hex digest of the
        decoded image: the name myst-nb gives the image file.
    """
    texts: dict[str, dict[str, str]] = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data, metadata = output.get("data", {}), output.get("metadata", {})
            for mime in IMAGE_MIMES:
                content, meta = data.get(mime), metadata.get(mime) or {}
                alt = meta.get("alt") if isinstance(meta, dict) else None
                if not content or not isinstance(alt, str) or not alt.strip():
                    continue
                content = "".join(content) if isinstance(content, list) else content
                digest = hashlib.sha256(binascii.a2b_base64(content)).hexdigest()
                text = {"alt": " ".join(alt.split())}
                caption = meta.get("caption")
                if isinstance(caption, str) and caption.strip():
                    text["caption"] = " ".join(caption.split())
                texts[digest] = text
    return texts


def _describe_figures(app: Sphinx, doctree: nodes.document) -> None:
    """Give every image output of a notebook page its stored text alternative and caption."""
    source = Path(app.env.doc2path(app.env.docname))
    if source.suffix != ".ipynb":
        return
    texts = figure_texts(json.loads(source.read_text(encoding="utf-8")))
    if not texts:
        return
    for image in list(doctree.findall(nodes.image)):
        text = texts.get(Path(image["uri"]).stem)
        if text is None:
            continue
        image["alt"] = text["alt"]
        if "caption" in text and not isinstance(image.parent, nodes.figure):
            figure = nodes.figure("", classes=["bmc-figure"])
            image.replace_self(figure)
            figure += image
            figure += nodes.caption(text["caption"], text["caption"])


class AccessibleHTMLTranslator(HTML5Translator):
    """Sphinx's HTML5 writer with valid roles on citation lists and no empty header cells."""

    def visit_citation(self, node: nodes.citation) -> None:
        """Open a citation as a list item of a ``role="list"`` container."""
        if not isinstance(node.previous_sibling(), type(node)):
            self.body.append('<div role="list" class="citation-list">\n')
        self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))

    def visit_entry(self, node: nodes.entry) -> None:
        """Write an empty cell of a table's header row as ``<td>``, not as ``<th>``."""
        super().visit_entry(node)
        if (isinstance(node.parent.parent, nodes.thead) and not node.astext().strip()
                and self.context[-1] == "</th>\n"):
            self.body[-1] = "<td" + self.body[-1][len("<th"):]
            self.context[-1] = "</td>\n"


def setup(app: Sphinx) -> dict:
    """Register the figure texts and the translator (conf.py names the MathJax script)."""
    app.connect("doctree-read", _describe_figures)
    app.set_translator("html", AccessibleHTMLTranslator)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
