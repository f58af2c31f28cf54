"""Show the result of ``grader.check`` with a headline that says what was judged.

otter-grader heads a result "All test cases passed!" whenever no test case raised, and a
failed one with "Test case failed" and the test's own source line: neither says whether
the *value* was judged. The exercise notebooks wrap each check in :func:`report`, which
reads otter's result and heads it with one of

- "right on the practice data" (the public check judged the value there),
- "right as far as a check may judge it; the rest is judged when your notebook is graded"
  (the check ended with :class:`~bmc.checks.JudgedAtGrading`: a prediction it would give
  away),
- "not right yet" (with the check's message: how far off, which way, the likely mistake),
- "the check stopped at an error" (anything else that went wrong),

in words, not by colour alone.
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["report"]

_RAISED = re.compile(r"^(\w+): (.*)", re.S)


def _exception(message: str) -> tuple[str, str]:
    """(exception name, message) from otter's text for a failed test case."""
    lines = (message or "").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Error at line"):
            rest = "\n".join(lines[i + 2:]) if len(lines) > i + 2 else ""
            found = _RAISED.match(rest)
            if found:
                return found.group(1), found.group(2).strip()
    return "", (message or "").strip()


def _verdict(test_file: Any) -> tuple[str, str, list[str]]:
    """(status, headline, messages) of one otter test file's results."""
    name = getattr(test_file, "name", "?")
    results = getattr(test_file, "test_case_results", None)
    if results is None or isinstance(results, (str, bytes)) or not all(
            hasattr(r, "passed") and hasattr(r, "message") for r in results):
        raise TypeError("result must be what otter's grader.check or grader.check_all "
                        "returned (a TestFile with test_case_results, or GradingResults), or "
                        f"None; got {type(test_file).__name__} {str(test_file)[:80]!r}")
    results = list(results)
    if results and all(r.passed for r in results):
        notes = [r.test_case.success_message for r in results
                 if getattr(r.test_case, "success_message", None)]
        return "right", f"{name}: right on the practice data", notes
    failed = [_exception(r.message) for r in results if not r.passed]
    if failed and all(kind == "JudgedAtGrading" for kind, _ in failed):
        return ("form", f"{name}: right as far as a check may judge it; the rest is judged "
                "when your notebook is graded", [text for _, text in failed])
    wrong = [(kind, text) for kind, text in failed if kind != "JudgedAtGrading"]
    if wrong and all(kind == "IncorrectAnswer" for kind, _ in wrong):
        return "wrong", f"{name}: not right yet", [text for _, text in wrong]
    return ("error", f"{name}: the check stopped at an error",
            [f"{kind}: {text}" if kind else text for kind, text in wrong])


_MARK = {"right": "\u2705", "form": "\u270d\ufe0f", "wrong": "\u274c", "error": "\u26a0\ufe0f"}


class Report:
    """The verdicts of one or several questions, shown as text or HTML."""

    def __init__(self, verdicts: list[tuple[str, str, list[str]]]) -> None:
        self.verdicts = verdicts

    @property
    def statuses(self) -> list[str]:
        """``right``, ``form``, ``wrong`` or ``error`` per question."""
        return [status for status, _, _ in self.verdicts]

    def __repr__(self) -> str:
        out = []
        for status, headline, messages in self.verdicts:
            out.append(f"{_MARK[status]} {headline}")
            out.extend(f"    {m}" for m in messages)
        return "\n".join(out) if out else "(nothing was checked: run the cells above first)"

    def _repr_html_(self) -> str:
        parts = []
        for status, headline, messages in self.verdicts:
            parts.append(f"<p><strong>{_MARK[status]} {html.escape(headline)}</strong></p>")
            parts.extend(f"<p style='margin-left: 2em'>{html.escape(m)}</p>" for m in messages)
        return "".join(parts) or f"<p>{html.escape(repr(self))}</p>"


def report(result: Any) -> Report:
    """Head the result of ``grader.check`` or ``grader.check_all`` with what was judged.

    Parameters
    ----------
    result : otter TestFile, GradingResults or None
        What ``grader.check("q1")`` or ``grader.check_all()`` returned (``None`` where
        no otter runs the checks, as in the grader's sandbox).

    Returns
    -------
    Report
        Displayed by Jupyter: one headline per question, then the check's messages.
    """
    if result is None:
        return Report([])
    files = getattr(result, "results", None)
    if isinstance(files, dict):
        return Report([_verdict(f) for f in files.values()])
    return Report([_verdict(result)])
