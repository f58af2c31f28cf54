"""Seconds per submission: the sandboxed grader against unsandboxed runs (standalone).

Usage (from the repository root)::

    python benchmarks/bench_grading.py            # 10 submissions of set 1, 2 jobs
    python benchmarks/bench_grading.py -n 20 --jobs 2 --set 03_matrix_formalism

Builds one exercise set, writes ``n`` correct submissions (different student ids, so each
has its own data) and grades them three ways, interleaved and repeated ``--repeats`` times
(the minimum is kept, the machine is shared):

- ``sandbox``: ``exercises/grade.py`` as an instructor runs it (bubblewrap, limits);
- ``no sandbox``: the same pipeline with ``--unsafe-no-sandbox`` (the sandbox's cost is
  the difference);
- ``otter``: the previous runner, ``otter.api.grade_submission`` per notebook in a Jupyter
  kernel, in ``--jobs`` worker processes.

Prints seconds per submission (wall time / n, with ``--jobs`` in parallel) and the
extrapolated time of a 200-student set.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"

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


def _timed(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{cmd[1]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10, help="submissions (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel jobs (default 2)")
    parser.add_argument("--repeats", type=int, default=2, help="repeats (default 2)")
    parser.add_argument("--set", default="01_one_link", help="exercise set")
    parser.add_argument("--no-otter", action="store_true", help="skip the otter runner")
    args = parser.parse_args(argv)

    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    work = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    try:
        dist = work / "dist"
        subprocess.run([sys.executable, str(EXERCISES / "build.py"), args.set, "--out",
                        str(dist), "--no-run-tests"], check=True, capture_output=True,
                       env=env)
        solution = json.loads((dist / args.set / "autograder" / f"{args.set}.ipynb")
                              .read_text())
        subs = work / "subs"
        subs.mkdir()
        for i in range(args.n):
            (subs / f"student{i:03d}.ipynb").write_text(json.dumps(solution))
        autograder = str(dist / args.set / f"{args.set}-autograder.zip")
        base = [sys.executable, str(EXERCISES / "grade.py"), str(subs), "--autograder",
                autograder, "--jobs", str(args.jobs), "--restart"]
        variants = {
            "sandbox": base + ["--out", str(work / "a.csv")],
            "no sandbox": base + ["--out", str(work / "b.csv"), "--unsafe-no-sandbox"],
        }
        if not args.no_otter:
            variants["otter (previous runner)"] = [sys.executable, "-c", OTTER, str(subs),
                                                   autograder, str(args.jobs)]
        best = {name: float("inf") for name in variants}
        for _ in range(args.repeats):
            for name, cmd in variants.items():
                best[name] = min(best[name], _timed(cmd, env))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"| runner ({args.set}, {args.n} submissions, {args.jobs} jobs, min of "
          f"{args.repeats}) | s / submission | 200 students [min] | vs. no sandbox |")
    print("|---|---|---|---|")
    ref = best["no sandbox"] / args.n
    for name, seconds in best.items():
        per = seconds / args.n
        print(f"| {name} | {per:.2f} | {per * 200 / 60:.1f} | {per / ref:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
