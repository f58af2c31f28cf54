"""Double pendulum of the matrix-formalism notebook, 20 s simulated.

The source integrates with explicit Euler at dt = 1e-4 s, building NumPy arrays and
inverting the mass matrix at every one of its 200,000 steps. bmc integrates with DOP853
(``bmc.simulate.simulate``, rtol 1e-10, atol 1e-12). The case times both, the two Euler
variants bmc keeps for teaching, and the ``PlanarChain`` route, and reports each one's
energy drift, ``max |E(t) - E(0)| / |E(0)|``.
"""

from __future__ import annotations

import numpy as np
from _harness import Case, Goal, add_ratios, measure, row

import bmc

T_END = 20.0   # simulated time [s]
DT = 1e-4      # the source's Euler step [s]
# The source's initial state: theta1, theta2 [rad], omega1, omega2 [rad/s].
Y0 = np.array([np.pi / 10, np.pi / 3, 2 * np.pi, -6 * np.pi])


def euler_numpy_per_step(pend, y0, t_end: float, dt: float) -> np.ndarray:
    """Explicit Euler structured as the source's loop: arrays and ``inv(M)`` every step.

    The source's state order is ``(omega1, omega2, theta1, theta2)``; its gravity term has
    ``l2`` where ``l1`` belongs, corrected here (the cost is the same). Returns the states
    (steps + 1, 4) in bmc's order ``(theta1, theta2, omega1, omega2)``.
    """
    a, b, c, g1, g2 = pend.coefficients
    steps = int(round(t_end / dt))
    state = np.zeros((4, steps + 1))
    state[:, 0] = y0[2], y0[3], y0[0], y0[1]
    for i in range(1, steps + 1):
        w1, w2, th1, th2 = state[:, i - 1]
        diff = th1 - th2
        mass = np.array([[a, b * np.cos(diff)], [b * np.cos(diff), c]])
        centripetal = np.array([[-b * np.sin(diff) * w2**2], [b * np.sin(diff) * w1**2]])
        gravity = np.array([[-g1 * np.sin(th1)], [-g2 * np.sin(th2)]])
        rates = np.vstack((np.linalg.inv(mass) @ (centripetal + gravity),
                           state[0:2, [i - 1]]))
        state[:, [i]] = state[:, [i - 1]] + dt * rates
    return state[[2, 3, 0, 1]].T


def _drift(pend, y: np.ndarray) -> float:
    energy = pend.energy(y[:, :2], y[:, 2:])
    return float(np.abs(energy - energy[0]).max() / abs(energy[0]))


def run(*, quick: bool) -> Case:
    case = Case(
        "pendulum", "Double pendulum, 20 s simulated",
        "The double pendulum of the matrix-formalism notebook (source parameters and initial "
        "state), 20 s of motion; energy drift = max |E(t) - E(0)| / |E(0)|.",
    )
    pend = bmc.models.double_pendulum.DoublePendulum()
    t_eval = np.linspace(0.0, T_END, 2001)
    chain = pend.to_chain()
    q0 = pend.to_chain_coordinates(Y0[:2])
    qd0 = np.array([Y0[2], Y0[3] - Y0[2]])

    # Agreement: the source-style loop and bmc's fast Euler take the same steps.
    short = euler_numpy_per_step(pend, Y0, 0.1, DT)
    _, fast = bmc.models.double_pendulum.euler_double_pendulum(pend, Y0, 0.1, dt=DT)
    step_diff = np.abs(short - fast).max()
    if step_diff > 1e-9:
        raise AssertionError(f"the two Euler loops differ by {step_diff}")

    outputs: dict[str, np.ndarray] = {}

    def keep(name, fn):
        def call():
            outputs[name] = fn()
        return call

    variants = {
        "bmc `simulate.simulate` (DOP853, rtol 1e-10)": keep(
            "dop", lambda: bmc.simulate.simulate(pend.rhs, (0.0, T_END), Y0, t_eval=t_eval).y),
        "bmc `double_pendulum.euler_double_pendulum` (dt 1e-4)": keep(
            "fast", lambda: bmc.models.double_pendulum.euler_double_pendulum(
                pend, Y0, T_END, dt=DT, every=100)[1]),
    }
    slow = {  # seconds each: one run
        "bmc `simulate.simulate_chain` (PlanarChain, DOP853)": keep(
            "chain", lambda: bmc.simulate.simulate_chain(chain, t_eval, q0, qd0)),
        "bmc `simulate.euler` with `DoublePendulum.rhs` (dt 1e-4)": keep(
            "euler", lambda: bmc.simulate.euler(pend.rhs, (0.0, T_END), Y0, dt=DT,
                                                t_eval=t_eval).y),
    }
    t_src = T_END / 10  # the loop's cost per step is constant: 2 s of it, scaled x10
    scale = T_END / t_src
    src_name = "source-style Euler: arrays and `inv(M)` per step (dt 1e-4)"
    variants[src_name] = keep("src", lambda: euler_numpy_per_step(pend, Y0, t_src, DT))
    bmc.simulate.simulate(pend.rhs, (0.0, 0.1), Y0)  # warm up: SciPy's import, caches
    bmc.models.double_pendulum.euler_double_pendulum(pend, Y0, 0.1, dt=DT)
    times = measure(variants, repeats=3, warmup=False)
    times[src_name] = times[src_name].scaled(scale)
    times.update(measure(slow, repeats=1, warmup=False))

    chain_res = outputs["chain"]
    drifts_fast = _drift(pend, outputs["fast"])
    drifts = {
        "dop": _drift(pend, outputs["dop"]),
        "fast": _drift(pend, outputs["fast"]),
        "chain": float(np.abs(chain_res.energy - chain_res.energy[0]).max()
                       / abs(chain_res.energy[0])),
        "euler": _drift(pend, outputs["euler"]),
        "src": drifts_fast,
    }
    keys = dict(zip(list(variants) + list(slow), ["dop", "fast", "src", "chain", "euler"],
                    strict=True))
    for name, timing in times.items():
        note = f"energy drift {drifts[keys[name]]:.1e}"
        if name == src_name:
            note = (f"timed over {t_src:g} s, scaled x{scale:g}; energy drift over 20 s "
                    f"{drifts_fast:.1e} (the same steps as `euler_double_pendulum`)")
        case.rows.append(row("20 s", name, timing, note=note,
                             subject=name.startswith("bmc `simulate.simulate`")))
    add_ratios(case.rows)
    by = {r.variant: r for r in case.rows}
    speedup = by[src_name].ratio
    case.goals.append(Goal("DOP853 at least 10x faster than the source's Euler",
                           f"{speedup:.0f}x", speedup >= 10))
    case.goals.append(Goal("DOP853 energy drift below 1e-8", f"{drifts['dop']:.1e}",
                           drifts["dop"] < 1e-8))
    case.notes.append(
        f"The source-style loop and `euler_double_pendulum` take the same steps (states agree "
        f"to {step_diff:.0e} after 0.1 s); the source's gravity misprint is corrected in both."
    )
    return case
