"""Figures of the course: style and palette, showing with a text alternative, checking.

Importing this package does not change Matplotlib's global state: styling is opt-in
through :func:`use_style`. Public names are flat in ``bmc.plotting``:

- **Style**: :data:`PALETTE` (five colours that stay apart under colour-vision deficiency),
  :data:`LINESTYLES` and :data:`MARKERS` paired with them, :func:`cycle` (the property cycle
  colour + line style), :func:`series_style` (the keyword arguments of one series, for code
  that styles lines itself), :data:`ROLES` (the fixed colours of forces, weights, moments
  and angles in the drawings), :data:`STYLE` and :func:`use_style`.
- **Showing**: :func:`show` displays a figure with its text alternative (``alt``) and
  caption; :func:`describe_figure` writes what a figure made from data plots (axes, units,
  each line's extremes) for a hand-written ``alt`` to include; :func:`figure_html` is the
  ``<figure>`` (picture, ``alt``, caption) that ``show`` emits.
- **Checking**: :func:`check_figure` finds overlapping text, text over drawn lines and
  segments, text below 7 pt at 600 px, free-body diagrams that draw action and reaction
  alike, and series told apart by colour alone (:func:`colour_distances`); ``show`` runs it
  when the environment variable ``BMC_FIGURE_CHECK`` is ``"error"`` or ``"warn"``.
- **Helpers**: :func:`legend_outside` (a legend below or beside the axes, over no curve),
  :func:`estimates_against_truth` (the explorers' truth-and-estimates panels).
"""

from __future__ import annotations

from bmc.plotting._check import CVD_VISIONS, FigureProblem, check_figure, colour_distances
from bmc.plotting._describe import describe_figure
from bmc.plotting._series import estimates_against_truth, legend_outside
from bmc.plotting._show import (
    CHECK_VARIABLE,
    FigureWarning,
    cropped_png,
    figure_html,
    show,
    tight_png,
)
from bmc.plotting._style import (
    LINESTYLES,
    MARKERS,
    PALETTE,
    ROLES,
    STYLE,
    cycle,
    series_style,
    use_style,
)

__all__ = [
    "CHECK_VARIABLE",
    "CVD_VISIONS",
    "FigureProblem",
    "FigureWarning",
    "LINESTYLES",
    "MARKERS",
    "PALETTE",
    "ROLES",
    "STYLE",
    "check_figure",
    "colour_distances",
    "cropped_png",
    "cycle",
    "describe_figure",
    "estimates_against_truth",
    "figure_html",
    "legend_outside",
    "series_style",
    "show",
    "tight_png",
    "use_style",
]


def __dir__() -> list[str]:
    return sorted(__all__)
