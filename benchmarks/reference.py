"""A reference planar inverse dynamics, to show what NumPy can reach (not library code).

:func:`planar_inverse_dynamics` computes the same ``tau = M qdd + C + G`` as
``bmc.PlanarChain.inverse_dynamics`` (checked in the benchmark on random states), with three
changes that matter for long recordings:

1. only ``2n`` sine/cosine evaluations per frame (of the segment angles); those of the
   angle differences come from ``cos(a - b) = cos a cos b + sin a sin b`` and
   ``sin(a - b) = sin a cos b - cos a sin b``. NumPy's float64 ``sin``/``cos`` cost tens of
   nanoseconds per element (no SIMD path), so trig dominates; the library evaluates ``cos``
   and ``sin`` of all ``n x n`` angle differences, and ``cos`` of the angles again for
   gravity;
2. no ``(N, n, n)`` mass matrix: each segment's torque is accumulated from contiguous
   columns of length ``m`` (a block of frames), written in place into preallocated buffers;
3. blocks of frames (a Python loop over blocks of a few thousand frames, never over frames)
   so every temporary stays in cache, and the peak memory is the output plus one block.

In segment angles ``phi = cumsum(q)``, with ``B`` and ``s`` of :class:`bmc.PlanarChain`,

    tau_abs_i = (B_ii + I_i) phidd_i + g s_i cos phi_i
                + sum_{j != i} B_ij (cos(phi_i - phi_j) phidd_j + sin(phi_i - phi_j) phid_j^2)

and the joint torques are its reverse cumulative sum, ``tau = T^T tau_abs``.
"""

from __future__ import annotations

import numpy as np

BLOCK = 8192  # frames per block: the n x BLOCK buffers (a few hundred kB) stay in L2


def chain_constants(chain) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``B`` (n, n) [kg m^2], ``g s`` (n,) [N m] and ``B_kk + I_k`` (n,) [kg m^2]."""
    lengths, com, masses = chain.lengths, chain.com, chain.masses
    n = lengths.size
    a = np.tril(np.broadcast_to(lengths, (n, n)), k=-1) + np.diag(com)
    B = np.einsum("k,ki,kj->ij", masses, a, a)
    return B, chain.g * (masses @ a), np.diag(B) + chain.inertias


def planar_inverse_dynamics(chain, q, qd, qdd, *, block: int = BLOCK) -> np.ndarray:
    """Joint torques [N m], shape (N, n), of a ``PlanarChain`` for (N, n) float arrays."""
    B, gs, diag = chain_constants(chain)
    n_frames, n = q.shape
    out = np.empty(q.shape)
    pairs = [(i, j, B[i, j]) for i in range(n) for j in range(i + 1, n)]
    full = [np.empty((n, block)) for _ in range(6)]   # phi, phid^2, phidd, cos, sin, acc
    full_tmp = [np.empty(block) for _ in range(4)]    # cos_ij, sin_ij and two scratch
    for start in range(0, n_frames, block):
        stop = min(start + block, n_frames)
        m = stop - start
        phi, w2, acc_d, c, s, tau = (x[:, :m] for x in full)
        cij, sij, t1, t2 = (x[:m] for x in full_tmp)
        np.cumsum(q[start:stop].T, axis=0, out=phi)   # columns: one row per segment
        np.cumsum(qd[start:stop].T, axis=0, out=w2)
        np.multiply(w2, w2, out=w2)
        np.cumsum(qdd[start:stop].T, axis=0, out=acc_d)
        np.cos(phi, out=c)                            # the only trig: 2n per frame
        np.sin(phi, out=s)
        np.multiply(acc_d, diag[:, None], out=tau)
        np.multiply(c, gs[:, None], out=phi)          # phi is no longer needed: scratch
        tau += phi
        for i, j, b in pairs:
            np.multiply(c[i], c[j], out=cij)          # B_ij cos(phi_i - phi_j)
            np.multiply(s[i], s[j], out=t1)
            cij += t1
            cij *= b
            np.multiply(s[i], c[j], out=sij)          # B_ij sin(phi_i - phi_j)
            np.multiply(c[i], s[j], out=t1)
            sij -= t1
            sij *= b
            np.multiply(cij, acc_d[j], out=t1)
            np.multiply(sij, w2[j], out=t2)
            t1 += t2
            tau[i] += t1
            np.multiply(cij, acc_d[i], out=t1)
            np.multiply(sij, w2[i], out=t2)
            t1 -= t2
            tau[j] += t1
        for k in range(n - 2, -1, -1):                # joint torques: tau = T^T tau_abs
            tau[k] += tau[k + 1]
        out[start:stop] = tau.T
    return out
