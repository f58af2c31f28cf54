"""The bmc namespace: version, lazy imports, curated public surface."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from importlib.metadata import version

import pytest

import bmc

HEAVY = ("scipy", "sympy", "matplotlib", "ipywidgets", "pooch")


def test_version_comes_from_package_metadata():
    assert bmc.__version__ == version("bmc")


def test_import_bmc_loads_no_heavy_library():
    code = (
        "import sys, bmc\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "", f"import bmc imported {out.stdout.strip()}"


def test_promoted_names_are_the_submodule_objects():
    from bmc import chain, newton_euler

    assert bmc.PlanarChain is chain.PlanarChain
    assert bmc.invdyn2d is newton_euler.invdyn2d


def test_unknown_attribute_error_names_it():
    with pytest.raises(AttributeError, match="no attribute 'PlanarChian'"):
        bmc.PlanarChian  # noqa: B018


@pytest.mark.parametrize("name", bmc._SUBMODULES)
def test_every_submodule_has_a_curated_documented_surface(name):
    module = importlib.import_module(f"bmc.{name}")
    assert module.__doc__ and module.__doc__.strip(), f"bmc.{name} has no module docstring"
    assert hasattr(module, "__all__"), f"bmc.{name} defines no __all__"
    for public in module.__all__:
        obj = getattr(module, public)  # every listed name exists
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__doc__, f"bmc.{name}.{public} has no docstring"
            assert not public.startswith("_")
