"""Shared pieces of :mod:`bmc.drawing`: the record of a drawing and its text alternative."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bmc._validation import integer
from bmc.drawing._describe import _number, describe

__all__ = ["Arrow", "Drawing", "Moment"]


def __dir__() -> list[str]:
    return sorted(__all__)


@dataclass
class Arrow:
    r"""One straight arrow of a drawing.

    Attributes
    ----------
    label : str
        Its symbol as the caller named it, TeX without dollars (``r"-\mathbf{F}_{2}"`` for
        the reaction of ``\mathbf{F}_{2}``).
    kind : str
        ``"force"``, ``"weight"`` or ``"gravity"`` (the direction of g).
    tail : numpy.ndarray, shape (2,)
        Tail of the arrow as drawn [m].
    vector : numpy.ndarray, shape (2,)
        The force on the segment [N] (for ``"gravity"``: the unit vector of g).
    delta : numpy.ndarray, shape (2,)
        The arrow as drawn, head minus tail, in data units [m]: along ``vector``.
    artist : matplotlib.text.Annotation
        The arrow's artist.
    point : numpy.ndarray, shape (2,)
        Point of application [m]: the tail, or the head of a force that pushes on the
        segment (drawn from outside, so that it stays clear of the segment).
    symbol : str
        The symbol shown: ``label`` without a leading minus sign (the arrow shows the way
        the load acts; a reaction carries the name of its action).
    reaction : bool
        ``True`` when ``label`` starts with a minus sign: the reaction on this segment of a
        load drawn, with the same symbol and opposite arrow, on a neighbouring segment.
    where : str
        Where it acts, in words (``"the proximal joint"``, ``"the centre of mass"``, ...).
    """

    label: str
    kind: str
    tail: np.ndarray
    vector: np.ndarray
    delta: np.ndarray
    artist: Any = None
    point: np.ndarray | None = None
    symbol: str = ""
    reaction: bool = False
    where: str = ""


@dataclass
class Moment:
    """One curved (moment) arrow of a drawing.

    Attributes
    ----------
    label : str
        Its symbol as the caller named it, TeX without dollars.
    centre : numpy.ndarray, shape (2,)
        Point about which it is drawn [m].
    value : float
        The moment on the segment [N m], counter-clockwise positive (``nan`` for a
        symbolic unknown).
    sense : int
        ``+1`` drawn counter-clockwise, ``-1`` clockwise: the sense of ``value``; for an
        unknown, counter-clockwise (the positive sense), or clockwise for a reaction.
    artist : matplotlib.lines.Line2D
        The arc.
    symbol : str
        The symbol shown (``label`` without a leading minus sign).
    reaction : bool
        ``True`` when ``label`` starts with a minus sign (see :class:`Arrow`).
    where : str
        Where it acts, in words.
    """

    label: str
    centre: np.ndarray
    value: float
    sense: int
    artist: Any = None
    symbol: str = ""
    reaction: bool = False
    where: str = ""


@dataclass
class Drawing:
    """What a drawing helper drew, for composing figures, for tests and for its description.

    Attributes
    ----------
    ax : matplotlib.axes.Axes
        The Axes drawn in.
    arrows : list of Arrow
        Straight arrows (forces, weights, the direction of g).
    moments : list of Moment
        Curved arrows (moments; angle arcs are not included).
    points : dict of str to numpy.ndarray
        Named points drawn [m], for example ``"com"``, ``"proximal"``, ``"joints"``.
    labels : list of str
        Every text placed (as rendered, with dollars).
    frames : int
        Number of postures drawn (:func:`strobe`), 1 otherwise.
    angles : dict of str to float
        Angles drawn as arcs (:func:`model_sketch`), TeX symbol to value [rad].
    kind : str
        ``"free-body diagram"``, ``"model sketch"`` or ``"strobe"``.
    name : str
        What is drawn (``"segment 2"``, ``"thigh"``), for the description.
    facts : dict
        What else the description states (scales, times, what each angle measures).
    """

    ax: Any
    arrows: list[Arrow] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    points: dict[str, np.ndarray] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    frames: int = 1
    angles: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    name: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"Drawing({len(self.arrows)} arrow(s), {len(self.moments)} moment(s), "
                f"{len(self.labels)} label(s), {self.frames} frame(s))")

    def describe(self) -> str:
        """Text alternative of the drawing, written from the record of what was drawn.

        A free-body diagram lists its segment and every load with the point where it acts,
        its direction (forces) or sense of rotation (moments) and, unless drawn
        symbolically, its magnitude; a model sketch its segments, joints and angles with
        what each angle measures; a strobe what moves, over which time, the extent of the
        traced path and the forces with their scale. The numbers are those of the record,
        so the text stays true when the drawing changes. Used by :func:`bmc.plotting.show`
        as the figure's ``alt``.

        Returns
        -------
        str
            Plain text (TeX symbols without dollars or backslashes).
        """
        return describe(self)


def _tex(label: str) -> str:
    return f"${label}$"


def _split_sign(label: str) -> tuple[str, bool]:
    """``"-M_2"`` -> ``("M_2", True)``: the symbol shown and whether it names a reaction."""
    text = label.strip()
    if text.startswith("-"):
        return text[1:].strip(), True
    return text, False


def _value_text(symbol: str, size: float, unit: str, symbolic: bool, *,
                magnitude: bool = True) -> str:
    """Write a load's label: ``$|F_2|$ = 12.3 N``, or the symbol alone when symbolic.

    The symbol and the positive magnitude (the arrow shows the way); ``magnitude=False``
    for a quantity that is positive by nature (a weight ``m g``).
    """
    if symbolic:
        return _tex(symbol)
    shown = f"|{symbol}|" if magnitude else symbol
    return f"{_tex(shown)} = {_number(abs(size))} {unit}"


def _connectivity(n_points: int, parents: Sequence[int] | None,
                  segments: Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """Segments as (proximal, distal) point indices: a chain, a parent list or pairs."""
    if parents is not None and segments is not None:
        raise ValueError("give either parents or segments, not both")
    name = "segments" if segments is not None else "parents"
    if segments is not None:
        pairs = []
        for s in segments:
            if isinstance(s, (str, bytes)) or not hasattr(s, "__len__") or len(s) != 2:
                raise ValueError(f"segments must be (proximal, distal) pairs of point indices; "
                                 f"got {s!r}")
            pairs.append(tuple(integer(i, "segments", what="point index") for i in s))
    elif parents is not None:
        if len(parents) != n_points:
            raise ValueError(f"parents must give one parent index per point ({n_points}), -1 "
                             f"for a root; got {len(parents)}")
        pairs = [(p, j) for j, p in enumerate(
            integer(p, "parents", minimum=-1, what="index of the parent point") for p in parents)
            if p >= 0]
    else:
        pairs = [(j, j + 1) for j in range(n_points - 1)]
    for a, b in pairs:
        if not (0 <= a < n_points and 0 <= b < n_points):
            raise ValueError(f"{name}: segment ({a}, {b}) names a point outside "
                             f"0..{n_points - 1}")
    return pairs
