"""The explorer's widget class and the ``twinned`` decorator (split from ``_base``).

``explorer_class()`` is the ipywidgets box an explorer returns: in JupyterLab its children
(controls and the figure drawn in the browser); on a static page its picture at the values
it opened with, with the explorer's description as the text alternative. ``twinned`` lets
the browser tests build an independent copy of an explorer's figure.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


@functools.cache
def explorer_class() -> type:
    import ipywidgets as widgets

    class Explorer(widgets.VBox):
        """The explorer's widget; on a static page, the figure at the values it opened with."""

        def __init__(self, children: list, *, static: bytes | None, alt: str) -> None:
            super().__init__(children)
            self._static, self._alt = static, alt
            self.twin = None  # builds an independent copy of the figure (see `twinned`)

        def _repr_mimebundle_(self, **kwargs: Any):
            import base64

            data = super()._repr_mimebundle_(**kwargs)
            metadata: dict = {}
            if self._static:
                from bmc.plotting import figure_html

                data["image/png"] = base64.b64encode(self._static).decode("ascii")
                metadata["image/png"] = {"alt": self._alt}
                # a static page without the widget's state (nbconvert, nbviewer) renders
                # text/html before image/png, and reads no alt from the output's metadata
                data["text/html"] = figure_html(data["image/png"], self._alt)
            data["text/plain"] = self._alt  # what a text-only view and a screen reader get
            return data, metadata

    return Explorer


def twinned(factory: Callable[..., Any]) -> Callable[..., Any]:
    """Let an explorer build an independent copy of its figure (for the browser tests).

    Decorates an explorer function (``interactive`` and ``values`` keywords): the widget
    it returns gets ``twin()``, which calls the function again with the same arguments on
    the non-interactive path and returns the new figure, never touched by the browser
    renderer: Matplotlib's own rendering of it is the truth the canvas is compared with.
    """
    @functools.wraps(factory)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        box = factory(*args, **kwargs)
        if kwargs.get("interactive", True) and hasattr(box, "twin"):
            same = {k: v for k, v in kwargs.items() if k not in ("interactive", "values")}
            box.twin = lambda: factory(*args, interactive=False, **same)
        return box

    return wrapper
