"""Filling an explorer's caches in the background while the student reads the figure.

:func:`warm_up` runs slow per-slider-value work (an integration, a simulation) in a daemon
thread, in the order given (an explorer lists the values next to its defaults first), and
steps aside while the student moves a slider and, in IPython, while notebook cells run.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["warm_up"]


def _shell() -> Any:
    """Return the running IPython shell, or None (IPython is not imported for this)."""
    ipython = sys.modules.get("IPython")
    return None if ipython is None else ipython.get_ipython()


def warm_up(*calls: Callable[[], Any], controls: Mapping[str, Any] | None = None,
            quiet: float = 1.0) -> Any:
    """Run ``calls`` one after the other in a background thread (fill per-slider caches).

    Meant for explorers whose ``update`` caches slow work per slider value: while the
    student reads the figure, the values next to the defaults are computed, so that moving
    a slider finds them ready. While the student moves the sliders the warm-up waits, so
    that it does not slow the updates down; in IPython it also waits while a cell runs and
    for ``quiet`` after it (a Run All runs its cells at full speed, not sharing the
    interpreter with the warm-up: once it did, and notebook 3's cells after the explorer
    took 1.3 s more; made outside a cell, from a widget's callback say, it waits for the
    next cell to end). A call that raises stops the warm-up quietly; the same error then
    shows in the explorer when the slider reaches that value.

    Parameters
    ----------
    *calls : callable
        Functions of no argument, in the order to run them.
    controls : mapping of str to ipywidgets.ValueWidget, optional
        The explorer's controls; the next call waits until none has changed for ``quiet``.
    quiet : float, optional
        Time without a control change before the next call runs [s]. Default 1.

    Returns
    -------
    threading.Thread
        The started daemon thread (``join`` it to wait).

    Raises
    ------
    TypeError
        If a call is not callable or ``controls`` is not a mapping of controls (checked
        before the thread starts, so that nothing dies quietly in the background).
    ValueError
        If ``quiet`` is negative or not finite.
    """
    import threading

    from bmc._validation import positive

    for i, call in enumerate(calls):
        if not callable(call):
            raise TypeError(f"calls[{i}] must be a function of no argument (e.g. lambda: "
                            f"update(angle=30)); got {type(call).__name__} {call!r}")
    if controls is not None and not (isinstance(controls, Mapping) and all(
            hasattr(c, "observe") for c in controls.values())):
        raise TypeError("controls must map names to ipywidgets controls (with observe), or "
                        f"be None; got {type(controls).__name__} {str(controls)[:60]}")
    quiet = positive(quiet, "quiet", unit="s", allow_zero=True)
    last_move = [-float("inf")]

    def moved(change: Any = None) -> None:
        last_move[0] = time.monotonic()

    for control in (controls or {}).values():
        control.observe(moved, names="value")

    # In IPython, called from a running cell: wait for it (and the cells after it) to end.
    shell = _shell()
    busy = [shell is not None]

    def started(*args: Any) -> None:
        busy[0] = True

    def finished(*args: Any) -> None:
        busy[0] = False
        moved()

    if shell is not None:
        shell.events.register("pre_run_cell", started)
        shell.events.register("post_run_cell", finished)

    def run() -> None:
        try:
            for call in calls:
                while True:
                    if busy[0]:
                        time.sleep(0.05)
                    elif (wait := last_move[0] + quiet - time.monotonic()) > 0:
                        time.sleep(wait)
                    else:
                        break
                try:
                    call()
                except Exception:  # shown in place when the slider gets there
                    return
        finally:
            if shell is not None:
                shell.events.unregister("pre_run_cell", started)
                shell.events.unregister("post_run_cell", finished)

    thread = threading.Thread(target=run, name="bmc-explorer-warm-up", daemon=True)
    thread.start()
    return thread
