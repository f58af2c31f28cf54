r"""A planar tree of rigid segments on a floating base, in augmented joint coordinates.

:class:`PlanarTree` is Blajer and Czaplicki's (2005) kind of :class:`bmc.planar.PlanarModel`:
a floating base and every segment's angle measured from the vertical, up or down. Its
kinematics and dynamics are the planar model's (written once for every model); this class
holds only the parameters and the meaning of the coordinates. :mod:`bmc.reactions` (joint
reactions by the augmented joint coordinate method) works on it, as on any planar model. It
is described in three sets of coordinates:

- **absolute coordinates** ``p = [x_1, y_1, theta_1, ..., x_n, y_n, theta_n]`` (length
  ``3n``): the centre of mass (COM) and the orientation of every segment;
- **generalised (joint) coordinates** ``q = [x_B, y_B, phi_1, ..., phi_n]`` (length
  ``k = n + 2``): a base point (the proximal end of the root segment) and the absolute angle
  of every segment;
- **open-constraint coordinates** ``z`` (length ``m = 2(n - 1)``): the relative translations
  that the pin joints prohibit, two per joint (x, y), zero for a real motion.

The augmented map ``p = p(q, z)`` gives ``D = dp/dq`` and ``Z = dp/dz`` at ``z = 0``, and
``pddot = D qddot + gamma`` with ``gamma = Ddot qdot``. (Blajer and Czaplicki write
``g(q, z)`` and ``E``; the course keeps ``g`` for gravity and ``E`` for the external term.)

Conventions: SI units; x forward, y up; gravity ``g > 0`` along -y; angles in radians,
counter-clockwise positive; **axis 0 is time** (every method takes one frame or ``N``).
Segment ``i`` has a unit axis ``e_i = s_i (-sin phi_i, cos phi_i)`` pointing from its
proximal joint to its distal end, with ``s_i = +1`` for segments that point up at
``phi_i = 0`` (trunk, head) and ``-1`` for segments that hang down (limbs).

The positions of the tree's points are sums of rotating vectors, ``r_i = r_B + sum_k L_ik
e_k``; the lever matrices ``L`` (:attr:`PlanarTree.lever`, :attr:`PlanarTree.com_lever`) and
the joint paths (:attr:`PlanarTree.path`) are public so that models built on the tree (for
example :mod:`bmc.models.somersault`) use them instead of rebuilding them; their velocities
and accelerations come from :func:`bmc.kinematics.lever_kinematics`, the one copy of planar
chain kinematics.

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from bmc._validation import as_array
from bmc.constants import G
from bmc.planar import InverseDynamics, PlanarModel

__all__ = ["InverseDynamics", "PlanarTree"]


def __dir__() -> list[str]:
    return sorted(__all__)


class PlanarTree(PlanarModel):
    """A planar tree of rigid segments joined by pin joints (floating base).

    Segment 0 is the root; its proximal end is the base point ``(q[0], q[1])``. Every other
    segment ``i`` hangs from its parent at a pin joint, its *proximal joint*, which is joint
    ``i - 1`` (so joint ``j`` links segment ``j + 1`` to its parent).

    Parameters
    ----------
    names : sequence of str
        Segment names, root first.
    parent : sequence of int
        Parent index of each segment (``-1`` for the root); parents come before children.
    attach : array_like, shape (n,)
        Distance along the parent's axis from the parent's proximal end to this segment's
        proximal joint [m] (ignored for the root).
    direction : array_like, shape (n,)
        ``+1`` if the segment's axis points up at zero angle, ``-1`` if it hangs down.
    lengths : array_like, shape (n,)
        Segment lengths from the proximal joint to the distal end [m].
    com : array_like, shape (n,)
        Distance of the COM from the proximal joint along the axis [m].
    masses : array_like, shape (n,)
        Segment masses [kg].
    inertias : array_like, shape (n,)
        Moments of inertia about each COM, z axis [kg m^2].
    g : float, optional
        Acceleration of free fall [m/s^2] (keyword-only, default :data:`bmc.constants.G`).
    joint_names : sequence of str, optional
        Names of the ``n - 1`` joints (default ``"joint1"``, ...).

    Attributes
    ----------
    lever : numpy.ndarray, shape (n, n)
        ``L[i, k]`` [m]: distance along the axis ``e_k`` of ancestor ``k`` from its proximal
        end to the next joint on the path from the base to segment ``i``, so that segment
        ``i``'s proximal joint is ``r_B + sum_k L[i, k] e_k`` (read-only).
    com_lever : numpy.ndarray, shape (n, n)
        ``lever + diag(com)`` [m]: the same for the centres of mass (read-only).
    path : numpy.ndarray, shape (n, n - 1)
        ``path[i, j] = 1`` if joint ``j`` lies on the path from the base to segment ``i``,
        else 0 (read-only); the translation pattern of ``Z`` (the paper's ``E``, eq. 3.2).
    torque_map : numpy.ndarray, shape (n, n - 1)
        Moment [N m] of a unit torque at each joint on each segment: ``+1`` on the child,
        ``-1`` on the parent (read-only).

    Examples
    --------
    A double pendulum hanging from a floating base (two rods of 1 m, 1 kg):

    >>> tree = PlanarTree(["upper", "lower"], [-1, 0], [0, 1.0], [-1, -1], [1.0, 1.0],
    ...                   [0.5, 0.5], [1.0, 1.0], [1 / 12, 1 / 12])
    >>> tree.n, tree.k, tree.m
    (2, 4, 2)
    >>> np.round(tree.absolute_coordinates([0, 0, 0, np.pi / 2]), 3) + 0.0
    array([ 0.   , -0.5  ,  0.   ,  0.5  , -1.   ,  1.571])
    """

    def __init__(self, names: Sequence[str], parent: Sequence[int], attach: ArrayLike,
                 direction: ArrayLike, lengths: ArrayLike, com: ArrayLike,
                 masses: ArrayLike, inertias: ArrayLike, *, g: float = G,
                 joint_names: Sequence[str] | None = None) -> None:
        if isinstance(names, str) or not hasattr(names, "__iter__") or not all(
                isinstance(s, str) for s in names):
            raise TypeError(f"names must be a sequence of segment names (str); got {names!r}")
        names = tuple(names)
        if not names:
            raise ValueError("names must list at least one segment; got an empty sequence")
        up = as_array(direction, "direction", ndim=1)
        if up.shape != (len(names),) or not np.all(np.isin(up, (-1.0, 1.0))):
            raise ValueError(f"direction must be +1 or -1 per segment ({len(names)} values); "
                             f"got {direction!r}")
        up.setflags(write=False)
        self._direction = up
        # the planar model checks parents, shapes, signs and where each COM lies
        super().__init__(parent, attach, lengths, com, masses, inertias, floating=True,
                         zero_direction=up * (np.pi / 2), names=names,
                         joint_names=joint_names, g=g)
        if np.any(self.inertias <= 0):  # a limb segment of a person has inertia
            raise ValueError(f"inertias [kg m^2] must all be > 0, one value per segment; got "
                             f"{self.inertias.tolist()}")

    @property
    def direction(self) -> np.ndarray:
        """``+1`` for segments that point up at zero angle, ``-1`` for those that hang down."""
        return self._direction

    def joint_positions(self, q: ArrayLike) -> np.ndarray:
        """Proximal joint of every segment (the base for the root), shape (..., n, 2) [m]."""
        return self.proximal_positions(q)
