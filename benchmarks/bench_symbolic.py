"""Symbolic derivation of the two-link model, and the cost of ``import bmc``."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
from _harness import Case, Goal, Row, add_ratios, measure, row, run_subprocess_time

import bmc

IMPORT_RUNS = 7
HEAVY = ("scipy", "sympy", "matplotlib", "ipywidgets", "pooch")


def _numeric(derivation, chain):
    """Lambdify the derivation's torques with the chain's parameters, no endpoint force."""
    from bmc.symbolic import broadcast_lambdify

    values = derivation.parameters(chain.lengths, chain.com, chain.masses, chain.inertias,
                                   g=chain.g)
    values.update(dict.fromkeys(derivation.F, 0.0))
    tau = derivation.tau.subs(values)
    return broadcast_lambdify([*derivation.q, *derivation.qd, *derivation.qdd], tau)


def run_symbolic(*, quick: bool) -> Case:
    from sympy.core.cache import clear_cache

    import bmc.symbolic as sym

    case = Case(
        "symbolic", "Symbolic two-link model (SymPy)",
        "Deriving the two-link arm's equations of motion, simplifying them into M, C, G, E "
        "and lambdifying the torques (SymPy's cache cleared before every repeat), then "
        "evaluating the lambdified torques against `PlanarChain`.",
    )
    chain = bmc.PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])

    def fresh(fn):
        def call():
            clear_cache()
            return fn()
        return call

    variants = {
        "bmc `symbolic.two_link()` + `broadcast_lambdify`":
            fresh(lambda: _numeric(sym.two_link(), chain)),
        "bmc `symbolic.two_link()` (derive and simplify)": fresh(sym.two_link),
        "`lagrange_equations(2)` (sympy.physics.mechanics) + `broadcast_lambdify`":
            fresh(lambda: _numeric(sym.lagrange_equations(2), chain)),
    }
    times = measure(variants, repeats=2 if quick else 3, warmup=False)
    for name, timing in times.items():
        subject = name.startswith("bmc") and name.endswith("`broadcast_lambdify`")
        case.rows.append(row("2 links", name, timing, subject=subject))

    n = 100_000
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.uniform(-3, 3, (n, 2)) for _ in range(3))
    f = _numeric(sym.two_link(), chain)
    diff = np.abs(f(*q.T, *qd.T, *qdd.T) - chain.inverse_dynamics(q, qd, qdd)).max()
    if diff > 1e-9:
        raise AssertionError(f"lambdified two-link torques disagree with PlanarChain: {diff}")
    evals = measure({
        "bmc `PlanarChain.inverse_dynamics`": lambda: chain.inverse_dynamics(q, qd, qdd),
        "lambdified `two_link().tau`": lambda: f(*q.T, *qd.T, *qdd.T),
    }, repeats=5)
    for name, timing in evals.items():
        case.rows.append(row("1e5 frames", name, timing, subject=name.startswith("bmc"),
                             note="" if name.startswith("bmc") else f"agrees to {diff:.0e} N m"))
    add_ratios(case.rows)
    return case


def run_import(*, quick: bool) -> Case:
    case = Case(
        "import", "`import bmc`",
        f"Import time in a fresh interpreter (median of {IMPORT_RUNS} runs, timed inside the "
        "interpreter, start-up excluded), against the libraries bmc loads only on demand.",
    )
    env = dict(os.environ)
    # Time what an installed course loads: compiled bytecode. With PYTHONDONTWRITEBYTECODE
    # set and no __pycache__, every run would compile bmc's sources and time the compiler.
    import compileall

    compileall.compile_dir(str(Path(bmc.__file__).parent), quiet=1)
    timer = ("import time; t0, c0 = time.perf_counter(), time.process_time(); {}; "
             "print(time.perf_counter() - t0, time.process_time() - c0)")
    statements = {
        "`import bmc`": "import bmc",
        "`import numpy` (what bmc imports)": "import numpy",
        "`import bmc; bmc.PlanarChain` (loads `bmc.chain`)": "import bmc; bmc.PlanarChain",
        "`import scipy.integrate`": "import scipy.integrate",
        "`import sympy`": "import sympy",
        "`import matplotlib.pyplot`": "import matplotlib.pyplot",
    }
    runs = 3 if quick else IMPORT_RUNS
    times: dict[str, list[float]] = {name: [] for name in statements}
    cpus: dict[str, list[float]] = {name: [] for name in statements}
    for _ in range(runs):  # interleaved, like every other case
        for name, stmt in statements.items():
            wall, cpu = run_subprocess_time(timer.format(stmt), env=env)
            times[name].append(wall)
            cpus[name].append(cpu)
    for name, ts in times.items():
        case.rows.append(Row("fresh process", name, min(ts), statistics.median(ts),
                             subject=name == "`import bmc`", cpu=min(cpus[name]),
                             note=f"CPU median {statistics.median(cpus[name]) * 1e3:.0f} ms"))
    add_ratios(case.rows)
    # Which heavy libraries does `import bmc` pull in? None, by design.
    probe = (f"import sys, bmc; heavy = [m for m in {HEAVY!r} if m in sys.modules]; "
             "print(len(heavy)); sys.stderr.write(repr(heavy))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=env, check=True)
    loaded = out.stderr.strip()
    median = statistics.median(times["`import bmc`"])
    case.goals.append(Goal("`import bmc` under 300 ms (issue 2)",
                           f"{median * 1e3:.0f} ms (median wall time)", median < 0.3))
    case.goals.append(Goal("`import bmc` loads none of " + ", ".join(HEAVY),
                           f"loaded: {loaded}", loaded == "[]"))
    return case
