"""The long fuzzing run: many hostile and valid calls of every public callable (issue 34).

The CI suite (``tests/fuzz``) stops at the first failure of a callable and runs a few
examples each; this run goes on after a failure and lists every *distinct* one (the
callable, the kind, the exception or problem, where it was raised), so that a survey of
the whole API takes one command::

    python benchmarks/fuzz.py                      # 200 examples per callable and mode
    python benchmarks/fuzz.py --examples 2000      # a night's run
    python benchmarks/fuzz.py --only bmc.kinematics bmc.signals.lowpass
    python benchmarks/fuzz.py --json fuzz.json --markdown benchmarks/results_fuzz.md

Kinds: generic error (an exception other than ValueError/TypeError), wrong argument named
(a refusal that does not name the argument or what arrived), silent (NaN, inf, a wrong
shape or a warning), false refusal (a valid call refused), unbounded cost (over the CPU
or memory budget of ``tests/fuzz/harness.py``). The exit status is 1 when anything failed.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MPLBACKEND", "Agg")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
if "BMC_DATA_DIR" not in os.environ and (ROOT.parent / "shared/data/isb-running").is_dir():
    os.environ["BMC_DATA_DIR"] = str(ROOT.parent / "shared/data/isb-running")


def survey(names: list[str], examples: int, seed: int, modes: tuple[str, ...]) -> dict:
    import tempfile

    from harness import KINDS, REGISTRY, calls, outcome
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed
    from hypothesis.configuration import set_hypothesis_home_dir

    # Hypothesis' caches outside the repository (as tests/fuzz/conftest.py does)
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "bmc-hypothesis")

    found: dict[tuple, dict] = {}
    tried = Counter()
    timing: dict[str, float] = {}
    for name in names:
        spec = REGISTRY[name]
        start = time.perf_counter()
        for mode in modes:
            @fix_seed(seed)
            @settings(max_examples=examples, database=None, deadline=None,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))
            @given(call=calls(spec, hostile=mode == "hostile"))
            def run(call):
                tried[call.hostile is not None and "hostile" or "valid"] += 1
                failure = outcome(call)
                if failure is not None:
                    key = failure.key()
                    entry = found.setdefault(key, {"callable": name,  # noqa: B023 (run now)
                                                   "kind": failure.kind,
                                                   "what": failure.what,
                                                   "where": failure.where,
                                                   "mode": "hostile" if call.hostile else "valid",
                                                   "count": 0, "example": str(failure)})
                    entry["count"] += 1

            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    run()
            except Exception as exc:  # noqa: BLE001 - a strategy that cannot draw
                key = (name, "strategy", type(exc).__name__, mode)
                found[key] = {"callable": name, "kind": "strategy", "what": type(exc).__name__,
                              "where": "", "mode": mode, "count": 1,
                              "example": f"the strategy failed: {exc}"[:600]}
        timing[name] = time.perf_counter() - start
        bad = sum(1 for f in found.values() if f["callable"] == name)
        print(f"{name:<70} {timing[name]:6.1f} s  {bad} distinct failure(s)", flush=True)
    by_kind = Counter(f["kind"] for f in found.values())
    return {"examples": examples, "seed": seed, "tried": dict(tried),
            "callables": len(names), "by_kind": {k: by_kind.get(k, 0) for k in
                                                 (*KINDS, "strategy")},
            "failures": sorted(found.values(), key=lambda f: (f["kind"], f["callable"])),
            "seconds": timing}


def markdown(result: dict) -> str:
    lines = [f"Fuzzing survey: {result['callables']} callables, {result['examples']} examples "
             f"per callable and mode (seed {result['seed']}); calls tried: "
             f"{result['tried']}.", "", "| kind | distinct failures |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in result["by_kind"].items()]
    lines += ["", "| kind | callable | what | where | mode | count |", "|---|---|---|---|---|---|"]
    for f in result["failures"]:
        lines.append(f"| {f['kind']} | `{f['callable']}` | {f['what']} | {f['where']} | "
                     f"{f['mode']} | {f['count']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--only", nargs="*", default=(), help="name prefixes")
    parser.add_argument("--mode", choices=("valid", "hostile", "both"), default="both")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--details", action="store_true", help="print every failure")
    args = parser.parse_args(argv)

    import specs  # noqa: F401  (registers every strategy)
    from harness import REGISTRY

    names = sorted(n for n in REGISTRY if not args.only or any(n.startswith(p)
                                                               for p in args.only))
    modes = ("valid", "hostile") if args.mode == "both" else (args.mode,)
    load = os.getloadavg()
    start = time.perf_counter()
    result = survey(names, args.examples, args.seed, modes)
    result["wall_seconds"] = time.perf_counter() - start
    result["load_average"] = load
    print(f"\n{len(result['failures'])} distinct failure(s) in {result['wall_seconds']:.0f} s "
          f"(load average {load[0]:.1f}): {result['by_kind']}")
    if args.details:
        for f in result["failures"]:
            print(f"\n- {f['example']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    if args.markdown:
        args.markdown.write_text(markdown(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
