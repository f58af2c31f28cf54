"""Grade a folder of exercise submissions safely: sandboxed, judged outside, one row each.

Usage (from the repository root, after ``python exercises/build.py``)::

    python exercises/grade.py submissions/ --out grades.csv --feedback feedback/ --jobs 2
    python exercises/grade.py alice.ipynb --autograder exercises/dist/01_one_link/01_one_link-autograder.zip

How a batch is graded
---------------------
1. **Plan.** Every ``.ipynb`` and ``.zip`` of the folders given (and of their subfolders
   named after an exercise set, e.g. ``submissions/01_one_link/``) is a submission. Its
   student id is its file name without the extension, or the id ``--ids roster.csv`` gives
   it (then a file the roster does not list is refused, and a listed student with no file
   gets a ``no-submission`` row). Its set is the one it was *filed* under (``--autograder``,
   or the folder named after a set); a notebook that says it belongs to another set is not
   graded (``wrong-set``). Several files for one id and set are all graded, and their row
   is flagged ``duplicate`` with each file's score: none overwrites another.
2. **Extract, in a sandbox.** The notebook's code cells run top to bottom in a bubblewrap
   sandbox (``exercises/sandbox.py``: no network, no home directory, the course
   environment read-only, writable space only in a memory cgroup, a seccomp filter, a
   fresh session keyring, limits on time, CPU, memory, processes and output) with the data
   of its student (``BMC_STUDENT``). Only the answers come out, as plain data (numbers,
   arrays, strings, sets) through a pipe; a function the student wrote is called *inside*
   the sandbox on inputs the grader chose, and only its return values come out.
3. **Judge, outside.** This process, which the student's code never touched, loads the
   autograder's tests (``tests/qN.py`` of the ``*-autograder.zip``; the hidden tests with
   the exact values, which students never had) and runs them on those answers. What the
   notebook printed or wrote is data: a malformed or forged answers file is an error row,
   never a verdict.
4. **Write a row at once.** One CSV row per student id (per set), appended and flushed as
   soon as its files are graded; rerunning the same command skips the ids already in the
   CSV, so a killed run resumes where it stopped. Whatever a file holds, it costs only its
   own row: every file is read, unpacked and graded inside its own error boundary, with
   caps on size, entries, nesting and JSON values, and the batch always ends with its CSV
   and ``--json``. Text from submissions (file names, metadata, messages) is written with
   control characters escaped, and a CSV cell starting with ``= + - @``, tab or carriage
   return is prefixed with ``'`` (OWASP's CSV-injection rule). With ``--feedback DIR``
   each student gets ``DIR/<set>/<student id>.txt``, named so that no two ids can share a
   file.

Without bubblewrap, the seccomp filter or a memory cgroup the grader refuses to run student
code, unless told otherwise (``--unsafe-no-sandbox``, ``--unsafe-no-seccomp``,
``--unsafe-no-cgroup``).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import inspect
import io
import json
import os
import queue
import re
import signal
import stat
import sys
import tempfile
import time
import unicodedata
import zipfile
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from threading import Lock
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import _runner  # noqa: E402  (the plain-data codec, shared with the sandbox side)
import sandbox  # noqa: E402

__all__ = ["Autograder", "SubmissionError", "assignment_name", "autograders", "clean",
           "csv_cell", "feedback_name", "grade_file", "load_submission", "main",
           "read_capped", "submissions", "write_feedback"]

_FIXED = ["student_id", "file", "assignment", "total", "possible", "status", "error"]
_FLAGS = "flags"  # after the question columns: ";"-separated (duplicate-id, wrong-set ...)
_UID_BASE = 61000  # unprivileged uids the sandboxed code runs as (when graded as root)

MAX_FILE = 20 * 2**20  # bytes of a submitted file, and of the notebook inside a zip
MAX_JSON_VALUES = 1_000_000  # JSON arrays, objects and items of a notebook
MAX_ANSWER_VALUES = 2_000_000  # the same, of an answers file
MAX_ZIP_ENTRIES = 1_000
MAX_ZIP_NESTING = 2  # a zip inside the submitted zip is opened; one inside that is not
MAX_MESSAGE = 400  # characters of one feedback message (a quoted answer stays short)
MAX_ERROR = 300  # characters of the error column


class SubmissionError(ValueError):
    """This file cannot be graded; the reason becomes its row's error."""


# ----------------------------------------------------------------------------- safe text
def clean(text: Any, *, newlines: bool = False, limit: int | None = None) -> str:
    r"""Return ``text`` with every control or invisible format character escaped.

    Escape sequences (``\x1b[2J``), carriage returns, bidirectional overrides and the
    undecodable bytes of a file name (surrogates) become visible ``\xNN`` / ``\uNNNN``
    text, so nothing a student named or printed can drive the instructor's terminal or
    hide in a grade book.

    Parameters
    ----------
    text : object
        Converted with ``str``.
    newlines : bool, optional
        Keep line feeds (feedback files); otherwise they are escaped too.
    limit : int, optional
        Keep at most this many characters, saying how many were cut.

    Returns
    -------
    str
    """
    text = text if isinstance(text, str) else str(text)
    cut = 0
    if limit is not None and len(text) > limit:
        cut, text = len(text) - limit, text[:limit]
    lines = text.split("\n") if newlines else [text]
    if not all(line.isprintable() for line in lines):
        out = []
        for ch in text:
            if (newlines and ch == "\n") or ch == " ":
                out.append(ch)
                continue
            if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
                code = ord(ch)
                out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
                           if code < 0x10000 else f"\\U{code:08x}")
            else:
                out.append(ch)
        text = "".join(out)
    return text + (f" [... {cut} characters cut]" if cut else "")


_FORMULA = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(value: Any) -> str:
    """A grade-book cell: control characters escaped, a formula start neutralised (OWASP).

    A cell whose text starts (or, after blanks, continues) with ``= + - @``, a tab or a
    carriage return is prefixed with ``'``, so that a spreadsheet shows it as text
    instead of running it.
    """
    text = clean(value, limit=4 * MAX_ERROR)
    if text[:1] in _FORMULA or text.lstrip(" ")[:1] in _FORMULA:
        return "'" + text
    return text


_SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


def feedback_name(text: str) -> str:
    """A file name for a student id (or set) that no other id can get.

    Lower-case letters, digits, ``-`` and ``_`` are kept as they are; any other id becomes
    a readable part plus ``~`` and 12 hex digits of its SHA-256. ``~`` never occurs in a
    kept id, so ``dup id``, ``dup_id``, ``Alice`` and ``alice`` get four different files,
    also on a case-insensitive file system.
    """
    if _SAFE_NAME.fullmatch(text) and text not in _RESERVED:
        return text
    base = re.sub(r"[^a-z0-9_-]+", "_", text.lower()).strip("_")[:40] or "id"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{base}~{digest}"


# ----------------------------------------------------------------------------- inputs
def read_capped(path: Path, cap: int) -> bytes:
    """Read a regular file, without following a symbolic link, blocking, or past ``cap``.

    Raises
    ------
    SubmissionError
        For a symbolic link, a FIFO, a device or another special file, or a file larger
        than ``cap`` bytes.
    """
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if Path(path).is_symlink():
            raise SubmissionError("it is a symbolic link, not a file (links are not "
                                  "followed)") from exc
        raise SubmissionError(f"cannot open it ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SubmissionError("it is not a regular file (a folder, FIFO, device or "
                                  "socket)")
        if info.st_size > cap:
            raise SubmissionError(f"it is larger than {cap // 2**20} MB")
        chunks, total = [], 0
        while total <= cap:
            try:
                chunk = os.read(fd, min(1 << 20, cap + 1 - total))
            except BlockingIOError as exc:
                raise SubmissionError("reading it would block (a special file)") from exc
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:
            raise SubmissionError(f"it is larger than {cap // 2**20} MB")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _inflate(data: bytes, depth: int = 1) -> bytes:
    """The one notebook of an otter submission zip (or of one zip inside it)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
        raise SubmissionError(f"not a valid zip file ({exc})") from exc
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ZIP_ENTRIES:
            raise SubmissionError(f"the zip has {len(infos)} entries (at most "
                                  f"{MAX_ZIP_ENTRIES})")

        def wanted(info: zipfile.ZipInfo, suffix: str) -> bool:
            name = info.filename
            return (name.lower().endswith(suffix) and not info.is_dir()
                    and "__MACOSX" not in name and not Path(name).name.startswith("."))

        notebooks = [i for i in infos if wanted(i, ".ipynb")]
        inner = [i for i in infos if wanted(i, ".zip")]
        if not notebooks and len(inner) == 1 and depth < MAX_ZIP_NESTING:
            return _inflate(_member(zf, inner[0]), depth + 1)
        if len(notebooks) != 1:
            nested = " (zips nested deeper are not opened)" if inner else ""
            raise SubmissionError(f"the zip holds {len(notebooks)} notebooks, expected "
                                  f"1{nested}")
        return _member(zf, notebooks[0])


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.flag_bits & 0x1:
        raise SubmissionError(f"{clean(info.filename)} in the zip is encrypted")
    if info.file_size > MAX_FILE:
        raise SubmissionError(f"{clean(info.filename)} unpacks to {info.file_size} bytes "
                              f"(at most {MAX_FILE // 2**20} MB)")
    try:
        with zf.open(info) as handle:
            data = handle.read(MAX_FILE + 1)
    except NotImplementedError as exc:
        raise SubmissionError(f"{clean(info.filename)}: unsupported compression "
                              f"({exc})") from exc
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError) as exc:
        raise SubmissionError(f"cannot unpack {clean(info.filename)} ({exc})") from exc
    if len(data) > MAX_FILE:
        raise SubmissionError(f"{clean(info.filename)} unpacks to more than "
                              f"{MAX_FILE // 2**20} MB")
    return data


def loads_capped(data: bytes, what: str, max_values: int) -> Any:
    """Parse JSON bytes whose parsed size is bounded by counting its values first.

    Raises
    ------
    SubmissionError
        Not UTF-8, not JSON, nested too deeply or more than ``max_values`` values.
    """
    values = data.count(b"[") + data.count(b"{") + data.count(b",")
    if values > max_values:
        raise SubmissionError(f"{what} has about {values} JSON values (at most {max_values})")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SubmissionError(f"{what} is not UTF-8 text ({exc.reason} at byte "
                              f"{exc.start})") from exc
    except RecursionError as exc:
        raise SubmissionError(f"{what} is nested too deeply") from exc
    except ValueError as exc:
        raise SubmissionError(f"{what} is not valid JSON ({clean(exc, limit=100)})") from exc


@dataclass
class Notebook:
    """What the grader keeps of a submission: its code cells and the set it names."""

    cells: list[str]
    assignment: str | None


def load_submission(path: Path) -> Notebook:
    """Read a notebook or otter submission zip into its code cells, within every cap.

    Raises
    ------
    SubmissionError
        Saying what is wrong with the file.
    """
    data = read_capped(Path(path), MAX_FILE)
    if Path(path).suffix.lower() == ".zip" or data[:4] == b"PK\x03\x04":
        data = _inflate(data)
    nb = loads_capped(data, "the notebook", MAX_JSON_VALUES)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise SubmissionError("not a notebook (no list of cells)")
    cells = []
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        if isinstance(source, str):
            cells.append(source)
    meta = nb.get("metadata")
    otter = meta.get("otter") if isinstance(meta, dict) else None
    name = otter.get("assignment_name") if isinstance(otter, dict) else None
    return Notebook(cells, name if isinstance(name, str) else None)


def assignment_name(path: Path) -> str | None:
    """Return the otter assignment name stored in a submission, if any (never raises)."""
    try:
        return load_submission(path).assignment
    except Exception:  # noqa: BLE001 (whatever the file holds: no name)
        return None


def submissions(paths: list[Path], sets: dict[str, str] | None = None,
                ) -> list[tuple[Path, str | None]]:
    """Expand folders into their notebooks and zips, with the set each was filed under.

    Files of a folder are listed whatever their type (a link or a FIFO named
    ``x.ipynb`` is refused when it is read, in its own row); subfolders named after a set
    (a key of ``sets``: folder name -> assignment name) are listed too, and their files
    are filed under that set.

    Returns
    -------
    list of (pathlib.Path, str or None)
    """
    found: list[tuple[Path, str | None]] = []
    sets = sets or {}

    def listing(folder: Path, filed: str | None) -> None:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            name = entry.name
            if entry.is_dir(follow_symlinks=False) and name in sets and filed is None:
                listing(Path(entry.path), sets[name])
            elif name.lower().endswith((".ipynb", ".zip")):  # a folder so named: its row
                found.append((Path(entry.path), filed))

    for path in paths:
        if path.is_dir():
            listing(path, sets.get(path.name))
        elif path.exists() or path.is_symlink():
            found.append((path, sets.get(path.parent.name)))
        else:
            raise SystemExit(f"no such file or folder: {clean(path)}")
    return found


# ----------------------------------------------------------------------------- autograder
@dataclass
class _Case:
    name: str
    hidden: bool
    func: Any
    params: list[str]


@dataclass
class _Question:
    name: str
    points: float
    cases: list[_Case] = field(default_factory=list)

    def scored_cases(self) -> list[_Case]:
        """The hidden cases if there are any (exact values), else every case."""
        hidden = [c for c in self.cases if c.hidden]
        return hidden or self.cases


@dataclass
class Autograder:
    """The tests of one exercise set, loaded from its ``*-autograder.zip`` (grader side).

    Attributes
    ----------
    assignment : str
        otter's assignment name.
    questions : dict
        Question name -> points and test cases.
    """

    assignment: str
    path: Path
    questions: dict[str, _Question]

    @property
    def possible(self) -> float:
        """Points of the whole set."""
        return float(sum(q.points for q in self.questions.values()))

    def names(self) -> list[str]:
        """The notebook variables the scored tests read."""
        return sorted({p for q in self.questions.values() for c in q.scored_cases()
                       for p in c.params})

    @classmethod
    def load(cls, path: Path) -> Autograder:
        """Read an autograder zip's config and tests (its test files are instructor code)."""
        from otter.test_files.exception_test import test_case

        questions: dict[str, _Question] = {}
        with zipfile.ZipFile(path) as zf:
            config = json.loads(zf.read("otter_config.json"))
            for name in sorted(zf.namelist()):
                if not (name.startswith("tests/") and name.endswith(".py")):
                    continue
                env: dict[str, Any] = {"__name__": f"_autograder_{Path(name).stem}"}
                exec(compile(zf.read(name).decode(), f"{path.name}:{name}", "exec"), env)
                question = _Question(str(env.get("name", Path(name).stem)),
                                     float(env.get("points") or 0))
                for key, value in env.items():
                    if isinstance(value, test_case):
                        params = list(inspect.signature(value.test_func).parameters)
                        question.cases.append(_Case(key, bool(value.hidden), value.test_func,
                                                    params))
                if not question.cases:
                    raise ValueError(f"{path}: {name} has no test case")
                questions[question.name] = question
        if not questions:
            raise ValueError(f"{path}: no tests/*.py in the autograder zip")
        return cls(config["assignment_name"], Path(path), questions)


def autograders(dist: Path) -> dict[str, Path]:
    """Map assignment names to the autograder zips found under ``dist``."""
    found = {}
    for path in sorted(dist.glob("*/*-autograder.zip")):
        with zipfile.ZipFile(path) as zf:
            config = json.loads(zf.read("otter_config.json"))
        found[config["assignment_name"]] = path
    return found


def _calls() -> dict[str, list]:
    """Grader-chosen inputs of every function answer, by variable name."""
    import bmc_answers

    return bmc_answers.CALLS


# ----------------------------------------------------------------------------- extraction
def _course_paths() -> tuple[list[Path], list[str], str, str]:
    """Read-only folders, site-packages, package parent and interpreter for the sandbox.

    The sandbox runs the base interpreter without its own ``site`` and adds exactly this
    environment's ``site-packages``: the same packages as the grader's virtual
    environment, without needing the environment's ``python`` link to resolve inside.
    """
    import bmc

    package = Path(bmc.__file__).resolve().parent
    site_dirs = [p for p in sys.path if p and ("site-packages" in p or "dist-packages" in p)
                 and Path(p).is_dir()]
    paths = [Path(sys.base_prefix), Path(sys.prefix), package, *map(Path, site_dirs)]
    data = os.environ.get("BMC_DATA_DIR")
    if data and Path(data).is_dir():
        paths.append(Path(data).resolve())
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    python = sys.executable
    for candidate in (Path(sys.base_prefix) / "bin" / f"python{version}",
                      Path(sys.base_prefix) / "bin" / "python3"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            python = str(candidate)
            break
    return paths, site_dirs, str(package.parent), python


@dataclass
class Sandboxing:
    """How submissions are confined: see ``exercises/sandbox.py``.

    Attributes
    ----------
    limits : sandbox.Limits
    unsafe : bool
        No bubblewrap (``--unsafe-no-sandbox``).
    cgroups : sandbox.CgroupPool or None
        Where each submission's memory and pids cgroup is made (``None``: none).
    seccomp : bytes or None
        The BPF filter (``None``: none).
    """

    limits: sandbox.Limits
    unsafe: bool = False
    cgroups: sandbox.CgroupPool | None = None
    seccomp: bytes | None = None


def _extract(notebook: Notebook, autograder: Autograder, student: str, box: Sandboxing,
             *, uid: int, cell_timeout: int) -> tuple[Any, str, str, dict]:
    """Run a notebook in the sandbox; return (raw answers or None, status, message, usage)."""
    calls = _calls()
    names = autograder.names()
    ro, site_dirs, pythonpath, python = _course_paths()
    root = os.getuid() == 0 and not box.unsafe
    spec = {"names": names, "cell_timeout": cell_timeout,
            "uid": uid if root else None, "nproc": None if box.unsafe else
            box.limits.processes, "site": site_dirs, "pythonpath": pythonpath,
            "calls": {n: [_runner.encode(list(args)) for args in calls[n]]
                      for n in names if n in calls}}
    inputs = Path(tempfile.mkdtemp(prefix="bmc-grade-"))  # 0700, the grader's; read-only inside
    group = None
    try:
        minimal = {"cells": [{"cell_type": "code", "source": s} for s in notebook.cells],
                   "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        for name, text in (("submission.ipynb", json.dumps(minimal)),
                           ("spec.json", json.dumps(spec)),
                           ("_runner.py", (HERE / "_runner.py").read_text(encoding="utf-8"))):
            (inputs / name).write_text(text, encoding="utf-8")
        env = {"HOME": "/scratch", "BMC_STUDENT": student,
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": "/scratch/.mpl", "IPYTHONDIR": "/scratch/.ipython",
               "PATH": f"{sys.prefix}/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
        if os.environ.get("BMC_DATA_DIR"):
            env["BMC_DATA_DIR"] = str(Path(os.environ["BMC_DATA_DIR"]).resolve())
        argv = [python, "-I", "-S", "-B", "-u", "/input/_runner.py", "/input/submission.ipynb",
                "/input/spec.json", sandbox.ANSWERS_FD]
        if box.cgroups is not None:
            group = box.cgroups.new(box.limits)
        outcome = sandbox.run(argv, inputs=inputs, ro=ro, env=env, limits=box.limits,
                              sandbox=not box.unsafe, cgroup=group, seccomp=box.seccomp)
    finally:
        if group is not None:
            group.remove()
        sandbox.remove_tree(inputs)
    usage = dict(outcome.resources)
    tail = clean(outcome.output[-300:])
    memory = f"{box.limits.memory / 2**30:g} GiB"
    if outcome.timed_out:
        return None, "timeout", (f"stopped after the {box.limits.wall:g} s time limit "
                                 "(an endless loop or a very slow cell?)"), usage
    if outcome.answers_bytes > box.limits.max_answers:
        return None, "bad-output", (f"the answers are larger than "
                                    f"{box.limits.max_answers // 2**20} MB"), usage
    if not outcome.answers:
        if usage.get("oom_kills"):
            why = (f"the notebook was stopped at its {memory} memory limit (memory of all "
                   "its processes, files it wrote to /tmp or /scratch, shared memory)")
        elif outcome.returncode == 1 and outcome.output.startswith("bwrap:"):
            return None, "grader-error", f"the sandbox did not start: {tail}", usage
        else:
            why = f"the notebook ended the grading process (exit code {outcome.returncode})"
        return None, "crash", f"{why} before its answers were read; last output: {tail!r}", usage
    try:
        raw = loads_capped(outcome.answers, "the answers file", MAX_ANSWER_VALUES)
    except SubmissionError as exc:
        return None, "bad-output", str(exc), usage
    return raw, "ok", "", usage


# ----------------------------------------------------------------------------- judging
class _StudentRaised(Exception):
    """The student's function raised this (inside the sandbox)."""


class _Recorded:
    """A student's function, replayed from the calls made inside the sandbox."""

    def __init__(self, name: str, cases: list, results: list) -> None:
        if not isinstance(results, list) or len(results) != len(cases):
            raise ValueError(f"{name}: wrong number of recorded calls")
        self._name = name
        self._table = {}
        for args, result in zip(cases, results, strict=True):
            if not isinstance(result, dict) or len(result) != 1:
                raise ValueError(f"{name}: malformed recorded call")
            ((kind, value),) = result.items()
            if kind == "ok":
                self._table[_key(args)] = ("ok", _runner.decode(value))
            elif kind == "error":
                self._table[_key(args)] = ("error", clean(value, limit=MAX_ERROR))
            else:
                raise ValueError(f"{name}: malformed recorded call")

    def __call__(self, *args: Any) -> Any:
        kind, value = self._table.get(_key(list(args)), ("error", "not called by the grader"))
        if kind == "error":
            raise _StudentRaised(value)
        return value


def _key(args: Any) -> str:
    return json.dumps(_runner.encode(list(args)), sort_keys=True)


class _Missing:
    pass


def _answers(raw: Any, autograder: Autograder) -> dict[str, Any]:
    """Validate and decode the sandbox's answers; ValueError if malformed or forged."""
    if not isinstance(raw, dict) or not isinstance(raw.get("answers"), dict):
        raise ValueError("the answers file has no 'answers' object")
    calls = _calls()
    values: dict[str, Any] = {}
    for name in autograder.names():
        entry = raw["answers"].get(name)
        if not isinstance(entry, dict):
            raise ValueError(f"no entry for {name!r}")
        if entry.get("missing") is True:
            values[name] = _Missing()
        elif "error" in entry:
            values[name] = _runner.Opaque(f"unreadable value: {clean(entry['error'], limit=100)}")
        elif "value" in entry:
            value = _runner.decode(entry["value"])
            if name in calls and "calls" in entry:
                value = _Recorded(name, [list(a) for a in calls[name]], entry["calls"])
            values[name] = value
        else:
            raise ValueError(f"malformed entry for {name!r}")
    return values


def _judge(values: dict[str, Any], autograder: Autograder, student: str,
           log: Any = None) -> dict:
    """Run the autograder's scored tests on decoded answers, in this (clean) process.

    ``log`` (a :class:`bmc.checks._cells.CellLog` of the notebook's cells) turns a missing
    or stale answer whose cell raised into that error's message.
    """
    from bmc.checks import student_data

    results = {}
    with student_data(student):
        for qname, question in autograder.questions.items():
            cases = question.scored_cases()
            passed, messages = 0, []
            for case in cases:
                notes = [n for n in (log.explain(p) for p in case.params) if n] if log else []
                missing = [p for p in case.params if isinstance(values.get(p), _Missing)]
                if missing:
                    messages.append("; ".join(notes) + "." if notes else
                                    f"{', '.join(missing)} is not defined in the notebook")
                    continue
                try:
                    case.func(*[values[p] for p in case.params])
                    passed += 1
                except AssertionError as exc:
                    messages.append(clean("; ".join([*notes, str(exc)]), newlines=True,
                                          limit=MAX_MESSAGE))
                except Exception as exc:  # noqa: BLE001 (an answer of a type the test rejects)
                    messages.append(clean(f"{type(exc).__name__}: {exc}", newlines=True,
                                          limit=MAX_MESSAGE))
            score = question.points * passed / len(cases)
            results[qname] = {"score": score, "possible": question.points,
                              "messages": messages or ["passed"]}
    total = sum(r["score"] for r in results.values())
    if not 0 <= total <= autograder.possible + 1e-9:
        raise RuntimeError(f"total {total} outside [0, {autograder.possible}]")
    return results


def _row(student: str, path: Path | str, assignment: str, possible: float, status: str = "ok",
         error: str = "") -> dict:
    name = path.name if isinstance(path, Path) else path
    return {"student_id": student, "file": clean(name), "assignment": clean(assignment),
            "total": 0.0, "possible": possible, "status": status, "flags": [],
            "error": clean(error, limit=MAX_ERROR * 2), "questions": {}}


def grade_file(path: Path, autograder: Autograder, student: str, *,
               limits: sandbox.Limits | None = None, unsafe: bool = False,
               uid: int = _UID_BASE, cell_timeout: int = 20,
               box: Sandboxing | None = None, filed: str | None = None) -> dict:
    """Grade one submission; return its row (never raises for the submission's faults).

    Parameters
    ----------
    path : pathlib.Path
        The notebook or otter zip.
    autograder : Autograder
        Its exercise set.
    student : str
        The student id: seeds the student's data and keys the grade.
    limits : sandbox.Limits, optional
        Resource limits of the sandbox (when ``box`` is not given).
    unsafe : bool, optional
        Run without the sandbox (only with ``--unsafe-no-sandbox``; when ``box`` is not
        given). Without ``box`` there is no cgroup and no seccomp filter: for notebooks
        you trust (``build.py`` grades the solutions this way).
    uid : int, optional
        Unprivileged uid the code runs as when the grader is root.
    cell_timeout : int, optional
        Per-cell time limit [s]; an over-long cell is stopped and the next one runs.
    box : Sandboxing, optional
        Limits, cgroups and seccomp filter of the batch.
    filed : str, optional
        The set the file was filed under; a notebook naming another set is not graded.

    Returns
    -------
    dict
        ``student_id, file, assignment, total, possible, status, flags, error,
        questions, started`` (Unix time [s]) ``, seconds, resources`` (what the cgroup
        measured: peak memory [bytes], limit hits, OOM kills).
    """
    start = time.perf_counter()
    box = box or Sandboxing(limits or sandbox.Limits(), unsafe=unsafe)
    row = _row(student, path, autograder.assignment, autograder.possible)
    row["started"] = round(time.time(), 3)
    try:
        try:
            notebook = load_submission(path)
        except SubmissionError as exc:
            row.update(status="unreadable", error=clean(f"cannot read the submission: {exc}",
                                                        limit=MAX_ERROR * 2))
            return row
        if filed and notebook.assignment and notebook.assignment != filed:
            row.update(status="wrong-set", flags=["wrong-set"], error=clean(
                f"filed under {filed}, but the notebook is {notebook.assignment}: not "
                "graded (move it to its set's folder, or grade it with --autograder)",
                limit=MAX_ERROR))
            return row
        raw, status, message, usage = _extract(notebook, autograder, student, box, uid=uid,
                                               cell_timeout=cell_timeout)
        row["resources"] = usage
        if raw is None:
            row.update(status=status, error=clean(message, limit=MAX_ERROR * 2))
        else:
            try:
                values = _answers(raw, autograder)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                row.update(status="bad-output",
                           error=clean(f"malformed answers file: {exc}", limit=MAX_ERROR))
            else:
                from bmc.checks._cells import CellLog

                sources = list(notebook.cells)
                errors = raw.get("cell_errors")
                errors = errors if isinstance(errors, list) else []
                row["questions"] = _judge(values, autograder, student,
                                          CellLog.from_cells(sources, errors))
                row["total"] = float(sum(q["score"] for q in row["questions"].values()))
    except sandbox.SandboxError as exc:
        row.update(status="grader-error", total=0.0, questions={},
                   error=clean(f"the sandbox failed: {exc}", limit=MAX_ERROR * 2))
    except Exception as exc:  # noqa: BLE001 (one file costs one row, whatever it does)
        row.update(status="grader-error", total=0.0, questions={},
                   error=clean(f"{type(exc).__name__}: {exc}", limit=MAX_ERROR))
    finally:
        row["seconds"] = round(time.perf_counter() - start, 2)
    return row


# ----------------------------------------------------------------------------- output
def _question_key(name: str) -> tuple:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def _feedback_text(row: dict) -> str:
    parts = row.get("files") or [row]
    lines = [f"{row['student_id']} - {row['assignment']}: {row['total']:g} / "
             f"{row['possible']:g} points", ""]
    if len(parts) > 1:
        lines += [f"Not graded ({row['status']}): {row['error']}", ""]
    for part in parts:
        if len(parts) > 1:
            lines += [f"== {part['file']}: {part['total']:g} / {part['possible']:g} "
                      f"({part['status']})", ""]
        elif part["file"]:
            lines += [f"File: {part['file']}", ""]
        if part["error"]:
            lines += [f"Not graded ({part['status']}): {part['error']}", ""]
        for name in sorted(part["questions"], key=_question_key):
            q = part["questions"][name]
            lines.append(f"{name}: {q['score']:g} / {q['possible']:g}")
            lines.extend("    " + clean(m, newlines=True, limit=MAX_MESSAGE)
                         .replace("\n", "\n    ") for m in q["messages"])
            lines.append("")
    return "\n".join(clean(line, newlines=True) for line in lines)


def write_feedback(row: dict, folder: Path) -> Path:
    """Write one student's messages to ``folder/<set>/<student id>.txt`` (see
    :func:`feedback_name`; no two ids share a file)."""
    target = folder / feedback_name(row["assignment"] or "unknown-set")
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{feedback_name(row['student_id'] or 'unknown')}.txt"
    partial = path.with_name(path.name + ".part")
    partial.write_text(_feedback_text(row), encoding="utf-8")
    os.replace(partial, path)
    return path


def _csv_row(row: dict, questions: list[str]) -> list[str]:
    cells = [f"{float(row[key]):g}" if key in ("total", "possible") else csv_cell(row[key])
             for key in _FIXED]
    cells += [f"{row['questions'][q]['score']:g}" if q in row["questions"] else ""
              for q in questions]
    return cells + [csv_cell(";".join(row.get("flags", [])))]


def _row_key(student: str, assignment: str, file: str) -> tuple[str, str]:
    """How a row is found again in the CSV (its cells, as written)."""
    return (csv_cell(assignment), csv_cell(student) if student else "file:" + csv_cell(file))


@dataclass
class _Entry:
    """One row to be: a student id in a set, with its file(s)."""

    student: str
    assignment: str
    files: list[tuple[Path, str | None, str | None, str]]  # path, filed, named set, error
    refused: str = ""
    parts: dict = field(default_factory=dict)


def _plan(files: list[tuple[Path, str | None]], roster: dict[str, str] | None,
          fixed: str | None) -> list[_Entry]:
    """Group the files into rows: one per (set, student id)."""
    entries: dict[tuple[str, str], _Entry] = {}
    for path, filed in files:
        filed = fixed or filed
        shown = clean(path.name)
        if roster is not None and path.name not in roster:
            key = ("?", f"file:{shown}")
            entries[key] = _Entry("", filed or "?", [(path, filed, None, "")],
                                  refused=f"{shown} is not in the roster (--ids): not graded")
            continue
        student = clean(roster[path.name] if roster is not None else _stem(path.name),
                        limit=100)
        named, error = None, ""
        if not filed:
            try:
                named = load_submission(path).assignment
            except Exception as exc:  # noqa: BLE001 (graded as its own error row)
                error = clean(f"cannot read the submission: {exc}", limit=MAX_ERROR)
        assignment = filed or named or "?"
        entry = entries.setdefault((assignment, student), _Entry(student, assignment, []))
        entry.files.append((path, filed, named, error))
    return list(entries.values())


def _stem(name: str) -> str:
    for suffix in (".ipynb", ".zip"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _roster(path: Path | None) -> dict[str, str] | None:
    if path is None:
        return None
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or not {"file", "student_id"} <= set(reader.fieldnames):
            raise SystemExit(f"{path}: the roster needs the columns file,student_id "
                             f"(it has {reader.fieldnames})")
        table: dict[str, str] = {}
        for line in reader:
            name, sid = (line["file"] or "").strip(), (line["student_id"] or "").strip()
            if not name or not sid:
                continue
            if name in table and table[name] != sid:
                raise SystemExit(f"{path}: {name} is listed for two students "
                                 f"({table[name]}, {sid})")
            table[name] = sid
    return table


def _combine(entry: _Entry) -> dict:
    """The entry's row: its file's, or a flagged row naming every file's score."""
    parts = [entry.parts[i] for i in range(len(entry.files))]
    if len(parts) == 1:
        return parts[0]
    possible = max(p["possible"] for p in parts)
    scores = ", ".join(f"{p['file']} {p['total']:g}/{p['possible']:g} ({p['status']})"
                       for p in parts)
    row = _row(entry.student, "; ".join(p["file"] for p in parts), entry.assignment,
               possible, "duplicate",
               f"{len(parts)} files for this student id: {scores}; none counted (keep "
               "one, delete this row from the CSV and grade again)")
    row["flags"] = ["duplicate-id"]
    row["files"] = parts
    row["seconds"] = round(sum(p.get("seconds", 0) for p in parts), 2)
    return row


def _read_book(path: Path, header: list[str]) -> list[dict]:
    """Rows already in the grade book (resume); refuses a book of another layout."""
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        found = next(reader, None)
        if found is None:
            return []
        if found != header:
            raise SystemExit(f"{path} has other columns ({found[:9]}...) than this batch "
                             f"({header[:9]}...): use --restart, or another --out")
        return [dict(zip(header, line, strict=False)) for line in reader if line]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 1 if a submission could not be graded."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path,
                        help="submission notebooks or zips, or folders holding them")
    parser.add_argument("--dist", type=Path, default=HERE / "dist",
                        help="where build.py put the autograders (default: exercises/dist)")
    parser.add_argument("--autograder", type=Path,
                        help="grade every submission with this autograder zip (a notebook "
                        "naming another set is refused)")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"),
                        help="grade book CSV, one row per student id and set (default: "
                        "grades.csv); ids already in it are skipped (resume)")
    parser.add_argument("--restart", action="store_true",
                        help="start a new CSV instead of resuming")
    parser.add_argument("--feedback", type=Path, help="folder for one feedback file each")
    parser.add_argument("--json", type=Path, help="also write every row, with the test "
                        "messages, to this JSON file")
    parser.add_argument("--gradebook", type=Path, help="also write Canvas and Moodle import "
                        "files per set and review.csv (flags) into this folder "
                        "(exercises/gradebook.py)")
    parser.add_argument("--ids", type=Path, help="roster CSV with columns file,student_id: "
                        "only the files it lists are graded (default: the student id is the "
                        "file name without extension)")
    parser.add_argument("--jobs", type=int, default=1, help="submissions in parallel")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="wall-clock seconds per submission (default 120)")
    parser.add_argument("--cell-time-limit", type=int, default=30,
                        help="seconds per notebook cell before it is stopped (default 30)")
    parser.add_argument("--memory", type=float, default=3.0,
                        help="memory per submission [GiB] (default 3): all its processes, "
                        "its files in /tmp and /scratch, shared memory")
    parser.add_argument("--cgroup", type=Path, action="append",
                        help="a cgroup folder delegated to you, in which each submission "
                        "gets its own (v1: once per controller, memory and pids); default: "
                        "found automatically (as root, or in a delegated v2 scope)")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="DANGEROUS: run student code with your own rights, without "
                        "the sandbox (no isolation of files, network or processes)")
    parser.add_argument("--unsafe-no-cgroup", action="store_true",
                        help="grade without a memory cgroup (shared memory and page cache "
                        "then uncapped)")
    parser.add_argument("--unsafe-no-seccomp", action="store_true",
                        help="grade without the seccomp filter (kernel keyrings and "
                        "namespaces then reachable)")
    args = parser.parse_args(argv)

    limits = sandbox.Limits(wall=args.time_limit, cpu=int(args.time_limit) + 10,
                            memory=int(args.memory * 2**30))
    box = _sandboxing(args, limits)
    try:
        known = {} if args.autograder else autograders(args.dist)
        if not args.autograder and not known:
            raise SystemExit(f"no *-autograder.zip under {args.dist}: run exercises/build.py "
                             "first")
        loaded: dict[str, Autograder] = {}
        for path in ([args.autograder] if args.autograder else known.values()):
            ag = Autograder.load(Path(path))
            loaded[ag.assignment] = ag
        fixed = next(iter(loaded)) if args.autograder else None
        folders = {**{a: a for a in loaded},
                   **{ag.path.name.removesuffix("-autograder.zip"): a
                      for a, ag in loaded.items()}}
        files = submissions(args.paths, folders)
        roster = _roster(args.ids)
        if not files and not roster:
            raise SystemExit("no .ipynb or .zip submissions found")
        return _grade_batch(args, files, roster, fixed, loaded, box)
    finally:
        if box.cgroups is not None:
            box.cgroups.close()


def _sandboxing(args: argparse.Namespace, limits: sandbox.Limits) -> Sandboxing:
    """Check bubblewrap, seccomp and a cgroup; refuse without one unless told otherwise."""
    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    if args.unsafe_no_sandbox:
        say("WARNING: --unsafe-no-sandbox: student code runs with YOUR rights, can read "
            "and change your files and use the network")
        return Sandboxing(limits, unsafe=True)
    if sandbox.bwrap_path() is None:
        raise SystemExit(f"refusing to run student code without a sandbox: "
                         f"{sandbox.BWRAP_HINT}")
    program = None
    if args.unsafe_no_seccomp:
        say("WARNING: --unsafe-no-seccomp: kernel keyrings and namespaces are reachable")
    else:
        try:
            program = sandbox.seccomp_program()
        except sandbox.SandboxError as exc:
            raise SystemExit(f"refusing to run student code without the seccomp filter: "
                             f"{exc}; --unsafe-no-seccomp grades without it") from None
    pool = None
    if args.unsafe_no_cgroup:
        say("WARNING: --unsafe-no-cgroup: memory is capped per process and per tmpfs only; "
            "memfd, shared memory and the page cache are not")
    else:
        try:
            pool = sandbox.CgroupPool.find(args.cgroup)
        except sandbox.CgroupError as exc:
            raise SystemExit(f"refusing to grade without a memory cgroup: {exc}. "
                             f"{sandbox.CGROUP_HINT}") from None
    return Sandboxing(limits, cgroups=pool, seccomp=program)


def _grade_batch(args: argparse.Namespace, files: list[tuple[Path, str | None]],
                 roster: dict[str, str] | None, fixed: str | None,
                 loaded: dict[str, Autograder], box: Sandboxing) -> int:
    questions = sorted({q for ag in loaded.values() for q in ag.questions}, key=_question_key)
    header = [*_FIXED, *questions, _FLAGS]
    entries = _plan(files, roster, fixed)
    sets = {e.assignment for e in entries if e.assignment != "?"} | ({fixed} if fixed else set())
    if roster is not None and len(sets) == 1:
        (only,) = sets
        have = {e.student for e in entries}
        for sid in sorted(set(roster.values()) - {r for r in roster.values()
                                                   if clean(r, limit=100) in have}):
            entry = _Entry(clean(sid, limit=100), only, [])
            entry.refused = "no submission"
            entries.append(entry)

    if args.restart and args.out.exists():
        args.out.unlink()
    previous = _read_book(args.out, header)
    done = {(r.get("assignment", ""), r.get("student_id") or "file:" + r.get("file", ""))
            for r in previous}
    todo = [e for e in entries if _row_key(e.student, e.assignment,
                                           e.files[0][0].name if e.files else "") not in done]
    handle = open(args.out, "a", newline="", encoding="utf-8")  # noqa: SIM115
    writer = csv.writer(handle)
    if not previous and args.out.stat().st_size == 0:
        writer.writerow(header)
        handle.flush()
    lock = Lock()
    rows: list[dict] = []
    uids: queue.Queue[int] = queue.Queue()
    for i in range(max(args.jobs, 1)):
        uids.put(_UID_BASE + i)

    def record(row: dict) -> None:
        with lock:
            writer.writerow(_csv_row(row, questions))
            handle.flush()
            os.fsync(handle.fileno())
            rows.append(row)
            if args.feedback and row["student_id"]:
                try:
                    write_feedback(row, args.feedback)
                except OSError as exc:
                    row["error"] += clean(f" (feedback not written: {exc})")
            status = "" if row["status"] == "ok" else f"{row['status']}: {row['error'][:100]}"
            print(clean(f"{row['student_id'] or '-':<24} {row['total']:6g} / "
                        f"{row['possible']:<4g} {status}"), flush=True)

    def one(entry: _Entry, index: int) -> None:
        path, filed, named, error = entry.files[index]
        assignment = filed or named
        autograder = loaded.get(assignment) if assignment else None
        if error:
            row = _row(entry.student, path, "?", 0.0, "unreadable", error)
        elif autograder is None:
            row = _row(entry.student, path, assignment or "?", 0.0, "no-autograder",
                       f"no autograder for assignment {assignment!r} (known: "
                       f"{sorted(loaded)}); use --autograder")
        else:
            uid = uids.get()
            try:
                row = grade_file(path, autograder, entry.student, box=box, uid=uid,
                                 cell_timeout=args.cell_time_limit, filed=filed)
            finally:
                uids.put(uid)
        with lock:
            entry.parts[index] = row
            complete = len(entry.parts) == len(entry.files)
        if complete:
            record(_combine(entry))

    def guarded(entry: _Entry, index: int) -> None:
        try:
            one(entry, index)
        except Exception as exc:  # noqa: BLE001 (a grader bug must not lose the other rows)
            path = entry.files[index][0]
            with lock:
                entry.parts[index] = _row(entry.student, path, entry.assignment, 0.0,
                                          "grader-error", f"{type(exc).__name__}: {exc}")
                complete = len(entry.parts) == len(entry.files)
            if complete:
                record(_combine(entry))

    for entry in todo:
        if entry.refused or not entry.files:
            status = "no-submission" if not entry.files else "not-in-roster"
            name = entry.files[0][0] if entry.files else ""
            record(_row(entry.student, name, entry.assignment, 0.0, status,
                        entry.refused))
    jobs = [(e, i) for e in todo if e.files and not e.refused for i in range(len(e.files))]
    if len(todo) < len(entries):
        print(f"resuming: {len(entries) - len(todo)} rows already in {clean(args.out)}",
              flush=True)
    start = time.perf_counter()
    interrupted = False
    previous_term = signal.signal(signal.SIGTERM, _terminate)
    pool = ThreadPoolExecutor(max_workers=max(args.jobs, 1))
    try:
        pending = {pool.submit(guarded, e, i) for e, i in jobs}
        while pending:
            _, pending = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: finishing the submissions being graded, then writing the "
              "grade book", file=sys.stderr, flush=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        signal.signal(signal.SIGTERM, previous_term)
        handle.close()
        if args.json:
            earlier = [{**r, "resumed": True} for r in previous]
            partial = args.json.with_name(args.json.name + ".part")
            partial.write_text(json.dumps(earlier + rows, indent=1), encoding="utf-8")
            os.replace(partial, args.json)
        if args.gradebook:
            import gradebook

            gradebook.write_gradebook(
                [*previous, *rows], {p.name: p for p, _ in files}, args.gradebook,
                roster=gradebook.read_roster(args.ids), templates=gradebook.templates(args.dist))
    peak = _peak_memory_mb()
    print(f"graded {len(jobs)} submissions in {time.perf_counter() - start:.1f} s (grader "
          f"peak memory {peak:.0f} MB); wrote {clean(args.out)}"
          + (f" and feedback in {clean(args.feedback)}/" if args.feedback else ""), flush=True)
    if interrupted:
        return 130
    return 1 if any(r["status"] != "ok" for r in rows) else 0


def _peak_memory_mb() -> float:
    """This process's peak resident memory [MB] (the submissions run in others)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
