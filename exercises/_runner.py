"""Run one submitted notebook and write the student's answers as plain data (sandbox side).

This file runs *inside* the grading sandbox (``exercises/sandbox.py``), in the same process
as the student's code, so nothing it writes is trusted: the grader reads its output as data
and judges it in a separate, clean process (``exercises/grade.py``). It imports only the
standard library before the student's code runs, so it can be bound into the sandbox alone.

Usage (by the grader, never by hand)::

    python -I -S -B _runner.py NOTEBOOK SPEC.json ANSWERS_FD

``SPEC.json`` holds ``{"names": [...], "calls": {name: [args, ...]}, "cell_timeout": s,
"uid": int or null, "nproc": int or null, "site": [folders], "pythonpath": folder}``: the
variables to extract, and for each function answer the arguments (chosen by the grader)
to call it with; the uid to drop to (when started as root), the process limit to set, and
the course environment's ``site-packages`` folders (the interpreter starts without its own
``site``, so exactly these are on the path, as in the grader's virtual environment). Every
code cell runs top to bottom in an IPython shell (magics work); an error or a cell over
``cell_timeout`` seconds is recorded and the next cell runs, as in a notebook run with
"allow errors". ``import otter`` gets a stand-in whose ``grader.check`` does nothing (the
checks run in the grader, not here). The answers are written as JSON to the file
descriptor ``ANSWERS_FD`` (a pipe the grader reads, with a cap).

The plain-data codec (:func:`encode`, :func:`decode`) is shared with the grader, which
imports this module for it.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import types
from typing import Any

__all__ = ["decode", "encode", "main"]

_MAX_ITEMS = 100_000  # entries of one extracted array or list
_MAX_TEXT = 10_000  # characters of one extracted string
_MAX_ANSWER = 4_000_000  # characters of one encoded answer (a 100,000-entry array: ~2e6)


def encode(value: Any, depth: int = 0) -> Any:
    """Turn an answer into JSON-safe tagged plain data (numbers, arrays, strings, sets ...).

    Parameters
    ----------
    value : object
        Anything; what is not plain data becomes ``{"repr": type name}``.
    depth : int, optional
        Nesting depth (internal).

    Returns
    -------
    object
        A JSON-serialisable structure that :func:`decode` turns back into the value.
    """
    if depth > 6:
        return {"repr": "too deeply nested"}
    if value is None:
        return None
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 2**63 else float(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, complex):
        return {"complex": [encode(value.real), encode(value.imag)]}
    if isinstance(value, str):
        return value[:_MAX_TEXT]
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(value, np.generic):
            return encode(value.item(), depth)
        if isinstance(value, np.ndarray):
            if value.size > _MAX_ITEMS:
                return {"repr": f"array of {value.size} entries (too large)"}
            if value.dtype.kind in "biuf":
                flat = [encode(float(x) if value.dtype.kind == "f" else x.item())
                        for x in value.ravel()]
                return {"ndarray": flat, "shape": list(value.shape),
                        "dtype": value.dtype.kind}
            if value.dtype.kind == "c":
                return {"ndarray_c": [encode(complex(x)) for x in value.ravel()],
                        "shape": list(value.shape)}
            return {"repr": f"array of dtype {value.dtype}"}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if len(items) > _MAX_ITEMS:
            return {"repr": f"{type(value).__name__} of {len(items)} items (too large)"}
        kind = "list" if isinstance(value, list) else (
            "tuple" if isinstance(value, tuple) else "set")
        try:
            if kind == "set":
                items = sorted(items, key=repr)
        except Exception:  # noqa: BLE001 (a student's object with a broken __repr__)
            pass
        return {kind: [encode(v, depth + 1) for v in items]}
    if callable(value):
        return {"function": True}
    try:
        name = type(value).__name__
    except Exception:  # noqa: BLE001
        name = "object"
    return {"repr": str(name)[:100]}


def decode(data: Any) -> Any:
    """Inverse of :func:`encode`; anything unexpected raises ``ValueError``.

    Parameters
    ----------
    data : object
        Parsed JSON.

    Returns
    -------
    object
        The value (NumPy arrays for ``ndarray`` entries; a :class:`Opaque` for values that
        were not plain data).
    """
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        raise ValueError("a bare JSON list is not valid encoded data")
    if not isinstance(data, dict) or len(data) not in (1, 3):
        raise ValueError(f"unexpected encoded value {str(data)[:80]!r}")
    if "ndarray" in data or "ndarray_c" in data:
        import numpy as np

        shape = tuple(int(n) for n in data["shape"])
        if "ndarray" in data:
            kind = {"b": bool, "i": np.int64, "u": np.int64, "f": float}[data["dtype"]]
            values = [decode(v) for v in data["ndarray"]]
            return np.array(values, dtype=kind).reshape(shape)
        return np.array([decode(v) for v in data["ndarray_c"]], dtype=complex).reshape(shape)
    ((key, inner),) = data.items()
    if key == "ellipsis":
        return Ellipsis
    if key == "float":
        if inner not in ("nan", "inf", "-inf"):
            raise ValueError(f"bad float {inner!r}")
        return float(inner)
    if key == "complex":
        return complex(decode(inner[0]), decode(inner[1]))
    if key in ("list", "tuple", "set"):
        if not isinstance(inner, list):
            raise ValueError(f"{key} must hold a JSON list")
        items = [decode(v) for v in inner]
        if key == "set":
            return set(items) if all(isinstance(i, (str, int, float)) for i in items) else items
        return items if key == "list" else tuple(items)
    if key == "function":
        return Opaque("a function")
    if key == "repr":
        return Opaque(str(inner)[:100])
    raise ValueError(f"unknown tag {key!r}")


class Opaque:
    """Stands for a student value that was not plain data (an object, a function ...)."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __repr__(self) -> str:
        return f"<{self.what}>"


class _CellTimeout(Exception):
    """A cell ran longer than the per-cell limit."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _CellTimeout("the cell ran longer than the time limit and was stopped")


def _fake_otter() -> types.ModuleType:
    """A stand-in for otter: ``grader.check`` and friends do nothing here."""
    module = types.ModuleType("otter")

    class Notebook:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    module.Notebook = Notebook
    return module


def _drop_privileges(uid: int | None, nproc: int | None) -> None:
    """If started as root (the sandbox's setup), become ``uid``; then cap the processes.

    The process limit is set here, not before the sandbox starts: inside, it counts only
    the processes of this uid (as root: a uid of the grader's own) or of this user
    namespace (unprivileged bubblewrap), never the instructor's other processes.
    """
    if os.getuid() == 0 and uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise SystemExit("could not drop root")
    if nproc:
        import resource

        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _environment(spec: dict) -> None:
    """Put the course environment's packages on the path (the interpreter ran with -S)."""
    import site

    for folder in spec.get("site", []):
        site.addsitedir(folder)
    if spec.get("pythonpath"):
        sys.path.insert(0, spec["pythonpath"])
    sys.dont_write_bytecode = True


def _line(err: BaseException) -> int | None:
    """The line of the cell that raised ``err`` (for the feedback), or None."""
    try:
        from bmc.checks._cells import line_in_cell

        return line_in_cell(err)
    except Exception:  # noqa: BLE001 (only a message depends on it)
        return None


def _call_all(func: Any, cases: list) -> list:
    results = []
    for args in cases:
        signal.alarm(5)
        try:
            out = func(*decode(args))
            results.append({"ok": encode(out)})
        except BaseException as exc:  # noqa: BLE001 (the student's function may raise anything)
            results.append({"error": f"{type(exc).__name__}: {str(exc)[:300]}"})
        finally:
            signal.alarm(0)
    return results


def main(argv: list[str]) -> int:
    """Run the notebook ``argv[0]`` with spec ``argv[1]``, write answers to fd ``argv[2]``."""
    notebook, spec_path, out_fd = argv
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    with open(notebook, encoding="utf-8") as handle:
        nb = json.load(handle)
    _drop_privileges(spec.get("uid"), spec.get("nproc"))
    _environment(spec)
    runner_pid = os.getpid()
    cell_timeout = int(spec.get("cell_timeout", 20))

    sys.modules["otter"] = _fake_otter()
    os.environ.setdefault("MPLBACKEND", "Agg")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    signal.signal(signal.SIGALRM, _on_alarm)
    errors, cell_errors = [], []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        signal.alarm(cell_timeout)
        try:
            result = shell.run_cell(source, store_history=False, silent=False)
            if result.error_in_exec is not None or result.error_before_exec is not None:
                err = result.error_in_exec or result.error_before_exec
                errors.append(f"cell {i}: {type(err).__name__}: {str(err)[:200]}")
                cell_errors.append({"cell": i, "type": type(err).__name__,
                                    "message": str(err)[:300], "line": _line(err)})
        except BaseException as exc:  # noqa: BLE001 (SystemExit, a timeout outside user code)
            errors.append(f"cell {i}: {type(exc).__name__}: {str(exc)[:200]}")
        finally:
            signal.alarm(0)

    namespace = shell.user_ns
    answers = {}
    for name in spec.get("names", []):
        if name not in namespace:
            answers[name] = {"missing": True}
            continue
        value = namespace[name]
        try:
            entry = {"value": encode(value)}
            if callable(value) and name in spec.get("calls", {}):
                entry["calls"] = _call_all(value, spec["calls"][name])
            size = len(json.dumps(entry))
            if size > _MAX_ANSWER:
                entry = {"value": {"repr": f"an answer of {size} characters (too large)"}}
        except BaseException as exc:  # noqa: BLE001
            entry = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        answers[name] = entry
    if os.getpid() != runner_pid:  # a process the notebook forked: only the runner writes
        os._exit(0)
    data = json.dumps({"answers": answers, "errors": errors[:50],
                       "cell_errors": cell_errors[:50]}).encode("utf-8")
    fd = int(out_fd)
    while data:
        data = data[os.write(fd, data):]
    os.close(fd)
    return 0


if __name__ == "__main__":
    sys.stdout.flush()
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)
