"""What-if explorers for the notebooks, one module per notebook.

Every explorer follows one pattern (see :func:`bmc.widgets.explorer`): the figure and its
artists are built once, the sliders only update the artists' data, and the same function has
a non-interactive path (``interactive=False``) that applies one set of values and returns
the figure, so that a script or a test can run it without a browser. The notebooks use the inline
backend only (one backend per notebook).

In the notebook the browser draws the figures from data (an anywidget canvas: only the
artists that changed are sent after each slider move); ``renderer="png"`` or the
environment variable ``BMC_WIDGETS_RENDERER=png`` selects the previous inline-PNG path.
Every explorer's output also carries a PNG of the figure at the default values, which
static pages show. :func:`bmc.widgets.animation.player` plays stick-figure poses on the
same browser-side path.

The submodules import ipywidgets and matplotlib when they are loaded, not before.
"""

from __future__ import annotations

import importlib

from bmc.widgets._base import cache_key, explorer, slider_values
from bmc.widgets._warm import warm_up

_MODULES = (
    "animation", "gait_inverse_dynamics", "joint_reactions", "least_squares_inverse_dynamics",
    "matrix_formalism", "one_link", "two_link",
)

__all__ = ["cache_key", "explorer", "slider_values", "warm_up", *_MODULES]


def __dir__() -> list[str]:
    return sorted(__all__)


def __getattr__(name: str):
    if name in _MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'bmc.widgets' has no attribute {name!r}")
