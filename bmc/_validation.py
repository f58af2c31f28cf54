"""Argument checks shared by every module (private).

Each check raises ``ValueError`` or ``TypeError`` with a message that names the argument,
says what was expected (shape, unit), what arrived and what to do, so that a student can fix
the call without reading the source. The checks are grouped by what they guard:

- types: :func:`as_array`, :func:`number`, :func:`positive`, :func:`integer`,
  :func:`flag` refuse text,
  booleans, complex numbers, ``None`` and other objects (NumPy would silently turn ``"90"``
  into 90.0 and ``True`` into 1.0, and drop an imaginary part);
- shapes and frames: :func:`as_array` (``last``, ``ndim``), :func:`frames`;
- finiteness: :func:`as_array` names the index of the first NaN or infinity;
- signs, ranges and units: :func:`positive`, :func:`in_range`, :func:`plausible` (a value off
  by a factor of about 100 or 1000 from any human is refused with the unit probably meant);
- physics: :func:`rotation_matrices` (orthonormal, det +1; reflections named),
  :func:`inertia_tensors` (symmetric positive definite, triangle inequality);
- numerical guards: :func:`tolerance`, :func:`allocation` (refuse before allocating more
  than a memory budget), :func:`first_nonfinite`.

:class:`BMCWarning` marks results that are valid but doubtful (for example no knee in a
residual analysis); modules that emit it re-export it.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__: list[str] = []

#: Largest magnitude :func:`as_array` accepts: squares and cubes of it stay finite.
HUGE = 1e100

#: Largest array (in bytes) a function may allocate for its result before it refuses.
MEMORY_BUDGET = 2 * 1024**3


class BMCWarning(UserWarning):
    """A result of bmc is valid but doubtful; the message says why and what to check."""


_KINDS = {"U": "text (str)", "S": "bytes", "b": "booleans", "c": "complex numbers",
          "O": "Python objects", "M": "dates", "m": "time deltas", "V": "raw records"}


def _describe(value: object) -> str:
    """Return a short description of what the caller passed."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    if value is None:
        return "None"
    return f"{type(value).__name__} {value!r:.80}"


def _where(name: str, unit: str) -> str:
    return f"{name} [{unit}]" if unit else name


def _kind_of(item: object) -> str | None:
    """Name the kind of a scalar that must not stand for a number, or None if it may."""
    if item is None:
        return "None"
    if isinstance(item, (str, bytes, np.str_, np.bytes_)):
        return "text (str)"
    if isinstance(item, (bool, np.bool_)):
        return "booleans"
    if isinstance(item, (complex, np.complexfloating)):
        return "complex numbers"
    return None


def _bad_kind(value: object) -> str | None:
    """Return the kind of the first str, bool, complex or None in a nested sequence."""
    kind = _kind_of(value)
    if kind is not None:
        return kind
    if isinstance(value, (list, tuple)):
        for item in value:
            kind = _bad_kind(item)
            if kind is not None:
                return kind
    return None


def _type_error(where: str, value: object, what: str) -> TypeError:
    todo = {
        "text (str)": "pass numbers, not text: write 90.0, not '90' (float('90') converts "
                      "text read from a file)",
        "booleans": "pass numbers, not True/False",
        "complex numbers": "pass real numbers; take .real only if the imaginary part is "
                           "round-off",
        "None": "pass a number; use np.nan for a missing sample and fill it before calling",
    }.get(what, "pass real numbers (int or float, or a NumPy array of them)")
    if isinstance(value, str) and value.strip():
        try:
            todo = f"pass numbers, not text: write {float(value)!r}, not {value!r}"
        except ValueError:
            pass
    return TypeError(f"{where} must be real number(s); got {what} ({_describe(value)}): {todo}")


def _real(value: object, where: str) -> np.ndarray:
    """Convert to a float array, refusing text, booleans, complex numbers, None, objects."""
    kind = _kind_of(value)
    if kind is not None:
        raise _type_error(where, value, kind)
    try:
        arr = np.asarray(value)
    except ValueError as exc:  # ragged nesting
        raise ValueError(
            f"{where} must be a rectangular array of numbers; got {_describe(value)} whose rows "
            "have different lengths: give every frame the same number of values"
        ) from exc
    if arr.dtype.kind == "O":
        for item in arr.ravel():
            kind = _bad_kind(item)
            if kind is not None:
                raise _type_error(where, value, kind)
        try:
            return arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise _type_error(where, value, "Python objects") from exc
    if arr.dtype.kind in _KINDS:
        raise _type_error(where, value, _KINDS[arr.dtype.kind])
    # NumPy turns [0.5, True] into [0.5, 1.0]: look for booleans in short typed-in sequences
    # (long ones come from data files and arrays, where this cannot happen).
    if isinstance(value, (list, tuple)) and arr.size <= 1000:
        kind = _bad_kind(value)
        if kind is not None:
            raise _type_error(where, value, kind)
    return np.asarray(arr, dtype=float)


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
        If ``value`` is not real numbers (text, booleans, complex, None, other objects).
    ValueError
        If the shape does not match or a value is not finite.
    """
    where = _where(name, unit)
    arr = _real(value, where)
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
    if finite and not (arr.size == 0 or np.abs(arr).max() <= HUGE):  # one pass when fine
        bad = first_nonfinite(arr)
        if bad is not None:
            count = int(np.count_nonzero(~np.isfinite(arr)))
            raise ValueError(
                f"{where} must be finite; got {count} non-finite value(s) (NaN or inf), the "
                f"first ({float(arr[bad])!r}) at index {bad}: interpolate or drop missing "
                "samples before calling"
            )
        idx = tuple(int(i) for i in np.unravel_index(int(np.argmax(np.abs(arr))), arr.shape))
        raise ValueError(
            f"{where} must be finite numbers of at most {HUGE:g} in size (no quantity of the "
            f"course comes near; products of such values overflow); got {float(arr[idx])!r} "
            f"at index {idx}: check the unit and the computation that made it"
        )
    return arr


def first_nonfinite(arr: np.ndarray) -> tuple[int, ...] | None:
    """Return the index of the first NaN or infinity in ``arr`` (C order), or None."""
    finite = np.isfinite(arr)
    if finite.all():
        return None
    return tuple(int(i) for i in np.unravel_index(int(np.argmin(finite.ravel())), arr.shape))


def number(value: float, name: str, *, unit: str = "", finite: bool = True) -> float:
    """Return ``value`` as a float after checking that it is one real (finite) number."""
    where = _where(name, unit)
    arr = _real(value, where)
    if arr.size != 1:
        raise ValueError(f"{where} must be a single number; got {_describe(value)}")
    result = float(arr.reshape(()))
    if finite and not math.isfinite(result):
        raise ValueError(f"{where} must be a finite number; got {result!r}")
    return result


def positive(value: float, name: str, *, unit: str = "", allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking that it is positive (and finite)."""
    where = _where(name, unit)
    result = number(value, name, unit=unit, finite=False)
    ok = result >= 0 if allow_zero else result > 0
    if not (math.isfinite(result) and ok):
        need = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{where} must be a finite {need} number; got {result!r}")
    return result


def integer(value: int, name: str, *, minimum: int | None = None,
            maximum: int | None = None, what: str = "") -> int:
    """Return ``value`` as an int after checking it is an integer within the bounds.

    Booleans, text and floats (even ``2.0``) are refused: a count or an order is exact.
    """
    label = f" ({what})" if what else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}{label} must be an integer; got {_describe(value)}: pass "
                        f"int({value!r}) only if that is what you mean")
    result = int(value)
    if (minimum is not None and result < minimum) or (maximum is not None and result > maximum):
        lo = "-inf" if minimum is None else minimum
        hi = "inf" if maximum is None else maximum
        raise ValueError(f"{name}{label} must be an integer from {lo} to {hi}; got {result}")
    return result


def flag(value: bool, name: str) -> bool:
    """Return a switch after checking it is True or False (``"False"`` or ``[True]`` is not).

    Python would take any object as a truth value: the text ``"False"`` counts as True,
    and an array of several values raises NumPy's "truth value is ambiguous" deep inside.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {_describe(value)}")
    return bool(value)


def in_range(value: ArrayLike, name: str, *, unit: str = "", low: float = -np.inf,
             high: float = np.inf, why: str = "") -> np.ndarray:
    """Check that every value lies in ``[low, high]`` (already a float array); return it."""
    arr = np.asarray(value, dtype=float)
    outside = (arr < low) | (arr > high)
    if np.any(outside):
        idx = tuple(int(i) for i in np.argwhere(outside)[0])
        reason = f" ({why})" if why else ""
        raise ValueError(
            f"{_where(name, unit)} must lie between {low:g} and {high:g}{reason}; got "
            f"{arr[idx]!r}" + (f" at index {idx}" if idx else "")
        )
    return arr


def plausible(value: float, name: str, *, unit: str, low: float, high: float,
              quantity: str, units: Mapping[str, float], refuse: bool = True) -> float:
    """Refuse (or warn about) a value outside the human range, naming its likely unit.

    Parameters
    ----------
    value : float
        Already a finite number, in the expected ``unit``.
    name, unit : str
        Argument name and expected unit (for example ``"height"``, ``"m"``).
    low, high : float
        Range of every human [unit] (for example 0.4 to 2.6 m of stature).
    quantity : str
        What the value is, for the message ("body height").
    units : mapping of str to float
        Likely wrong units and their size in ``unit`` (``{"cm": 0.01, "mm": 0.001}``).
    refuse : bool, optional
        Refuse a value outside the range (default), for quantities that cannot be physical
        there (a body 175 m tall). ``False`` warns (:class:`BMCWarning`) instead, for
        values that are doubtful but valid (an angle of 2.67 rad, microgravity): a
        plausibility guard must never refuse a physically valid value.

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    ValueError
        If ``refuse`` and ``value`` is outside ``[low, high]``; when ``value`` times the
        size of one of ``units`` falls inside, the message names that unit and the
        converted value.
    """
    if low <= value <= high:
        return value
    where = _where(name, unit)
    message = (f"{where} must be a {quantity} in {unit} ({low:g} to {high:g} {unit} for any "
               f"human); got {value:g}, which is no human's: check the value and its unit")
    for other, size in units.items():
        if low <= value * size <= high:
            message = (
                f"{where} must be a {quantity} in {unit} ({low:g} to {high:g} {unit} for any "
                f"human); got {value:g}, which looks like {other}: pass {value * size:.4g} "
                f"({value:g} {other} in {unit})"
            )
            break
    if refuse:
        raise ValueError(message)
    warnings.warn(message.replace(" must be ", " is usually ", 1)
                  + " (used as given)", BMCWarning, stacklevel=3)
    return value


def rotation_matrices(R: ArrayLike, name: str, *, atol: float = 1e-6,
                      ndim: Sequence[int] | int | None = None) -> np.ndarray:
    """Check rotation matrices: shape (..., 3, 3), orthonormal, determinant +1.

    Reflections (determinant -1, a left-handed set of axes) and scaled or sheared matrices
    are refused, with the first offending frame.
    """
    arr = as_array(R, name, last=(3, 3), ndim=ndim)
    if arr.size == 0:
        return arr
    Rt = np.swapaxes(arr, -1, -2)
    dev = np.max(np.abs(arr @ Rt - np.eye(3)), axis=(-2, -1))
    det = np.linalg.det(arr)
    frame = ""
    if np.any(dev > atol):
        i = np.unravel_index(int(np.argmax(dev)), dev.shape)
        frame = f" in frame {tuple(int(k) for k in i)}" if dev.ndim else ""
        scale = np.cbrt(abs(det[i])) if dev.ndim else np.cbrt(abs(det))
        hint = (f"it looks like a rotation scaled by {scale:.4g}: divide each column by its "
                "length" if np.allclose(arr[i] @ Rt[i], scale**2 * np.eye(3), atol=atol * 10)
                and abs(scale - 1) > atol else
                "its columns must be unit vectors at right angles (orthonormalise the marker "
                "axes, e.g. by Gram-Schmidt or an SVD)")
        raise ValueError(
            f"{name} must hold rotation matrices (R R^T = I, det R = +1); got a largest "
            f"|R R^T - I| entry of {float(dev[i]):.3g}{frame}: {hint}"
        )
    if np.any(det < 0):
        where = tuple(int(k) for k in np.argwhere(det < 0)[0]) if det.ndim else ()
        frame = f" in frame {where}" if where else ""
        raise ValueError(
            f"{name} must hold rotations (det R = +1); got a reflection (det R = "
            f"{float(det[where] if where else det):.3g}){frame}: the axes form a left-handed set; "
            "flip one axis or swap two so that z = x cross y"
        )
    return arr


def inertia_tensors(J: ArrayLike, name: str, *, unit: str = "kg m^2",
                    rtol: float = 1e-9) -> np.ndarray:
    """Check inertia tensors: shape (..., 3, 3), symmetric, positive definite, triangle rule.

    A body's principal moments obey ``I1 + I2 >= I3`` for every order; a tensor that breaks
    this is no rigid body's.
    """
    arr = as_array(J, name, unit=unit, last=(3, 3))
    if arr.size == 0:
        return arr
    where = _where(name, unit)
    scale = np.max(np.abs(arr), axis=(-2, -1), keepdims=True)
    asym = np.abs(arr - np.swapaxes(arr, -1, -2))
    if np.any(asym > rtol * np.maximum(scale, np.finfo(float).tiny)):
        i = np.argwhere(asym > rtol * scale)[0]
        raise ValueError(
            f"{where} must be symmetric (I = I^T); entries {tuple(int(k) for k in i[-2:])} "
            f"and their transpose differ by {float(asym[tuple(i)]):.3g}"
            + (f" in frame {tuple(int(k) for k in i[:-2])}" if len(i) > 2 else "")
            + ": products of inertia appear twice with the same value"
        )
    eig = np.linalg.eigvalsh(arr)
    if np.any(eig <= 0):
        i = tuple(int(k) for k in np.argwhere(np.any(eig <= 0, axis=-1))[0]) if eig.ndim > 1 \
            else ()
        raise ValueError(
            f"{where} must be positive definite (every principal moment > 0); got principal "
            f"moments {np.round(eig[i], 6).tolist()}" + (f" in frame {i}" if i else "")
            + ": check the signs of the moments and of the products of inertia"
        )
    big = eig[..., 2] - (eig[..., 0] + eig[..., 1])
    if np.any(big > rtol * eig[..., 2]):
        i = tuple(int(k) for k in np.argwhere(big > rtol * eig[..., 2])[0]) if big.ndim else ()
        raise ValueError(
            f"{where} is no rigid body's: its principal moments {np.round(eig[i], 6).tolist()}"
            + (f" (frame {i})" if i else "") + " break the triangle rule I1 + I2 >= I3; "
            "check the units and the axis of each moment"
        )
    return arr


def tolerance(value: float, name: str, *, upper: float = 1.0) -> float:
    """Return a solver tolerance after checking it is finite, positive and below ``upper``."""
    tol = number(value, name, finite=False)
    if not (math.isfinite(tol) and 0 < tol < upper):
        raise ValueError(
            f"{name} must be a finite tolerance between 0 and {upper:g} (exclusive); got "
            f"{tol!r}: typical values are 1e-6 to 1e-12"
        )
    return tol


def allocation(count: float, width: int, name: str, *, budget: int = MEMORY_BUDGET,
               what: str = "samples", hint: str = "") -> int:
    """Refuse before allocating ``count * width`` float64 values beyond ``budget`` bytes.

    Parameters
    ----------
    count : float
        Number of rows (samples, steps) the result will have (may be huge or inf).
    width : int
        Values per row.
    name : str
        The argument(s) that set ``count`` (for example ``"dt"``).
    budget : int, optional
        Largest allocation allowed [bytes]; default :data:`MEMORY_BUDGET` (2 GiB).
    what : str, optional
        What a row is, for the message.
    hint : str, optional
        What to do instead.

    Returns
    -------
    int
        ``count`` as an int.
    """
    need = float(count) * max(int(width), 1) * 8.0
    if not math.isfinite(need) or need > budget:
        raise ValueError(
            f"{name} must ask for at most {budget / 1024**3:.3g} GiB of memory; got "
            f"{float(count):.3g} {what} x {width} value(s) = {need / 1024**3:.3g} GiB; "
            f"{hint or 'use fewer samples'}"
        )
    return int(count)


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
    first = leads[0][1]
    if all(lead == first for _, lead in leads):  # the usual case: nothing to broadcast
        return tuple(first)
    listing = ", ".join(f"{name} {arr.shape}" for name, arr, _ in named)
    with_frames = {lead for _, lead in leads if lead}
    if equal and len(with_frames) > 1:
        raise ValueError(
            "the arguments must have the same number of frames on axis 0 (time); got shapes "
            f"{listing}: pass samples of the same instants (trim or resample them to one "
            "time base)"
        )
    try:
        return tuple(np.broadcast_shapes(*(lead for _, lead in leads)))
    except ValueError:
        raise ValueError(
            "the arguments must describe the same frames: the same number of frames on "
            f"axis 0 (time), or one frame; got shapes {listing}: pass N frames of each, or "
            "one frame of those that do not change"
        ) from None


def gravity(value: float, name: str = "g") -> float:
    """Return an acceleration of free fall [m/s^2], zero allowed, refusing cm/s^2 and such.

    Anything from 0 (no gravity) to 30 m/s^2 (beyond Jupiter's 24.8) is accepted; a
    positive value below 1e-3 m/s^2 (microgravity, an asteroid) is valid but warns, as it
    is more often a unit slip; above 30 m/s^2 no human stands, and it is refused.
    """
    g = positive(value, name, unit="m/s^2", allow_zero=True)
    if g == 0:
        return g
    return plausible(g, name, unit="m/s^2", low=1e-3, high=30.0,
                     quantity="free-fall acceleration (9.81 on Earth)",
                     units={"cm/s^2": 0.01, "mm/s^2": 0.001}, refuse=g > 30.0)


def real_array(value: object, where: str) -> np.ndarray:
    """Return ``value`` as a float array, refusing text, booleans, complex numbers, objects.

    The conversion :func:`as_array` starts with, for modules that check their own shapes.
    """
    return _real(value, where)


def cutoff_frequency(cutoff: float, freq: float, name: str = "cutoff") -> float:
    """Return a filter cut-off [Hz], checked positive and below the Nyquist frequency."""
    fc = positive(cutoff, name, unit="Hz")
    if fc >= freq / 2:
        hint = ("; if it is in rad/s, divide by 2 pi" if fc / (2 * np.pi) < freq / 2 else
                "; if freq is in kHz, give it in Hz" if fc < freq * 500 else "")
        raise ValueError(
            f"{name} [Hz] must be below the Nyquist frequency freq/2 = {freq / 2:g} Hz; "
            f"got {fc:g} Hz{hint}"
        )
    return fc


def filter_order(order: int) -> int:
    """Return the order of one filter pass, an integer from 1 to 20."""
    # 20: far above any order a biomechanics filter uses (2 to 8); a huge order would ask
    # for more samples of padding than any record has
    return integer(order, "order", minimum=1, maximum=20, what="of one filter pass")


def sympy_object(value: Any, name: str, *, matrix: bool = False) -> Any:
    """Return ``value`` as a SymPy object (a Matrix if ``matrix``), refusing text.

    Text is refused, never parsed: ``sympify`` of a string evaluates it as Python.
    """
    import warnings

    import sympy as sp

    what = "a SymPy Matrix (or a list of SymPy expressions)" if matrix else \
        "a SymPy expression or Matrix"
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be {what}; got {type(value).__name__} {value!r}: build "
                        "it from symbols (sympy.Symbol, dynamicsymbols), not text")
    try:
        with warnings.catch_warnings():
            # non-expressions in a Matrix (None, objects): refused, not deprecated
            warnings.simplefilter("error", sp.utilities.exceptions.SymPyDeprecationWarning)
            if matrix or isinstance(value, (list, tuple)):
                return sp.Matrix(value)
            result = sp.sympify(value, strict=True)
    except (TypeError, ValueError, sp.SympifyError,
            sp.utilities.exceptions.SymPyDeprecationWarning) as exc:
        raise TypeError(f"{name} must be {what}; got {type(value).__name__} "
                        f"{str(value)[:60]!r}") from exc
    # a dict or a set sympifies to a container, which no expression method knows
    if not isinstance(result, (sp.Expr, sp.MatrixBase, sp.logic.boolalg.Boolean, sp.Tuple)):
        raise TypeError(f"{name} must be {what}; got {type(value).__name__} "
                        f"{str(value)[:60]!r} (a SymPy {type(result).__name__})")
    return result
