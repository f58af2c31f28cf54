"""Explorer for notebook 2 (two-link arm): the torque components of a minimum-jerk reach.

:func:`reach_explorer` moves the hand of a two-link arm (upper arm; forearm and hand) on a
straight minimum-jerk path from a table in front of the trunk to a target at shoulder height
(:func:`bmc.kinematics.forward_reach`), and plots the shoulder and elbow torques split into
``tau = M qdd + C + G``: inertial, centripetal and Coriolis, and gravitational parts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.constants import G
from bmc.widgets._base import explorer
from bmc.widgets._style import TOTAL, series
from bmc.widgets._widget import twinned

__all__ = ["reach_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)


@twinned
def reach_explorer(*, interactive: bool = True, values: dict[str, Any] | None = None):
    """Explore how duration, gravity and forearm parameters shape the reaching torques.

    The arm is :func:`bmc.models.arm.arm_segments`; the hand makes the course's forward reach
    (:func:`bmc.kinematics.forward_reach`: from a table in front of the trunk to a target at
    shoulder height) in ``duration`` seconds with a minimum-jerk time course, and the joint
    kinematics follow exactly from inverse kinematics.

    Parameters
    ----------
    interactive : bool, optional
        Return the ipywidgets explorer (default) or apply ``values`` once and return the
        figure.
    values : dict, optional
        ``duration`` [s], ``g`` [m/s^2], ``forearm_mass`` [kg] and ``forearm_com`` (elbow
        to centre of mass of forearm and hand [m]) for the non-interactive path.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc.chain import PlanarChain
    from bmc.kinematics import forward_reach
    from bmc.models.arm import arm_segments

    upper, lower = arm_segments()
    l1, l2 = upper.length, lower.length
    s = np.linspace(0.0, 1.0, 300)  # fraction of the movement time
    fig, axes = plt.subplots(1, 2, figsize=(9, 4.0), sharex=True)
    names = ("inertial $M\\ddot q$", "centripetal + Coriolis $C$", "gravitational $G$",
             "joint torque (sum)")
    styles = (series(0), series(1), series(2), TOTAL)
    lines = [[ax.plot(s, np.zeros_like(s), label=name, **style)[0]
              for name, style in zip(names, styles, strict=True)] for ax in axes]
    for ax, joint in zip(axes, ("shoulder", "elbow"), strict=True):
        ax.set_xlabel("time [s]")
        ax.set_ylabel(f"{joint} torque [N m]")
        ax.set_title(joint)
    # one legend under both panels (no curve runs under it), room above for the suptitle
    fig.legend(handles=lines[0], loc="lower center", ncol=4, fontsize="small")
    fig.tight_layout(rect=(0.0, 0.07, 1.0, 0.94))

    shown: dict[str, Any] = {}

    def update(duration: float, g: float, forearm_mass: float, forearm_com: float) -> None:
        com2 = min(max(forearm_com, 0.0), l2)
        # Keep the forearm's radius of gyration about its centre of mass as tabulated.
        inertia2 = forearm_mass * (lower.inertia / lower.mass)
        arm = PlanarChain([l1, l2], [upper.com, com2], [upper.mass, forearm_mass],
                          [upper.inertia, inertia2], g=g)
        t = s * duration
        q, qd, qdd = forward_reach(t, l1, l2, duration=duration)
        parts = (np.einsum("fij,fj->fi", arm.mass_matrix(q), qdd), arm.velocity_terms(q, qd),
                 arm.gravity_terms(q))
        parts = (*parts, sum(parts))
        for j, ax in enumerate(axes):
            for line, part in zip(lines[j], parts, strict=True):
                line.set_data(t, part[:, j])
            peak = max(np.abs(p[:, j]).max() for p in parts)
            ax.set_xlim(0.0, duration)
            ax.set_ylim(-1.1 * peak - 1e-3, 1.1 * peak + 1e-3)
        shown.update(duration=duration, g=g, mass=forearm_mass, com=com2,
                     peaks=[[np.abs(p[:, j]).max() for p in parts] for j in range(2)])
        fig.suptitle(f"{duration:.2f} s reach, g = {g:.2f} m/s$^2$: peak joint torques "
                     f"{np.abs(parts[3][:, 0]).max():.1f} and "
                     f"{np.abs(parts[3][:, 1]).max():.1f} N m", fontsize="small")

    style = {"description_width": "initial"}
    controls = {
        "duration": widgets.FloatSlider(value=0.6, min=0.3, max=4.0, step=0.1,
                                        description="duration [s]", style=style),
        "g": widgets.FloatSlider(value=G, min=0.0, max=G, step=0.01,
                                 description="g [m/s^2]", style=style),
        "forearm_mass": widgets.FloatSlider(value=round(lower.mass, 2), min=0.5, max=5.0,
                                            step=0.05, description="forearm+hand mass [kg]",
                                            style=style),
        "forearm_com": widgets.FloatSlider(value=round(lower.com, 3), min=0.05,
                                           max=round(l2, 3), step=0.005,
                                           description="forearm+hand COM [m]", style=style),
    }
    def describe() -> str:
        parts = ("inertial", "centripetal and Coriolis", "gravitational")
        joints = []
        for joint, peaks in zip(("shoulder", "elbow"), shown["peaks"], strict=True):
            listed = ", ".join(f"{name} {p:.1f}" for name, p in zip(parts, peaks[:3],
                                                                     strict=True))
            joints.append(f"{joint}: joint torque up to {peaks[3]:.1f} N m ({listed} N m)")
        return (
            f"Shoulder and elbow torques of a {shown['duration']:.2f} s minimum-jerk reach "
            f"at g = {shown['g']:.2f} m/s², forearm and hand {shown['mass']:.2f} kg with its "
            f"centre of mass {shown['com']:.3f} m from the elbow; each panel plots the "
            "inertial, centripetal and Coriolis, and gravitational parts and their sum "
            f"against time. Peaks, {joints[0]}; {joints[1]}.")

    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
