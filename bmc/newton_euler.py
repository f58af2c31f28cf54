r"""Newton-Euler inverse dynamics: one segment at a time, from a known distal load upward.

Planar
------
- :func:`invdyn2d` solves the Newton-Euler equations of one rigid segment for the force and
  moment at its proximal joint, given its kinematics and the load at its distal end.
- :func:`lower_limb` runs the whole gait pipeline: joint markers and ground reaction in,
  segment kinematics (optionally low-pass filtered, derivatives by central differences) and
  joint loads at the ankle, knee and hip out, foot -> shank -> thigh.

The recursion itself, each segment's proximal load passed on as the next segment's distal
load, is written once in the package (``bmc._kernels.upward``): :func:`lower_limb` runs it
on measured segment kinematics, :func:`bmc.reactions.reactions_newton_euler` and
:func:`bmc.least_squares.newton_euler` on a planar model's.

Spatial
-------
- :func:`invdyn3d` is the same step for one segment in 3D (Newton's and Euler's equations
  with the segment's inertia tensor and rotation matrix).
- :func:`joint_loads3d` runs it from the distal segment of a chain upward.

Conventions: SI units; x forward, y up, z out of the plane; gravity ``g > 0`` along -y;
angles in radians, counter-clockwise positive; **axis 0 is time**.

For one segment with centre of mass (COM) at :math:`\mathbf{r}_{cm}`, the equations are

.. math::

    \mathbf{F}_p + \mathbf{F}_d + m\mathbf{g} = m\mathbf{a}_{cm}, \qquad
    \tau_p + \tau_d + (\mathbf{r}_p - \mathbf{r}_{cm})\times\mathbf{F}_p
        + (\mathbf{r}_d - \mathbf{r}_{cm})\times\mathbf{F}_d = I_{cm}\dot\omega,

with :math:`\mathbf{g} = (0, -g)` and the planar cross product
:math:`\mathbf{a}\times\mathbf{b} = a_x b_y - a_y b_x` (the z-component:
:func:`bmc.kinematics.cross2`, since ``np.cross`` on 2-vectors is deprecated since NumPy
2.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from bmc._kernels import newton_euler_step, upward
from bmc._validation import as_array, frames, inertia_tensors, positive, rotation_matrices
from bmc.constants import STANDARD_GRAVITY

__all__ = ["LowerLimbResult", "invdyn2d", "invdyn3d", "joint_loads3d", "lower_limb"]


def __dir__() -> list[str]:
    return sorted(__all__)


def invdyn2d(
    rcm: ArrayLike,
    rd: ArrayLike,
    rp: ArrayLike,
    acm: ArrayLike,
    alpha: ArrayLike,
    mass: ArrayLike,
    Icm: ArrayLike,  # noqa: N803 - the classic name of the gait notebook
    Fd: ArrayLike,  # noqa: N803
    Md: ArrayLike,  # noqa: N803
    *,
    g: float = STANDARD_GRAVITY,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Planar inverse dynamics of one segment: proximal joint load from the distal one.

    Same signature and sign conventions as the classic ``invdyn2d`` of the gait notebook
    (Duarte, after van den Bogert), vectorised over frames.

    Parameters
    ----------
    rcm : array_like, shape (2,) or (N, 2)
        Position of the segment's centre of mass [m].
    rd : array_like, shape (2,) or (N, 2)
        Point of application of the distal load ``Fd`` [m] (distal joint, or centre of
        pressure for the foot).
    rp : array_like, shape (2,) or (N, 2)
        Position of the proximal joint [m].
    acm : array_like, shape (2,) or (N, 2)
        Acceleration of the centre of mass [m/s^2].
    alpha : array_like, shape () or (N,)
        Angular acceleration of the segment, :math:`\dot\omega` [rad/s^2],
        counter-clockwise positive.
    mass : float or array_like, shape () or (N,)
        Segment mass [kg].
    Icm : float or array_like, shape () or (N,)
        Moment of inertia about the centre of mass, z axis [kg m^2].
    Fd : array_like, shape (2,) or (N, 2)
        Force acting ON the segment at ``rd`` [N].
    Md : float or array_like, shape () or (N,)
        Free moment acting ON the segment at its distal end, :math:`\tau_d` [N m] (0 for
        the foot).
    g : float, optional
        Acceleration of free fall [m/s^2], acting along -y (keyword-only).
        Default :data:`bmc.constants.STANDARD_GRAVITY` (9.80665).

    Returns
    -------
    Fp : numpy.ndarray, shape (2,) or (N, 2)
        Force acting ON the segment at the proximal joint [N].
    Mp : numpy.ndarray, shape () or (N,)
        Moment acting ON the segment at the proximal joint, :math:`\tau_p` [N m],
        counter-clockwise positive.

    Raises
    ------
    ValueError
        If a vector argument does not end in 2, if frame counts differ, or if an input
        is not finite.

    Notes
    -----
    Newton's and Euler's laws about the centre of mass give

    .. math::

        \mathbf{F}_p = m\mathbf{a}_{cm} - m\mathbf{g} - \mathbf{F}_d, \qquad
        \tau_p = I_{cm}\dot\omega - \tau_d - (\mathbf{r}_d - \mathbf{r}_{cm})\times\mathbf{F}_d
              - (\mathbf{r}_p - \mathbf{r}_{cm})\times\mathbf{F}_p .

    To go up the chain, pass ``-Fp, -Mp`` as ``Fd, Md`` of the next (more proximal)
    segment: action and reaction.

    References
    ----------
    .. [1] van den Bogert, A. J. ISB software and data: inverse dynamics test data.
       https://isbweb.org/data/invdyn/index.html
    .. [2] Winter, D. A. (2009). *Biomechanics and Motor Control of Human Movement*
       (4th ed.). Wiley. Chapter 5.

    Examples
    --------
    A horizontal 1 m rod of 2 kg held at its left end, nothing at the right end:

    >>> Fp, Mp = invdyn2d([0.5, 0], [1, 0], [0, 0], [0, 0], 0, 2.0, 0.1, [0, 0], 0, g=10.0)
    >>> Fp, round(float(Mp), 6)
    (array([ 0., 20.]), 10.0)
    """
    vec = {
        "rcm": as_array(rcm, "rcm", unit="m", last=2),
        "rd": as_array(rd, "rd", unit="m", last=2),
        "rp": as_array(rp, "rp", unit="m", last=2),
        "acm": as_array(acm, "acm", unit="m/s^2", last=2),
        "Fd": as_array(Fd, "Fd", unit="N", last=2),
    }
    # one number per frame: a column (N, 1) broadcast against (N, 2) into (N, N, 2)
    sca = {
        "alpha": as_array(alpha, "alpha", unit="rad/s^2", ndim=(0, 1)),
        "mass": as_array(mass, "mass", unit="kg", ndim=(0, 1)),
        "Icm": as_array(Icm, "Icm", unit="kg m^2", ndim=(0, 1)),
        "Md": as_array(Md, "Md", unit="N m", ndim=(0, 1)),
    }
    for name in ("mass", "Icm"):
        if np.any(sca[name] < 0):
            raise ValueError(f"{name} must be non-negative; got {sca[name]!r:.80}")
    lead = frames(*[(k, v, 1) for k, v in vec.items()], *[(k, v, 0) for k, v in sca.items()])
    Fp, Mp = newton_euler_step(vec["rcm"], vec["rd"], vec["rp"], vec["acm"], sca["alpha"],
                               sca["mass"], sca["Icm"], vec["Fd"], sca["Md"],
                               positive(g, "g", unit="m/s^2", allow_zero=True))
    return np.broadcast_to(Fp, lead + (2,)).copy(), np.broadcast_to(Mp, lead).copy()


_SEGMENTS = ("thigh", "shank", "foot")
_JOINTS = ("hip", "knee", "ankle")
_MAX_SPEED = 30.0  # fastest plausible lower-limb marker speed [m/s] (a kicking foot ~ 25)
_MIN_FREQ = 20.0  # slowest plausible motion-capture sampling rate [Hz]
_SPEED_WINDOW = 0.02  # time base of the marker-speed check [s]


@dataclass(frozen=True)
class LowerLimbResult:
    """Joint loads and the segment kinematics :func:`lower_limb` used to compute them.

    Segments are ordered thigh, shank, foot; joints hip, knee, ankle (each joint is the
    proximal joint of the segment with the same index). Axis 0 is time (N frames).

    Attributes
    ----------
    forces : numpy.ndarray, shape (N, 3, 2)
        Force acting on the distal segment at hip, knee, ankle, components x, y [N].
    moments : numpy.ndarray, shape (N, 3)
        Net moment acting on the distal segment at hip, knee, ankle [N m], counter-clockwise
        positive (the sign convention of the running data's true moments).
    markers : numpy.ndarray, shape (N, 4, 2)
        Hip, knee, ankle, toe positions after the optional low-pass filter [m].
    angles : numpy.ndarray, shape (N, 3)
        Segment angles of the vectors hip->knee, knee->ankle, ankle->toe from +x,
        counter-clockwise, unwrapped over time [rad].
    joint_angles : numpy.ndarray, shape (N, 3)
        Hip flexion (thigh from the downward vertical: the pelvis is not measured), knee
        flexion (thigh angle minus shank angle) and ankle dorsiflexion (foot angle minus
        shank angle minus pi/2, zero when ankle->toe is perpendicular to the shank) [rad].
    com : numpy.ndarray, shape (N, 3, 2)
        Centre-of-mass positions [m].
    com_acceleration : numpy.ndarray, shape (N, 3, 2)
        Centre-of-mass accelerations [m/s^2].
    angular_velocity : numpy.ndarray, shape (N, 3)
        Segment angular velocities [rad/s].
    angular_acceleration : numpy.ndarray, shape (N, 3)
        Segment angular accelerations [rad/s^2].
    freq : float
        Sampling frequency [Hz].
    derivative : str
        Differentiation scheme used (``"central"`` or ``"diff2"``).
    cutoff : float or None
        Low-pass cut-off used [Hz], or ``None``.
    """

    forces: np.ndarray
    moments: np.ndarray
    markers: np.ndarray
    angles: np.ndarray
    joint_angles: np.ndarray
    com: np.ndarray
    com_acceleration: np.ndarray
    angular_velocity: np.ndarray
    angular_acceleration: np.ndarray
    freq: float
    derivative: str
    cutoff: float | None

    @property
    def force_magnitudes(self) -> np.ndarray:
        """Magnitude of the joint forces at hip, knee, ankle, shape (N, 3) [N]."""
        return np.hypot(self.forces[..., 0], self.forces[..., 1])

    @property
    def joint_angular_velocity(self) -> np.ndarray:
        """Angular velocity of the distal segment relative to the proximal one (N, 3) [rad/s].

        The hip uses the thigh's absolute angular velocity: the pelvis is not measured, so
        its rotation is neglected.
        """
        w = self.angular_velocity
        return np.stack([w[:, 0], w[:, 1] - w[:, 0], w[:, 2] - w[:, 1]], axis=1)

    @property
    def powers(self) -> np.ndarray:
        """Joint powers at hip, knee, ankle, shape (N, 3) [W].

        ``P = M (omega_distal - omega_proximal)``: positive when the joint moment does
        positive work (generation), negative when it absorbs energy. Hip power neglects
        pelvis rotation (see :attr:`joint_angular_velocity`).
        """
        return self.moments * self.joint_angular_velocity


def _segment_parameters(segments: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Read mass [kg], inertia [kg m^2] and COM fraction [-] of thigh, shank, foot."""
    fields = ("mass", "inertia", "com_fraction")

    def get(obj: object, key: str) -> object:
        if isinstance(obj, Mapping):
            return obj[key]
        return getattr(obj, key)

    values: list[object]
    try:
        if isinstance(segments, Mapping) and all(s in segments for s in _SEGMENTS):
            items = [segments[s] for s in _SEGMENTS]
            values = [[get(item, f) for item in items] for f in fields]
        elif isinstance(segments, (list, tuple)):
            if len(segments) != 3:
                raise ValueError
            values = [[get(item, f) for item in segments] for f in fields]
        else:  # one object (or mapping) holding three-element arrays, e.g. SegmentSet
            values = [get(segments, f) for f in fields]
    except (KeyError, AttributeError, ValueError, TypeError):
        raise TypeError(
            "segments must give mass [kg], inertia [kg m^2] and com_fraction [-] for the "
            "thigh, shank and foot: an object or mapping with three-element 'mass', "
            "'inertia', 'com_fraction' (e.g. bmc.datasets.load_running().segments), a "
            "mapping with keys 'thigh', 'shank', 'foot', or a sequence of three such "
            f"segments (e.g. bmc.anthropometry.segment(...)); got {type(segments).__name__}"
        ) from None
    mass, inertia, frac = (
        as_array(v, f"segments.{f}", unit=u, ndim=1)  # type: ignore[arg-type]
        for v, f, u in zip(values, fields, ("kg", "kg m^2", "-"), strict=True)
    )
    for arr, f in ((mass, "mass"), (inertia, "inertia"), (frac, "com_fraction")):
        if arr.shape != (3,):
            raise ValueError(
                f"segments.{f} must hold 3 values (thigh, shank, foot); got shape {arr.shape}"
            )
    if np.any(mass <= 0) or np.any(inertia < 0):
        raise ValueError(
            f"segments need positive masses and non-negative inertias; got mass {mass} kg, "
            f"inertia {inertia} kg m^2"
        )
    if np.any((frac < 0) | (frac > 1)):
        hint = (f"it looks like percent: pass {np.round(frac / 100, 4).tolist()}"
                if np.all((frac >= 0) & (frac <= 100)) else
                "check the value: 0 puts the COM at the proximal joint, 1 at the distal one")
        raise ValueError(
            f"segments.com_fraction [-] must be fractions of the segment length from 0 to 1 "
            f"(the COM lies within its segment); got {frac.tolist()}: {hint}"
        )
    return mass, inertia, frac


def _check_rate(freq: float, markers: np.ndarray, time: ArrayLike | None) -> float:
    """Check that the sampling frequency [Hz] is plausible for the data."""
    fs = positive(freq, "freq", unit="Hz")
    n = markers.shape[0]
    if time is not None:
        t = as_array(time, "time", unit="s", ndim=1)
        if t.shape != (n,):
            raise ValueError(
                f"time [s] must have one entry per frame, shape ({n},); got shape {t.shape}"
            )
        step = np.diff(t)
        if np.any(step <= 0):
            k = int(np.argmax(step <= 0))
            raise ValueError("time [s] must be strictly increasing; got "
                             f"{t[k]:g} s then {t[k + 1]:g} s at frames {k} and {k + 1}")
        measured = 1.0 / np.median(step)
        if abs(measured - fs) > 1e-3 * fs or np.ptp(step) > 1e-3 * np.median(step):
            raise ValueError(
                f"freq [Hz] must match the time vector, which is sampled at {measured:.6g} "
                f"Hz (uniformly within 0.1 % is required); got {fs:g} Hz"
            )
    if fs < _MIN_FREQ:
        raise ValueError(
            f"freq [Hz] must be at least {_MIN_FREQ:g} Hz for motion capture; got {fs:g} Hz, "
            "implausibly low: pass the sampling frequency in Hz, not kHz or a time step"
        )
    # Mean speed over 20 ms windows: robust to marker noise at high sampling rates.
    lag = int(min(n - 1, max(1, round(fs * _SPEED_WINDOW))))
    step = markers[lag:] - markers[:-lag]
    speed = np.max(np.hypot(step[..., 0], step[..., 1])) * fs / lag
    if speed > _MAX_SPEED:
        raise ValueError(
            f"freq [Hz] = {fs:g} gives a marker speed of {speed:.3g} m/s, above the "
            f"{_MAX_SPEED:g} m/s a lower limb can reach: check freq and that markers are "
            "in metres"
        )
    return fs


def _shifted_diff2(x: np.ndarray, freq: float) -> np.ndarray:
    """Return the gait notebook's acceleration, ``np.diff(x, n=2)`` padded at the end."""
    acc = np.diff(x, n=2, axis=0) * freq**2
    return np.concatenate([acc, acc[-1:], acc[-1:]], axis=0)


def _shifted_diff1(x: np.ndarray, freq: float) -> np.ndarray:
    """Return the forward difference padded at the end (velocity analogue of the above)."""
    vel = np.diff(x, axis=0) * freq
    return np.concatenate([vel, vel[-1:]], axis=0)


def lower_limb(
    markers: ArrayLike,
    grf: ArrayLike,
    freq: float,
    segments: object,
    *,
    derivative: str = "central",
    cutoff: float | None = None,
    quasi_static: bool = False,
    time: ArrayLike | None = None,
    g: float = STANDARD_GRAVITY,
) -> LowerLimbResult:
    r"""Planar inverse dynamics of the lower limb, foot -> shank -> thigh.

    From joint markers and the ground reaction, compute segment kinematics (centre-of-mass
    accelerations, angular accelerations) and, with :func:`invdyn2d` applied three times,
    the force and moment at the ankle, knee and hip.

    Parameters
    ----------
    markers : array_like, shape (N, 8) or (N, 4, 2)
        Hip, knee, ankle and toe positions, x and y of each [m].
    grf : array_like, shape (N, 3)
        Ground reaction force on the foot ``Fx, Fy`` [N] and centre of pressure ``x`` [m]
        (the ground is the line y = 0). Zero during flight.
    freq : float
        Sampling frequency [Hz].
    segments : object
        Mass [kg], moment of inertia about the centre of mass [kg m^2] and centre-of-mass
        position as a fraction of the segment length from the proximal joint [-] of thigh,
        shank, foot: ``bmc.datasets.load_running().segments``, a mapping with keys
        ``"thigh"``, ``"shank"``, ``"foot"``, or a sequence of three
        :func:`bmc.anthropometry.segment` results (attributes or keys ``mass``,
        ``inertia``, ``com_fraction``).
    derivative : {"central", "diff2"}, optional
        ``"central"`` (default): :func:`bmc.signals.derivative`, aligned with the data.
        ``"diff2"``: the gait notebook's ``np.diff(x, n=2) * freq**2`` padded at the end,
        which puts each acceleration one sample too early (kept for teaching).
    cutoff : float, optional
        If given, low-pass the markers and the ground reaction with
        :func:`bmc.signals.lowpass` (zero lag, 2nd order per pass) at this cut-off [Hz]
        before differentiating. Default ``None``: no filter.
    quasi_static : bool, optional
        Neglect all linear and angular accelerations (default ``False``).
    time : array_like, shape (N,), optional
        Sample times [s]; if given, ``freq`` must match it.
    g : float, optional
        Acceleration of free fall [m/s^2], along -y. Default
        :data:`bmc.constants.STANDARD_GRAVITY` (9.80665), the value the running data were
        simulated with.

    Returns
    -------
    LowerLimbResult
        Joint ``forces`` (N, 3, 2) and ``moments`` (N, 3) at hip, knee, ankle, the
        kinematics used, ``force_magnitudes`` and joint ``powers``.

    Raises
    ------
    ValueError
        On mismatched shapes, non-finite input, an unknown ``derivative``, a ``cutoff`` at
        or above the Nyquist frequency, or an implausible ``freq`` (not positive, below
        20 Hz, inconsistent with ``time``, or giving a marker speed above 30 m/s averaged
        over 20 ms).
    TypeError
        If ``segments`` does not provide the three segments' parameters.

    Notes
    -----
    The ground reaction is applied as the force ``(Fx, Fy)`` at the origin plus its moment
    about the origin, :math:`M_0 = x_{COP} F_y` (the centre of pressure lies on y = 0).
    This is the same load as the force at the centre of pressure, but all three signals
    are continuous through touch-down and take-off, so they can be low-pass filtered; the
    centre of pressure itself is undefined in flight.

    The moments are those acting on the distal segment of each joint (``Mp`` of the
    thigh, shank and foot). Each segment's centre of mass lies on the line between its
    joint markers (toe for the foot).

    References
    ----------
    .. [1] van den Bogert, A. J., and de Koning, J. J. (1996). On optimal filtering for
       inverse dynamics analysis. Proceedings of the IXth Biennial Conference of the
       Canadian Society for Biomechanics, Vancouver, 214-215.
    .. [2] Winter, D. A. (2009). *Biomechanics and Motor Control of Human Movement*
       (4th ed.). Wiley. Chapter 5.

    Examples
    --------
    A straight leg standing still with 700 N under the ankle: the force on each distal
    segment at its joint points down, the ground reaction minus the weight of the segments
    below the joint.

    >>> import numpy as np
    >>> legs = np.tile([0, 0.9, 0, 0.45, 0, 0.08, 0.15, 0.0], (10, 1))
    >>> grf = np.tile([0.0, 700.0, 0.0], (10, 1))
    >>> seg = {"mass": [7.0, 3.0, 1.0], "inertia": [0.1, 0.04, 0.005],
    ...        "com_fraction": [0.43, 0.43, 0.5]}
    >>> res = lower_limb(legs, grf, 100.0, seg, g=10.0)
    >>> np.round(res.forces[0, :, 1], 6) + 0.0
    array([-590., -660., -690.])
    """
    from bmc import kinematics, signals

    mk = as_array(markers, "markers", unit="m")
    if mk.ndim == 2 and mk.shape[1] == 8:
        mk = mk.reshape(-1, 4, 2)
    if mk.ndim != 3 or mk.shape[1:] != (4, 2):
        raise ValueError(
            "markers [m] must have shape (N, 8) or (N, 4, 2): hip, knee, ankle, toe, x and "
            f"y of each, time on axis 0; got shape {mk.shape}"
        )
    ground = as_array(grf, "grf", unit="N, N, m", ndim=2)
    if ground.shape[1] != 3:
        raise ValueError(
            f"grf must have shape (N, 3): Fx [N], Fy [N], COPx [m]; got shape {ground.shape}"
        )
    frames(("markers", mk, 2), ("grf", ground, 1), equal=True)
    if mk.shape[0] < 4:
        raise ValueError(f"need at least 4 frames to differentiate; got {mk.shape[0]}")
    if derivative not in ("central", "diff2"):
        raise ValueError(f'derivative must be "central" or "diff2"; got {derivative!r}')
    fs = _check_rate(freq, mk, time)
    mass, inertia, frac = _segment_parameters(segments)

    # Ground load as force at the origin plus its moment about the origin (see Notes).
    force, moment0 = ground[:, :2], ground[:, 2] * ground[:, 1]
    if cutoff is not None:
        mk = signals.lowpass(mk, fs, cutoff)
        force = signals.lowpass(force, fs, cutoff)
        moment0 = signals.lowpass(moment0, fs, cutoff)

    prox, dist = mk[:, :3], mk[:, 1:]
    com = prox + frac[:, None] * (dist - prox)
    angles = kinematics.segment_angle(prox, dist)
    if derivative == "central":
        acc = signals.derivative(com, 1.0 / fs, n=2)
        omega = signals.derivative(angles, 1.0 / fs)
        alpha = signals.derivative(angles, 1.0 / fs, n=2)
    else:
        acc, omega, alpha = (_shifted_diff2(com, fs), _shifted_diff1(angles, fs),
                             _shifted_diff2(angles, fs))
    if quasi_static:
        acc, alpha = np.zeros_like(acc), np.zeros_like(alpha)

    # the upward recursion from the ground's load on the foot (at the origin): foot, shank,
    # thigh, each passing its proximal load on to the next
    up = [2, 1, 0]
    points = np.concatenate([np.zeros((com.shape[0], 1, 2)), prox[:, up]], axis=1)
    forces, moments = upward(com[:, up], acc[:, up], alpha[:, up], mass[up], inertia[up],
                             points, force, moment0, positive(g, "g", unit="m/s^2",
                                                              allow_zero=True))
    forces, moments = (np.ascontiguousarray(x[:, ::-1]) for x in (forces, moments))

    joint_angles = np.stack(
        [angles[:, 0] + np.pi / 2, angles[:, 0] - angles[:, 1],
         angles[:, 2] - angles[:, 1] - np.pi / 2],
        axis=1,
    )
    return LowerLimbResult(
        forces=forces, moments=moments, markers=mk, angles=angles,
        joint_angles=joint_angles, com=com, com_acceleration=acc, angular_velocity=omega,
        angular_acceleration=alpha, freq=fs, derivative=derivative,
        cutoff=None if cutoff is None else float(cutoff),
    )


# ---------------------------------------------------------------------------------------
# 3D: Euler's equations in the segment frame, loads solved segment by segment from the
# distal end; the matrix form of the same equations is in bmc.matrix_form, and the two
# agree to rounding error (tests/test_newton_euler3d.py).
# ---------------------------------------------------------------------------------------
def invdyn3d(
    rcm: ArrayLike,
    rd: ArrayLike,
    rp: ArrayLike,
    acm: ArrayLike,
    omega: ArrayLike,
    omegadot: ArrayLike,
    R: ArrayLike,  # noqa: N803 - the usual name of a rotation matrix
    mass: float,
    inertia: ArrayLike,
    Fd: ArrayLike,  # noqa: N803 - as in invdyn2d
    Md: ArrayLike,  # noqa: N803
    *,
    g: float = STANDARD_GRAVITY,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Spatial inverse dynamics of one segment: proximal joint load from the distal one.

    The 3D counterpart of :func:`invdyn2d`, with the same sign conventions: ``Fd, Md`` act
    ON the segment at its distal end, ``Fp, Mp`` ON the segment at its proximal joint, and
    going up a chain the next segment receives ``-Fp, -Mp``.

    Parameters
    ----------
    rcm, rd, rp : array_like, shape (3,) or (N, 3)
        Centre of mass, point of application of ``Fd`` (distal joint or centre of pressure)
        and proximal joint, global frame [m].
    acm : array_like, shape (3,) or (N, 3)
        Centre of mass acceleration, global frame [m/s^2].
    omega, omegadot : array_like, shape (3,) or (N, 3)
        Angular velocity [rad/s] and acceleration [rad/s^2] in the segment's frame.
    R : array_like, shape (3, 3) or (N, 3, 3)
        Orientation of the segment: ``v_global = R v_segment``.
    mass : float
        Segment mass [kg].
    inertia : array_like, shape (3, 3)
        Inertia tensor about the centre of mass in the segment's frame [kg m^2].
    Fd, Md : array_like, shape (3,) or (N, 3)
        Force [N] and free moment [N m] acting on the segment at its distal end, global
        frame.
    g : float, optional
        Acceleration of free fall [m/s^2] along -y (keyword-only, default 9.80665).

    Returns
    -------
    Fp : numpy.ndarray, shape (3,) or (N, 3)
        Force on the segment at its proximal joint, global frame [N].
    Mp : numpy.ndarray, shape (3,) or (N, 3)
        Moment on the segment at its proximal joint, global frame [N m]; ``R^T Mp`` gives it
        in the segment's frame.

    Notes
    -----
    Newton's law in the global frame and Euler's law written in the segment frame, where the
    inertia tensor is constant, then rotated to the global frame:

    .. math::

        \mathbf{F}_p = m\mathbf{a}_{cm} - m\mathbf{g} - \mathbf{F}_d, \qquad
        \mathbf{M}_p = R\,(I\dot{\boldsymbol\omega} + \boldsymbol\omega\times I\boldsymbol\omega)
            - \mathbf{M}_d - (\mathbf{r}_d - \mathbf{r}_{cm})\times\mathbf{F}_d
            - (\mathbf{r}_p - \mathbf{r}_{cm})\times\mathbf{F}_p .

    Examples
    --------
    A resting 2 kg segment hanging from its proximal joint 0.5 m above its centre of mass:

    >>> Fp, Mp = invdyn3d([0, 0.5, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0],
    ...                   np.eye(3), 2.0, 0.1 * np.eye(3), [0, 0, 0], [0, 0, 0], g=10.0)
    >>> Fp, Mp
    (array([ 0., 20.,  0.]), array([0., 0., 0.]))
    """
    vec = {name: as_array(value, name, unit=unit, last=3, ndim=(1, 2)) for name, value, unit in (
        ("rcm", rcm, "m"), ("rd", rd, "m"), ("rp", rp, "m"), ("acm", acm, "m/s^2"),
        ("omega", omega, "rad/s"), ("omegadot", omegadot, "rad/s^2"), ("Fd", Fd, "N"),
        ("Md", Md, "N m"))}
    R = rotation_matrices(R, "R", ndim=(2, 3))
    mass = positive(mass, "mass", unit="kg")
    inertia = inertia_tensors(as_array(inertia, "inertia", unit="kg m^2", last=(3, 3), ndim=2),
                              "inertia")
    frames(*[(k, v, 1) for k, v in vec.items()], ("R", R, 2))
    gravity = np.array([0.0, -positive(g, "g", unit="m/s^2", allow_zero=True), 0.0])
    w = vec["omega"]
    euler = vec["omegadot"] @ inertia.T + np.cross(w, w @ inertia.T)   # segment frame
    Fp = mass * vec["acm"] - mass * gravity - vec["Fd"]
    Mp = (np.einsum("...ij,...j->...i", R, euler) - vec["Md"]
          - np.cross(vec["rd"] - vec["rcm"], vec["Fd"])
          - np.cross(vec["rp"] - vec["rcm"], Fp))
    return Fp, Mp


def joint_loads3d(
    mass: ArrayLike,
    inertia: ArrayLike,
    R: ArrayLike,  # noqa: N803
    rcm: ArrayLike,
    rp: ArrayLike,
    acm: ArrayLike,
    omega: ArrayLike,
    omegadot: ArrayLike,
    f_ext: ArrayLike,
    p_ext: ArrayLike,
    *,
    free_moment: ArrayLike | None = None,
    g: float = STANDARD_GRAVITY,
    frame: str = "segment",
) -> tuple[np.ndarray, np.ndarray]:
    """Joint loads of a 3D chain, segment by segment from the distal end (recursive).

    Same arguments and results as :func:`bmc.matrix_form.joint_loads`: segments are
    numbered from the distal end (foot, shank, ...), segment ``i``'s distal joint is
    segment ``i-1``'s proximal joint ``rp[..., i-1, :]``, and segment 1 carries the
    external force ``f_ext`` at ``p_ext`` (ground reaction at the centre of pressure).
    Each step is :func:`invdyn3d` with ``Fd, Md = -Fp, -Mp`` of the previous segment.

    Parameters
    ----------
    mass : array_like, shape (n,)
        Segment masses [kg], distal first.
    inertia : array_like, shape (n, 3, 3)
        Inertia tensors about each centre of mass, segment frames [kg m^2].
    R : array_like, shape (N, n, 3, 3) or (n, 3, 3)
        Orientations, ``v_global = R v_segment``.
    rcm, rp, acm : array_like, shape (N, n, 3) or (n, 3)
        Centre of mass and proximal joint positions [m], centre of mass accelerations
        [m/s^2], global frame.
    omega, omegadot : array_like, shape (N, n, 3) or (n, 3)
        Angular velocities [rad/s] and accelerations [rad/s^2], segment frames.
    f_ext, p_ext : array_like, shape (N, 3) or (3,)
        External force on segment 1 [N] and its point of application [m], global frame.
    free_moment : array_like, shape (N, 3) or (3,), optional
        External free moment on segment 1, global frame [N m] (default zero).
    g : float, optional
        Acceleration of free fall [m/s^2] along -y (default 9.80665).
    frame : {"segment", "global"}, optional
        Frame of the returned moments (default: each segment's own frame).

    Returns
    -------
    F : numpy.ndarray, shape (N, n, 3) or (n, 3)
        Force on segment ``i`` at its proximal joint, global frame [N].
    M : numpy.ndarray, shape (N, n, 3) or (n, 3)
        Moment on segment ``i`` at its proximal joint [N m], in ``frame``.

    Examples
    --------
    Two resting 1 kg segments stacked along y, nothing at the distal end:

    >>> eye = np.eye(3)
    >>> F, M = joint_loads3d([1.0, 1.0], [0.01 * eye] * 2, [eye, eye], [[0, 0.5, 0], [0, 1.5, 0]],
    ...                      [[0, 1, 0], [0, 2, 0]], np.zeros((2, 3)), np.zeros((2, 3)),
    ...                      np.zeros((2, 3)), [0, 0, 0], [0, 0, 0], g=10.0)
    >>> F
    array([[ 0., 10.,  0.],
           [ 0., 20.,  0.]])
    """
    if frame not in ("segment", "global"):
        raise ValueError(f"frame must be 'segment' or 'global'; got {frame!r}")
    mass = as_array(mass, "mass", unit="kg", ndim=1)
    n = mass.size
    if mass.size == 0 or np.any(mass <= 0):
        raise ValueError(f"mass [kg] must hold one positive mass per segment; got {mass}")
    inertia = inertia_tensors(
        as_array(inertia, "inertia", unit="kg m^2", last=(n, 3, 3), ndim=3), "inertia")
    R = rotation_matrices(as_array(R, "R", last=(n, 3, 3), ndim=(3, 4)), "R")
    seg = {name: as_array(value, name, unit=unit, last=(n, 3), ndim=(2, 3))
           for name, value, unit in (("rcm", rcm, "m"), ("rp", rp, "m"), ("acm", acm, "m/s^2"),
                                     ("omega", omega, "rad/s"),
                                     ("omegadot", omegadot, "rad/s^2"))}
    Fd = as_array(f_ext, "f_ext", unit="N", last=3, ndim=(1, 2))
    rd = as_array(p_ext, "p_ext", unit="m", last=3, ndim=(1, 2))
    Md = (np.zeros(3) if free_moment is None
          else as_array(free_moment, "free_moment", unit="N m", last=3, ndim=(1, 2)))
    # the frames checked here, by the names the caller gave (invdyn3d would name the
    # external load by its own names, rd and Fd)
    lead = frames(*[(name, value, 2) for name, value in seg.items()], ("R", R, 3),
                  ("f_ext", Fd, 1), ("p_ext", rd, 1), ("free_moment", Md, 1))
    forces, moments = [], []
    for i in range(n):                        # a loop over segments, never over frames
        Fp, Mp = invdyn3d(seg["rcm"][..., i, :], rd, seg["rp"][..., i, :],
                          seg["acm"][..., i, :], seg["omega"][..., i, :],
                          seg["omegadot"][..., i, :], R[..., i, :, :], mass[i], inertia[i],
                          Fd, Md, g=g)
        forces.append(Fp)
        moments.append(Mp if frame == "global"
                       else np.einsum("...ji,...j->...i", R[..., i, :, :], Mp))
        Fd, Md, rd = -Fp, -Mp, seg["rp"][..., i, :]
    # both with the common frames (the first segment's force can have fewer than its moment)
    return (np.broadcast_to(np.stack(forces, axis=-2), lead + (n, 3)).copy(),
            np.broadcast_to(np.stack(moments, axis=-2), lead + (n, 3)).copy())
