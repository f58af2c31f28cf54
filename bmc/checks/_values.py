"""What a student's answer holds: the few tests of an answer's type the checks share."""

from __future__ import annotations

from typing import Any

import numpy as np


def element_kind(answer: Any) -> str | None:
    """Name what an answer holds that must never pass for a real number, else ``None``."""
    if isinstance(answer, complex):  # also numpy's complex scalars
        return "complex numbers"
    try:
        raw = np.asarray(answer)
    except (TypeError, ValueError):
        return None  # ragged or strange: the float conversion reports it
    if raw.dtype.kind == "c":
        return "complex numbers"
    if raw.dtype.kind == "b":
        return "booleans"
    if raw.dtype.kind in "USV":
        return "text"
    if raw.dtype.kind == "O":
        for item in raw.ravel():
            if isinstance(item, complex):
                return "complex numbers"
            if isinstance(item, (bool, np.bool_)):
                return "booleans"
            if isinstance(item, (str, bytes)):
                return "text"
    return None


def real_number(answer: Any) -> float | None:
    """Return a single real number as a float; ``None`` for a bool, complex, text, array."""
    if isinstance(answer, (bool, np.bool_, complex, str, bytes)) or np.ndim(answer) != 0:
        return None
    try:
        return float(answer)  # also numeric SymPy expressions such as sqrt(2)
    except (TypeError, ValueError):
        return None
