"""Explorer for notebook 5: joint reactions over a generated back somersault.

:func:`reaction_explorer` shows the seven-segment body at one instant with the bed's force
and the hip, knee and ankle reactions drawn as arrows, next to the vertical reactions over
the whole somersault by eq. (2.10) and eq. (2.11) of Blajer and Czaplicki (2005). A noise
slider adds Gaussian noise to the measured contact force: the two formulas then part.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.widgets._base import explorer
from bmc.widgets._style import MARKERS, NEUTRAL
from bmc.widgets._widget import twinned

__all__ = ["reaction_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)

_LEGS = ("hip", "knee", "ankle")


@twinned
def reaction_explorer(motion: Any = None, *, seed: int = 0, interactive: bool = True,
                      values: dict[str, Any] | None = None):
    """Explore hip, knee and ankle reactions along a somersault, with a noisy force plate.

    Left: the body at time ``t`` [s], the bed's force on the feet (grey arrow) and the force
    that the thigh, shank and foot exert on the segment above at hip, knee and ankle
    (eq. 2.10, coloured arrows, each named at its tip; 1 body weight is drawn 0.06 m long).
    Right: the vertical reactions [body weights] over the motion, eq. (2.10) solid and
    eq. (2.11) dashed, hip, knee and ankle with circles, squares and triangles, and a
    vertical line at ``t``. The title gives the largest difference between the formulas.

    Parameters
    ----------
    motion : bmc.models.somersault.Motion, optional
        Default :func:`bmc.models.somersault.somersault`.
    seed : int, optional
        Seed of the noise pattern (keyword-only); the slider scales it.
    interactive : bool, optional
        Return the ipywidgets explorer (default) or apply ``values`` once and return the
        figure.
    values : dict, optional
        ``time`` [s] and ``noise`` (standard deviation of the noise added to each
        component of the contact force [N]) for the non-interactive path.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc import reactions as rx
    from bmc.models.somersault import somersault

    motion = somersault() if motion is None else motion
    model, t = motion.model, motion.t
    bw = model.body_weight
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    unit = np.random.default_rng(seed).normal(size=motion.contact_force.shape)
    legs = [model.joint_names.index(j) for j in _LEGS]
    prox, dist = model.joint_positions(motion.q), model.distal_positions(motion.q)
    contact = model.point(motion.q, *motion.contact_point)
    cache: dict[float, tuple[np.ndarray, np.ndarray]] = {}

    def reactions(noise: float) -> tuple[np.ndarray, np.ndarray]:
        if noise not in cache:
            cache[noise] = rx.motion_reactions(
                motion, contact_force=motion.contact_force + noise * unit, joints=_LEGS)
        return cache[noise]

    fig, (ax_body, ax_time) = plt.subplots(1, 2, figsize=(10, 4),
                                           gridspec_kw={"width_ratios": [1, 1.6]})
    seg_lines = [ax_body.plot([], [], "-", color="0.3", lw=3)[0] for _ in range(model.n)]
    scale = 0.06 / bw  # metres of arrow per newton
    colors = (NEUTRAL, "C0", "C1", "C2")
    arrows = ax_body.quiver(np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(4),
                            color=list(colors), angles="xy",
                            scale_units="xy", scale=1.0, width=0.012)
    for c, name in zip(colors, ("bed force", *_LEGS), strict=True):
        ax_body.plot([], [], color=c, lw=3, label=name)
    # each arrow named at its tip: the colours are not the only way to tell them apart
    tips = [ax_body.text(0.0, 0.0, name, fontsize="x-small", ha="left", va="center",
                         clip_on=True) for name in ("bed", *_LEGS)]
    (bed,) = ax_body.plot([-1.6, 1.6], [0.0, 0.0], color="k", lw=0.8, label="bed at rest")
    ax_body.set_aspect("equal", adjustable="box")
    ax_body.set_xlim(-1.6, 1.6)
    ax_body.set_ylim(-1.2, 2.2)
    ax_body.set_xlabel("x relative to the hip [m]")
    ax_body.set_ylabel("y relative to the hip [m]")
    ax_body.legend(loc="lower left", fontsize="small")
    curves = {}
    every = (0, max(1, t.size // 12))  # about a dozen markers along each curve
    for k, name in enumerate(_LEGS):
        mark = {"color": colors[k + 1], "marker": MARKERS[k], "markersize": 4,
                "markevery": every}
        curves[name, "2.10"] = ax_time.plot(t, np.zeros_like(t), **mark,
                                            label=f"{name}, eq. (2.10)")[0]
        curves[name, "2.11"] = ax_time.plot(t, np.zeros_like(t), "--", **mark,
                                            markerfacecolor="white",
                                            label=f"{name}, eq. (2.11)")[0]
    marker = ax_time.axvline(0.0, color="k", lw=0.8)
    ax_time.axvspan(0.0, motion.takeoff, color="0.9", label="on the bed")
    ax_time.set_xlabel("time [s]")
    ax_time.set_ylabel("vertical reaction [body weights]")
    ax_time.legend(loc="upper right", fontsize="x-small", ncol=2)
    fig.tight_layout()

    shown: dict[str, Any] = {}

    def update(time: float, noise: float) -> None:
        aug, cla = reactions(float(noise))
        for k, name in enumerate(_LEGS):
            curves[name, "2.10"].set_ydata(aug[:, 2 * k + 1] / bw)
            curves[name, "2.11"].set_ydata(cla[:, 2 * k + 1] / bw)
        top = max(np.abs(aug[:, 1::2]).max(), np.abs(cla[:, 1::2]).max()) / bw
        ax_time.set_ylim(-0.1 * top - 0.1, 1.15 * top + 0.1)
        # nearest sample: searchsorted mapped neighbouring slider values to one frame
        i = int(np.argmin(np.abs(t - time)))
        marker.set_xdata([t[i], t[i]])
        hip = prox[i, 0]
        bed.set_ydata([-hip[1], -hip[1]])
        for s, line in enumerate(seg_lines):
            line.set_data([prox[i, s, 0] - hip[0], dist[i, s, 0] - hip[0]],
                          [prox[i, s, 1] - hip[1], dist[i, s, 1] - hip[1]])
        R = motion.contact_force[i] + noise * unit[i]
        where = np.vstack([contact[i], prox[i, [j + 1 for j in legs]]]) - hip
        force = np.vstack([R, aug[i].reshape(3, 2)]) * scale
        arrows.set_offsets(where)
        arrows.set_UVC(force[:, 0], force[:, 1])
        for text, start, arrow in zip(tips, where, force, strict=True):
            text.set_position(start + arrow + [0.04, 0.0])
        ax_body.set_title(
            f"t = {t[i]:.2f} s: vertical hip {aug[i, 1] / bw:.2f}, knee {aug[i, 3] / bw:.2f},"
            f" ankle {aug[i, 5] / bw:.2f} BW", fontsize="small")
        ax_time.set_title(f"noise {noise:.0f} N: largest |(2.10) - (2.11)| = "
                          f"{np.abs(aug - cla).max():.1f} N", fontsize="small")
        shown.update(t=t[i], noise=noise, at=aug[i, 1::2] / bw, bed=R / bw,
                     gap=np.abs(aug - cla).max(), peak=np.abs(aug[:, 1::2]).max(axis=0) / bw)

    def describe() -> str:
        at = ", ".join(f"{name} {v:.2f}" for name, v in zip(_LEGS, shown["at"], strict=True))
        peak = ", ".join(f"{name} {v:.1f}" for name, v in zip(_LEGS, shown["peak"],
                                                              strict=True))
        return (
            f"Left: the body at t = {shown['t']:.2f} s with the bed's force "
            f"({shown['bed'][1]:.2f} body weights upward) and the hip, knee and ankle "
            f"reactions as arrows; vertical reactions {at} body weights. Right: the "
            f"vertical reactions over the {t[-1] - t[0]:.2f} s somersault by eq. (2.10) and "
            f"eq. (2.11), largest by eq. (2.10): {peak} body weights; with "
            f"{shown['noise']:.0f} N of force noise the two equations differ by up to "
            f"{shown['gap']:.1f} N.")

    style = {"description_width": "initial"}
    dt = float(t[1] - t[0]) if t.size > 1 else 0.01
    controls = {
        "time": widgets.FloatSlider(value=round(0.5 * motion.takeoff, 3), min=0.0,
                                    max=float(t[-1]), step=dt, readout_format=".3f",
                                    description="time [s]", style=style),
        "noise": widgets.FloatSlider(value=0.0, min=0.0, max=100.0, step=5.0,
                                     description="force noise SD [N]", style=style),
    }
    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
