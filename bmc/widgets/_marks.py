"""How Matplotlib draws its marks, for the browser renderer (:mod:`bmc.widgets._scene`).

Mathtext as plain Unicode, colours as hex, point lists as float32 bytes, dash patterns,
``markevery``, Agg's pixel snapping of straight lines, and the outline of a quiver arrow:
small pure functions, each doing what Matplotlib does so that the canvas draws the same.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__ = ["plain_text"]


def __dir__() -> list[str]:
    return sorted(__all__)

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ",
    "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "omega": "ω", "Delta": "Δ", "Omega": "Ω", "Sigma": "Σ", "cdot": "·", "times": "×",
    "pm": "±", "circ": "°", "degree": "°", "infty": "∞", "approx": "≈", "leq": "≤",
    "geq": "≥", "cos": " cos ", "sin": " sin ", "tan": " tan ", "log": " log ",
    "exp": " exp ", "ell": "ℓ",
}
_SUP = str.maketrans("0123456789+-−=()niT.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ·")
_SUB = str.maketrans("0123456789+-=()aeoxijkmnpst", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₖₘₙₚₛₜ")
_ACCENT = {"ddot": "\u0308", "dot": "\u0307", "hat": "\u0302", "bar": "\u0304",
           "vec": "\u20d7", "tilde": "\u0303"}
_CAP = {"projecting": "square", "butt": "butt", "round": "round"}
_NO_LINE = ("None", "none", "", " ")


def plain_text(text: str) -> str:
    r"""Turn the common bits of Matplotlib mathtext into plain Unicode for the canvas.

    Parameters
    ----------
    text : str
        A label, possibly with ``$...$`` mathtext (``\ddot q``, ``\alpha``, ``^2``,
        ``_o``, ``\mathdefault{10^{-14}}``).

    Returns
    -------
    str
        The text with the math parts rewritten (Greek letters, accents, super- and
        subscripts); text outside ``$...$`` is unchanged.

    Examples
    --------
    >>> plain_text(r"inertial $I_o\ddot\alpha$")
    'inertial Iₒα̈'
    >>> plain_text(r"$\mathdefault{10^{-14}}$")
    '10⁻¹⁴'
    """
    if "$" not in text:
        return text
    parts = text.split("$")
    for k in range(1, len(parts), 2):
        parts[k] = _math(parts[k])
    return "".join(parts)


def _math(s: str) -> str:
    s = re.sub(r"\\(mathdefault|mathrm|mathit|mathbf|text|rm)\s*", "", s)
    s = s.replace(r"\,", "\u2009").replace(r"\;", " ").replace(r"\ ", " ").replace("~", " ")
    for name, mark in _ACCENT.items():  # \ddot\alpha, \ddot{q}, \ddot q
        s = re.sub(rf"\\{name}\s*(\{{[^}}]*\}}|\\[A-Za-z]+|[A-Za-z])",
                   lambda m, mark=mark: m.group(1).strip("{}") + mark, s)
    s = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), s)
    s = re.sub(r"\^\{([^}]*)\}", lambda m: m.group(1).translate(_SUP), s)
    s = re.sub(r"\^(.)", lambda m: m.group(1).translate(_SUP), s)
    s = re.sub(r"_\{([^}]*)\}", lambda m: m.group(1).translate(_SUB), s)
    s = re.sub(r"_(.)", lambda m: m.group(1).translate(_SUB), s)
    # an accent stays on its letter once the letter has become a subscript
    for mark in _ACCENT.values():
        s = s.replace(mark + mark, mark)
    return s.replace("{", "").replace("}", "")


def _hex(color: Any, alpha: float | None = None) -> str:
    from matplotlib.colors import to_hex, to_rgba

    return to_hex(to_rgba(color, alpha), keep_alpha=True)


def _f32(points: np.ndarray) -> bytes:
    """(n, 2) canvas coordinates as float32 bytes x0 y0 x1 y1 ...; gaps (nan, inf) as NaN."""
    points = np.asarray(points, dtype=np.float32).reshape(-1)
    points[~np.isfinite(points)] = np.nan
    return points.tobytes()


def _clipped(artist: Any) -> bool:
    """Whether Matplotlib clips the artist (to its axes): clip on, and a box or path to clip to.

    A title keeps ``clip_on=True`` but has nothing to clip to, so it is drawn whole.
    """
    return bool(artist.get_clip_on() and (artist.get_clip_box() is not None
                                           or artist.get_clip_path() is not None))


def _name(style: Any) -> str:
    """Return a Matplotlib cap or join style (a string or an enum member) as its name."""
    return str(getattr(style, "value", style))


def _rectilinear(points: np.ndarray) -> bool:
    """Whether a path is horizontal and vertical segments only (what Agg snaps to pixels)."""
    finite = points[np.isfinite(points).all(axis=1)]
    if len(finite) < 2:
        return False
    step = np.diff(finite, axis=0)
    return bool(np.all((np.abs(step[:, 0]) < 1e-4) | (np.abs(step[:, 1]) < 1e-4)))


def _snapped(points: np.ndarray, width_px: float, snap: Any) -> np.ndarray:
    """Points [px] moved to the pixel grid as Agg moves them before drawing.

    Agg snaps a path of horizontal and vertical segments (``snap=None``, at most 1024
    vertices) or any path (``snap=True``): every vertex to a pixel centre for an odd line
    width, to a pixel edge for an even one, so a 1 px grid line stays one crisp pixel.
    """
    if snap is False or (snap is None and (len(points) > 1024
                                            or not _rectilinear(points))):
        return points
    offset = 0.5 if int(np.floor(width_px + 0.5)) % 2 else 0.0
    return np.floor(points + 0.5) + offset


def _spacing(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):  # e.g. "normal" in recent Matplotlib
        return 1.2


def _dashes(line: Any, width_px: float) -> list[float]:
    import matplotlib as mpl

    style = line.get_linestyle()
    name = {"--": "dashed", "-.": "dashdot", ":": "dotted"}.get(style)
    if name is None:
        return []
    pattern = mpl.rcParams[f"lines.{name}_pattern"]
    scale = max(width_px, 1.0) if mpl.rcParams["lines.scale_dashes"] else 1.0
    return [round(v * scale, 2) for v in pattern]


def _every(markevery: Any, n: int | None) -> np.ndarray | None:
    """Return the indices of the points that carry a marker (integer forms of markevery).

    With ``n=None`` only checks that the form is one the canvas draws.
    """
    values = None if markevery is None or isinstance(markevery, (bool, np.bool_, int,
                                                               np.integer, slice)) else (
        np.asarray(markevery, dtype=object if isinstance(markevery, tuple) else None))
    pair = (isinstance(markevery, tuple) and len(markevery) == 2
            and all(isinstance(v, (int, np.integer)) for v in markevery))
    if values is not None and not pair and not (
            values.ndim == 1 and (values.dtype == bool
                                  or np.issubdtype(values.dtype, np.integer))):
        raise NotImplementedError(
            f"the browser renderer cannot draw markevery={markevery!r} (floats place markers "
            "by distance on the screen); use an int, a (start, step) pair, a slice or "
            "indices, or renderer='png'")
    if n is None:
        return None
    index = np.arange(n)
    if markevery is None:
        return index
    if isinstance(markevery, (bool, np.bool_)):
        return index if markevery else index[:0]
    if isinstance(markevery, (int, np.integer)):
        return index[::int(markevery)]
    if isinstance(markevery, slice):
        return index[markevery]
    if pair:
        return index[markevery[0]::markevery[1]]
    if values.dtype == bool:
        return index[values] if values.shape == (n,) else index[:0]
    return index[values[(values >= -n) & (values < n)]]


def _arrow_shapes(quiver: Any, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Matplotlib's quiver arrow outlines (8 points each) for lengths in arrow widths.

    The same construction as ``matplotlib.quiver.Quiver`` (shaft, head of ``headwidth``,
    ``headlength``, ``headaxislength``; arrows shorter than ``minshaft`` head lengths shrink
    as a whole; those shorter than ``minlength`` become a heptagonal dot), in arrow-width
    units along +x from the tail.
    """
    length = np.clip(np.asarray(length, dtype=float).reshape(-1, 1), 0, 2**16)
    n = length.shape[0]
    hl, hal, hw = float(quiver.headlength), float(quiver.headaxislength), float(quiver.headwidth)
    minsh = float(quiver.minshaft) * hl
    order = [0, 1, 2, 3, 2, 1, 0, 0]
    x = np.array([0.0, -hal, -hl, 0.0]) + np.array([0.0, 1.0, 1.0, 1.0]) * length
    y = np.repeat((0.5 * np.array([1.0, 1.0, hw, 0.0]))[None, :], n, axis=0)
    X, Y = x[:, order], y[:, order]
    Y[:, 3:-1] *= -1
    X0 = np.array([0.0, minsh - hal, minsh - hl, minsh])[order]
    Y0 = (0.5 * np.array([1.0, 1.0, hw, 0.0]))[order]
    Y0[3:-1] *= -1
    shrink = length / minsh if minsh != 0 else 0.0
    short = np.repeat(length < minsh, 8, axis=1)
    np.copyto(X, shrink * X0[None, :], where=short)
    np.copyto(Y, shrink * Y0[None, :], where=short)
    if quiver.pivot == "middle":
        X = X - 0.5 * X[:, 3, None]
    elif quiver.pivot == "tip":
        X = X - X[:, 3, None]
    dot = np.repeat(length < quiver.minlength, 8, axis=1)
    if dot.any():
        th = np.arange(8) * (np.pi / 3.0)
        np.copyto(X, np.cos(th)[None, :] * quiver.minlength * 0.5, where=dot)
        np.copyto(Y, np.sin(th)[None, :] * quiver.minlength * 0.5, where=dot)
    return X, Y


def _clip_polyline(points: np.ndarray, rect: tuple[float, float, float, float]) -> np.ndarray:
    """Cut a polyline [px] to a rectangle ``(x0, y0, x1, y1)``, NaN where it leaves it.

    Liang-Barsky on each segment; a piece that re-enters starts after a NaN gap, as Agg's
    path clipper starts a new sub-path (and the dash pattern with it).
    """
    points = np.asarray(points, dtype=float)
    x0, y0, x1, y1 = rect
    finite = np.isfinite(points).all(axis=1)
    inside = finite & (points[:, 0] >= x0) & (points[:, 0] <= x1) & (points[:, 1] >= y0) & (
        points[:, 1] <= y1)
    if inside[finite].all() or len(points) < 2:
        return points
    a, b = points[:-1], points[1:]
    d = b - a
    low, high = np.zeros(len(d)), np.ones(len(d))
    keep = finite[:-1] & finite[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-d[:, 0], a[:, 0] - x0), (d[:, 0], x1 - a[:, 0]),
                     (-d[:, 1], a[:, 1] - y0), (d[:, 1], y1 - a[:, 1])):
            keep &= ~((p == 0) & (q < 0))
            ratio = q / p
            low = np.where(p < 0, np.maximum(low, ratio), low)
            high = np.where(p > 0, np.minimum(high, ratio), high)
    keep &= low <= high
    out: list = []
    joined = -1  # the segment that continues the last piece without a cut
    for i in np.flatnonzero(keep):
        start, end = a[i] + low[i] * d[i], a[i] + high[i] * d[i]
        if not (joined == i and low[i] == 0.0):
            if out:
                out.append((np.nan, np.nan))
            out.append(tuple(start))
        out.append(tuple(end))
        joined = i + 1 if high[i] == 1.0 else -1
    return np.array(out, dtype=float).reshape(-1, 2)
