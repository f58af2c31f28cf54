"""Grade a folder of exercise submissions locally, without Docker and without a JupyterHub.

Usage (from the repository root, after ``python exercises/build.py``)::

    python exercises/grade.py submissions/                   # every .ipynb and .zip in it
    python exercises/grade.py submissions/ --out grades.csv --feedback feedback/ --jobs 2
    python exercises/grade.py alice.ipynb --autograder exercises/dist/01_one_link/01_one_link-autograder.zip

Each submission (a student's notebook, or the zip that otter's export cell makes) is
matched to its autograder by the assignment name otter stores in the notebook's metadata,
among the ``*-autograder.zip`` files under ``--dist`` (default ``exercises/dist``), unless
``--autograder`` names one zip for all. It is then graded with otter-grader's documented
Python API, ``otter.api.grade_submission``: the notebook runs top to bottom in a fresh
Python kernel of *this* environment (so ``bmc`` and the course's dependencies must be
installed here; the data of notebook 4 is found through ``BMC_DATA_DIR`` as usual), and the
autograder's tests, hidden ones included, run on the result. This is the same thing
``otter run -a AUTOGRADER.zip SUBMISSION`` does for one file. Student code runs with your
user's rights: grade in a throw-away account or container if you do not trust it.

Writes a CSV with one row per submission (file, assignment, total, possible, one column per
question) and, with ``--feedback DIR``, one text file per submission with the message of
every test: the same hints the students see from ``grader.check``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path

HERE = Path(__file__).resolve().parent


def assignment_name(path: Path) -> str | None:
    """Return the otter assignment name stored in a submission (notebook or zip), if any."""
    try:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if n.endswith(".ipynb")]
                if len(names) != 1:
                    return None
                nb = json.loads(zf.read(names[0]))
        else:
            nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    return nb.get("metadata", {}).get("otter", {}).get("assignment_name")


def autograders(dist: Path) -> dict[str, Path]:
    """Map assignment names to the autograder zips found under ``dist``."""
    found = {}
    for path in sorted(dist.glob("*/*-autograder.zip")):
        with zipfile.ZipFile(path) as zf:
            config = json.loads(zf.read("otter_config.json"))
        found[config["assignment_name"]] = path
    return found


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


def grade_one(submission: str, autograder: str) -> dict:
    """Grade one submission; return a picklable summary (never raises)."""
    start = time.perf_counter()
    summary = {"file": submission, "autograder": autograder, "total": 0.0, "possible": 0.0,
               "questions": {}, "error": None}
    try:
        from otter.api import grade_submission

        results = grade_submission(submission, autograder, quiet=True)
        if results.has_catastrophic_failure():
            summary["error"] = str(results.catastrophic_error)
        for name, test_file in results.results.items():
            summary["questions"][name] = {
                "score": float(test_file.score),
                "possible": float(test_file.possible),
                "messages": [r.message for r in test_file.test_case_results],
            }
        summary["total"] = float(results.total)
        summary["possible"] = float(results.possible)
    except Exception as exc:  # a broken submission must not stop the others
        summary["error"] = f"{type(exc).__name__}: {exc}"
    summary["seconds"] = time.perf_counter() - start
    return summary


def _question_key(name: str) -> tuple:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def write_csv(rows: list[dict], path: Path) -> None:
    """Write one row per submission, one column per question."""
    questions = sorted({q for row in rows for q in row["questions"]}, key=_question_key)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "assignment", "total", "possible", *questions, "error"])
        for row in rows:
            writer.writerow([Path(row["file"]).name, row["assignment"], row["total"],
                             row["possible"],
                             *(row["questions"].get(q, {}).get("score", "") for q in questions),
                             row["error"] or ""])


def write_feedback(row: dict, folder: Path) -> Path:
    """Write one submission's test messages to ``folder/<file stem>.txt``."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"{Path(row['file']).name} ({row['assignment']}): "
             f"{row['total']:g} / {row['possible']:g} points", ""]
    if row["error"]:
        lines += [f"Grading error: {row['error']}", ""]
    for name in sorted(row["questions"], key=_question_key):
        q = row["questions"][name]
        lines.append(f"{name}: {q['score']:g} / {q['possible']:g}")
        lines.extend("    " + m.replace("\n", "\n    ") for m in q["messages"])
        lines.append("")
    path = folder / f"{Path(row['file']).stem}.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 1 if any submission could not be graded."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path,
                        help="submission notebooks or zips, or folders holding them")
    parser.add_argument("--dist", type=Path, default=HERE / "dist",
                        help="where build.py put the autograders (default: exercises/dist)")
    parser.add_argument("--autograder", type=Path,
                        help="grade every submission with this autograder zip")
    parser.add_argument("--out", type=Path, default=Path("grades.csv"),
                        help="CSV of scores (default: grades.csv)")
    parser.add_argument("--feedback", type=Path, help="folder for one feedback file each")
    parser.add_argument("--json", type=Path, help="also write every result, with the test "
                        "messages, to this JSON file")
    parser.add_argument("--jobs", type=int, default=1,
                        help="submissions graded in parallel (default 1)")
    args = parser.parse_args(argv)

    files = submissions(args.paths)
    if not files:
        raise SystemExit("no .ipynb or .zip submissions found")
    known = {} if args.autograder else autograders(args.dist)
    if not args.autograder and not known:
        raise SystemExit(f"no *-autograder.zip under {args.dist}: run exercises/build.py first")

    rows, tasks = [], []
    for path in files:
        name = assignment_name(path)
        zip_path = args.autograder or known.get(name)
        row = {"file": str(path), "assignment": name or "?", "total": 0.0, "possible": 0.0,
               "questions": {}, "error": None}
        if zip_path is None:
            row["error"] = (f"no autograder for assignment {name!r} (known: {sorted(known)}); "
                            "use --autograder")
        else:
            tasks.append((len(rows), str(path.resolve()), str(Path(zip_path).resolve())))
        rows.append(row)

    if args.jobs > 1 and len(tasks) > 1:
        import otter.api  # noqa: F401  (imported once here; forked workers inherit it)

        method = "fork" if "fork" in get_all_start_methods() else "spawn"
        with ProcessPoolExecutor(max_workers=args.jobs, mp_context=get_context(method)) as pool:
            futures = [(i, pool.submit(grade_one, sub, ag)) for i, sub, ag in tasks]
            done = [(i, f.result()) for i, f in futures]
    else:
        done = [(i, grade_one(sub, ag)) for i, sub, ag in tasks]
    for i, summary in done:
        summary["file"] = rows[i]["file"]
        rows[i].update({k: v for k, v in summary.items() if k != "autograder"})

    write_csv(rows, args.out)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    width = max(len(Path(r["file"]).name) for r in rows)
    for row in rows:
        status = f"error: {row['error']}" if row["error"] else ""
        print(f"{Path(row['file']).name:<{width}}  {row['total']:6g} / {row['possible']:<4g} "
              f"{status}", flush=True)
        if args.feedback:
            write_feedback(row, args.feedback)
    print(f"wrote {args.out}" + (f" and feedback in {args.feedback}/" if args.feedback else ""))
    return 1 if any(r["error"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
