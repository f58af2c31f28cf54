"""bmc.models.running_norms: bad input refused by name."""

from __future__ import annotations

import pytest

from bmc.models.running_norms import references

CASES = [
    (references, {"joint": "Knee"}, ValueError, "joint"),        # names are lower case
    (references, {"joint": "shoulder"}, ValueError, "joint"),
    (references, {"joint": 1}, TypeError, "joint"),
    (references, {"joint": ("hip",)}, TypeError, "joint"),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)
