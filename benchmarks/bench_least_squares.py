"""Least-squares inverse dynamics of notebook 6 (Kuo 1998) over 1e4 and 1e5 frames.

Frames are noisy measurements of Kuo's sway benchmark (``bmc.models.standing.measure``,
realisations stacked along axis 0) with the Appendix-B covariance. Two problems:

- the weighted least squares of every frame: bmc's batched normal equations against
  NumPy's ``lstsq`` called frame by frame and a batched pseudo-inverse (SVD);
- every frame plus one constant bias (Kuo's eq. 10): bmc's block elimination (each
  frame's torques eliminated, the bias from the Schur complement, batched) against the
  sparse normal equations of the stacked system (what bmc did before) and a dense solve
  of it (feasible only for a short trial).
"""

from __future__ import annotations

import numpy as np
from _harness import Case, Goal, add_ratios, fmt_size, measure, row

import bmc

LOOP_N = 10_000
BIAS_ROWS = np.array([[1.0], [0.0], [0.0], [0.0], [0.0], [0.0]])  # offset on the T row


def _whitened(A, b, cov):
    """Divide every row by its standard deviation (the covariance here is diagonal)."""
    sd = np.sqrt(np.diagonal(cov, axis1=-2, axis2=-1))
    return A / sd[..., None], b / sd


def lstsq_loop(A, b, cov) -> np.ndarray:
    """``np.linalg.lstsq`` on each whitened frame."""
    aw, bw = _whitened(A, b, cov)
    return np.array([np.linalg.lstsq(a, y, rcond=None)[0] for a, y in zip(aw, bw, strict=True)])


def pinv_batched(A, b, cov) -> np.ndarray:
    """Batched SVD pseudo-inverse of the whitened systems."""
    aw, bw = _whitened(A, b, cov)
    return np.einsum("...ij,...j->...i", np.linalg.pinv(aw), bw)


def bias_dense(A, b, cov, B) -> tuple[np.ndarray, np.ndarray]:
    """The stacked system of eq. (10) as one dense matrix, solved by normal equations."""
    aw, bw = _whitened(A, b, cov)
    bias_w = B[None] / np.sqrt(np.diagonal(cov, axis1=-2, axis2=-1))[..., None]
    n_f, m, p = aw.shape
    nb = B.shape[-1]
    big = np.zeros((n_f * m, n_f * p + nb))
    for k in range(n_f):  # assembly only; the cost is in the solve below
        big[k * m:(k + 1) * m, k * p:(k + 1) * p] = aw[k]
    big[:, n_f * p:] = bias_w.reshape(n_f * m, nb)
    x = np.linalg.solve(big.T @ big, big.T @ bw.ravel())
    return x[: n_f * p].reshape(n_f, p), x[n_f * p:]


def bias_sparse(A, b, cov, B) -> tuple[np.ndarray, np.ndarray]:
    """The stacked system of eq. (10) as one sparse matrix, normal equations by spsolve."""
    from scipy import sparse
    from scipy.sparse.linalg import spsolve

    aw, bw = _whitened(A, b, cov)
    bias_w = B[None] / np.sqrt(np.diagonal(cov, axis1=-2, axis2=-1))[..., None]
    n_f, m, p = aw.shape
    nb = B.shape[-1]
    rows = np.arange(n_f * m).reshape(n_f, m)
    r_a = np.broadcast_to(rows[:, :, None], (n_f, m, p))
    c_a = np.broadcast_to((np.arange(n_f)[:, None] * p + np.arange(p))[:, None, :], (n_f, m, p))
    r_b = np.broadcast_to(rows[:, :, None], (n_f, m, nb))
    c_b = np.broadcast_to((n_f * p + np.arange(nb))[None, None, :], (n_f, m, nb))
    big = sparse.coo_matrix(
        (np.concatenate([aw.ravel(), np.broadcast_to(bias_w, (n_f, m, nb)).ravel()]),
         (np.concatenate([r_a.ravel(), r_b.ravel()]), np.concatenate([c_a.ravel(), c_b.ravel()]))),
        shape=(n_f * m, n_f * p + nb)).tocsr()
    # natural order keeps the bias columns last: the arrow-shaped matrix factors without fill
    x = spsolve((big.T @ big).tocsc(), big.T @ bw.ravel(), permc_spec="NATURAL")
    return x[: n_f * p].reshape(n_f, p), x[n_f * p:]


def run(*, quick: bool) -> Case:
    ls = bmc.least_squares
    case = Case(
        "least_squares", "Least-squares inverse dynamics (Kuo 1998)",
        "Noisy measurements of Kuo's sway benchmark (Appendix-B covariance), realisations "
        "stacked along axis 0; joint torques by weighted least squares, frame by frame, and "
        "with one constant bias on the ground-reaction torque (eq. 10).",
    )
    sway = bmc.models.standing.simulate_sway()
    model = sway.model
    n_max = 10_000 if quick else 100_000
    per = sway.phi[sway.window].shape[0]
    meas = bmc.models.standing.measure(sway, realisations=-(-n_max // per), offset=0.01)
    cov_all = ls.paper_covariance(model, meas)
    data_all = (meas.phi, meas.phid, meas.phidd, meas.grf)

    # Agreement on the first LOOP_N frames.
    A, b = ls.system(model, *(x[:2000] for x in data_all))
    cov = cov_all[:2000]
    tau = ls.weighted_least_squares(A, b, cov).tau
    d_loop = np.abs(lstsq_loop(A, b, cov) - tau).max()
    d_pinv = np.abs(pinv_batched(A, b, cov) - tau).max()
    n_dense = 300
    res = ls.estimate_bias(A[:n_dense], b[:n_dense], cov[:n_dense], BIAS_ROWS)
    tau_d, beta_d = bias_dense(A[:n_dense], b[:n_dense], cov[:n_dense], BIAS_ROWS)
    tau_s, beta_s = bias_sparse(A[:n_dense], b[:n_dense], cov[:n_dense], BIAS_ROWS)
    d_dense = max(np.abs(tau_d - res.tau).max(), np.abs(beta_d - res.beta[0]).max())
    d_sparse = max(np.abs(tau_s - res.tau).max(), np.abs(beta_s - res.beta[0]).max())
    scale = np.abs(tau).max()
    if max(d_loop, d_pinv, d_dense, d_sparse) > 1e-6 * scale:
        raise AssertionError(f"least-squares alternatives disagree: {d_loop}, {d_pinv}, "
                             f"{d_dense}, {d_sparse}")
    case.notes.append(
        f"Agreement with bmc [N m]: per-frame `lstsq` {d_loop:.0e}, batched `pinv` "
        f"{d_pinv:.0e} (torques up to {scale:.0f} N m); bias system over {n_dense} frames: "
        f"dense {d_dense:.0e}, sparse {d_sparse:.0e} (torques and bias)."
    )

    loop_best = None
    for n in ([10_000] if quick else [10_000, 100_000]):
        data = tuple(x[:n] for x in data_all)
        cov = cov_all[:n]
        A, b = ls.system(model, *data)
        size = f"{fmt_size(n)} frames"
        variants = {
            "bmc `least_squares` (assemble A, b and solve)":
                lambda data=data, cov=cov: ls.least_squares(model, *data, cov),
            "bmc `weighted_least_squares` (solve, given A, b)":
                lambda A=A, b=b, cov=cov: ls.weighted_least_squares(A, b, cov),
            "bmc `system` (assemble A, b)": lambda data=data: ls.system(model, *data),
            "batched `np.linalg.pinv` (SVD) of the whitened systems":
                lambda A=A, b=b, cov=cov: pinv_batched(A, b, cov),
        }
        times = measure(variants, repeats=3, warmup=n < 100_000)
        if n == LOOP_N:
            times.update(measure({"per-frame `np.linalg.lstsq` loop":
                                  lambda A=A, b=b, cov=cov: lstsq_loop(A, b, cov)},
                                 repeats=2, warmup=False))
        for name, timing in times.items():
            case.rows.append(row(size, name, timing, subject=name.startswith("bmc `least")))
            if "loop" in name:
                loop_best = timing
        if n > LOOP_N:
            case.rows.append(row(size, "per-frame `np.linalg.lstsq` loop",
                                 loop_best.scaled(n / LOOP_N),
                                 note=f"measured at {fmt_size(LOOP_N)} frames, "
                                 f"scaled linearly x{n / LOOP_N:g}"))

    # The bias system: block elimination (bmc) against the sparse stacked system and dense.
    for n in ([n_dense, 10_000] if quick else [n_dense, 10_000, 100_000]):
        A, b = ls.system(model, *(x[:n] for x in data_all))
        cov = cov_all[:n]
        size = f"{fmt_size(n)} frames + bias"
        variants = {
            "bmc `estimate_bias` (block elimination, batched)":
                lambda A=A, b=b, cov=cov: ls.estimate_bias(A, b, cov, BIAS_ROWS),
            "sparse normal equations of the stacked system (`spsolve`)":
                lambda A=A, b=b, cov=cov: bias_sparse(A, b, cov, BIAS_ROWS),
        }
        if n == n_dense:
            variants["dense normal equations (`np.linalg.solve`)"] = (
                lambda A=A, b=b, cov=cov: bias_dense(A, b, cov, BIAS_ROWS))
        times = measure(variants, repeats=3, warmup=n < 100_000)
        for name, timing in times.items():
            note = ""
            if name.startswith("dense"):
                note = f"{n * 6} x {n * 3 + 1} matrix; at 1e4 frames it would need 14 GB"
            case.rows.append(row(size, name, timing, note=note,
                                 subject=name.startswith("bmc")))
    add_ratios(case.rows)
    top = {r.variant: r for r in case.rows if r.size == f"{fmt_size(n_max)} frames"}
    t_ls = top["bmc `least_squares` (assemble A, b and solve)"].cpu
    case.goals.append(Goal(f"least squares of {fmt_size(n_max)} frames under 1 s"
                           + (" (goal: 1e5)" if quick else ""), f"{t_ls:.2f} s (CPU)",
                           t_ls < 1.0 if not quick else None))
    bias = {r.variant: r for r in case.rows if r.size == f"{fmt_size(n_max)} frames + bias"}
    t_bias = bias["bmc `estimate_bias` (block elimination, batched)"].cpu
    t_sparse = bias["sparse normal equations of the stacked system (`spsolve`)"].cpu
    case.goals.append(Goal(f"bias estimate at {fmt_size(n_max)} frames at least 4x faster than "
                           "the sparse stacked system (issue 33)", f"{t_sparse / t_bias:.1f}x",
                           t_sparse / t_bias >= 4 if not quick else None))
    case.notes.append(f"Bias system at {fmt_size(n_max)} frames: {t_bias:.2f} s.")
    return case
