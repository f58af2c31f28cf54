r"""Blajer and Czaplicki's seven-segment planar human model, and its leg-only eq. (3.3).

:func:`human_model` builds the paper's model as a :class:`bmc.tree.PlanarTree`: trunk,
thighs, shanks, feet, upper arms, forearms with hands and head, joined at hip, knee, ankle,
shoulder, elbow and neck, the left and right limbs lumped together, with de Leva's (1996)
segment parameters scaled to the subject.

The paper's explicit hip, knee and ankle reactions, eq. (3.3), hold for this model's leg
only; they are written once, in ``_leg_equations``, and evaluated numerically by
:func:`leg_reactions` and symbolically by :func:`paper_formulas` (with the printed misprint
on request). The general formulas for any tree are in :mod:`bmc.reactions`.

Conventions as in :mod:`bmc.tree`: SI units; x forward, y up; gravity ``g > 0`` along -y;
angles in radians, counter-clockwise positive, measured from the vertical (notebook 5's
``psi_i``, the paper's ``phi_i``: from the upward vertical for trunk and head, the downward
vertical for the limbs); generalised coordinates ``q = [x_H, y_H, psi_1, ..., psi_7]`` (hip
position, segment angles); **axis 0 is time**. The force of the bed on the feet is
notebook 5's ``F_bed = (F_bed,x, F_bed,y)`` (the paper's ``R_x``, ``R_y``).

References
----------
.. [1] W. Blajer, A. Czaplicki, "An alternative scheme for determination of joint reaction
   forces in human multibody models", *Journal of Theoretical and Applied Mechanics* 43(4),
   813-824, 2005.
.. [2] P. de Leva, "Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters",
   *Journal of Biomechanics* 29(9), 1223-1230, 1996.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc import anthropometry as am
from bmc._validation import as_array, frames
from bmc.constants import G
from bmc.tree import PlanarTree

__all__ = ["CONTACT_FRACTION", "JOINTS", "SEGMENTS", "human_model", "leg_reactions",
           "leg_segments", "paper_formulas"]


def __dir__() -> list[str]:
    return sorted(__all__)


SEGMENTS = (  # the paper's seven segments, root first
    "trunk", "thigh", "shank", "foot", "upper_arm", "forearm_hand", "head")
JOINTS = ("hip", "knee", "ankle", "shoulder", "elbow", "neck")
CONTACT_FRACTION = 0.7  # contact point (ball of the foot) / foot length, from the ankle


def human_model(*, body_mass: float = 60.0, height: float = 1.70, sex: str = "male",
                g: float = G) -> PlanarTree:
    """Build the seven-segment planar human model of Blajer and Czaplicki (de Leva data).

    Segments (the paper's numbering): 1 trunk, 2 thighs, 3 shanks, 4 feet, 5 upper arms,
    6 forearms with hands, 7 head; joints hip (1-2), knee (2-3), ankle (3-4), shoulder
    (1-5), elbow (5-6), neck (1-7). Left and right limbs move together ("collateral"), so
    each limb segment carries the mass and inertia of both sides, and every limb reaction
    is the sum over both sides. Nine degrees of freedom: hip position and seven angles.

    Parameters
    ----------
    body_mass : float, optional
        Body mass [kg] (default 60).
    height : float, optional
        Body height [m] (default 1.70).
    sex : {"male", "female"}, optional
        Which column of de Leva's table (default ``"male"``).
    g : float, optional
        Acceleration of free fall [m/s^2].

    Returns
    -------
    PlanarTree

    Notes
    -----
    From :mod:`bmc.anthropometry`, de Leva (1996) Table 4, scaled to height: trunk from
    the mid-hip to C7 (``trunk_c7``), the shoulders on its axis at the ``trunk_shoulder``
    length; head from C7 to the vertex (``head_c7``); thigh (hip to knee joint centre);
    shank to the ankle joint centre (``shank_ankle``); upper arm; forearm and hand merged
    with :func:`bmc.anthropometry.combine`. The foot is a line from the ankle, of the foot's
    length, with its COM at de Leva's fraction from the heel (the ankle is placed above the
    heel, its height ignored). Inertias are for rotation in the sagittal plane, about the
    medio-lateral axis: de Leva's *transverse* radius of gyration (the reasoning is in
    :func:`bmc.anthropometry.segment`).

    The athlete faces +x: the foot points forward from the ankle (toes along +x at
    ``psi_4 = pi/2``) and the knee bends forward, the knee flexion being ``psi_2 - psi_3``.
    Joint torques of :mod:`bmc.reactions` act on the distal segment, counter-clockwise
    positive, so a **positive** torque is a hip *flexor*, a knee *extensor* and an ankle
    *dorsiflexor* moment; hip extensors, knee flexors and plantarflexors give negative
    torques.

    Examples
    --------
    >>> tree = human_model(body_mass=60.0, height=1.70)
    >>> tree.names[:4], tree.joint_names[:3]
    (('trunk', 'thigh', 'shank', 'foot'), ('hip', 'knee', 'ankle'))
    >>> round(tree.total_mass, 6)
    60.0
    """
    kw = {"body_mass": body_mass, "height": height, "table": "de_leva", "sex": sex,
          "axis": "mediolateral"}
    trunk = am.segment("trunk_c7", **kw)
    shoulder = am.segment("trunk_shoulder", **kw).length
    head = am.segment("head_c7", **kw)
    thigh = am.segment("thigh", **kw)
    shank = am.segment("shank_ankle", **kw)
    foot = am.segment("foot", **kw)
    upper = am.segment("upper_arm", **kw)
    fore = am.combine([am.segment("forearm", **kw), am.segment("hand", **kw)],
                      name="forearm_hand")
    # de Leva measures the trunk's and the head's COM from C7 and the vertex: flip to the
    # proximal joint (hip for the trunk, C7 for the head).
    segs = [(trunk, trunk.length - trunk.com, 1), (thigh, thigh.com, 2),
            (shank, shank.com, 2), (foot, foot.com, 2), (upper, upper.com, 2),
            (fore, fore.com, 2), (head, head.length - head.com, 1)]
    return PlanarTree(
        SEGMENTS, [-1, 0, 1, 2, 0, 4, 0],
        [0.0, 0.0, thigh.length, shank.length, shoulder, upper.length, trunk.length],
        [1, -1, -1, -1, -1, -1, 1],
        [s.length for s, _, _ in segs], [c for _, c, _ in segs],
        [s.mass * k for s, _, k in segs], [s.inertia * k for s, _, k in segs],
        g=g, joint_names=JOINTS)


# ------------------------------------------------------------------- eq. (3.3), the leg
def leg_segments(model: PlanarTree) -> tuple[int, int, int]:
    """Return the indices of thigh, shank and foot, checked against the paper's layout.

    Raises
    ------
    ValueError
        If the model has no thigh hanging from the root's base point, shank from the thigh
        and foot from the shank (all pointing down).
    """
    if not isinstance(model, PlanarTree):
        raise TypeError(f"model must be a PlanarTree (e.g. human_model()); got "
                        f"{type(model).__name__}")
    try:
        idx = tuple(model.names.index(s) for s in ("thigh", "shank", "foot"))
    except ValueError as exc:
        raise ValueError(f"the model needs segments 'thigh', 'shank', 'foot'; it has "
                         f"{model.names}") from exc
    th, sh, ft = idx
    ok = (model.parent[th] == 0 and model.attach[th] == 0.0 and model.parent[sh] == th
          and model.parent[ft] == sh and np.all(model.direction[list(idx)] == -1))
    if not ok:
        raise ValueError("eq. (3.3) needs thigh hanging from the base point of the root, "
                         "shank from the thigh, foot from the shank (direction -1)")
    return th, sh, ft


def _leg_equations(xdd: Any, ydd: Any, sin: tuple, cos: tuple, w: tuple, a: tuple,
                   m: tuple, c: tuple, l2: Any, l3: Any, g: Any, Rx: Any, Ry: Any, *,
                   misprint: bool = False) -> list:
    """Eq. (3.3): hip, knee and ankle reactions, for NumPy arrays and sympy symbols alike.

    ``sin``, ``cos``, ``w``, ``a`` hold, for thigh, shank and foot (the paper's segments
    2, 3, 4), the sine and cosine of the segment angle, its rate and its acceleration;
    ``m``, ``c`` their masses and COM distances; ``l2``, ``l3`` the thigh and shank lengths.
    """
    s2, s3, s4 = sin
    k2, k3, k4 = cos
    w2, w3, w4 = w
    a2, a3, a4 = a
    m2, m3, m4 = m
    c2, c3, c4 = c
    # accelerations of C2, C3, C4, written as in (3.3)
    ax2 = xdd + c2 * a2 * k2 - c2 * w2**2 * s2
    ax3 = xdd + l2 * a2 * k2 + c3 * a3 * k3 - l2 * w2**2 * s2 - c3 * w3**2 * s3
    ax4 = (xdd + l2 * a2 * k2 + l3 * a3 * k3 + c4 * a4 * k4 - l2 * w2**2 * s2
           - l3 * w3**2 * s3 - c4 * w4**2 * s4)
    ay2 = ydd + c2 * a2 * s2 + c2 * w2**2 * k2
    ay3 = ydd + l2 * a2 * s2 + c3 * a3 * s3 + l2 * w2**2 * k2 + c3 * w3**2 * k3
    ay4 = (ydd + l2 * a2 * s2 + l3 * a3 * s3 + c4 * a4 * s4 + l2 * w2**2 * k2
           + l3 * w3**2 * k3 + c4 * w4**2 * k4)
    # The paper prints "=" before c3 phi3dot^2 cos phi3 in lambda_4; read as "-" it is wrong.
    ay3_in_4 = (ay3 if not misprint else
                ydd + l2 * a2 * s2 + c3 * a3 * s3 + l2 * w2**2 * k2 - c3 * w3**2 * k3)
    return [Rx - m2 * ax2 - m3 * ax3 - m4 * ax4,
            Ry - (m2 + m3 + m4) * g - m2 * ay2 - m3 * ay3 - m4 * ay4,
            Rx - m3 * ax3 - m4 * ax4,
            Ry - (m3 + m4) * g - m3 * ay3_in_4 - m4 * ay4,
            Rx - m4 * ax4,
            Ry - m4 * g - m4 * ay4]


def leg_reactions(model: PlanarTree, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike,
                  contact_force: ArrayLike) -> np.ndarray:
    """Hip, knee and ankle reactions by the explicit formulas (3.3) of the paper.

    With the erratum corrected: in ``lambda_4`` the sign before ``c3 psi3dot^2 cos psi3``
    (the paper's ``phi_3``) is ``+``. Segment numbers follow the paper: 2 thigh, 3 shank,
    4 foot.

    Parameters
    ----------
    model : PlanarTree
        Must contain segments ``thigh``, ``shank``, ``foot`` as in :func:`human_model`.
    q, qd, qdd : array_like, shape (..., k)
        Generalised coordinates [m, rad] and their first and second time derivatives.
    contact_force : array_like, shape (..., 2)
        ``[F_bed,x, F_bed,y]``, the force on the feet from the environment (the bed) [N].

    Returns
    -------
    numpy.ndarray, shape (..., 6)
        ``[lambda_1, ..., lambda_6]``: hip x, y, knee x, y, ankle x, y [N].
    """
    legs = leg_segments(model)
    q, qd, qdd = model.check_state(q=q, qd=qd, qdd=qdd)
    R = as_array(contact_force, "contact_force", unit="N", last=2)
    frames(("q", q, 1), ("contact_force", R, 1))
    phi = [q[..., 2 + i] for i in legs]
    lam = _leg_equations(
        qdd[..., 0], qdd[..., 1], tuple(np.sin(p) for p in phi), tuple(np.cos(p) for p in phi),
        tuple(qd[..., 2 + i] for i in legs), tuple(qdd[..., 2 + i] for i in legs),
        tuple(model.masses[list(legs)]), tuple(model.com[list(legs)]),
        model.attach[legs[1]], model.attach[legs[2]], model.g, R[..., 0], R[..., 1])
    return np.stack(np.broadcast_arrays(*lam), axis=-1)


def paper_formulas(*, misprint: bool = False):
    """Return the paper's explicit hip, knee and ankle reactions (3.3) in sympy.

    Written with the symbols of :func:`bmc.reactions.symbolic_model` (``m2, c2, l2, phi2,
    phid2, ...``, named with the paper's letter: ``phi2`` is the angle ``psi_2``) plus ``g``
    (positive) and ``R_x, R_y`` (real; the paper's names of the bed force's components,
    ``F_bed,x`` and ``F_bed,y`` in notebook 5, which renames them for display). With
    ``misprint=True`` the ``=`` printed before ``c3 psi3dot^2 cos psi3`` in ``lambda_4`` is
    read as ``-`` instead of the correct ``+``.

    Returns
    -------
    sympy.Matrix, shape (6, 1)
    """
    import sympy as sp

    if not isinstance(misprint, (bool, np.bool_)):
        raise TypeError(f"misprint must be True or False; got {misprint!r}")
    xdd, ydd = sp.symbols("xdd_H ydd_H")
    g = sp.Symbol("g", positive=True)
    Rx, Ry = sp.symbols("R_x R_y", real=True)
    m2, m3, m4, c2, c3, c4, l2, l3 = sp.symbols("m2 m3 m4 c2 c3 c4 l2 l3", positive=True)
    phi = sp.symbols("phi2:5")
    return sp.Matrix(_leg_equations(
        xdd, ydd, tuple(sp.sin(p) for p in phi), tuple(sp.cos(p) for p in phi),
        sp.symbols("phid2:5"), sp.symbols("phidd2:5"), (m2, m3, m4), (c2, c3, c4), l2, l3,
        g, Rx, Ry, misprint=misprint))
