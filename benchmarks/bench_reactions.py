"""Joint reactions of notebook 5 (Blajer and Czaplicki 2005) over 1e5 frames.

The generated back somersault of ``bmc.models.somersault.somersault`` (dynamically consistent),
repeated to 1e5 frames; hip, knee and ankle reactions by eq. (2.10) (no matrix inversion),
eq. (2.11) (a 12 x 12 solve per frame), the closed-form eq. (3.3) and the Newton-Euler
recursion, against the bandwidth floor. All four agree on these data (checked first).
"""

from __future__ import annotations

import numpy as np
from _harness import Case, Goal, add_ratios, cost, fmt_size, measure, row

import bmc

LEGS = ["hip", "knee", "ankle"]


def run(*, quick: bool) -> Case:
    rx = bmc.reactions
    case = Case(
        "reactions", "Joint reactions, 7-segment model (Blajer & Czaplicki)",
        "Hip, knee and ankle reactions over a generated back somersault repeated to the "
        "given number of frames (the model has 9 coordinates, 6 joints, 12 reactions).",
    )
    model = bmc.models.human.human_model()
    motion = bmc.models.somersault.somersault(model, freq=250.0)
    idr = model.contact_inverse_dynamics(motion.q, motion.qd, motion.qdd,
                                         contact_point=motion.contact_point,
                                         contact_force=motion.contact_force)
    h = model.applied_forces(motion.q, torques=idr.torques, contact_force=idr.contact_force,
                             contact_point=motion.contact_point,
                             contact_moment=idr.contact_moment)
    n = 10_000 if quick else 100_000
    reps = -(-n // motion.q.shape[0])
    q, qd, qdd, hh, force = (np.tile(x, (reps, 1))[:n] for x in
                             (motion.q, motion.qd, motion.qdd, h, motion.contact_force))
    moment = np.tile(motion.contact_moment, reps)[:n]

    variants = {
        "bmc eq. (2.10) `reactions_augmented`":
            lambda: rx.reactions_augmented(model, q, qd, qdd, hh, joints=LEGS),
        "bmc eq. (2.11) `reactions_classical`":
            lambda: rx.reactions_classical(model, q, qd, hh, joints=LEGS),
        "bmc eq. (3.3) `human.leg_reactions` (closed form, legs only)":
            lambda: bmc.models.human.leg_reactions(model, q, qd, qdd, force),
        "bmc Newton-Euler recursion `reactions_newton_euler`":
            lambda: rx.reactions_newton_euler(model, q, qd, qdd, force, motion.contact_point,
                                              contact_moment=moment)[0],
        "bandwidth floor: read q, qd, qdd, h; write 6 reactions":
            lambda: ([x.sum() for x in (q, qd, qdd, hh)], np.full((n, 6), 1.0)),
    }
    k = min(n, 5_000)
    ref = variants["bmc eq. (2.10) `reactions_augmented`"]()[:k]
    diffs = {name: np.abs(fn()[:k] - ref).max() for name, fn in variants.items()
             if "floor" not in name}
    scale = np.abs(ref).max()
    if max(diffs.values()) > 1e-6 * scale:
        raise AssertionError(f"reaction formulas disagree on consistent data: {diffs}")
    case.notes.append(
        f"On the consistent somersault data all four agree with eq. (2.10) to within "
        f"{max(diffs.values()):.0e} N (reactions up to {scale:.0f} N)."
    )
    times = measure(variants, repeats=3, warmup=quick)
    size = f"{fmt_size(n)} frames"
    for name, timing in times.items():
        case.rows.append(row(size, name, timing, subject="(2.10)" in name))
    add_ratios(case.rows)
    by = {r.variant: r for r in case.rows}
    aug = cost(by["bmc eq. (2.10) `reactions_augmented`"])
    cla = cost(by["bmc eq. (2.11) `reactions_classical`"])
    case.goals.append(Goal("eq. (2.10) faster than eq. (2.11) (the paper's claim)",
                           f"{cla / aug:.1f}x faster", aug < cla))
    floor = cost(by["bandwidth floor: read q, qd, qdd, h; write 6 reactions"])
    case.notes.append(f"eq. (2.10) takes {aug / floor:.0f}x the bandwidth floor at {size}.")
    return case
