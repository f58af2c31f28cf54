"""Say what is wrong with a numeric answer: how far off, which way, the likely mistake.

Three levels of detail, by what the message may reveal:

- ``"practice"``: on practice data, whose answers a student may see: every wrong entry
  with how far off and which way, and the mistake it matches;
- ``"graded"``: on a student's own data, at grading: the mistake it matches and which
  entries are wrong, never how far off;
- ``"concept"``: for answers with few possible values (a 0/1 matrix, a sign, a set) or
  the same for everyone: only the concept that is wrong, never an entry.

A *mistake* is a wrong answer computed from the same data (a forgotten term, an angle in
degrees, the source's error); the generic ones (a flipped sign, a factor of 57.3, 100 or
2, swapped rows and columns) need no model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["describe", "factor_name", "matches", "unit_mistakes"]

_DEG = 180.0 / np.pi
# factor between an answer and the right value -> the likely reason
_FACTORS = [
    (_DEG, "it is {f} times the right value, 57.3: degrees where radians belong"),
    (1.0 / _DEG, "it is 1/57.3 of the right value: radians converted once too often, or "
                 "degrees expected where you gave radians"),
    (100.0, "it is 100 times the right value: centimetres where metres belong, or a "
            "percentage"),
    (0.01, "it is 1/100 of the right value: metres converted to centimetres once too "
           "often, or a percentage"),
    (1000.0, "it is 1000 times the right value: millimetres or grams where metres or "
             "kilograms belong"),
    (0.001, "it is 1/1000 of the right value: a unit converted once too often"),
    (2.0, "it is twice the right value: a factor 1/2 is missing, or a term counted twice"),
    (0.5, "it is half the right value: a factor 1/2 too many, or a term missing half of "
          "its contributions"),
    (9.81, "it is g times the right value: a weight (m g) where a mass belongs"),
    (1 / 9.81, "it is the right value divided by g: a mass where a weight (m g) belongs"),
]


def factor_name(ratio: float) -> str | None:
    """Name a constant factor between an answer and the right value (None if unknown)."""
    for factor, text in _FACTORS:
        if np.isclose(ratio, factor, rtol=2e-3):
            return text.format(f=f"{ratio:.1f}")
    return None


def matches(answer: Sequence[np.ndarray], wrong: Sequence[Any], rtol: float,
            atol: Sequence[float]) -> bool:
    """Whether every output of ``answer`` equals the wrong model ``wrong``."""
    try:
        return all(np.shape(a) == np.shape(w) and bool(np.all(np.isclose(
            a, np.asarray(w, dtype=float), rtol=rtol, atol=t)))
            for a, w, t in zip(answer, wrong, atol, strict=True))
    except (TypeError, ValueError):
        return False


def unit_mistakes(data: Any) -> list[tuple[str, Any]]:
    """Return copies of ``data`` (a :class:`~bmc.checks.Problem`), one quantity in a wrong unit.

    Angles, angular velocities and accelerations in degrees instead of radians; lengths
    in centimetres instead of metres. Each comes with the mistake's description.
    """
    out = []
    for name, unit in data.units().items():
        value = np.asarray(getattr(data, name))
        if value.dtype.kind not in "f" or not np.any(value):
            continue
        if unit in ("rad", "rad/s", "rad/s^2"):
            out.append((f"p.{name} taken in degrees: NumPy's trigonometric functions, and "
                        f"the unit {unit} of the data, mean radians",
                        data.modified(f"{name} in degrees", **{name: np.degrees(value)})))
            out.append((f"p.{name} converted from degrees to radians although it already is "
                        "in radians", data.modified(f"{name} converted twice",
                                                    **{name: np.radians(value)})))
        elif unit == "m":
            out.append((f"p.{name} in centimetres: the data, and every formula of the course, "
                        "are in metres",
                        data.modified(f"{name} in cm", **{name: 100.0 * value})))
    return out


def _entry(name: str, index: tuple[int, ...], shape: tuple[int, ...]) -> str:
    if not shape:
        return name
    return f"{name}[{', '.join(str(i) for i in index)}]"


def _how_far(answer: float, expected: float, unit: str, atol: float) -> str:
    """'12 % too large', 'has the wrong sign' ... for one entry."""
    if abs(expected) <= atol:
        return f"is {answer:.3g} {unit}".rstrip() + " where it should be zero"
    if np.sign(answer) == -np.sign(expected) and answer != 0:
        off = abs(abs(answer) / abs(expected) - 1)
        return "has the wrong sign" + ("" if off < 1e-3 else
                                      f" (and its size is {100 * off:.0f} % off)")
    ratio = answer / expected
    reason = factor_name(ratio)
    if reason and abs(ratio) != 2 and abs(ratio) != 0.5:
        return f"is {ratio:.3g} times the right value ({reason.split(': ', 1)[-1]})"
    if ratio >= 10:
        return f"is {ratio:.3g} times too large"
    if ratio <= 0.1:
        return f"is {1 / ratio:.3g} times too small" if ratio else "is zero"
    if ratio > 1:
        return f"is {100 * (ratio - 1):.3g} % too large"
    return f"is {100 * (1 - ratio):.3g} % too small"


def describe(names: Sequence[str], answer: Sequence[np.ndarray],
             expected: Sequence[np.ndarray], *, units: Sequence[str], rtol: float,
             atol: Sequence[float], level: str) -> str:
    """Say how the outputs differ from the right ones, at the given level of detail.

    Returns an empty string when nothing more than "not right" may be said.
    """
    if level == "concept":
        return ""
    parts = []
    for name, a, e, unit, t in zip(names, answer, expected, units, atol, strict=True):
        close = np.isclose(a, e, rtol=rtol, atol=t)
        if np.all(close):
            continue
        if np.any(e != 0) and np.all(np.isclose(a, -e, rtol=rtol, atol=t)):
            parts.append(f"{name} has the wrong sign (its size is right)")
            continue
        nonzero = (np.abs(e) > t) & (a != 0)
        if np.all(nonzero) and a.size:
            ratios = a[nonzero] / e[nonzero]
            if np.allclose(ratios, ratios.flat[0], rtol=2e-3):
                reason = factor_name(float(ratios.flat[0]))
                if reason:
                    parts.append(f"{name}: {reason}")
                    continue
        if e.ndim == 2 and e.shape[0] == e.shape[1] and np.all(
                np.isclose(a.T, e, rtol=rtol, atol=t)):
            parts.append(f"{name} looks transposed (rows and columns swapped)")
            continue
        if e.ndim == 1 and e.size > 1 and np.all(np.isclose(a[::-1], e, rtol=rtol, atol=t)):
            parts.append(f"{name} has its entries in reverse order")
            continue
        wrong = [tuple(int(i) for i in idx) for idx in np.argwhere(~close)] if a.ndim else [()]
        if level == "graded":
            if a.ndim and len(wrong) < a.size:
                listed = ", ".join(_entry(name, w, a.shape) for w in wrong[:6])
                parts.append(f"{listed} {'is' if len(wrong) == 1 else 'are'} not right "
                             "(the other entries are)")
            elif not a.ndim:
                parts.append(f"{name} is too {'large' if a > e else 'small'}")
            continue
        said = [f"{_entry(name, w, a.shape)} {_how_far(float(a[w]), float(e[w]), unit, t)}"
                for w in wrong[:4]]
        more = f" and {len(wrong) - 4} more entries" if len(wrong) > 4 else ""
        right = " (the other entries are right)" if a.ndim and len(wrong) < a.size else ""
        parts.append("; ".join(said) + more + right)
    return "; ".join(parts)
