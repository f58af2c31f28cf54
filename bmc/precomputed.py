"""Results of heavy, seeded computations, computed once and read back.

Some notebook cells run hundreds of noisy trials or integrate a whole somersault. Their
results depend only on the code and on fixed seeds, so they can be computed once, stored
as a ``.npz`` file and read back whenever the same code runs with the same arguments:
the notebook then runs in seconds, and its code stays in view. Decorate the function
that computes them::

    from bmc import precomputed

    @precomputed.cached("06_noise_sweep")
    def noise_sweep(levels, per_level):
        ...                                   # any computation
        return {"levels": levels, "rmse": rmse}

    sweep = noise_sweep([0.005, 0.01], per_level=12)

The *key* of a stored result is a SHA-256 of the function's source, of the source of every
helper function it calls from its own namespace (a notebook's other cells), of the plain
constants it reads from there and of its arguments. Change any of them and the result is
computed afresh. A cached function may read from its namespace only modules, functions,
classes and plain constants (numbers, strings, tuples of them, arrays): data such as a
model object or a measurement must be created inside the function or passed as plain
arguments, so that the key covers it. The library's own code is not in the key: a test
recomputes every stored result and compares (``BMC_PRECOMPUTED=verify``).

The environment variable ``BMC_PRECOMPUTED`` chooses what happens:

- unset or ``read``: read the stored result whose key matches; compute when there is none;
- ``write``: compute and store (how the files of ``data/precomputed/`` are made);
- ``update``: read a result whose key matches, compute and store the others;
- ``verify``: compute and compare with the stored result; raise when it is missing, stale
  or different;
- ``off``: always compute, never read.

Files live in ``data/precomputed/`` of the checkout, one per name and set of arguments
(``BMC_PRECOMPUTED_DIR`` overrides); when that folder does not exist (an installed package
without the repository), results are computed. A result is a dict with string keys whose
values are NumPy arrays, numbers, strings, booleans, lists of them or nested dicts of the
same; it comes back with the same structure, arrays read-only, 0-d values as Python scalars,
whether read or computed. Files are read with ``allow_pickle=False``: a stored result holds
data only, never code.
"""

from __future__ import annotations

import dis
import functools
import hashlib
import inspect
import os
import textwrap
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DIRECTORY", "PrecomputedError", "cached", "directory"]


def __dir__() -> list[str]:
    return sorted(__all__)


DIRECTORY = Path(__file__).resolve().parents[1] / "data" / "precomputed"
"""Default folder of the stored results: ``data/precomputed/`` of the checkout."""

_FORMAT = "bmc.precomputed 1"  # part of every key: change it to invalidate every file
_MODES = ("read", "write", "update", "verify", "off")
# verify: the same code with the same seeds; only the order of floating-point operations
# (the BLAS build, the CPU) may differ, and conditioning can amplify that by ~1e3
_RTOL = 1e-7


class PrecomputedError(RuntimeError):
    """A stored result is missing, stale or differs from a fresh computation (verify)."""


def directory() -> Path:
    """Folder of the stored results: ``BMC_PRECOMPUTED_DIR`` or :data:`DIRECTORY`."""
    return Path(os.environ.get("BMC_PRECOMPUTED_DIR") or DIRECTORY)


def _mode() -> str:
    mode = os.environ.get("BMC_PRECOMPUTED", "read").strip().lower() or "read"
    if mode not in _MODES:
        raise ValueError(f"BMC_PRECOMPUTED must be one of {', '.join(_MODES)}; got {mode!r}")
    return mode


# ------------------------------------------------------------------------------- the key
def _constant(value: Any, what: str) -> bytes:
    """Bytes that identify a plain value; TypeError for anything else."""
    if value is None or isinstance(value, (bool, int, float, complex, str, np.generic)):
        return repr((type(value).__name__, value)).encode()
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError(f"{what} is an array of Python objects; only numeric, boolean "
                            "or string arrays can be part of the key")
        head = repr(("ndarray", value.dtype.str, value.shape)).encode()
        return head + np.ascontiguousarray(value).tobytes()
    if isinstance(value, (tuple, list)):
        return b"(" + b",".join(_constant(v, what) for v in value) + b")"
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: repr(kv[0]))
        return b"{" + b",".join(_constant(k, what) + b":" + _constant(v, what)
                                for k, v in items) + b"}"
    raise TypeError(
        f"{what} is a {type(value).__name__}; a cached function may take and read only plain "
        "values (numbers, strings, tuples or lists of them, arrays), so that they are part "
        "of the key of its stored result: create the object inside the function, or pass "
        "the numbers it is made from")


def _globals_read(code: types.CodeType) -> set[str]:
    """Names a code object (and the code nested in it) loads as globals."""
    names = {ins.argval for ins in dis.get_instructions(code)
             if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _globals_read(const)
    return {n for n in names if isinstance(n, str)}


def _source(func: Callable) -> str:
    return "\n".join(line.rstrip() for line in
                     textwrap.dedent(inspect.getsource(func)).strip().splitlines())


def _fingerprint(func: Callable, seen: set[int] | None = None) -> bytes:
    """Source of ``func`` and of its helpers from the same namespace, and the constants read."""
    seen = set() if seen is None else seen
    seen.add(id(func))
    parts = [_source(func).encode()]
    namespace = func.__globals__
    for name in sorted(_globals_read(func.__code__)):
        if name not in namespace:
            continue  # a builtin, or a name the function never reaches
        value = namespace[name]
        if isinstance(value, types.ModuleType):
            parts.append(f"module {name}={value.__name__}".encode())
        elif isinstance(value, types.FunctionType) and value.__module__ == func.__module__:
            if id(value) not in seen:  # a helper of the same notebook: its code counts
                parts.append(f"helper {name}:".encode() + _fingerprint(value, seen))
        elif callable(value) or isinstance(value, type):
            parts.append(f"callable {name}={getattr(value, '__qualname__', name)}".encode())
        else:
            parts.append(f"constant {name}=".encode()
                         + _constant(value, f"the global {name!r} read by {func.__name__}"))
    return b"\n".join(parts)


def _key(func: Callable, args: tuple, kwargs: dict) -> tuple[str, str]:
    """Return the key of a call (code and arguments) and the digest of its arguments."""
    bound = inspect.signature(func).bind(*args, **kwargs)
    bound.apply_defaults()
    arguments = b"".join(name.encode() + b"=" + _constant(value, f"the argument {name!r}") + b";"
                         for name, value in bound.arguments.items())
    h = hashlib.sha256(_FORMAT.encode())
    h.update(_fingerprint(func))
    h.update(arguments)
    return h.hexdigest(), hashlib.sha256(arguments).hexdigest()[:10]


# ------------------------------------------------------------------- results as arrays
def _flatten(result: Any, prefix: str = "") -> dict[str, np.ndarray]:
    if not isinstance(result, Mapping):
        raise TypeError(f"a cached function must return a dict of arrays, numbers or strings; "
                        f"got {type(result).__name__}" + (f" at {prefix!r}" if prefix else ""))
    flat = {}
    for key, value in result.items():
        if not isinstance(key, str) or not key or "/" in key or key.startswith("__"):
            raise TypeError(f"the keys of a cached result are names without '/' (and not "
                            f"starting with '__'); got {key!r}")
        name = f"{prefix}/{key}" if prefix else key
        if isinstance(value, Mapping):
            flat.update(_flatten(value, name))
            continue
        arr = np.asarray(value)
        if arr.dtype.hasobject:
            raise TypeError(f"{name!r} of the cached result is not numeric, boolean or text "
                            f"data (got {type(value).__name__})")
        flat[name] = arr
    return flat


def _unflatten(flat: Mapping[str, np.ndarray]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, arr in flat.items():
        *parents, leaf = name.split("/")
        node = out
        for p in parents:
            node = node.setdefault(p, {})
        if arr.ndim == 0:
            node[leaf] = arr.item()
        else:
            arr = np.array(arr)
            arr.flags.writeable = False
            node[leaf] = arr
    return out


def _path(name: str, arguments: str) -> Path:
    # one file per set of arguments: a function called twice keeps both results
    return directory() / f"{name}.{arguments}.npz"


def _read(path: Path) -> tuple[str | None, dict[str, np.ndarray] | None]:
    if not path.is_file():
        return None, None
    with np.load(path, allow_pickle=False) as data:
        flat = {k: data[k] for k in data.files}
    key = flat.pop("__key__", None)
    return (None if key is None else str(key)), flat


def _compare(name: str, stored: Mapping[str, np.ndarray],
             fresh: Mapping[str, np.ndarray]) -> None:
    if set(stored) != set(fresh):
        raise PrecomputedError(f"stored result {name!r} has the entries {sorted(stored)}, a "
                               f"fresh computation {sorted(fresh)}: regenerate it")
    for entry in sorted(fresh):
        a, b = stored[entry], fresh[entry]
        if a.shape != b.shape or (a.dtype.kind in "USb" or b.dtype.kind in "USb") and not \
                np.array_equal(a, b):
            raise PrecomputedError(f"stored result {name!r}: {entry!r} differs from a fresh "
                                   "computation: regenerate it (BMC_PRECOMPUTED=write)")
        if a.dtype.kind in "fciu":
            scale = float(np.max(np.abs(b), initial=0.0))
            try:
                np.testing.assert_allclose(a, b, rtol=_RTOL, atol=1e-12 * scale,
                                           equal_nan=True)
            except AssertionError as err:
                raise PrecomputedError(
                    f"stored result {name!r}: {entry!r} differs from a fresh computation "
                    f"by more than {_RTOL:g} (relative): regenerate it "
                    f"(BMC_PRECOMPUTED=write) if the change is meant\n{err}") from None


def cached(name: str) -> Callable[[Callable], Callable]:
    """Decorate a function whose result is computed once, stored and read back.

    Parameters
    ----------
    name : str
        Name of the stored results, unique in the course (start it with the notebook's
        number, e.g. ``"06_noise_sweep"``); each set of arguments is stored in its own file,
        ``NAME.DIGEST.npz``, where ``DIGEST`` identifies the arguments.

    Returns
    -------
    callable
        The decorator. The decorated function returns the stored result when its key
        matches (see the module's docstring), else computes it; its ``__wrapped__``
        always computes.

    Raises
    ------
    TypeError
        At call time, if the function reads or takes anything but plain values, or
        returns anything but a dict of arrays, numbers and strings.
    PrecomputedError
        With ``BMC_PRECOMPUTED=verify``, if the stored result is missing, stale or
        differs from a fresh computation.

    Examples
    --------
    >>> @cached("doc_example")
    ... def squares(n):
    ...     return {"n": n, "squares": np.arange(n) ** 2}
    >>> squares(4)["squares"]
    array([0, 1, 4, 9])
    """
    if not isinstance(name, str) or not name or any(c in name for c in "/\\. "):
        raise ValueError(f"name must be a file name without extension or path, e.g. "
                         f"'06_noise_sweep'; got {name!r}")

    def decorate(func: Callable) -> Callable:
        if not isinstance(func, types.FunctionType):
            raise TypeError(f"cached decorates a function; got {type(func).__name__}")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> dict[str, Any]:
            mode = _mode()
            try:
                key, arguments = _key(func, args, kwargs)
            except OSError:  # no source (a function typed in a bare interpreter)
                key, arguments = None, ""
            path = _path(name, arguments)
            if mode in ("read", "update") and key is not None:
                stored_key, flat = _read(path)
                if stored_key == key:
                    return _unflatten(flat)
            fresh = _flatten(func(*args, **kwargs))
            if mode in ("write", "update") and key is not None:
                directory().mkdir(parents=True, exist_ok=True)
                np.savez_compressed(path, __key__=np.array(key), **fresh)
            elif mode == "verify":
                stored_key, flat = _read(path)
                if flat is None:
                    raise PrecomputedError(f"no stored result {name!r} in {directory()}: "
                                           "run the notebook with BMC_PRECOMPUTED=write")
                if stored_key != key:
                    raise PrecomputedError(f"stored result {name!r} was made by other code "
                                           "or arguments: regenerate it (BMC_PRECOMPUTED=write)")
                _compare(name, flat, fresh)
            return _unflatten(fresh)

        return wrapper

    return decorate
