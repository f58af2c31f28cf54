"""The arm of notebooks 1 and 2: upper arm, and forearm with hand, of one subject.

Dempster's segment parameters (via Winter 2009, :mod:`bmc.anthropometry`) for the course's
subject, a person of 70 kg and 1.70 m (:data:`SUBJECT`). The forearm and the hand are
combined end to end (:func:`bmc.anthropometry.combine`), so the second segment runs from the
elbow to the fingertip with its own centre of mass and moment of inertia; the source the
course grew from applied Winter's forearm-and-hand fractions to that longer length instead,
which notebook 2 corrects.
"""

from __future__ import annotations

from types import MappingProxyType

from bmc.anthropometry import Segment, combine, segment

__all__ = ["SUBJECT", "arm_segments", "forearm_hand"]


def __dir__() -> list[str]:
    return sorted(__all__)


#: The course's subject for the arm models: body mass [kg] and height [m].
SUBJECT = MappingProxyType({"body_mass": 70.0, "height": 1.70})


def forearm_hand(*, body_mass: float = SUBJECT["body_mass"],
                 height: float = SUBJECT["height"]) -> Segment:
    """Forearm and hand as one segment, elbow to fingertip (notebook 1's pendulum).

    Parameters
    ----------
    body_mass : float, optional
        Body mass [kg] (default 70, the course's subject).
    height : float, optional
        Body height [m] (default 1.70).

    Returns
    -------
    bmc.anthropometry.Segment
        Length [m], elbow to centre of mass [m], mass [kg] and moment of inertia about the
        centre of mass [kg m^2].

    Examples
    --------
    >>> seg = forearm_hand()
    >>> print(round(seg.length, 3), round(seg.mass, 2))
    0.432 1.54
    """
    size = {"body_mass": body_mass, "height": height}
    return combine([segment("forearm", **size), segment("hand", **size)], name="forearm_hand")


def arm_segments(*, body_mass: float = SUBJECT["body_mass"],
                 height: float = SUBJECT["height"]) -> tuple[Segment, Segment]:
    """Upper arm and forearm + hand (notebook 2's two-link arm), shoulder first.

    Parameters
    ----------
    body_mass : float, optional
        Body mass [kg] (default 70, the course's subject).
    height : float, optional
        Body height [m] (default 1.70).

    Returns
    -------
    tuple of bmc.anthropometry.Segment
        ``(upper_arm, forearm_hand)``, ready for :meth:`bmc.chain.PlanarChain.from_segments`.
    """
    upper = segment("upper_arm", body_mass=body_mass, height=height)
    return upper, forearm_hand(body_mass=body_mass, height=height)
