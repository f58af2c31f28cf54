"""Pictures drawn from the model objects: free-body diagrams, model sketches, strobes.

Every picture is computed from the same numbers as the equations (a
:class:`bmc.chain.PlanarChain` and its joint coordinates, or plain arrays of points and
forces), so a figure can never disagree with the computation, and tests can check what is
drawn. Every function takes ``ax=None`` (a new figure is made) and returns a
:class:`Drawing`: the Axes plus a record of what was drawn (arrows with their force vectors,
moments with their sense of rotation, the points, the labels).

Conventions are those of the course: x forward, y up, counter-clockwise angles and moments
positive; ``q[0]`` is the first segment's angle from the horizontal, ``q[i]`` the angle of
segment ``i+1`` relative to segment ``i``. Forces are drawn *on* the segment, each arrow's
tail at its point of application; its length is ``force_scale`` [m/N] times the force.

Matplotlib (and, for :func:`animation`, the browser-drawn player of
:func:`bmc.widgets.animation.player`) are imported inside the functions.

- :func:`free_body_diagram`: a segment of a chain, loads computed by Newton-Euler.
- :func:`segment_diagram`: the same picture from explicit points, forces and moments
  (a 3D segment projected on the sagittal plane, any other model).
- :func:`lower_limb_diagrams`: thigh, shank and foot of a gait analysis
  (:func:`bmc.newton_euler.lower_limb`) with the ground reaction.
- :func:`model_sketch`: a chain or tree with joints, segment numbers, centres of mass, angles
  and the direction of gravity.
- :func:`strobe`: overlaid postures over time, fading by time, optional path and force.
- :func:`animation`: a Play widget stepping through the postures, drawn by the browser
  from poses sent once; its static form (a saved page without a kernel) is the strobe.
"""

from __future__ import annotations

from bmc.drawing._base import Arrow, Drawing, Moment
from bmc.drawing.diagrams import free_body_diagram, lower_limb_diagrams, segment_diagram
from bmc.drawing.motion import Animation, animation, strobe
from bmc.drawing.sketch import model_sketch

__all__ = [
    "Animation",
    "Arrow",
    "Drawing",
    "Moment",
    "animation",
    "free_body_diagram",
    "lower_limb_diagrams",
    "model_sketch",
    "segment_diagram",
    "strobe",
]


def __dir__() -> list[str]:
    return sorted(__all__)
