"""Argument checks shared by every module (private).

Each check raises ``ValueError`` or ``TypeError`` with a message that names the argument,
says what was expected (shape, unit) and what arrived, so that a student can fix the call
without reading the source.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__: list[str] = []


def _describe(value: object) -> str:
    """Return a short description of what the caller passed."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"{type(value).__name__} {value!r:.80}"


def as_array(
    value: ArrayLike,
    name: str,
    *,
    unit: str = "",
    last: Sequence[int] | int | None = None,
    ndim: Sequence[int] | int | None = None,
    finite: bool = True,
) -> np.ndarray:
    """Convert ``value`` to a float array and check it.

    Parameters
    ----------
    value : array_like
        What the caller passed.
    name : str
        The argument's name, used in error messages.
    unit : str, optional
        The expected unit, shown in error messages (for example ``"m"``).
    last : int or tuple of int, optional
        Required trailing shape (for example ``2`` for planar vectors or ``(3, 3)``).
    ndim : int or tuple of int, optional
        Allowed numbers of dimensions.
    finite : bool, optional
        Refuse NaN and infinity (default).

    Returns
    -------
    numpy.ndarray
        ``value`` as a float64 array.

    Raises
    ------
    TypeError
        If ``value`` is not numeric.
    ValueError
        If the shape does not match or a value is not finite.
    """
    where = f"{name} [{unit}]" if unit else name
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{where} must be numeric array-like; got {_describe(value)}") from exc
    if last is not None:
        tail = (last,) if isinstance(last, int) else tuple(last)
        if arr.shape[arr.ndim - len(tail):] != tail or arr.ndim < len(tail):
            raise ValueError(
                f"{where} must have trailing shape {tail} (one frame) or (N, *{tail}) "
                f"(N frames, time on axis 0); got shape {arr.shape}"
            )
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            raise ValueError(
                f"{where} must have {' or '.join(map(str, allowed))} dimension(s); "
                f"got shape {arr.shape}"
            )
    if finite and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))
        first = tuple(int(i) for i in bad[0]) if bad.size else ()
        raise ValueError(
            f"{where} contains {len(bad)} non-finite value(s) (NaN or inf), the first at "
            f"index {first}; interpolate or drop missing samples before calling"
        )
    return arr


def positive(value: float, name: str, *, unit: str = "", allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking that it is positive (and finite)."""
    where = f"{name} [{unit}]" if unit else name
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{where} must be a number; got {_describe(value)}") from exc
    ok = number >= 0 if allow_zero else number > 0
    if not (np.isfinite(number) and ok):
        need = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{where} must be a finite {need} number; got {number!r}")
    return number


def same_frames(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray, *, core_a: int,
                core_b: int) -> None:
    """Check that two arrays have the same leading (time) shape.

    ``core_a`` and ``core_b`` are the numbers of trailing per-frame dimensions.
    """
    lead_a = a.shape[: a.ndim - core_a]
    lead_b = b.shape[: b.ndim - core_b]
    if lead_a and lead_b and lead_a != lead_b:
        raise ValueError(
            f"{name_a} and {name_b} must have the same number of frames on axis 0; "
            f"got {name_a} with shape {a.shape} and {name_b} with shape {b.shape}"
        )


def frames(*named: tuple[str, np.ndarray, int], equal: bool = False) -> tuple[int, ...]:
    """Check that arrays describe the same frames (time on axis 0); return their lead shape.

    Parameters
    ----------
    *named : (str, numpy.ndarray, int)
        ``(name, array, core)`` with ``core`` the number of trailing per-frame dimensions
        (1 for a vector per frame, 2 for a matrix per frame).
    equal : bool, optional
        ``False`` (default): the leading shapes must broadcast (one frame goes with many).
        ``True``: every array that has frames must have the same leading shape.

    Returns
    -------
    tuple of int
        The common (broadcast) leading shape, ``()`` for a single frame.
    """
    leads = [(name, arr.shape[: arr.ndim - core]) for name, arr, core in named]
    listing = ", ".join(f"{name} {arr.shape}" for name, arr, _ in named)
    with_frames = {lead for _, lead in leads if lead}
    if equal and len(with_frames) > 1:
        raise ValueError(
            "the arguments must have the same number of frames on axis 0 (time); got shapes "
            f"{listing}"
        )
    try:
        return tuple(np.broadcast_shapes(*(lead for _, lead in leads)))
    except ValueError:
        raise ValueError(
            "the arguments must describe the same frames: the same number of frames on "
            f"axis 0 (time), or one frame; got shapes {listing}"
        ) from None
