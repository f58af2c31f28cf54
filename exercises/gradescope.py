"""Grading on Gradescope (or with ``otter run``): the same judge as ``grade.py``, outside
the student's kernel, with the student from the LMS.

otter-grader runs a submission and its tests in one Jupyter kernel, so the student's code
could import the grader-side answers, or replace the checks that score it. This otter
plugin, shipped in every ``NN_topic-autograder.zip`` (``exercises/build.py``), makes that
path grade like ``exercises/grade.py``:

1. **Identity from the LMS** (``before_grading``): the student is the first user of
   Gradescope's ``submission_metadata.json`` (its ``sid``, else ``email``, else ``id``;
   ``id_field`` in the plugin's configuration chooses), or the submission file's name when
   there is no metadata (``otter run``). Never the notebook's ``STUDENT_ID``: that one is
   only compared with it, and a difference is reported to the instructor.
2. **The answers are not importable** (``before_grading``): the grader-side
   ``bmc_answers``, shipped at the top of the zip (not in ``files/``, which otter copies next
   to the notebook), is imported into this process and deleted from disk before the
   student's kernel starts, so no code of the submission can import it.
3. **The kernel only produces answers** (``before_execution``): a first cell gives the
   kernel the student's data (``BMC_STUDENT``), a last cell writes the answers as plain data
   (``_runner.encode``; a function is called on the grader's inputs), as in the sandbox of
   ``grade.py``.
4. **Judged outside** (``after_grading``): this process runs the hidden tests on those
   answers with ``grade.py``'s own judge and replaces otter's in-kernel results, so the
   scores and messages are the ones ``grade.py`` gives the same notebook.

The report (``generate_report``, in the autograder's output that only instructors see)
names the student, and flags a notebook whose ``STUDENT_ID`` is another student's.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import _runner  # noqa: E402  (the plain-data codec, as in the sandbox)
from gradebook import identity_flag, typed_id  # noqa: E402

try:  # otter is there when this runs as a plugin; the helpers below do not need it
    from otter.plugins import AbstractOtterPlugin
except ImportError:  # pragma: no cover
    AbstractOtterPlugin = object  # type: ignore[assignment,misc]

__all__ = ["BmcGrading", "cell_errors", "dump", "student_from_metadata"]

#: Where the zip holds the grader-side package (never under files/).
SECRET = "bmc_answers"
#: Modules the judge needs (``bmc_answers`` imports most of them lazily).
_JUDGE_MODULES = ("bmc.checks", "bmc.checks._cells", "bmc.chain", "bmc.kinematics",
                  "bmc.tree", "bmc.signals", "bmc.rotations", "bmc.newton_euler",
                  "bmc.least_squares", "bmc.datasets", "bmc.models.arm",
                  "bmc.models.human", "bmc.models.double_pendulum", "bmc.models.standing",
                  "otter.test_files.abstract_test", "otter.test_files.exception_test")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_LINE = re.compile(r"Cell In\s*\[(\d*)\],\s*line (\d+)")


def student_from_metadata(metadata: Any, submission: str | Path,
                          field: str | None = None) -> tuple[str, list[str]]:
    """The student id of a submission, from Gradescope's metadata, and any warnings.

    Parameters
    ----------
    metadata : dict
        Contents of ``submission_metadata.json`` (``{}`` under ``otter run``).
    submission : str or Path
        The submitted file (its name is the id when there is no metadata).
    field : str, optional
        Which field of the user to use; default ``sid``, else ``email``, else ``id``.

    Returns
    -------
    (str, list of str)
        The id and what the instructor should know (group submission, fallback used).
    """
    notes = []
    users = metadata.get("users") if isinstance(metadata, dict) else None
    if isinstance(users, list) and users and isinstance(users[0], dict):
        if len(users) > 1:
            notes.append(f"group submission of {len(users)} users: graded with the data "
                         "of the first")
        user = users[0]
        for key in ([field] if field else ["sid", "email", "id"]):
            value = user.get(key)
            if value not in (None, ""):
                return str(value).strip(), notes
        notes.append(f"the metadata's user has no {field or 'sid, email or id'}")
    stem = Path(submission).stem
    notes.append(f"no student in submission_metadata.json: the id is the file name {stem!r}")
    return stem, notes


def dump(namespace: dict[str, Any], spec_path: str) -> None:
    """Write the answers of a kernel's ``namespace`` as plain data (the kernel side).

    ``spec_path`` holds ``{"names": [...], "calls": {name: [encoded args]}, "out": path}``,
    as the sandbox's spec of ``grade.py``. Every failure is recorded, never raised.
    """
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    answers = {}
    for name in spec.get("names", []):
        if name not in namespace:
            answers[name] = {"missing": True}
            continue
        value = namespace[name]
        try:
            entry = {"value": _runner.encode(value)}
            if callable(value) and name in spec.get("calls", {}):
                entry["calls"] = _runner._call_all(value, spec["calls"][name])
        except BaseException as exc:  # noqa: BLE001 (the student's objects may raise)
            entry = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        answers[name] = entry
    with open(spec["out"], "w", encoding="utf-8") as handle:
        json.dump({"answers": answers}, handle)


def cell_errors(notebook: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """Sources of an executed notebook's cells and the errors its outputs show.

    Returns the sources (non-code cells as ``""``) and, for every cell whose outputs hold
    an error, ``{"cell", "type", "message", "line"}``; the line is read from IPython's
    traceback ("Cell In[5], line 3": the deepest frame in that same cell).
    """
    sources, errors = [], []
    for i, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            sources.append("")
            continue
        source = cell.get("source", "")
        sources.append("".join(source) if isinstance(source, list) else str(source))
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            text = _ANSI.sub("", "\n".join(output.get("traceback", [])))
            found = _CELL_LINE.findall(text)
            line = None
            if found:
                first = found[0][0]
                line = int([ln for n, ln in found if n == first][-1])
            errors.append({"cell": i, "type": str(output.get("ename", "Error")),
                           "message": str(output.get("evalue", ""))[:300], "line": line})
            break
    return sources, errors


class BmcGrading(AbstractOtterPlugin):
    """otter plugin: identity from the LMS, answers out of reach, judged outside the kernel.

    Configure it in ``otter_config.json`` (``exercises/build.py`` does)::

        "plugins": [{"gradescope.BmcGrading": {"id_field": "sid"}}]
    """

    def __init__(self, submission_path: str, submission_metadata: dict,
                 plugin_config: dict) -> None:
        super().__init__(submission_path, submission_metadata, plugin_config)
        config = plugin_config if isinstance(plugin_config, dict) else {}
        self.student, self.notes = student_from_metadata(submission_metadata,
                                                         submission_path,
                                                         config.get("id_field"))
        self.autograder = None
        self.typed = None
        self.flags: list[str] = []
        self.work = Path(tempfile.mkdtemp(prefix="bmc-otter-"))

    # ------------------------------------------------------------------ before the kernel
    def before_grading(self, config: Any) -> None:
        """Load the hidden tests and ``bmc_answers`` into this process; delete them from disk."""
        import grade

        source = Path(getattr(config, "autograder_dir", "..")) / "source"
        secret = source / SECRET
        if not secret.is_dir():
            raise RuntimeError(f"{secret} is missing: rebuild the autograder zip with "
                               "exercises/build.py")
        sys.path.insert(0, str(source))
        try:
            import bmc_answers  # noqa: F401  (kept in sys.modules for the hidden tests)
        finally:
            sys.path.remove(str(source))
        shutil.rmtree(secret)
        # what the judge imports later, imported now: before the student's code runs in
        # this container (as the same user), not after
        import importlib

        for module in _JUDGE_MODULES:
            importlib.import_module(module)
        bundle = self.work / "autograder.zip"
        with zipfile.ZipFile(bundle, "w") as zf:
            zf.write(source / "otter_config.json", "otter_config.json")
            for test in sorted((source / "tests").glob("*.py")):
                zf.write(test, f"tests/{test.name}")
        self.autograder = grade.Autograder.load(bundle)

    def before_execution(self, submission: Any) -> Any:
        """Give the kernel the student's data first; write its answers last."""
        import nbformat

        if not hasattr(submission, "cells"):  # a script, not a notebook: nothing to grade
            return submission

        self.typed = typed_id(submission)
        calls = grade_calls()
        names = self.autograder.names()
        spec = {"names": names, "out": str(self.work / "answers.json"),
                "calls": {n: [_runner.encode(list(a)) for a in calls[n]]
                          for n in names if n in calls}}
        (self.work / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        first = nbformat.v4.new_code_cell(
            f"import os\nos.environ[{'BMC_STUDENT'!r}] = {self.student!r}\ndel os")
        last = nbformat.v4.new_code_cell(
            f"import sys\nsys.path.insert(0, {str(HERE)!r})\nimport gradescope\n"
            f"gradescope.dump(globals(), {str(self.work / 'spec.json')!r})")
        submission.cells = [first, *submission.cells, last]
        return submission

    # ------------------------------------------------------------------ after it
    def after_grading(self, results: Any) -> None:
        """Judge the answers outside the kernel; replace otter's in-kernel results."""
        import grade
        from otter.test_files.abstract_test import TestCase, TestCaseResult
        from otter.test_files.exception_test import ExceptionTestFile

        from bmc.checks._cells import CellLog

        out = self.work / "answers.json"
        judged = None
        try:
            raw = json.loads(out.read_text(encoding="utf-8"))
            values = grade._answers(raw, self.autograder)
        except (OSError, ValueError, TypeError, KeyError, RecursionError) as exc:
            self.flags.append(f"the notebook's answers could not be read ({exc}): 0 points")
        else:
            notebook = getattr(results, "notebook", None) or {}
            log = CellLog.from_cells(*cell_errors(notebook))
            judged = grade._judge(values, self.autograder, self.student, log=log)
        files = []
        for name, question in self.autograder.questions.items():
            verdict = (judged or {}).get(name, {"score": 0.0, "messages": ["not graded"]})
            case = TestCase(name=f"{name} (graded)", body=None, hidden=True,
                            points=question.points, success_message=None,
                            failure_message=None)
            test_file = ExceptionTestFile(name, f"tests/{name}.py", [case],
                                          all_or_nothing=False)
            passed = verdict["score"] >= question.points
            test_file.test_case_results = [TestCaseResult(
                test_case=case, message="\n".join(verdict["messages"]), passed=passed)]
            test_file.update_score(verdict["score"])
            files.append(test_file)
        results.results = {f.name: f for f in files}
        flag = identity_flag(self.typed, self.student)
        if flag:
            self.flags.append(flag)
        results.set_plugin_data("gradescope.BmcGrading", {
            "student": self.student, "typed_id": self.typed, "flags": self.flags,
            "notes": self.notes})
        shutil.rmtree(self.work, ignore_errors=True)

    def generate_report(self) -> str:
        """Instructor-only report: the student, and what to look at."""
        source = ("the file name: no student in submission_metadata.json"
                  if any("no student in" in n for n in self.notes)
                  else "the LMS: Gradescope's submission_metadata.json")
        lines = [f"student: {self.student} (from {source})",
                 f"STUDENT_ID typed in the notebook: {self.typed!r}"]
        lines += [f"FLAG: {flag}" for flag in self.flags]
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def grade_calls() -> dict[str, list]:
    """The grader's inputs for the function answers (from the in-memory ``bmc_answers``)."""
    import bmc_answers

    return bmc_answers.CALLS
