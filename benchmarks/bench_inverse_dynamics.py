"""Planar inverse dynamics of a 3-segment limb over 1e4 to 1e6 frames.

Two bmc routes to the same joint torques, each against its alternatives in the same run:

- ``PlanarChain.inverse_dynamics(q, qd, qdd)`` against a per-frame Python loop, Pinocchio's
  ``rnea`` (per frame and batched), the textbook matrix form ``M qdd + C + G`` built from
  the chain's own ``mass_matrix``, ``velocity_terms`` and ``gravity_terms`` (what the library
  computed before its blocked kernel) and the memory-bandwidth floor;
- the gait pipeline's recursion, ``bmc.invdyn2d`` segment by segment from the distal end
  (segment kinematics given, as ``lower_limb`` has them), against a per-frame loop and its
  own bandwidth floor.

Every alternative is first checked to give the same torques as ``PlanarChain``.
"""

from __future__ import annotations

import numpy as np
from _harness import Case, Goal, Timing, add_ratios, cost, fmt_size, measure, peak_memory, row

import bmc

G = 9.81         # [m/s^2], the same for every formulation compared
LOOP_N = 10_000  # frames timed for the per-frame loops, which are scaled to larger sizes
SEGMENTS = ("thigh", "shank", "foot")


def matrix_form(chain, q, qd, qdd) -> np.ndarray:
    """``M qdd + C + G`` with (N, n, n) mass matrices: an independent route to the torques."""
    return (np.einsum("...ij,...j->...i", chain.mass_matrix(q), qdd)
            + chain.velocity_terms(q, qd) + chain.gravity_terms(q))


def limb() -> bmc.PlanarChain:
    """Thigh, shank and foot of a 70 kg, 1.75 m subject (Dempster via Winter)."""
    segs = [
        bmc.anthropometry.segment(s, body_mass=70.0, height=1.75, table="dempster")
        for s in SEGMENTS
    ]
    return bmc.PlanarChain(
        [s.length for s in segs], [s.com for s in segs], [s.mass for s in segs],
        [s.inertia for s in segs], g=G,
    )


def states(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random joint angles [rad], rates [rad/s] and accelerations [rad/s^2], (n, 3)."""
    rng = np.random.default_rng(seed)
    return (rng.uniform(-np.pi, np.pi, (n, 3)), rng.uniform(-10, 10, (n, 3)),
            rng.uniform(-100, 100, (n, 3)))


# ------------------------------------------------------------------------- Pinocchio
def pinocchio_model(chain: bmc.PlanarChain):
    """The same chain as a Pinocchio model of revolute-z joints, or None if pin is absent."""
    try:
        import pinocchio as pin
    except ImportError:
        return None
    model = pin.Model()
    parent = 0
    lengths, com, masses, inertias = chain.lengths, chain.com, chain.masses, chain.inertias
    for i in range(chain.n):
        offset = np.array([lengths[i - 1] if i else 0.0, 0.0, 0.0])
        joint = model.addJoint(parent, pin.JointModelRZ(), pin.SE3(np.eye(3), offset),
                               f"joint{i}")
        # Only the z inertia matters in the plane; x and y get small positive values.
        inertia = pin.Inertia(masses[i], np.array([com[i], 0.0, 0.0]),
                              np.diag([1e-3, 1e-3, inertias[i]]))
        model.appendBodyToJoint(joint, inertia, pin.SE3.Identity())
        parent = joint
    model.gravity.linear = np.array([0.0, -chain.g, 0.0])
    return model


# ------------------------------------------------------------------------- invdyn2d
def segment_kinematics(chain: bmc.PlanarChain, q, qd, qdd) -> dict[str, np.ndarray]:
    """What the gait pipeline has before its recursion: COM, joints, accelerations."""
    lengths, com = chain.lengths, chain.com
    n = chain.n
    a = np.tril(np.broadcast_to(lengths, (n, n)), k=-1) + np.diag(com)
    phi, w, al = (np.cumsum(x, axis=-1) for x in (q, qd, qdd))
    u = np.stack([np.cos(phi), np.sin(phi)], axis=-1)           # (N, n, 2)
    perp = np.stack([-np.sin(phi), np.cos(phi)], axis=-1)
    tangential = np.einsum("kj,nj,njd->nkd", a, al, perp)
    centripetal = np.einsum("kj,nj,njd->nkd", a, w**2, u)
    joints = chain.joint_positions(q)                          # (N, n + 1, 2)
    return {"rcm": chain.com_positions(q), "prox": joints[:, :-1], "dist": joints[:, 1:],
            "acm": tangential - centripetal, "alpha": al}


def invdyn2d_recursion(chain: bmc.PlanarChain, kin: dict[str, np.ndarray]):
    """Joint loads from the distal segment up, as ``lower_limb`` does (no distal load)."""
    masses, inertias = chain.masses, chain.inertias
    n_frames = kin["alpha"].shape[0]
    forces = np.empty((n_frames, chain.n, 2))
    moments = np.empty((n_frames, chain.n))
    Fd, Md = np.zeros(2), 0.0
    for i in range(chain.n - 1, -1, -1):
        forces[:, i], moments[:, i] = bmc.invdyn2d(
            kin["rcm"][:, i], kin["dist"][:, i], kin["prox"][:, i], kin["acm"][:, i],
            kin["alpha"][:, i], masses[i], inertias[i], Fd, Md, g=G)
        Fd, Md = -forces[:, i], -moments[:, i]
    return forces, moments


def invdyn2d_loop(chain: bmc.PlanarChain, kin: dict[str, np.ndarray]) -> np.ndarray:
    """The same recursion, one frame at a time."""
    masses, inertias = chain.masses, chain.inertias
    n_frames = kin["alpha"].shape[0]
    moments = np.empty((n_frames, chain.n))
    for f in range(n_frames):
        Fd, Md = np.zeros(2), 0.0
        for i in range(chain.n - 1, -1, -1):
            Fp, Mp = bmc.invdyn2d(
                kin["rcm"][f, i], kin["dist"][f, i], kin["prox"][f, i], kin["acm"][f, i],
                kin["alpha"][f, i], masses[i], inertias[i], Fd, Md, g=G)
            moments[f, i] = Mp
            Fd, Md = -Fp, -Mp
    return moments


def invdyn2d_floor(kin: dict[str, np.ndarray]):
    """Read every input of the recursion once and write outputs of its size once."""
    rcm, dist, prox, acm, alpha = (kin[k] for k in ("rcm", "dist", "prox", "acm", "alpha"))
    forces = rcm + dist
    forces += prox
    forces += acm
    return forces, alpha * 1.0


# ------------------------------------------------------------------------- the cases
def _goal_floor(ratio: float, limit: float = 4.0) -> Goal:
    return Goal(f"1e6 frames within {limit:g}x of the bandwidth floor", f"{ratio:.1f}x",
                ratio <= limit)


def _time_chain(chain, model, n: int) -> dict[str, Timing]:
    """Time every variant of the PlanarChain case on ``n`` random frames."""
    q, qd, qdd = states(n)
    phi = np.cumsum(q, axis=-1)
    variants = {
        "bmc `PlanarChain.inverse_dynamics`": lambda: chain.inverse_dynamics(q, qd, qdd),
        "matrix form: `M qdd + C + G` with (N, n, n) arrays":
            lambda: matrix_form(chain, q, qd, qdd),
        "bandwidth floor: `q + qd + qdd`": lambda: q + qd + qdd,
        "trig floor: `sin`, `cos` of the n segment angles":
            lambda: (np.sin(phi), np.cos(phi)),
    }
    loops = {}
    if n == LOOP_N:
        loops["per-frame loop of `PlanarChain.inverse_dynamics`"] = lambda: [
            chain.inverse_dynamics(*x) for x in zip(q, qd, qdd, strict=True)]
    if model is not None:
        import pinocchio as pin

        pool = pin.ModelPool(model, 1)
        data = model.createData()

        def batched():
            out = np.empty((n, 3))
            pin.rneaInParallel(1, pool, q.T, qd.T, qdd.T, out.T)
            return out

        def per_frame():
            out = np.empty((n, 3))
            rnea = pin.rnea
            for k, (a, b, c) in enumerate(zip(q, qd, qdd, strict=True)):
                out[k] = rnea(model, data, a, b, c)
            return out

        variants["Pinocchio `rnea`, batched (`rneaInParallel`, 1 thread)"] = batched
        if n == LOOP_N:
            loops["Pinocchio `rnea`, per-frame loop"] = per_frame
    big = n >= 1_000_000
    times = measure(variants, repeats=3 if big else 5, warmup=not big)
    times.update(measure(loops, repeats=2, warmup=False))  # seconds each: 2 are plenty
    return times


def run_chain(*, quick: bool) -> Case:
    """``PlanarChain.inverse_dynamics`` against its alternatives."""
    case = Case(
        "inverse_dynamics", "Planar inverse dynamics, 3 segments (PlanarChain)",
        "Joint torques of a thigh-shank-foot chain from random joint angles, rates and "
        "accelerations; every alternative agrees with `PlanarChain.inverse_dynamics` first.",
    )
    chain = limb()
    model = pinocchio_model(chain)
    sizes = [10_000, 100_000] if quick else [10_000, 100_000, 1_000_000]

    # Agreement on random states before any timing.
    q, qd, qdd = states(2_000, seed=1)
    ref = chain.inverse_dynamics(q, qd, qdd)
    scale = np.abs(ref).max()
    diffs = {"matrix form": np.abs(matrix_form(chain, q, qd, qdd) - ref).max()}
    loop = np.array([chain.inverse_dynamics(*x) for x in zip(q, qd, qdd, strict=True)])
    diffs["loop"] = np.abs(loop - ref).max()
    if model is not None:
        import pinocchio as pin

        data = model.createData()
        pool = pin.ModelPool(model, 1)
        per_frame = np.array([pin.rnea(model, data, *x) for x in zip(q, qd, qdd, strict=True)])
        batched = np.empty_like(ref)
        pin.rneaInParallel(1, pool, q.T, qd.T, qdd.T, batched.T)
        diffs["pin per frame"] = np.abs(per_frame - ref).max()
        diffs["pin batched"] = np.abs(batched - ref).max()
        pin_diff = max(diffs["pin per frame"], diffs["pin batched"])
        case.notes.append(
            f"Pinocchio {pin.__version__} (`pin` on PyPI): the model is built in code, three "
            "revolute-z joints, gravity along -y. Its `rnea` agrees with "
            f"`PlanarChain.inverse_dynamics` to {pin_diff:.1e} N m "
            f"on 2,000 random states (torques up to {scale:.0f} N m). Batched = "
            "`rneaInParallel(1, pool, q.T, qd.T, qdd.T, out.T)` with one thread (the one core "
            "NumPy uses); the transposes are views, no copy."
        )
    else:
        case.notes.append("Pinocchio not installed (`pip install pin`): its rows are skipped.")
    worst = max(diffs.values())
    if worst > 1e-9 * scale:
        raise AssertionError(f"inverse dynamics alternatives disagree: {diffs}")
    case.notes.append(
        "Agreement with `PlanarChain.inverse_dynamics` [N m]: "
        + ", ".join(f"{k} {v:.1e}" for k, v in diffs.items()) + "."
    )

    loop_rows: dict[str, Timing] = {}
    for n in sizes:
        times = _time_chain(chain, model, n)
        size = f"{fmt_size(n)} frames"
        for name, timing in times.items():
            case.rows.append(row(size, name, timing, subject=name.startswith("bmc")))
            if "loop" in name:
                loop_rows[name] = timing
        for name, timing in loop_rows.items():
            if n > LOOP_N:
                case.rows.append(row(size, name, timing.scaled(n / LOOP_N),
                                     note=f"measured at {fmt_size(LOOP_N)} frames, scaled "
                                          f"linearly x{n / LOOP_N:g}"))
    add_ratios(case.rows)

    n_top = sizes[-1]
    top = {r.variant: r for r in case.rows if r.size == f"{fmt_size(n_top)} frames"}
    bmc_t = cost(top["bmc `PlanarChain.inverse_dynamics`"])
    floor = cost(top["bandwidth floor: `q + qd + qdd`"])
    trig = cost(top["trig floor: `sin`, `cos` of the n segment angles"])
    ref_t = cost(top["matrix form: `M qdd + C + G` with (N, n, n) arrays"])
    case.goals.append(_goal_floor(bmc_t / floor) if n_top == 1_000_000 else
                      Goal("1e6 frames within 4x of the bandwidth floor",
                           f"{bmc_t / floor:.1f}x at {fmt_size(n_top)} (quick run)", None))
    case.goals.append(Goal("(proposed) within 2x of the trig floor",
                           f"{bmc_t / trig:.1f}x (matrix form {ref_t / trig:.1f}x)",
                           bmc_t / trig <= 2))
    key = "Pinocchio `rnea`, batched (`rneaInParallel`, 1 thread)"
    if key in top:
        speedup = cost(top[key]) / bmc_t
        case.goals.append(Goal(f"at least 3x faster than Pinocchio batched ({fmt_size(n_top)})",
                               f"{speedup:.2f}x", speedup >= 3))
    else:
        case.goals.append(Goal("at least 3x faster than Pinocchio batched", "pin absent", None))
    case.notes.append(
        f"At {fmt_size(n_top)} frames the bandwidth floor is {floor * 1e3:.0f} ms and the "
        f"2n sine/cosine evaluations any formulation needs take {trig * 1e3:.0f} ms "
        f"({trig / floor:.1f}x the floor): NumPy's float64 `sin`/`cos` run at "
        f"{trig / (6 * n_top) * 1e9:.0f} ns per element here. bmc's blocked kernel "
        f"evaluates only those, and is {ref_t / bmc_t:.1f}x faster than the matrix form."
    )

    # Memory: peak allocation during one call, as a multiple of the input size.
    q, qd, qdd = states(n_top)
    inputs = q.nbytes * 3
    peak = peak_memory(lambda: chain.inverse_dynamics(q, qd, qdd)) / inputs
    peak_ref = peak_memory(lambda: matrix_form(chain, q, qd, qdd)) / inputs
    case.goals.append(Goal(f"peak memory at {fmt_size(n_top)} frames at most 4x the inputs",
                           f"{peak:.2f}x ({inputs / 1e6:.0f} MB of inputs)", peak <= 4))
    case.notes.append(f"Peak memory of the matrix form: {peak_ref:.2f}x the inputs "
                      "(the output alone is 0.33x).")
    return case


def _time_invdyn2d(chain, kin, n: int) -> dict[str, Timing]:
    variants = {
        "bmc `invdyn2d` recursion (3 calls)": lambda: invdyn2d_recursion(chain, kin),
        "bandwidth floor: read inputs, write outputs": lambda: invdyn2d_floor(kin),
    }
    big = n >= 1_000_000
    times = measure(variants, repeats=3 if big else 5, warmup=not big)
    if n == LOOP_N:  # seconds per call: two repeats are plenty
        times.update(measure({"per-frame loop of `invdyn2d`": lambda: invdyn2d_loop(chain, kin)},
                             repeats=2, warmup=False))
    return times


def run_invdyn2d(*, quick: bool) -> Case:
    """The gait pipeline's recursion of ``bmc.invdyn2d`` calls."""
    case = Case(
        "invdyn2d", "Planar inverse dynamics, 3 segments (`invdyn2d` recursion)",
        "The gait pipeline's recursion: `bmc.invdyn2d` on the foot, then the shank, then the "
        "thigh, with the segment kinematics given (centres of mass, joints, accelerations), "
        "passed as the strided views `lower_limb` passes.",
    )
    chain = limb()
    sizes = [10_000, 100_000] if quick else [10_000, 100_000, 1_000_000]
    q, qd, qdd = states(2_000, seed=1)
    kin = segment_kinematics(chain, q, qd, qdd)
    ref = chain.inverse_dynamics(q, qd, qdd)
    _, moments = invdyn2d_recursion(chain, kin)
    d_rec = np.abs(moments - ref).max()
    d_loop = np.abs(invdyn2d_loop(chain, kin) - ref).max()
    if max(d_rec, d_loop) > 1e-9 * np.abs(ref).max():
        raise AssertionError(f"invdyn2d recursion disagrees with PlanarChain: {d_rec}, {d_loop}")
    case.notes.append(
        f"Joint moments agree with `PlanarChain.inverse_dynamics` to {d_rec:.1e} N m "
        f"(per-frame loop {d_loop:.1e} N m) on 2,000 random states."
    )
    loop_best = None
    for n in sizes:
        kin = segment_kinematics(chain, *states(n))
        times = _time_invdyn2d(chain, kin, n)
        size = f"{fmt_size(n)} frames"
        for name, timing in times.items():
            case.rows.append(row(size, name, timing, subject=name.startswith("bmc")))
            if "loop" in name:
                loop_best = timing
        if n > LOOP_N and loop_best is not None:
            case.rows.append(row(size, "per-frame loop of `invdyn2d`",
                                 loop_best.scaled(n / LOOP_N),
                                 note=f"measured at {fmt_size(LOOP_N)} frames, "
                                 f"scaled linearly x{n / LOOP_N:g}"))
    add_ratios(case.rows)
    n_top = sizes[-1]
    top = {r.variant: r for r in case.rows if r.size == f"{fmt_size(n_top)} frames"}
    ratio = (cost(top["bmc `invdyn2d` recursion (3 calls)"])
             / cost(top["bandwidth floor: read inputs, write outputs"]))
    case.goals.append(_goal_floor(ratio) if n_top == 1_000_000 else
                      Goal("1e6 frames within 4x of the bandwidth floor",
                           f"{ratio:.1f}x at {fmt_size(n_top)} (quick run)", None))
    inputs = sum(kin[k].nbytes for k in ("rcm", "dist", "prox", "acm", "alpha"))
    peak = peak_memory(lambda: invdyn2d_recursion(chain, kin)) / inputs
    case.goals.append(Goal(f"peak memory at {fmt_size(n_top)} frames at most 4x the inputs",
                           f"{peak:.2f}x ({inputs / 1e6:.0f} MB of inputs)", peak <= 4))
    return case
