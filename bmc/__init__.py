"""bmc: executable courseware on the dynamics of human movement.

Conventions, stated once for the whole package
----------------------------------------------
- SI units everywhere: m, kg, s, N, N m, rad.
- Planar frame: x forward, y up, z out of the plane; gravity ``g > 0`` acts along -y.
- Angles in radians, counter-clockwise positive.
- **Axis 0 is time.** Every function accepts a single frame, shape ``(...)``, or ``N``
  frames, shape ``(N, ...)``, and broadcasts.

Importing ``bmc`` is cheap: it imports NumPy only. Submodules (and the heavy libraries they
need: SciPy, SymPy, Matplotlib, ipywidgets) load on first use, so ``bmc.chain`` or
``bmc.PlanarChain`` work without an explicit ``import bmc.chain``.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("bmc")
except PackageNotFoundError:  # pragma: no cover - only when run from a bare source tree
    __version__ = "0+unknown"

_SUBMODULES = (
    "anthropometry",
    "chain",
    "checks",
    "constants",
    "datasets",
    "drawing",
    "kinematics",
    "least_squares",
    "matrix_form",
    "models",
    "muscles",
    "newton_euler",
    "planar",
    "plotting",
    "precomputed",
    "reactions",
    "rotations",
    "signals",
    "simulate",
    "symbolic",
    "tree",
    "widgets",
)
# Names promoted to the top level, and the submodule that defines each.
_PROMOTED = {
    "PlanarChain": "chain",
    "PlanarModel": "planar",
    "invdyn2d": "newton_euler",
}

__all__ = ["__version__", *sorted(_PROMOTED), *_SUBMODULES]


def __getattr__(name: str) -> object:
    """Load submodules and promoted names lazily (PEP 562)."""
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _PROMOTED:
        module = importlib.import_module(f"{__name__}.{_PROMOTED[name]}")
        return getattr(module, name)
    raise AttributeError(f"module 'bmc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
