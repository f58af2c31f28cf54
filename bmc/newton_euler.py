r"""Newton-Euler inverse dynamics: one segment at a time, from a known distal load upward.

Planar part (this section)
--------------------------
- :func:`invdyn2d` solves the Newton-Euler equations of one rigid segment for the force and
  moment at its proximal joint, given its kinematics and the load at its distal end.
- :func:`lower_limb` runs the whole gait pipeline: joint markers and ground reaction in,
  segment kinematics (optionally low-pass filtered, derivatives by central differences) and
  joint loads at the ankle, knee and hip out, foot -> shank -> thigh.

Conventions: SI units; x forward, y up, z out of the plane; gravity ``g > 0`` along -y;
angles in radians, counter-clockwise positive; **axis 0 is time**.

For one segment with centre of mass (COM) at :math:`\mathbf{r}_{cm}`, the equations are

.. math::

    \mathbf{F}_p + \mathbf{F}_d + m\mathbf{g} = m\mathbf{a}_{cm}, \qquad
    M_p + M_d + (\mathbf{r}_p - \mathbf{r}_{cm})\times\mathbf{F}_p
        + (\mathbf{r}_d - \mathbf{r}_{cm})\times\mathbf{F}_d = I_{cm}\alpha,

with :math:`\mathbf{g} = (0, -g)` and the planar cross product
:math:`\mathbf{a}\times\mathbf{b} = a_x b_y - a_y b_x` (the z-component; written out,
because ``np.cross`` on 2-vectors is deprecated since NumPy 2.0).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, positive

__all__ = ["invdyn2d"]

G = 9.80665  # standard acceleration of free fall [m/s^2] (ISO 80000-3)


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Z-component of the cross product of planar vectors (..., 2) x (..., 2)."""
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _frames(arrays: dict[str, tuple[np.ndarray, int]]) -> tuple[int, ...]:
    """Broadcast the frame (leading) shapes of named arrays, or explain which clash."""
    leads = {name: arr.shape[: arr.ndim - core] for name, (arr, core) in arrays.items()}
    try:
        return np.broadcast_shapes(*leads.values())
    except ValueError:
        listing = ", ".join(f"{name} {arrays[name][0].shape}" for name in leads)
        raise ValueError(
            "the arguments must have the same number of frames on axis 0 (or one frame); "
            f"got shapes {listing}"
        ) from None


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
    g: float = G,
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
        Angular acceleration of the segment [rad/s^2], counter-clockwise positive.
    mass : float or array_like, shape () or (N,)
        Segment mass [kg].
    Icm : float or array_like, shape () or (N,)
        Moment of inertia about the centre of mass, z axis [kg m^2].
    Fd : array_like, shape (2,) or (N, 2)
        Force acting ON the segment at ``rd`` [N].
    Md : float or array_like, shape () or (N,)
        Free moment acting ON the segment at its distal end [N m] (0 for the foot).
    g : float, optional
        Acceleration of free fall [m/s^2], acting along -y (keyword-only).
        Default 9.80665.

    Returns
    -------
    Fp : numpy.ndarray, shape (2,) or (N, 2)
        Force acting ON the segment at the proximal joint [N].
    Mp : numpy.ndarray, shape () or (N,)
        Moment acting ON the segment at the proximal joint [N m], counter-clockwise
        positive.

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
        M_p = I_{cm}\alpha - M_d - (\mathbf{r}_d - \mathbf{r}_{cm})\times\mathbf{F}_d
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
    sca = {
        "alpha": as_array(alpha, "alpha", unit="rad/s^2"),
        "mass": as_array(mass, "mass", unit="kg"),
        "Icm": as_array(Icm, "Icm", unit="kg m^2"),
        "Md": as_array(Md, "Md", unit="N m"),
    }
    for name in ("mass", "Icm"):
        if np.any(sca[name] < 0):
            raise ValueError(f"{name} must be non-negative; got {sca[name]!r:.80}")
    frames = _frames(
        {**{k: (v, 1) for k, v in vec.items()}, **{k: (v, 0) for k, v in sca.items()}}
    )
    gravity = np.array([0.0, -positive(g, "g", unit="m/s^2", allow_zero=True)])
    m = sca["mass"][..., None]
    Fp = m * vec["acm"] - m * gravity - vec["Fd"]
    Mp = (
        sca["Icm"] * sca["alpha"]
        - sca["Md"]
        - _cross2(vec["rd"] - vec["rcm"], vec["Fd"])
        - _cross2(vec["rp"] - vec["rcm"], Fp)
    )
    return np.broadcast_to(Fp, frames + (2,)).copy(), np.broadcast_to(Mp, frames).copy()


# ---------------------------------------------------------------------------------------
# End of the planar section (H2). The 3D section, if any, follows below this line.
# ---------------------------------------------------------------------------------------
