"""The one explorer pattern shared by all widgets (figure built once, data updated)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["explorer"]


def explorer(
    fig: Any,
    update: Callable[..., None],
    controls: Mapping[str, Any],
    *,
    interactive: bool = True,
    values: Mapping[str, Any] | None = None,
):
    """Wire ipywidgets controls to a figure whose artists are built once.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, with every artist already created.
    update : callable
        ``update(**values)`` sets the artists' data (``set_data``, ``set_ydata``,
        ``set_text``, axis limits) for one set of control values; it must not create
        new figures.
    controls : mapping of str to ipywidgets.ValueWidget
        One control per keyword argument of ``update``; its ``value`` is the default.
    interactive : bool, optional
        ``True`` (default) returns an ``ipywidgets.VBox`` with the controls above an
        ``Output`` that shows the figure and is redrawn on every change. ``False`` applies
        ``values`` (or the controls' defaults) once and returns ``fig``: the path CI and
        scripts use.
    values : mapping, optional
        Control values for the non-interactive path, overriding the defaults.

    Returns
    -------
    ipywidgets.VBox or matplotlib.figure.Figure
        The widget (interactive) or the updated figure (non-interactive).
    """
    current = {name: control.value for name, control in controls.items()}
    if values:
        unknown = set(values) - set(current)
        if unknown:
            raise ValueError(
                f"values has unknown control name(s) {sorted(unknown)}; "
                f"the controls are {sorted(current)}"
            )
        current.update(values)
    update(**current)
    if not interactive:
        return fig

    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from IPython.display import display

    plt.close(fig)  # shown only through the Output below, never twice
    out = widgets.Output()

    def redraw(change: Any = None) -> None:
        # Everything runs inside the Output, so an error in ``update`` shows its traceback in
        # the explorer, where the student is looking, instead of only in JupyterLab's log.
        with out:
            out.clear_output(wait=True)
            update(**{name: control.value for name, control in controls.items()})
            fig.canvas.draw_idle()
            display(fig)

    for control in controls.values():
        control.observe(redraw, names="value")
    redraw()
    box = widgets.VBox([widgets.HBox(list(controls.values())), out])
    box.add_class("bmc-explorer")
    return box
