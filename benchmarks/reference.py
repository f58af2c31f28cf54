"""A reference planar inverse dynamics, to show what NumPy can reach (not library code).

:func:`planar_inverse_dynamics` computes the same ``tau = M qdd + C + G`` as
``bmc.PlanarChain.inverse_dynamics`` (checked in the benchmark on random states), with three
changes that matter for long recordings:

1. only ``2n`` sine/cosine evaluations per frame (of the segment angles); the differences
   come from ``cos(a - b) = cos a cos b + sin a sin b`` and ``sin(a - b) = ...``. NumPy's
   float64 ``sin``/``cos`` cost tens of nanoseconds per element (no SIMD path), so trig
   dominates; the library evaluates ``cos`` and ``sin`` of all ``n x n`` angle differences;
2. no ``(N, n, n)`` mass matrix: each torque is accumulated from ``n`` contiguous
   columns of length ``N``;
3. blocks of frames (a Python loop over blocks of a few thousand frames, never over frames)
   so every temporary stays in cache, and the peak memory is the output plus a block.

The benchmark keeps it beside the library to put a figure on the proposal made to the
module's owner; the library's own implementation stays the one that is tested.
"""

from __future__ import annotations

import numpy as np

BLOCK = 4096  # frames per block: 3 x 3 x 4096 x 8 B = 295 kB of inputs, in L2


def chain_constants(chain) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``B`` (n, n) [kg m^2], ``g s`` (n,) [N m] and ``B_kk + I_k`` (n,) [kg m^2]."""
    lengths, com, masses = chain.lengths, chain.com, chain.masses
    n = lengths.size
    a = np.tril(np.broadcast_to(lengths, (n, n)), k=-1) + np.diag(com)
    B = np.einsum("k,ki,kj->ij", masses, a, a)
    return B, chain.g * (masses @ a), np.diag(B) + chain.inertias


def _block(B, gs, diag, q, qd, qdd, out) -> None:
    n = q.shape[1]
    phi = np.cumsum(q.T, axis=0)       # (n, m): one contiguous column per segment
    w2 = np.cumsum(qd.T, axis=0)
    w2 *= w2
    a = np.cumsum(qdd.T, axis=0)
    c, s = np.cos(phi), np.sin(phi)    # the only trig: 2n evaluations per frame
    acc = a * diag[:, None]
    acc += c * gs[:, None]
    for i in range(n):
        for j in range(i + 1, n):
            cij = c[i] * c[j]
            cij += s[i] * s[j]         # cos(phi_i - phi_j)
            sij = s[i] * c[j]
            sij -= c[i] * s[j]         # sin(phi_i - phi_j)
            acc[i] += B[i, j] * (cij * a[j] + sij * w2[j])
            acc[j] += B[i, j] * (cij * a[i] - sij * w2[i])
    run = acc[n - 1]
    out[:, n - 1] = run
    for k in range(n - 2, -1, -1):     # joint torques: tau = T^T tau_abs
        run += acc[k]
        out[:, k] = run


def planar_inverse_dynamics(chain, q, qd, qdd, *, block: int = BLOCK) -> np.ndarray:
    """Joint torques [N m], shape (N, n), of a ``PlanarChain`` for (N, n) float arrays."""
    B, gs, diag = chain_constants(chain)
    out = np.empty(q.shape)
    for start in range(0, q.shape[0], block):
        rows = slice(start, start + block)
        _block(B, gs, diag, q[rows], qd[rows], qdd[rows], out[rows])
    return out
