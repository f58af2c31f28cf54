"""Explorer for notebook 1 (one-link pendulum): gravitational and inertial joint torques.

:func:`torque_explorer` moves one segment hinged at a joint sinusoidally,
``alpha(t) = alpha_0 + A sin(2 pi f t)``, and plots the two parts of the joint torque that
produces the motion, ``T = I_o alpha_dd + m g d cos(alpha)``: the inertial torque grows with
the square of the frequency, the gravitational torque depends on the posture only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.widgets._base import explorer, twinned
from bmc.widgets._style import MARKERS, TOTAL, series

__all__ = ["torque_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)


@twinned
def torque_explorer(
    *,
    length: float = 0.45,
    com_fraction: float = 0.43,
    mass: float = 1.5,
    interactive: bool = True,
    values: dict[str, Any] | None = None,
):
    """Explore the inertial and gravitational torques of a segment swinging about a joint.

    Two seconds of motion ``alpha(t) = alpha_0 + A sin(2 pi f t)`` of a uniform-density
    segment (moment of inertia about the centre of mass taken as ``m L^2 / 12``). Left: the
    segment at the instant of the largest joint torque. Right: the inertial torque
    ``I_o alpha_dd``, the gravitational torque ``m g d cos(alpha)`` and their sum, the
    joint torque [N m]; the title gives the peak of each.

    Parameters
    ----------
    length : float, optional
        Segment length L [m] (keyword-only; default 0.45, about a forearm and hand).
    com_fraction : float, optional
        Joint-to-centre-of-mass distance as a fraction of the length [-].
    mass : float, optional
        Segment mass [kg].
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
    ax_pose.set_xlabel("x [m]")
    ax_pose.set_ylabel("y [m]")
    # legends under the panels, where no curve or segment can run under them
    ax_pose.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize="small", ncol=2)
    (inertial_line,) = ax_torque.plot(t, np.zeros_like(t), **series(1),
                                      label=r"inertial $I_o\ddot\alpha$")
    (gravity_line,) = ax_torque.plot(t, np.zeros_like(t), **series(2),
                                     label=r"gravitational $mgd\cos\alpha$")
    (total_line,) = ax_torque.plot(t, np.zeros_like(t), **TOTAL, label="joint torque (sum)")
    ax_torque.set_xlabel("time [s]")
    ax_torque.set_ylabel("torque [N m]")
    ax_torque.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize="small",
                     ncol=3)
    fig.tight_layout()

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
            f"{shown['gravity']:.2f} N m, joint {shown['total']:.2f} N m.")

    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
