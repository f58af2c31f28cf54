"""Run the bmc benchmarks and write the results table.

Usage (from the repository root)::

    python benchmarks/run.py              # every case, ~5 min; writes benchmarks/results.md
    python benchmarks/run.py --readme     # the same, and updates README.md's performance block
    python benchmarks/run.py --quick      # smaller sizes and no notebooks, ~1 min
    python benchmarks/run.py --only pendulum symbolic    # some cases (results.md keeps the rest)
    python benchmarks/run.py --report-only --readme      # rewrite the Markdown from results.json

Each case prints its rows with the ratio to the bmc subject measured in the same run.
"""

from __future__ import annotations

import os

# One BLAS thread, as in CI and on a student's two-core machine; set before NumPy loads.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402

import _harness as h  # noqa: E402

HERE = Path(__file__).resolve().parent
CASES = ("inverse_dynamics", "invdyn2d", "pendulum", "least_squares", "reactions",
         "symbolic", "import", "notebooks")


def _runner(key: str):
    """Import the case lazily, so that ``--only`` does not pay for the others."""
    if key == "inverse_dynamics":
        from bench_inverse_dynamics import run_chain
        return run_chain
    if key == "invdyn2d":
        from bench_inverse_dynamics import run_invdyn2d
        return run_invdyn2d
    if key == "pendulum":
        from bench_pendulum import run
        return run
    if key == "least_squares":
        from bench_least_squares import run
        return run
    if key == "reactions":
        from bench_reactions import run
        return run
    if key == "symbolic":
        from bench_symbolic import run_symbolic
        return run_symbolic
    if key == "import":
        from bench_symbolic import run_import
        return run_import
    if key == "notebooks":
        from bench_notebooks import run
        return run
    raise ValueError(key)


def _print_case(case: h.Case) -> None:
    print(f"\n== {case.title}  ({case.seconds:.0f} s)")
    width = max((len(r.variant) for r in case.rows), default=10)
    for r in case.rows:
        ratio = f"{r.ratio:8.3g}x" if r.ratio is not None else " " * 9
        star = "*" if r.subject else " "
        print(f"  {r.size:>12} {star}{r.variant:<{width}} CPU {r.cpu:9.4g} s  wall best "
              f"{r.best:9.4g} s  median {r.median:9.4g} s {ratio}  {r.note}")
    for g in case.goals:
        status = {True: "MET", False: "NOT MET", None: "not measured"}[g.passed]
        print(f"  goal: {g.text}: {g.measured} -> {status}")
    for note in case.notes:
        print(f"  note: {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true",
                        help="also replace the block between the benchmark markers in README.md")
    parser.add_argument("--quick", action="store_true",
                        help="smaller problem sizes, notebooks skipped (a smoke run)")
    parser.add_argument("--only", nargs="+", choices=CASES, metavar="CASE",
                        help=f"run only these cases: {', '.join(CASES)}")
    parser.add_argument("--skip", nargs="+", choices=CASES, metavar="CASE", default=[],
                        help="skip these cases")
    parser.add_argument("--report-only", action="store_true",
                        help="do not run anything: rebuild the Markdown from results.json")
    parser.add_argument("--readme-path", type=Path, default=h.ROOT / "README.md",
                        help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=HERE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    readme = args.readme_path
    if args.readme:  # fail before a five-minute run, not after it
        h.check_markers(readme.read_text(), readme)

    json_path = args.out / "results.json"
    if args.report_only:
        if not json_path.exists():
            raise SystemExit(f"{json_path} does not exist: run the benchmarks first "
                             "(python benchmarks/run.py)")
        cases, info, command = h.load_json(json_path)
    else:
        keys = list(args.only or CASES)
        if args.quick and not args.only:
            keys.remove("notebooks")
        keys = [k for k in keys if k not in args.skip]
        command = "python benchmarks/run.py" + (" --quick" if args.quick else "")
        info = h.machine()
        print("bmc benchmarks:", ", ".join(f"{k} {v}" for k, v in info.items()))
        fresh = []
        for key in keys:
            start = time.perf_counter()
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            try:
                case = _runner(key)(quick=args.quick)
            except Exception as exc:  # one broken case must not lose the others
                traceback.print_exc()
                case = h.Case(key, key, "The case failed before it could report.",
                              goals=[h.Goal("the case runs", f"{type(exc).__name__}: {exc}",
                                            False)])
            case.load = load
            case.seconds = time.perf_counter() - start
            case.date = time.strftime("%Y-%m-%d %H:%M")
            _print_case(case)
            fresh.append(case)
        cases = fresh
        if args.only and json_path.exists():  # keep the other cases of the last full run
            old, _, _ = h.load_json(json_path)
            by_key = {c.key: c for c in old}
            by_key.update({c.key: c for c in fresh})
            cases = [by_key[k] for k in CASES if k in by_key]
        h.save_json(cases, info, command, json_path)

    md = h.results_markdown(cases, info, command)
    (args.out / "results.md").write_text(md)
    print(f"\nwrote {args.out / 'results.md'}")
    if args.readme:
        text = readme.read_text()
        readme.write_text(h.replace_block(text, h.readme_block(cases, info, command), readme))
        print(f"updated the benchmark block of {readme}")
    failed = [g.text for c in cases for g in c.goals if g.passed is False]
    if failed:
        print(f"{len(failed)} goal(s) not met: " + "; ".join(failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
