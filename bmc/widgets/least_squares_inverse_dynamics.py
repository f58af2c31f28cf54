"""Kuo's benchmark with adjustable noise: Newton-Euler and least squares against the truth.

:func:`torque_explorer` measures the simulated sway of :func:`bmc.models.standing.simulate_sway`
with the chosen marker and force-plate noise, then shows the ankle, knee and hip torques of
the bottom-up Newton-Euler method and of Kuo's weighted least squares (with the paper's
Appendix-B weights or with the propagated covariance) over the true torques.
"""

from __future__ import annotations

from typing import Any

from bmc.plotting import estimates_against_truth
from bmc.widgets._base import explorer
from bmc.widgets._style import series
from bmc.widgets._widget import twinned

__all__ = ["torque_explorer"]


def __dir__() -> list[str]:
    return sorted(__all__)

_JOINTS = ("ankle", "knee", "hip")


@twinned
def torque_explorer(
    sway: Any = None,
    *,
    seed: int = 0,
    interactive: bool = True,
    values: dict[str, Any] | None = None,
):
    """Explore how marker and force noise affect Newton-Euler and least-squares torques.

    The same seeded noise pattern is scaled by the sliders, so a change of level is not
    blurred by a new random draw.

    Parameters
    ----------
    sway : bmc.models.standing.Sway, optional
        The exact trial (default: :func:`bmc.models.standing.simulate_sway`).
    seed : int, optional
        Seed of the noise pattern (keyword-only). Default 0.
    interactive : bool, optional
        Return the ipywidgets explorer (default) or, if ``False``, apply ``values`` once
        and return the figure.
    values : dict, optional
        Values of the controls on the non-interactive path: ``marker_noise`` [cm],
        ``force_noise`` [N] (also used as the torque noise in N m, as in the paper) and
        ``weights`` (``"propagated"`` or ``"paper"``).

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The explorer, or the updated figure.
    """
    import ipywidgets as widgets

    from bmc import least_squares as ls
    from bmc.models import standing

    sway = standing.simulate_sway() if sway is None else sway
    model = sway.model
    t = sway.t[sway.window]
    truth = sway.tau[sway.window]

    axes, lines = estimates_against_truth(
        t, truth, {"Newton-Euler": series(1, linewidth=1.2),
                   "least squares": series(0, linewidth=1.4)},
        titles=_JOINTS, ylabel="joint torque [N m]", margin=0.6,
    )
    fig = axes[0].figure
    fig.tight_layout()

    shown: dict[str, Any] = {}

    def update(marker_noise: float, force_noise: float, weights: str) -> None:
        meas = standing.measure(sway, marker_noise=marker_noise * 1e-2, force_noise=force_noise,
                          seed=seed)
        args = (model, meas.phi, meas.phid, meas.phidd, meas.grf)
        ne = ls.newton_euler(*args).tau
        if weights == "paper":
            cov = ls.paper_covariance(model, meas)
        elif weights == "propagated":
            cov = ls.propagated_covariance(model, meas)
        else:
            raise ValueError(f"weights must be 'paper' or 'propagated'; got {weights!r}")
        est = ls.least_squares(*args, cov).tau
        err_ne, err_ls = ls.rmse(ne, truth), ls.rmse(est, truth)
        for j, ax in enumerate(axes):
            lines["Newton-Euler"][j].set_ydata(ne[:, j])
            lines["least squares"][j].set_ydata(est[:, j])
            ax.set_title(
                f"{_JOINTS[j]}: RMSE NE {err_ne[j]:.2f}, LS {err_ls[j]:.2f} N m", fontsize=10
            )
        shown.update(marker=marker_noise, force=force_noise, weights=weights, ne=err_ne,
                     ls=err_ls)

    def describe() -> str:
        joints = "; ".join(
            f"{name}: Newton-Euler {a:.2f} N m, least squares {b:.2f} N m"
            for name, a, b in zip(_JOINTS, shown["ne"], shown["ls"], strict=True))
        which = ("the paper's weights" if shown["weights"] == "paper"
                 else "the propagated covariance as weights")
        return (
            "Ankle, knee and hip torques of quiet standing against time: the true torque, "
            "the bottom-up Newton-Euler estimate and the weighted least-squares estimate "
            f"with {which}, from data with {shown['marker']:.2g} cm marker noise and "
            f"{shown['force']:.2g} N force-plate noise. RMS errors, {joints}.")

    style = {"description_width": "initial"}
    controls = {
        "marker_noise": widgets.FloatLogSlider(
            value=1.0, base=10, min=-2, max=0.5, step=0.1, description="marker noise [cm]",
            style=style,
        ),
        "force_noise": widgets.FloatLogSlider(
            value=0.1, base=10, min=-3, max=1, step=0.25, description="force noise [N]",
            style=style,
        ),
        "weights": widgets.Dropdown(
            options=["propagated", "paper"], value="propagated", description="LS weights",
            style=style,
        ),
    }
    return explorer(fig, update, controls, interactive=interactive, values=values,
                    describe=describe)
