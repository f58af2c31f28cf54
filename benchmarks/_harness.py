"""Timing, memory and reporting helpers shared by the benchmark cases (private).

Every case times its variants *interleaved* (repeat 1 of every variant, then repeat 2, ...),
so that a change in the load of a shared machine hits all of them alike; it keeps the
minimum (the least disturbed run) and the median of the repeats, and reports each variant's
time as a ratio to the case's subject measured in the same run.
"""

from __future__ import annotations

import gc
import json
import math
import os
import platform
import re
import subprocess
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- benchmarks:start -->"
END = "<!-- benchmarks:end -->"


class Timing(NamedTuple):
    """Wall-clock minimum and median, and CPU-time minimum, of the repeats [s]."""

    best: float
    median: float
    cpu: float

    def scaled(self, factor: float) -> Timing:
        """The timing of ``factor`` times the work (a loop measured on fewer frames)."""
        return Timing(self.best * factor, self.median * factor, self.cpu * factor)


@dataclass
class Row:
    """One timed variant of a case at one problem size."""

    size: str                  # problem size as shown, e.g. "1e6 frames"
    variant: str               # what was timed
    best: float                # minimum wall-clock time over the repeats [s]
    median: float              # median wall-clock time over the repeats [s]
    ratio: float | None = None  # cpu / cpu of the subject at the same size
    note: str = ""             # how it was measured (extrapolated, agreement, ...)
    subject: bool = False      # the bmc code the case is about
    cpu: float = float("nan")  # minimum CPU time (process_time) over the repeats [s]


def row(size: str, variant: str, timing: Timing, *, note: str = "",
        subject: bool = False) -> Row:
    """A :class:`Row` from a :class:`Timing`."""
    return Row(size, variant, timing.best, timing.median, note=note, subject=subject,
               cpu=timing.cpu)


@dataclass
class Goal:
    """A target of issue 10 and whether this run meets it."""

    text: str                  # the goal, e.g. "within 4x of the bandwidth floor"
    measured: str              # the figure, e.g. "19.3x"
    passed: bool | None        # None: not measured (dependency missing)


@dataclass
class Case:
    """The result of one benchmark case."""

    key: str
    title: str
    what: str                  # one sentence: what is measured
    rows: list[Row] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0       # wall time the case took to run [s]
    date: str = ""             # when it ran
    load: float = float("nan")  # 1-minute load average when it started


def fmt_size(n: int) -> str:
    """Return ``1e6`` for 1000000, ``2e5`` for 200000, else the integer."""
    exp = int(math.floor(math.log10(n))) if n > 0 else 0
    mant = n / 10**exp
    return f"{mant:g}e{exp}" if mant == int(mant) and exp >= 3 else str(n)


def measure(
    variants: dict[str, Callable[[], object]],
    *,
    repeats: int,
    warmup: bool = True,
) -> dict[str, Timing]:
    """Time each callable ``repeats`` times, interleaved; return a :class:`Timing` each.

    Both clocks run: ``perf_counter`` (wall) and ``process_time`` (CPU time of this
    process, all threads). On a loaded machine the wall time includes the time the process
    waits for a core; the CPU time does not, so the ratios use the CPU time. The garbage
    collector is off while a callable runs (as in :mod:`timeit`).
    """
    if warmup:
        for fn in variants.values():
            fn()
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeats):
        for name, fn in variants.items():
            gc.collect()
            gc.disable()
            try:
                c0, t0 = time.process_time(), time.perf_counter()
                fn()
                t1, c1 = time.perf_counter(), time.process_time()
            finally:
                gc.enable()
            wall[name].append(t1 - t0)
            cpu[name].append(c1 - c0)
    return {name: Timing(min(wall[name]), _median(wall[name]), min(cpu[name]))
            for name in variants}


def _median(values: Sequence[float]) -> float:
    s = sorted(values)
    k = len(s) // 2
    return s[k] if len(s) % 2 else 0.5 * (s[k - 1] + s[k])


def peak_memory(fn: Callable[[], object]) -> int:
    """Peak bytes allocated while ``fn`` runs (tracemalloc; NumPy reports its buffers)."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return peak - base


def cost(r: Row) -> float:
    """The time a ratio uses: CPU time when measured, else the best wall time."""
    return r.cpu if math.isfinite(r.cpu) else r.best


def add_ratios(rows: list[Row]) -> None:
    """Fill ``ratio`` = cost / cost of the subject row of the same size (first subject)."""
    subjects: dict[str, float] = {}
    for r in rows:
        if r.subject and r.size not in subjects:
            subjects[r.size] = cost(r)
    for r in rows:
        ref = subjects.get(r.size)
        r.ratio = cost(r) / ref if ref else None


def run_subprocess_time(code: str, *, env: dict | None = None) -> tuple[float, float]:
    """Run ``python -c code`` in a fresh interpreter; ``code`` prints "wall cpu", returned."""
    import sys

    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


# ---------------------------------------------------------------------------- machine
def machine() -> dict[str, str]:
    """Date, CPU, cores and library versions, for the header of the results."""
    import numpy
    import scipy

    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    info = {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "load (1/5/15 min) at start": load,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
    }
    try:
        import pinocchio

        info["pin (Pinocchio)"] = pinocchio.__version__
    except ImportError:
        info["pin (Pinocchio)"] = "not installed"
    return info


# ---------------------------------------------------------------------------- Markdown
def _seconds(t: float) -> str:
    if not math.isfinite(t):
        return "–"
    if t >= 100:
        return f"{t:.0f} s"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} µs"


def _ratio(r: float | None) -> str:
    if r is None:
        return ""
    return f"{r:.3g}x" if r < 100 else f"{r:.0f}x"


def _status(passed: bool | None) -> str:
    return {True: "met", False: "**not met**", None: "not measured"}[passed]


def case_markdown(case: Case) -> str:
    """Full table of one case."""
    when = (f"Measured {case.date} in {case.seconds:.0f} s, load average {case.load:.1f} "
            f"on {os.cpu_count()} cores at the start.")
    lines = [f"### {case.title}", "", case.what, "", when, ""]
    lines += [
        "| size | variant | CPU | wall, best | wall, median | CPU / bmc | note |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in case.rows:
        name = f"**{r.variant}**" if r.subject else r.variant
        lines.append(
            f"| {r.size} | {name} | {_seconds(r.cpu)} | {_seconds(r.best)} | "
            f"{_seconds(r.median)} | {_ratio(r.ratio)} | {r.note} |"
        )
    if case.goals:
        lines += ["", "| goal | measured | status |", "|---|---|---|"]
        lines += [f"| {g.text} | {g.measured} | {_status(g.passed)} |" for g in case.goals]
    if case.notes:
        lines.append("")
        lines += [f"- {note}" for note in case.notes]
    return "\n".join(lines) + "\n"


def header_markdown(info: dict[str, str], command: str) -> str:
    """The machine line and the command that produced the results."""
    parts = ", ".join(f"{k} {v}" for k, v in info.items() if k != "date")
    return (
        f"Measured {info['date']} with `{command}` on {parts}. Times vary from run to run "
        "on a shared machine; the ratios, measured side by side in the same run, are what "
        "to compare. Variants run interleaved; CPU = minimum CPU time (`process_time`) over "
        "the repeats, from which the ratios are taken; wall = wall-clock minimum and "
        "median.\n"
    )


def results_markdown(cases: list[Case], info: dict[str, str], command: str) -> str:
    """The whole of ``benchmarks/results.md``."""
    out = ["# Benchmark results", "", header_markdown(info, command)]
    out += ["## Summary", "", headline_table(cases), "", "## Goals", "", goals_table(cases), ""]
    for case in cases:
        out += [case_markdown(case), ""]
    return "\n".join(out).rstrip() + "\n"


def goals_table(cases: list[Case]) -> str:
    """One line per goal of every case."""
    lines = ["| case | goal | measured | status |", "|---|---|---|---|"]
    for case in cases:
        for g in case.goals:
            lines.append(f"| {case.title} | {g.text} | {g.measured} | {_status(g.passed)} |")
    return "\n".join(lines)


def headline_table(cases: list[Case]) -> str:
    """One line per bmc subject at its largest size, with every alternative's ratio."""
    lines = ["| case | size | bmc | CPU time | alternatives (CPU time / bmc) |",
             "|---|---|---|---:|---|"]
    for case in cases:
        last = {r.variant: r for r in case.rows if r.subject}  # each subject, largest size
        for top in last.values():
            others = [r for r in case.rows if r.size == top.size and not r.subject]
            alts = "; ".join(f"{r.variant} {_ratio(r.ratio)}" for r in others)
            lines.append(f"| {case.title} | {top.size} | {top.variant} | "
                         f"{_seconds(cost(top))} | {alts} |")
    return "\n".join(lines)


def readme_block(cases: list[Case], info: dict[str, str], command: str) -> str:
    """The short summary that goes between the README markers."""
    return (
        f"{header_markdown(info, command)}\n{headline_table(cases)}\n\n{goals_table(cases)}"
        "\n\nFull tables, with every alternative and problem size: "
        "[`benchmarks/results.md`](benchmarks/results.md).\n"
    )


def check_markers(text: str, path: Path) -> None:
    """Raise ``SystemExit`` with a clear message unless ``text`` has the two markers once."""
    n_start, n_end = text.count(START), text.count(END)
    if n_start != 1 or n_end != 1 or text.index(START) > text.index(END):
        raise SystemExit(
            f"{path}: expected exactly one '{START}' followed by one '{END}' (the README's "
            f"performance section); found {n_start} start and {n_end} end marker(s). "
            "Add the two lines where the table belongs, then rerun with --readme."
        )


def replace_block(text: str, block: str, path: Path) -> str:
    """Return ``text`` with everything between the markers replaced by ``block``."""
    check_markers(text, path)
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)
    return pattern.sub(lambda _: f"{START}\n{block.rstrip()}\n{END}", text, count=1)


def save_json(cases: list[Case], info: dict[str, str], command: str, path: Path) -> None:
    """Store the raw results, so the Markdown can be rebuilt without rerunning."""
    payload = {"machine": info, "command": command, "cases": [asdict(c) for c in cases]}
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n")


def load_json(path: Path) -> tuple[list[Case], dict[str, str], str]:
    """Inverse of :func:`save_json`."""
    payload = json.loads(path.read_text())
    cases = []
    for c in payload["cases"]:
        rows = [Row(**r) for r in c.pop("rows")]
        goals = [Goal(**g) for g in c.pop("goals")]
        cases.append(Case(rows=rows, goals=goals, **c))
    return cases, payload["machine"], payload["command"]
