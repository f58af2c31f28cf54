"""Execution time of every teaching notebook under nbval, as CI runs it.

Each notebook runs once, in its own ``python -m pytest notebooks/NN_name.ipynb`` process
(pyproject's addopts add ``--nbval``), so the time includes the kernel start: it is the
notebook's share of the CI budget. Besides the wall time, the CPU time (user + system) of
the process tree is recorded: on a shared, loaded machine the wall time grows with the
load, the CPU time much less, so the budget is judged on the CPU time.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from _harness import ROOT, Case, Goal, Row

BUDGET = 45.0  # seconds per notebook under nbval (working rules)


def run(*, quick: bool) -> Case:
    case = Case(
        "notebooks", "Notebooks under nbval",
        "Wall time of `python -m pytest notebooks/NN_name.ipynb -p no:randomly` per notebook "
        "(one run each, kernel start included), and whether it passed.",
    )
    env = dict(os.environ)
    data = ROOT.parent / "shared" / "data" / "isb-running"
    if "BMC_DATA_DIR" not in env and data.is_dir():  # as CI does
        env["BMC_DATA_DIR"] = str(data)
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    total = total_cpu = 0.0
    slowest = (0.0, "")
    failed = []
    for nb in notebooks:
        rel = nb.relative_to(ROOT)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", str(rel), "-p", "no:randomly", "-q"],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        total += elapsed
        total_cpu += cpu
        slowest = max(slowest, (cpu, nb.stem))
        tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        ok = proc.returncode == 0
        if not ok:
            failed.append(nb.stem)
        status = "passed" if ok else f"**failed**: {tail}"
        case.rows.append(Row("1 run", f"`{rel.as_posix()}`", elapsed, elapsed, cpu=cpu,
                             note=status))
    case.rows.append(Row("1 run", "all notebooks", total, total, cpu=total_cpu,
                         note=f"{len(notebooks)} notebook(s)"))
    case.goals.append(Goal(f"every notebook under {BUDGET:g} s under nbval (CPU time)",
                           f"slowest {slowest[1]}: {slowest[0]:.0f} s", slowest[0] < BUDGET))
    case.goals.append(Goal("every notebook passes nbval",
                           "all passed" if not failed else "failed: " + ", ".join(failed),
                           not failed))
    return case
