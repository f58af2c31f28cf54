r"""Least-squares inverse dynamics of a standing body (Kuo 1998).

A body standing on a force plate gives more measurements than inverse dynamics needs: the
segment angular accelerations alone determine the joint torques (top-down Newton-Euler),
and so do the ground reaction force and torque (bottom-up). With noisy data the two
disagree. The conventional bottom-up method keeps the force plate and leaves a residual
load on the top segment; Kuo's method keeps every measurement and finds, frame by frame,
the joint torques that agree best with all of them in the weighted least-squares sense.

This module holds the method; the body it is applied to and Kuo's benchmark trial (the
model :class:`bmc.models.standing.FourSegmentModel`, the simulated sway
:func:`bmc.models.standing.simulate_sway` and its noisy measurement
:func:`bmc.models.standing.measure`) live in :mod:`bmc.models.standing`; this module never
imports them. It takes any :class:`bmc.planar.PlanarModel` whose only load from the
environment acts at its base point (a force plate under a fixed base; for a floating base,
the load at the base point is one more unknown, estimated with the torques). The method
comprises

- the estimators: :func:`newton_euler` (bottom-up, with its residual at the top segment),
  :func:`system` (the overdetermined ``A tau = b`` of eq. 6), :func:`weighted_least_squares`
  (eq. 8, batched over frames, missing channels by zero weight), :func:`least_squares`
  (both in one call) and :func:`estimate_bias` (eq. 10: every frame and a constant bias in
  one system, solved by block elimination);
- the error analysis: :func:`paper_covariance` (Appendix B), :func:`propagated_covariance`
  (marker and force noise carried through angles, velocities and accelerations),
  :func:`newton_euler_gain` (the matrix ``F`` of eq. 11) and :func:`error_covariance`
  (eqs. 12-13: ``gain @ cov @ gain.T``);
- :func:`rmse` and :func:`overall_rmse` (eqs. 14-15; the one copy in :mod:`bmc.signals`,
  re-exported here) and :func:`overall_rmse_by_realisation`.

Conventions: SI units; x forward, y up; angles counter-clockwise from +x; axis 0 is time
(or frames of several realisations stacked one after the other). The measurement vector of
one frame is ``z = [N_O, Fx, Fy, phidd_shank, phidd_thigh, phidd_HAT]`` (:data:`ROWS`): the
moment N_O of the plate about its origin [N m], the ground reaction force on the
foot [N], and the segment angular accelerations [rad/s^2]. Joint torques
``tau = [ankle, knee, hip]`` [N m] are those of the model, in its convention
(:attr:`bmc.planar.PlanarModel.torque_on`); for Kuo's body they are the course's net joint
moments: each acts counter-clockwise positive on the anatomically distal segment (the
ankle moment on the foot, the knee moment on the shank, the hip moment on the thigh), its
reaction on the proximal one. Kuo's torques act on the segment above the joint: his
``tau`` is minus this module's (``tau_Kuo = -tau``); his equations hold with ``Q`` and
the ``A`` of eq. (6) negated.

References
----------
.. [1] Kuo, A. D. (1998). A least-squares estimation approach to improving the precision
   of inverse dynamics computations. *Journal of Biomechanical Engineering*, 120(1),
   148-159. https://doi.org/10.1115/1.2834295
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, frames
from bmc.planar import PlanarModel
from bmc.signals import overall_rmse, rmse

__all__ = [
    "ROWS",
    "BiasResult",
    "LeastSquaresResult",
    "Measured",
    "NewtonEulerResult",
    "error_covariance",
    "estimate_bias",
    "least_squares",
    "newton_euler",
    "newton_euler_gain",
    "overall_rmse",
    "overall_rmse_by_realisation",
    "paper_covariance",
    "propagated_covariance",
    "rmse",
    "system",
    "weighted_least_squares",
]


def __dir__() -> list[str]:
    return sorted(__all__)

#: Names of the rows of the measurement vector (and of ``A`` and ``b``).
ROWS = ("N_O", "Fx", "Fy", "shank", "thigh", "HAT")

_EPS = 1e-6  # finite-difference step of the linearisation [rad, rad/s]


# --------------------------------------------------------------------------- estimators
class NewtonEulerResult(NamedTuple):
    """Result of :func:`newton_euler`.

    Attributes
    ----------
    tau : numpy.ndarray, shape (..., 3)
        Ankle, knee, hip torques [N m], in the model's convention.
    residual : numpy.ndarray, shape (..., 3)
        Load left at the free top of the HAT, ``[torque [N m], fx [N], fy [N]]``, in the
        same convention as the torques (for Kuo's body: the load that would have to act on
        the HAT there); zero for consistent data.
    """

    tau: np.ndarray
    residual: np.ndarray


def _model(model: Any) -> PlanarModel:
    if not isinstance(model, PlanarModel):
        raise TypeError("model must be a planar model (bmc.planar.PlanarModel, e.g. "
                        f"bmc.models.standing.FourSegmentModel()); got {type(model).__name__}")
    return model


def _inputs(model: Any, phi: ArrayLike, phid: ArrayLike, phidd: ArrayLike,
            grf: ArrayLike) -> tuple[np.ndarray, ...]:
    q, qd, qdd = _model(model).check_state(q=phi, qd=phid, qdd=phidd)
    load = as_array(grf, "grf", unit="N m, N, N", last=3)
    lead = frames(("phi", q, 1), ("phid", qd, 1), ("phidd", qdd, 1), ("grf", load, 1),
                  equal=True)
    # one frame of either goes with the N frames of the other
    q, qd, qdd = (np.broadcast_to(x, lead + x.shape[-1:]) for x in (q, qd, qdd))
    return q, qd, qdd, np.broadcast_to(load, lead + (3,))


def newton_euler(
    model: PlanarModel, phi: ArrayLike, phid: ArrayLike, phidd: ArrayLike, grf: ArrayLike
) -> NewtonEulerResult:
    r"""Conventional bottom-up Newton-Euler inverse dynamics, from the force plate upward.

    Starting from the measured ground reaction on the foot, Newton's and Euler's equations
    of each segment give the load at its upper joint. In the course's convention (the
    load at joint :math:`i` acts on segment :math:`i` below it, as Kuo's body has it):
    :math:`F_i = F_{i-1} + m_i(\ddot r_i + g\hat y)` and
    :math:`\tau_i = \tau_{i-1} + I_i\ddot\varphi_i + s^-_i \times F_{i-1} - s^+_i \times F_i`,
    with :math:`s^-_i, s^+_i` from the centre of mass to the lower and upper joint and, for
    the foot, minus the plate's load in place of :math:`(N_O, F_\mathrm{GRF})`. Kuo's eqs. (1)-(2)
    are the same with his loads on the segment above, :math:`f_i = -F_i`,
    :math:`\tau^\mathrm{Kuo}_i = -\tau_i`.
    The top of the HAT is free, so whatever load is left there is a residual. This is the
    package's one upward recursion (``bmc._kernels.upward``, on :func:`bmc.invdyn2d`'s
    step), on the model's kinematics, from the base segment to the last; it needs a model
    without branches (each segment the child of the one before).

    Parameters
    ----------
    model : PlanarModel
        The body, e.g. :class:`bmc.models.standing.FourSegmentModel`.
    phi, phid, phidd : array_like, shape (..., 3)
        Segment angles [rad], velocities [rad/s], accelerations [rad/s^2] (shank, thigh,
        HAT).
    grf : array_like, shape (..., 3)
        Ground reaction ``[N_O, Fx, Fy]`` [N m, N, N].

    Returns
    -------
    NewtonEulerResult
        Joint torques and the residual at the top.

    Examples
    --------
    On consistent data (two frames of a made-up motion and the ground reaction it implies)
    the torques are those of the top-down inverse dynamics and nothing is left at the top:

    >>> from bmc.models.standing import POSTURE, FourSegmentModel
    >>> model = FourSegmentModel()
    >>> phi = np.array(POSTURE) + [[0.0, 0.0, 0.0], [0.05, -0.1, 0.02]]  # [rad]
    >>> phid, phidd = np.full((2, 3), 0.3), np.full((2, 3), -1.0)  # [rad/s, rad/s^2]
    >>> grf = model.ground_reaction(phi, phid, phidd)
    >>> ne = newton_euler(model, phi, phid, phidd, grf)
    >>> bool(np.allclose(ne.tau, model.inverse_dynamics(phi, phid, phidd)))
    True
    >>> bool(np.abs(ne.residual).max() < 1e-9)
    True
    """
    q, qd, qdd, load = _inputs(model, phi, phid, phidd, grf)
    if any(p != i - 1 for i, p in enumerate(model.parent)):
        raise ValueError(f"model must be unbranched, each segment the child of the one before, "
                         f"for the bottom-up recursion; its parents are {model.parent}")
    return _newton_euler(model, q, qd, qdd, load)


def _newton_euler(model: PlanarModel, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray,
                  load: np.ndarray) -> NewtonEulerResult:
    """:func:`newton_euler` on checked arrays."""
    n = model.n
    # the load acts at the base point; each segment passes it on at its distal joint, the
    # last at its free end
    levers = np.vstack([model.lever, model.lever[-1] + np.eye(n)[-1] * model.lengths[-1]])
    forces, moments = model.kernel.path_loads(q, qd, qdd, list(range(n)), levers,
                                              load[..., 1:], load[..., 0])
    passed = -moments  # moment on the next segment at the joint: the torque on the child
    tau = [load[..., 0] if c == 0 else passed[..., c - 1]
           for c in model.kernel.topology.joint_child]
    residual = np.concatenate([passed[..., -1:], -forces[..., -1, :]], axis=-1)
    sign = model.kernel.torque_sign  # -1 when the model's torques act on the parent
    return NewtonEulerResult(sign * np.stack(tau, axis=-1), sign * residual)


def system(
    model: PlanarModel, phi: ArrayLike, phid: ArrayLike, phidd: ArrayLike, grf: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    r"""Assemble the overdetermined system ``A tau = b`` of Kuo's eq. (6), one per frame.

    With :math:`\ddot\phi = M^{-1}(Q\tau - h)` (equations of motion) and
    :math:`y = C\ddot\phi + d` (ground reaction), every measurement is affine in the
    joint torques:

    .. math::
        \underbrace{\begin{bmatrix} C M^{-1} Q \\ M^{-1} Q \end{bmatrix}}_{A} \tau =
        \underbrace{\begin{bmatrix} y' - d + C M^{-1} h \\ \ddot\phi' + M^{-1} h
        \end{bmatrix}}_{b}

    ``Q`` is the model's :attr:`~bmc.planar.PlanarModel.torque_matrix` (the sign of the
    torques lives there: for Kuo's body, in the course's convention, ``Q`` and so ``A``
    are the negatives of Kuo's), ``C`` and ``d`` its
    :meth:`~bmc.planar.PlanarModel.base_reaction_terms`. For a floating base the load
    ``y`` at the base point drives the body too: the unknowns are then ``[tau, y]``, with
    ``Q`` extended by ``J^T`` and the first rows ``y' = y``.

    Parameters
    ----------
    model : PlanarModel
        The body, e.g. :class:`bmc.models.standing.FourSegmentModel`.
    phi, phid, phidd : array_like, shape (..., 3)
        Measured segment angles [rad], velocities [rad/s], accelerations [rad/s^2].
    grf : array_like, shape (..., 3)
        Measured ground reaction ``[N_O, Fx, Fy]`` [N m, N, N].

    Returns
    -------
    A : numpy.ndarray, shape (..., 6, 3)
        Rows :data:`ROWS`: [1] for ``N_O``, [1/m] for the forces, [1/(kg m^2)] for the
        accelerations.
    b : numpy.ndarray, shape (..., 6)
        [N m, N, N, rad/s^2, rad/s^2, rad/s^2].

    Examples
    --------
    Consistent data (two frames of a made-up motion) satisfy every row with the true
    torques:

    >>> from bmc.models.standing import POSTURE, FourSegmentModel
    >>> model = FourSegmentModel()
    >>> phi = np.array(POSTURE) + [[0.0, 0.0, 0.0], [0.05, -0.1, 0.02]]  # [rad]
    >>> phid, phidd = np.full((2, 3), 0.3), np.full((2, 3), -1.0)  # [rad/s, rad/s^2]
    >>> A, b = system(model, phi, phid, phidd, model.ground_reaction(phi, phid, phidd))
    >>> tau = model.inverse_dynamics(phi, phid, phidd)
    >>> A.shape, bool(np.allclose(np.einsum("kij,kj->ki", A, tau), b))
    ((2, 6, 3), True)
    """
    return _system(model, *_inputs(model, phi, phid, phidd, grf))


def _loads(model: PlanarModel) -> np.ndarray:
    """Generalized forces of the unknowns: joint torques (and a floating base's load)."""
    kernel = model.kernel
    if not model.floating:
        return kernel.P
    base = np.zeros((model.k, 3))
    base[:, 0] = kernel.A[0]  # the moment N_O turns the root
    base[0, 1] = base[1, 2] = 1.0  # the force at the base point moves the base
    return np.concatenate([kernel.P, base], axis=1)


def _system(model: PlanarModel, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray,
            grf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`system` on checked arrays."""
    kernel = model.kernel
    mass = kernel.mass_matrix(q)
    h = kernel.bias(q, qd)
    loads = _loads(model)
    # k = M^-1 Q and u = M^-1 h from one factorisation per frame (one batched solve with
    # the columns of Q and h side by side: two solves cost twice as much).
    both = np.linalg.solve(mass, np.concatenate(
        [np.broadcast_to(loads, mass.shape[:-1] + loads.shape[-1:]), h[..., None]], axis=-1))
    k, u = both[..., :-1], both[..., -1]
    if model.floating:
        top = np.broadcast_to(np.eye(3, loads.shape[1], k=loads.shape[1] - 3),
                              k.shape[:-2] + (3, loads.shape[1]))
        b_top = np.broadcast_to(grf, u.shape[:-1] + (3,))
    else:
        C, d = kernel.base_reaction_terms(q, qd)
        top = C @ k
        b_top = grf - d + np.einsum("...ij,...j->...i", C, u)
    A = np.concatenate([top, k], axis=-2)
    b = np.concatenate([b_top, qdd + u], axis=-1)
    return A, b


class LeastSquaresResult(NamedTuple):
    """Result of :func:`weighted_least_squares` and :func:`least_squares`.

    Attributes
    ----------
    tau : numpy.ndarray, shape (..., 3)
        Estimated joint torques [N m].
    covariance : numpy.ndarray, shape (..., 3, 3)
        ``(A^T W^-1 A)^-1`` [N^2 m^2]: the error covariance, eq. (13), if ``W`` is the
        true covariance of the measurement errors.
    gain : numpy.ndarray, shape (..., 3, 6)
        The weighted pseudo-inverse ``(A^T W^-1 A)^-1 A^T W^-1``: ``tau = gain @ b``, and
        ``gain @ X @ gain.T`` is the error covariance when the errors have covariance ``X``
        (:func:`error_covariance`).
    phidd : numpy.ndarray or None, shape (..., 3)
        Segment accelerations the estimate implies [rad/s^2] (:func:`least_squares` only).
    grf : numpy.ndarray or None, shape (..., 3)
        Ground reaction the estimate implies [N m, N, N] (:func:`least_squares` only).
    """

    tau: np.ndarray
    covariance: np.ndarray
    gain: np.ndarray
    phidd: np.ndarray | None = None
    grf: np.ndarray | None = None


def _weigh(x: np.ndarray, info: tuple[np.ndarray, bool]) -> np.ndarray:
    """``x @ W^-1`` for rows ``x`` (..., r, m): a product, or a scaling when W is diagonal."""
    weights, diagonal = info
    return x * weights[..., None, :] if diagonal else x @ weights


def _usable(cov: ArrayLike, m: int, available: ArrayLike | None) -> str:
    """Say what arrived for a singular system: the fewest usable rows of a frame."""
    cov = np.asarray(cov, dtype=float)
    var = np.diagonal(cov, axis1=-2, axis2=-1) if cov.ndim >= 2 and cov.shape[-2:] == (m, m) \
        else cov
    mask = np.isfinite(var)
    if available is not None:
        mask = mask & np.asarray(available, dtype=bool)
    fewest = int(np.min(np.sum(mask, axis=-1)))
    return (f"got {fewest} usable row(s) of {m} in the poorest frame (rows True in "
            "available, with a finite variance in cov)")


def _information(cov: ArrayLike, m: int,
                 available: ArrayLike | None) -> tuple[np.ndarray, bool]:
    """Inverse covariance ``W^-1`` with unavailable or infinite-variance rows set to zero.

    Returned as weights (..., m) and True when every covariance is diagonal (Kuo's
    Appendix B), as matrices (..., m, m) and False otherwise; :func:`_weigh` applies either.
    """
    cov = as_array(cov, "cov", finite=False)
    if cov.ndim == 0 or cov.shape[-1] != m:
        raise ValueError(
            f"cov must be variances (..., {m}) or covariances (..., {m}, {m}) of the "
            f"measurement errors; got shape {cov.shape}"
        )
    full = cov.ndim >= 2 and cov.shape[-2:] == (m, m)
    var = np.diagonal(cov, axis1=-2, axis2=-1) if full else cov
    if full and np.count_nonzero(cov) == np.count_nonzero(var):  # diagonal matrices
        full = False
    if np.isnan(cov).any() or np.any(var <= 0):
        bad = cov[np.isnan(cov)] if np.isnan(cov).any() else var[var <= 0]
        raise ValueError("cov must have positive variances (use np.inf or `available` to "
                         f"drop a channel) and no NaN; got {float(bad.ravel()[0])!r}")
    mask = np.isfinite(var)
    if available is not None:
        avail = np.asarray(available)
        if avail.dtype != bool or avail.shape[-1:] != (m,):
            raise ValueError(
                f"available must be booleans (..., {m}), one per row {ROWS}; got "
                f"{avail.dtype} array of shape {avail.shape}"
            )
        mask = mask & avail
    if not full:
        return np.where(mask, 1.0 / np.where(mask, var, 1.0), 0.0), True
    both = mask[..., :, None] & mask[..., None, :]
    if np.any(~np.isfinite(cov) & both):
        raise ValueError("cov has non-finite off-diagonal entries between used channels")
    kept = np.where(both, cov, np.eye(m))
    try:
        return np.linalg.inv(kept) * both, False
    except np.linalg.LinAlgError:
        raise ValueError(
            f"cov of shape {cov.shape} is read as covariance matrices (..., {m}, {m}), and one "
            f"is singular; got a matrix with determinant 0: give positive definite "
            f"covariances, or variances of shape (F, {m}) for F != {m} frames; {m} frames of "
            f"variances read as matrices, so pass them as diagonal ones, "
            f"var[..., None] * np.eye({m})") from None


def weighted_least_squares(
    A: ArrayLike, b: ArrayLike, cov: ArrayLike, *, available: ArrayLike | None = None
) -> LeastSquaresResult:
    r"""Weighted least squares frame by frame, Kuo's eq. (8), batched over axis 0.

    :math:`\tau = (A^T W^{-1} A)^{-1} A^T W^{-1} b` with the normal equations solved for
    every frame at once (no loop over frames).

    Parameters
    ----------
    A : array_like, shape (..., m, p)
        Matrices of the overdetermined systems.
    b : array_like, shape (..., m)
        Right-hand sides.
    cov : array_like, shape (..., m) or (..., m, m)
        Variances or full covariance ``W`` of the errors in ``b``. A variance of
        ``np.inf`` drops that row (zero weight).
    available : array_like of bool, shape (..., m) or (m,), optional
        False marks a missing measurement (keyword-only): its weight is zero, which is the
        paper's way of handling missing force-plate channels.

    Returns
    -------
    LeastSquaresResult
        Estimate, ``(A^T W^-1 A)^-1`` and the gain matrix.

    Raises
    ------
    ValueError
        If the available rows cannot determine ``p`` unknowns.

    Examples
    --------
    >>> A = np.array([[1.0], [1.0]])
    >>> res = weighted_least_squares(A, [1.0, 2.0], [1.0, 4.0])   # weights 1 and 1/4
    >>> print(np.round(res.tau, 6), np.round(res.covariance, 6))
    [1.2] [[0.8]]
    """
    A = as_array(A, "A")
    if A.ndim < 2:
        raise ValueError(f"A must have shape (..., m, p); got {A.shape}")
    m, p = A.shape[-2:]
    b = as_array(b, "b", last=m)
    info = _information(cov, m, available)
    frames(("A", A, 2), ("b", b, 1), ("cov", info[0], 1 if info[1] else 2))
    at_w = _weigh(np.swapaxes(A, -1, -2), info)
    normal = at_w @ A
    try:
        covariance = np.linalg.inv(normal)
    except np.linalg.LinAlgError:
        covariance = np.full(normal.shape, np.inf)
    # condition number in the Frobenius norm, ||N|| ||N^-1||: cheap and sufficient here
    # (0 * inf for an all-zero system is nan, which the test below reports as singular)
    with np.errstate(invalid="ignore", over="ignore"):
        cond = np.linalg.norm(normal, axis=(-2, -1)) * np.linalg.norm(covariance, axis=(-2, -1))
    if not np.all(cond < 1e14):
        raise ValueError(
            f"the weighted normal equations A^T W^-1 A are singular in "
            f"{int(np.sum(~(cond < 1e14)))} frame(s): the available rows of A (the "
            f"measurements) do not determine the {p} unknowns; {_usable(cov, m, available)}: "
            "measure more channels"
        )
    gain = covariance @ at_w
    tau = np.einsum("...ij,...j->...i", gain, b)
    return LeastSquaresResult(tau, covariance, gain)


def least_squares(
    model: PlanarModel,
    phi: ArrayLike,
    phid: ArrayLike,
    phidd: ArrayLike,
    grf: ArrayLike,
    cov: ArrayLike,
    *,
    available: ArrayLike | None = None,
) -> LeastSquaresResult:
    """Kuo's least-squares inverse dynamics: :func:`system` then :func:`weighted_least_squares`.

    Parameters
    ----------
    model : PlanarModel
        The body, e.g. :class:`bmc.models.standing.FourSegmentModel`.
    phi, phid, phidd : array_like, shape (..., 3)
        Measured segment angles [rad], velocities [rad/s], accelerations [rad/s^2].
    grf : array_like, shape (..., 3)
        Measured ground reaction ``[N_O, Fx, Fy]`` [N m, N, N].
    cov : array_like, shape (..., 6) or (..., 6, 6)
        Covariance of the measurement errors (:func:`paper_covariance`,
        :func:`propagated_covariance`), rows :data:`ROWS`.
    available : array_like of bool, shape (..., 6) or (6,), optional
        Which measurements to use (keyword-only); e.g. ``[False, True, True, True, True,
        True]`` without the ground reaction torque.

    Returns
    -------
    LeastSquaresResult
        With the implied accelerations ``phidd`` and ground reaction ``grf``.
    """
    q, qd, qdd, load = _inputs(model, phi, phid, phidd, grf)
    A, b = _system(model, q, qd, qdd, load)
    res = weighted_least_squares(A, b, cov, available=available)
    shift = np.einsum("...ij,...j->...i", A, res.tau) - b  # predicted minus measured
    res = res._replace(phidd=qdd + shift[..., 3:], grf=load + shift[..., :3])
    nj = model.m // 2
    if model.floating:  # the unknowns were [tau, load]: the torques, and their errors
        res = res._replace(tau=res.tau[..., :nj], covariance=res.covariance[..., :nj, :nj],
                           gain=res.gain[..., :nj, :])
    return res


class BiasResult(NamedTuple):
    """Result of :func:`estimate_bias`.

    Attributes
    ----------
    tau : numpy.ndarray, shape (F, p)
        Estimated joint torques of every frame [N m].
    beta : numpy.ndarray, shape (G, nb)
        Estimated constant biases of every group of frames, in the units of the rows they
        act on.
    """

    tau: np.ndarray
    beta: np.ndarray


def estimate_bias(
    A: ArrayLike,
    b: ArrayLike,
    cov: ArrayLike,
    B: ArrayLike,
    *,
    groups: ArrayLike | None = None,
    available: ArrayLike | None = None,
) -> BiasResult:
    r"""Joint torques of all frames and constant measurement biases as one system.

    Kuo's eq. (10): the measurements of frame ``k`` are modelled as
    ``b[k] = A[k] tau[k] + B beta + error``, with ``beta`` constant over the trial. All
    frames are stacked into one block system

    .. math::
        \begin{bmatrix} A_1 & & & B \\ & \ddots & & \vdots \\ & & A_N & B \end{bmatrix}
        \begin{bmatrix} \tau_1 \\ \vdots \\ \tau_N \\ \beta \end{bmatrix} =
        \begin{bmatrix} b_1 \\ \vdots \\ b_N \end{bmatrix},

    weighted frame by frame with ``W[k]^-1`` and solved through its normal equations by
    block elimination: each frame's torques are eliminated, the biases solved from the
    Schur complement (one small system per group), and the torques back-substituted, all
    batched over frames. Note the sign: ``beta`` is the offset *in the measurement*
    (the paper writes ``A tau = b + B beta``, the opposite sign).

    Parameters
    ----------
    A : array_like, shape (F, m, p)
        System matrices of every frame.
    b : array_like, shape (F, m)
        Right-hand sides.
    cov : array_like, shape (F, m) or (F, m, m)
        Error covariances, as for :func:`weighted_least_squares`.
    B : array_like, shape (m, nb) or (F, m, nb)
        Which biases act on which rows (constant ones and zeros, as in the paper, or any
        per-frame regressor, e.g. ``-Fy`` on the ``N_O`` row for a misalignment in metres).
    groups : array_like of int, shape (F,), optional
        Frames with the same label share one bias vector (keyword-only); e.g. one label
        per realisation. Default: one group.
    available : array_like of bool, optional
        Rows to use, as for :func:`weighted_least_squares`.

    Returns
    -------
    BiasResult
        Torques ``(F, p)`` and biases ``(G, nb)``, groups in sorted label order.

    Examples
    --------
    A constant 5 N m offset on the ground reaction torque of five frames is found and
    removed:

    >>> from bmc.models.standing import POSTURE, FourSegmentModel
    >>> model = FourSegmentModel()
    >>> phi = np.array(POSTURE) + np.linspace(-0.05, 0.05, 5)[:, None]  # [rad]
    >>> phid, phidd = np.zeros((5, 3)), np.ones((5, 3))  # [rad/s, rad/s^2]
    >>> grf = model.ground_reaction(phi, phid, phidd) + [5.0, 0.0, 0.0]  # [N m, N, N]
    >>> A, b = system(model, phi, phid, phidd, grf)
    >>> res = estimate_bias(A, b, np.ones(6), [[1.0], [0], [0], [0], [0], [0]])
    >>> tau = model.inverse_dynamics(phi, phid, phidd)
    >>> print(np.round(res.beta, 6), bool(np.allclose(res.tau, tau)))
    [[5.]] True
    """
    A = as_array(A, "A", ndim=3)
    n_f, m, p = A.shape
    b = as_array(b, "b", last=m, ndim=2)
    frames(("A", A, 2), ("b", b, 1), equal=True)
    B = as_array(B, "B", ndim=(2, 3))
    if B.shape[-2] != m or (B.ndim == 3 and B.shape[0] != n_f):
        raise ValueError(f"B must have shape ({m}, nb) or ({n_f}, {m}, nb); got {B.shape}")
    nb = B.shape[-1]
    if groups is None:
        index, n_g = np.zeros(n_f, dtype=int), 1
    else:
        g = np.asarray(groups)
        if g.shape != (n_f,) or not np.issubdtype(g.dtype, np.integer):
            raise ValueError(f"groups must be integer labels of shape ({n_f},); got {g.shape}")
        labels, index = np.unique(g, return_inverse=True)
        n_g = labels.size
    info = _information(cov, m, available)
    frames(("A", A, 2), ("b", b, 1), ("cov", info[0], 1 if info[1] else 2))

    # Block elimination of the normal equations (the stacked matrix is arrow-shaped: one
    # p x p block per frame, the bias columns shared). Per frame, with W = info:
    # N = A^T W A, K = A^T W B, r = A^T W b; then per group the Schur complement
    # S = sum (B^T W B - K^T N^-1 K), t = sum (B^T W b - K^T N^-1 r), beta = S^-1 t, and
    # tau = N^-1 (r - K beta). The same solution as the sparse stacked system, without it.
    at_w = _weigh(np.swapaxes(A, -1, -2), info)               # (F, p, m)
    bt_w = _weigh(np.broadcast_to(np.swapaxes(B, -1, -2), (n_f, nb, m)), info)  # (F, nb, m)
    normal = at_w @ A                                         # (F, p, p)
    coupling = at_w @ B                                       # (F, p, nb)
    rhs = np.einsum("fij,fj->fi", at_w, b)                    # (F, p)
    try:
        solved = np.linalg.solve(normal, np.concatenate([coupling, rhs[..., None]], axis=-1))
    except np.linalg.LinAlgError:
        raise ValueError("the stacked system is singular: in some frame the available rows "
                         f"of A do not determine the torques; {_usable(cov, m, available)}: "
                         "measure more channels") from None
    k_b, k_r = solved[..., :-1], solved[..., -1]
    per_s = (bt_w @ B) - np.swapaxes(coupling, -1, -2) @ k_b              # (F, nb, nb)
    per_t = np.einsum("...ij,...j->...i", bt_w, b) - np.einsum("fpi,fp->fi", coupling, k_r)
    schur = np.stack([np.bincount(index, weights=per_s[:, i, j], minlength=n_g)
                      for i in range(nb) for j in range(nb)], axis=-1).reshape(n_g, nb, nb)
    t = np.stack([np.bincount(index, weights=per_t[:, i], minlength=n_g)
                  for i in range(nb)], axis=-1)
    scale = np.abs(schur).max(axis=(-2, -1), initial=0.0)
    if np.any(scale == 0) or np.any(np.linalg.cond(schur) > 1e14):
        raise ValueError("B (the bias columns) must leave the biases identifiable; got a "
                         "singular stacked system: drop a bias column or add frames")
    beta = np.linalg.solve(schur, t[..., None])[..., 0]                   # (G, nb)
    tau = k_r - np.einsum("fpi,fi->fp", k_b, beta[index])
    return BiasResult(tau, beta)


# --------------------------------------------------------------------------- error analysis
def newton_euler_gain(model: PlanarModel, phi: ArrayLike, phid: ArrayLike) -> np.ndarray:
    r"""Matrix ``F`` of Kuo's eq. (11): how measurement errors reach the Newton-Euler torques.

    At fixed angles and velocities the bottom-up torques are affine in the measurements
    ``z = [N_O, Fx, Fy, phidd]``, :math:`\tau = F z + \gamma`; ``F`` is found column by
    column from :func:`newton_euler`.

    Parameters
    ----------
    model : PlanarModel
        The body (unbranched), e.g. :class:`bmc.models.standing.FourSegmentModel`.
    phi, phid : array_like, shape (..., 3)
        Segment angles [rad] and velocities [rad/s].

    Returns
    -------
    numpy.ndarray, shape (..., 3, 6)
        ``d tau / d z``, columns :data:`ROWS`.
    """
    q, qd = _model(model).check_state(q=phi, qd=phid)
    if any(p != i - 1 for i, p in enumerate(model.parent)):
        raise ValueError(f"model must be unbranched for the bottom-up recursion; its parents "
                         f"are {model.parent}")
    q, qd = np.broadcast_arrays(q, qd)
    zero = np.zeros_like(q)
    width = 3 + model.k  # the measurement channels: base load, then accelerations
    base = _newton_euler(model, q, qd, zero, np.zeros(q.shape[:-1] + (3,))).tau
    cols = []
    for j in range(width):  # measurement channels, each for all frames at once
        unit = np.zeros(q.shape[:-1] + (width,))
        unit[..., j] = 1.0
        cols.append(_newton_euler(model, q, qd, unit[..., 3:], unit[..., :3]).tau - base)
    return np.stack(cols, axis=-1)


def error_covariance(gain: ArrayLike, cov: ArrayLike) -> np.ndarray:
    """Covariance of ``gain @ e`` for errors ``e`` of covariance ``cov``: eqs. (12)-(13).

    Parameters
    ----------
    gain : array_like, shape (..., p, m)
        :func:`newton_euler_gain` or ``LeastSquaresResult.gain``.
    cov : array_like, shape (..., m) or (..., m, m)
        Variances or covariance of the measurement errors.

    Returns
    -------
    numpy.ndarray, shape (..., p, p)
        Predicted error covariance of the estimate; its diagonal holds the variances.
    """
    gain = as_array(gain, "gain")
    cov = as_array(cov, "cov")
    if gain.ndim < 2:
        raise ValueError(f"gain must have shape (..., p, m); got shape {gain.shape}")
    if cov.ndim < 1 or cov.shape[-1] != gain.shape[-1]:
        raise ValueError(f"cov must match gain's {gain.shape[-1]} columns; got {cov.shape}")
    full = cov.ndim >= 2 and cov.shape[-2] == cov.shape[-1]
    var = np.diagonal(cov, axis1=-2, axis2=-1) if full else cov
    if np.any(var < 0):
        raise ValueError(
            f"cov must hold variances (squared units, >= 0); got a negative variance "
            f"{float(var[var < 0][0]):g}: pass the squares of the standard deviations")
    if full:
        smallest = np.linalg.eigvalsh((cov + np.swapaxes(cov, -1, -2)) / 2).min()
        if smallest < -1e-9 * np.max(np.abs(var), initial=0.0):
            raise ValueError("cov must be a covariance matrix (symmetric positive "
                             f"semi-definite); got a smallest eigenvalue of {smallest:.3g}: "
                             "check the signs of the covariances")
    if cov.ndim < 2 or cov.shape[-2] != cov.shape[-1]:
        cov = cov[..., None, :] * np.eye(cov.shape[-1])
    return gain @ cov @ np.swapaxes(gain, -1, -2)


@runtime_checkable
class Measured(Protocol):
    """Processed noisy measurements, as :func:`bmc.models.standing.measure` returns them.

    What :func:`paper_covariance` and :func:`propagated_covariance` read (this module does
    not import the models): the measured ``phi``, ``phid``, ``phidd``, the noise levels per
    realisation, the filter's noise gains and how frames are stacked.
    """

    phi: np.ndarray
    phid: np.ndarray
    phidd: np.ndarray
    marker_noise: np.ndarray
    force_noise: np.ndarray
    torque_noise: np.ndarray
    exact_angles: bool

    @property
    def n_frames(self) -> int:
        """Frames per realisation."""

    def gains(self) -> np.ndarray:
        """Noise gains of the processing, (N, 3, 3)."""

    def stack(self, x: ArrayLike) -> np.ndarray:
        """Per-trial data repeated for every realisation."""

    def per_frame(self, values: ArrayLike) -> np.ndarray:
        """Per-realisation values repeated for each frame."""


def _measured(model: Any, meas: Any) -> tuple[PlanarModel, Measured]:
    if not isinstance(meas, Measured):
        raise TypeError("meas must be a Measurement (from bmc.models.standing.measure); got "
                        f"{type(meas).__name__}")
    model = _model(model)
    if model.floating:
        raise ValueError("the measurement covariances are those of a fixed base on a force "
                         "plate (Kuo's); model has a floating base")
    return model, meas


def _predict(model: PlanarModel, q: np.ndarray, qd: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """Return the measurements ``z = [N_O, Fx, Fy, qdd]`` joint torques imply (fixed base)."""
    kernel = model.kernel
    rhs = tau @ kernel.P.T - kernel.bias(q, qd)
    qdd = np.linalg.solve(kernel.mass_matrix(q), rhs[..., None])
    C, d = kernel.base_reaction_terms(q, qd)
    return np.concatenate([(C @ qdd)[..., 0] + d, qdd[..., 0]], axis=-1)


def _marker_angle_covariance(model: PlanarModel, phi: np.ndarray) -> np.ndarray:
    """Covariance of the raw segment angles per unit marker variance [rad^2/m^2]."""
    length = model.lengths[model.kernel.moving]
    k = length.size
    cov = np.zeros(phi.shape[:-1] + (k, k))
    idx = np.arange(k)
    cov[..., idx, idx] = 2.0 / length**2
    # neighbouring segments share the marker at their common joint
    off = -np.cos(phi[..., 1:] - phi[..., :-1]) / (length[1:] * length[:-1])
    cov[..., idx[:-1], idx[1:]] = off
    cov[..., idx[1:], idx[:-1]] = off
    return cov


def paper_covariance(model: PlanarModel, meas: Measured) -> np.ndarray:
    r"""Kuo's Appendix-B covariance of the measurement errors (diagonal, constant in time).

    Force channels: white noise through the filter, :math:`\sigma_F^2 G_{00}`.
    Accelerations: marker noise to segment angle, :math:`2\sigma_x^2 / l_i^2` (eq. B4
    with its exponent restored), through filter and second difference,
    :math:`\times G_{22}`. The gains are the steady-state values inside the record
    (:func:`bmc.models.standing.noise_gains`). Like the paper, this neglects the errors of the
    angles and velocities at which ``A`` and ``b`` are evaluated, and the correlation of
    neighbouring segment angles through their shared marker.

    Parameters
    ----------
    model : PlanarModel
        The body (segment lengths), e.g. :class:`bmc.models.standing.FourSegmentModel`.
    meas : Measured
        Noise levels, filter and sampling (:class:`bmc.models.standing.Measurement`).

    Returns
    -------
    numpy.ndarray, shape (R * N, 6, 6)
        Diagonal covariances, rows :data:`ROWS`.
    """
    model, meas = _measured(model, meas)
    gains = meas.gains()
    mid = gains[meas.n_frames // 2]
    force = np.stack([meas.torque_noise, meas.force_noise, meas.force_noise], -1) ** 2
    accel = 2.0 * meas.marker_noise[:, None] ** 2 / model.lengths[model.kernel.moving] ** 2
    var = np.concatenate([force * mid[0, 0], accel * mid[2, 2]], axis=-1)
    return meas.per_frame(var[:, :, None] * np.eye(var.shape[-1]))


def propagated_covariance(
    model: PlanarModel, meas: Measured, *, tau: ArrayLike | None = None
) -> np.ndarray:
    r"""Covariance of the errors of ``A tau = b`` with marker noise carried all the way.

    The error of frame ``k`` at the true torques is
    :math:`e = z' - g(\tau; \phi', \dot\phi')` where :math:`g = [C\ddot\phi + d;
    \ddot\phi]` with :math:`\ddot\phi = M^{-1}(Q\tau - h)` predicts the measurements.
    Linearised at the measured state,
    :math:`e \approx \delta z - J_\phi\,\delta\phi - J_{\dot\phi}\,\delta\dot\phi`:
    the errors of the angles and velocities enter through every row, above all the
    ground-reaction torque (gravity's moment arms). The joint covariance of
    :math:`(\delta\phi, \delta\dot\phi, \delta\ddot\phi)` is the raw angle covariance
    from the markers (with the correlation of neighbouring segments through their shared
    marker) times the frame's filter-and-difference gains
    (:func:`bmc.models.standing.noise_gains`).

    Parameters
    ----------
    model : PlanarModel
        The body, e.g. :class:`bmc.models.standing.FourSegmentModel` (a fixed base).
    meas : Measured
        The processed measurements (:class:`bmc.models.standing.Measurement`); their
        angles are the linearisation point.
    tau : array_like, shape (R * N, 3), optional
        Torques at which to linearise [N m] (keyword-only). Default: the top-down
        inverse dynamics of the measured motion, ``model.inverse_dynamics``.

    Returns
    -------
    numpy.ndarray, shape (R * N, 6, 6)
        Full covariance of the errors, rows :data:`ROWS`.
    """
    model, meas = _measured(model, meas)
    phi, phid = meas.phi, meas.phid
    k = model.k
    tau = model.inverse_dynamics(phi, phid, meas.phidd) if tau is None else as_array(
        tau, "tau", unit="N m", last=model.m // 2
    )
    n_f = phi.shape[0]
    if tau.ndim == 1:
        tau = np.broadcast_to(tau, (n_f, tau.size))
    if tau.shape[0] != n_f:
        raise ValueError(f"tau [N m] must have one row per stacked frame of meas (R * N = "
                         f"{n_f}), or be one row; got shape {tau.shape}")
    gains = meas.stack(meas.gains())
    select = np.zeros((3 + k, 3 * k))
    select[3:, 2 * k:] = np.eye(k)  # the measured accelerations enter e directly
    jac = np.zeros((n_f, 3 + k, 3 * k)) + select
    if not meas.exact_angles:
        # linearise by central differences in each angle and velocity, all in one call
        steps = _EPS * np.concatenate([np.eye(k), -np.eye(k)])  # (2k, k)
        zero = np.zeros_like(steps)
        dphi = np.concatenate([steps, zero])[:, None, :]  # (4k, 1, k)
        dphid = np.concatenate([zero, steps])[:, None, :]
        z = _predict(
            model, (phi + dphi).reshape(-1, k), (phid + dphid).reshape(-1, k),
            np.broadcast_to(tau, (4 * k,) + tau.shape).reshape(-1, tau.shape[-1]),
        ).reshape(4 * k, n_f, 3 + k)
        jac[:, :, :k] = -np.moveaxis(z[0:k] - z[k:2 * k], 0, -1) / (2 * _EPS)
        jac[:, :, k:2 * k] = -np.moveaxis(z[2 * k:3 * k] - z[3 * k:], 0, -1) / (2 * _EPS)
    sigma = meas.per_frame(meas.marker_noise)[:, None, None]  # [m]
    angle = sigma**2 * _marker_angle_covariance(model, phi)  # raw angles [rad^2]
    kin = np.einsum("fab,fij->faibj", gains, angle).reshape(n_f, 3 * k, 3 * k)
    cov = jac @ kin @ np.swapaxes(jac, -1, -2)
    force = np.stack([meas.torque_noise, meas.force_noise, meas.force_noise], -1) ** 2
    idx = np.arange(3)
    cov[:, idx, idx] += meas.per_frame(force) * gains[:, 0, 0, None]
    return cov


def overall_rmse_by_realisation(
    estimate: ArrayLike, truth: ArrayLike, realisations: int
) -> np.ndarray:
    """Overall RMSE, eq. (15), of each realisation of a stacked trial.

    The frames of ``R`` realisations are stacked on axis 0, one realisation after the other
    (as :func:`bmc.models.standing.measure` stacks them); each realisation gets its own
    :func:`overall_rmse`.

    Parameters
    ----------
    estimate, truth : array_like, shape (R * N, m)
        Estimated and exact values [u].
    realisations : int
        Number of stacked realisations ``R``.

    Returns
    -------
    numpy.ndarray, shape (R,)
        [u].

    Examples
    --------
    >>> est = [[1.0, 0.0], [1.0, 0.0], [0.0, 2.0], [0.0, 2.0]]
    >>> print(overall_rmse_by_realisation(est, np.zeros((4, 2)), 2))
    [0.70710678 1.41421356]
    """
    estimate = as_array(estimate, "estimate", ndim=2)
    truth = as_array(truth, "truth", ndim=2)
    if estimate.shape != truth.shape:
        raise ValueError(
            f"estimate and truth must have the same shape; got {estimate.shape} and "
            f"{truth.shape}"
        )
    if isinstance(realisations, bool) or not isinstance(realisations, (int, np.integer)) \
            or realisations < 1 or estimate.shape[0] % realisations:
        raise ValueError(
            f"realisations must be a positive integer that divides the {estimate.shape[0]} "
            f"stacked frames; got {realisations!r}"
        )
    # every channel has the same number of frames, so the root of the mean of the squared
    # channel RMSEs is the RMSE over all of a realisation's values at once
    return rmse(estimate.reshape(realisations, -1), truth.reshape(realisations, -1), axis=1)
