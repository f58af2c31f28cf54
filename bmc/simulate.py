"""Forward simulation: a checked ``solve_ivp`` wrapper, explicit Euler, and chains.

:func:`simulate` integrates ``dy/dt = fun(t, y, *args)`` with SciPy's ``solve_ivp``, after
calling ``fun`` once and checking what it returns (shape, finiteness), so that a mistake in
the right-hand side is reported in plain words before SciPy sees it (the habit of ModSimPy's
``run_solve_ivp``). :func:`euler` is the explicit Euler method, kept only as a teaching
contrast: first order, it drifts in energy unless the step is tiny. :func:`simulate_chain`
simulates a :class:`bmc.chain.PlanarChain` under joint torques and an endpoint force and
reports the energy balance (energy minus the work done on the chain must stay constant).

Results have time on axis 0: ``res.y`` is ``(N, m)``, not SciPy's ``(m, N)``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import (
    BMCWarning,
    allocation,
    as_array,
    first_nonfinite,
    number,
    tolerance,
)

if TYPE_CHECKING:  # for the annotation; bmc.chain loads when simulate_chain runs
    from bmc.chain import PlanarChain

__all__ = ["BMCWarning", "ChainSimulation", "Simulation", "euler", "simulate",
           "simulate_chain"]

_METHODS = ("RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA")
# Growth of the state beyond this factor in an explicit Euler run is reported as unstable.
_EULER_GROWTH = 1e12


def __dir__() -> list[str]:
    return sorted(__all__)


def _finite(values: np.ndarray) -> bool:
    """Return True if every entry of a float array is finite (about 0.15 us for a small state).

    Integrators call this once per step: ``np.isfinite(v).all()`` costs about 0.8 us there,
    more than many right-hand sides. The sum of finite values is finite unless it overflows,
    and that rare case is settled by the exact test.
    """
    if values.size <= 64:
        return math.isfinite(sum(values.ravel().tolist())) or bool(np.isfinite(values).all())
    return bool(np.isfinite(values).all())


@dataclass(frozen=True)
class Simulation:
    """The result of :func:`simulate` or :func:`euler`.

    Attributes
    ----------
    t : numpy.ndarray, shape (N,)
        Sample times [s].
    y : numpy.ndarray, shape (N, m)
        State at each sample (time on axis 0), in the units of ``y0``.
    nfev : int
        Number of evaluations of the right-hand side.
    message : str
        The solver's report.
    """

    t: np.ndarray
    y: np.ndarray
    nfev: int
    message: str


@dataclass(frozen=True)
class ChainSimulation:
    """The result of :func:`simulate_chain`.

    Attributes
    ----------
    t : numpy.ndarray, shape (N,)
        Sample times [s].
    q : numpy.ndarray, shape (N, n)
        Joint angles [rad].
    qd : numpy.ndarray, shape (N, n)
        Joint angular velocities [rad/s].
    qdd : numpy.ndarray, shape (N, n)
        Joint angular accelerations [rad/s^2] (from the equations of motion).
    tau : numpy.ndarray, shape (N, n)
        Joint torques applied [N m].
    energy : numpy.ndarray, shape (N,)
        Kinetic plus potential energy [J] (potential zero at y = 0).
    kinetic : numpy.ndarray, shape (N,)
        Kinetic energy [J].
    work : numpy.ndarray, shape (N,)
        Work done on the chain since ``t[0]`` by the joint torques and the endpoint force [J],
        integrated together with the motion.
    nfev : int
        Number of evaluations of the equations of motion.
    message : str
        The solver's report.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    energy: np.ndarray
    kinetic: np.ndarray
    work: np.ndarray
    nfev: int
    message: str
    energy_error: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        # Energy balance: E(t) - E(0) - W(t) is zero for exact dynamics.
        object.__setattr__(self, "energy_error", self.energy - self.energy[0] - self.work)

    @property
    def relative_energy_error(self) -> float:
        """Largest ``|E(t) - E(0) - W(t)|`` over the run, relative to the energy scale.

        The scale is the largest of ``|E|``, ``|W|``, the kinetic energy and ``|potential|``
        over the run, so the figure stays meaningful when the total energy is near zero.
        """
        potential = self.energy - self.kinetic
        scale = max(np.abs(self.energy).max(), np.abs(self.work).max(), self.kinetic.max(),
                    np.abs(potential).max())
        return float(np.abs(self.energy_error).max() / scale) if scale > 0 else 0.0


def _time_span(t_span: ArrayLike) -> tuple[float, float]:
    span = as_array(t_span, "t_span", unit="s")
    if span.shape != (2,):
        raise ValueError(
            f"t_span [s] must be (t_start, t_end), two numbers; got shape {span.shape}"
        )
    if not span[1] > span[0]:
        raise ValueError(f"t_span [s] must satisfy t_start < t_end; got {span.tolist()}")
    return float(span[0]), float(span[1])


def _time_samples(t_eval: ArrayLike | None, span: tuple[float, float]) -> np.ndarray | None:
    if t_eval is None:
        return None
    t = as_array(t_eval, "t_eval", unit="s", ndim=1)
    if t.size and (np.any(np.diff(t) <= 0)):
        raise ValueError("t_eval [s] must be strictly increasing")
    # Tolerate round-off at the ends of a linspace built from the same numbers.
    slack = 1e-12 * max(1.0, abs(span[0]), abs(span[1]))
    if t.size and (t[0] < span[0] - slack or t[-1] > span[1] + slack):
        raise ValueError(
            f"t_eval [s] must lie within t_span {list(span)}; got values from {t[0]} to {t[-1]}"
        )
    return np.clip(t, *span)


def _state(y0: ArrayLike) -> np.ndarray:
    y = as_array(y0, "y0", ndim=1)
    if y.size == 0:
        raise ValueError("y0 must hold at least one state variable (shape (m,), m >= 1); "
                         "got an empty array")
    return y


def _solver_options(method: str, rtol: float, atol: float, max_step: float,
                    span: tuple[float, float], width: int) -> tuple[str, float, float, float]:
    """Check the solver's options before SciPy sees them (NaN tolerances make it hang)."""
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)} (a solve_ivp method); "
                         f"got {method!r}")
    rtol = tolerance(rtol, "rtol")
    atol = tolerance(atol, "atol", upper=np.inf)
    step = number(max_step, "max_step", unit="s", finite=False)
    if not step > 0:  # inf is allowed (no limit), NaN and non-positive are not
        raise ValueError(f"max_step [s] must be positive (np.inf for no limit); got {step!r}")
    if np.isfinite(step):
        allocation((span[1] - span[0]) / step, width, "max_step [s]", what="steps at least",
                   hint=f"a max_step of {step:g} s over {span[1] - span[0]:g} s is too small: "
                        "raise max_step or shorten t_span")
    return method, rtol, atol, step


def _check_rhs(fun: Callable[..., Any], t0: float, y0: np.ndarray,
               args: tuple[Any, ...]) -> None:
    """Call ``fun`` once at the initial state and explain what is wrong with its output."""
    if not callable(fun):
        raise TypeError(f"fun must be callable as fun(t, y, *args); got {type(fun).__name__}")
    try:
        out = fun(t0, y0.copy(), *args)
    except TypeError as exc:
        raise TypeError(
            f"calling fun(t, y, *args) once at t = {t0} with y0 of shape {y0.shape} and "
            f"{len(args)} extra argument(s) failed: {exc}. The right-hand side must take the "
            "time [s], the state vector and then the entries of args"
        ) from exc
    if out is None:
        raise ValueError(
            "fun(t, y, *args) must return dy/dt, an array with the shape of y0 "
            f"{y0.shape}; got None (did you forget the return statement?)"
        )
    try:
        arr = np.asarray(out, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"fun(t, y, *args) must return numbers, dy/dt with the shape of y0 {y0.shape}; "
            f"got {type(out).__name__}"
        ) from exc
    if arr.shape != y0.shape:
        raise ValueError(
            f"fun(t, y, *args) returned shape {arr.shape} at t = {t0}, but y0 has shape "
            f"{y0.shape}: return one derivative per state variable, in the same order"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"fun(t, y, *args) returned non-finite values {arr.tolist()} at t = {t0} for "
            f"y0 = {y0.tolist()}: check for a division by zero or an overflow"
        )


def simulate(
    fun: Callable[..., ArrayLike],
    t_span: ArrayLike,
    y0: ArrayLike,
    *,
    t_eval: ArrayLike | None = None,
    method: str = "DOP853",
    rtol: float = 1e-10,
    atol: float = 1e-12,
    args: tuple[Any, ...] = (),
    max_step: float = np.inf,
) -> Simulation:
    """Integrate ``dy/dt = fun(t, y, *args)`` after checking ``fun`` once.

    Parameters
    ----------
    fun : callable
        Right-hand side ``fun(t, y, *args)`` returning ``dy/dt`` with the shape of ``y0``.
    t_span : array_like, shape (2,)
        Start and end times [s].
    y0 : array_like, shape (m,)
        Initial state.
    t_eval : array_like, shape (N,), optional
        Times at which to store the solution [s], increasing, within ``t_span``. By default
        the solver's own steps.
    method : str, optional
        A ``scipy.integrate.solve_ivp`` method; default ``"DOP853"`` (explicit Runge-Kutta
        of order 8, accurate for smooth mechanics).
    rtol, atol : float, optional
        Relative and absolute tolerances (defaults 1e-10 and 1e-12: far tighter than
        SciPy's, so that conservation checks are meaningful).
    args : tuple, optional
        Extra arguments passed to ``fun``.
    max_step : float, optional
        Largest step [s]; set it below the duration of any abrupt input.

    Returns
    -------
    Simulation
        ``t`` (N,), ``y`` (N, m), ``nfev``, ``message``.

    Raises
    ------
    TypeError, ValueError
        If an argument or the first call of ``fun`` is malformed (checked before
        integration), including NaN or non-positive tolerances (which would hang the
        solver) and a ``max_step`` so small that the steps would not fit in memory.
    FloatingPointError
        If ``fun`` returns NaN or infinity during the run; the message gives the time.
    RuntimeError
        If the solver fails.

    Examples
    --------
    Exponential decay ``dy/dt = -y``:

    >>> res = simulate(lambda t, y: -y, (0.0, 1.0), [1.0], t_eval=[0.0, 1.0])
    >>> print(np.round(res.y[-1], 8))
    [0.36787944]
    """
    from scipy.integrate import solve_ivp

    span = _time_span(t_span)
    y0 = _state(y0)
    samples = _time_samples(t_eval, span)
    method, rtol, atol, max_step = _solver_options(method, rtol, atol, max_step, span,
                                                   y0.size)
    if not isinstance(args, tuple):
        raise TypeError(f"args must be a tuple of extra arguments; got {type(args).__name__}")
    _check_rhs(fun, span[0], y0, args)

    def checked(t: float, y: np.ndarray, *extra: Any) -> Any:
        # A NaN or inf slope makes the step control shrink the step until it fails with a
        # cryptic message (or, with LSODA, carry NaN to the end): say what happened, and when.
        out = fun(t, y, *extra)
        if not _finite(np.asarray(out, dtype=float)):
            raise FloatingPointError(
                f"fun(t, y, *args) returned non-finite dy/dt {np.asarray(out).tolist()} at "
                f"t = {t:.6g} s for y = {np.asarray(y).tolist()}: check fun for a division by "
                "zero or an overflow, or a state that leaves the model's domain"
            )
        return out

    def run(rhs: Callable[..., Any]) -> Any:
        return solve_ivp(rhs, span, y0, method=method, t_eval=samples, rtol=rtol, atol=atol,
                         args=args or None, max_step=max_step)

    # The run calls fun itself (a wrapper per call would cost ~10 % of a small system's
    # run); only a failed or non-finite run is repeated with every slope checked, to name
    # the time at which fun went non-finite.
    with warnings.catch_warnings(record=True) as caught:  # NaN arithmetic in SciPy's steps
        warnings.simplefilter("always")
        sol = run(fun)
    if not sol.success or not np.isfinite(sol.y).all():
        with warnings.catch_warnings():  # the same warnings as the first run's, below
            warnings.simplefilter("ignore")
            run(checked)  # raises FloatingPointError if fun returned NaN or inf
    for w in caught:  # the run went well, or failed for another reason: its warnings stand
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    if not sol.success:
        raise RuntimeError(
            f"the integration failed at t = {sol.t[-1]} s: {sol.message} (the solution may "
            "blow up there, or fun may jump: check fun near that time, or set max_step "
            "below the duration of any abrupt input)"
        )
    y = sol.y.T
    _refuse_nonfinite(sol.t, y, "the solution")
    return Simulation(t=sol.t, y=y, nfev=int(sol.nfev), message=str(sol.message))


def _refuse_nonfinite(t: np.ndarray, y: np.ndarray, what: str, hint: str = "") -> None:
    """Raise naming the first time at which ``y`` (time on axis 0) is not finite."""
    bad = first_nonfinite(y)
    if bad is not None:
        k = bad[0]
        before = f"; at t = {t[k - 1]:.6g} s it was {y[k - 1].tolist()}" if k > 0 else ""
        raise FloatingPointError(
            f"{what} became non-finite (NaN or inf) at t = {t[k]:.6g} s (sample {k}, state "
            f"variable {bad[1] if len(bad) > 1 else 0}){before}: "
            + (hint or "check fun for a division by zero or an overflow")
        )


def euler(
    fun: Callable[..., ArrayLike],
    t_span: ArrayLike,
    y0: ArrayLike,
    *,
    dt: float,
    t_eval: ArrayLike | None = None,
    args: tuple[Any, ...] = (),
) -> Simulation:
    """Integrate with the explicit (forward) Euler method, ``y += dt * fun(t, y)``.

    Kept as a teaching contrast to :func:`simulate`: its error is first order in ``dt``
    and, for an undamped oscillator, the energy grows step after step.

    Parameters
    ----------
    fun : callable
        Right-hand side ``fun(t, y, *args)``.
    t_span : array_like, shape (2,)
        Start and end times [s].
    y0 : array_like, shape (m,)
        Initial state.
    dt : float
        Step [s]; the last step is shortened or the grid made uniform so that the run ends
        exactly at ``t_span[1]`` (``ceil(duration / dt)`` equal steps).
    t_eval : array_like, shape (N,), optional
        Times at which to return the solution [s], linearly interpolated between steps.
        By default every step.
    args : tuple, optional
        Extra arguments passed to ``fun``.

    Returns
    -------
    Simulation
        ``t`` (N,), ``y`` (N, m), ``nfev``, ``message``.

    Raises
    ------
    ValueError
        If ``dt`` is not positive or longer than the run, or the run would need more memory
        than the budget (2 GiB; the message gives the figure), checked before allocating.
    FloatingPointError
        If the state becomes NaN or infinite; the message gives the time.

    Warns
    -----
    BMCWarning
        If the state grows by more than a factor 1e12: the step is probably unstable.

    Examples
    --------
    >>> res = euler(lambda t, y: -y, (0.0, 1.0), [1.0], dt=0.1)
    >>> print(np.round(res.y[-1], 6))   # (1 - 0.1)**10, not exp(-1)
    [0.348678]
    """
    span = _time_span(t_span)
    y0 = _state(y0)
    step = number(dt, "dt", unit="s", finite=False)
    if not (np.isfinite(step) and 0 < step <= span[1] - span[0]):
        raise ValueError(
            f"dt [s] must be positive and no longer than the run ({span[1] - span[0]} s); "
            f"got {dt}"
        )
    samples = _time_samples(t_eval, span)
    if not isinstance(args, tuple):
        raise TypeError(f"args must be a tuple of extra arguments; got {type(args).__name__}")
    count = np.ceil((span[1] - span[0]) / step - 1e-9)
    allocation(count + 1, y0.size, "dt [s]", what="steps",
               hint=f"dt = {step:g} s over {span[1] - span[0]:g} s is too many steps: raise dt "
                    "(Euler needs small steps, but 1e-5 s is plenty for a pendulum) or use "
                    "simulate(), whose adaptive steps need far fewer")
    _check_rhs(fun, span[0], y0, args)
    steps = int(count)
    grid = np.linspace(span[0], span[1], steps + 1)
    h = grid[1] - grid[0]
    y = np.empty((steps + 1, y0.size))
    y[0] = y0
    unstable = ("the explicit Euler step is probably unstable for this system: reduce dt "
                f"(now {h:.3g} s) or use simulate()")
    # Finiteness is checked once per block of steps (a check per step would cost about as
    # much as a small system's step); the first non-finite state is then found exactly.
    block = 256
    k = done = 0  # done: the last row of y computed
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            for start in range(0, steps, block):
                for k in range(start, min(start + block, steps)):  # each step needs the last
                    y[k + 1] = y[k] + h * np.asarray(fun(grid[k], y[k], *args), dtype=float)
                done = k + 1
                if not np.isfinite(y[start + 1:done + 1]).all():
                    break
        except Exception:
            done = k
            if np.isfinite(y[:done + 1]).all():
                raise  # fun failed on a finite state: its own error
            # fun failed on a state that had already gone non-finite: explained below
        bad = ~np.isfinite(y[:done + 1]).all(axis=1)
        if bad.any():
            j = int(np.argmax(bad)) - 1  # the last finite state
            slope = np.asarray(fun(grid[j], y[j], *args), dtype=float)
            if not np.isfinite(slope).all():
                raise FloatingPointError(
                    f"fun(t, y, *args) returned non-finite dy/dt {slope.tolist()} at t = "
                    f"{grid[j]:.6g} s for the finite state y = {y[j].tolist()}: check fun for "
                    "a division by zero or an overflow"
                )
            _refuse_nonfinite(grid[: j + 2], y[: j + 2], "the explicit Euler solution",
                              unstable)
    scale = max(float(np.max(np.abs(y0))), 1.0)
    growth = float(np.max(np.abs(y))) / scale
    if growth > _EULER_GROWTH:
        k = int(np.argmax(np.max(np.abs(y), axis=1) > _EULER_GROWTH * scale))
        warnings.warn(
            f"explicit Euler: the state grew by a factor {growth:.3g} (beyond 1e12 of its "
            f"initial size from t = {grid[k]:.6g} s); {unstable}",
            BMCWarning,
            stacklevel=2,
        )
    message = f"explicit Euler, {steps} steps of {h:.3g} s"
    if samples is None:
        return Simulation(t=grid, y=y, nfev=steps + 1, message=message)
    out = np.column_stack([np.interp(samples, grid, y[:, j]) for j in range(y0.size)])
    return Simulation(t=samples, y=out.reshape(samples.size, y0.size), nfev=steps + 1,
                      message=message)


def _driver(value: Any, name: str, unit: str, width: int,
            t_eval: np.ndarray) -> Callable[..., Any] | None:
    """Turn a torque or force specification into a function of (t, q, qd)."""
    if value is None:
        return None
    if callable(value):
        return value
    arr = as_array(value, name, unit=unit, last=width, ndim=(1, 2))
    if arr.ndim == 1:
        return lambda t, q, qd: arr
    if arr.shape[0] != t_eval.size:
        raise ValueError(
            f"{name} [{unit}] given as samples must have one row per time in t_eval "
            f"({t_eval.size}); got shape {arr.shape}"
        )
    from scipy.interpolate import CubicSpline

    spline = CubicSpline(t_eval, arr, axis=0)
    return lambda t, q, qd: spline(t)


def _sampled(spec: Any, fn: Callable[..., Any] | None, width: int, t: np.ndarray,
             q: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """Evaluate a torque or force specification at every output frame, shape (N, width)."""
    if fn is None:
        return np.zeros((t.size, width))
    if not callable(spec):  # a constant or a spline: vectorised over time
        return np.broadcast_to(fn(t, q, qd), (t.size, width)).copy()
    # A user function of one frame: called once per output frame, as the solver did.
    return np.array([fn(ti, qi, qdi) for ti, qi, qdi in zip(t, q, qd, strict=True)],
                    dtype=float).reshape(t.size, width)


def _call_driver(fn: Callable[..., Any], name: str, unit: str, width: int, t: float,
                 q: np.ndarray, qd: np.ndarray) -> np.ndarray:
    value = np.asarray(fn(t, q, qd), dtype=float)
    if value.shape != (width,):
        raise ValueError(
            f"{name}(t, q, qd) must return shape ({width},) [{unit}]; got {value.shape} at "
            f"t = {t} s"
        )
    return value


def simulate_chain(
    chain: PlanarChain,
    t_eval: ArrayLike,
    q0: ArrayLike,
    qd0: ArrayLike,
    *,
    tau: Any = None,
    F: Any = None,
    method: str = "DOP853",
    rtol: float = 1e-10,
    atol: float = 1e-12,
    max_step: float = np.inf,
) -> ChainSimulation:
    """Simulate a planar chain under joint torques and an endpoint force.

    Parameters
    ----------
    chain : bmc.chain.PlanarChain
        The model.
    t_eval : array_like, shape (N,)
        Output times [s], strictly increasing; the run goes from ``t_eval[0]`` to
        ``t_eval[-1]``.
    q0, qd0 : array_like, shape (n,)
        Initial joint angles [rad] and angular velocities [rad/s].
    tau : None, array_like or callable, optional
        Joint torques [N m]: ``None`` (passive chain), a constant ``(n,)``, samples
        ``(N, n)`` at ``t_eval`` (interpolated with a cubic spline), or a function
        ``tau(t, q, qd)`` returning ``(n,)``.
    F : None, array_like or callable, optional
        Force on the endpoint [N], in the same forms with width 2.
    method, rtol, atol, max_step
        As in :func:`simulate`.

    Returns
    -------
    ChainSimulation
        ``t``, ``q``, ``qd``, ``qdd``, ``tau``, ``energy``, ``kinetic``, ``work``,
        ``energy_error``
        (``E - E0 - W`` [J], zero for an exact solution) and ``relative_energy_error``.

    Examples
    --------
    A uniform rod released horizontal swings down and back up:

    >>> from bmc.chain import PlanarChain
    >>> rod = PlanarChain([1.0], [0.5], [2.0], [2.0 / 12])
    >>> res = simulate_chain(rod, np.linspace(0.0, 1.0, 11), [0.0], [0.0])
    >>> res.q.shape, res.relative_energy_error < 1e-9
    ((11, 1), True)
    """
    from bmc.chain import PlanarChain

    if not isinstance(chain, PlanarChain):
        raise TypeError(f"chain must be a bmc.PlanarChain; got {type(chain).__name__}")
    n = chain.n
    times = as_array(t_eval, "t_eval", unit="s", ndim=1)
    if times.size < 2 or np.any(np.diff(times) <= 0):
        raise ValueError(
            f"t_eval [s] must hold at least two strictly increasing times; got {times.size} "
            "value(s)" + ("" if times.size < 2 else " that are not increasing")
        )
    q0 = as_array(q0, "q0", unit="rad", last=n, ndim=1)
    qd0 = as_array(qd0, "qd0", unit="rad/s", last=n, ndim=1)
    torque = _driver(tau, "tau", "N m", n, times)
    force = _driver(F, "F", "N", 2, times)

    def loads(t: float, q: np.ndarray,
              qd: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        tq = np.zeros(n) if torque is None else _call_driver(torque, "tau", "N m", n, t, q, qd)
        fe = None if force is None else _call_driver(force, "F", "N", 2, t, q, qd)
        return tq, fe

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        q, qd = y[:n], y[n: 2 * n]
        tq, fe = loads(t, q, qd)
        # Unchecked single-frame dynamics (the inputs were checked above): this function
        # runs thousands of times per simulation.
        qdd, force_power = chain.frame_accelerations(q, qd, tq, fe)
        return np.concatenate([qd, qdd, [qd @ tq + force_power]])

    y0 = np.concatenate([q0, qd0, [0.0]])
    res = simulate(rhs, (times[0], times[-1]), y0, t_eval=times, method=method, rtol=rtol,
                   atol=atol, max_step=max_step)
    q, qd, work = res.y[:, :n], res.y[:, n: 2 * n], res.y[:, 2 * n]
    applied = _sampled(tau, torque, n, res.t, q, qd)
    forces = None if force is None else _sampled(F, force, 2, res.t, q, qd)
    qdd = chain.forward_dynamics(q, qd, applied, contact_force=forces)
    kinetic = 0.5 * np.einsum("fi,fij,fj->f", qd, chain.mass_matrix(q), qd)
    return ChainSimulation(
        t=res.t, q=q, qd=qd, qdd=qdd, tau=applied, energy=chain.energy(q, qd), kinetic=kinetic,
        work=work, nfev=res.nfev, message=res.message,
    )
