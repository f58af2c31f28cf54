"""Which notebook cell raised what: a check reports a student's error as an error.

When the cell that computes an answer raises, the answer is missing or stale, and saying
"no answer yet" would hide the real problem. :class:`CellLog` keeps, for every cell run,
the names it assigns and uses and the error it raised (type, message, line in the cell);
:meth:`CellLog.explain` turns that into one message for an answer: the error itself for
the cell that raised it, and a pointer to it for a later answer that could not be computed
because of it. In a notebook, :func:`install` (called by :func:`bmc.checks.problem`) fills
the log from IPython's ``post_run_cell`` event; the grader fills one from the cells its
sandbox ran (:meth:`CellLog.from_cells`).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["CellLog", "CellRun", "install", "kernel_log", "line_in_cell"]

_UNDEFINED = re.compile(r"name '(\w+)' is not defined")


@dataclass(frozen=True)
class CellRun:
    """One run of one cell: what it assigns and uses, and the error it raised, if any."""

    source: str
    assigns: frozenset[str]
    uses: frozenset[str]
    error: str | None = None  # exception type name
    message: str = ""
    line: int | None = None  # 1-based, in the cell

    @property
    def line_text(self) -> str:
        """The source line that raised (empty if unknown)."""
        lines = self.source.splitlines()
        if self.line is None or not 1 <= self.line <= len(lines):
            return ""
        return lines[self.line - 1].strip()


def _names(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """Names a cell assigns at its top level (incl. functions, imports) and names it reads."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        assigned = set(re.findall(r"^(?:def\s+)?([A-Za-z_]\w*)\s*(?:=[^=]|\()", source, re.M))
        return frozenset(assigned), frozenset()
    assigned: set[str] = set()
    uses: set[str] = set()

    def targets(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                assigned.add(sub.id)

    def visit(statements: Iterable[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                assigned.add(node.name)
                continue
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    targets(target)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets(node.target)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                assigned.update((a.asname or a.name).split(".")[0] for a in node.names)
            for field in ("body", "orelse", "finalbody"):
                visit(getattr(node, field, []) or [])
            for handler in getattr(node, "handlers", []) or []:
                visit(handler.body)

    visit(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uses.add(node.id)
    return frozenset(assigned), frozenset(uses - assigned)


def line_in_cell(exc: BaseException) -> int | None:
    """Line (1-based) of the cell where ``exc`` was raised, from its traceback.

    The cell's code is the first module-level frame of the traceback; the deepest frame
    in the same file is the line that raised (inside a function the cell defines, too).
    """
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        return int(exc.lineno)
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_frame.f_code.co_name,
                       tb.tb_lineno))
        tb = tb.tb_next
    cell = next((f for f, name, _ in frames if name == "<module>"), None)
    lines = [line for f, _, line in frames if f == cell]
    return lines[-1] if cell is not None and lines else None


class CellLog:
    """The cells run so far, newest last, with the errors they raised."""

    def __init__(self) -> None:
        self.runs: list[CellRun] = []

    def add(self, source: str, error: str | None = None, message: str = "",
            line: int | None = None) -> CellRun:
        """Record one run of a cell; return the record."""
        assigns, uses = _names(source)
        run = CellRun(source, assigns, uses, error, str(message)[:300], line)
        self.runs.append(run)
        return run

    @classmethod
    def from_cells(cls, sources: list[str], errors: Iterable[dict[str, Any]]) -> CellLog:
        """Build the log of a notebook run top to bottom.

        ``errors`` hold ``cell`` (index into ``sources``), ``type``, ``message`` and
        ``line`` of every cell that raised.
        """
        log = cls()
        by_cell = {}
        for err in errors:
            if isinstance(err, dict) and isinstance(err.get("cell"), int):
                by_cell[err["cell"]] = err
        for i, source in enumerate(sources):
            err = by_cell.get(i, {})
            line = err.get("line")
            log.add(source, str(err["type"])[:80] if err.get("type") else None,
                    str(err.get("message", "")), line if isinstance(line, int) else None)
        return log

    def last(self, name: str) -> CellRun | None:
        """Return the latest run of a cell that assigns ``name``."""
        return next((run for run in reversed(self.runs) if name in run.assigns), None)

    def explain(self, name: str) -> str | None:
        """Say why ``name`` is missing or stale, if its cell raised; ``None`` otherwise."""
        run = self.last(name)
        if run is None or run.error is None:
            return None
        undefined = _UNDEFINED.search(run.message) if run.error == "NameError" else None
        other = undefined.group(1) if undefined else None
        if other and other != name:
            source = self.last(other)
            if source is not None and source.error is not None:
                where = f" at line {source.line}" if source.line else ""
                text = f" (`{source.line_text}`)" if source.line_text else ""
                return (f"{name} was not computed: its cell uses {other}, which is not "
                        f"defined because the cell of {other} raised {source.error}{where}"
                        f"{text}: fix that one first")
        where = f" at line {run.line}" if run.line else ""
        text = f" (`{run.line_text}`)" if run.line_text else ""
        index = max(i for i, r in enumerate(self.runs) if r is run)
        same = [r for r in self.runs[:index] if r.error == run.error
                and r.message == run.message and r.assigns and r.assigns != run.assigns]
        first = next((r for r in same if r.assigns & run.uses), same[0] if same else None)
        if first is not None:
            other = sorted(first.assigns & run.uses or first.assigns)[0]
            return (f"the cell of {name} raised {run.error}{where}{text}, the same error as "
                    f"the cell of {other}, which it uses: fix that one first (its own "
                    "message shows the error)")
        why = (" (a function that ends without `return` gives None)"
               if "NoneType" in run.message else "")
        return (f"the cell of {name} raised {run.error}: {run.message}{where}{text}{why}. "
                "Fix it and run the cell again")


_KERNEL = CellLog()
_INSTALLED: set[int] = set()


def kernel_log() -> CellLog:
    """Return the log of this notebook's kernel (empty outside IPython)."""
    return _KERNEL


def _record(result: Any) -> None:
    """IPython ``post_run_cell`` callback: log the cell and its error."""
    info = getattr(result, "info", None)
    source = getattr(info, "raw_cell", None)
    if not isinstance(source, str):
        return
    exc = getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec",
                                                             None)
    if exc is None:
        _KERNEL.add(source)
    else:
        _KERNEL.add(source, type(exc).__name__, str(exc), line_in_cell(exc))


def install() -> None:
    """Start logging the cells of the running IPython kernel (once; nothing outside it)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or id(shell) in _INSTALLED:
        return
    shell.events.register("post_run_cell", _record)
    _INSTALLED.add(id(shell))
