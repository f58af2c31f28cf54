"""A synthetic 3D stance of foot and shank: the worked example of notebook 3.

:func:`stance_example` makes a smooth stance phase (de Leva's segment parameters, Cardan
angles, centre-of-mass paths and a ground reaction consistent with them) as a
:class:`Stance`, whose :meth:`Stance.inputs` are the keyword arguments of
:func:`bmc.matrix_form.joint_loads` and :func:`bmc.newton_euler.joint_loads3d`.

Conventions as in :mod:`bmc.matrix_form`: global x forward, y up, z to the right; gravity
``g > 0`` along -y; ``v_global = R v_segment``; axis 0 is time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bmc._validation import allocation, integer, plausible, positive
from bmc.constants import STANDARD_GRAVITY

__all__ = ["Stance", "stance_example"]


def __dir__() -> list[str]:
    return sorted(__all__)


@dataclass(frozen=True)
class Stance:
    """Inputs of a foot-shank inverse-dynamics problem over a stance phase.

    Segment 0 is the foot, segment 1 the shank; arrays have time on axis 0. The argument
    names match :func:`bmc.matrix_form.joint_loads`, so ``joint_loads(**stance.inputs())``
    solves it.

    Attributes
    ----------
    t : numpy.ndarray, shape (N,)
        Time [s].
    mass : numpy.ndarray, shape (2,)
        Foot and shank masses [kg].
    inertia : numpy.ndarray, shape (2, 3, 3)
        Principal inertia tensors about the centres of mass, segment frames [kg m^2].
    angles : numpy.ndarray, shape (N, 2, 3)
        Cardan angles ``"zxy"`` (flexion, ad/abduction, axial rotation) [rad].
    R : numpy.ndarray, shape (N, 2, 3, 3)
        Orientations, ``v_global = R v_segment``.
    rcm, rp, acm : numpy.ndarray, shape (N, 2, 3)
        Centre of mass positions [m], proximal joint positions (ankle, knee) [m] and centre
        of mass accelerations [m/s^2], global frame.
    omega, omegadot : numpy.ndarray, shape (N, 2, 3)
        Angular velocities [rad/s] and accelerations [rad/s^2], segment frames.
    f_ext, p_ext, free_moment : numpy.ndarray, shape (N, 3)
        Ground reaction force [N], centre of pressure [m] and free moment [N m], global.
    """

    t: np.ndarray
    mass: np.ndarray
    inertia: np.ndarray
    angles: np.ndarray
    R: np.ndarray
    rcm: np.ndarray
    rp: np.ndarray
    acm: np.ndarray
    omega: np.ndarray
    omegadot: np.ndarray
    f_ext: np.ndarray
    p_ext: np.ndarray
    free_moment: np.ndarray

    def inputs(self) -> dict[str, np.ndarray]:
        """Keyword arguments of :func:`bmc.matrix_form.joint_loads` and ``joint_loads3d``."""
        names = ("mass", "inertia", "R", "rcm", "rp", "acm", "omega", "omegadot", "f_ext",
                 "p_ext", "free_moment")
        return {name: getattr(self, name) for name in names}


# Vertical ground reaction in body weights: a sin(pi s) + b sin(3 pi s), s = t / duration.
# With (1.2, 0.42): peaks of 1.15 BW at 24.6 % and 75.4 % of stance, 0.78 BW at mid-stance.
_VERTICAL = (1.2, 0.42)


def _smooth(s: np.ndarray, duration: float, poly: tuple[float, ...],
            waves: tuple[tuple[float, float], ...] = ()) -> tuple[np.ndarray, ...]:
    """Value, first and second time derivative of ``sum c_k s^k + sum a sin(k pi s)``."""
    from numpy.polynomial import polynomial as P

    c = np.asarray(poly, dtype=float)
    x = P.polyval(s, c)
    xd = P.polyval(s, P.polyder(c)) / duration
    xdd = P.polyval(s, P.polyder(c, 2)) / duration**2
    for amp, k in waves:
        w = k * np.pi
        x = x + amp * np.sin(w * s)
        xd = xd + amp * w * np.cos(w * s) / duration
        xdd = xdd - amp * w**2 * np.sin(w * s) / duration**2
    return x, xd, xdd


def stance_example(*, body_mass: float = 70.0, height: float = 1.75, duration: float = 0.6,
                   n_frames: int = 121, planar: bool = False) -> Stance:
    """Make a smooth synthetic stance phase of foot and shank, with a ground reaction.

    Segment parameters come from de Leva (1996, male) through
    :func:`bmc.anthropometry.segment`. The three principal moments of inertia are
    ``m (k L)^2`` with de Leva's three radii of gyration ``k``: his *transverse* one about
    the medio-lateral axis z (flexion-extension), his *sagittal* one about the
    antero-posterior axis (x for the shank; for the foot, its dorso-plantar axis y), the
    *longitudinal* one about the segment's long axis (y for the shank, x for the foot); see
    :func:`bmc.anthropometry.segment` for why.

    Segment frames: the shank's y axis points from ankle to knee, the foot's x axis from
    heel to toe; both have z to the right, so in upright standing both frames are parallel
    to the global one. Orientations are Cardan ``"zxy"`` angles (flexion, then
    ad/abduction, then axial rotation), smooth in time with exact derivatives
    (:func:`bmc.rotations.rotation_kinematics`); the ankle follows a smooth path, the knee
    and the centres of mass follow from the segment geometry, and their accelerations are
    exact (``a = a_ankle + R (alpha x c + omega x (omega x c))``). The ground reaction has
    the double-humped vertical force of walking (peaks of 1.15 body weight at 25 % and 75 %
    of stance, 0.78 body weight at mid-stance, the shape and size Winter (2009) [1]_ and Perry
    and Burnfield (2010) [2]_ report for walking at a natural speed), braking then propulsion
    (0.2 body weight at most), a small medio-lateral force and a free moment about the
    vertical; the centre of pressure runs from the heel to the toes. The numbers are
    plausible, not measured, and the ground reaction is not computed from the segment
    motion (the rest of the body is not modelled).

    Parameters
    ----------
    body_mass : float, optional
        Body mass [kg] (default 70).
    height : float, optional
        Body height [m] (default 1.75).
    duration : float, optional
        Stance duration [s] (default 0.6).
    n_frames : int, optional
        Number of frames (default 121, i.e. 200 Hz over 0.6 s).
    planar : bool, optional
        Keep everything in the sagittal x-y plane: rotations about z only, no out-of-plane
        force, offset or free moment (the special case that :func:`bmc.invdyn2d` solves).

    Returns
    -------
    Stance
        Inputs of :func:`bmc.matrix_form.joint_loads`, plus time and angles.

    References
    ----------
    .. [1] Winter, D. A. (2009). *Biomechanics and Motor Control of Human Movement*
       (4th ed.). Wiley. https://doi.org/10.1002/9780470549148
    .. [2] Perry, J., & Burnfield, J. M. (2010). *Gait Analysis: Normal and Pathological
       Function* (2nd ed.). SLACK.

    Examples
    --------
    >>> st = stance_example(n_frames=31)
    >>> st.R.shape, round(float(st.mass.sum()), 3)
    ((31, 2, 3, 3), 3.99)
    """
    from bmc.anthropometry import segment
    from bmc.rotations import point_acceleration, rotation_kinematics

    body_mass = positive(body_mass, "body_mass", unit="kg")
    height = positive(height, "height", unit="m")
    duration = positive(duration, "duration", unit="s")
    n_frames = integer(n_frames, "n_frames", minimum=3, what="number of frames")
    duration = plausible(duration, "duration", unit="s", low=0.05, high=5.0,
                         quantity="stance duration", units={"ms": 0.001})
    allocation(n_frames, 200, "n_frames", what="frames", hint="take 50 to 1000 frames")
    if not isinstance(planar, (bool, np.bool_)):
        raise TypeError(f"planar must be True or False; got {planar!r}")
    axes = ("anteroposterior", "longitudinal", "mediolateral")  # about local x, y, z (shank)
    segs = {}
    for name in ("foot", "shank_ankle"):
        segs[name] = [segment(name, body_mass=body_mass, height=height, table="de_leva",
                              sex="male", axis=axis) for axis in axes]
    foot, shank = segs["foot"][0], segs["shank_ankle"][0]
    i_shank = [s.inertia for s in segs["shank_ankle"]]
    i_foot = [s.inertia for s in segs["foot"]]
    i_foot = [i_foot[1], i_foot[0], i_foot[2]]   # the foot's long axis is x, not y
    mass = np.array([foot.mass, shank.mass])
    inertia = np.stack([np.diag(i_foot), np.diag(i_shank)])

    t = np.linspace(0.0, duration, n_frames)
    s = t / duration
    out_of_plane = 0.0 if planar else 1.0
    # Cardan angles (z: flexion, x: ad/abduction, y: axial rotation) [rad] of foot, shank.
    specs = {
        "foot": [((0.25, -0.15, -0.35), ()), ((0.0,), ((0.06 * out_of_plane, 1.0),)),
                 ((0.08 * out_of_plane, 0.04 * out_of_plane), ())],
        "shank": [((0.3, -0.9), ((0.05, 2.0),)), ((0.02 * out_of_plane,),
                                                  ((0.04 * out_of_plane, 1.0),)),
                  ((-0.05 * out_of_plane, 0.1 * out_of_plane), ())],
    }
    kin = []
    for name in ("foot", "shank"):
        q = np.stack([np.stack(_smooth(s, duration, *spec), axis=-1)
                      for spec in specs[name]], axis=-2)           # (N, 3 angles, 3 orders)
        kin.append((q[..., 0], *rotation_kinematics(q[..., 0], q[..., 1], q[..., 2],
                                                    sequence="zxy")))
    angles = np.stack([k[0] for k in kin], axis=1)
    R = np.stack([k[1] for k in kin], axis=1)
    omega = np.stack([k[2] for k in kin], axis=1)
    omegadot = np.stack([k[3] for k in kin], axis=1)

    # Ankle path [m] and the segment points in segment frames [m].
    ankle = np.stack([np.stack(_smooth(s, duration, *spec), axis=-1) for spec in (
        ((0.0, 0.03, 0.0, 0.05), ()), ((0.09, -0.02, 0.0, 0.08), ()),
        ((0.0,), ((0.01 * out_of_plane, 1.0),)))], axis=-2)     # (N, 3 coords, 3 orders)
    c_foot = np.array([foot.com - 0.25 * foot.length, -0.03, 0.0])  # heel 0.25 L behind
    c_shank = np.array([0.0, shank.length - shank.com, 0.0])       # com measured from knee
    knee_local = np.array([0.0, shank.length, 0.0])

    def point(i: int, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rc = np.einsum("nij,j->ni", R[:, i], c)
        local = point_acceleration(omega[:, i], omegadot[:, i], c)
        return ankle[..., 0] + rc, ankle[..., 2] + np.einsum("nij,nj->ni", R[:, i], local)

    rcm_f, acm_f = point(0, c_foot)
    rcm_s, acm_s = point(1, c_shank)
    knee, _ = point(1, knee_local)
    rcm = np.stack([rcm_f, rcm_s], axis=1)
    acm = np.stack([acm_f, acm_s], axis=1)
    rp = np.stack([ankle[..., 0], knee], axis=1)

    weight = body_mass * STANDARD_GRAVITY
    # Walking's vertical force (Winter 2009; Perry & Burnfield 2010):
    # two humps of about 1.15 body weight near 25 % and 75 % of stance, a valley of about
    # 0.78 body weight at mid-stance. a sin(pi s) + b sin(3 pi s) = sin(pi s) (a + 3b -
    # 4b sin^2(pi s)) >= (a - b) sin(pi s) >= 0: it never pulls on the foot.
    f_ext = np.stack([-0.2 * weight * np.sin(2 * np.pi * s),
                      weight * (_VERTICAL[0] * np.sin(np.pi * s)
                                + _VERTICAL[1] * np.sin(3 * np.pi * s)),
                      0.05 * out_of_plane * weight * np.sin(np.pi * s)], axis=-1)
    p_ext = np.stack([-0.05 + 0.25 * s, 0.0 * s, 0.02 * out_of_plane * (0.5 - s)], axis=-1)
    free_moment = np.stack([0.0 * s, 3.0 * out_of_plane * np.sin(2 * np.pi * s), 0.0 * s],
                           axis=-1)
    return Stance(t=t, mass=mass, inertia=inertia, angles=angles, R=R, rcm=rcm, rp=rp,
                  acm=acm, omega=omega, omegadot=omegadot, f_ext=f_ext, p_ext=p_ext,
                  free_moment=free_moment)
