"""Core of :mod:`bmc.checks`: the answer checks and the problem-data registry."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from bmc.checks._values import element_kind, real_number

__all__ = [
    "IncorrectAnswer",
    "PLACEHOLDER_ID",
    "Problem",
    "check_choice",
    "check_form",
    "check_function",
    "check_set",
    "check_sign",
    "check_value",
    "practice",
    "problem",
    "problems",
    "register_problem",
    "student_data",
]

Entries = list[tuple[str, Any, str, str]]


class IncorrectAnswer(AssertionError):
    """An answer is missing or wrong; the message is a hint that never shows the answer."""


# --------------------------------------------------------------------------------------
# Problem data
# --------------------------------------------------------------------------------------
class Problem:
    """Read-only given data of one exercise set, with units.

    Attribute access returns a fresh copy (a float or a NumPy array), so that a student
    who changes a value changes only their copy; the checks always use the original.
    ``print(problem)`` lists every quantity with its unit and meaning.

    Parameters
    ----------
    topic : str
        Name of the exercise set (see :func:`problems`).
    title : str
        One-line description.
    entries : sequence of (name, value, unit, meaning)
        The data. ``unit`` is an SI unit string ("-" for dimensionless).
    """

    __slots__ = ("_entries", "_practice", "_title", "_topic")

    def __init__(self, topic: str, title: str,
                 entries: Sequence[tuple[str, Any, str, str]], *,
                 practice: bool = False) -> None:
        object.__setattr__(self, "_topic", topic)
        object.__setattr__(self, "_title", title)
        object.__setattr__(self, "_practice", practice)
        from bmc._validation import real_array

        if isinstance(entries, (str, bytes)) or not isinstance(entries, Iterable):
            raise TypeError("entries must be a sequence of (name, value, unit, meaning) "
                            f"tuples; got {type(entries).__name__} {entries!r}")
        frozen = {}
        for i, entry in enumerate(entries):
            if not isinstance(entry, (tuple, list)) or len(entry) != 4:
                raise ValueError(f"entries[{i}] must be a (name, value, unit, meaning) tuple; "
                                 f"got {entry!r}")
            name, value, unit, meaning = entry
            arr = np.array(value) if not isinstance(value, (str, bytes)) else None
            if arr is None or arr.dtype.kind not in "iu":  # sample indices stay integers
                arr = real_array(value, f"entries[{i}] ({name!r} [{unit}])")
            arr.setflags(write=False)
            frozen[name] = (arr, unit, meaning)
        object.__setattr__(self, "_entries", frozen)

    @property
    def topic(self) -> str:
        """Name of the exercise set."""
        return self._topic

    def __getattr__(self, name: str) -> Any:
        entries = object.__getattribute__(self, "_entries")
        if name not in entries:
            raise AttributeError(
                f"problem {self._topic!r} has no quantity {name!r}; it has "
                f"{', '.join(entries)}"
            )
        arr = entries[name][0]
        if arr.ndim == 0:
            return int(arr) if arr.dtype.kind in "iu" else float(arr)
        return arr.copy()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            "problem data are read-only: copy the value into a variable of your own "
            f"(for example `{name} = p.{name}`) and change that"
        )

    def __dir__(self) -> list[str]:
        return sorted(self._entries) + ["topic"]

    @property
    def is_practice(self) -> bool:
        """Whether these are practice data (or a copy of them), whose answers may be shown."""
        return self._practice

    def units(self) -> dict[str, str]:
        """Return the unit of every quantity, by name."""
        return {name: unit for name, (_, unit, _) in self._entries.items()}

    def modified(self, note: str = "", **changes: Any) -> Problem:
        """Return a copy with some quantities replaced (the checks probe functions so).

        Parameters
        ----------
        note : str, optional
            What the change means, added to the title.
        **changes
            Quantity name -> new value (same unit as the original).

        Returns
        -------
        Problem
            The copy; it is practice data only if this one is.
        """
        unknown = sorted(set(changes) - set(self._entries))
        if unknown:
            raise AttributeError(f"problem {self._topic!r} has no quantity {unknown[0]!r}")
        from bmc._validation import as_array

        for name, value in changes.items():
            arr, unit, _ = self._entries[name]
            new = as_array(value, name, unit=unit)
            if new.shape != arr.shape:
                raise ValueError(f"{name} [{unit}] must have the shape of the original, "
                                 f"{arr.shape}; got shape {new.shape}")
        entries = [(name, changes.get(name, arr), unit, meaning)
                   for name, (arr, unit, meaning) in self._entries.items()]
        title = f"{self._title} ({note})" if note else self._title
        return Problem(self._topic, title, entries, practice=self._practice)

    def __repr__(self) -> str:
        call = "practice" if self._practice else "problem"
        lines = [f"{self._title} (bmc.checks.{call}({self._topic!r}))"]
        width = max(len(name) for name in self._entries)
        for name, (arr, unit, meaning) in self._entries.items():
            text = np.array2string(arr, separator=", ", max_line_width=200,
                                   formatter={"float_kind": "{:.6g}".format}
                                   ).replace("\n", "")
            lines.append(f"  {name:<{width}} = {text} [{unit}]  {meaning}")
        return "\n".join(lines)



_Spec = tuple[str, Callable[..., Entries], dict[str, float],
              Callable[[np.random.Generator], dict[str, Any]] | None]
_PROBLEM_SPECS: dict[str, _Spec] = {}
_PROBLEM_CACHE: dict[tuple[str, str | None], Problem] = {}
# None: not set by a grader ("" while a grader asks for the common data)
_STUDENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("bmc_student",
                                                                       default=None)
#: Environment variable the grader sets in its sandbox: the student whose data to give.
STUDENT_ENV = "BMC_STUDENT"
_LAST_STUDENT: str | None = None
#: The id the exercise notebooks ship with, to be replaced by the student's own.
PLACEHOLDER_ID = "your student id"
_PRACTICE_CACHE: dict[str, Problem] = {}


def register_problem(topic: str, title: str, build: Callable[..., Entries], *,
                     vary: dict[str, float] | None = None,
                     variant: Callable[[np.random.Generator], dict[str, Any]] | None = None,
                     ) -> None:
    """Register the given data of an exercise set (used by the topic modules).

    Parameters
    ----------
    topic : str
        Name passed to :func:`problem`.
    title : str
        One-line description.
    build : callable
        Returns the entries ``(name, value, unit, meaning)``; called on first use, so that
        data computed with heavier ``bmc`` modules cost nothing until needed.
    vary : dict, optional
        Quantity name -> relative spread (e.g. ``0.15``): in a student's variant each of
        these quantities is scaled by a factor in ``[1 - spread, 1 + spread]`` drawn from
        the student id (each entry of an array by its own), so that two students get
        different numbers and ratios.
    variant : callable, optional
        For data that a scale factor cannot vary honestly (a sample index, a random
        seed, a body's mass and height from which the segments follow): called with a
        random generator seeded by the topic and the student id, it returns keyword
        arguments for ``build``. The common data are ``build()`` with its defaults.
    """
    if not isinstance(topic, str) or not topic:
        raise TypeError(f"topic must be a non-empty str; got {topic!r}")
    if not isinstance(title, str):
        raise TypeError(f"title must be a str; got {type(title).__name__} {title!r}")
    if not callable(build):
        raise TypeError("build must be a function returning the entries (name, value, unit, "
                        f"meaning); got {type(build).__name__} {str(build)[:60]}")
    if variant is not None and not callable(variant):
        raise TypeError("variant must be a function of a random generator, or None; got "
                        f"{type(variant).__name__} {variant!r}")
    if vary is not None and not isinstance(vary, dict):
        raise TypeError(f"vary must be a dict of quantity name -> spread; got {vary!r}")
    for name, spread in (vary or {}).items():
        if not isinstance(spread, (int, float)) or isinstance(spread, bool) or \
                not 0.0 <= spread < 1.0:
            raise ValueError(f"vary[{name!r}] must be a relative spread from 0 to below 1; "
                             f"got {spread!r}")
    _PROBLEM_SPECS[topic] = (title, build, dict(vary or {}), variant)
    for key in [k for k in _PROBLEM_CACHE if k[0] == topic]:
        _PROBLEM_CACHE.pop(key)
    _PRACTICE_CACHE.pop(topic, None)


def problems() -> list[str]:
    """Return the names of the exercise sets that :func:`problem` knows.

    Returns
    -------
    list of str
        Topic names.

    Examples
    --------
    >>> "one_link" in problems()
    True
    """
    return sorted(_PROBLEM_SPECS)


def _factor(topic: str, student: str, name: str, spread: float) -> float:
    """Deterministic factor in [1 - spread, 1 + spread] for one student and quantity."""
    digest = hashlib.sha256(f"bmc:{topic}:{student}:{name}".encode()).digest()
    unit = int.from_bytes(digest[:8], "big") / 2**64  # uniform in [0, 1)
    return 1.0 + spread * (2.0 * unit - 1.0)


def _student_rng(topic: str, student: str) -> np.random.Generator:
    """Random generator seeded by one student's id and the topic (reproducible)."""
    digest = hashlib.sha256(f"bmc:{topic}:{student}:variant".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def _scaled(topic: str, student: str, name: str, value: Any, spread: float) -> np.ndarray:
    """Scale a quantity for one student: each entry of an array by a factor of its own."""
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return arr * _factor(topic, student, name, spread)
    factors = [_factor(topic, student, f"{name}[{i}]", spread) for i in range(arr.size)]
    return arr * np.reshape(factors, arr.shape)


@contextlib.contextmanager
def student_data(student: str | None) -> Iterator[None]:
    """Within this block, :func:`problem` gives ``student``'s variant (the grader's side).

    Parameters
    ----------
    student : str or None
        Student id; ``None`` or ``""`` for the common data.
    """
    if student is not None and not isinstance(student, str):
        raise TypeError(f"student must be a student id (a str) or None; got "
                        f"{type(student).__name__} {student!r}")
    token = _STUDENT.set(student or "")
    try:
        yield
    finally:
        _STUDENT.reset(token)


def problem(topic: str, student: str | None = None) -> Problem:
    """Return the given data of one exercise set, optionally a student's own variant.

    Parameters
    ----------
    topic : str
        One of :func:`problems`, e.g. ``"one_link"``.
    student : str, optional
        Your student id, exactly as your instructor gave it: some quantities then take
        values of your own (different from your neighbour's). Without it,
        everyone gets the same data (until a call with an id: later calls without one
        then give that id's data too). When your notebook is graded, the grader gives it
        the data of the id it is filed under, whatever is written here.

    Returns
    -------
    Problem
        Read-only data with units; ``print`` it to see everything.

    Raises
    ------
    ValueError
        If ``topic`` is unknown, ``student`` is not a string, or it is still the
        placeholder ``"your student id"`` of the exercise notebooks.

    Examples
    --------
    >>> p = problem("one_link")
    >>> print(round(p.mass, 2), p.units()["mass"])
    1.54 kg
    """
    _check_topic(topic)
    if student is not None and not isinstance(student, str):
        raise ValueError(f"student must be your student id as a string, e.g. "
                         f"student=\"ab123\"; got {type(student).__name__} {student!r}")
    from bmc.checks import _cells

    _cells.install()  # in a notebook: remember which cell raised what, for the checks
    global _LAST_STUDENT
    forced = _STUDENT.get()  # the grader's choice wins: set by student_data or the sandbox
    if forced is None:
        forced = os.environ.get(STUDENT_ENV)
    if forced is None and student is not None and \
            student.strip().lower() == PLACEHOLDER_ID:
        raise ValueError(
            "STUDENT_ID is still the placeholder \"your student id\": write your own id, "
            "exactly as your instructor gave it (for example STUDENT_ID = \"ab123\"), and "
            "run this cell again. Your data are drawn from it; when your notebook is "
            "graded, the id comes from the class list, not from this cell (got "
            f"student={student!r})")
    if student is not None:
        _LAST_STUDENT = student.strip() or None  # later checks in this kernel use it too
    if forced is not None:
        student = forced.strip() or None
    else:
        student = (student or _LAST_STUDENT or "").strip() or None
    key = (topic, student)
    if key not in _PROBLEM_CACHE:
        title, build, vary, variant = _PROBLEM_SPECS[topic]
        params = {} if student is None or variant is None else variant(
            _student_rng(topic, student))
        entries = _built(topic, build, params)
        unknown = sorted(set(vary) - {entry[0] for entry in entries})
        if unknown:
            raise ValueError(f"vary of exercise set {topic!r} names quantities that build "
                             f"does not return; got {unknown}")
        if student is not None:
            entries = [(name, _scaled(topic, student, name, value, vary[name])
                        if name in vary else value, unit, meaning)
                       for name, value, unit, meaning in entries]
            title = f"{title} - data of student {student}"
        _PROBLEM_CACHE[key] = Problem(topic, title, entries)
    return _PROBLEM_CACHE[key]


def _built(topic: str, build: Callable[..., Any], params: dict) -> list:
    """Return the entries of ``build(**params)``, checked (a builder's error is named)."""
    try:
        entries = build(**params)
        if isinstance(entries, Iterable) and not isinstance(entries, (str, bytes)):
            entries = list(entries)
        Problem(topic, "", entries)  # refuses entries of the wrong form, naming them
    except Exception as exc:
        kind = type(exc) if isinstance(exc, (TypeError, ValueError)) else ValueError
        raise kind(f"build of exercise set {topic!r} (see register_problem) failed; got "
                   f"{type(exc).__name__}: {exc}") from exc
    return list(entries)


def _check_topic(topic: Any) -> None:
    if not isinstance(topic, str):
        raise TypeError(f"topic must be the name of an exercise set (a str), one of "
                        f"{problems()}; got {type(topic).__name__} {topic!r}")
    if topic not in _PROBLEM_SPECS:
        raise ValueError(f"topic must be one of {problems()}; got {topic!r}")


def practice(topic: str) -> Problem:
    """Return the practice data of an exercise set: the course's subject, the same for all.

    The public checks run your functions on these data, where the right answers may be
    shown; your own data (:func:`problem` with your id) are judged only when your notebook
    is graded. A grader's choice of student never changes the practice data.

    Parameters
    ----------
    topic : str
        One of :func:`problems`.

    Returns
    -------
    Problem
        Read-only practice data (``is_practice`` is ``True``).

    Examples
    --------
    >>> practice("one_link").is_practice
    True
    """
    _check_topic(topic)
    if topic not in _PRACTICE_CACHE:
        title, build, _, _ = _PROBLEM_SPECS[topic]
        _PRACTICE_CACHE[topic] = Problem(topic, f"{title} - practice data (the course's "
                                         "subject)", build(), practice=True)
    return _PRACTICE_CACHE[topic]


# --------------------------------------------------------------------------------------
# Generic checks
# --------------------------------------------------------------------------------------
def _check_name(name: Any) -> None:
    """Refuse a check's ``name`` that is not the answer's variable name (the author's slip)."""
    if not isinstance(name, str) or not name.strip():
        raise TypeError("name must be the answer's variable name as text (e.g. \"tau\"); got "
                        f"{type(name).__name__} {name!r}")


def _tolerances(rtol: Any, atol: Any) -> tuple[float, float]:
    """Refuse a check's tolerances that are not finite and non-negative (the author's slip).

    ``numpy.isclose`` warns about a NaN tolerance and then judges every answer wrong, and
    a list raises deep inside; the author gets the argument's name instead.
    """
    from bmc._validation import positive

    return (positive(rtol, "rtol", allow_zero=True),
            positive(atol, "atol", allow_zero=True))


def _answer_shape(shape: Any) -> tuple[int, ...]:
    """Return a check's required ``shape`` as a tuple of sizes (the author's slip refused)."""
    from bmc._validation import allocation, integer

    if isinstance(shape, (bool, np.bool_, str, bytes)) or not isinstance(shape, Sequence):
        raise TypeError(f"shape must be the answer's shape as a tuple of sizes, e.g. () for "
                        f"one number or (3,) for a vector; got {type(shape).__name__} "
                        f"{shape!r:.60}")
    sizes = tuple(integer(n, "shape", minimum=0, what="each size") for n in shape)
    # an answer a student holds in memory: no more than the memory budget of values
    allocation(math.prod(sizes), 1, "shape", what="values",
               hint="a student's answer is a few numbers or a recorded trial")
    return sizes


def _fail(name: str, what: str, hint: str = "") -> IncorrectAnswer:
    """Build the exception for a failed check."""
    message = f"{name} {what}"
    if not message.endswith((".", "?", "!")):
        message += "."
    if hint:
        message += f" Hint: {hint}"
    return IncorrectAnswer(message)


def _missing(answer: Any) -> bool:
    return answer is None or answer is Ellipsis


def _numeric(name: str, answer: Any, *, shape: tuple[int, ...], unit: str,
             hint: str) -> np.ndarray:
    """Convert an answer to a float array of ``shape`` or raise a helpful error."""
    if _missing(answer):
        raise _fail(name, "has no answer yet: replace the `...` with your result")
    if callable(answer):
        raise _fail(name, "is a function, not a number: call it and store the result")
    if isinstance(answer, (bool, np.bool_, str)):
        raise _fail(name, f"must be a number [{unit or '-'}], not {type(answer).__name__} "
                    f"{answer!r}", hint)
    kind = element_kind(answer)
    if kind is not None:
        raise _fail(name, f"must be a real number or an array of real numbers "
                    f"[{unit or '-'}]; it holds {kind} ({str(answer)[:60]!r}): "
                    + _KIND_ADVICE[kind], hint)
    try:
        arr = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        raise _fail(name, f"must be a number or an array of numbers [{unit or '-'}]; got "
                    f"{type(answer).__name__} {str(answer)[:60]!r} (a symbolic expression "
                    "needs its values substituted)", hint) from None
    if arr.shape != shape:
        # accept extra axes of length one (a column instead of a row, [[x]] for x)
        flat = tuple(n for n in shape if n != 1)  # np.squeeze's shape, not allocated
        if arr.size == math.prod(shape) and arr.squeeze().shape == flat:
            arr = arr.reshape(shape)
        else:
            want = "a single number" if shape == () else f"shape {shape}"
            got = "a single number" if arr.ndim == 0 else f"shape {arr.shape}"
            raise _fail(name, f"must be {want}; got {got}", hint)
    if not np.all(np.isfinite(arr)):
        raise _fail(name, "contains NaN or inf: check for a division by zero or an "
                    "undefined variable", hint)
    return arr


_KIND_ADVICE = {
    "complex numbers": "a complex result means a square root or logarithm of a negative "
                       "number somewhere; find it rather than keeping the real part",
    "booleans": "a comparison (==, <) gives True/False; store the number itself",
    "text": "remove the quotes around the number",
}


def check_value(name: str, answer: Any, expected: ArrayLike, *, rtol: float = 1e-3,
                atol: float = 0.0, unit: str = "", hint: str = "",
                mistakes: Sequence[tuple[str, ArrayLike]] = (), level: str = "graded"
                ) -> bool:
    """Check a numeric answer (a number or an array) against the expected value.

    Parameters
    ----------
    name : str
        The answer's variable name, used in the message.
    answer : object
        What the student computed.
    expected : array_like
        The right value; its shape is the required shape.
    rtol, atol : float, optional
        Relative and absolute tolerance (``numpy.isclose``). Default ``rtol=1e-3``: answers
        rounded to four significant digits pass.
    unit : str, optional
        Unit of the answer, shown in messages; a unit containing "rad" also enables the
        degrees-instead-of-radians diagnosis.
    hint : str, optional
        Where to look in the course (never the answer).
    mistakes : sequence of (description, value), optional
        Wrong answers from the same data with what went wrong ("the load's inertia left
        out"): an answer that matches one is told so.
    level : {"graded", "practice", "concept"}, optional
        What the message may reveal (:mod:`bmc.checks._diagnose`): ``"graded"`` (default)
        names the likely mistake and the wrong entries, never how far off; ``"practice"``
        also says how far off and which way; ``"concept"`` (answers with few possible
        values) names nothing but the mistake's concept.

    Returns
    -------
    bool
        ``True`` if the answer is right.

    Raises
    ------
    IncorrectAnswer
        If the answer is missing, not numeric, of the wrong shape, or wrong.

    Examples
    --------
    >>> check_value("theta", [0.1, 0.2], [0.1, 0.2], unit="rad")
    True
    """
    from bmc._validation import as_array
    from bmc.checks._diagnose import describe

    _check_name(name)
    rtol, atol = _tolerances(rtol, atol)
    # the instructor's value: a mistake there is the author's, named as such (not the
    # student's answer)
    exp = as_array(expected, "expected", unit=unit)
    ans = _numeric(name, answer, shape=exp.shape, unit=unit, hint=hint)

    def close(a, b):
        return np.isclose(a, np.asarray(b, dtype=float), rtol=rtol, atol=atol)

    if np.all(close(ans, exp)):
        return True
    parts = []
    for what, wrong in mistakes:
        if np.shape(wrong) == exp.shape and np.all(close(ans, wrong)) and not np.all(
                close(exp, wrong)):
            parts.append(f"it matches {what}")
            break
    if not parts or level == "practice":
        parts.append(describe([name], [ans], [exp], units=[unit], rtol=rtol, atol=[atol],
                              level=level))
    detail = "; ".join(p for p in parts if p)
    raise _fail(name, "is not correct yet" + (f": {detail}" if detail else ""), hint)


_SIGN_WORDS = {"positive": 1, "+": 1, "+1": 1, "negative": -1, "-": -1, "-1": -1,
               "zero": 0, "0": 0}


def check_sign(name: str, answer: Any, expected: float, *, atol: float = 1e-9,
               hint: str = "") -> bool:
    """Check a predicted sign: ``+1``, ``-1`` or ``0`` (or "positive", "negative", "zero").

    Parameters
    ----------
    name : str
        The answer's variable name.
    answer : int, float or str
        The predicted sign (any number counts by its sign).
    expected : float
        A quantity whose sign is the right answer; ``|expected| <= atol`` counts as zero.
    atol : float, optional
        Zero tolerance for ``expected``.
    hint : str, optional
        Where to look in the course.

    Returns
    -------
    bool
        ``True`` if the sign is right.

    Raises
    ------
    IncorrectAnswer
        If the answer is missing, not a sign, or wrong.

    Examples
    --------
    >>> check_sign("s", "negative", -3.2)
    True
    """
    _check_name(name)
    try:
        finite = not isinstance(expected, (bool, np.bool_, str, bytes)) and \
            math.isfinite(float(expected))
    except (TypeError, ValueError):
        finite = False
    if not finite:
        raise ValueError(f"expected (a quantity whose sign is the answer) must be a finite "
                         f"real number; got {type(expected).__name__} {expected!r}")
    atol = _tolerances(0.0, atol)[1]
    if _missing(answer):
        raise _fail(name, "has no answer yet: replace the `...` with +1, -1 or 0")
    if isinstance(answer, str):
        key = answer.strip().lower()
        if key not in _SIGN_WORDS:
            raise _fail(name, f"must be +1, -1 or 0 (or 'positive', 'negative', 'zero'); "
                        f"got {answer!r}")
        given = _SIGN_WORDS[key]
    else:
        value = real_number(answer)
        if value is None:
            raise _fail(name, f"must be +1, -1 or 0 (or 'positive', 'negative', 'zero'); got "
                        f"{type(answer).__name__} {str(answer)[:40]}: give a real number or "
                        "one of these words")
        if not math.isfinite(value):
            raise _fail(name, f"must be +1, -1 or 0; got {answer!r}: check for a division by "
                        "zero or an undefined variable")
        given = int(np.sign(value))
    truth = 0 if abs(float(expected)) <= atol else int(np.sign(expected))
    if given == truth:
        return True
    raise _fail(name, "is not the right sign yet", hint)


def _normalise(item: Any) -> Any:
    return item.strip().lower() if isinstance(item, str) else item


def check_choice(name: str, answer: Any, expected: Any, *, choices: Iterable[Any],
                 hint: str = "") -> bool:
    """Check a single choice among a few options (strings compared case-insensitively).

    Parameters
    ----------
    name : str
        The answer's variable name.
    answer : object
        The chosen option.
    expected : object
        The right option (one of ``choices``).
    choices : iterable
        Every valid option; an answer outside them is reported with the list.
    hint : str, optional
        Where to look in the course.

    Returns
    -------
    bool
        ``True`` if the choice is right.

    Raises
    ------
    IncorrectAnswer
        If the answer is missing, not one of ``choices``, or wrong.

    Examples
    --------
    >>> check_choice("formula", "2.10", "2.10", choices=["2.10", "2.11", "both"])
    True
    """
    _check_name(name)
    if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
        raise TypeError(f"choices must be a list of the options; got {choices!r}")
    options = list(choices)
    if not options or _normalise(expected) not in [_normalise(c) for c in options]:
        raise ValueError(f"expected must be one of choices {options}; got {expected!r}")
    if _missing(answer):
        raise _fail(name, f"has no answer yet: choose one of {options}")
    norm = [_normalise(c) for c in options]
    if _normalise(answer) not in norm:
        raise _fail(name, f"must be one of {options}; got {answer!r}")
    if _normalise(answer) == _normalise(expected):
        return True
    raise _fail(name, "is not the right choice yet", hint)


def check_set(name: str, answer: Any, expected: Iterable[Any], *, allowed: Iterable[Any],
              hint: str = "") -> bool:
    """Check an unordered collection of items (a set, list or tuple; may be empty).

    Parameters
    ----------
    name : str
        The answer's variable name.
    answer : iterable
        The student's items; strings are compared case-insensitively.
    expected : iterable
        The right items.
    allowed : iterable
        Every item that makes sense; others are reported with the list.
    hint : str, optional
        Where to look in the course.

    Returns
    -------
    bool
        ``True`` if the items are right.

    Raises
    ------
    IncorrectAnswer
        If the answer is missing, holds unknown items, or is wrong.

    Examples
    --------
    >>> check_set("zero", {"C2"}, ["c2"], allowed=["C1", "C2"])
    True
    """
    _check_name(name)
    if isinstance(allowed, (str, bytes)) or not isinstance(allowed, Iterable):
        raise TypeError(f"allowed must be a list of the possible items; got {allowed!r}")
    options = list(allowed)
    if not options:
        raise ValueError("allowed must list the possible items (at least one); got "
                         f"{allowed!r}: every answer but set() would be judged wrong")
    if isinstance(expected, (str, bytes)) or not isinstance(expected, Iterable):
        raise TypeError(f"expected must be a collection of items of allowed; got "
                        f"{type(expected).__name__} {expected!r}")
    stray = {_normalise(e) for e in expected} - {_normalise(o) for o in options}
    if stray:
        raise ValueError(f"expected must hold only items of allowed {options}; got "
                         f"{sorted(map(str, stray))}")
    if _missing(answer):
        raise _fail(name, f"has no answer yet: give a set of items from {options} (use "
                    "set() for none)")
    if isinstance(answer, str) or not isinstance(answer, Iterable):
        raise _fail(name, f"must be a set of items such as {{{options[0]!r}}} (or set() "
                    f"for none); got {type(answer).__name__} {answer!r}")
    given = {_normalise(a) for a in answer}
    unknown = given - {_normalise(o) for o in options}
    if unknown:
        raise _fail(name, f"contains {sorted(map(str, unknown))}, which is not one of "
                    f"{options}")
    truth = {_normalise(e) for e in expected}
    if given == truth:
        return True
    parts = []
    if given - truth:
        parts.append("at least one item you listed does not belong")
    if truth - given:
        parts.append("at least one item is missing")
    raise _fail(name, "is not correct yet: " + " and ".join(parts), hint)


def _fmt_args(args: Sequence[Any]) -> str:
    def one(a):
        arr = np.asarray(a)
        if arr.dtype.kind in "fc" or arr.ndim:
            return np.array2string(arr, precision=4, separator=", ", max_line_width=200)
        return repr(a)

    return "(" + ", ".join(one(a) for a in args) + ")"


def check_function(name: str, func: Any, cases: Sequence[Sequence[Any]],
                   expected: Sequence[ArrayLike], *, rtol: float = 1e-6, atol: float = 1e-9,
                   unit: str = "", hint: str = "") -> bool:
    """Call a student's function on given inputs and compare with the expected outputs.

    Parameters
    ----------
    name : str
        The function's name.
    func : callable
        The student's function.
    cases : sequence of sequence
        Positional arguments of each call (shown in messages: inputs are not answers).
    expected : sequence of array_like
        The right output of each call.
    rtol, atol : float, optional
        Tolerances (``numpy.isclose``); tight by default, since the inputs are exact.
    unit : str, optional
        Unit of the output.
    hint : str, optional
        Where to look in the course.

    Returns
    -------
    bool
        ``True`` if every call returns the right value.

    Raises
    ------
    IncorrectAnswer
        If ``func`` is missing, not callable, raises, returns ``None`` or a wrong value.

    Examples
    --------
    >>> check_function("square", lambda x: x * x, [(2.0,), (3.0,)], [4.0, 9.0])
    True
    """
    _check_name(name)
    if isinstance(cases, (str, bytes)) or not isinstance(cases, Sequence) or not cases or \
            not all(isinstance(c, (tuple, list)) for c in cases):
        raise TypeError("cases must be a non-empty list of argument tuples, e.g. [(1.0,), "
                        f"(2.0,)]; got {cases!r}")
    if isinstance(expected, (str, bytes)) or not isinstance(expected, Sequence) or \
            len(expected) != len(cases):
        raise ValueError(f"expected must hold one output per case ({len(cases)}); got "
                         f"{expected!r}")
    rtol, atol = _tolerances(rtol, atol)
    # every expected output checked before the student's function is judged on the first
    from bmc._validation import as_array

    expected = [as_array(e, f"expected[{i}]", unit=unit) for i, e in enumerate(expected)]
    if _missing(func):
        raise _fail(name, "is not defined yet: write the function")
    if not callable(func):
        raise _fail(name, f"must be a function (def {name}(...): ...); got "
                    f"{type(func).__name__}")
    for args, exp in zip(cases, expected, strict=True):
        call = f"{name}{_fmt_args(args)}"
        try:
            out = func(*args)
        except Exception as exc:  # the student's code: report, never crash
            raise _fail(call, f"raised {type(exc).__name__}: {exc}", hint) from None
        if out is None or out is Ellipsis:
            raise _fail(call, "returned nothing: replace the `...` and end with `return`",
                        hint)
        check_value(call, out, exp, rtol=rtol, atol=atol, unit=unit, hint=hint)
    return True




_FORM_OK = ("the form is right; the value itself is checked when your notebook is graded")


def check_form(name: str, answer: Any, *, kind: str = "value", shape: tuple[int, ...] = (),
               unit: str = "", choices: Iterable[Any] | None = None,
               example: Sequence[Any] | None = None, hint: str = "") -> bool:
    """Check the *form* of an answer, never its value (the students' public checks).

    Parameters
    ----------
    name : str
        The answer's variable name.
    answer : object
        What the student computed.
    kind : {"value", "sign", "choice", "set", "function"}
        A number or array of ``shape``; a sign (+1, -1, 0 or a word); one of ``choices``;
        a set of items from ``choices``; a function that, called on ``example``, returns a
        number or array of ``shape``.
    shape : tuple of int, optional
        Required shape (``()``: a single number).
    unit : str, optional
        Unit of the answer, shown in messages.
    choices : iterable, optional
        Valid options for ``kind="choice"`` or ``"set"``.
    example : sequence, optional
        Arguments of one example call for ``kind="function"`` (inputs, not answers).
    hint : str, optional
        Where to look in the course.

    Returns
    -------
    bool
        ``True`` if the form is right (which does not mean the value is).

    Raises
    ------
    IncorrectAnswer
        If the answer is missing or has the wrong form.

    Examples
    --------
    >>> check_form("tau", 3.2, unit="N m")
    True
    """
    _check_name(name)
    shape = _answer_shape(shape)
    if kind == "value":
        _numeric(name, answer, shape=shape, unit=unit, hint=hint)
    elif kind == "sign":
        check_sign(name, answer, 0.0 if _is_sign(answer) is None else _is_sign(answer),
                   hint=hint)
    elif kind in ("choice", "set"):
        options = list(choices or [])
        if not options:
            raise ValueError(f"choices must list the options of a {kind} answer; got "
                             f"{choices!r}")
        if kind == "choice":
            check_choice(name, answer, options[0] if _missing(answer) or _normalise(answer)
                         not in [_normalise(c) for c in options] else answer,
                         choices=options, hint=hint)
        else:
            given = answer if isinstance(answer, Iterable) and not isinstance(answer, str) \
                else None
            known = {_normalise(o) for o in options}
            # the form only: the answer's own known items stand for the expected ones
            check_set(name, answer, [g for g in given if _normalise(g) in known]
                      if given is not None else [], allowed=options, hint=hint)
    elif kind == "function":
        if _missing(answer):
            raise _fail(name, "is not defined yet: write the function")
        if not callable(answer):
            raise _fail(name, f"must be a function (def {name}(...): ...); got "
                        f"{type(answer).__name__}")
        if example is not None:
            call = f"{name}{_fmt_args(example)}"
            try:
                out = answer(*example)
            except Exception as exc:  # the student's code: report, never crash
                raise _fail(call, f"raised {type(exc).__name__}: {exc}", hint) from None
            if out is None or out is Ellipsis:
                raise _fail(call, "returned nothing: replace the `...` and end with `return`",
                            hint)
            _numeric(call, out, shape=shape, unit=unit, hint=hint)
    else:
        raise ValueError(f"kind must be value, sign, choice, set or function; got {kind!r}")
    return True


def _is_sign(answer: Any) -> float | None:
    """Return the sign a valid sign answer stands for (None if it is not one)."""
    if isinstance(answer, str):
        value = _SIGN_WORDS.get(answer.strip().lower())
        return None if value is None else float(value)
    value = real_number(answer)
    return None if value is None or not math.isfinite(value) else float(np.sign(value))
