"""Every public callable of bmc, by qualified name (issue 34).

Public modules are ``bmc`` and its submodules whose dotted path has no part starting with
``_``; their public callables are the functions and classes in ``__all__`` (re-exports
counted once, under the public module that defines them, else the first that exports
them) and the public methods a class defines itself (properties are attributes, not
callables; ``typing.Protocol`` classes describe arguments and are never called).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any, Protocol

import bmc


def public_modules() -> list[str]:
    names = ["bmc"]
    for info in pkgutil.walk_packages(bmc.__path__, "bmc."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def _is_public(module: str) -> bool:
    return module.startswith("bmc") and not any(p.startswith("_") for p in module.split("."))


def _is_protocol(cls: type) -> bool:
    return Protocol in getattr(cls, "__mro__", ()) or getattr(cls, "_is_protocol", False)


def public_callables() -> dict[str, Any]:
    """Qualified name -> the callable (functions, classes and public methods)."""
    found: dict[str, Any] = {}
    seen: dict[int, str] = {}
    for modname in public_modules():
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            home = getattr(obj, "__module__", "") or ""
            qualified = f"{home}.{name}" if _is_public(home) and \
                name in getattr(importlib.import_module(home), "__all__", ()) \
                else f"{modname}.{name}"
            if id(obj) in seen:
                continue
            seen[id(obj)] = qualified
            found[qualified] = obj
            if inspect.isclass(obj) and not _is_protocol(obj) \
                    and not issubclass(obj, BaseException):
                for attr, raw in vars(obj).items():
                    if attr.startswith("_") or isinstance(raw, property):
                        continue
                    func = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
                    if callable(func):
                        found[f"{qualified}.{attr}"] = func
    return found


if __name__ == "__main__":
    for key in public_callables():
        print(key)
