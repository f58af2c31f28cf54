"""Public checks that judge values on practice data, never on a student's own data.

Every computed answer is asked as a function of the data (``joint_torque(p)``); the check
runs it on :func:`~bmc.checks.practice` data, whose answers a student may see, and says how
far off it is, which way, and the likely mistake: it compares with wrong answers computed
from the same data (a forgotten term, an angle in degrees, ...) and *probes* the function
with changed data (no velocity removes the velocity terms, no gravity the weights) to
isolate the wrong term. The answer for the student's own data (``tau = joint_torque(p)``) is
only checked for its form and that it is what the function gives; its value is judged
when the notebook is graded.

A prediction (a sign, a set, a choice) has few possible values: a check could only give
it away. Its practice case (another situation, same concept) is judged here; the
prediction itself is checked for its form, and the check ends with
:class:`JudgedAtGrading`, so that it never says "passed" for it.
"""

from __future__ import annotations

import linecache
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bmc.checks import _cells
from bmc.checks._core import (
    IncorrectAnswer,
    Problem,
    _fail,
    _missing,
    _numeric,
    check_choice,
    check_form,
    check_set,
    check_sign,
    practice,
)
from bmc.checks._diagnose import describe, matches, unit_mistakes

__all__ = ["JudgedAtGrading", "Output", "answer_of", "call_student", "check_group",
           "require_function", "judged_at_grading",
           "practice_function", "practice_prediction", "require_answer"]


class JudgedAtGrading(AssertionError):
    """The answer has the right form; its value is judged only when the notebook is graded.

    Raised by a public check after everything it may judge is right, so that the otter
    result never says "passed" for a value it did not judge (:func:`bmc.checks.report`
    shows it as "checked for form").
    """


@dataclass(frozen=True)
class Output:
    """One output of a student's function: its name, shape and unit."""

    name: str
    shape: tuple[int, ...] = ()
    unit: str = ""


def _student_line(exc: BaseException, func: Any) -> str:
    """' at line 3 of the cell that defines f (`code`)', from the traceback."""
    code = getattr(func, "__code__", None)
    if code is None:
        return ""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == code.co_filename:
            found = tb.tb_lineno
        tb = tb.tb_next
    if found is None:
        return ""
    text = linecache.getline(code.co_filename, found).strip()
    return f" at line {found} of the cell that defines it" + (f" (`{text}`)" if text else "")


def call_student(label: str, func: Any, *args: Any, hint: str = "",
                 via: Callable[[], Any] | None = None, **kwargs: Any) -> Any:
    """Call a student's function; an exception becomes a message with its type and line.

    ``via``, if given, makes the call instead (``lambda: func(data, 0.3)``); the error's
    line is still looked up in ``func``'s cell.
    """
    try:
        out = via() if via is not None else func(*args, **kwargs)
    except Exception as exc:  # the student's code: report it, never crash the check
        raise _fail(label, f"raised {type(exc).__name__}: {str(exc)[:300]}"
                    f"{_student_line(exc, func)}", hint) from None
    if out is None or out is Ellipsis:
        raise _fail(label, "returned nothing: replace the `...` and end the function with "
                    "`return ...` (your result)", hint)
    return out


def _global_data(func: Any, parameter: str | None) -> list[str]:
    """Global variables holding data that ``func`` reads (it should read its argument)."""
    names: set[str] = set()
    stack = [getattr(func, "__code__", None)]
    while stack:
        code = stack.pop()
        if code is None:
            continue
        names.update(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    scope = getattr(func, "__globals__", {})
    found = []
    for name in sorted(names):
        value = scope.get(name)
        if value is None or callable(value) or isinstance(
                value, types.ModuleType):
            continue
        if isinstance(value, (Problem, int, float, np.ndarray, np.generic, list, tuple)):
            found.append(name)
    return found


def _outputs(label: str, raw: Any, outputs: Sequence[Output], hint: str) -> list[np.ndarray]:
    """Split and validate a function's result into its outputs."""
    if len(outputs) == 1:
        return [_numeric(label, raw, shape=outputs[0].shape, unit=outputs[0].unit, hint=hint)]
    if not isinstance(raw, (tuple, list)) or len(raw) != len(outputs):
        names = ", ".join(o.name for o in outputs)
        raise _fail(label, f"must return {len(outputs)} results ({names}), as `return "
                    f"{names}`; got {type(raw).__name__}", hint)
    return [_numeric(f"{label} -> {o.name}", r, shape=o.shape, unit=o.unit, hint=hint)
            for r, o in zip(raw, outputs, strict=True)]


def _tolerances(expected: Sequence[np.ndarray], atol: float) -> list[float]:
    """Absolute tolerances: round-off of the largest entry of each output."""
    return [max(atol, 1e-6 * float(np.max(np.abs(e))) if np.size(e) else atol)
            for e in expected]


def require_answer(name: str, value: Any, *, shape: tuple[int, ...] = (), unit: str = "",
                   kind: str = "value", choices: Sequence[Any] | None = None,
                   hint: str = "") -> bool:
    """Check that an answer exists and has its form; report its cell's error if it raised."""
    note = _cells.kernel_log().explain(name)
    if note:
        raise IncorrectAnswer(note + ".")
    if _missing(value):
        raise _fail(name, "has no answer yet: replace the `...` (and run the cell)", hint)
    return check_form(name, value, kind=kind, shape=shape, unit=unit, choices=choices,
                      hint=hint)


def require_function(name: str, func: Any, *, hint: str = "") -> bool:
    """Check that a function answer exists; report its cell's error if its cell raised."""
    note = _cells.kernel_log().explain(name)
    if note:
        raise IncorrectAnswer(note + ".")
    if _missing(func):
        raise _fail(name, "is not defined yet: write the function and run its cell", hint)
    if not callable(func):
        raise _fail(name, f"must be a function (def {name}(...): ...); got "
                    f"{type(func).__name__}", hint)
    return True


def answer_of(name: str, value: Any, func: Any, data: Any, *, unit: str, hint: str,
              shape: tuple[int, ...] = (), pick: int | None = None,
              call: str = "") -> bool:
    """Check the answer for the student's own data: it exists, has its form, and is it.

    It must be what the function gives for those data (output ``pick`` of it, if it
    returns several).

    ``call`` is how the notebook computes it (default ``f"{function}(p)"``).
    """
    require_answer(name, value, shape=shape, unit=unit, hint=hint)
    fname = getattr(func, "__name__", "your function")
    call = call or f"{fname}(p)"
    if isinstance(data, Problem) and not data.is_practice and callable(func):
        try:
            out = func(data)
            own = np.asarray(out if pick is None else out[pick], dtype=float)
        except Exception:  # noqa: BLE001 (the practice call reports the function's errors)
            return True
        if own.shape == np.shape(value) and not np.allclose(own, np.asarray(
                value, dtype=float), rtol=1e-9, atol=0.0):
            raise _fail(name, f"is not what {call} gives with your data: compute it with "
                        f"your function ({name} = {call}), so that what is graded is what "
                        "the check judged", hint)
    return True


def practice_function(
        name: str, func: Any, *, topic: str, outputs: Sequence[Output],
        expected: Callable[[Problem], Sequence[Any]],
        call: Callable[[Any, Problem], Any] = lambda f, data: f(data),
        probes: Sequence[tuple[str, dict[str, Any]]] = (),
        mistakes: Sequence[tuple[str, Callable[[Problem], Sequence[Any]]]] = (),
        parameter: str | None = "p", rtol: float = 1e-3, atol: float = 0.0,
        hint: str = "", data: Problem | None = None) -> bool:
    """Judge a student's function of the data on the practice data of ``topic``.

    Parameters
    ----------
    name : str
        The function's name, as the student wrote it (``"joint_torque"``).
    func : callable
        The student's function.
    topic : str
        Exercise set whose :func:`~bmc.checks.practice` data are used.
    outputs : sequence of Output
        What it returns (one, or a tuple of several).
    expected : callable
        Right outputs for given data (computed with ``bmc``; called on practice data only).
    call : callable, optional
        How to call the student's function with data (default ``func(data)``).
    probes : sequence of (description, changes), optional
        Changed practice data that remove a term (``("no velocity", {"qd": [0, 0]})``).
    mistakes : sequence of (description, callable), optional
        Wrong answers from the same data, each with what went wrong.
    parameter : str or None, optional
        The function's data parameter: reading a global of that name is reported.
    rtol, atol : float, optional
        Tolerances (``atol`` at least round-off of the largest entry).
    hint : str, optional
        Where to read in the course.
    data : Problem, optional
        Practice data to use instead of ``practice(topic)`` (a changed copy of them).

    Returns
    -------
    bool
        ``True`` if the function is right on the practice data.

    Raises
    ------
    IncorrectAnswer
        If the function is missing, raises, returns the wrong form or a wrong value.
    """
    require_function(name.split("(")[0], func, hint=hint)
    data = practice(topic) if data is None else data
    if not data.is_practice:
        raise ValueError("a public check judges practice data only")
    label = f"{name} on the practice data"
    got = _outputs(label, call_student(label, func, hint=hint, via=lambda: call(func, data)),
                   outputs, hint)
    right = [np.asarray(e, dtype=float) for e in expected(data)]
    atols = _tolerances(right, atol)
    if matches(got, right, rtol, atols):
        return True
    names = [o.name for o in outputs]
    parts = [describe(names, got, right, units=[o.unit for o in outputs], rtol=rtol,
                      atol=atols, level="practice")]
    models = [*((w, (lambda m=m: m(data))) for w, m in mistakes),
              *((w, (lambda d=d: expected(d))) for w, d in unit_mistakes(data))]
    for what, model in models:
        try:
            wrong = model()
        except Exception:  # noqa: BLE001 (data the library refuses: not this mistake)
            continue
        if _explains(got, right, wrong, rtol, atols):
            parts.append(f"it is what you get with {what}")
            break
    if len(parts) == 1:  # no known mistake: isolate the wrong term by probing
        parts.append(_probe(func, data, call, expected, outputs, probes, rtol, atol))
    used = _global_data(func, parameter)
    if used:
        parts.append(f"note: {name} reads the global variable(s) {', '.join(used)}; "
                     f"compute everything from its argument {parameter or ''} inside the "
                     "function, so that it works for any data")
    detail = "; ".join(p for p in parts if p)
    raise _fail(label, "is not right yet" + (f": {detail}" if detail else ""), hint)


def _explains(got: Sequence[np.ndarray], right: Sequence[np.ndarray], wrong: Sequence[Any],
              rtol: float, atols: Sequence[float]) -> bool:
    """Whether every output is right or the mistake's, and at least one only the mistake's."""
    if len(wrong) != len(got):
        return False
    telling = False
    for g, r, w, t in zip(got, right, wrong, atols, strict=True):
        is_right = matches([g], [r], rtol, [t])
        is_wrong = matches([g], [w], rtol, [t])
        if not (is_right or is_wrong):
            return False
        telling = telling or (is_wrong and not is_right)
    return telling


def _probe(func: Any, data: Problem, call: Callable[[Any, Problem], Any],
           expected: Callable[[Problem], Sequence[Any]], outputs: Sequence[Output],
           probes: Sequence[tuple[str, dict[str, Any]]], rtol: float, atol: float) -> str:
    """'right with no velocity (...), wrong with no gravity (...)', or ''."""
    right, wrong = [], []
    for what, changes in probes:
        changed = data.modified(what, **changes)
        try:
            got = _outputs(what, call(func, changed), outputs, "")
        except Exception:  # a probe is information, never an error
            continue
        exp = [np.asarray(e, dtype=float) for e in expected(changed)]
        (right if matches(got, exp, rtol, _tolerances(exp, atol)) else wrong).append(what)
    if not right or not wrong:
        return ""
    return (f"your function is right with {' and with '.join(right)}, so the mistake is in "
            f"the terms {'this change removes' if len(right) == 1 else 'these changes remove'}"
            f" (it stays wrong with {' and with '.join(wrong)})")


def practice_prediction(items: Sequence[tuple[str, Any, Any, str, Sequence[Any] | None]], *,
                        hint: str = "") -> bool:
    """Judge practice predictions by value (their answers may be shown).

    ``items`` holds ``(name, answer, expected, kind, choices)`` with ``kind`` ``"sign"``,
    ``"set"`` or ``"choice"``.
    """
    for name, answer, expected, kind, choices in items:
        note = _cells.kernel_log().explain(name)
        if note:
            raise IncorrectAnswer(note + ".")
        if kind == "sign":
            check_sign(name, answer, expected, hint=hint)
        elif kind == "set":
            check_set(name, answer, expected, allowed=choices or [], hint=hint)
        else:
            check_choice(name, answer, expected, choices=choices or [], hint=hint)
    return True


def check_group(items: Sequence[tuple[str, Any, Any]], *, kind: str,
                choices: Sequence[Any] | None = None, hint: str = "") -> bool:
    """Judge answers with few possible values (signs, sets, choices), naming only the concept.

    A form error is named with its answer; a wrong value is not: the message says that
    not all of the answers are right, never which, since for a sign or a set of two items
    that would give the answer away.

    Parameters
    ----------
    items : sequence of (name, answer, expected)
        ``expected`` is a quantity whose sign is the answer (``kind="sign"``), the set of
        right items (``"set"``) or the right option (``"choice"``).
    kind : {"sign", "set", "choice"}
        What the answers are.
    choices : sequence, optional
        Valid items or options for ``"set"`` and ``"choice"``.
    hint : str, optional
        The concept to re-read.

    Returns
    -------
    bool
        ``True`` if every answer is right.
    """
    wrong = []
    for name, answer, expected in items:
        check_form(name, answer, kind=kind, choices=choices, hint=hint)
        try:
            if kind == "sign":
                check_sign(name, answer, expected)
            elif kind == "set":
                check_set(name, answer, expected, allowed=choices or [])
            else:
                check_choice(name, answer, expected, choices=choices or [])
        except IncorrectAnswer:
            wrong.append(name)
    if not wrong:
        return True
    names = [name for name, _, _ in items]
    if len(names) == 1:
        raise _fail(names[0], "is not right yet", hint)
    raise _fail(", ".join(names), "are not all right yet (a message naming the wrong one "
                "would give the answers away)", hint)


def judged_at_grading(names: Sequence[str], why: str = "", *, right: str = "") -> None:
    """End a check whose answers ``names`` can only be judged at grading.

    ``right`` says what the check did judge and found right ("the practice signs are
    right"); ``why`` why the rest cannot be judged here.
    """
    one = len(names) == 1
    raise JudgedAtGrading(
        (f"{right}. " if right else "")
        + f"{', '.join(names)} {'is' if one else 'are'} answered in the right form; whether "
        f"{'it is' if one else 'they are'} right is judged when your notebook is graded"
        + (f": {why}" if why else ""))
