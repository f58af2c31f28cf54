r"""Kuo's standing body and its postural-sway benchmark (Kuo 1998, Appendix A).

Kuo tested least-squares inverse dynamics (:mod:`bmc.least_squares`) on a simulated trial:
a four-segment body standing on a force plate sways for a few seconds and is measured by
joint-centre markers and by the plate, both with noise. This module holds that benchmark,
the experiment rather than the method:

- :class:`FourSegmentModel`, the body of Kuo's Appendix A (foot fixed on the force plate,
  shank, thigh, head-arms-trunk) with the parameters :data:`KUO_PARAMETERS`, built on
  :class:`bmc.planar.PlanarModel`: the equations of motion in segment angles,
  ``M(phi) phidd + h(phi, phid) = Q tau``, and the ground reaction
  ``y = [N_O, Fx, Fy] = C(phi) phidd + d(phi, phid)``;
- :func:`simulate_sway`, the exact trial (:class:`Sway`): sway about :data:`POSTURE`
  driven by sinusoids and held by postural feedback;
- :func:`measure`, its noisy measurement (:class:`Measurement`): markers and force plate
  with white noise, filtered and differentiated, many realisations stacked along axis 0;
  :func:`noise_gains` gives the variance gains of that processing (Kuo's Appendix B).

Conventions: SI units; x forward, y up; angles counter-clockwise from +x [rad]; axis 0 is
time (or the frames of several realisations stacked one after the other). Segment angles
``phi = [shank, thigh, HAT]`` [rad]. Joint torques ``tau = [ankle, knee, hip]`` [N m] are
the course's net joint moments: each acts counter-clockwise positive on the anatomically
distal segment, the ankle moment on the foot, the knee moment on the shank, the hip moment
on the thigh (the reaction acts on the proximal one). The model is a tree rooted at the
foot, so these are its parents (``torque_on="parent"``). Kuo's torques act on the segment
above the joint: ``tau_Kuo = -tau``. Standing still with the body's centre of mass in
front of the ankle, the ankle moment on the foot is negative (clockwise: the plantarflexors
press the forefoot down). The ground reaction ``[N_O, Fx, Fy]`` is the moment
about the force-plate origin [N m] and the force [N] that the plate exerts on the foot.

Notes
-----
The segment lengths, centre-of-mass distances, masses and moments of inertia are Kuo's
Appendix A values [1]_. The paper describes the simulated drive (a sum of sinusoids with
postural feedback) but gives neither its amplitudes, phases and feedback gains nor the
angle of the foot; the values here are this course's choice and produce sway of a few
degrees at each joint (:func:`simulate_sway`, :class:`FourSegmentModel`).

References
----------
.. [1] Kuo, A. D. (1998). A least-squares estimation approach to improving the precision
   of inverse dynamics computations. *Journal of Biomechanical Engineering*, 120(1),
   148-159. https://doi.org/10.1115/1.2834295
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import (
    as_array,
    cutoff_frequency,
    filter_order,
    in_range,
    integer,
    plausible,
    positive,
)
from bmc.constants import G
from bmc.planar import PlanarModel

__all__ = [
    "KUO_PARAMETERS",
    "POSTURE",
    "FourSegmentModel",
    "Measurement",
    "Sway",
    "measure",
    "noise_gains",
    "simulate_sway",
]


def __dir__() -> list[str]:
    return sorted(__all__)

#: Body-segment parameters of Kuo (1998), Appendix A: foot, shank, thigh, HAT.
KUO_PARAMETERS = {
    "lengths": (0.177, 0.405, 0.440, 0.795),  # [m]
    "com": (0.086, 0.235, 0.268, 0.302),  # [m] from the joint nearer the ground
    "masses": (1.78, 7.30, 15.5, 44.6),  # [kg]
    "inertias": (0.0080, 0.097, 0.253, 1.51),  # [kg m^2] about the centre of mass
}



# --------------------------------------------------------------------------- the model
class FourSegmentModel(PlanarModel):
    r"""Kuo's four-segment standing body: foot fixed on the force plate, three moving links.

    A :class:`bmc.planar.PlanarModel` with a fixed base at the force-plate origin: segment 1
    (the foot) is a rigid link from the origin to the ankle, held at the constant angle
    ``foot_angle``; segments 2-4 (shank, thigh, head-arms-trunk) turn, and their angles
    from +x are the coordinates ``phi``. Markers sit on the joint centres: plate origin,
    ankle, knee, hip and the top of the HAT.

    Parameters
    ----------
    lengths, com, masses, inertias : array_like, shape (4,), optional
        Segment lengths [m], distances from the lower joint to the centre of mass [m],
        masses [kg] and moments of inertia about the centre of mass [kg m^2] of foot,
        shank, thigh and HAT. Default: :data:`KUO_PARAMETERS` (Kuo 1998, Appendix A).
    foot_angle : float, optional
        Constant angle of the foot segment from +x [rad] (keyword-only). The paper does not
        give it; the default 0.47 rad puts the ankle 8 cm above the plate.
    g : float, optional
        Gravitational acceleration [m/s^2] along -y (keyword-only). Default
        :data:`bmc.constants.G`.

    Attributes
    ----------
    chain : bmc.chain.PlanarChain
        The moving shank-thigh-HAT chain in joint coordinates, hinged at the ankle (what
        :func:`simulate_sway` integrates). Its joint torques act on the segment above
        each joint (Kuo's sign): they are ``-tau``.
    ankle : numpy.ndarray, shape (2,)
        Position of the ankle [m] in the force-plate frame.
    Q : numpy.ndarray, shape (3, 3)
        Maps joint torques to segment torques: the net joint torque on a moving segment is
        the moment at its upper joint minus that at its lower one, ``tau_upper - tau_lower``
        (``-1`` on the diagonal, ``+1`` just above it, no upper joint for the HAT; the
        model's :attr:`~bmc.planar.PlanarModel.torque_matrix`). Kuo's ``Q`` is its negative.

    Notes
    -----
    In segment angles :math:`\phi` (shank, thigh, HAT) the equations of motion read
    :math:`M_\phi(\phi)\ddot\phi + h(\phi, \dot\phi) = Q\tau`
    (:meth:`~bmc.planar.PlanarModel.mass_matrix`, :meth:`~bmc.planar.PlanarModel.bias_forces`).
    The ground reaction follows from the balance of linear momentum and of angular
    momentum about the plate origin (the foot does not move):
    :math:`F = \sum_k m_k (\ddot x_k + g\hat y)` and
    :math:`N_O = \sum_k (I_k \ddot\phi_k + m_k\, x_k \times \ddot x_k) + g \sum_k m_k x_k`
    (:meth:`~bmc.planar.PlanarModel.base_reaction`).

    Examples
    --------
    >>> model = FourSegmentModel()
    >>> print(round(model.total_mass, 2))
    69.18
    >>> phi = np.array([1.5, 1.6, 1.55])
    >>> print(np.round(model.ground_reaction(phi, np.zeros(3), np.zeros(3)), 2))
    [119.7    0.   678.66]
    >>> print(model.Q)
    [[-1.  1.  0.]
     [ 0. -1.  1.]
     [ 0.  0. -1.]]

    Standing still in the benchmark's posture, the centre of mass lies in front of the
    ankle and the ankle moment on the foot is clockwise (plantarflexor):

    >>> still = np.zeros((1, 3))
    >>> print(np.round(model.inverse_dynamics(np.array([POSTURE]), still, still), 1))
    [[-13.3   4.8  -6.7]]
    """

    coordinates = "phi"

    def __init__(
        self,
        lengths: ArrayLike = KUO_PARAMETERS["lengths"],
        com: ArrayLike = KUO_PARAMETERS["com"],
        masses: ArrayLike = KUO_PARAMETERS["masses"],
        inertias: ArrayLike = KUO_PARAMETERS["inertias"],
        *,
        foot_angle: float = 0.47,
        g: float = G,
    ) -> None:
        from bmc.chain import PlanarChain

        values = {}
        for name, value, unit in (
            ("lengths", lengths, "m"), ("com", com, "m"), ("masses", masses, "kg"),
            ("inertias", inertias, "kg m^2"),
        ):
            arr = as_array(value, name, unit=unit)
            if arr.shape != (4,):
                raise ValueError(
                    f"{name} [{unit}] must have 4 values (foot, shank, thigh, HAT); "
                    f"got shape {arr.shape}"
                )
            values[name] = arr
        self.foot_angle = plausible(
            float(as_array(foot_angle, "foot_angle", unit="rad", ndim=0)), "foot_angle",
            unit="rad", low=-np.pi / 2, high=np.pi / 2,
            quantity="heel-to-ankle angle above the ground",
            units={"degrees": np.pi / 180}, refuse=False)  # any angle is a geometry
        g = positive(g, "g", unit="m/s^2", allow_zero=True)
        # PlanarChain checks the moving segments' parameters and explains what is wrong.
        self.chain = PlanarChain(values["lengths"][1:], values["com"][1:],
                                 values["masses"][1:], values["inertias"][1:], g=g)
        if not (0 <= values["com"][0] <= values["lengths"][0]) or values["masses"][0] <= 0:
            raise ValueError(
                "the foot needs 0 <= com[0] <= lengths[0] [m] and masses[0] > 0 [kg]; got "
                f"com {values['com'][0]}, length {values['lengths'][0]}, mass "
                f"{values['masses'][0]}"
            )
        # a chain on the plate origin whose first link, the foot, does not turn
        super().__init__([-1, 0, 1, 2], np.concatenate([[0.0], values["lengths"][:-1]]),
                         values["lengths"], values["com"], values["masses"], values["inertias"],
                         angle_map=np.eye(4, 3, k=-1), angle_offset=[foot_angle, 0, 0, 0],
                         names=["foot", "shank", "thigh", "HAT"],
                         joint_names=["ankle", "knee", "hip"], g=g, torque_on="parent")
        foot = np.array([np.cos(self.foot_angle), np.sin(self.foot_angle)])
        self.ankle = self.lengths[0] * foot
        self.foot_com = self.com[0] * foot
        self.Q = self.torque_matrix

    def __repr__(self) -> str:
        return (
            f"FourSegmentModel(lengths={self.lengths.tolist()}, com={self.com.tolist()}, "
            f"masses={self.masses.tolist()}, inertias={self.inertias.tolist()}, "
            f"foot_angle={self.foot_angle}, g={self.g})"
        )

    # ------------------------------------------------------------------ coordinates
    def to_joint_angles(self, phi: ArrayLike) -> np.ndarray:
        """Joint coordinates of the moving chain (shank angle, knee, hip) [rad].

        Parameters
        ----------
        phi : array_like, shape (..., 3)
            Segment angles of shank, thigh, HAT from +x [rad] (or their rates).

        Returns
        -------
        numpy.ndarray, shape (..., 3)
            ``[phi_shank, phi_thigh - phi_shank, phi_HAT - phi_thigh]`` [rad] (or rates).
        """
        return self.chain.from_segment_angles(as_array(phi, "phi", unit="rad", last=3))

    def joint_positions(self, phi: ArrayLike) -> np.ndarray:
        """Marker positions on the joint centres.

        Parameters
        ----------
        phi : array_like, shape (..., 3)
            Segment angles of shank, thigh, HAT [rad].

        Returns
        -------
        numpy.ndarray, shape (..., 5, 2)
            Plate origin, ankle, knee, hip and top of the HAT [m].
        """
        ends = self.distal_positions(phi)
        return np.concatenate([np.zeros(ends.shape[:-2] + (1, 2)), ends], axis=-2)

    def com_accelerations(self, phi: ArrayLike, phid: ArrayLike, phidd: ArrayLike) -> np.ndarray:
        """Accelerations of the four centres of mass [m/s^2], shape ``(..., 4, 2)``.

        Parameters
        ----------
        phi, phid, phidd : array_like, shape (..., 3)
            Segment angles [rad], angular velocities [rad/s] and accelerations [rad/s^2]
            of shank, thigh and HAT.

        Returns
        -------
        numpy.ndarray, shape (..., 4, 2)
            Row 0 (the foot) is zero.
        """
        return self.kinematics(phi, phid, phidd)[2]

    # ------------------------------------------------------------------ the force plate
    def ground_reaction_terms(
        self, phi: ArrayLike, phid: ArrayLike
    ) -> tuple[np.ndarray, np.ndarray]:
        """Matrices of the ground reaction, ``y = C(phi) phidd + d(phi, phid)``.

        The model's :meth:`~bmc.planar.PlanarModel.base_reaction_terms`: the load of the
        plate on the foot at its origin.

        Parameters
        ----------
        phi, phid : array_like, shape (..., 3)
            Segment angles [rad] and angular velocities [rad/s] of shank, thigh, HAT.

        Returns
        -------
        C : numpy.ndarray, shape (..., 3, 3)
            Rows ``N_O, Fx, Fy``: [kg m^2] for ``N_O``, [kg m] for the forces.
        d : numpy.ndarray, shape (..., 3)
            ``N_O`` [N m], ``Fx, Fy`` [N]: centripetal and gravity parts.
        """
        return self.base_reaction_terms(phi, phid)

    def ground_reaction(self, phi: ArrayLike, phid: ArrayLike, phidd: ArrayLike) -> np.ndarray:
        """Ground reaction ``[N_O, Fx, Fy]`` on the foot for a given motion.

        Parameters
        ----------
        phi, phid, phidd : array_like, shape (..., 3)
            Segment angles [rad], velocities [rad/s], accelerations [rad/s^2].

        Returns
        -------
        numpy.ndarray, shape (..., 3)
            Torque about the force-plate origin [N m] and force [N] exerted by the plate
            on the foot.
        """
        return self.base_reaction(phi, phid, phidd)


# --------------------------------------------------------------------------- the benchmark
#: Default reference posture of the benchmark: shank, thigh and HAT angles from +x [rad]
#: (86, 93, 87 deg: knee and hip slightly flexed).
POSTURE = (1.50, 1.62, 1.52)


@dataclass(frozen=True)
class Sway:
    """A simulated sway trial: the exact motion, joint torques and ground reaction.

    The record runs from ``-margin`` to ``duration + margin``; the margins let the filter's
    end effects die out, and only the frames in :attr:`window` (the trial proper) are
    analysed by :func:`measure`.

    Attributes
    ----------
    model : FourSegmentModel
        The body that moved.
    freq : float
        Sampling frequency [Hz].
    t : numpy.ndarray, shape (N,)
        Time [s], margins included.
    phi, phid, phidd : numpy.ndarray, shape (N, 3)
        Segment angles [rad], velocities [rad/s], accelerations [rad/s^2] of shank,
        thigh, HAT.
    tau : numpy.ndarray, shape (N, 3)
        Ankle, knee and hip moments [N m] on the foot, shank and thigh (the course's
        convention; Kuo's are ``-tau``).
    grf : numpy.ndarray, shape (N, 3)
        Ground reaction ``[N_O, Fx, Fy]`` [N m, N, N].
    markers : numpy.ndarray, shape (N, 5, 2)
        Joint-centre markers: plate origin, ankle, knee, hip, top of HAT [m].
    margin : int
        Frames recorded before and after the trial proper.
    posture : tuple of float
        Reference posture the feedback held: shank, thigh, HAT angles from +x [rad].
    """

    model: FourSegmentModel
    freq: float
    t: np.ndarray
    phi: np.ndarray
    phid: np.ndarray
    phidd: np.ndarray
    tau: np.ndarray
    grf: np.ndarray
    markers: np.ndarray
    margin: int = 0
    posture: tuple[float, float, float] = POSTURE

    def __repr__(self) -> str:
        n = self.t.size - 2 * self.margin
        return (f"Sway({n} frames at {self.freq:g} Hz, with {self.margin} more at each end; "
                f"arrays t, phi, phid, phidd, tau, grf, markers)")

    @property
    def window(self) -> slice:
        """Frames of the trial proper, without the margins."""
        return slice(self.margin, self.t.size - self.margin)


_FF_FREQUENCIES = (0.5, 0.8, 1.2, 1.7, 2.2)  # [Hz]
_FF_AMPLITUDE = np.array([[0.6], [0.15], [0.4]])  # [rad/s^2] at 0.5 Hz: ankle, knee, hip
_FB_FREQUENCY = 0.8  # [Hz] natural frequency of the stabilised posture
_FB_DAMPING = 0.7  # damping ratio of the stabilised posture
_RUN_IN = 1.0  # [s] simulated before the record starts
#: Most samples :func:`simulate_sway` integrates (about 4 s of CPU: 30000 samples take 2.3 s
#: on the course's loaded 2-core machine); 10 s at 1 kHz is within it.
_MAX_SWAY_SAMPLES = 60_000


def simulate_sway(
    model: FourSegmentModel | None = None,
    *,
    duration: float = 4.0,
    margin: float = 0.5,
    freq: float = 60.0,
    seed: int = 0,
    amplitude: float = 1.0,
    posture: ArrayLike | None = None,
) -> Sway:
    r"""Simulate Kuo's benchmark: postural sway driven by sinusoids and stabilised by feedback.

    The joint torques are a feed-forward sum of five sinusoids (0.5 to 2.2 Hz, random
    phases drawn from ``seed``, amplitudes ``M_q(q_ref)`` times 1 rad/s^2 so that every
    joint sways by a few degrees) plus a feedback that holds the body near ``posture``:
    gravity compensation plus joint stiffness and damping matrices scaled by the mass
    matrix of the posture,
    :math:`\tau = G_q(q) + M_q(q_{ref})\,[\omega^2 (q_{ref} - q) - 2\zeta\omega\dot q]
    + \tau_{ff}(t)`, so that every mode of the stabilised posture has the natural
    frequency :math:`\omega = 2\pi \cdot 0.8` rad/s and damping ratio
    :math:`\zeta = 0.7` (and the equations are not stiff).

    Parameters
    ----------
    model : FourSegmentModel, optional
        The body; default ``FourSegmentModel()`` (Kuo's parameters).
    duration : float, optional
        Length of the trial proper [s] (keyword-only). Default 4.
    margin : float, optional
        Extra record before and after the trial [s], for the filter's end effects.
        Default 0.5.
    freq : float, optional
        Sampling frequency [Hz] (keyword-only). Default 60.
    seed : int, optional
        Seed of the sinusoids' phases (keyword-only). Default 0.
    amplitude : float, optional
        Scale of the feed-forward torques (keyword-only, dimensionless). Default 1.
    posture : array_like, shape (3,), optional
        Reference posture: shank, thigh and HAT angles from +x [rad] (keyword-only), each
        between 0.5 and 2.6 rad (29 to 149 deg). Default :data:`POSTURE`. With the thigh
        exactly vertical, e.g. ``np.radians([86, 90, 88])``, the force-plate rows of the
        least-squares system become nearly singular in some frames (notebook 6).

    Returns
    -------
    Sway
        ``round((duration + 2 margin) freq)`` frames at ``t = k / freq - margin``.

    Raises
    ------
    ValueError
        If ``(duration + 2 margin + 1 s) freq`` exceeds 60000 samples (about 4 s of work):
        the message says to lower ``freq`` or shorten the trial.

    Notes
    -----
    The paper gives the structure of the drive but not its amplitudes, phases or feedback
    gains; the values here produce sway of a few degrees at each joint. The motion is
    integrated with :func:`bmc.simulate.simulate_chain` (DOP853, ``rtol=1e-8``), so the
    sampled angles, torques and ground reaction are consistent to rounding error (the
    torques and accelerations are evaluated from the sampled state). The body starts at
    rest in ``posture`` 1 s before the record, so that the start-up transient has
    decayed. Results are cached by parameters and their arrays are read-only (they are
    the truth every experiment compares with).

    Examples
    --------
    A short trial (the default is 4 s with 0.5 s margins, 300 frames); the recorded
    torques drive the recorded motion:

    >>> sway = simulate_sway(duration=0.5, margin=0.1)
    >>> sway.phi.shape, sway.phi[sway.window].shape
    ((42, 3), (30, 3))
    >>> tau = sway.model.inverse_dynamics(sway.phi, sway.phid, sway.phidd)
    >>> bool(np.allclose(tau, sway.tau))
    True
    """
    model = FourSegmentModel() if model is None else model
    if not isinstance(model, FourSegmentModel):
        raise TypeError(f"model must be a FourSegmentModel; got {type(model).__name__}")
    duration = positive(duration, "duration", unit="s")
    freq = positive(freq, "freq", unit="Hz")
    amplitude = positive(amplitude, "amplitude", allow_zero=True)
    margin = positive(margin, "margin", unit="s", allow_zero=True)
    seed = integer(seed, "seed", minimum=0, what="seed of the random phases")
    samples = (duration + 2 * margin + _RUN_IN) * freq
    if samples > _MAX_SWAY_SAMPLES:
        raise ValueError(
            f"duration [s], margin [s] and freq [Hz] must give at most {_MAX_SWAY_SAMPLES} "
            f"samples to simulate (record, margins and {_RUN_IN:g} s of run-in; about 4 s of "
            f"work); got {samples:.3g} (duration {duration:g} s, margin {margin:g} s, freq "
            f"{freq:g} Hz): sway is recorded at 60-100 Hz, so lower freq (is it in mHz?) or "
            "simulate a shorter trial")
    ref = POSTURE if posture is None else as_array(posture, "posture", unit="rad", ndim=1)
    if np.shape(ref) != (3,):
        raise ValueError(f"posture [rad] must hold 3 segment angles (shank, thigh, HAT); got "
                         f"shape {np.shape(ref)}")
    ref = tuple(float(v) for v in in_range(
        ref, "posture", unit="rad", low=0.5, high=2.6,
        why="standing segments near vertical, 1.571 rad; degrees? use np.radians"))
    params = tuple(
        tuple(float(v) for v in arr)
        for arr in (model.lengths, model.com, model.masses, model.inertias)
    )
    arrays = _simulate(
        params, model.foot_angle, model.g, duration, margin, freq, int(seed), amplitude, ref
    )
    return Sway(model, freq, *arrays, ref)


@lru_cache(maxsize=4)
def _simulate(
    params: tuple, foot_angle: float, g: float, duration: float, margin: float, freq: float,
    seed: int, amplitude: float, posture: tuple[float, float, float],
) -> tuple:
    """Integrate the sway (cached); return read-only arrays and the margin in frames."""
    from bmc.simulate import simulate_chain

    model = FourSegmentModel(*params, foot_angle=foot_angle, g=g)
    n = int(round(duration * freq))
    edge = int(round(margin * freq))
    if n < 16:
        raise ValueError(f"duration * freq must give at least 16 frames; got {n}")
    run_in = int(round(_RUN_IN * freq))
    t = (np.arange(n + 2 * edge + run_in) - edge - run_in) / freq
    rng = np.random.default_rng(seed)
    omega = 2 * np.pi * np.asarray(_FF_FREQUENCIES)
    phase = rng.uniform(0.0, 2 * np.pi, size=(3, omega.size))
    # amplitudes fall as 1/f, as in physiological sway
    amp = amplitude * _FF_AMPLITUDE * _FF_FREQUENCIES[0] / np.asarray(_FF_FREQUENCIES)
    chain = model.chain
    q_ref = model.to_joint_angles(np.asarray(posture))
    omega_fb = 2 * np.pi * _FB_FREQUENCY
    m_ref = chain.mass_matrix(q_ref)
    kp, kd = omega_fb**2 * m_ref, 2 * _FB_DAMPING * omega_fb * m_ref

    def torque(time: ArrayLike, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
        # vectorised: time () or (N,), q and qd (3,) or (N, 3)
        arg = np.asarray(time, dtype=float)[..., None, None] * omega + phase
        feedforward = np.einsum("ij,...j->...i", m_ref, np.sum(amp * np.sin(arg), axis=-1))
        feedback = np.einsum("ij,...j->...i", kp, q_ref - q) - np.einsum("ij,...j->...i", kd, qd)
        return chain.gravity_terms(q) + feedback + feedforward

    res = simulate_chain(chain, t, q_ref, np.zeros(3), tau=torque, rtol=1e-8, atol=1e-10)
    t, q, qd = t[run_in:], np.asarray(res.q)[run_in:], np.asarray(res.qd)[run_in:]
    tau = -torque(t, q, qd)  # the chain's torques act on the segment above: Kuo's sign
    phi, phid = np.cumsum(q, axis=-1), np.cumsum(qd, axis=-1)
    phidd = model.forward_dynamics(phi, phid, tau)
    grf = model.ground_reaction(phi, phid, phidd)
    arrays = (t, phi, phid, phidd, tau, grf, model.joint_positions(phi))
    for arr in arrays:
        arr.flags.writeable = False
    return (*arrays, edge)


# --------------------------------------------------------------------------- measurements
@dataclass(frozen=True)
class Measurement:
    """Processed measurements of one or more noisy realisations of a :class:`Sway`.

    The realisations are stacked along axis 0: frame ``k`` of realisation ``r`` is row
    ``r * N + k``, where ``N`` counts the frames of the trial proper (``sway.window``).
    Every estimator works frame by frame, so one call handles them all.

    Attributes
    ----------
    sway : Sway
        The exact trial that was measured.
    phi, phid, phidd : numpy.ndarray, shape (R * N, 3)
        Segment angles [rad] from the filtered marker data, and their first and second
        finite-difference derivatives [rad/s, rad/s^2].
    grf : numpy.ndarray, shape (R * N, 3)
        Filtered force-plate data ``[N_O, Fx, Fy]`` [N m, N, N].
    marker_noise, force_noise, torque_noise, offset : numpy.ndarray, shape (R,)
        Standard deviations of marker noise [m] (each coordinate), force noise [N] and
        torque noise [N m], and the force-plate misalignment along x [m], per realisation.
    cutoff : float
        Cut-off of the zero-lag Butterworth filter [Hz].
    order : int
        Order of one pass of the filter.
    exact_angles : bool
        Whether ``phi`` and ``phid`` were replaced by their exact values (only the
        accelerations noisy), Kuo's Fig. 4(c) experiment.
    """

    sway: Sway
    phi: np.ndarray
    phid: np.ndarray
    phidd: np.ndarray
    grf: np.ndarray
    marker_noise: np.ndarray
    force_noise: np.ndarray
    torque_noise: np.ndarray
    offset: np.ndarray
    cutoff: float
    order: int
    exact_angles: bool = False
    realisations: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "realisations", int(self.marker_noise.size))

    def __repr__(self) -> str:
        def span(x: np.ndarray, scale: float = 1.0) -> str:
            lo, hi = x.min() * scale, x.max() * scale
            return f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"

        return (
            f"Measurement({self.realisations} realisation(s) x {self.n_frames} frames; marker "
            f"noise {span(self.marker_noise, 100)} cm, force noise {span(self.force_noise)} N, "
            f"torque noise {span(self.torque_noise)} N m, offset {span(self.offset, 100)} cm; "
            f"zero-lag Butterworth of order {self.order} at {self.cutoff:g} Hz"
            f"{'; exact angles' if self.exact_angles else ''})"
        )

    @property
    def n_frames(self) -> int:
        """Frames per realisation ``N`` (the trial proper, without margins)."""
        return int(self.sway.t[self.sway.window].size)

    @property
    def t(self) -> np.ndarray:
        """Time of the frames of one realisation [s], shape ``(N,)``."""
        return self.sway.t[self.sway.window]

    @property
    def freq(self) -> float:
        """Sampling frequency [Hz]."""
        return self.sway.freq

    def stack(self, x: ArrayLike) -> np.ndarray:
        """Repeat per-trial data ``(N, ...)`` for every realisation: ``(R * N, ...)``."""
        x = as_array(x, "x")
        if x.shape[:1] != (self.n_frames,):
            raise ValueError(
                f"x must have one row per frame of the trial ({self.n_frames}); got shape "
                f"{x.shape} (slice the sway's data with sway.window first)"
            )
        return np.tile(x, (self.realisations,) + (1,) * (x.ndim - 1))

    def per_frame(self, values: ArrayLike) -> np.ndarray:
        """Repeat per-realisation values ``(R, ...)`` for each frame: ``(R * N, ...)``."""
        values = as_array(values, "values")
        if values.shape[:1] != (self.realisations,):
            raise ValueError(f"values must have one row per realisation ({self.realisations}); "
                             f"got shape {values.shape}")
        return np.repeat(values, self.n_frames, axis=0)

    def split(self, x: ArrayLike) -> np.ndarray:
        """Reshape stacked frames ``(R * N, ...)`` to ``(R, N, ...)``: numbers, or a mask."""
        if isinstance(x, np.ndarray) and x.dtype.kind == "b":
            pass  # a boolean mask over the stacked frames (which frames are ill conditioned)
        else:
            x = as_array(x, "x")
        if x.shape[:1] != (self.realisations * self.n_frames,):
            raise ValueError(f"x must have R * N = {self.realisations * self.n_frames} rows "
                             f"(stacked frames); got shape {x.shape}")
        return x.reshape((self.realisations, self.n_frames) + x.shape[1:])

    @property
    def tau_true(self) -> np.ndarray:
        """Exact joint torques, stacked like the measurements [N m]."""
        return self.stack(self.sway.tau[self.sway.window])

    @property
    def phidd_true(self) -> np.ndarray:
        """Exact segment accelerations, stacked like the measurements [rad/s^2]."""
        return self.stack(self.sway.phidd[self.sway.window])

    def gains(self) -> np.ndarray:
        """Noise gains of the processing (:func:`noise_gains`) at the analysed frames.

        Returns
        -------
        numpy.ndarray, shape (N, 3, 3)
            Gains of the whole record, margins included, cut to the trial proper.
        """
        gains = noise_gains(self.sway.t.size, self.freq, cutoff=self.cutoff, order=self.order)
        return gains[self.sway.window]


def _per_realisation(value: ArrayLike, name: str, unit: str, r: int) -> np.ndarray:
    arr = as_array(value, name, unit=unit, ndim=(0, 1))
    if arr.ndim == 1 and arr.size not in (1, r):
        raise ValueError(
            f"{name} [{unit}] must be a number or one value per realisation ({r}); "
            f"got {arr.size} values"
        )
    if np.any(arr < 0) and name != "offset":
        raise ValueError(f"{name} [{unit}] is a standard deviation and must be >= 0")
    return np.broadcast_to(arr, (r,)).astype(float)


def _process(
    x: np.ndarray, freq: float, cutoff: float, order: int, window: slice
) -> tuple[np.ndarray, ...]:
    """Filter ``x`` (R, N, c) along time, differentiate, cut; return three (R*n, c) arrays."""
    from bmc.signals import derivative, lowpass

    r, n, c = x.shape
    xt = np.moveaxis(x, 1, 0).reshape(n, r * c)
    filtered = lowpass(xt, freq, cutoff, order=order)
    out = (filtered, derivative(filtered, 1.0 / freq, n=1), derivative(filtered, 1.0 / freq, n=2))
    return tuple(
        np.moveaxis(o.reshape(n, r, c)[window], 0, 1).reshape(-1, c) for o in out
    )


def measure(
    sway: Sway,
    *,
    marker_noise: ArrayLike = 0.01,
    force_noise: ArrayLike = 0.1,
    torque_noise: ArrayLike | None = None,
    offset: ArrayLike = 0.0,
    realisations: int = 1,
    seed: int | ArrayLike = 0,
    cutoff: float = 5.0,
    order: int = 3,
    exact_angles: bool = False,
) -> Measurement:
    """Measure a sway trial: noisy markers and force plate, filtered and differentiated.

    White Gaussian noise is added to both coordinates of the four joint-centre markers
    (ankle, knee, hip, top of HAT) and to the three force-plate channels. Segment angles
    come from the markers (``arctan2``), then angles and forces are low-pass filtered
    (zero-lag Butterworth, :func:`bmc.signals.lowpass`) and the angles differentiated
    twice with second-order finite differences (:func:`bmc.signals.derivative`).

    Parameters
    ----------
    sway : Sway
        The exact trial (:func:`simulate_sway`).
    marker_noise : float or array_like, shape (R,), optional
        Standard deviation of each marker coordinate [m] (keyword-only). Default 0.01.
    force_noise : float or array_like, shape (R,), optional
        Standard deviation of ``Fx`` and ``Fy`` [N]. Default 0.1.
    torque_noise : float or array_like, shape (R,), optional
        Standard deviation of ``N_O`` [N m]. Default: the number ``force_noise`` (as in the
        paper: 0.1 N and 0.1 N m).
    offset : float or array_like, shape (R,), optional
        Misalignment of the force plate along x [m]: the plate reports the torque about
        a point ``offset`` ahead of the true origin, ``N_O' = N_O - offset * Fy``. Default 0.
    realisations : int, optional
        Number ``R`` of independent noise realisations, stacked along axis 0. Default 1.
    seed : int or array_like of int, shape (R,), optional
        Seed of the noise (keyword-only). An integer seeds realisation ``r`` with child
        ``r`` of ``numpy.random.SeedSequence(seed)``, so a realisation does not depend on
        how many others are drawn; an array gives every realisation its own seed, so that
        realisations with the same seed share their noise (common random numbers, e.g.
        the same trials with different force-plate offsets). Default 0.
    cutoff : float, optional
        Filter cut-off [Hz]. Default 5 (the paper's).
    order : int, optional
        Order of one filter pass. Default 3 (the paper's third-order filter run forward
        and backward).
    exact_angles : bool, optional
        Replace the angles and velocities by their exact values, keeping the noisy
        accelerations (the paper's Fig. 4(c) experiment). Default False.

    Returns
    -------
    Measurement
        Arrays of shape ``(R * N, 3)``, realisation by realisation; the whole record is
        filtered and differentiated, then cut to the trial proper (``sway.window``).

    Examples
    --------
    Three realisations of a short trial (30 frames in the trial proper):

    >>> sway = simulate_sway(duration=0.5, margin=0.1)
    >>> meas = measure(sway, marker_noise=0.005, realisations=3, seed=1)
    >>> meas.phidd.shape, meas.realisations
    ((90, 3), 3)
    """
    if not isinstance(sway, Sway):
        raise TypeError(f"sway must be a Sway (from simulate_sway); got {type(sway).__name__}")
    if isinstance(realisations, bool) or not isinstance(realisations, (int, np.integer)) or (
        realisations < 1
    ):
        raise ValueError(f"realisations must be a positive integer; got {realisations!r}")
    r = int(realisations)
    for value in np.ravel(np.asarray(seed, dtype=object)):
        integer(value, "seed", minimum=0, what="seed of the noise")
    sig_m = _per_realisation(marker_noise, "marker_noise", "m", r)
    sig_f = _per_realisation(force_noise, "force_noise", "N", r)
    sig_t = sig_f if torque_noise is None else _per_realisation(
        torque_noise, "torque_noise", "N m", r
    )
    off = _per_realisation(offset, "offset", "m", r)
    freq = sway.freq
    # checked here, as the result keeps them (float() of an array failed after the work)
    cutoff = cutoff_frequency(cutoff, freq)
    order = filter_order(order)
    if np.ndim(seed) == 0:
        seeds = np.random.SeedSequence(int(seed)).spawn(r)
    else:
        seeds = [int(s) for s in np.asarray(seed).ravel()]
        if len(seeds) != r:
            raise ValueError(f"seed must be an integer or {r} integers (one per realisation); "
                             f"got {len(seeds)}")
    n = sway.t.size
    unit = np.empty((r, n, 11))  # per realisation: 4 markers x 2 coordinates, 3 channels
    for i, child in enumerate(seeds):  # realisations, not frames
        unit[i] = np.random.default_rng(child).standard_normal((n, 11))

    markers = sway.markers[None, :, 1:, :] + sig_m[:, None, None, None] * unit[..., :8].reshape(
        r, n, 4, 2
    )
    step = np.diff(markers, axis=-2)  # (R, N, 3, 2): ankle->knee, knee->hip, hip->top
    angles = np.unwrap(np.arctan2(step[..., 1], step[..., 0]), axis=1)
    phi, phid, phidd = _process(angles, freq, cutoff, order, sway.window)

    noise = unit[..., 8:] * np.stack([sig_t, sig_f, sig_f], -1)[:, None, :]
    grf = sway.grf[None] + noise
    grf[..., 0] -= off[:, None] * sway.grf[None, :, 2]
    grf = _process(grf, freq, cutoff, order, sway.window)[0]
    if exact_angles:
        phi = np.tile(sway.phi[sway.window], (r, 1))
        phid = np.tile(sway.phid[sway.window], (r, 1))
    return Measurement(
        sway, phi, phid, phidd, grf, sig_m, sig_f, sig_t, off, float(cutoff), int(order),
        bool(exact_angles),
    )



def noise_gains(n_frames: int, freq: float, *, cutoff: float = 5.0, order: int = 3) -> np.ndarray:
    r"""Variance gains of filtering and differentiating white noise, frame by frame.

    Filtering and differentiation are linear: the processed angle, velocity and
    acceleration at frame ``k`` are :math:`\sum_n L_a[k, n]\, w[n]` (``a = 0, 1, 2``)
    for raw samples ``w``. For white noise of variance :math:`\sigma^2` their covariances
    are :math:`\sigma^2 G[k]` with :math:`G_{ab}[k] = \sum_n L_a[k, n] L_b[k, n]`. The
    operators ``L_a`` are built by passing unit impulses through
    :func:`bmc.signals.lowpass` and :func:`bmc.signals.derivative`, so the gains are exact
    at the record's ends too. Inside the record :math:`G_{00}` and :math:`G_{22}` are
    Kuo's integrals (B5) of :math:`|H|^2`.

    Cost: the filter forgets the record's ends after ``E`` samples (its slowest pole
    ``r`` decays as ``r^E``; below ``1e-17`` relative, round-off), so the rows farther
    than ``E`` from both ends are one and the same, and only a record of ``2E + 1``
    samples is filtered, impulse by impulse in blocks. Memory: the result (72 bytes per
    frame, 7.2 MB for 1e5 frames) plus at most 72 MB of work; time grows as
    :math:`N + E^2` (``E`` = 170 samples at 60 Hz with the default filter; 1e5 frames
    take about 0.05 s and 7.2 MB, tested in ``tests/test_standing.py``).

    Parameters
    ----------
    n_frames : int
        Number of samples ``N`` (at least 16).
    freq : float
        Sampling frequency [Hz].
    cutoff : float, optional
        Filter cut-off [Hz] (keyword-only), below ``freq / 2``. Default 5.
    order : int, optional
        Order of one filter pass (at least 1). Default 3.

    Returns
    -------
    numpy.ndarray, shape (N, 3, 3)
        ``G[k]`` [1, 1/s, 1/s^2 in the rows and columns a = 0, 1, 2].

    Raises
    ------
    ValueError
        If the filter forgets its start so slowly (cut-off far below the sampling rate,
        ``E`` above 3000 samples) that the gains would take more than seconds: the message says
        by how much to raise ``cutoff`` or lower ``freq`` (decimate the record).

    Examples
    --------
    >>> gains = noise_gains(240, 60.0)
    >>> print(round(float(gains[120, 0, 0]), 4))     # filtered white noise keeps 15 %
    0.1458
    """
    from bmc._validation import allocation, cutoff_frequency, filter_order

    n = integer(n_frames, "n_frames", minimum=16, what="number of samples")
    fs = positive(freq, "freq", unit="Hz")
    fc = cutoff_frequency(cutoff, fs)
    k = filter_order(order)
    if n < 3 * (k + 1) + 1:
        raise ValueError(f"n_frames must be at least {3 * (k + 1) + 1} for a filter of order "
                         f"{k} (its padding at each end); got {n}")
    allocation(n, 9, "n_frames", what="frames", hint="use fewer frames")
    edge = _memory(fs, fc, k)
    if edge > _MAX_EDGE:
        raise ValueError(
            f"cutoff [Hz] {fc:g} is so far below freq [Hz] {fs:g} that the filter remembers "
            f"the record's start for {edge} samples (at most {_MAX_EDGE} here, so that the "
            f"gains take seconds): raise cutoff to at least {fc * edge / _MAX_EDGE:.3g} Hz, "
            "or lower freq (decimate the record) by that factor")
    short = min(n, 2 * edge + 1)
    gains = _gains(short, fs, fc, k)
    if short == n:
        return gains
    head = edge  # rows 0..edge-1 and the last edge + 1 rows are the short record's
    out = np.empty((n, 3, 3))
    out[:head] = gains[:head]
    out[n - (short - head):] = gains[head:]
    out[head:n - (short - head)] = gains[head]  # every inner row is the same
    return out


#: Longest filter memory [samples] :func:`noise_gains` handles (a record of 6001 samples,
#: about 5 s of work): 1000 Hz with a 3 Hz second-order filter is within it.
_MAX_EDGE = 3000


def _memory(freq: float, cutoff: float, order: int) -> int:
    """Return the samples after which the zero-lag filter's end effects fall below 1e-17."""
    from scipy.signal import butter

    poles = butter(order, cutoff / (freq / 2.0), output="zpk")[1]
    radius = float(np.max(np.abs(poles))) if poles.size else 0.0
    decay = 1 if radius <= 0.0 else int(np.ceil(np.log(1e-17) / np.log(radius)))
    return decay + 3 * (order + 1) + 4  # + sosfiltfilt's padding, the differences' stencil


def _gains(n: int, freq: float, cutoff: float, order: int) -> np.ndarray:
    """Return the gains of a record of ``n`` samples, impulse by impulse (work <= 72 MB)."""
    from bmc.signals import derivative, lowpass

    dt = 1.0 / freq
    gains = np.zeros((n, 3, 3))
    block = max(1, min(n, (64 * 1024**2) // (8 * 24 * n)))  # ~20 arrays of (n, block) alive
    for start in range(0, n, block):
        width = min(block, n - start)
        impulses = np.zeros((n, width))
        impulses[start + np.arange(width), np.arange(width)] = 1.0
        l0 = lowpass(impulses, freq, cutoff, order=order)
        ops = np.stack([l0, derivative(l0, dt, n=1), derivative(l0, dt, n=2)])
        gains += np.einsum("akn,bkn->kab", ops, ops)
    return gains

