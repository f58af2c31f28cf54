"""How the explorers tell their series apart: colour, and always a second cue.

Every series an explorer draws gets a colour *and* a line style or a marker (WCAG 2.1,
success criterion 1.4.1: colour is never the only visual means of telling two series
apart). The colours live here only, so that the course palette (``bmc.plotting``) can
replace them in one place.
"""

from __future__ import annotations

__all__ = ["AXES_XYZ", "MARKERS", "NEUTRAL", "SERIES", "TOTAL", "series"]


def __dir__() -> list[str]:
    return sorted(__all__)

_COLORS = ("C0", "C1", "C2", "C3")
_LINESTYLES = ("--", "-.", ":", "-")

SERIES = tuple({"color": c, "linestyle": ls} for c, ls in zip(_COLORS, _LINESTYLES,
                                                              strict=True))
"""Line styles of up to four parts of a sum (colour and dash pattern both differ)."""

TOTAL = {"color": "k", "linestyle": "-", "linewidth": 2.0}
"""The sum of the parts, or the quantity the parts add up to: solid, black, thicker."""

NEUTRAL = "0.45"
"""Grey for context that is not a series (the bed's force, the global axes)."""

MARKERS = ("o", "s", "^", "D")
"""Markers that tell series of one colour family apart (hip, knee, ankle)."""

AXES_XYZ = ({"color": "C3", "linestyle": "-", "marker": "o"},
            {"color": "C2", "linestyle": "--", "marker": "s"},
            {"color": "C0", "linestyle": ":", "marker": "^"})
"""A frame's x, y and z axes: red, green, blue by convention, with a dash and a tip marker."""


def series(k: int, **extra: object) -> dict:
    """Return the style of the ``k``-th series (colour and line style) and ``extra``.

    Parameters
    ----------
    k : int
        Index of the series, 0 to 3.
    **extra
        More keyword arguments of :meth:`matplotlib.axes.Axes.plot` (``linewidth``, ...).

    Returns
    -------
    dict
        Keyword arguments for :meth:`matplotlib.axes.Axes.plot`.
    """
    return {**SERIES[k], **extra}
