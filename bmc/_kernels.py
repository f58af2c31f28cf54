"""Unchecked numerical kernels of the planar core (private to the package).

Every function here trusts its caller, as :func:`numpy.linalg.solve` does: float arrays of
the documented shapes, frames on the leading axes already matched, parameters already
checked. The public functions and methods that use them (:mod:`bmc.kinematics`,
:class:`bmc.planar.PlanarModel`, :mod:`bmc.newton_euler`, :mod:`bmc.reactions`,
:mod:`bmc.least_squares`) check their arguments once, at the entry, and then call these
(CONTRIBUTING.md, "Architecture"). Each formula here is written once in the package:

- the planar cross product and the +90 degree rotation (:func:`cross`, :func:`perp`);
- the kinematics of points carried by rotating segments and their Jacobian
  (:func:`points_on_segments`, :func:`lever_jacobian`);
- one planar Newton-Euler step and the one upward recursion built on it
  (:func:`newton_euler_step`, :func:`upward`);
- ``M qdd + h`` of a planar model evaluated in blocks of frames (:func:`blocked_forces`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BLOCK", "blocked_forces", "cross", "lever_jacobian", "newton_euler_step", "perp",
           "points_on_segments", "upward"]

BLOCK = 8192  # frames per block of blocked_forces: the (n, BLOCK) buffers stay in cache


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Planar cross product ``a_x b_y - a_y b_x`` of (..., 2) arrays (they broadcast)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def perp(v: np.ndarray) -> np.ndarray:
    """Rotate (..., 2) vectors by +90 degrees, ``(x, y) -> (-y, x)``."""
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


def points_on_segments(levers: np.ndarray, axes: np.ndarray, rates: np.ndarray | None = None,
                       accelerations: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """``r_i = sum_j L_ij e_j`` and its first two time derivatives (see lever_kinematics).

    ``levers`` (p, n); ``axes`` (..., n, 2); ``rates``, ``accelerations`` (..., n), whose
    leading shape is the frames' (``axes`` may be one posture for many frames of rates).
    Returns ``(r,)``, ``(r, v)`` or ``(r, v, a)``, each (..., p, 2).
    """
    lt = levers.T
    p = lt.shape[1]
    n = levers.shape[1]
    lead = np.broadcast_shapes(axes.shape[:-2], *[x.shape[:-1] for x in (rates, accelerations)
                                                   if x is not None])

    def carried(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        # sum_j L_ij (x_j, y_j) for all frames: two matrix products (frames, n) @ (n, p)
        # on contiguous components, written into one (..., 2, p) array returned as a
        # (..., p, 2) view. A stacked (p, n) @ (..., n, 2) runs one tiny product per frame
        # and its (..., n, 2) temporaries cost as much again (2x slower at 1e5 frames).
        out = np.empty(lead + (2, p))
        np.matmul(x, lt, out=out[..., 0, :])
        np.matmul(y, lt, out=out[..., 1, :])
        return np.swapaxes(out, -1, -2)

    if axes.shape[:-2] != lead:  # one posture with N frames of rates
        axes = np.broadcast_to(axes, lead + (n, 2))
    c, s = np.ascontiguousarray(axes[..., 0]), np.ascontiguousarray(axes[..., 1])
    r = carried(c, s)
    if rates is None:
        return (r,)
    w = rates
    # perp(e) = (-s, c) in components, so de/dt = w perp(e) = (-w s, w c); the products are
    # formed in place (each temporary is as large as the input: at 1e5 frames the
    # allocations cost as much as the arithmetic).
    ws, wc = w * s, w * c
    v = carried(np.negative(ws), wc)
    if accelerations is None:
        return r, v
    al = accelerations
    # d/dt (w perp(e)) = al perp(e) - w^2 e = (-(al s + w wc), al c - w ws)
    x = np.multiply(al, s)
    x += np.multiply(w, wc, out=wc)
    np.negative(x, out=x)
    y = np.multiply(al, c)
    y -= np.multiply(w, ws, out=ws)
    return r, v, carried(x, y)


def lever_jacobian(levers: np.ndarray, axes: np.ndarray,
                   angle_map: np.ndarray | None) -> np.ndarray:
    """``d r_p / d q`` (..., p, 2, k) of the points ``r_p = sum_j L_pj e_j`` (base fixed).

    ``e_j`` turns at ``dpsi_j/dq = angle_map[j]`` (n, k), so each point moves by
    ``sum_j L_pj perp(e_j) angle_map[j]`` per unit rate of the coordinates (``None``: the
    segment angles are the coordinates, the result is per segment angle, (..., p, 2, n)).
    """
    per_angle = np.einsum("pj,...jd->...pdj", levers, perp(axes))
    return per_angle if angle_map is None else per_angle @ angle_map


def newton_euler_step(rcm: np.ndarray, rd: np.ndarray, rp: np.ndarray, acm: np.ndarray,
                      alpha: np.ndarray, mass: np.ndarray | float, inertia: np.ndarray | float,
                      Fd: np.ndarray, Md: np.ndarray, g: float  # noqa: N803 - invdyn2d's names
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Load on one segment at ``rp`` from its motion and the load ``Fd, Md`` at ``rd``.

    Newton and Euler about the centre of mass (:func:`bmc.newton_euler.invdyn2d`):
    ``Fp = m a - m g - Fd``, ``Mp = I alpha - Md - (rd - rcm) x Fd - (rp - rcm) x Fp``.
    """
    m = np.asarray(mass)[..., None]
    Fp = m * acm - m * np.array([0.0, -g]) - Fd
    Mp = inertia * alpha - Md - cross(rd - rcm, Fd) - cross(rp - rcm, Fp)
    return Fp, Mp


def upward(rcm: np.ndarray, acm: np.ndarray, alpha: np.ndarray, masses: np.ndarray,
           inertias: np.ndarray, points: np.ndarray, force: np.ndarray, moment: np.ndarray,
           g: float) -> tuple[np.ndarray, np.ndarray]:
    """Run the Newton-Euler recursion along a path of segments from a load on the first.

    Segment ``j`` of the path (centre of mass ``rcm[..., j, :]``, its acceleration
    ``acm[..., j, :]``, angular acceleration ``alpha[..., j]``, ``masses[j]``,
    ``inertias[j]``) carries the known load at ``points[..., j, :]`` and passes its
    reaction to segment ``j + 1`` at ``points[..., j + 1, :]`` (action and reaction).

    Returns
    -------
    forces, moments : numpy.ndarray, shapes (..., m, 2) and (..., m)
        The load ON segment ``j`` at ``points[..., j + 1, :]`` [N, N m]; for the last
        segment, what is left at its far point (zero for consistent data and a free end).
    """
    m = masses.size
    lead = np.broadcast_shapes(rcm.shape[:-2], acm.shape[:-2], alpha.shape[:-1],
                               points.shape[:-2], force.shape[:-1], moment.shape)
    forces = np.empty(lead + (m, 2))
    moments = np.empty(lead + (m,))
    for j in range(m):  # segments along the path, never frames
        Fp, Mp = newton_euler_step(rcm[..., j, :], points[..., j, :], points[..., j + 1, :],
                                   acm[..., j, :], alpha[..., j], masses[j], inertias[j],
                                   force, moment, g)
        forces[..., j, :] = Fp
        moments[..., j] = Mp
        force, moment = -Fp, -Mp
    return forces, moments


def blocked_forces(q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, *, angles: np.ndarray,
                   offsets: np.ndarray | None, B: np.ndarray, gs: np.ndarray,
                   diag: np.ndarray, floating: tuple[np.ndarray, float, float] | None,
                   project: np.ndarray) -> np.ndarray:
    """``project @ [F_base; tau_seg]`` for (N, k) coordinates, in blocks of frames.

    ``angles`` (n, k) maps the coordinates to the moving segments' axis angles
    ``psi = angles q + offsets``. With ``B_ij = sum_k m_k L_ki L_kj`` and
    ``gs_i = g sum_k m_k L_ki`` (``L`` the centre-of-mass levers) the generalized force
    about segment ``i``'s angle is

        (B_ii + I_i) psidd_i + gs_i cos psi_i
        + sum_{j != i} B_ij (cos(psi_i - psi_j) psidd_j + sin(psi_i - psi_j) psid_j^2)

    (``diag`` holds ``B_ii + I_i``). A floating base, ``(s, M, g)`` with ``s_i = sum_k m_k
    L_ki`` and the total mass ``M``, adds ``s_i perp(e_i) . a_B`` to it and the base force
    ``M a_B + sum_i s_i (psidd_i perp(e_i) - psid_i^2 e_i) + M g y`` in front (``a_B`` is
    ``qdd[:, :2]``). Only the ``2n`` sines and cosines of the segment angles are evaluated
    (those of the differences follow from the sum formulas), no (N, n, n) array is built,
    and the loop runs over blocks of frames and pairs of segments, never over frames.
    """
    n_frames = q.shape[0]
    n = angles.shape[0]
    rows = project.shape[0]
    out = np.empty((n_frames, rows))
    pairs = [(i, j, B[i, j]) for i in range(n) for j in range(i + 1, n)]
    width = min(BLOCK, max(n_frames, 1))
    buf = [np.empty((n, width)) for _ in range(6)]
    cols = [np.empty(width) for _ in range(4)]
    extra = 0 if floating is None else 2
    stacked = np.empty((n + extra, width))
    result = np.empty((rows, width))
    for start in range(0, n_frames, width):
        stop = min(start + width, n_frames)
        m = stop - start
        phi, w2, acc, c, s, scratch = (x[:, :m] for x in buf)
        cij, sij, t1, t2 = (x[:m] for x in cols)
        tau = stacked[extra:, :m]
        np.matmul(angles, q[start:stop].T, out=phi)
        if offsets is not None:
            phi += offsets[:, None]
        np.matmul(angles, qd[start:stop].T, out=w2)
        np.multiply(w2, w2, out=w2)
        np.matmul(angles, qdd[start:stop].T, out=acc)
        np.cos(phi, out=c)
        np.sin(phi, out=s)
        np.multiply(acc, diag[:, None], out=tau)
        np.multiply(c, gs[:, None], out=scratch)
        tau += scratch
        for i, j, b in pairs:
            np.multiply(c[i], c[j], out=cij)  # B_ij cos(psi_i - psi_j)
            np.multiply(s[i], s[j], out=t1)
            cij += t1
            cij *= b
            np.multiply(s[i], c[j], out=sij)  # B_ij sin(psi_i - psi_j)
            np.multiply(c[i], s[j], out=t1)
            sij -= t1
            sij *= b
            np.multiply(cij, acc[j], out=t1)
            np.multiply(sij, w2[j], out=t2)
            t1 += t2
            tau[i] += t1
            np.multiply(cij, acc[i], out=t1)
            np.multiply(sij, w2[i], out=t2)
            t1 -= t2
            tau[j] += t1
        if floating is not None:
            first, total, g = floating
            ax, ay = qdd[start:stop, 0], qdd[start:stop, 1]
            # angle rows: s_i perp(e_i) . a_B = s_i (-sin psi_i ax + cos psi_i ay)
            np.multiply(s, ax, out=scratch)
            np.negative(scratch, out=scratch)
            scratch += c * ay
            scratch *= first[:, None]
            tau += scratch
            # base rows: M a_B + sum_i s_i (psidd_i (-s_i, c_i) - psid_i^2 (c_i, s_i)) + M g y
            stacked[0, :m] = total * ax - first @ (acc * s + w2 * c)
            stacked[1, :m] = total * ay + first @ (acc * c - w2 * s) + total * g
        np.matmul(project, stacked[:, :m], out=result[:, :m])
        out[start:stop] = result[:, :m].T
    return out
