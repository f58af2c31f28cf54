"""Argument kinds: each draws valid values and labelled hostile ones (issue 34).

A kind knows what its argument must be (an array of a shape with frames on axis 0 and a
unit, a number in a range, an integer, one of some words, a flag, an object) and draws

- ``valid(ctx, kwargs)``: values across the whole valid domain (a valid value must never
  be refused: a false refusal is a failure too);
- ``hostile(ctx, kwargs)``: ``(label, value)`` pairs of what students and scripts pass by
  mistake: NaN and inf, wrong shapes and frame counts, empty arrays, text, None, booleans,
  complex numbers, negative and zero physical quantities, huge and tiny sizes, values in
  the wrong unit (x100 for cm, x57.3 for degrees, x1000 for mm or g).

``ctx`` is the call's shared context (``lead``: the frames, ``()`` for one; a model and
its sizes); ``kwargs`` holds the arguments drawn so far, so a kind can depend on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from harness import OMIT
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

Strategy = st.SearchStrategy
Maker = Callable[[dict, dict], Strategy]

#: Units students confuse with the SI one, as factors on the SI value.
UNIT_SLIPS = (("x100 (cm for m, or percent)", 100.0), ("x57.3 (degrees for rad)", 180 / math.pi),
              ("x1000 (mm for m, g for kg)", 1000.0), ("/1000", 1e-3),
              ("/57.3 (rad for degrees)", math.pi / 180))

#: Values of the wrong type that a notebook cell can produce.
WRONG_TYPES: tuple[tuple[str, Any], ...] = (
    ("text", "0.3"), ("None", None), ("bool", True), ("complex", 0.3 + 0.2j),
    ("dict", {"value": 1.0}), ("object", object()), ("Ellipsis", ...),
    ("list with text", [0.1, "0.2"]), ("list with None", [0.1, None]),
)


def _labelled(label: str, value: Any) -> Strategy:
    return st.just((label, value))


def _as_maker(value: Any) -> Maker:
    if callable(value) and not isinstance(value, st.SearchStrategy):
        return value
    strategy = value if isinstance(value, st.SearchStrategy) else st.just(value)
    return lambda ctx, kwargs: strategy


class Kind:
    """An argument's kind. ``optional``: the valid draws sometimes leave it out."""

    optional = False

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        raise NotImplementedError

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        return st.sampled_from(WRONG_TYPES)

    def valid(self, ctx: dict, kwargs: dict) -> Strategy:
        strategy = self.draw_valid(ctx, kwargs)
        return st.one_of(st.just(OMIT), strategy) if self.optional else strategy

    def hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        return self.draw_hostile(ctx, kwargs)


def shape_of(template: Sequence[Any], ctx: dict) -> tuple[int, ...]:
    """Expand a shape template: ``"*"`` the frames, a str a size from the context."""
    out: list[int] = []
    for item in template:
        if item == "*":
            out.extend(ctx.get("lead", ()))
        elif isinstance(item, str):
            out.append(int(ctx[item]))
        else:
            out.append(int(item))
    return tuple(out)


class Arr(Kind):
    """A float array: ``shape`` (template), values in ``[low, high]`` [``unit``].

    ``positive``/``nonneg``: a physical size (negative and zero values are hostile);
    ``elements``: a custom strategy of valid values; ``make``: a custom valid strategy of
    the whole array (unit vectors, rotation matrices, ...); ``frames``: whether a wrong
    number of frames is wrong (another argument has frames too).
    """

    def __init__(self, shape: Sequence[Any], *, unit: str = "", low: float = -10.0,
                 high: float = 10.0, positive: bool = False, nonneg: bool = False,
                 make: Maker | None = None, optional: bool = False, frames: bool = True,
                 lists: bool = True, min_frames: int = 0) -> None:
        self.template = tuple(shape)
        self.unit = unit
        self.low, self.high = low, high
        if positive:
            self.low = max(low, 1e-3 * max(high, 1e-9)) if low <= 0 else low
        elif nonneg:
            self.low = max(low, 0.0)
        self.positive, self.nonneg = positive, nonneg
        self.make = make
        self.optional = optional
        self.frames = frames
        self.lists = lists
        self.min_frames = min_frames

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        if self.make is not None:
            strategy = self.make(ctx, kwargs)
        else:
            elements = st.floats(self.low, self.high, allow_nan=False, allow_infinity=False,
                                 allow_subnormal=False)
            strategy = hnp.arrays(np.float64, shape_of(self.template, ctx), elements=elements)
        if not self.lists:
            return strategy
        return st.one_of(strategy, strategy.map(lambda a: np.asarray(a).tolist()))

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        base = self.draw_valid(ctx, kwargs).map(lambda a: np.array(a, dtype=float))
        core = [i for i, item in enumerate(self.template) if item != "*"]
        has_frames = "*" in self.template

        def poke(value: float) -> Callable[[np.ndarray], np.ndarray]:
            def apply(a: np.ndarray) -> np.ndarray:
                a = np.array(a, dtype=float)
                if a.ndim == 0:
                    return np.array(value)
                a.reshape(-1)[a.size // 2 if a.size else 0:][:1] = value
                return a
            return apply

        options: list[Strategy] = []
        for label, value in (("NaN", math.nan), ("inf", math.inf), ("-inf", -math.inf)):
            options.append(base.filter(lambda a: a.size > 0).map(poke(value))
                           .map(lambda a, lab=label: (lab, a)))
        for label, factor in UNIT_SLIPS:
            options.append(base.map(lambda a, f=factor, lab=label: (lab, a * f)))
        options.append(base.map(lambda a: ("huge values", np.full_like(a, 1e200))))
        options.append(base.map(lambda a: ("zeros", np.zeros_like(a))))
        if self.positive or self.nonneg:
            options.append(base.map(lambda a: ("negative", -np.abs(a) - 0.5)))
        if core:
            last = shape_of(self.template, ctx)

            def wrong_trailing(a: np.ndarray, delta: int) -> tuple[str, np.ndarray]:
                shape = list(a.shape)
                shape[-1] = max(shape[-1] + delta, 0) if shape else 1
                return (f"trailing size {shape[-1]}", np.resize(a, shape))

            options.append(base.map(lambda a: wrong_trailing(a, 1)))
            options.append(base.map(lambda a: wrong_trailing(a, -1)))
            options.append(base.map(lambda a: ("scalar", 0.5)))
            options.append(base.map(lambda a: ("transposed", np.swapaxes(a, -1, -2)
                                               if a.ndim >= 2 else a[None])))
            del last
        options.append(base.map(lambda a: ("extra axis", a[..., None])))
        if has_frames:
            lead = tuple(ctx.get("lead", ()))
            n = lead[0] if lead else 1

            def frames(a: np.ndarray, count: int, label: str) -> tuple[str, np.ndarray]:
                per = a.shape[len(lead):]
                one = a.reshape((-1, *per))[:1] if a.size else np.zeros((1, *per))
                return (label, np.repeat(one, count, axis=0))

            if self.frames:
                options.append(base.map(lambda a: frames(a, n + 1, f"{n + 1} frames")))
                options.append(base.map(lambda a: frames(a, n + 3, f"{n + 3} frames")))
            options.append(base.map(lambda a: frames(a, 0, "no frames")))
            options.append(base.map(lambda a: frames(a, 100_000, "100000 frames")))
            options.append(base.map(lambda a: frames(a, 2, "2 frames")))
        options.append(base.map(lambda a: ("empty", np.zeros((0,)))))
        options.append(base.map(lambda a: ("complex", a + 1j)))
        options.append(base.map(lambda a: ("text array", a.astype(str))))
        options.append(base.map(lambda a: ("booleans", a > 0)))
        options.append(base.map(lambda a: ("ragged", [[0.1, 0.2], [0.3]])))
        options.append(st.sampled_from(WRONG_TYPES))
        return st.one_of(options)


class Num(Kind):
    """One real number in ``[low, high]`` [``unit``]; ``positive``/``nonneg`` sizes."""

    def __init__(self, *, unit: str = "", low: float = -10.0, high: float = 10.0,
                 positive: bool = False, nonneg: bool = False, optional: bool = False,
                 ints: bool = True, values: Sequence[float] = ()) -> None:
        self.unit = unit
        self.low, self.high = low, high
        self.positive, self.nonneg = positive, nonneg
        self.optional = optional
        self.ints = ints
        self.values = tuple(values)

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        low = self.low
        if self.positive and low <= 0:
            low = min(1e-3 * self.high, 1.0)
        floats = st.floats(low, self.high, allow_nan=False, allow_infinity=False,
                           allow_subnormal=False)
        options = [floats, floats.map(np.float64)]
        if self.values:
            options.append(st.sampled_from(self.values))
        if self.ints and math.ceil(low) <= math.floor(self.high):
            options.append(st.integers(math.ceil(low), min(math.floor(self.high), 10**6)))
        return st.one_of(options)

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        base = self.draw_valid(ctx, kwargs).map(float)
        options: list[Strategy] = [
            st.sampled_from([("NaN", math.nan), ("inf", math.inf), ("-inf", -math.inf),
                             ("zero", 0.0), ("huge", 1e300), ("tiny", 1e-300),
                             ("minus huge", -1e300)]),
            base.map(lambda v: ("negative", -abs(v) - 1.0)),
            base.map(lambda v: ("text", str(v))),
            base.map(lambda v: ("pair", [v, v])),
            base.map(lambda v: ("one-element array", np.array([v]))),
            base.map(lambda v: ("complex", complex(v, 1.0))),
            st.sampled_from(WRONG_TYPES),
        ]
        for label, factor in UNIT_SLIPS:
            options.append(base.map(lambda v, f=factor, lab=label: (lab, v * f)))
        return st.one_of(options)


class Int(Kind):
    """An integer in ``[low, high]`` (a count, an order, an index, a seed)."""

    def __init__(self, low: int = 0, high: int = 10, *, optional: bool = False) -> None:
        self.low, self.high = low, high
        self.optional = optional

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        ints = st.integers(self.low, self.high)
        return st.one_of(ints, ints.map(np.int64))

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        mid = (self.low + self.high) // 2
        options = [
            ("below the range", self.low - 1), ("negative", -1), ("huge", 10**12),
            ("float", float(mid)), ("fraction", mid + 0.5), ("bool", True), ("text", str(mid)),
            ("None", None), ("NaN", math.nan), ("inf", math.inf),
            ("numpy float", np.float64(mid)), ("list", [mid]),
        ]
        if self.high < 10**9:
            options.append(("above the range", self.high + 1))
        return st.sampled_from(options)


class Choice(Kind):
    """One of ``options`` (words or values)."""

    def __init__(self, options: Sequence[Any], *, optional: bool = False) -> None:
        self.options = tuple(options)
        self.optional = optional

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        return st.sampled_from(self.options)

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        first = self.options[0]
        options = [("unknown word", "bogus"), ("empty", ""), ("None", None), ("int", 7),
                   ("list", [first]), ("bytes", b"x"), ("float", 0.5)]
        if isinstance(first, str):
            options += [("upper case", first.upper() + "X"), ("padded", f" {first}x ")]
        return st.sampled_from(options)


class Flag(Kind):
    """``True`` or ``False``."""

    def __init__(self, *, optional: bool = True) -> None:
        self.optional = optional

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        return st.booleans()

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        return st.sampled_from([("None", None), ("text", "yes"), ("int 2", 2), ("float", 1.0),
                                ("array", np.array([True, False])), ("text False", "False")])


class Obj(Kind):
    """Any other argument: ``valid`` and ``hostile`` given as strategies (or makers)."""

    def __init__(self, valid: Any, hostile: Any = None, *, optional: bool = False,
                 types: bool = True) -> None:
        self._valid = _as_maker(valid)
        self._hostile = None if hostile is None else _as_maker(hostile)
        self.optional = optional
        self.types = types

    def draw_valid(self, ctx: dict, kwargs: dict) -> Strategy:
        return self._valid(ctx, kwargs)

    def draw_hostile(self, ctx: dict, kwargs: dict) -> Strategy:
        options = []
        if self._hostile is not None:
            options.append(self._hostile(ctx, kwargs))
        if self.types or not options:
            options.append(st.sampled_from(WRONG_TYPES))
        return st.one_of(options)


def labelled(*pairs: tuple[str, Any]) -> Strategy:
    """A strategy of fixed ``(label, value)`` pairs."""
    return st.sampled_from(list(pairs))


def usable(value: Any, default: Any, shape: tuple[int, ...] | None = None) -> Any:
    """``value`` as a float array if it is finite numbers (of ``shape``), else ``default``.

    A valid argument drawn from another one (a cut-off below that ``freq``, a ``com`` between
    those points) must not break when that other argument is the hostile one: the strategy
    then draws from ``default`` and the call still has exactly one hostile argument.
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return np.asarray(default, dtype=float)
    if not np.all(np.isfinite(arr)) or (shape is not None and arr.shape != shape) or \
            isinstance(value, (bool, str)):
        return np.asarray(default, dtype=float)
    return arr


def frames_context(*, single: bool = True, counts: Sequence[int] = (1, 2, 5),
                   **more: Strategy) -> Strategy:
    """A context with ``lead``: one frame (``()``) or ``(N,)`` frames."""
    leads = ([st.just(())] if single else []) + [st.just((n,)) for n in counts]
    return st.fixed_dictionaries({"lead": st.one_of(leads), **more})
