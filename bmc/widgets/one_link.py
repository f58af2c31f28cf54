"""Explorer for notebook 1 (one-link pendulum): gravitational and inertial joint torques.

:func:`torque_explorer` moves one segment hinged at a joint sinusoidally,
``alpha(t) = alpha_0 + A sin(2 pi f t)``, and plots the two parts of the joint torque that
produces the motion, ``tau_1 = I_o alpha_1_dd + m_1 g d_1 cos(alpha_1)``: the inertial
torque grows with the square of the frequency, the gravitational torque depends on the
posture only.

The segment is read as the forearm and hand hinged at the elbow, the upper arm hanging
(``alpha = -90 deg`` is the extended elbow, elbow flexion ``= alpha + 90 deg``).
:func:`outside_human_range` names what in a motion no elbow of a healthy adult could do,
against the published limits in :data:`ELBOW`; the explorer shows it under its figure.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc.widgets._base import explorer
from bmc.widgets._style import MARKERS, TOTAL, series
from bmc.widgets._widget import twinned

__all__ = ["ELBOW", "outside_human_range", "torque_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)


ELBOW: dict[str, float] = {
    # normal range of elbow flexion [deg], 0 (extended) to 150 (AAOS), as tabulated by
    # Norkin CC, White DJ (2016), Measurement of Joint Motion, 5th ed., Table A.1
    "flexion_min_deg": 0.0,
    "flexion_max_deg": 150.0,
    # the fastest elbow motion measured: elbow extension in baseball pitching, about
    # 2300-2400 deg/s (Fleisig GS et al. 1995, Am J Sports Med 23(2), 233-239)
    "peak_speed_deg_s": 2300.0,
    # concentric isokinetic peak torque of 199 young men per kg of body mass [N m/kg]:
    # flexion 78 %, extension 67 % of body mass (Lategan L, Kruger PE 2003, African Journal
    # for Physical, Health Education, Recreation and Dance, special edition, 165-172)
    "flexor_strength_n_m_per_kg": 0.78,
    "extensor_strength_n_m_per_kg": 0.67,
}
"""Limits of a healthy adult elbow, with their sources (see the comments in the code)."""


def outside_human_range(flexion_deg: ArrayLike, torque: ArrayLike, *,
                        speed_deg_s: float | None = None, body_mass: float = 70.0) -> list[str]:
    """Say what in an elbow motion leaves the human range (:data:`ELBOW`).

    Parameters
    ----------
    flexion_deg : array_like
        Elbow flexion angles over the motion [deg] (0 extended, positive flexed).
    torque : array_like
        Net elbow moments over the motion [N m], flexor positive.
    speed_deg_s : float, optional
        Peak angular speed [deg/s] (keyword-only); by default not judged.
    body_mass : float, optional
        Body mass [kg] that scales the strength limits (keyword-only); default 70.

    Returns
    -------
    list of str
        One sentence per limit the motion exceeds, with the value and the limit; empty
        when everything lies within the human range.

    Examples
    --------
    >>> outside_human_range([10.0, 160.0], [2.0, -1.0])
    ['elbow flexion reaches 160 deg (normal range 0 to 150 deg)']
    """
    from bmc._validation import as_array, positive

    angles = as_array(flexion_deg, "flexion_deg", unit="deg")
    moments = as_array(torque, "torque", unit="N m")
    mass = positive(body_mass, "body_mass", unit="kg")
    if speed_deg_s is not None:
        speed_deg_s = positive(speed_deg_s, "speed_deg_s", unit="deg/s", allow_zero=True)
    lo, hi = ELBOW["flexion_min_deg"], ELBOW["flexion_max_deg"]
    found = []
    if angles.size and angles.min() < lo:
        found.append(f"the elbow hyperextends by {lo - angles.min():.0f} deg (normal range "
                     f"{lo:.0f} to {hi:.0f} deg of flexion)")
    if angles.size and angles.max() > hi:
        found.append(f"elbow flexion reaches {angles.max():.0f} deg (normal range {lo:.0f} to "
                     f"{hi:.0f} deg)")
    if speed_deg_s is not None and speed_deg_s > ELBOW["peak_speed_deg_s"]:
        found.append(f"peak speed {speed_deg_s:.0f} deg/s (the fastest elbow motion measured, "
                     f"in pitching: about {ELBOW['peak_speed_deg_s']:.0f} deg/s)")
    flexor = ELBOW["flexor_strength_n_m_per_kg"] * mass
    extensor = ELBOW["extensor_strength_n_m_per_kg"] * mass
    if moments.size and moments.max() > flexor:
        found.append(f"flexor moment {moments.max():.0f} N m (an average young man's maximum: "
                     f"{flexor:.0f} N m)")
    if moments.size and -moments.min() > extensor:
        found.append(f"extensor moment {-moments.min():.0f} N m (an average young man's "
                     f"maximum: {extensor:.0f} N m)")
    return found


@twinned
def torque_explorer(
    *,
    length: float = 0.45,
    com_fraction: float = 0.43,
    mass: float = 1.5,
    body_mass: float = 70.0,
    interactive: bool = True,
    values: dict[str, Any] | None = None,
):
    """Explore the inertial and gravitational torques of a segment swinging about a joint.

    Two seconds of motion ``alpha(t) = alpha_0 + A sin(2 pi f t)`` of a uniform-density
    segment (moment of inertia about the centre of mass taken as ``m L^2 / 12``). Left: the
    segment at the instant of the largest joint torque. Right: the inertial torque
    ``I_o alpha_1_dd``, the gravitational torque ``m_1 g d_1 cos(alpha_1)`` and their sum, the
    joint torque [N m]; the title gives the peak of each. Below the figure: what in the
    motion leaves the range of a healthy adult elbow (:func:`outside_human_range`), or that
    it stays within it.

    Parameters
    ----------
    length : float, optional
        Segment length L [m] (keyword-only; default 0.45, about a forearm and hand).
    com_fraction : float, optional
        Joint-to-centre-of-mass distance as a fraction of the length [-].
    mass : float, optional
        Segment mass [kg].
    body_mass : float, optional
        Body mass [kg] that scales the strength limits of the elbow; default 70.
    interactive : bool, optional
        Return the ipywidgets explorer (default) or apply ``values`` once and return the
        figure.
    values : dict, optional
        ``mean_deg`` (alpha_0 [deg]), ``amplitude_deg`` (A [deg]) and ``frequency``
        (f [Hz]) for the non-interactive path.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc._validation import positive
    from bmc.chain import PlanarChain

    length = positive(length, "length", unit="m")
    mass = positive(mass, "mass", unit="kg")
    body_mass = positive(body_mass, "body_mass", unit="kg")
    if not 0 <= com_fraction <= 1:
        raise ValueError(f"com_fraction must lie in [0, 1]; got {com_fraction}")
    rod = PlanarChain([length], [com_fraction * length], [mass], [mass * length**2 / 12])
    t = np.linspace(0.0, 2.0, 401)

    fig, (ax_pose, ax_torque) = plt.subplots(1, 2, figsize=(9, 4.0),
                                             gridspec_kw={"width_ratios": [1, 2]})
    (segment_line,) = ax_pose.plot([0, length], [0, 0], marker=MARKERS[0], color="C0", lw=3,
                                   label="segment")
    (com_point,) = ax_pose.plot([0], [0], MARKERS[3], color="C3", label="centre of mass")
    reach = 1.1 * length
    ax_pose.set_xlim(-reach, reach)
    ax_pose.set_ylim(-reach, reach)
    ax_pose.set_aspect("equal")
    # three ticks per axis: the labels of a narrow panel stay apart
    tick = max(round(0.8 * reach, 1), 0.1)
    ax_pose.set_xticks([-tick, 0.0, tick])
    ax_pose.set_yticks([-tick, 0.0, tick])
    ax_pose.set_xlabel("x [m]")
    ax_pose.set_ylabel("y [m]")
    # legends under the panels, where no curve or segment can run under them
    ax_pose.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize="small", ncol=2)
    (inertial_line,) = ax_torque.plot(t, np.zeros_like(t), **series(1),
                                      label=r"inertial $I_o\ddot\alpha_1$")
    (gravity_line,) = ax_torque.plot(t, np.zeros_like(t), **series(2),
                                     label=r"gravitational $m_1 g d_1\cos\alpha_1$")
    (total_line,) = ax_torque.plot(t, np.zeros_like(t), **TOTAL, label="joint torque (sum)")
    ax_torque.set_xlabel("time [s]")
    ax_torque.set_ylabel("torque [N m]")
    ax_torque.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize="small",
                     ncol=3)
    verdict = fig.text(0.01, 0.01, "", fontsize="small", ha="left", va="bottom")
    # titles as long as update() writes them, so that the layout leaves them room
    ax_pose.set_title("at t = 0.00 s", fontsize="small")
    ax_torque.set_title("peak inertial 00.00 N m, gravitational 00.00 N m, joint 00.00 N m",
                        fontsize="small")
    fig.tight_layout(rect=(0.0, 0.12, 1.0, 1.0))

    shown: dict[str, Any] = {}

    def update(mean_deg: float, amplitude_deg: float, frequency: float) -> None:
        w = 2 * np.pi * frequency
        amp, mean = np.radians(amplitude_deg), np.radians(mean_deg)
        q = (mean + amp * np.sin(w * t))[:, None]
        qdd = (-amp * w**2 * np.sin(w * t))[:, None]
        inertial = (rod.mass_matrix(q)[:, 0, 0] * qdd[:, 0])
        gravity = rod.gravity_terms(q)[:, 0]
        total = inertial + gravity
        inertial_line.set_ydata(inertial)
        gravity_line.set_ydata(gravity)
        total_line.set_ydata(total)
        peak = max(np.abs(np.concatenate([inertial, gravity, total])).max(), 1e-3)
        ax_torque.set_ylim(-1.1 * peak, 1.1 * peak)
        k = int(np.argmax(np.abs(total)))
        joints = rod.joint_positions(q[k])
        segment_line.set_data(joints[:, 0], joints[:, 1])
        com = rod.com_positions(q[k])
        com_point.set_data(com[:, 0], com[:, 1])
        ax_pose.set_title(f"at t = {t[k]:.2f} s", fontsize="small")
        shown.update(mean=mean_deg, amplitude=amplitude_deg, frequency=frequency, t=t[k],
                     angle=np.degrees(q[k, 0]), inertial=np.abs(inertial).max(),
                     gravity=np.abs(gravity).max(), total=np.abs(total).max())
        ax_torque.set_title(
            f"peak inertial {np.abs(inertial).max():.2f} N m, gravitational "
            f"{np.abs(gravity).max():.2f} N m, joint {np.abs(total).max():.2f} N m",
            fontsize="small")
        # the analytic extremes of the motion: angles mean +- A, speed A w
        flexion = np.degrees(mean) + 90.0 + np.array([-amplitude_deg, amplitude_deg])
        found = outside_human_range(flexion, total, body_mass=body_mass,
                                    speed_deg_s=amplitude_deg * w)
        verdict.set_text(textwrap.fill(
            "Outside the human elbow's range: " + "; ".join(found) + "." if found else
            "Within the range of a healthy adult elbow (flexion 0 to "
            f"{ELBOW['flexion_max_deg']:.0f} deg, strength, speed).", width=100))
        shown["verdict"] = verdict.get_text().replace("\n", " ")

    style = {"description_width": "initial"}
    controls = {
        "mean_deg": widgets.FloatSlider(value=-45.0, min=-90.0, max=90.0, step=5.0,
                                        description="mean angle [deg]", style=style),
        "amplitude_deg": widgets.FloatSlider(value=30.0, min=0.0, max=90.0, step=5.0,
                                             description="amplitude [deg]", style=style),
        "frequency": widgets.FloatSlider(value=1.0, min=0.1, max=4.0, step=0.1,
                                         description="frequency [Hz]", style=style),
    }
    def describe() -> str:
        return (
            f"A {length:.2f} m segment swinging {shown['amplitude']:.0f} degrees either side "
            f"of {shown['mean']:.0f} degrees at {shown['frequency']:.1f} Hz. Left: the segment "
            f"at t = {shown['t']:.2f} s, at {shown['angle']:.0f} degrees, the instant of the "
            "largest joint torque. Right: the inertial, gravitational and joint torques over "
            f"2 s; peaks: inertial {shown['inertial']:.2f} N m, gravitational "
            f"{shown['gravity']:.2f} N m, joint {shown['total']:.2f} N m. "
            + shown["verdict"])

    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
