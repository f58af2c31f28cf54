"""Plot helpers shared by the notebooks.

Every helper takes ``ax=None`` (a new figure is made when omitted) and returns the Axes, so
that a notebook can compose figures. Importing this module does not change Matplotlib's
global state: styling is opt-in through :func:`use_style`.
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from bmc._validation import as_array

__all__ = ["STYLE", "stick_figure", "time_series", "use_style"]

STYLE: dict[str, object] = {
    "figure.figsize": (7.0, 3.6),
    "figure.dpi": 90,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "font.size": 10,
}
"""The course's Matplotlib settings (applied only by :func:`use_style`)."""


def use_style() -> None:
    """Apply the course's Matplotlib style (opt-in; nothing is changed on import)."""
    import matplotlib as mpl

    mpl.rcParams.update(STYLE)


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax


def time_series(
    t: ArrayLike,
    y: ArrayLike,
    *,
    labels: list[str] | None = None,
    ylabel: str = "",
    xlabel: str = "time [s]",
    ax=None,
    **kwargs,
):
    """Plot one or several signals against time.

    Parameters
    ----------
    t : array_like, shape (N,)
        Time [s].
    y : array_like, shape (N,) or (N, k)
        Signals, time on axis 0 (unit given in ``ylabel``).
    labels : list of str, optional
        One legend entry per column of ``y``.
    ylabel, xlabel : str, optional
        Axis labels with units, for example ``"moment [N m]"``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure is made when omitted.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot`.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn in.
    """
    t = as_array(t, "t", unit="s", ndim=1)
    y = as_array(y, "y", ndim=(1, 2))
    if y.shape[0] != t.shape[0]:
        raise ValueError(
            f"y must have one row per time sample ({t.shape[0]}); got shape {y.shape}"
        )
    y2 = y.reshape(t.shape[0], -1)
    if labels is not None and len(labels) != y2.shape[1]:
        raise ValueError(f"labels must have {y2.shape[1]} entries; got {len(labels)}")
    ax = _axes(ax)
    lines = ax.plot(t, y2, **kwargs)
    if labels is not None:
        for line, label in zip(lines, labels, strict=True):
            line.set_label(label)
        ax.legend()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return ax


def stick_figure(points: ArrayLike, *, ax=None, **kwargs):
    """Draw one frame of a planar chain as connected joints.

    Parameters
    ----------
    points : array_like, shape (k, 2)
        Joint positions ``x, y`` [m], in order along the chain.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in; a new figure is made when omitted.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` (default: black line with round markers).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn in, with equal scaling and metre labels.
    """
    points = as_array(points, "points", unit="m", last=2, ndim=2)
    ax = _axes(ax)
    style = {"color": "k", "marker": "o", "linewidth": 2} | kwargs
    ax.plot(points[:, 0], points[:, 1], **style)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    return ax
