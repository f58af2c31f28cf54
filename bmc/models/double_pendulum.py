"""The double pendulum of the source notebook, in the matrix form ``M qdd = C + G + Q``.

:class:`DoublePendulum` holds two uniform rods with absolute angles measured from the
downward vertical, as in the source notebook 3; its terms ``M``, ``C``, ``G`` and ``Q`` are
the worked example of the matrix formalism (:mod:`bmc.matrix_form`) for forward dynamics.
:func:`euler_double_pendulum` integrates it by explicit Euler, a fast teaching contrast to
:func:`bmc.simulate.simulate`. The 2x2 system is solved in closed form in one place
(``_advance``), which both :meth:`DoublePendulum.rhs` and the Euler loop call.

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import BMCWarning, allocation, as_array, frames, gravity, integer, positive
from bmc.constants import G

#: Most Euler steps one call may take (about a microsecond each: under a minute).
_MAX_STEPS = 50_000_000
#: Growth of the state beyond which the Euler step is reported as unstable.
_GROWTH = 1e12

__all__ = ["DoublePendulum", "euler_double_pendulum"]


def __dir__() -> list[str]:
    return sorted(__all__)


@functools.lru_cache(maxsize=16)  # one function per (pendulum, step)
def _advance(k: tuple[float, float, float, float, float], h: float) -> Callable[..., tuple]:
    """Return ``advance(state, q1=0.0, q2=0.0, n=1)``, the one closed-form solve of the pendulum.

    ``state`` is ``(theta1, theta2, omega1, omega2)`` [rad, rad/s] as a tuple of floats and
    ``q1``, ``q2`` the generalized forces ``Q`` [N m]. The angular accelerations
    ``alpha = M^-1 (C + G + Q)`` [rad/s^2] are solved in closed form (Cramer's rule on the
    2x2 system). With ``h > 0`` the function takes ``n`` explicit Euler steps of ``h`` [s]
    and returns the state reached; with ``h == 0`` it returns the state's rates
    ``(omega1, omega2, alpha1, alpha2)``. ``k`` is :attr:`DoublePendulum.coefficients`.

    :meth:`DoublePendulum.rhs` calls it once per evaluation (``h == 0``) and
    :func:`euler_double_pendulum` once per kept state (``n`` steps), so the Euler loop runs
    inside the function: a Python call per step would cost more than the step's arithmetic.
    The constants are bound as positional default arguments, which are local variables
    (the fastest lookup; keyword-only defaults would cost a dictionary lookup each per call).
    """
    a, b, c, g1, g2 = k

    def advance(state: tuple[float, float, float, float], q1: float = 0.0, q2: float = 0.0,
                n: int = 1, h: float = h, a: float = a, b: float = b, nb: float = -b,
                c: float = c, g1: float = g1, g2: float = g2, ac: float = a * c,
                sin=math.sin, cos=math.cos) -> tuple[float, float, float, float]:
        th1, th2, w1, w2 = state
        for _ in range(n):
            d = th1 - th2
            sd = sin(d)
            m12 = b * cos(d)                                  # M12 [kg m^2]
            r1 = nb * w2 * w2 * sd - g1 * sin(th1) + q1       # (C + G + Q)_1 [N m]
            r2 = b * w1 * w1 * sd - g2 * sin(th2) + q2        # (C + G + Q)_2 [N m]
            det = ac - m12 * m12                              # det M [kg^2 m^4] > 0
            al1 = (c * r1 - m12 * r2) / det
            al2 = (a * r2 - m12 * r1) / det
            if not h:
                return w1, w2, al1, al2
            th1, th2, w1, w2 = th1 + h * w1, th2 + h * w2, w1 + h * al1, w2 + h * al2
        return th1, th2, w1, w2

    return advance


class DoublePendulum:
    """Double pendulum of two uniform rods, angles from the downward vertical (immutable).

    ``theta[0]`` is rod 1's angle and ``theta[1]`` rod 2's (both absolute, measured from
    the downward vertical, counter-clockwise positive), so rod 1's tip is at
    ``(l1 sin theta1, -l1 cos theta1)``. Each rod is uniform: centre of mass at mid-length,
    moment of inertia ``m l^2 / 12`` about it. The equations of motion are written as the
    source writes them, every term except the mass matrix on the right-hand side::

        M(theta) thetadd = C(theta, omega) + G(theta) + Q

    with ``Q = (M1 - M12, M12)`` for a torque ``M1`` at the base joint and ``M12`` at the
    joint between the rods (acting on rod 2, its reaction on rod 1).

    Parameters
    ----------
    m1, m2 : float, optional
        Rod masses [kg] (default 1 and 1, the source's values).
    l1, l2 : float, optional
        Rod lengths [m] (default 1 and 0.5, the source's values).
    g : float, optional
        Gravitational acceleration [m/s^2], acting along -y (default
        :data:`bmc.constants.G`, 9.81).

    Examples
    --------
    >>> pend = DoublePendulum()
    >>> np.round(pend.gravity_terms([np.pi / 2, 0.0]), 4)
    array([-14.715,  -0.   ])
    """

    def __init__(self, m1: float = 1.0, m2: float = 1.0, l1: float = 1.0, l2: float = 0.5,
                 g: float = G) -> None:
        setattr_ = super().__setattr__
        setattr_("m1", positive(m1, "m1", unit="kg"))
        setattr_("m2", positive(m2, "m2", unit="kg"))
        setattr_("l1", positive(l1, "l1", unit="m"))
        setattr_("l2", positive(l2, "l2", unit="m"))
        setattr_("g", gravity(g))
        # The rates' function, built once: rhs is called thousands of times per simulation.
        setattr_("_rates", _advance(self.coefficients, 0.0))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(
            f"a DoublePendulum cannot be changed (tried to set {name!r}): build a new one, "
            f"e.g. DoublePendulum(m1=..., m2=..., l1=..., l2=..., g=...)")

    def __reduce__(self) -> tuple:  # pickle and copy by the parameters; _rates is rebuilt
        return DoublePendulum, (self.m1, self.m2, self.l1, self.l2, self.g)

    def __repr__(self) -> str:
        return (f"DoublePendulum(m1={self.m1:g}, m2={self.m2:g}, l1={self.l1:g}, "
                f"l2={self.l2:g}, g={self.g:g})")

    @property
    def coefficients(self) -> tuple[float, float, float, float, float]:
        """The five constants every term is made of, ``(a, b, c, g1, g2)``.

        ``a = m1 l1^2/3 + m2 l1^2`` and ``c = m2 l2^2/3`` [kg m^2] (the diagonal of ``M``),
        ``b = m2 l1 l2/2`` [kg m^2] (the coupling, ``M12 = b cos(theta1 - theta2)``),
        ``g1 = (m1/2 + m2) g l1`` and ``g2 = m2 g l2/2`` [N m] (the gravity moments).
        """
        m1, m2, l1, l2, g = self.m1, self.m2, self.l1, self.l2, self.g
        return (m1 * l1**2 / 3 + m2 * l1**2,      # M11 [kg m^2]
                m2 * l1 * l2 / 2,                 # coupling [kg m^2]
                m2 * l2**2 / 3,                   # M22 [kg m^2]
                (m1 / 2 + m2) * g * l1,           # gravity on rod 1 [N m]
                m2 * g * l2 / 2)                  # gravity on rod 2 [N m]

    def _theta(self, theta: ArrayLike, name: str = "theta") -> np.ndarray:
        return as_array(theta, name, unit="rad", last=2)

    def mass_matrix(self, theta: ArrayLike) -> np.ndarray:
        """Mass matrix ``M(theta)`` [kg m^2], shape (..., 2, 2), of angles theta (..., 2) [rad]."""
        theta = self._theta(theta)
        a, b, c, _, _ = self.coefficients
        off = b * np.cos(theta[..., 0] - theta[..., 1])
        out = np.empty(theta.shape[:-1] + (2, 2))
        out[..., 0, 0], out[..., 1, 1] = a, c
        out[..., 0, 1] = out[..., 1, 0] = off
        return out

    def velocity_terms(self, theta: ArrayLike, omega: ArrayLike) -> np.ndarray:
        """Centripetal terms ``C`` [N m], shape (..., 2), on the right-hand side.

        Parameters
        ----------
        theta : array_like, shape (..., 2)
            Absolute angles from the downward vertical [rad].
        omega : array_like, shape (..., 2)
            Angular velocities [rad/s].

        Returns
        -------
        numpy.ndarray, shape (..., 2)
            ``(-b w2^2 sin(t1 - t2), b w1^2 sin(t1 - t2))`` with ``b = m2 l1 l2 / 2``.
        """
        theta = self._theta(theta)
        omega = as_array(omega, "omega", unit="rad/s", last=2)
        frames(("theta", theta, 1), ("omega", omega, 1))
        b = self.coefficients[1]
        s = np.sin(theta[..., 0] - theta[..., 1])
        return np.stack([-b * omega[..., 1] ** 2 * s, b * omega[..., 0] ** 2 * s], axis=-1)

    def gravity_terms(self, theta: ArrayLike) -> np.ndarray:
        """Gravity terms ``G`` [N m], shape (..., 2), on the right-hand side.

        ``G = (-(m1/2 + m2) g l1 sin theta1, -m2 g (l2/2) sin theta2)``: rod 2's weight acts
        on rod 1 through rod 1's full length ``l1`` (the source's code has ``l2`` there).
        """
        theta = self._theta(theta)
        _, _, _, g1, g2 = self.coefficients
        return np.stack([-g1 * np.sin(theta[..., 0]), -g2 * np.sin(theta[..., 1])], axis=-1)

    def generalized_forces(self, M1: ArrayLike, M12: ArrayLike) -> np.ndarray:
        """``Q = (M1 - M12, M12)`` [N m] from the base torque M1 and joint torque M12 [N m]."""
        M1 = as_array(M1, "M1", unit="N m", ndim=(0, 1))
        M12 = as_array(M12, "M12", unit="N m", ndim=(0, 1))
        frames(("M1", M1, 0), ("M12", M12, 0))
        return np.stack(np.broadcast_arrays(M1 - M12, M12), axis=-1)

    def accelerations(self, theta: ArrayLike, omega: ArrayLike,
                      Q: ArrayLike = 0.0) -> np.ndarray:
        """Angular accelerations ``M^-1 (C + G + Q)`` [rad/s^2], shape (..., 2).

        Parameters
        ----------
        theta, omega : array_like, shape (..., 2)
            Angles [rad] and angular velocities [rad/s].
        Q : array_like, shape (..., 2) or scalar, optional
            Generalized forces [N m] (default zero: a passive pendulum).
        """
        rhs = self.velocity_terms(theta, omega) + self.gravity_terms(theta)
        Q = as_array(Q, "Q", unit="N m")
        if Q.ndim:  # a scalar acts on both coordinates; an array has 2 per frame
            if Q.shape[-1] != 2:
                raise ValueError(f"Q [N m] must be a number or have trailing shape (2,) (one "
                                 f"frame) or (N, 2); got shape {Q.shape}: one generalized "
                                 "force per angle")
            frames(("theta and omega", rhs, 1), ("Q", Q, 1))
        rhs = rhs + Q
        return np.linalg.solve(self.mass_matrix(theta), rhs[..., None])[..., 0]

    def rhs(self, t: float, y: ArrayLike, Q: ArrayLike | None = None) -> np.ndarray:
        """State derivative for ``solve_ivp``: ``y = (theta1, theta2, omega1, omega2)``.

        Parameters
        ----------
        t : float
            Time [s] (unused: the passive pendulum is autonomous).
        y : array_like, shape (4,)
            Angles [rad] and angular velocities [rad/s].
        Q : array_like, shape (2,), optional
            Generalized forces [N m].

        Returns
        -------
        numpy.ndarray, shape (4,)
            ``(omega1, omega2, alpha1, alpha2)`` [rad/s, rad/s^2].
        """
        if not (isinstance(y, np.ndarray) and y.dtype.kind == "f"):
            # solve_ivp passes float arrays (the fast path); anything else is checked in full,
            # so text, booleans and complex numbers are refused by name.
            y = as_array(y, "y", unit="rad, rad/s", last=4, ndim=1)
        if Q is not None and not (isinstance(Q, np.ndarray) and Q.dtype.kind == "f"):
            Q = as_array(Q, "Q", unit="N m", last=2, ndim=1)
        try:
            th1, th2, w1, w2 = (float(v) for v in y)  # plain floats: ~20x faster than arrays
        except (TypeError, ValueError):
            as_array(y, "y", unit="rad, rad/s", last=4, ndim=1)
            raise ValueError(f"y must hold 4 finite numbers (theta1, theta2, omega1, omega2); "
                             f"got {y!r}") from None
        try:
            q1, q2 = (0.0, 0.0) if Q is None else (float(v) for v in Q)
        except (TypeError, ValueError):
            as_array(Q, "Q", unit="N m", last=2, ndim=1)
            raise ValueError(f"Q [N m] must hold 2 numbers; got {Q!r}") from None
        try:
            rates = self._rates((th1, th2, w1, w2), q1, q2)
            if all(map(math.isfinite, rates)):  # four floats: about 0.2 us
                return np.array(rates)
        except (ValueError, OverflowError):  # math.sin(inf)
            pass
        # the fast path took y and Q unchecked: name the one that made the rates non-finite
        as_array(y, "y", unit="rad, rad/s", last=4, ndim=1)
        if Q is not None:
            as_array(Q, "Q", unit="N m", last=2, ndim=1)
        raise ValueError(f"y and Q must give finite rates; got y = {np.asarray(y).tolist()}, "
                         f"Q = {None if Q is None else np.asarray(Q).tolist()} (magnitudes "
                         "beyond any pendulum's?)")

    def energy(self, theta: ArrayLike, omega: ArrayLike) -> np.ndarray:
        """Kinetic plus potential energy [J], shape (...,); potential zero at the pivot height.

        Parameters
        ----------
        theta, omega : array_like, shape (..., 2)
            Angles [rad] and angular velocities [rad/s].
        """
        theta = self._theta(theta)
        omega = as_array(omega, "omega", unit="rad/s", last=2)
        frames(("theta", theta, 1), ("omega", omega, 1))
        _, _, _, g1, g2 = self.coefficients
        kinetic = 0.5 * np.einsum("...i,...ij,...j->...", omega, self.mass_matrix(theta), omega)
        potential = -g1 * np.cos(theta[..., 0]) - g2 * np.cos(theta[..., 1])  # G = -dV/dtheta
        return kinetic + potential

    def positions(self, theta: ArrayLike) -> np.ndarray:
        """Pivot, joint and tip positions [m], shape (..., 3, 2), from angles (..., 2) [rad]."""
        from bmc.kinematics import forward_kinematics

        return forward_kinematics([self.l1, self.l2], self.to_chain_coordinates(theta),
                                  joints=True)

    def to_chain(self):
        """Return the same pendulum as a :class:`bmc.PlanarChain` (joint coordinates)."""
        from bmc.chain import PlanarChain

        lengths = [self.l1, self.l2]
        masses = [self.m1, self.m2]
        inertias = [m * length**2 / 12 for m, length in zip(masses, lengths, strict=True)]
        return PlanarChain(lengths, [self.l1 / 2, self.l2 / 2], masses, inertias, g=self.g)

    @staticmethod
    def to_chain_coordinates(theta: ArrayLike) -> np.ndarray:
        """``PlanarChain`` coordinates ``q`` [rad] from absolute angles from the vertical.

        ``q[0] = theta1 - pi/2`` (rod 1 from the +x axis), ``q[1] = theta2 - theta1`` (joint
        angle). Rates and accelerations map by the same matrix without the offset:
        ``qd = (omega1, omega2 - omega1)``.
        """
        theta = as_array(theta, "theta", unit="rad", last=2)
        return np.stack([theta[..., 0] - np.pi / 2, theta[..., 1] - theta[..., 0]], axis=-1)


def euler_double_pendulum(pend: DoublePendulum, y0: ArrayLike, t_end: float, *, dt: float,
                          every: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Explicit Euler for the passive double pendulum, kept fast as a teaching contrast.

    Every step depends on the previous one, so this is a plain Python loop; the work per
    step is a handful of float operations (the 2x2 system is solved in closed form), about
    a microsecond each, instead of building NumPy arrays and inverting ``M``.

    Parameters
    ----------
    pend : DoublePendulum
        The pendulum (passive: ``Q = 0``).
    y0 : array_like, shape (4,)
        Initial ``(theta1, theta2, omega1, omega2)`` [rad, rad/s].
    t_end : float
        Duration [s].
    dt : float
        Step [s].
    every : int, optional
        Keep every ``every``-th step in the output (default 1: all).

    Returns
    -------
    t : numpy.ndarray, shape (K,)
        Times [s] of the kept steps, starting at 0.
    y : numpy.ndarray, shape (K, 4)
        States at those times.

    Examples
    --------
    >>> pend = DoublePendulum()
    >>> t, y = euler_double_pendulum(pend, [0.1, 0.0, 0.0, 0.0], 1.0, dt=1e-3, every=100)
    >>> t.shape, y.shape
    ((11,), (11, 4))
    """
    if not isinstance(pend, DoublePendulum):
        raise TypeError(f"pend must be a DoublePendulum; got {type(pend).__name__}")
    y0 = as_array(y0, "y0", last=4, ndim=1)
    t_end = positive(t_end, "t_end", unit="s")
    dt = positive(dt, "dt", unit="s")
    every = integer(every, "every", minimum=1, what="keep every every-th step")
    if dt > t_end:
        raise ValueError(
            f"dt [s] must be no longer than the run (t_end = {t_end:g} s); got dt = {dt:g} s, "
            "which would return the initial state only: take dt of 1e-4 to 1e-3 s"
        )
    n_steps = int(round(t_end / dt))
    if n_steps > _MAX_STEPS:
        raise ValueError(
            f"dt [s] = {dt:g} s over t_end = {t_end:g} s needs {n_steps:.3g} Euler steps, more "
            f"than {_MAX_STEPS:.0e} (about a minute of computing): raise dt (1e-4 s is "
            "plenty to see Euler's drift) or shorten t_end"
        )
    allocation(n_steps // every + 1, 4, "dt [s] and every", what="kept steps",
               hint="raise every or dt")
    step = _advance(pend.coefficients, dt)
    state = tuple(float(v) for v in y0)
    keep = np.empty((n_steps // every + 1, 4))
    keep[0] = state
    # the step and the start together: the faster y0 spins, the shorter a stable step
    speed = float(np.max(np.abs(y0[2:])))
    unstable = (f"the explicit Euler step dt = {dt:g} s is unstable for this pendulum started "
                f"at y0 = {np.round(y0, 4).tolist()} (speeds up to {speed:.3g} rad/s, "
                f"{speed * dt:.2g} rad per step): reduce dt (1e-4 s or less, shorter for "
                "faster starts) or integrate with bmc.simulate.simulate")
    # One call of ``step`` per kept state, ``every`` steps inside it: no per-step test here.
    # nan passes through the arithmetic and is found in the kept states below; sin(inf)
    # raises ValueError, caught here with the block's end time.
    k = 0
    try:
        for k in range(1, n_steps // every + 1):
            state = step(state, 0.0, 0.0, every)
            keep[k] = state
    except (ValueError, OverflowError, ZeroDivisionError) as exc:  # sin(inf), inf - inf
        raise FloatingPointError(
            f"the state overflowed to infinity by t = {k * every * dt:.6g} s: {unstable}"
        ) from exc
    keep = keep[:k + 1]
    bad = ~np.isfinite(keep).all(axis=1)
    if bad.any():
        j = int(np.argmax(bad))
        raise FloatingPointError(
            f"the state became non-finite by t = {j * every * dt:.6g} s: {unstable}")
    scale = max(float(np.max(np.abs(y0))), 1.0)
    size = np.max(np.abs(keep), axis=1)
    if size.max() > _GROWTH * scale:
        j = int(np.argmax(size > _GROWTH * scale))
        warnings.warn(
            f"explicit Euler: the state grew by a factor {size.max() / scale:.3g} (beyond 1e12 "
            f"of its initial size from t = {j * every * dt:.6g} s); {unstable}",
            BMCWarning, stacklevel=2)
    return np.arange(len(keep)) * (every * dt), keep
