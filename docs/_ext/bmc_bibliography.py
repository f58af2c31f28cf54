"""Sphinx extension of the course site: the course's one bibliography, on every page.

- The bibliography page (``bibliography.md``) renders all of ``docs/references.bib`` with
  sphinxcontrib-bibtex, in the course's author-year form: each entry is labelled like the
  notebooks cite it ("Kuo 1998", "Blajer & Czaplicki 2005", "Collins et al. 2009") and has
  the anchor ``cite-KEY`` (``bibtex_cite_id`` in conf.py), sorted by author and year.
- A notebook's References cell (written by ``tools/bibliography.py``) marks each entry with
  ``<a id="cite-KEY"></a>``, and the text links to it with ``[Kuo (1998)](#cite-kuo1998)``.
  myst-nb passes that HTML through as raw markup that Sphinx cannot see, so every such link
  was an unresolved cross-reference. Each anchor becomes a real target of the page before
  myst resolves the links; a citation of a key that has no entry in the page's References
  stays unresolved, and the build (warnings as errors) fails.
"""

from __future__ import annotations

import re
from collections import Counter

from docutils import nodes
from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

ANCHOR = re.compile(r'\s*<a\s+id="(cite-[A-Za-z0-9_:+.-]+)"\s*>\s*')
STYLE = "bmc_author_year"


class AuthorYearLabels(BaseLabelStyle):
    """Labels "Kuo 1998", "Blajer & Czaplicki 2005", "Collins et al. 2009" (a, b if equal)."""

    def format_labels(self, sorted_entries):
        """Yield one label per entry, with a, b, ... appended to labels that repeat."""
        labels = [self.format_label(entry) for entry in sorted_entries]
        count, seen = Counter(labels), Counter()
        for label in labels:
            if count[label] == 1:
                yield label
            else:
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label]]
                seen[label] += 1

    @staticmethod
    def format_label(entry) -> str:
        """Return the label of one entry: surnames of its authors (or editors) and year."""
        persons = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [" ".join(p.prelast_names + p.last_names).replace("{", "").replace("}", "")
                 for p in persons]
        if not names:
            who = entry.fields.get("key", entry.key)
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} & {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who} {entry.fields.get('year', 'n.d.')}"


class AuthorYearStyle(UnsrtStyle):
    """pybtex's unsrt formatting, author-year labels, sorted by author, year and title."""

    default_label_style = STYLE
    default_sorting_style = "author_year_title"


class CiteAnchors(SphinxTransform):
    """Turn the References cell's ``<a id="cite-KEY"></a>`` into targets of the page.

    Runs before myst's ``ResolveAnchorIds`` (priority 879), which then resolves each
    ``[...](#cite-KEY)`` link to the target in the same page.
    """

    default_priority = 870

    def apply(self, **kwargs) -> None:
        """Replace each anchor (its opening and closing raw HTML) by an empty target."""
        for raw in list(self.document.findall(nodes.raw)):
            match = ANCHOR.fullmatch(raw.astext())
            if raw.get("format") != "html" or match is None or raw.parent is None:
                continue
            siblings = raw.parent.children
            after = siblings[siblings.index(raw) + 1:]
            if after and isinstance(after[0], nodes.raw) and after[0].astext().strip() == "</a>":
                raw.parent.remove(after[0])
            name = match.group(1)
            target = nodes.inline("", "", ids=[name], names=[name], classes=["bmc-cite"])
            raw.replace_self(target)
            self.document.note_explicit_target(target, target)


def setup(app: Sphinx) -> dict:
    """Register the author-year style and the anchor transform."""
    register_plugin("pybtex.style.labels", STYLE, AuthorYearLabels, force=True)
    register_plugin("pybtex.style.formatting", STYLE, AuthorYearStyle, force=True)
    app.add_transform(CiteAnchors)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
