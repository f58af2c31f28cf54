"""The course's one bibliography: check citations and write each notebook's References.

Every source the course cites is one entry of ``docs/references.bib`` (BibTeX, UTF-8).
A notebook cites it with a Markdown link whose target is ``#cite-`` and the entry's key::

    ... as [Kuo (1998)](#cite-kuo1998) showed ...

The link text is free (``Kuo (1998, eq. 13)``, ``the paper``); the key is what counts. The
notebook's ``## References`` cell is generated from the entries it cites, each entry
preceded by an anchor ``<a id="cite-KEY"></a>``, so that the link jumps to it in JupyterLab
and on the site. Usage::

    python tools/bibliography.py notebooks/*.ipynb          # rewrite the References cells
    python tools/bibliography.py --check notebooks/*.ipynb  # exit 1 on an unknown key,
                                                            # an incomplete entry or a stale cell

``tests/test_bibliography.py`` runs the check on every notebook; the site build runs it too,
so a wrong key fails the build.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIB = ROOT / "docs" / "references.bib"
CITE = re.compile(r"\]\(#cite-([A-Za-z0-9_:+.-]+)\)")
HEADING = "## References"

# What a reader needs to find the work, by entry type (a field in parentheses: one of them).
REQUIRED = {
    "article": ["author", "year", "title", "journal", "volume", "pages"],
    "book": [("author", "editor"), "year", "title", "publisher"],
    "incollection": ["author", "year", "title", "booktitle", "publisher", "pages"],
    "inproceedings": ["author", "year", "title", "booktitle", "pages"],
    "misc": ["author", "year", "title", ("url", "howpublished")],
    "techreport": ["author", "year", "title", "institution"],
    "phdthesis": ["author", "year", "title", "school"],
}


def _strip(text: str) -> str:
    """BibTeX field text as plain text: braces dropped, ``--`` as an en dash."""
    text = re.sub(r"\s+", " ", text.replace("{", "").replace("}", "")).strip()
    return text.replace("---", "\u2014").replace("--", "\u2013")


def load(path: Path = BIB) -> dict[str, dict]:
    """Entries of the bibliography: key -> {"type": ..., "persons": {...}, field: text}."""
    from pybtex.database import parse_file

    data = parse_file(str(path), bib_format="bibtex")
    entries = {}
    for key, entry in data.entries.items():
        record = {"type": entry.type.lower(), "persons": {}}
        for role, persons in entry.persons.items():
            record["persons"][role.lower()] = [
                (" ".join(_strip(p) for p in person.prelast_names + person.last_names),
                 [_strip(p) for p in person.first_names + person.middle_names])
                for person in persons]
        for name, value in entry.fields.items():
            record[name.lower()] = _strip(value)
        entries[key] = record
    return entries


def missing_fields(entry: dict) -> list[str]:
    """Fields a complete citation of this entry type still lacks."""
    wanted = REQUIRED.get(entry["type"])
    if wanted is None:
        return [f"an entry type the course formats ({', '.join(sorted(REQUIRED))})"]
    have = set(entry) | set(entry["persons"])
    out = []
    for field in wanted:
        options = field if isinstance(field, tuple) else (field,)
        if not have.intersection(options):
            out.append(" or ".join(options))
    return out


def _names(persons: list[tuple[str, list[str]]]) -> str:
    def one(last: str, first: list[str]) -> str:
        initials = " ".join(f"{f[0]}." if not f.endswith(".") else f
                            for part in first for f in part.split("-") if f)
        return f"{last}, {initials}" if initials else last

    names = [one(last, first) for last, first in persons]
    if len(names) == 1:
        return names[0]
    if len(names) > 20:
        names = names[:19] + ["\u2026", names[-1]]
        return ", ".join(names)
    return ", ".join(names[:-1]) + ", & " + names[-1]


def format_entry(entry: dict) -> str:
    """One entry as a Markdown line in the course's (APA-like) style."""
    persons = entry["persons"]
    who = persons.get("author") or persons.get("editor") or []
    authors = _names(who) + (" (Ed.)." if "author" not in persons and who else "")
    year = entry.get("year", "n.d.")
    title = entry.get("title", "")
    kind = entry["type"]
    parts = [f"{authors.rstrip('.')}. ({year})."]
    if kind == "article":
        where = f"*{entry['journal']}*, *{entry['volume']}*"
        if "number" in entry:
            where += f"({entry['number']})"
        where += f", {entry['pages']}."
        parts += [f"{title}.", where]
    elif kind in ("book", "techreport", "phdthesis"):
        edition = f" ({entry['edition']} ed.)" if "edition" in entry else ""
        parts.append(f"*{title}*{edition}.")
        publisher = entry.get("publisher") or entry.get("institution") or entry.get("school")
        if "address" in entry:
            publisher = f"{entry['address']}: {publisher}"
        parts.append(f"{publisher}.")
    elif kind in ("incollection", "inproceedings"):
        parts.append(f"{title}.")
        editors = persons.get("editor")
        lead = f"In {_names(editors)} (Eds.), " if editors else "In "
        parts.append(f"{lead}*{entry['booktitle']}* (pp. {entry['pages']}).")
        if "publisher" in entry:
            parts.append(f"{entry['publisher']}.")
    else:  # misc: notebooks, data sets, software, web pages
        parts.append(f"*{title}*.")
        if "howpublished" in entry:
            parts.append(f"{entry['howpublished']}.")
    if "note" in entry:
        parts.append(f"{entry['note'].rstrip('.')}.")
    if "doi" in entry:
        parts.append(f"https://doi.org/{entry['doi']}")
    elif "url" in entry:
        parts.append(f"<{entry['url']}>")
    return " ".join(parts)


def cited_keys(cells: list[dict]) -> list[str]:
    """Keys cited in the Markdown cells, in order of first citation (References excluded)."""
    keys: list[str] = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown" or source.startswith(HEADING):
            continue
        for key in CITE.findall(source):
            if key not in keys:
                keys.append(key)
    return keys


def references_cell(keys: list[str], entries: dict[str, dict]) -> str:
    """Write the text of a References cell, entries sorted by first author and year."""
    def order(key: str):
        e = entries[key]
        who = e["persons"].get("author") or e["persons"].get("editor") or [("", [])]
        return (who[0][0].lower(), e.get("year", ""), key)

    lines = [HEADING, ""]
    lines += [f'- <a id="cite-{key}"></a>{format_entry(entries[key])}'
              for key in sorted(keys, key=order)]
    return "\n".join(lines)


def problems(path: Path, entries: dict[str, dict]) -> list[str]:
    """List what is wrong with one notebook's citations, as sentences."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    keys = cited_keys(nb["cells"])
    found = [f"{path.name}: cites '{k}', which is not in docs/references.bib"
             for k in keys if k not in entries]
    for k in keys:
        if k in entries and missing_fields(entries[k]):
            found.append(f"{path.name}: entry '{k}' lacks {', '.join(missing_fields(entries[k]))}")
    cells = [c for c in nb["cells"] if "".join(c["source"]).startswith(HEADING)]
    if not found:
        want = references_cell(keys, entries)
        if len(cells) != 1:
            found.append(f"{path.name}: needs exactly one '{HEADING}' cell; has {len(cells)}")
        elif "".join(cells[0]["source"]).strip() != want:
            found.append(f"{path.name}: the References cell is not the one generated from its "
                         "citations (run python tools/bibliography.py on it)")
    return found


def rewrite(path: Path, entries: dict[str, dict]) -> bool:
    """Regenerate the References cell in place; True if the file changed."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    want = references_cell(cited_keys(nb.cells), entries)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.startswith(HEADING):
            if cell.source == want:
                return False
            cell.source = want
            break
    else:
        raise SystemExit(f"{path}: no '{HEADING}' cell to write into")
    nbformat.write(nb, path)
    return True


def main(argv: list[str] | None = None) -> int:
    """Check or rewrite the References of the notebooks named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true",
                        help="report problems and exit 1 instead of rewriting")
    args = parser.parse_args(argv)
    entries = load()
    found = [p for nb in args.notebooks for p in problems(nb, entries)]
    if args.check:
        print("\n".join(found) or "citations: every key resolves, every References cell current")
        return 1 if found else 0
    blocking = [p for p in found if "generated" not in p and "exactly one" not in p]
    if blocking:
        print("\n".join(blocking))
        return 1
    for nb in args.notebooks:
        if rewrite(nb, entries):
            print(f"rewrote the References of {nb}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
