r"""The course's notation: read each notebook's Notation table, check it, write the course's.

Every course notebook has a ``## Notation`` cell with one table in the format of
CONTRIBUTING.md ("Writing for students")::

    | symbol | meaning | unit |
    |---|---|---|
    | $\tau_i$ | net joint moment at joint $i$, on the distal segment, ... | N m |

A row may name several symbols that share a meaning (``$f_L$, $f_V$``); a symbol is the
exact TeX between the dollars. A symbol has one meaning in a notebook, and a symbol listed
by several notebooks carries the same meaning text and unit in each (whitespace and a final
full stop aside). Usage::

    python tools/notation.py notebooks/[0-9]*.ipynb           # the course-wide table (Markdown)
    python tools/notation.py --check notebooks/[0-9]*.ipynb   # exit 1 on a conflict

Symbols are compared as a reader tells them apart (``letter_key``): bold and upright styles
and the variant Greek forms (``\varphi``/``\phi``, ``\varepsilon``/``\epsilon``,
``\vartheta``/``\theta``) do not make a new symbol, so ``F_0`` and ``\mathbf F_0`` must mean
one thing. The exceptions are the vector-and-scalar twins of ``TWINS``, each with its reason.
Two more rules hold course-wide: one meaning is not written with two symbols (the same
meaning text in rows with different symbols), and a dimensionless unit is written ``1``.

``tests/test_notation.py`` runs the check on every notebook; the course-wide table, one row
per symbol with the notebooks that use it, is what the site shows.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HEADING = "## Notation"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(".").strip()


_TOKEN = r"(\\[A-Za-z]+|[A-Za-z0-9])"


def symbol_key(tex: str) -> str:
    r"""Return the symbol a reader sees, for comparisons.

    ``\mathbf{F}_{i}``, ``\mathbf F_i`` and ``\mathbf{F}_i`` are one symbol: spaces go, and
    braces around a single letter, digit or command after a command or a sub/superscript sign.
    """
    key = re.sub(r"(\\[A-Za-z]+|[_^])\s*\{" + _TOKEN + r"\}", r"\1{\2}", tex.strip())
    key = re.sub(r"(\\[A-Za-z]+|[_^])\{" + _TOKEN + r"\}", r"\1 \2", key)
    return re.sub(r"\s+", "", key)


_STYLE = re.compile(r"\\(mathbf|boldsymbol|bm|mathrm|mathit|mathsf)(?![A-Za-z])\s*")
_VARIANT = {"varphi": "phi", "varepsilon": "epsilon", "vartheta": "theta", "varrho": "rho",
            "varsigma": "sigma", "varpi": "pi"}

# A bold symbol and its plain twin that the course uses side by side on purpose: the
# vector and the scalar of one quantity (letter key: (plain symbol, bold symbol, reason)).
TWINS = {
    "g": ("g", r"\mathbf g", "gravity: its magnitude and its vector (0, -g)"),
    "I_i": ("I_i", r"\mathbf{I}_i", "the planar moment of inertia and the 3-D inertia tensor"),
    r"\tau_i": (r"\tau_i", r"\boldsymbol\tau_i",
                 "the planar joint moment and the 3-D moment vector of the same joint"),
}


def letter_key(tex: str) -> str:
    r"""Return the symbol as a reader tells it apart from others, for the course-wide rules.

    Styles (``\mathbf``, ``\boldsymbol``, ``\mathrm`` ...) and braces go, and a variant
    Greek letter is its plain form: ``\mathbf F_\mathrm{GRF}`` and ``F_{GRF}`` are one symbol,
    ``\varphi_i`` and ``\phi_i`` are one symbol; decorations (``\hat``, ``\dot``) stay. A
    symbol given with its components (``\mathbf R = (R_x, R_y)``) is the part before ``=``.
    """
    key = _STYLE.sub("", tex.split("=")[0].strip())  # "\mathbf R = (R_x, R_y)" is R
    key = re.sub(r"\\(" + "|".join(_VARIANT) + r")(?![A-Za-z])",
                 lambda m: "\\" + _VARIANT[m.group(1)], key)
    return re.sub(r"[{}\s]", "", symbol_key(key))


def _twins(a: str, b: str) -> bool:
    """Whether two symbols of one letter key are a declared vector-and-scalar pair."""
    twin = TWINS.get(letter_key(a))
    return twin is not None and {symbol_key(a), symbol_key(b)} == {symbol_key(twin[0]),
                                                                     symbol_key(twin[1])}


def _unit(text: str) -> str:
    """Return a unit as read: ``kg m$^2$`` and ``kg m²`` are one unit."""
    text = re.sub(r"\$\^\{?2\}?\$", "²", text)
    text = re.sub(r"\$\^\{?3\}?\$", "³", text)
    return _normal(text)


def notation(nb) -> list[tuple[str, str, str]]:
    """Read the rows of a notebook's Notation table: (symbol, meaning, unit), one per symbol.

    Parameters
    ----------
    nb : nbformat.NotebookNode or dict
        The notebook.

    Raises
    ------
    ValueError
        If the notebook has no Notation cell, or it holds no table in the course's format.
    """
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    cells = [s for s in sources if s.lstrip().startswith(HEADING)]
    if len(cells) != 1:
        raise ValueError(f"needs exactly one '{HEADING}' cell; has {len(cells)}")
    lines = [line.strip() for line in cells[0].splitlines() if line.strip().startswith("|")]
    if len(lines) < 3 or [_normal(c).lower() for c in lines[0].strip("|").split("|")] != [
            "symbol", "meaning", "unit"]:
        raise ValueError(f"the '{HEADING}' cell needs a table | symbol | meaning | unit |")
    rows = []
    for line in lines[2:]:
        # split on the column bars, not on bars inside $...$ (|x| in TeX)
        parts = re.split(r"\|(?=(?:[^$]*\$[^$]*\$)*[^$]*$)", line.strip().strip("|"))
        if len(parts) != 3:
            raise ValueError(f"a Notation row needs three columns (symbol, meaning, unit): "
                             f"{line}")
        # "$K_P, K_D, K_I$" names three symbols; "$\mathbf R = (R_x, R_y)$" one
        symbols = [part for tex in re.findall(r"\$([^$]+)\$", parts[0])
                   for part in re.split(r",(?![^({]*[)}])", tex) if part.strip()]
        if not symbols:
            raise ValueError(f"a Notation row names no $symbol$: {line}")
        rows += [(s.strip(), _normal(parts[1]), _unit(parts[2])) for s in symbols]
    return rows


def _conflict(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """Whether two rows of one letter key disagree (a declared twin pair never does)."""
    if symbol_key(a[0]) != symbol_key(b[0]) and _twins(a[0], b[0]):
        return False
    return a[1:] != b[1:]


def conflicts_within(rows: list[tuple[str, str, str]]) -> list[str]:
    """Symbols that one table lists with two meanings or units, or a unit written ``-``."""
    seen: dict[str, tuple[str, str, str]] = {}
    found = []
    for row in rows:
        symbol, meaning, unit = row
        if unit in ("-", "–", "—"):
            found.append(f"${symbol}$: a dimensionless unit is written 1, not '{unit}'")
        key = letter_key(symbol)
        if key in seen and _conflict(seen[key], row):
            first = seen[key]
            found.append(f"${first[0]}$ '{first[1]}' [{first[2]}] and ${symbol}$ "
                         f"'{meaning}' [{unit}]: one letter, two meanings")
        seen.setdefault(key, row)
    return found


def conflicts_across(tables: dict[str, list[tuple[str, str, str]]]) -> list[str]:
    """Symbols two notebooks give different meanings or units; meanings written two ways."""
    first: dict[str, tuple[str, tuple[str, str, str]]] = {}
    by_meaning: dict[str, tuple[str, frozenset[str]]] = {}
    found = []
    for name, rows in tables.items():
        groups: dict[str, set[str]] = {}
        for row in rows:
            symbol, meaning, unit = row
            key = letter_key(symbol)
            # theta_1, theta_2 in a row meaning "angle of segment $i$" are the family theta_i
            groups.setdefault(meaning, set()).add(re.sub(r"_\d+$", "_i", key))
            if key not in first:
                first[key] = (name, row)
            elif _conflict(first[key][1], row):
                other, (s0, m0, u0) = first[key]
                found.append(f"${symbol}$: {other} says ${s0}$ '{m0}' [{u0}], {name} says "
                             f"'{meaning}' [{unit}]")
        for meaning, keys in groups.items():
            if meaning not in by_meaning:
                by_meaning[meaning] = (name, frozenset(keys))
            elif by_meaning[meaning][1] != keys:
                other, keys0 = by_meaning[meaning]
                found.append(f"'{meaning}': {other} writes {', '.join(sorted(keys0))}, "
                             f"{name} writes {', '.join(sorted(keys))}: one meaning, two "
                             f"symbols")
    return found


def course_table(tables: dict[str, list[tuple[str, str, str]]]) -> str:
    """Write the course-wide table in Markdown: each symbol once, with its notebooks."""
    rows: dict[str, tuple[str, str, str, list[str]]] = {}
    for name, table in tables.items():
        for symbol, meaning, unit in table:
            rows.setdefault(symbol_key(symbol), (symbol, meaning, unit, []))[3].append(name)
    lines = ["| symbol | meaning | unit | notebooks |", "|---|---|---|---|"]
    lines += [f"| ${s}$ | {m} | {u} | {', '.join(n)} |" for s, m, u, n in rows.values()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Check the notebooks' Notation tables or print the course-wide table."""
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report conflicts, exit 1 on any")
    args = parser.parse_args(argv)
    tables, found = {}, []
    for path in args.notebooks:
        try:
            tables[path.stem] = notation(json.loads(path.read_text(encoding="utf-8")))
        except ValueError as err:
            found.append(f"{path.name}: {err}")
            continue
        found += [f"{path.name}: {c}" for c in conflicts_within(tables[path.stem])]
    found += conflicts_across(tables)
    if args.check:
        print("\n".join(found) or "notation: one meaning per symbol, course-wide")
        return 1 if found else 0
    print(course_table(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
