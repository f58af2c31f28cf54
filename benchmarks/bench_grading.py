"""Grading speed: the sandbox's cost per submission, and a hostile class of 200 (standalone).

Usage (from the repository root)::

    python benchmarks/bench_grading.py                  # both parts below
    python benchmarks/bench_grading.py --part overhead -n 20 --repeats 3
    python benchmarks/bench_grading.py --part class --students 200 --hostile 0.2

**overhead**: builds set 1, writes ``n`` correct submissions (different student ids, so each
has its own data) and grades them, interleaved and repeated ``--repeats`` times (minimum
kept, the machine is shared), with

- ``sandbox``: ``exercises/grade.py`` as an instructor runs it (bubblewrap, a memory and
  pids cgroup per submission, the seccomp filter, a fresh keyring);
- ``no sandbox``: the same pipeline with ``--unsafe-no-sandbox`` (the sandbox's cost is
  the difference);
- ``otter``: the previous runner, ``otter.api.grade_submission`` per notebook in a Jupyter
  kernel (``--otter``; slow).

and times the sandbox alone: starting ``python -c pass`` through :func:`sandbox.run` with
everything on, against the same launcher without bubblewrap, cgroup and filter (median of
``--starts``).

**class**: ``--students`` submissions of sets 1 and 3 in one folder, of which the fraction
``--hostile`` are hostile, drawn in turn from every attack of ``tests/test_grading_redteam.py``
(keyrings, memfd, tmpfs and disk fills, fork bomb, 8 GB, endless loops, a loop that
ignores the cell limit, sleeps, forged results, links to ``/proc/kmsg``, zip and nesting
bombs, formula and escape-sequence names, duplicate ids ...); graded once with
``--jobs 2`` and the grader's default limits (120 s per submission, 30 s per cell,
3 GiB). Reports the wall time, whether every submission has its row in the CSV and the
JSON, and whether every correct submission got full marks. Goal: under 5 minutes on 2
cores.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
sys.path.insert(0, str(EXERCISES))
sys.path.insert(0, str(ROOT / "tests"))

OTTER = """
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from otter.api import grade_submission
def one(path):
    return grade_submission(path, sys.argv[2], quiet=True).total
files = sorted(str(p) for p in Path(sys.argv[1]).glob("*.ipynb"))
with ProcessPoolExecutor(int(sys.argv[3])) as pool:
    totals = list(pool.map(one, files))
assert len(set(totals)) == 1, totals
"""


def _timed(cmd: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    seconds = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"{cmd[1]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds


def _build(work: Path, sets: list[str], env: dict[str, str]) -> Path:
    dist = work / "dist"
    subprocess.run([sys.executable, str(EXERCISES / "build.py"), *sets, "--out", str(dist),
                    "--no-run-tests", "--no-environment"], check=True, capture_output=True,
                   env=env)
    return dist


def _load() -> str:
    return os.getloadavg().__repr__()


def sandbox_start(starts: int) -> dict[str, float]:
    """Median seconds to run ``python -c pass`` with and without the sandbox."""
    import sandbox

    pool = sandbox.CgroupPool.find()
    program = sandbox.seccomp_program()
    limits = sandbox.Limits(wall=30)
    python = str(Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}."
                 f"{sys.version_info.minor}")
    times: dict[str, list[float]] = {"sandbox": [], "no sandbox": []}
    inputs = Path(tempfile.mkdtemp(prefix="bench-start-"))
    try:
        for _ in range(starts):
            for name in times:
                start = time.perf_counter()
                group = pool.new(limits) if name == "sandbox" else None
                out = sandbox.run([python, "-I", "-S", "-c", "pass"], inputs=inputs,
                                  ro=[Path(sys.base_prefix)], env={}, limits=limits,
                                  sandbox=name == "sandbox", cgroup=group,
                                  seccomp=program if name == "sandbox" else None)
                if group is not None:
                    group.remove()
                times[name].append(time.perf_counter() - start)
                assert out.returncode == 0, out.output
    finally:
        pool.close()
        shutil.rmtree(inputs, ignore_errors=True)
    return {name: statistics.median(t) for name, t in times.items()}


def overhead(args: argparse.Namespace, env: dict[str, str]) -> None:
    """Seconds per submission with and without the sandbox (and otter)."""
    work = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    try:
        dist = _build(work, ["01_one_link"], env)
        solution = json.loads((dist / "01_one_link" / "autograder" / "01_one_link.ipynb")
                              .read_text())
        subs = work / "subs"
        subs.mkdir()
        for i in range(args.n):
            (subs / f"student{i:03d}.ipynb").write_text(json.dumps(solution))
        autograder = str(dist / "01_one_link" / "01_one_link-autograder.zip")
        base = [sys.executable, str(EXERCISES / "grade.py"), str(subs), "--autograder",
                autograder, "--jobs", str(args.jobs), "--restart"]
        variants = {"sandbox": base + ["--out", str(work / "a.csv")],
                    "no sandbox": base + ["--out", str(work / "b.csv"),
                                          "--unsafe-no-sandbox"]}
        if args.otter:
            variants["otter (previous runner)"] = [sys.executable, "-c", OTTER, str(subs),
                                                   autograder, str(args.jobs)]
        best = {name: float("inf") for name in variants}
        for _ in range(args.repeats):
            for name, cmd in variants.items():
                best[name] = min(best[name], _timed(cmd, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    start = sandbox_start(args.starts)
    print(f"\nload average before: {_load()}")
    print(f"| runner (set 1, {args.n} submissions, {args.jobs} jobs, min of {args.repeats}) "
          "| s / submission | 200 students [min] | vs. no sandbox |")
    print("|---|---|---|---|")
    ref = best["no sandbox"] / args.n
    for name, seconds in best.items():
        per = seconds / args.n
        print(f"| {name} | {per:.2f} | {per * 200 / 60:.1f} | {per / ref:.2f} |")
    print(f"\n| starting `python -c pass` (median of {args.starts}) | ms |\n|---|---|")
    for name, seconds in start.items():
        print(f"| {name} | {seconds * 1000:.0f} |")
    cost = (start["sandbox"] - start["no sandbox"]) * 1000
    print(f"| sandbox overhead per submission | {cost:.0f} |")


def hostile_class(args: argparse.Namespace, env: dict[str, str]) -> bool:
    """Grade a class with hostile submissions; True if within 5 minutes and complete."""
    import test_grading_redteam as redteam

    work = Path(tempfile.mkdtemp(prefix="bench-class-"))
    try:
        dist = _build(work, list(redteam.SETS), env)
        books = redteam._notebooks(dist)
        subs = work / "subs"
        subs.mkdir()
        kinds = _attacks(redteam)
        n_hostile = round(args.students * args.hostile)
        controls, hostile = [], []
        for i in range(args.students):
            short = "01" if i % 2 == 0 else "03"
            sid = f"s{i:03d}"
            if i % round(1 / args.hostile) == 0 and len(hostile) < n_hostile:
                kind = kinds[len(hostile) % len(kinds)]
                hostile.append(kind(subs, sid, short, books, redteam) or sid)
            else:
                (subs / f"{sid}.ipynb").write_text(json.dumps(books[f"solution-{short}"]))
                controls.append(sid)
        out = work / "grades.csv"
        report = work / "grades.json"
        cmd = [sys.executable, str(EXERCISES / "grade.py"), str(subs), "--dist", str(dist),
               "--out", str(out), "--json", str(report), "--jobs", str(args.jobs)]
        print(f"\nload average before: {_load()}")
        import resource

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = _timed(cmd, env, ok=(0, 1))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"load average after: {_load()}")
        with open(out, newline="", encoding="utf-8") as handle:
            book = {r["student_id"]: r for r in csv.DictReader(handle)}
        rows = {r["student_id"]: r for r in json.loads(report.read_text())}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    import grade

    expected = set(controls) | set(hostile)
    complete = set(rows) == expected and set(book) == {grade.csv_cell(s) for s in expected}
    full = all(rows[s]["status"] == "ok" and rows[s]["total"] == 11.0 for s in controls)
    statuses: dict[str, int] = {}
    for sid in hostile:
        statuses[rows[sid]["status"]] = statuses.get(rows[sid]["status"], 0) + 1
    slow = sorted(((rows[s].get("seconds") or 0, (rows[s].get("resources") or {}).get(
        "cpu_seconds") or 0, s) for s in rows), reverse=True)[:5]
    print(f"| class ({args.students} submissions, {len(hostile)} hostile, {args.jobs} jobs, "
          "default limits) | value |\n|---|---|")
    print(f"| wall time | {seconds:.0f} s ({seconds / 60:.1f} min) |")
    sandboxes = sum((r.get("resources") or {}).get("cpu_seconds") or 0 for r in _all(rows))
    print(f"| CPU time: sandboxes (their cgroups) + grader | {sandboxes:.0f} s + {cpu:.0f} s "
          f"= {sandboxes + cpu:.0f} s; on 2 idle cores at least {(sandboxes + cpu) / 2:.0f} s |")
    print(f"| every submission has its row (CSV and JSON) | {complete} |")
    print(f"| every correct submission 11 / 11 | {full} |")
    print(f"| hostile rows by status | {statuses} |")
    print(f"| slowest rows: wall (CPU) [s] | "
          f"{', '.join(f'{s}: {t:g} ({c:.1f})' for t, c, s in slow)} |")
    return complete and full and seconds < 300


def _all(rows: dict) -> list[dict]:
    """Every graded file's row (a duplicate row holds one per file)."""
    return [part for r in rows.values() for part in (r.get("files") or [r])]


def _attacks(redteam) -> list:
    """Writers of one hostile submission each: every attack of the red team, in turn.

    A writer returns the student id its row will have when that is not the one given."""

    def notebook(code: str, base: str, fill: bool = False):
        def write(subs: Path, sid: str, short: str, books: dict, rt) -> None:
            text = code.format(canary="/nonexistent", repo=ROOT, port=9, stem=short) \
                if fill else code
            nb = books[f"{'solution' if base == 'solution' else 'blank'}-{short}"]
            (subs / f"{sid}.ipynb").write_text(rt._with(nb, text))
        return write

    def link(target: str):
        def write(subs, sid, short, books, rt):
            os.symlink(target, subs / f"{sid}.ipynb")
        return write

    def raw(suffix: str, data: bytes):
        def write(subs, sid, short, books, rt):
            (subs / f"{sid}{suffix}").write_bytes(data)
        return write

    def duplicate(subs, sid, short, books, rt):
        (subs / f"{sid}.ipynb").write_text(json.dumps(books[f"solution-{short}"]))
        (subs / f"{sid}.zip").write_bytes(rt._zip({"a.ipynb": json.dumps(
            books[f"blank-{short}"]).encode()}))

    def formula(subs, sid, short, books, rt):
        (subs / f"={sid}+1.ipynb").write_text(json.dumps(books[f"solution-{short}"]))
        return f"={sid}+1"

    def escape(subs, sid, short, books, rt):
        (subs / f"\x1b]0;{sid}\x07.ipynb").write_text(json.dumps(books[f"solution-{short}"]))
        import grade

        return grade.clean(f"\x1b]0;{sid}\x07")

    inner = redteam._zip({"a.ipynb": b"{}"})
    kinds = [notebook(code, base, fill=True) for _, base, code, _ in redteam.ATTACKS]
    kinds += [notebook(code, base) for _, base, code, _, _ in redteam.HOSTILE]
    kinds += [notebook(code, "solution") for _, code, _ in redteam.RESOURCE]
    kinds += [link("/proc/kmsg"), link("/etc/passwd"), duplicate, formula, escape,
              raw(".ipynb", b'{"cells": [], "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
              raw(".zip", redteam._patched_zip(inner, flags=1)),
              raw(".zip", redteam._patched_zip(inner, method=9)),
              raw(".zip", redteam._zip({"a.ipynb": b" " * 49_000_000}))]
    return kinds


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["overhead", "class", "all"], default="all")
    parser.add_argument("-n", type=int, default=10, help="submissions for overhead (10)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel jobs (default 2)")
    parser.add_argument("--repeats", type=int, default=2, help="repeats (default 2)")
    parser.add_argument("--starts", type=int, default=20, help="sandbox starts timed (20)")
    parser.add_argument("--otter", action="store_true", help="also time otter's runner")
    parser.add_argument("--students", type=int, default=200, help="class size (200)")
    parser.add_argument("--hostile", type=float, default=0.2,
                        help="fraction of hostile submissions (0.2)")
    args = parser.parse_args(argv)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    ok = True
    if args.part in ("overhead", "all"):
        overhead(args, env)
    if args.part in ("class", "all"):
        ok = hostile_class(args, env)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
