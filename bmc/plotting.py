"""Plot helpers shared by the notebooks.

Helpers draw into given Axes and return what they drew, so that a notebook or an explorer
can compose figures. Importing this module does not change Matplotlib's
global state: styling is opt-in through :func:`use_style`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array

__all__ = ["STYLE", "estimates_against_truth", "show", "use_style"]


def __dir__() -> list[str]:
    return sorted(__all__)


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


def show(figure=None, *, alt: str | None = None, caption: str | None = None) -> None:
    """Show a figure in the notebook with its text alternative, then close it.

    Every figure of the course carries a text alternative: what is drawn and the key values,
    for a reader who cannot see it (WCAG 2.1, success criterion 1.1.1). The figure is shown
    as a PNG whose output metadata holds ``alt`` (and ``caption``); its plain-text form, what
    a screen reader or a text-only viewer meets, is the same text.

    Parameters
    ----------
    figure : matplotlib.figure.Figure or bmc.drawing.Drawing, optional
        The figure to show, or a drawing (its figure is shown and, unless ``alt`` is given,
        its :meth:`~bmc.drawing.Drawing.describe` is the text alternative). Default: the
        current figure.
    alt : str, optional
        The text alternative: what the figure shows, with its key numbers and units.
        Required unless ``figure`` is a drawing.
    caption : str, optional
        A one-line caption, kept with the figure (the course website prints it below).

    Raises
    ------
    TypeError
        If ``figure`` is neither a figure nor a drawing, or no text alternative is given.
    """
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    describe = getattr(figure, "describe", None)
    if figure is not None and not isinstance(figure, Figure) and callable(describe):
        text = alt if alt is not None else describe()
        figure = figure.ax.figure
    else:
        text = alt
    if figure is None:
        figure = plt.gcf()
    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a Matplotlib Figure or a bmc.drawing.Drawing; got "
                        f"{type(figure).__name__}")
    if not isinstance(text, str) or not text.strip():
        raise TypeError("alt must be a sentence saying what the figure shows, with its key "
                        "values and units (the text alternative a screen reader reads); "
                        f"got {text!r}")
    try:
        from IPython import get_ipython
        from IPython.display import publish_display_data
    except ImportError:  # plain Python: nothing to display into
        plt.close(figure)
        return
    shell = get_ipython()
    if shell is None:
        plt.close(figure)
        return
    data, metadata = shell.display_formatter.format(figure)
    data = {k: v for k, v in data.items() if k.startswith("image/")}
    data["text/plain"] = text.strip()
    extra = {"alt": text.strip()} | ({"caption": caption.strip()} if caption else {})
    for mime in data:
        if mime.startswith("image/"):
            metadata[mime] = dict(metadata.get(mime, {})) | extra
    publish_display_data(data=data, metadata=metadata)
    plt.close(figure)


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
        ax.plot(t, truth[:, j], color="k", linewidth=2.0, label="true")
        for label, style in estimates.items():
            lines[label].append(ax.plot(t, truth[:, j], label=label, **style)[0])
        span = np.ptp(truth[:, j]) or 1.0  # a constant truth still gets a visible range
        ax.set_ylim(truth[:, j].min() - margin * span, truth[:, j].max() + margin * span)
        ax.set_xlabel("time [s]")
        ax.set_title(titles[j])
    axes[0].set_ylabel(ylabel)
    axes[0].legend(loc="lower left", fontsize="small")
    return axes, lines
