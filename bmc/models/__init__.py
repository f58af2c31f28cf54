"""Worked models and generated trials, built on the core (sympy's ``models.py`` pattern).

Each submodule is one model of the course, with the trial generated on it:

- :mod:`bmc.models.arm`: the arm of the course's subject, upper arm and forearm + hand
  (notebooks 1 and 2);
- :mod:`bmc.models.double_pendulum`: the source's double pendulum of uniform rods in the
  matrix form ``M qdd = C + G + Q`` and its explicit Euler integration (notebook 3);
- :mod:`bmc.models.stance`: a synthetic 3D stance of foot and shank (notebook 3);
- :mod:`bmc.models.human`: Blajer and Czaplicki's seven-segment planar human model and its
  leg-only closed form, eq. (3.3) (notebook 5);
- :mod:`bmc.models.somersault`: a generated back somersault on that model (notebook 5);
- :mod:`bmc.models.standing`: Kuo's four-segment standing body, its simulated sway and the
  noisy measurement of it (notebook 6);
- :mod:`bmc.models.running_norms`: published joint moments of running, quoted cell by cell
  from their tables, to read a trial against (notebook 4).

The formulation modules (:mod:`bmc.newton_euler`, :mod:`bmc.matrix_form`,
:mod:`bmc.reactions`, :mod:`bmc.least_squares`) never import this package: they take any
model. Submodules load on first use, like those of :mod:`bmc`.
"""

from __future__ import annotations

import importlib

__all__ = ["arm", "double_pendulum", "human", "running_norms", "somersault", "stance",
           "standing"]


def __getattr__(name: str):
    """Load the submodules lazily (PEP 562)."""
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'bmc.models' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
