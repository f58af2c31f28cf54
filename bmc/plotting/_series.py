"""Plot helpers that draw into given Axes and return what they drew (for explorers)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array
from bmc.plotting._style import ROLES

__all__ = ["estimates_against_truth"]


def __dir__() -> list[str]:
    return sorted(__all__)


def estimates_against_truth(
    t: ArrayLike,
    truth: ArrayLike,
    estimates: dict[str, dict],
    *,
    titles: list[str] | tuple[str, ...],
    ylabel: str,
    margin: float = 0.3,
    axes=None,
):
    """One panel per joint: the true signal and estimate lines that an explorer updates.

    The estimate lines start as copies of the truth; an explorer moves them with
    ``line.set_ydata``. The y-limits are fixed at the truth's range widened by ``margin`` on
    both sides, so that the view stays put while the estimates change.

    Parameters
    ----------
    t : array_like, shape (N,)
        Time [s].
    truth : array_like, shape (N, k)
        True signals, one column per panel (unit given in ``ylabel``).
    estimates : dict of str to dict
        Legend label of each estimate and the keyword arguments of its line
        (:meth:`matplotlib.axes.Axes.plot`), in drawing order.
    titles : sequence of str
        One panel title per column of ``truth`` (keyword-only).
    ylabel : str
        Label of the first panel's y-axis, with unit, e.g. ``"joint torque [N m]"``.
    margin : float, optional
        Extra y-range above and below the truth, as a fraction of its range. Default 0.3.
    axes : sequence of matplotlib.axes.Axes, optional
        ``k`` Axes to draw in; a new row of ``k`` panels is made when omitted.

    Returns
    -------
    axes : sequence of matplotlib.axes.Axes
        The panels.
    lines : dict of str to list of matplotlib.lines.Line2D
        For each label of ``estimates``, its line in every panel.
    """
    t = as_array(t, "t", unit="s", ndim=1)
    truth = as_array(truth, "truth", ndim=2)
    k = truth.shape[1]
    if truth.shape[0] != t.shape[0]:
        raise ValueError(
            f"truth must have one row per time sample ({t.shape[0]}); got shape {truth.shape}"
        )
    if len(titles) != k:
        raise ValueError(f"titles must name the {k} columns of truth; got {len(titles)}")
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, k, figsize=(3.5 * k, 3.4), sharex=True, squeeze=False)
        axes = axes[0]
    elif len(axes) != k:
        raise ValueError(f"axes must hold {k} Axes, one per column of truth; got {len(axes)}")
    lines: dict[str, list] = {label: [] for label in estimates}
    for j, ax in enumerate(axes):
        ax.plot(t, truth[:, j], color=ROLES["truth"], linewidth=2.0, label="true")
        for label, style in estimates.items():
            lines[label].append(ax.plot(t, truth[:, j], label=label, **style)[0])
        span = np.ptp(truth[:, j]) or 1.0  # a constant truth still gets a visible range
        ax.set_ylim(truth[:, j].min() - margin * span, truth[:, j].max() + margin * span)
        ax.set_xlabel("time [s]")
        ax.set_title(titles[j])
    axes[0].set_ylabel(ylabel)
    axes[0].legend(loc="lower left", fontsize="small")
    return axes, lines
