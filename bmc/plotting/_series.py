"""Plot helpers that draw into given Axes and return what they drew (for explorers)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array, integer, positive
from bmc.plotting._style import ROLES

__all__ = ["estimates_against_truth", "legend_outside"]


def __dir__() -> list[str]:
    return sorted(__all__)


def legend_outside(ax, handles=None, *, side: str = "below", ncol: int | None = None,
                   **kwargs):
    """Put the legend of ``ax`` outside it, where it covers no curve.

    A legend inside the axes hides part of what is plotted (or an arrow, or a label); this
    one sits below the axes, under the x tick labels and the x label, or to the right of
    the axes. Layout engines (``layout="constrained"``, ``tight_layout``) and the inline
    backend's cropping make room for it.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The Axes whose lines (or ``handles``) the legend names.
    handles : list of matplotlib.artist.Artist, optional
        What to list; default every labelled artist of ``ax``.
    side : {"below", "right"}, optional
        Where to put it. Default ``"below"``.
    ncol : int, optional
        Columns; default all entries in one row below (at most 3), one column right.
    **kwargs
        More options of :meth:`matplotlib.axes.Axes.legend`.

    Returns
    -------
    matplotlib.legend.Legend

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from bmc.plotting import legend_outside
    >>> fig, ax = plt.subplots(layout="constrained")
    >>> _ = ax.plot([0, 1], [0, 1], label="hip")
    >>> _ = ax.plot([0, 1], [1, 0], "--", label="knee")
    >>> legend_outside(ax).get_texts()[1].get_text()
    'knee'
    >>> plt.close(fig)
    """
    from matplotlib.transforms import ScaledTranslation

    if side not in ("below", "right"):
        raise ValueError(f'side must be "below" or "right"; got {side!r}')
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be Matplotlib axes (fig, ax = plt.subplots()); got "
                        f"{type(ax).__name__} {str(ax)[:60]!r}")
    if ncol is not None:  # a huge count allocated gigabytes inside Matplotlib
        ncol = integer(ncol, "ncol", minimum=1, maximum=20, what="columns of the legend")
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    fig = ax.figure
    if side == "below":  # 0.45 in under the axes: below tick labels and the x label
        where = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0),
                 "bbox_transform": ax.transAxes + ScaledTranslation(0.0, -0.45,
                                                                     fig.dpi_scale_trans),
                 "ncol": ncol or max(1, min(len(handles), 3))}
    else:
        where = {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0),
                 "bbox_transform": ax.transAxes + ScaledTranslation(0.1, 0.0,
                                                                     fig.dpi_scale_trans),
                 "ncol": ncol or 1}
    return ax.legend(handles=handles, **({"frameon": False, "fontsize": "small"} | where
                                         | kwargs))


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
    both sides, so that the view stays put while the estimates change. The legend sits
    below the middle panel (:func:`legend_outside`), where it covers no curve; give each
    estimate its own line style (:func:`series_style`), not only its own colour.

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
    from collections.abc import Mapping

    if not isinstance(estimates, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Mapping) for k, v in estimates.items()):
        raise TypeError("estimates must map each legend label (str) to the keyword arguments "
                        "of its line (a dict, e.g. {'linestyle': '--'}); got "
                        f"{type(estimates).__name__} {str(estimates)[:60]}")
    t = as_array(t, "t", unit="s", ndim=1)
    truth = as_array(truth, "truth", ndim=2)
    k = truth.shape[1]
    if truth.shape[0] != t.shape[0]:
        raise ValueError(
            f"truth must have one row per time sample ({t.shape[0]}); got shape {truth.shape}"
        )
    if len(titles) != k:
        raise ValueError(f"titles must name the {k} columns of truth; got {len(titles)}")
    margin = positive(margin, "margin", allow_zero=True)
    if margin > 10:  # the truth in less than a twentieth of the panel: a percentage?
        raise ValueError(f"margin must be a fraction of the truth's range, 0 to 10 (0.3 is "
                         f"30 %); got {margin:g}: pass {margin / 100:g} if you meant percent")
    if axes is None:  # at most 7.2 in wide: text stays 8 pt or more at 600 px
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, k, figsize=(min(7.2, 2.6 * k), 3.6), sharex=True,
                               squeeze=False)  # the caller lays it out (tight_layout)
        axes = axes[0]
    elif len(axes) != k:
        raise ValueError(f"axes must hold {k} Axes, one per column of truth; got {len(axes)}")
    lines: dict[str, list] = {label: [] for label in estimates}
    for j, ax in enumerate(axes):
        ax.plot(t, truth[:, j], color=ROLES["truth"], linewidth=2.0, label="true")
        for label, style in estimates.items():
            lines[label].append(ax.plot(t, truth[:, j], label=label, **style)[0])
        span = np.ptp(truth[:, j]) or 1.0  # a constant truth still gets a visible range
        pad = margin * span if margin * span > 0 else 0.5 * span  # also with margin 0
        ax.set_ylim(truth[:, j].min() - pad, truth[:, j].max() + pad)
        ax.set_xlabel("time [s]")
        ax.set_title(titles[j])
    axes[0].set_ylabel(ylabel)
    legend_outside(axes[len(axes) // 2], axes[0].get_legend_handles_labels()[0],
                   ncol=len(estimates) + 1)
    return axes, lines
