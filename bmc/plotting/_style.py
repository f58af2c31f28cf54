"""The course's colours, line styles and Matplotlib settings."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

__all__ = ["LINESTYLES", "MARKERS", "PALETTE", "ROLES", "STYLE", "cycle", "series_style",
           "use_style"]


def __dir__() -> list[str]:
    return sorted(__all__)


PALETTE: tuple[str, ...] = ("#0072B2", "#D55E00", "#009E73", "#AA3377", "#000000")
"""The course's five series colours, in the order they are used.

Blue, vermillion and bluish green of Okabe and Ito's palette for colour-vision deficiency
(Wong 2011), Tol's purple (a darker purple than Okabe-Ito's, for contrast), and black. Each
has a contrast ratio of at least 3.4:1 against white (WCAG 2.1, 1.4.11, asks 3:1 for the
lines of a graph); every pair differs by at least 15 units of CAM02-UCS colour distance under
simulated deuteranopia and protanopia (Machado et al. 2009, full severity;
``tests/test_palette.py``). Colour is never the only cue: :data:`LINESTYLES` pairs a line
style with each colour.
"""

LINESTYLES: tuple = ("-", "--", "-.", ":", (0, (8, 2, 2, 2, 2, 2)))
"""Line styles paired with :data:`PALETTE`: solid, dashed, dash-dot, dotted, dash-dot-dot."""

MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v")
"""Markers paired with :data:`PALETTE`, for series drawn as points (or sparse markers)."""

ROLES = MappingProxyType({
    "force": "#D55E00",        # joint, contact and ground reaction forces (vermillion)
    "weight": "#0072B2",       # weights and the direction of g (blue)
    "moment": "#AA3377",       # joint moments (purple)
    "angle": "#009E73",        # angle arcs (bluish green)
    "truth": "#000000",        # the true or reference signal
    "guide": "#707070",        # lever arms, reference directions, paths (grey, dashed)
    "segment": "#DDE6F0",      # segment fill
    "segment_edge": "#4A5A6A",  # segment outline
})
"""Colours with a fixed meaning in the course's drawings (read-only mapping of role to hex).

The drawings of :mod:`bmc.drawing` use them; loads are told apart by their shape (straight
or curved arrow) and their label as well, never by colour alone.
"""

STYLE: dict[str, object] = {
    "figure.figsize": (7.0, 3.6),
    "figure.dpi": 90,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "font.size": 10,
    "lines.linewidth": 1.8,
}
"""The course's Matplotlib settings (applied, with :func:`cycle`, only by :func:`use_style`).

A figure 7 in wide with 10 pt text shows its text at 8.9 pt when the course website scales
it to 600 px (the smallest the site shows at full width); "small" legend text (8.3 pt) at
7.4 pt. Keep figures at most about 7 in wide (:func:`bmc.plotting.check_figure` fails text
below 7 pt at 600 px).
"""


def cycle(*, markers: bool = False):
    """Return the course's property cycle: each colour with its own line style (and marker).

    Parameters
    ----------
    markers : bool, optional
        Add :data:`MARKERS` to the cycle (for series drawn with markers). Default ``False``.

    Returns
    -------
    cycler.Cycler
        ``color`` and ``linestyle`` (and ``marker``) zipped: five entries, then it repeats.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from bmc import plotting
    >>> fig, ax = plt.subplots()
    >>> ax.set_prop_cycle(plotting.cycle())
    >>> [line.get_linestyle() for line in ax.plot([[0, 1, 2], [1, 2, 3]])]
    ['-', '--', '-.']
    >>> plt.close(fig)
    """
    from cycler import cycler

    if not isinstance(markers, (bool, np.bool_)):
        raise TypeError(f"markers must be True or False; got {type(markers).__name__} "
                        f"{markers!r}")
    out = cycler(color=list(PALETTE)) + cycler(linestyle=list(LINESTYLES))
    if markers:
        out += cycler(marker=list(MARKERS))
    return out


def series_style(index: int, *, marker: bool = False) -> dict:
    """Keyword arguments of :meth:`matplotlib.axes.Axes.plot` for the ``index``-th series.

    For code that styles its lines itself (explorers, lines added one at a time): series
    ``index`` gets the colour and line style (and marker) of the course's :func:`cycle`.

    Parameters
    ----------
    index : int
        Position of the series (0 for the first); it wraps after five.
    marker : bool, optional
        Add the series' marker. Default ``False``.

    Returns
    -------
    dict
        ``{"color": ..., "linestyle": ...}`` (and ``"marker"``).

    Examples
    --------
    >>> from bmc.plotting import series_style
    >>> series_style(1)
    {'color': '#D55E00', 'linestyle': '--'}
    """
    from bmc._validation import integer

    k = integer(index, "index", minimum=0, what="position of the series") % len(PALETTE)
    if not isinstance(marker, (bool, np.bool_)):
        raise TypeError(f"marker must be True or False; got {type(marker).__name__} "
                        f"{marker!r}")
    style = {"color": PALETTE[k], "linestyle": LINESTYLES[k]}
    if marker:
        style["marker"] = MARKERS[k]
    return style


def use_style() -> None:
    """Apply the course's Matplotlib style and its colour and line-style cycle.

    Opt-in: importing :mod:`bmc` changes nothing. Sets :data:`STYLE` and the property cycle
    :func:`cycle`, so that successive lines differ in colour *and* line style.
    """
    import matplotlib as mpl

    mpl.rcParams.update(STYLE)
    mpl.rcParams["axes.prop_cycle"] = cycle()
