"""Explorers for notebook 3 (matrix formalism).

- :func:`energy_explorer`: the double pendulum's energy error over time, explicit Euler at a
  chosen step against adaptive DOP853 at a chosen tolerance.
- :func:`frames_explorer`: a segment frame rotated by three Cardan/Euler angles, with the
  intermediate frames, for any rotation sequence.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from bmc.widgets._base import cache_key, explorer, slider_values
from bmc.widgets._style import AXES_XYZ, NEUTRAL, series
from bmc.widgets._warm import warm_up
from bmc.widgets._widget import twinned

__all__ = ["energy_explorer", "frames_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)

_MAX_DURATION = 60.0  # [s] 6e5 Euler steps at dt = 1e-4 s: about a second per update

_SOURCE_Y0 = (np.pi / 10, np.pi / 3, 2 * np.pi, -6 * np.pi)


def _relative_energy_error(pend: Any, y: np.ndarray) -> np.ndarray:
    E = pend.energy(y[:, :2], y[:, 2:])
    return np.abs(E - E[0]) / abs(E[0])


@twinned
def energy_explorer(*, duration: float = 5.0, interactive: bool = True,
                    values: dict[str, float] | None = None):
    """Compare the energy error of explicit Euler and DOP853 on the source's pendulum.

    The double pendulum of :class:`bmc.matrix_form.DoublePendulum` (the source's rods and
    initial state) is integrated for ``duration`` seconds by explicit Euler with step
    ``10**log_dt`` and by DOP853 with relative tolerance ``10**log_rtol``; the plot shows
    ``|E(t) - E(0)| / |E(0)|`` for both on a log scale, and the title gives the final
    errors and the number of right-hand-side evaluations (the cost).

    Parameters
    ----------
    duration : float, optional
        Simulated time [s] (keyword-only, default 5: an update then takes well under a
        second at the smallest Euler step); at most 60 s, so that no update runs long.
    interactive : bool, optional
        Return the ipywidgets explorer (default) or apply ``values`` once and return the
        figure.
    values : dict, optional
        ``log_dt`` (log10 of the Euler step [s]) and ``log_rtol`` (log10 of DOP853's
        relative tolerance) for the non-interactive path.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc import simulate
    from bmc._validation import positive
    from bmc.models.double_pendulum import DoublePendulum, euler_double_pendulum

    duration = positive(duration, "duration", unit="s")
    if duration > _MAX_DURATION:
        raise ValueError(
            f"duration [s] must be at most {_MAX_DURATION:g} s, so that an update at the "
            f"smallest Euler step (1e-4 s) takes about a second; got {duration!r}: simulate "
            "a shorter time (the energy drift shows within a few seconds)")
    pend = DoublePendulum()
    t_eval = np.linspace(0.0, duration, 201)

    fig, ax = plt.subplots(figsize=(7, 3.6))
    (euler_line,) = ax.semilogy(t_eval, np.ones_like(t_eval), **series(3),
                                label="explicit Euler")
    (dop_line,) = ax.semilogy(t_eval, np.ones_like(t_eval), **series(0), label="DOP853")
    ax.set_xlim(0.0, duration)
    ax.set_ylim(1e-14, 10.0)
    ax.set_xlabel("time [s]")
    ax.set_ylabel(r"relative energy error $\varepsilon_E$ [1]")
    ax.legend(loc="lower right")
    fig.tight_layout()

    # Each integrator depends on one slider only: cache each on its own, so that moving one
    # slider does not recompute the other integrator (the costlier half of an update).
    @functools.lru_cache(maxsize=32)
    def euler(log_dt: float) -> tuple[np.ndarray, np.ndarray, int]:
        dt = 10.0**log_dt
        every = max(1, int(round(duration / dt / 200)))
        t, y = euler_double_pendulum(pend, _SOURCE_Y0, duration, dt=dt, every=every)
        return t, _relative_energy_error(pend, y), int(round(duration / dt))

    @functools.lru_cache(maxsize=32)
    def dop853(log_rtol: float) -> tuple[np.ndarray, np.ndarray, int]:
        rtol = 10.0**log_rtol
        res = simulate.simulate(pend.rhs, (0.0, duration), _SOURCE_Y0, t_eval=t_eval,
                                rtol=rtol, atol=rtol * 1e-2)
        return res.t, _relative_energy_error(pend, res.y), int(res.nfev)

    shown: dict[str, Any] = {}

    def update(log_dt: float, log_rtol: float) -> None:
        t, err_euler, n_euler = euler(cache_key(log_dt))
        euler_line.set_data(t, np.maximum(err_euler, 1e-16))
        t_dop, err, nfev = dop853(cache_key(log_rtol))
        dop_line.set_data(t_dop, np.maximum(err, 1e-16))
        ax.set_title(
            f"Euler dt = {10.0**log_dt:.1e} s ({n_euler} evaluations): "
            f"{err_euler[-1]:.1e};  DOP853 at {10.0**log_rtol:.0e} per step "
            f"({nfev} evaluations): {err[-1]:.1e}", fontsize="small")
        shown.update(dt=10.0**log_dt, rtol=10.0**log_rtol, n_euler=n_euler, nfev=nfev,
                     euler=err_euler[-1], dop=err[-1])

    def describe() -> str:
        return (
            "Relative energy error of the double pendulum, ε_E, against time over "
            f"{duration:g} s, on a logarithmic scale from 1e-14 to 10. Explicit Euler with "
            f"step {shown['dt']:.1e} s ({shown['n_euler']} evaluations) ends at "
            f"{shown['euler']:.1e}; DOP853 keeping each step's relative error near "
            f"{shown['rtol']:.0e} "
            f"({shown['nfev']} evaluations) ends at {shown['dop']:.1e}.")

    style = {"description_width": "initial"}
    controls = {
        "log_dt": widgets.FloatSlider(value=-3.0, min=-4.0, max=-2.0, step=0.25,
                                      description="Euler log10(dt / s)", style=style),
        "log_rtol": widgets.FloatSlider(value=-10.0, min=-12.0, max=-4.0, step=1.0,
                                        description="DOP853 log10(error per step)", style=style),
    }
    box = explorer(fig, update, controls, interactive=interactive, values=values,
                   describe=describe)
    if interactive:
        # While the student reads the figure, compute the neighbouring slider values of
        # each integrator (nearest first): most moves then find their result cached.
        dts, rtols = slider_values(controls["log_dt"]), slider_values(controls["log_rtol"])
        jobs = [job for k in range(max(len(dts), len(rtols)))
                for job in ((lambda v=dts[k]: euler(v)) if k < len(dts) else None,
                            (lambda v=rtols[k]: dop853(v)) if k < len(rtols) else None)
                if job is not None]
        box.warm_up = warm_up(*jobs, controls=controls)
    return box


@twinned
def frames_explorer(*, interactive: bool = True, values: dict[str, Any] | None = None):
    """Show a segment frame rotated by three angles, step by step.

    The global axes are thin grey lines; the frame after the first, the first two and all
    three rotations are drawn with increasing line width, axes x, y, z in red, green, blue
    and solid, dashed, dotted, the final axes with a circle, square and triangle at the tip.
    The title prints the rotation matrix (columns: the segment's axes in global
    coordinates).

    Parameters
    ----------
    interactive : bool, optional
        Return the ipywidgets explorer (default) or apply ``values`` once and return the
        figure.
    values : dict, optional
        ``angle1``, ``angle2``, ``angle3`` [deg], ``sequence`` (e.g. ``"zxy"``) and
        ``intrinsic`` (bool) for the non-interactive path.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from bmc.rotations import axis_rotation

    fig = plt.figure(figsize=(7.5, 4.2))
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    text_ax = fig.add_subplot(1, 2, 2)
    text_ax.axis("off")
    for k in range(3):
        end = np.eye(3)[k]
        ax.plot([0, end[0]], [0, end[1]], [0, end[2]], color=NEUTRAL, lw=0.8, alpha=0.6)
    stages = []
    for width, alpha, tip in ((1.2, 0.35, False), (1.8, 0.6, False), (3.0, 1.0, True)):
        stages.append([ax.plot([0, 0], [0, 0], [0, 0], color=style["color"], lw=width,
                               alpha=alpha, linestyle=style["linestyle"],
                               marker=style["marker"] if tip else None, markevery=[1],
                               markersize=7)[0]
                       for style in AXES_XYZ])
    for k, name in enumerate("xyz"):
        stages[-1][k].set_label(f"segment {name}")
    for axis in ("x", "y", "z"):  # three ticks each: the labels of a small 3D box stay apart
        getattr(ax, f"set_{axis}lim")(-1, 1)
        getattr(ax, f"set_{axis}ticks")([-1, 0, 1])
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    ax.view_init(elev=20, azim=-60, vertical_axis="y")
    ax.legend(loc="upper left", fontsize="small")
    matrix_text = text_ax.text(0.0, 0.5, "", family="monospace", va="center")
    fig.tight_layout()

    shown: dict[str, Any] = {}

    def update(angle1: float, angle2: float, angle3: float, sequence: str,
               intrinsic: bool) -> None:
        angles = np.radians([angle1, angle2, angle3])
        R = np.eye(3)
        for stage, axis, angle in zip(stages, sequence, angles, strict=True):
            step = axis_rotation(axis, angle)
            R = R @ step if intrinsic else step @ R
            for k, line in enumerate(stage):
                line.set_data_3d([0, R[0, k]], [0, R[1, k]], [0, R[2, k]])
        kind = "moving (intrinsic)" if intrinsic else "fixed (extrinsic)"
        rows = "\n".join("  ".join(f"{v:+.3f}" for v in row) for row in R)
        matrix_text.set_text(f"sequence {sequence}, {kind} axes\n\nR =\n{rows}")
        shown.update(angles=(angle1, angle2, angle3), sequence=sequence, kind=kind, R=R)

    def describe() -> str:
        R = shown["R"]
        axes = "; ".join(f"{name} ({R[0, k]:+.2f}, {R[1, k]:+.2f}, {R[2, k]:+.2f})"
                         for k, name in enumerate("xyz"))
        a1, a2, a3 = shown["angles"]
        return (
            f"A segment frame after rotations of {a1:.0f}, {a2:.0f} and {a3:.0f} degrees about "
            f"the axes {', '.join(shown['sequence'])}, {shown['kind']} axes, in 3D beside the "
            "global axes, with the frames after the first and the second rotation fainter. "
            f"The segment's axes in global coordinates (the columns of R): {axes}.")

    style = {"description_width": "initial"}
    controls = {
        "angle1": widgets.FloatSlider(value=30.0, min=-180, max=180, step=5,
                                      description="angle 1 [deg]", style=style),
        "angle2": widgets.FloatSlider(value=20.0, min=-90, max=90, step=5,
                                      description="angle 2 [deg]", style=style),
        "angle3": widgets.FloatSlider(value=10.0, min=-180, max=180, step=5,
                                      description="angle 3 [deg]", style=style),
        "sequence": widgets.Dropdown(options=["zxy", "xyz", "zyx", "zxz", "yxy"], value="zxy",
                                     description="sequence"),
        "intrinsic": widgets.Checkbox(value=True, description="moving axes"),
    }
    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
