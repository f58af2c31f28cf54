"""Grade a folder of exercise submissions safely: sandboxed, judged outside, one row each.

Usage (from the repository root, after ``python exercises/build.py``)::

    python exercises/grade.py submissions/ --out grades.csv --feedback feedback/ --jobs 2
    python exercises/grade.py alice.ipynb --autograder exercises/dist/01_one_link/01_one_link-autograder.zip

How a submission is graded
--------------------------
1. **Extract, in a sandbox.** The notebook runs top to bottom in a bubblewrap sandbox
   (``exercises/sandbox.py``: no network, no home directory, the course environment
   read-only, a private scratch folder, limits on time, CPU, memory, processes and output)
   with the data of its student (``BMC_STUDENT``: the file name's stem, or ``--ids``). Only
   the answers come out, as plain data (numbers, arrays, strings, sets) in a JSON file; a
   function the student wrote is called *inside* the sandbox on inputs the grader chose,
   and only its return values come out.
2. **Judge, outside.** This process, which the student's code never touched, loads the
   autograder's tests (``tests/qN.py`` of the ``*-autograder.zip``; the hidden tests with
   the exact values, which students never had) and runs them on those answers. What the
   notebook printed or wrote is data: a malformed or forged answers file is an error row,
   never a verdict.
3. **Write a row at once.** One CSV row per submission, appended and flushed as soon as it
   is graded; rerunning the same command skips the files already in the CSV, so a killed
   run resumes where it stopped. A timeout, crash or bad answers file gets its own row with
   0 points and the reason. Totals are checked against the set's points. With
   ``--feedback DIR`` each student gets ``DIR/<student id>.txt`` with every test's message.

Without a working bubblewrap the grader refuses to run student code, unless you pass
``--unsafe-no-sandbox`` (then the code runs with your user's rights).
"""

from __future__ import annotations

import argparse
import csv
import inspect
import json
import os
import queue
import shutil
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from threading import Lock
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import _runner  # noqa: E402  (the plain-data codec, shared with the sandbox side)
import sandbox  # noqa: E402

__all__ = ["Autograder", "assignment_name", "autograders", "grade_file", "main",
           "submissions"]

_FIXED = ["student_id", "file", "assignment", "total", "possible", "status", "error"]
_UID_BASE = 61000  # unprivileged uids the sandboxed code runs as (when graded as root)


# ----------------------------------------------------------------------------- inputs
def assignment_name(path: Path) -> str | None:
    """Return the otter assignment name stored in a submission (notebook or zip), if any."""
    try:
        nb = _read_notebook(path)
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
    name = meta.get("otter", {}).get("assignment_name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else None


def _read_notebook(path: Path) -> dict:
    """Read a notebook, or the one notebook in an otter submission zip (at most 50 MB)."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if n.endswith(".ipynb")]
            if len(names) != 1:
                raise ValueError(f"the zip holds {len(names)} notebooks, expected 1")
            if zf.getinfo(names[0]).file_size > 50 * 2**20:
                raise ValueError("the notebook is larger than 50 MB")
            return json.loads(zf.read(names[0]))
    if path.stat().st_size > 50 * 2**20:
        raise ValueError("the notebook is larger than 50 MB")
    return json.loads(path.read_text(encoding="utf-8"))


def submissions(paths: list[Path]) -> list[Path]:
    """Expand folders into the notebooks and zips they hold (not recursively)."""
    files = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir()
                                if p.suffix in (".ipynb", ".zip") and p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            raise SystemExit(f"no such file or folder: {path}")
    return files


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
def _course_paths() -> tuple[list[Path], str]:
    """Folders the sandbox needs read-only, and the PYTHONPATH inside it."""
    import bmc

    package = Path(bmc.__file__).resolve().parent
    paths = [Path(sys.base_prefix), Path(sys.prefix), package]
    paths += [Path(p) for p in sys.path if p and "site-packages" in p and Path(p).is_dir()]
    data = os.environ.get("BMC_DATA_DIR")
    if data and Path(data).is_dir():
        paths.append(Path(data).resolve())
    return paths, str(package.parent)


def _extract(notebook: dict, autograder: Autograder, student: str, limits: sandbox.Limits,
             *, unsafe: bool, uid: int, cell_timeout: int) -> tuple[dict | None, str, str]:
    """Run a notebook in the sandbox; return (raw answers or None, status, message)."""
    calls = _calls()
    names = autograder.names()
    spec = {"names": names, "cell_timeout": cell_timeout,
            "uid": uid if os.getuid() == 0 and not unsafe else None,
            "calls": {n: [_runner.encode(list(args)) for args in calls[n]]
                      for n in names if n in calls}}
    ro, pythonpath = _course_paths()
    scratch = Path(tempfile.mkdtemp(prefix="bmc-grade-"))
    try:
        (scratch / "submission.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
        (scratch / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        shutil.copy(HERE / "_runner.py", scratch / "_runner.py")
        if spec["uid"] is not None:
            for path in (scratch, *scratch.iterdir()):
                os.chown(path, uid, uid)
        env = {"HOME": "/scratch", "PYTHONPATH": pythonpath, "BMC_STUDENT": student,
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": "/scratch/.mpl", "IPYTHONDIR": "/scratch/.ipython",
               "PYTHONDONTWRITEBYTECODE": "1", "PATH": f"{sys.prefix}/bin:/usr/bin:/bin",
               "LANG": "C.UTF-8"}
        if os.environ.get("BMC_DATA_DIR"):
            env["BMC_DATA_DIR"] = str(Path(os.environ["BMC_DATA_DIR"]).resolve())
        argv = [sys.executable, "-u", "/scratch/_runner.py",
                "/scratch/submission.ipynb", "/scratch/spec.json", "/scratch/answers.json"]
        outcome = sandbox.run(argv, scratch=scratch, ro=ro, env=env, limits=limits,
                              sandbox=not unsafe)
        tail = outcome.output[-500:]
        if outcome.timed_out:
            return None, "timeout", (f"stopped after the {limits.wall:g} s time limit "
                                     "(an endless loop or a very slow cell?)")
        out = scratch / "answers.json"
        if not out.is_file():
            return None, "crash", (f"the notebook ended the grading process (exit code "
                                   f"{outcome.returncode}) before its answers were read; "
                                   f"last output: {tail!r}")
        if out.stat().st_size > 32 * 2**20:
            return None, "bad-output", "the answers file is larger than 32 MB"
        try:
            raw = json.loads(out.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            return None, "bad-output", f"the answers file is not valid JSON ({exc})"
        return raw, "ok", ""
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


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
                self._table[_key(args)] = ("error", str(value)[:300])
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
            values[name] = _runner.Opaque(f"unreadable value: {str(entry['error'])[:100]}")
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
                    messages.append("; ".join([*notes, str(exc)]))
                except Exception as exc:  # noqa: BLE001 (an answer of a type the test rejects)
                    messages.append(f"{type(exc).__name__}: {exc}")
            score = question.points * passed / len(cases)
            results[qname] = {"score": score, "possible": question.points,
                              "messages": messages or ["passed"]}
    total = sum(r["score"] for r in results.values())
    if not 0 <= total <= autograder.possible + 1e-9:
        raise RuntimeError(f"total {total} outside [0, {autograder.possible}]")
    return results


def grade_file(path: Path, autograder: Autograder, student: str, *, limits: sandbox.Limits,
               unsafe: bool = False, uid: int = _UID_BASE, cell_timeout: int = 20) -> dict:
    """Grade one submission; return its row (never raises for the submission's faults).

    Parameters
    ----------
    path : pathlib.Path
        The notebook or otter zip.
    autograder : Autograder
        Its exercise set.
    student : str
        The student id: seeds the student's data and keys the grade.
    limits : sandbox.Limits
        Resource limits of the sandbox.
    unsafe : bool, optional
        Run without the sandbox (only with ``--unsafe-no-sandbox``).
    uid : int, optional
        Unprivileged uid the code runs as when the grader is root.
    cell_timeout : int, optional
        Per-cell time limit [s]; an over-long cell is stopped and the next one runs.

    Returns
    -------
    dict
        ``student_id, file, assignment, total, possible, status, error, questions``.
    """
    start = time.perf_counter()
    row = {"student_id": student, "file": path.name, "assignment": autograder.assignment,
           "total": 0.0, "possible": autograder.possible, "status": "ok", "error": "",
           "questions": {}}
    try:
        notebook = _read_notebook(path)
        if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
            raise ValueError("not a notebook (no cells)")
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        row.update(status="unreadable", error=f"cannot read the submission: {exc}")
        return row
    raw, status, message = _extract(notebook, autograder, student, limits, unsafe=unsafe,
                                    uid=uid, cell_timeout=cell_timeout)
    if raw is None:
        row.update(status=status, error=message)
    else:
        try:
            values = _answers(raw, autograder)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            row.update(status="bad-output", error=f"malformed answers file: {exc}")
        else:
            from bmc.checks._cells import CellLog

            sources = [("".join(c["source"]) if isinstance(c.get("source"), list)
                        else str(c.get("source", ""))) if isinstance(c, dict)
                       and c.get("cell_type") == "code" else "" for c in notebook["cells"]]
            errors = raw.get("cell_errors") if isinstance(raw.get("cell_errors"), list) else []
            row["questions"] = _judge(values, autograder, student,
                                      CellLog.from_cells(sources, errors))
            row["total"] = float(sum(q["score"] for q in row["questions"].values()))
    row["seconds"] = round(time.perf_counter() - start, 2)
    return row


# ----------------------------------------------------------------------------- output
def _question_key(name: str) -> tuple:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def _done_files(path: Path) -> set[str]:
    if not path.is_file():
        return set()
    with open(path, newline="", encoding="utf-8") as handle:
        return {row["file"] for row in csv.DictReader(handle) if row.get("file")}


def write_feedback(row: dict, folder: Path) -> Path:
    """Write one student's messages to ``folder/<student id>.txt``."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"{row['student_id']} - {row['file']} ({row['assignment']}): "
             f"{row['total']:g} / {row['possible']:g} points", ""]
    if row["error"]:
        lines += [f"Not graded ({row['status']}): {row['error']}", ""]
    for name in sorted(row["questions"], key=_question_key):
        q = row["questions"][name]
        lines.append(f"{name}: {q['score']:g} / {q['possible']:g}")
        lines.extend("    " + m.replace("\n", "\n    ") for m in q["messages"])
        lines.append("")
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in row["student_id"])
    path = folder / f"{safe or 'unknown'}.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _student_ids(files: list[Path], roster: Path | None) -> dict[Path, str]:
    ids = {f: f.stem for f in files}
    if roster is not None:
        with open(roster, newline="", encoding="utf-8") as handle:
            table = {r["file"]: r["student_id"] for r in csv.DictReader(handle)}
        ids = {f: table.get(f.name, f.stem) for f in files}
    return ids


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 1 if a submission could not be graded."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path,
                        help="submission notebooks or zips, or folders holding them")
    parser.add_argument("--dist", type=Path, default=HERE / "dist",
                        help="where build.py put the autograders (default: exercises/dist)")
    parser.add_argument("--autograder", type=Path,
                        help="grade every submission with this autograder zip")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"),
                        help="grade book CSV, one row per submission (default: grades.csv); "
                        "files already in it are skipped (resume)")
    parser.add_argument("--restart", action="store_true",
                        help="start a new CSV instead of resuming")
    parser.add_argument("--feedback", type=Path, help="folder for one feedback file each")
    parser.add_argument("--json", type=Path, help="also write every row, with the test "
                        "messages, to this JSON file")
    parser.add_argument("--gradebook", type=Path, help="also write Canvas and Moodle import "
                        "files per set and review.csv (flags) into this folder "
                        "(exercises/gradebook.py)")
    parser.add_argument("--ids", type=Path, help="CSV with columns file,student_id "
                        "(default: the student id is the file name without extension)")
    parser.add_argument("--jobs", type=int, default=1, help="submissions in parallel")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="wall-clock seconds per submission (default 120)")
    parser.add_argument("--cell-time-limit", type=int, default=30,
                        help="seconds per notebook cell before it is stopped (default 30)")
    parser.add_argument("--memory", type=float, default=3.0,
                        help="address-space limit per submission [GiB] (default 3)")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="DANGEROUS: run student code with your own rights, without "
                        "the sandbox (no isolation of files, network or processes)")
    args = parser.parse_args(argv)

    files = submissions(args.paths)
    if not files:
        raise SystemExit("no .ipynb or .zip submissions found")
    if args.unsafe_no_sandbox:
        print("WARNING: --unsafe-no-sandbox: student code runs with YOUR rights, can read "
              "and change your files and use the network", file=sys.stderr, flush=True)
    elif sandbox.bwrap_path() is None:
        raise SystemExit(f"refusing to run student code without a sandbox: "
                         f"{sandbox.BWRAP_HINT}")
    known = ({} if args.autograder else autograders(args.dist))
    if not args.autograder and not known:
        raise SystemExit(f"no *-autograder.zip under {args.dist}: run exercises/build.py first")
    loaded: dict[Path, Autograder] = {}
    for path in ([args.autograder] if args.autograder else known.values()):
        loaded[Path(path)] = Autograder.load(Path(path))
    questions = sorted({q for ag in loaded.values() for q in ag.questions}, key=_question_key)
    ids = _student_ids(files, args.ids)
    limits = sandbox.Limits(wall=args.time_limit, cpu=int(args.time_limit) + 10,
                            memory=int(args.memory * 2**30))

    if args.restart and args.out.exists():
        args.out.unlink()
    done = _done_files(args.out)
    header = not args.out.exists()
    handle = open(args.out, "a", newline="", encoding="utf-8")  # noqa: SIM115
    writer = csv.writer(handle)
    if header:
        writer.writerow([*_FIXED, *questions])
        handle.flush()
    lock = Lock()
    rows: list[dict] = []
    uids: queue.Queue[int] = queue.Queue()
    for i in range(max(args.jobs, 1)):
        uids.put(_UID_BASE + i)

    def record(row: dict) -> None:
        with lock:
            writer.writerow([row[k] if k not in ("total", "possible") else f"{row[k]:g}"
                             for k in _FIXED]
                            + [f"{row['questions'][q]['score']:g}" if q in row["questions"]
                               else "" for q in questions])
            handle.flush()
            os.fsync(handle.fileno())
            rows.append(row)
            if args.feedback:
                write_feedback(row, args.feedback)
            status = "" if row["status"] == "ok" else f"{row['status']}: {row['error'][:100]}"
            print(f"{row['student_id']:<24} {row['total']:6g} / {row['possible']:<4g} "
                  f"{status}", flush=True)

    def work(path: Path) -> None:
        name = assignment_name(path)
        zip_path = args.autograder or known.get(name)
        student = ids[path]
        if zip_path is None:
            record({"student_id": student, "file": path.name, "assignment": name or "?",
                    "total": 0.0, "possible": 0.0, "status": "no-autograder",
                    "error": f"no autograder for assignment {name!r} (known: "
                    f"{sorted(known)}); use --autograder", "questions": {}})
            return
        uid = uids.get()
        try:
            row = grade_file(path, loaded[Path(zip_path)], student, limits=limits,
                             unsafe=args.unsafe_no_sandbox, uid=uid,
                             cell_timeout=args.cell_time_limit)
        except Exception as exc:  # noqa: BLE001 (a grader bug must not lose the other rows)
            row = {"student_id": student, "file": path.name, "assignment": name or "?",
                   "total": 0.0, "possible": 0.0, "status": "grader-error",
                   "error": f"{type(exc).__name__}: {exc}", "questions": {}}
        finally:
            uids.put(uid)
        record(row)

    todo = [f for f in files if f.name not in done]
    if len(todo) < len(files):
        print(f"resuming: {len(files) - len(todo)} submissions already in {args.out}",
              flush=True)
    start = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            list(pool.map(work, todo))
    finally:
        handle.close()
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if args.gradebook:
        import gradebook

        gradebook.write_gradebook(rows, {f.name: f for f in files}, args.gradebook,
                                  roster=gradebook.read_roster(args.ids),
                                  templates=gradebook.templates(args.dist))
    print(f"graded {len(todo)} submissions in {time.perf_counter() - start:.1f} s; wrote "
          f"{args.out}" + (f" and feedback in {args.feedback}/" if args.feedback else ""),
          flush=True)
    return 1 if any(r["status"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
