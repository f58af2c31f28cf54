"""bmc._validation: the shared checks accept what is valid and refuse the rest in plain words."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from bmc import _validation as v
from bmc.rotations import rotation_matrix


@pytest.mark.parametrize("value", [1, 2.5, np.float32(3.0), np.int64(4), [1, 2], (1.0, 2.0),
                                   np.arange(3), [Decimal("1.5"), Fraction(1, 2)]])
def test_numbers_of_every_real_kind_are_accepted(value):
    out = v.as_array(value, "x")
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, np.asarray(value, dtype=float))


def test_sympy_floats_are_accepted():
    sympy = pytest.importorskip("sympy")
    np.testing.assert_array_equal(v.as_array([sympy.Float(1.5), sympy.Integer(2)], "x"),
                                  [1.5, 2.0])


@pytest.mark.parametrize(("value", "kind"), [
    ("90", "text"), (b"90", "text"), (["1", "2"], "text"), (True, "booleans"),
    (np.array([True, False]), "booleans"), (1 + 2j, "complex"),
    (np.array([1.0, 2j]), "complex"), (None, "None"), ([1.0, None], "None"),
    (np.array([1.0, None], dtype=object), "None"), (np.array([{}]), "Python objects"),
    (np.array(["2020-01-01"], dtype="datetime64[D]"), "dates")])
def test_non_numbers_are_refused_naming_argument_unit_kind_and_what_to_do(value, kind):
    with pytest.raises(TypeError, match=rf"^angle \[rad\] must be real number\(s\); got {kind}"
                                        r".*: pass "):
        v.as_array(value, "angle", unit="rad")


def test_ragged_input_is_refused_in_plain_words():
    with pytest.raises(ValueError, match=r"^q must be a rectangular .* different lengths"):
        v.as_array([[1.0, 2.0], [3.0]], "q")


def test_first_non_finite_value_is_located():
    x = np.zeros((5, 3))
    x[3, 1] = np.inf
    x[4, 0] = np.nan
    assert v.first_nonfinite(x) == (3, 1)
    assert v.first_nonfinite(np.zeros(4)) is None
    with pytest.raises(ValueError, match=r"x \[m\] must be finite; got 2 non-finite .*\(inf\) "
                                         r"at index \(3, 1\)"):
        v.as_array(x, "x", unit="m")


@pytest.mark.parametrize(("value", "exc"), [(True, TypeError), (2.0, TypeError),
                                            ("2", TypeError), (None, TypeError),
                                            (0, ValueError), (11, ValueError)])
def test_integer(value, exc):
    with pytest.raises(exc, match=r"^order"):
        v.integer(value, "order", minimum=1, maximum=10)
    assert v.integer(np.int32(3), "order", minimum=1) == 3


@pytest.mark.parametrize(("value", "exc"), [(np.nan, ValueError), (0.0, ValueError),
                                            (-1e-6, ValueError), (1.0, ValueError),
                                            (np.inf, ValueError), ("1e-6", TypeError),
                                            (True, TypeError), ([1e-6, 1e-6], ValueError)])
def test_tolerance(value, exc):
    with pytest.raises(exc, match=r"^rtol"):
        v.tolerance(value, "rtol")
    assert v.tolerance(1e-8, "rtol") == 1e-8


def test_plausible_names_the_unit_meant_or_says_no_human():
    kw = {"unit": "m", "low": 0.4, "high": 2.75, "quantity": "body height",
          "units": {"cm": 0.01, "mm": 0.001}}
    assert v.plausible(1.8, "height", **kw) == 1.8
    with pytest.raises(ValueError, match=r"got 180, which looks like cm: pass 1\.8 "):
        v.plausible(180.0, "height", **kw)
    with pytest.raises(ValueError, match=r"got 1800, which looks like mm: pass 1\.8 "):
        v.plausible(1800.0, "height", **kw)
    with pytest.raises(ValueError, match=r"got 10, which is no human's"):
        v.plausible(10.0, "height", **kw)
    deg = {"unit": "rad", "low": -np.pi, "high": np.pi, "quantity": "joint angle",
           "units": {"degrees": np.pi / 180}}
    with pytest.raises(ValueError, match=r"looks like degrees: pass 1\.571"):
        v.plausible(90.0, "knee", **deg)


def test_allocation_refuses_before_allocating_and_gives_the_figure():
    assert v.allocation(1000, 4, "dt") == 1000
    with pytest.raises(ValueError, match=r"^dt \[s\] must ask for at most 2 GiB of memory; "
                                         r"got 1e\+10 steps x 4 value\(s\) = 298 GiB"):
        v.allocation(1e10, 4, "dt [s]", what="steps")
    with pytest.raises(ValueError, match="inf steps"):
        v.allocation(np.inf, 1, "dt", what="steps")


def test_rotation_matrices():
    R = rotation_matrix(np.random.default_rng(0).uniform(-3, 3, (6, 3)))
    assert v.rotation_matrices(R, "R") is not None
    bad = R.copy()
    bad[4] = -bad[4]                                   # det -1: a reflection
    with pytest.raises(ValueError, match=r"^R must hold rotations .*reflection .*frame \(4,\)"):
        v.rotation_matrices(bad, "R")
    with pytest.raises(ValueError, match=r"scaled by 2\b"):
        v.rotation_matrices(2 * np.eye(3), "R")
    with pytest.raises(ValueError, match=r"orthonormalise"):
        v.rotation_matrices(np.triu(np.ones((3, 3))), "R")


def test_inertia_tensors():
    good = np.diag([0.1, 0.12, 0.05])
    R = rotation_matrix([0.3, -0.2, 1.0])
    np.testing.assert_array_equal(v.inertia_tensors(R @ good @ R.T, "I"), R @ good @ R.T)
    with pytest.raises(ValueError, match=r"^I \[kg m\^2\] must be positive definite"):
        v.inertia_tensors(-good, "I")
    with pytest.raises(ValueError, match=r"must be symmetric"):
        v.inertia_tensors(good + np.triu(np.full((3, 3), 0.01), 1), "I")
    with pytest.raises(ValueError, match=r"triangle rule"):
        v.inertia_tensors(np.diag([0.01, 0.01, 0.1]), "I")
    frames = np.stack([good, good, np.diag([0.1, 0.1, -0.1])])
    with pytest.raises(ValueError, match=r"in frame \(2,\)"):
        v.inertia_tensors(frames, "I")


def test_positive_keeps_its_old_contract():
    assert v.positive(2, "g") == 2.0
    assert v.positive(0.0, "g", allow_zero=True) == 0.0
    assert v.positive(np.array([3.0]), "g") == 3.0
    with pytest.raises(ValueError, match=r"^g \[m/s\^2\] must be a finite positive number"):
        v.positive(-9.81, "g", unit="m/s^2")
    with pytest.raises(TypeError, match=r"^g \[m/s\^2\] must be real number\(s\); got text"):
        v.positive("9.81", "g", unit="m/s^2")
