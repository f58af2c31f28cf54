"""Frames computed ahead along one slider, so the browser can show them without asking.

While a student's pointer is on a slider (or a key has just moved it) and the kernel has
nothing else to do, the browser asks for the figure at the slider's positions nearest its
value, the other controls as they are: ``{"type": "sweep", "control": name, "values":
{...}, "at": [[index, value], ...], "ctx": key, "seq": n}``. :func:`answer` computes them
with the explorer's own ``update`` and ``describe``, each as the items that differ from
those last sent (what the browser holds), puts the controls back as they were at once and
the figure within :data:`RESTORE` seconds (or at the next ``set``, which draws anyway). A
drag or a key press over positions computed ahead is then drawn in the browser at once,
with no round trip to the kernel; the browser tells the kernel the values once they rest
(``set``), and the kernel's answer is the same figure.

The kernel stops before a position that would end past :data:`BUDGET` seconds (one
position always runs: an explorer whose update alone takes longer gets one per message),
so a ``set`` arriving meanwhile waits about that long at most; the answer lists the
positions ``tried`` (a value the controls refuse, or at which ``update`` raises, is tried
and has no frame: the ``set`` path says why when the student gets there).
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["BUDGET", "RESTORE", "answer"]


def __dir__() -> list[str]:
    return sorted(__all__)


BUDGET = 0.05  # [s] of kernel time per sweep message, then the rest waits for the next ask
RESTORE = 0.3  # [s] without a message before the figure goes back to the drawn values


def answer(runner: Any, content: dict) -> None:
    """Compute the frames a ``sweep`` message asks for and send them (see the module doc).

    The answer echoes the positions asked (``at``) and says which were ``tried``; each
    frame carries the swept control's value as the browser sent it (``v``): the frame is
    what a ``set`` of the browser's values with that one changed draws (the same
    ``from_browser`` and ``check``), and the browser uses it only at exactly those values.
    While the explorer shows an error the answer is ``later`` (ask again once the kernel
    has drawn).

    Parameters
    ----------
    runner : bmc.widgets._base._Explorer
        The explorer (figure, ``update``, controls, their specs, ``describe``, view).
    content : dict
        The browser's message.
    """
    view = runner.view
    frames: list[dict] = []
    tried: list[int] = []
    name = content.get("control")
    asked = content.get("at")
    scene = getattr(view, "_scene", None)
    spec = runner.specs.get(name) if isinstance(name, str) else None
    context = None
    if (scene is not None and spec is not None and spec.kind in ("number", "integer")
            and not runner.failed and isinstance(asked, list)):
        try:
            context = runner.checked(runner.from_browser(content.get("values")))
        except (TypeError, ValueError):  # refused: no frames
            context = None
    if context is not None and set(context) == set(runner.specs):
        frames, tried = _frames(runner, scene, spec, context, asked)
    from bmc.widgets._canvas import _split_buffers

    listed, paths, buffers = _split_buffers(frames)
    view.send({"type": "frames", "seq": content.get("seq"), "control": name,
               "ctx": content.get("ctx"), "at": asked if isinstance(asked, list) else [],
               "frames": listed, "paths": paths, "tried": tried,
               "later": bool(runner.failed)}, buffers=buffers)


def _frames(runner: Any, scene: Any, spec: Any, context: dict,
            asked: list) -> tuple[list[dict], list[int]]:
    base = scene.sent  # what the browser holds: each frame is what differs from it
    before = {key: control.value for key, control in runner.controls.items()}
    frames: list[dict] = []
    tried: list[int] = []
    start = time.perf_counter()
    with runner.mute():
        for pair in asked:
            spent = time.perf_counter() - start
            # stop before a position that would end past the budget (one always runs)
            if tried and spent * (len(tried) + 1) / len(tried) > BUDGET:
                break
            if not (isinstance(pair, list) and len(pair) == 2
                    and isinstance(pair[0], int) and not isinstance(pair[0], bool)):
                continue  # not a position: neither tried nor drawn
            tried.append(pair[0])
            try:
                value = spec.check(spec.from_browser(pair[1]))
            except (TypeError, ValueError):
                continue  # refused: the set path says why when the student gets there
            values = {**context, spec.name: value}
            for key, v in values.items():
                runner.controls[key].value = v  # what describe() may read
            runner.elsewhere = True  # the figure leaves the values drawn
            try:
                runner.update(**values)
                text = runner.describe()
            except Exception:  # noqa: BLE001 - the set path shows its traceback there
                continue
            frames.append({"k": pair[0], "v": pair[1], "items": scene.differences(base),
                           "description": text})
        for key, value in before.items():  # as they were: a value set in Python stays
            runner.controls[key].value = value
    if runner.elsewhere:
        _restore_soon(runner)
    return frames, tried


def _restore_soon(runner: Any) -> None:
    """Put the figure back once no message has come for :data:`RESTORE` seconds.

    The next ``sweep`` needs no restored figure, and the next ``set`` draws its own values
    anyway (``runner.elsewhere`` makes it update even at the values last drawn): restoring
    at once would cost one more update in front of the message that waits.
    """
    import asyncio

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        runner.restore()
        return
    if runner.restore_handle is not None:
        runner.restore_handle.cancel()
    runner.restore_handle = loop.call_later(RESTORE, runner.restore)
