"""Physical constants of the course, each written once with its provenance.

Examples
--------
>>> from bmc.constants import G, STANDARD_GRAVITY
>>> G, STANDARD_GRAVITY
(9.81, 9.80665)
"""

from __future__ import annotations

__all__ = ["G", "STANDARD_GRAVITY"]


def __dir__() -> list[str]:
    return sorted(__all__)


#: Acceleration of free fall of the course's models [m/s^2], acting along -y: the standard
#: value (:data:`STANDARD_GRAVITY`) to three significant figures, as Winter (2009) and the
#: source notebooks write it. Every model of the core and of :mod:`bmc.models` defaults to it.
G = 9.81

#: Standard acceleration of free fall [m/s^2], exact by definition (3rd CGPM, 1901; ISO
#: 80000-3). It is the value the course's *data* were produced with, so their inverse
#: dynamics use it: van den Bogert's simulated running of notebook 4
#: (:func:`bmc.newton_euler.lower_limb`) and the synthetic 3D stance of notebook 3
#: (:mod:`bmc.models.stance`, :mod:`bmc.matrix_form`, :func:`bmc.newton_euler.invdyn3d`).
STANDARD_GRAVITY = 9.80665
