"""Text alternatives of the drawings, written from the record of what each one drew.

The functions take a :class:`bmc.drawing.Drawing` (read by its attributes only: this module
is imported by the one that defines it).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__: list[str] = []


def __dir__() -> list[str]:
    return sorted(__all__)


def _plain(label: str) -> str:
    r"""Write a TeX symbol as plain words for a text alternative (``\mathbf{F}_1``: ``F_1``)."""
    text = re.sub(r"\\(mathbf|mathrm|boldsymbol|vec|bar|hat)\{([^{}]*)\}", r"\2", label)
    text = re.sub(r"\\var(phi|theta|epsilon|rho|sigma)", r"\1", text)  # read as phi, ...
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return text.replace("{", "").replace("}", "").replace("$", "").strip()


def _direction(vector) -> str:
    """Direction of a planar vector in words and degrees from +x (counter-clockwise)."""
    x, y = (float(v) for v in vector[:2])
    size = abs(x) + abs(y)
    angle = float(np.degrees(np.arctan2(y, x)))
    # within 1 degree of an axis it is "straight" along it
    horizontal = "" if abs(x) <= np.sin(np.radians(1)) * size else (
        "forward" if x > 0 else "backward")
    vertical = "" if abs(y) <= np.sin(np.radians(1)) * size else ("up" if y > 0 else "down")
    if size == 0:
        return "nowhere (zero)"
    if not horizontal or not vertical:
        return f"straight {vertical or horizontal} ({angle:.0f} degrees from the +x axis)"
    return f"{vertical} and {horizontal} ({angle:.0f} degrees from the +x axis)"


def _number(value: float) -> str:
    """Three significant digits, never in exponent form for body-sized loads."""
    value = float(value) + 0.0  # -0.0 + 0.0 is 0.0: never "-0"
    text = f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"
    return "0" if text in ("-0", "0") else text


def _point(p) -> str:
    return f"({_number(float(p[0]))}, {_number(float(p[1]))}) m"




def _sense(sense: int) -> str:
    return "counter-clockwise" if sense > 0 else "clockwise"


def _free_body(d: Any) -> str:
    symbolic = bool(d.facts.get("symbolic"))
    p = d.points
    parts = [f"Free-body diagram of {d.name}: the segment from the proximal joint at "
             f"{_point(p['proximal'])} to the distal end at {_point(p['distal'])}, centre of "
             f"mass at {_point(p['com'])}."]
    loads = []
    for a in d.arrows:
        name = _plain(a.symbol or a.label)
        if a.kind == "weight":
            size = "" if symbolic else f" {_number(float(np.hypot(*a.vector)))} N"
            loads.append(f"weight {name}{size} straight down at the centre of mass")
            continue
        role = " (reaction of the neighbouring segment)" if a.reaction else ""
        if symbolic:  # the way it is drawn (an unknown that is zero here is drawn anyway)
            loads.append(f"force {name}{role} drawn pointing {_direction(a.delta)} at "
                         f"{a.where}")
        else:
            loads.append(f"force {name}{role} {_number(float(np.hypot(*a.vector)))} N "
                         f"pointing {_direction(a.vector)} at {a.where}")
    for m in d.moments:
        name = _plain(m.symbol or m.label)
        role = " (reaction of the neighbouring segment)" if m.reaction else ""
        if symbolic or np.isnan(m.value):
            loads.append(f"moment {name}{role} drawn {_sense(m.sense)} at {m.where}")
        else:
            loads.append(f"moment {name}{role} {_number(abs(m.value))} N m "
                         f"{_sense(m.sense)} at {m.where}")
    if loads:
        parts.append(f"Loads on it ({len(loads)}): " + "; ".join(loads) + ".")
    if not symbolic and d.facts.get("force_scale"):
        per = 0.01 / d.facts["force_scale"]  # newtons per centimetre of arrow
        parts.append(f"Force arrows are drawn to scale, 1 cm on the axes (in metres) for "
                     f"{_number(per)} N; an arrow shorter than a tenth of the segment is "
                     "drawn that long.")
    if symbolic:
        parts.append("Symbols only: each arrow points the way the load acts; a load and "
                     "its reaction carry the same symbol and point opposite ways.")
    return " ".join(parts)


def _sketch(d: Any) -> str:
    joints = np.atleast_2d(d.points["joints"])
    pairs = d.facts.get("segments") or [(j, j + 1) for j in range(len(joints) - 1)]
    what = "chain" if d.facts.get("chain") else "planar model"
    parts = [f"Sketch of a {what} of {len(pairs)} segment(s), numbered 1 to {len(pairs)}:"]
    segs = []
    for j, (a, b) in enumerate(pairs):
        length = float(np.hypot(*(joints[b] - joints[a])))
        segs.append(f"segment {j + 1} from {_point(joints[a])} to {_point(joints[b])} "
                    f"({_number(length)} m long)")
    parts.append("; ".join(segs) + ".")
    if "com" in d.points:
        parts.append("Each segment's centre of mass is marked.")
    angles = [f"{_plain(k)} = {np.degrees(v):.0f} degrees "
              f"({d.facts.get('angle_meaning', {}).get(k, 'angle')}, counter-clockwise "
              "positive)" for k, v in d.angles.items()]
    if angles:
        parts.append("Angles: " + "; ".join(angles) + ".")
    if any(a.kind == "gravity" for a in d.arrows):
        parts.append("Gravity g points straight down.")
    return " ".join(parts)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _strobe(d: Any) -> str:
    f = d.facts
    times = f.get("times")
    poses = d.points["poses"]
    span = (f"from t = {_number(times[0])} s to {_number(times[-1])} s" if times is not None
            else f"over {f.get('n_frames')} frames")
    every = int(f.get("every", 1))
    step = ("every frame" if every == 1
            else f"every {_ordinal(every)} of {f.get('n_frames')} frames")
    parts = [f"Strobe of a movement {span}: {d.frames} postures of a stick figure of "
             f"{f.get('segments')} segment(s) ({step}), drawn over one another, darker with "
             "time."]
    if f.get("spread"):
        parts.append(f"Successive postures are shifted {_number(f['spread'])} m apart "
                     "along x to separate them.")
    lo, hi = poses.reshape(-1, 2).min(axis=0), poses.reshape(-1, 2).max(axis=0)
    parts.append(f"The postures span x from {_number(lo[0])} to {_number(hi[0])} m and y "
                 f"from {_number(lo[1])} to {_number(hi[1])} m.")
    if "path" in d.points:
        path = d.points["path"]
        plo, phi = path.min(axis=0), path.max(axis=0)
        parts.append(f"The {f.get('path_label', 'path')} (dashed) starts at "
                     f"{_point(path[0])} and ends at {_point(path[-1])}; it spans x from "
                     f"{_number(plo[0])} to {_number(phi[0])} m and y from {_number(plo[1])} "
                     f"to {_number(phi[1])} m.")
    if "forces" in f:
        mags = np.hypot(*f["forces"].T)
        k = int(np.argmax(mags))
        at = f"t = {_number(times[k])} s" if times is not None else f"frame {k}"
        parts.append(f"The {f.get('force_label')} is drawn at each posture: largest "
                     f"{_number(mags[k])} N at {at}, pointing {_direction(f['forces'][k])}; "
                     f"the scale arrow is {_number(f['scale_newtons'])} N.")
    if "ground" in f:
        parts.append(f"The ground is the line y = {_number(f['ground'])} m.")
    return " ".join(parts)


def describe(d: Any) -> str:
    """Write the text alternative of drawing ``d`` (see :meth:`Drawing.describe`)."""
    if d.kind == "free-body diagram":
        return _free_body(d)
    if d.kind == "model sketch":
        return _sketch(d)
    if d.kind == "strobe":
        return _strobe(d)
    parts = []
    for a in d.arrows:
        parts.append(f"{_plain(a.label)}: {_number(float(np.hypot(*a.vector)))} N pointing "
                     f"{_direction(a.vector)}.")
    for m in d.moments:
        parts.append(f"{_plain(m.label)}: {_number(abs(m.value))} N m {_sense(m.sense)}.")
    return " ".join(parts) or "A drawing with no loads."
