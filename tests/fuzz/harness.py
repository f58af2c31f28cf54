"""The fuzzing property and the registry of strategies (issue 34).

A :class:`Spec` says how to call one public callable of bmc: the arguments it takes, each
as a :class:`~hostile.Kind` that draws valid values and hostile ones, the context they
share (frames, a model) and, optionally, what a result must look like. :func:`outcome`
runs one call under the limits and says what went wrong, if anything:

- a valid call must return a finite result of the documented shape (``false refusal``
  when it raises ``ValueError``/``TypeError``);
- a hostile call (one argument replaced by a hostile value) must return such a result or
  raise ``ValueError``/``TypeError`` whose message names the argument and what arrived;
- never another exception type (``generic error``), never NaN or inf unless the spec
  gives the documented reason (``silent``), never a warning other than ``BMCWarning``
  (``silent``: NumPy's RuntimeWarning is how NaN is usually born), never more than
  :data:`CPU_BUDGET` s of CPU or :data:`MEMORY_BUDGET` bytes of new memory
  (``unbounded cost``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import re
import resource
import signal
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from hypothesis import strategies as st

#: Longest CPU time one call may take [s] (a spec may state another; the issue's 10 s for
#: a symbolic derivation of any size).
CPU_BUDGET = 5.0
#: Longest wall time before a call is interrupted [s] (a hang, or a loaded machine).
WALL_LIMIT = 60.0
#: Largest amount of memory one call may add to the process [bytes] (RLIMIT_DATA): a
#: call that needs more fails with MemoryError, which the property counts as unbounded.
MEMORY_BUDGET = 1024**3

KINDS = ("generic error", "wrong argument named", "silent", "false refusal",
         "unbounded cost", "data")

OMIT = object()  # an optional argument left out (its default applies)


class Interrupted(BaseException):
    """Raised by the wall-clock alarm: a BaseException, so that no ``except Exception``
    inside the code under test swallows it."""


@dataclasses.dataclass
class Spec:
    """How to call one public callable (see the module docstring).

    Attributes
    ----------
    name : str
        Qualified name, ``module.callable`` or ``module.Class.method``.
    func : callable
        The callable, or ``func(ctx)`` returning it when ``bound`` (a method of an object
        the context holds).
    args : mapping of str to Kind
        Its arguments, by keyword (``*name`` for variadic positional ones).
    context : strategy of dict
        What the arguments share (``lead``: the frames; a model; sizes).
    result : callable, optional
        ``result(value, kwargs, ctx)`` returns a problem (str) or None: the documented
        shape. Finiteness is checked for every result unless ``nonfinite`` says why not.
    raises : tuple of exception types
        What a refusal may raise (``ValueError``, ``TypeError``; the checks also
        ``IncorrectAnswer``/``JudgedAtGrading`` for a student's answer).
    student : tuple of str
        Arguments that are a student's answer: a check's verdict (``IncorrectAnswer``)
        is the right refusal for them, and must name the answer.
    cpu : float
        CPU budget of one call [s].
    examples : int
        Examples per test in CI (the slow callables get fewer).
    nonfinite : str
        The documented reason a result may hold NaN or inf ("" when it may not).
    """

    name: str
    func: Callable[..., Any]
    args: Mapping[str, Any]
    context: st.SearchStrategy = dataclasses.field(default_factory=lambda: st.just({}))
    result: Callable[[Any, dict, dict], str | None] | None = None
    raises: tuple[type[BaseException], ...] = (ValueError, TypeError)
    student: tuple[str, ...] = ()
    cpu: float = CPU_BUDGET
    examples: int = 12
    nonfinite: str = ""
    bound: bool = False
    aliases: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    hostile_args: tuple[str, ...] | None = None  # default: every argument

    def target(self, ctx: dict) -> Callable[..., Any]:
        return self.func(ctx) if self.bound else self.func


REGISTRY: dict[str, Spec] = {}


def spec(name: str, func: Callable[..., Any], /, *, context: st.SearchStrategy | None = None,
         **options: Any) -> Callable[..., Any]:
    """Register a :class:`Spec`; ``args=`` gives the arguments' kinds."""
    if name in REGISTRY:
        raise ValueError(f"two strategies for {name}")
    args = options.pop("args", {})
    REGISTRY[name] = Spec(name, func, args,
                          context if context is not None else st.just({}), **options)
    return func


# --------------------------------------------------------------------------- one call
class Call:
    """One drawn call: the keyword arguments, which one is hostile, and the context."""

    def __init__(self, spec: Spec, ctx: dict, kwargs: dict, hostile: str | None,
                 label: str = "") -> None:
        self.spec = spec
        self.ctx = ctx
        self.kwargs = kwargs
        self.hostile = hostile  # the argument given a hostile value, or None (valid call)
        self.label = label      # what the hostile value is (for the report)

    def __repr__(self) -> str:
        shown = {k: _short(v) for k, v in self.kwargs.items()}
        what = f"hostile {self.hostile} ({self.label})" if self.hostile else "valid"
        return f"{self.spec.name}({shown})  [{what}]"


def _short(value: Any) -> str:
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return f"array({value.tolist()!r})"
        return f"array(shape={value.shape}, dtype={value.dtype})"
    text = repr(value)
    return text if len(text) < 120 else text[:117] + "..."


def calls(spec_: Spec, *, hostile: bool) -> st.SearchStrategy[Call]:
    """Draw valid calls, or calls with exactly one hostile argument."""

    @st.composite
    def draw_call(draw: Any) -> Call:
        ctx = draw(spec_.context)
        names = [n for n in spec_.args if n in (spec_.hostile_args or spec_.args)]
        target = draw(st.sampled_from(names)) if hostile and names else None
        kwargs: dict = {}
        label = ""
        for name, kind in spec_.args.items():
            if name == target:
                label, value = draw(kind.hostile(ctx, kwargs))
            else:
                value = draw(kind.valid(ctx, kwargs))
            if value is not OMIT:
                kwargs[name] = value
        return Call(spec_, ctx, kwargs, target, label)

    return draw_call()


# --------------------------------------------------------------------------- limits
def _vmdata() -> int:
    with open("/proc/self/status") as handle:
        return int(re.search(r"VmData:\s+(\d+) kB", handle.read()).group(1)) * 1024


@contextlib.contextmanager
def limits(wall: float = WALL_LIMIT, memory: int = MEMORY_BUDGET):
    """Run the block with at most ``memory`` more bytes of data and ``wall`` seconds."""
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    cap = _vmdata() + memory
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))

    def alarm(signum: int, frame: Any) -> None:
        raise Interrupted(f"interrupted after {wall:g} s of wall time")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


# --------------------------------------------------------------------------- the property
@dataclasses.dataclass
class Failure:
    """What went wrong with one call."""

    kind: str  # one of KINDS
    what: str  # the exception type, or the problem
    where: str  # file:line where it was raised (for exceptions), or ""
    message: str
    call: Call

    def key(self) -> tuple[str, str, str, str]:
        """Distinct failures: the callable, the kind, what and where."""
        return (self.call.spec.name, self.kind, self.what, self.where or _template(self.message))

    def __str__(self) -> str:
        at = f" at {self.where}" if self.where else ""
        return f"[{self.kind}] {self.what}{at}: {self.message[:600]}\n  call: {self.call!r}"


def _template(message: str) -> str:
    """The message with its numbers blanked, so that one failure counts once."""
    return re.sub(r"[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?|nan|inf", "#", message)[:120]


def _origin(exc: BaseException) -> str:
    """file:line of the innermost frame of bmc (or the innermost at all) that raised."""
    tb = exc.__traceback__
    last = inner = ""
    while tb is not None:
        code = tb.tb_frame.f_code
        here = f"{code.co_filename.split('/site-packages/')[-1]}:{tb.tb_lineno}"
        if "/bmc/" in code.co_filename:
            inner = here.split("/bmc/", 1)[-1].join(("bmc/", ""))
        last = here
        tb = tb.tb_next
    return inner or last


def names_argument(message: str, names: tuple[str, ...]) -> bool:
    """Whether ``message`` names one of ``names`` as a word (``q`` in ``q [rad]``)."""
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?!\w)", message) for n in names)


#: How a message says what arrived ("got 175", "received shape (3,)").
ARRIVED = re.compile(r"\bgot\b|\barrived\b|\breceived\b|\bwas given\b|\bpassed\b", re.I)


def nonfinite_in(value: Any, path: str = "result", depth: int = 0) -> str | None:
    """Where a result holds NaN or inf (arrays, numbers, tuples, records), or None."""
    if depth > 4:
        return None
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        return None
    if isinstance(value, (int, float, np.number)):
        try:
            return None if math.isfinite(float(value)) else f"{path} = {value!r}"
        except (TypeError, OverflowError):
            return None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc" and value.size and not np.all(np.isfinite(value)):
            bad = np.argwhere(~np.isfinite(value))[0]
            where = ", ".join(map(str, bad))
            return f"{path}[{where}] = {value[tuple(bad)]!r} (shape {value.shape})"
        return None
    if isinstance(value, (tuple, list)):
        for i, item in enumerate(value[:50]):
            found = nonfinite_in(item, f"{path}[{i}]", depth + 1)
            if found:
                return found
        return None
    if isinstance(value, dict):
        for k, item in list(value.items())[:50]:
            found = nonfinite_in(item, f"{path}[{k!r}]", depth + 1)
            if found:
                return found
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found = nonfinite_in(getattr(value, f.name, None), f"{path}.{f.name}", depth + 1)
            if found:
                return found
    return None


def outcome(call: Call) -> Failure | None:
    """Run one call under the limits; return what went wrong, or None."""
    from bmc._validation import BMCWarning

    spec_ = call.spec
    func = spec_.target(call.ctx)
    kwargs = dict(call.kwargs)
    star = [k for k in kwargs if k.startswith("*")]
    positional = list(kwargs.pop(star[0])) if star else []
    result: Any = None
    error: BaseException | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        try:
            with limits():
                result = func(*positional, **kwargs)
        except Interrupted as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - classified below
            error = exc
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
    _close_figures()

    def fail(kind: str, what: str, message: str, where: str = "") -> Failure:
        return Failure(kind, what, where, message, call)

    if isinstance(error, Interrupted) or isinstance(error, MemoryError):
        return fail("unbounded cost", type(error).__name__,
                    f"{error} (CPU {cpu:.1f} s, wall {wall:.1f} s)", _origin(error))
    if cpu > spec_.cpu:
        return fail("unbounded cost", "slow",
                    f"took {cpu:.1f} s of CPU (budget {spec_.cpu:g} s; wall {wall:.1f} s)")
    for w in caught:
        if not issubclass(w.category, BMCWarning):
            return fail("silent", w.category.__name__, str(w.message),
                        f"{w.filename.split('/site-packages/')[-1]}:{w.lineno}")
    if error is not None:
        where = _origin(error)
        message = str(error)
        if not isinstance(error, spec_.raises):
            return fail("generic error", type(error).__name__, message, where)
        if call.hostile is None:
            if spec_.student and isinstance(error, spec_.raises[2:]):
                return None  # a check may judge a valid-looking answer wrong
            return fail("false refusal", type(error).__name__, message, where)
        names = (call.hostile.lstrip("*"), *spec_.aliases.get(call.hostile, ()))
        if call.hostile in spec_.student and isinstance(call.kwargs.get("name"), str) \
                and call.kwargs["name"]:
            # a check speaks to the student of their variable by its name in the notebook
            # (``name``, e.g. "tau"), not by the check's parameter ``answer``, which they
            # never see: that name is the argument at fault in their eyes
            names = (*names, call.kwargs["name"])
        if not names_argument(message, names):
            return fail("wrong argument named", type(error).__name__,
                        f"names none of {names}: {message}", where)
        if isinstance(error, (ValueError, TypeError)) and not ARRIVED.search(message):
            return fail("wrong argument named", type(error).__name__,
                        f"does not say what arrived: {message}", where)
        return None
    if not spec_.nonfinite:
        bad = nonfinite_in(result)
        if bad:
            return fail("silent", "non-finite result", bad)
    if spec_.result is not None:
        problem = spec_.result(result, call.kwargs, call.ctx)
        if problem:
            problem = None if _follows_frames(call, result) else problem
        if problem:
            return fail("silent", "wrong result", problem)
    return None


_FRAMES_LABEL = re.compile(r"^(?:(\d+) frames|no frames|extra axis|transposed|empty)$")


def _follows_frames(call: Call, result: Any) -> bool:
    """Whether a hostile frame count is a valid call after all: the result has its frames.

    "2 frames" of the one argument that carries frames, a scalar given as one frame
    (``[0.0]``, the "extra axis"), a vector given as one frame (``[[a, b]]``, "transposed")
    or zero frames ("empty", "no frames") is a documented call (time on axis 0, one frame
    or N): its result has the shape documented for those frames, not for the context's.
    Frames that disagree between two arguments still fail, as the result cannot follow
    both; a transposed matrix or a wrong trailing size still fails, as no lead fits it.
    """
    found = _FRAMES_LABEL.match(call.label) if call.hostile else None
    if not found:
        return False
    shape = np.shape(call.kwargs.get(call.hostile))
    count = 0 if call.label in ("no frames", "empty") else int(found.group(1) or 0)
    leads = [(count,)] if found.group(1) or call.label in ("no frames", "empty") \
        else [shape[:1], ()]
    return any(call.spec.result(result, call.kwargs, {**call.ctx, "lead": lead}) is None
               for lead in leads)


def _close_figures() -> None:
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
