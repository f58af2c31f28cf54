"""bmc.checks: an answer that is not a real number is refused with a hint, never accepted.

Above all, a complex answer whose real part is right must fail (NumPy would drop the
imaginary part with only a warning): a complex result means a square root or logarithm of a
negative number, which the student must find. Each case asserts ``IncorrectAnswer`` and that
the message names the answer.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmc.checks import (
    IncorrectAnswer,
    check_form,
    check_function,
    check_set,
    check_sign,
    check_value,
)

# The right value is 2.0 (or [1, 2]): every bad answer below has that real part.
NOT_REAL = [
    ("complex", 2.0 + 0j),
    ("complex, imaginary part", 2.0 + 1e-3j),
    ("numpy complex", np.complex128(2.0 + 1j)),
    ("numpy complex, zero imaginary part", np.complex128(2.0)),
    ("bool", True),
    ("numpy bool", np.bool_(True)),
    ("text", "2.0"),
    ("bytes", b"2.0"),
    ("NaN", float("nan")),
    ("inf", np.inf),
    ("None", None),
    ("Ellipsis", ...),
    ("sympy I", pytest.importorskip("sympy").I + 2),
]
NOT_REAL_ARRAYS = [
    ("complex array", np.array([1.0, 2.0]) + 1j),
    ("complex array, zero imaginary part", np.array([1.0, 2.0], dtype=complex)),
    ("list with a complex", [1.0, 2.0 + 1j]),
    ("bool array", np.array([True, True])),
    ("list of text", ["1.0", "2.0"]),
    ("object array with text", np.array([1.0, "2.0"], dtype=object)),
    ("object array with a bool", np.array([1.0, True], dtype=object)),
    ("NaN inside", [1.0, np.nan]),
]
NOT_SIGNS = [
    ("bool", True),
    ("numpy bool", np.bool_(False)),
    ("complex", 1.0 + 1j),
    ("numpy complex", np.complex128(1.0 + 0j)),
    ("NaN", float("nan")),
    ("list", [1]),
    ("unknown word", "up"),
    ("None", None),
]


def _student_function(result):
    return lambda x: result


CASES = [
    *[(f"check_value {label}", check_value, {"name": "T_peak", "answer": v, "expected": 2.0},
       "T_peak") for label, v in NOT_REAL],
    *[(f"check_value {label}", check_value,
       {"name": "forces", "answer": v, "expected": [1.0, 2.0]}, "forces")
      for label, v in NOT_REAL_ARRAYS],
    *[(f"check_form {label}", check_form, {"name": "T_peak", "answer": v, "unit": "N m"},
       "T_peak") for label, v in NOT_REAL],
    *[(f"check_sign {label}", check_sign, {"name": "direction", "answer": v, "expected": 1.0},
       "direction") for label, v in NOT_SIGNS],
    *[(f"check_form sign {label}", check_form,
       {"name": "direction", "answer": v, "kind": "sign"}, "direction")
      for label, v in NOT_SIGNS],
    *[(f"check_function returns {label}", check_function,
       {"name": "torque", "func": _student_function(v), "cases": [(1.0,)], "expected": [2.0]},
       "torque") for label, v in NOT_REAL],
]


@pytest.mark.parametrize(("label", "func", "kwargs", "arg"), CASES,
                         ids=[c[0] for c in CASES])
def test_not_a_real_number_is_refused_naming_the_answer(refuses, label, func, kwargs, arg):
    message = refuses(func, kwargs, IncorrectAnswer, arg)
    assert "Traceback" not in message


@pytest.mark.parametrize("answer", [2.0 + 0j, np.complex128(2.0 + 1e-9j),
                                    np.array([1.0, 2.0], dtype=complex)])
def test_a_complex_answer_with_the_right_real_part_says_why(answer):
    expected = 2.0 if np.ndim(answer) == 0 else [1.0, 2.0]
    with pytest.raises(IncorrectAnswer, match="complex") as info:
        check_value("v", answer, expected)
    assert "square root" in str(info.value)  # the hint says where a complex number comes from


@pytest.mark.parametrize("answer", [2.0, 2, np.float64(2.0), np.int64(2), np.array(2.0),
                                    [[2.0]]])
def test_real_numbers_of_every_kind_still_pass(answer):
    assert check_value("v", answer, 2.0)
    assert check_form("v", answer)


def test_numeric_sympy_expressions_still_count_as_signs():
    sympy = pytest.importorskip("sympy")
    assert check_sign("s", sympy.sqrt(2), 1.0)
    assert check_sign("s", -sympy.pi, -3.0)


# The author's slips, named as the author's (issue 34's long survey, round 2): a NaN or a
# list tolerance warned inside numpy.isclose and then judged every answer wrong, or raised
# a bare TypeError; a negative or huge ``shape`` raised NumPy's own error (or allocated
# exabytes); an empty ``allowed`` judged every answer wrong. None of them blames the student.
AUTHOR_SLIPS = [
    ("check_value rtol NaN", check_value,
     {"name": "x", "answer": 2.0, "expected": 2.0, "rtol": float("nan")}, ValueError, "rtol"),
    ("check_value atol negative", check_value,
     {"name": "x", "answer": 2.0, "expected": 2.0, "atol": -1.0}, ValueError, "atol"),
    ("check_function rtol NaN", check_function,
     {"name": "f", "func": lambda x: 2 * x, "cases": [(1.0,)], "expected": [2.0],
      "rtol": float("nan")}, ValueError, "rtol"),
    ("check_sign atol NaN", check_sign,
     {"name": "s", "answer": -1, "expected": 0.0, "atol": float("nan")}, ValueError, "atol"),
    ("check_sign atol pair", check_sign,
     {"name": "s", "answer": 0, "expected": -7.0, "atol": [0.0, 0.0]}, ValueError, "atol"),
    ("check_form shape negative", check_form,
     {"name": "lam", "answer": np.array([1.0, 2.0]), "shape": (-1,)}, ValueError, "shape"),
    ("check_form shape huge", check_form,
     {"name": "T", "answer": 1.0, "shape": (10**9, 10**9)}, ValueError, "shape"),
    ("check_form shape dict", check_form,
     {"name": "x", "answer": 1.0, "shape": {"value": 1.0}}, TypeError, "shape"),
    ("check_form shape text", check_form,
     {"name": "x", "answer": 1.0, "shape": "2"}, TypeError, "shape"),
    ("check_set allowed empty", check_set,
     {"name": "z", "answer": {"C1"}, "expected": set(), "allowed": []}, ValueError, "allowed"),
]


@pytest.mark.parametrize(("label", "func", "kwargs", "exc", "arg"), AUTHOR_SLIPS,
                         ids=[c[0] for c in AUTHOR_SLIPS])
def test_an_authors_slip_is_named_not_blamed_on_the_student(refuses, label, func, kwargs, exc,
                                                             arg):
    message = refuses(func, kwargs, exc, arg)
    assert "got" in message  # what arrived


def test_a_valid_shape_and_zero_tolerances_still_pass():
    assert check_form("v", np.zeros((2, 3)), shape=(2, 3))
    assert check_form("v", [[1.0], [2.0]], shape=[2])  # a column for a vector, a list shape
    assert check_value("v", 2.0, 2.0, rtol=0.0, atol=0.0)
    assert check_sign("s", 0, 0.0, atol=0.0)
    assert check_set("z", [0.1], {0.1}, allowed=[0.1, "0.2", None])


def test_every_expected_output_is_checked_before_the_student_is_judged(refuses):
    # the first case judged the student wrong (2.0 is not 0.1) before the second expected
    # output, text, was ever looked at
    refuses(check_function, {"name": "f", "func": lambda x: 2 * x, "cases": [(1.0,), (2.0,)],
                             "expected": [0.1, "0.2"]}, TypeError, "expected[1]")
