"""Text alternatives of figures made from data: what each axes plots and its extremes."""

from __future__ import annotations

import re

import numpy as np

__all__ = ["describe_figure"]


def __dir__() -> list[str]:
    return sorted(__all__)


_STYLE_WORDS = {"-": "solid", "--": "dashed", "-.": "dash-dot", ":": "dotted"}


def _number(value: float) -> str:
    """Three significant digits in plain notation (trailing zeros dropped)."""
    if value == 0:
        return "0"  # never "-0"
    if not np.isfinite(value):
        return f"{value:g}"
    if abs(value) >= 1e5:
        return f"{value:.3g}"
    return np.format_float_positional(value, precision=3, unique=False, fractional=False,
                                      trim="-")


def _plain(label: str) -> str:
    """Write a label as words: TeX dollars, backslashes and braces removed."""
    text = re.sub(r"\\(mathbf|mathrm|boldsymbol|text|mathit)\{([^{}]*)\}", r"\2", label)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return " ".join(text.replace("$", "").replace("{", "").replace("}", "").split())


def _name_and_unit(label: str) -> tuple[str, str]:
    """``"elbow torque [N m]"`` -> ``("elbow torque", "N m")``."""
    text = _plain(label)
    match = re.search(r"\[([^\[\]]*)\]\s*$", text) or re.search(r"\(([^()]*)\)\s*$", text)
    if match:
        return text[:match.start()].strip(" ,"), match.group(1).strip()
    return text, ""


def _with_unit(value: float, unit: str) -> str:
    return f"{_number(value)} {unit}".strip() if unit not in ("-", "1") else _number(value)


def _line(line, x_name: str, x_unit: str, y_unit: str, index: int) -> str | None:
    xy = np.asarray(line.get_xydata(), float)
    if xy.size == 0:
        return None
    label = line.get_label()
    name = f"{_plain(label)!r}" if label and not label.startswith("_") else f"Line {index}"
    style = _STYLE_WORDS.get(line.get_linestyle(), "")
    marker = line.get_marker()
    look = ", ".join(w for w in (style and f"{style} line",
                                 marker not in (None, "None", "", " ") and "markers") if w)
    y = xy[:, 1]
    if not np.any(np.isfinite(y)):
        return f"{name} ({look}): no finite values."
    lo, hi = int(np.nanargmin(y)), int(np.nanargmax(y))
    where = (lambda k: f" at {x_name} = {_with_unit(xy[k, 0], x_unit)}") if x_name or x_unit \
        else (lambda k: f" at x = {_number(xy[k, 0])}")
    if np.nanmax(y) == np.nanmin(y):
        return f"{name} ({look}): constant at {_with_unit(y[lo], y_unit)}."
    return (f"{name} ({look}): from a minimum of {_with_unit(y[lo], y_unit)}{where(lo)} to a "
            f"maximum of {_with_unit(y[hi], y_unit)}{where(hi)}.")


def _axes(ax, index: int, total: int) -> str:
    parts = []
    title = _plain(ax.get_title()) or _plain(ax.get_title(loc="left"))
    head = f"Panel {index}" if total > 1 else "The plot"
    parts.append(f"{head}{f' ({title!r})' if title else ''}:")
    x_name, x_unit = _name_and_unit(ax.get_xlabel())
    y_name, y_unit = _name_and_unit(ax.get_ylabel())
    axis_words = []
    for name, unit, scale, lim in ((x_name, x_unit, ax.get_xscale(), ax.get_xlim()),
                                   (y_name, y_unit, ax.get_yscale(), ax.get_ylim())):
        what = name or "unlabelled"
        unit_text = f" [{unit}]" if unit else ""
        log = ", logarithmic" if scale == "log" else ""
        axis_words.append(f"{what}{unit_text}{log}, shown from {_number(min(lim))} to "
                          f"{_number(max(lim))}")
    parts.append(f"x axis: {axis_words[0]}; y axis: {axis_words[1]}.")
    k = 0
    for line in ax.lines:
        if not line.get_visible():
            continue
        if line.get_transform() != ax.transData:  # axhline / axvline
            xy = np.asarray(line.get_xydata(), float)
            label = line.get_label()
            named = f" ({_plain(label)})" if label and not label.startswith("_") else ""
            if np.ptp(xy[:, 1]) == 0:
                parts.append(f"Horizontal reference line{named} at "
                             f"{_with_unit(xy[0, 1], y_unit)}.")
            elif np.ptp(xy[:, 0]) == 0:
                parts.append(f"Vertical reference line{named} at "
                             f"{_with_unit(xy[0, 0], x_unit)}.")
            continue
        k += 1
        text = _line(line, x_name, x_unit, y_unit, k)
        if text:
            parts.append(text)
    for coll in ax.collections:
        label = coll.get_label()
        if coll.get_visible() and label and not label.startswith("_"):
            parts.append(f"Shaded or marked: {_plain(label)}.")
    if ax.images:
        parts.append(f"{len(ax.images)} image(s).")
    return " ".join(parts)


def describe_figure(figure) -> str:
    """Describe a figure made from data: what each axes plots, with units, and the extremes.

    For each axes: its title, what its x and y axes show (label, unit, range shown), and for
    each line its legend label (or its number), its line style and the minimum and maximum of
    its values, each with where it occurs on the x axis and with the y axis's unit (the text
    in square brackets at the end of the axis label). Reference lines across the axes
    (``axhline``/``axvline``) are given with their value. A hand-written text alternative
    can start with what the figure is for and end with this.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure (every axes of it with at least one line, or a label, is described;
        colour bars are described by their label).

    Returns
    -------
    str
        Plain text, one sentence or more per axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from bmc.plotting import describe_figure
    >>> t = np.linspace(0.0, 1.0, 101)
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot(t, 10 * np.sin(2 * np.pi * t), label="elbow")
    >>> _ = ax.set(xlabel="time [s]", ylabel="torque [N m]")
    >>> print(describe_figure(fig))  # doctest: +NORMALIZE_WHITESPACE
    The plot: x axis: time [s], shown from -0.05 to 1.05; y axis: torque [N m], shown from
    -11 to 11. 'elbow' (solid line): from a minimum of -10 N m at time = 0.75 s to a
    maximum of 10 N m at time = 0.25 s.
    >>> plt.close(fig)
    """
    from matplotlib.figure import Figure

    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a Matplotlib Figure; got {type(figure).__name__}")
    plotted = [ax for ax in figure.axes
               if ax.lines or ax.collections or ax.images or ax.get_xlabel() or ax.get_ylabel()]
    bars = [ax for ax in plotted if not ax.lines and not ax.images
            and ax.get_label() == "<colorbar>"]
    main = [ax for ax in plotted if ax not in bars]
    parts = [_axes(ax, i + 1, len(main)) for i, ax in enumerate(main)]
    for ax in bars:
        name, unit = _name_and_unit(ax.get_ylabel() or ax.get_xlabel())
        lim = ax.get_ylim() if ax.get_ylabel() else ax.get_xlim()
        parts.append(f"Colour bar: {name or 'values'} from {_with_unit(min(lim), unit)} to "
                     f"{_with_unit(max(lim), unit)}.")
    suptitle = _plain(figure.get_suptitle()) if hasattr(figure, "get_suptitle") else ""
    head = f"Figure {suptitle!r}. " if suptitle else ""
    return head + (" ".join(parts) if parts else "An empty figure.")
