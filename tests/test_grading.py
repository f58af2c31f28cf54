"""The grader's plain-data codec and its validation of a (possibly forged) answers file.

Fast, no sandbox: what comes out of a submission is only data, and anything malformed is
rejected with a ``ValueError`` (the grader turns it into a ``bad-output`` row).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))
import _runner  # noqa: E402
import grade  # noqa: E402


@pytest.mark.parametrize("value", [
    1.5, -3, True, None, "ankle", [1.0, 2.0], (0.1, -0.2), {"C1", "C2"}, set(), ...,
    np.array([[1.0, 2.0], [3.0, 4.0]]), np.float64(2.5), np.int64(7), np.array([True, False]),
    float("nan"), float("inf"), complex(1, -2),
])
def test_codec_round_trip_through_json(value):
    back = _runner.decode(json.loads(json.dumps(_runner.encode(value))))
    if isinstance(value, np.ndarray):
        np.testing.assert_array_equal(back, value)
        assert back.shape == value.shape
    elif isinstance(value, float) and math.isnan(value):
        assert math.isnan(back)
    else:
        assert back == value and type(back) is type(value.item() if isinstance(
            value, np.generic) else value)


def test_objects_and_functions_come_out_opaque():
    class Sneaky:
        def __float__(self):  # would run in the grader if it were passed through
            raise SystemExit("pwned")

    for value in (Sneaky(), lambda: 0, object()):
        back = _runner.decode(json.loads(json.dumps(_runner.encode(value))))
        assert isinstance(back, _runner.Opaque)


@pytest.mark.parametrize("data", [
    [1, 2], {"list": 3}, {"ndarray": [1], "shape": [2], "dtype": "f"},
    {"float": "1e999999"}, {"unknown": 1}, {"a": 1, "b": 2},
    {"ndarray": [1.0], "shape": [1], "dtype": "O"},
])
def test_malformed_data_is_rejected(data):
    with pytest.raises((ValueError, KeyError, TypeError)):
        _runner.decode(data)


def _one_question_autograder():
    def test_tau(tau):
        assert tau == 2.0

    question = grade._Question("q1", 2.0, [grade._Case("t", True, test_tau, ["tau"])])
    return grade.Autograder("x", Path("x.zip"), {"q1": question})


@pytest.mark.parametrize("raw", [
    {}, {"answers": []}, {"answers": {}}, {"answers": {"tau": 2.0}},
    {"answers": {"tau": {"nothing": 1}}}, {"answers": {"tau": {"value": [2.0]}}},
    {"score": 11, "total": 500},
])
def test_a_forged_answers_file_is_an_error_not_a_verdict(raw):
    with pytest.raises((ValueError, TypeError)):
        grade._answers(raw, _one_question_autograder())


def test_answers_are_judged_by_the_graders_own_tests():
    ag = _one_question_autograder()
    right = grade._answers({"answers": {"tau": {"value": 2.0}}}, ag)
    wrong = grade._answers({"answers": {"tau": {"value": 3.0}}}, ag)
    missing = grade._answers({"answers": {"tau": {"missing": True}}}, ag)
    assert grade._judge(right, ag, "s1")["q1"]["score"] == 2.0
    assert grade._judge(wrong, ag, "s1")["q1"]["score"] == 0.0
    assert "not defined" in grade._judge(missing, ag, "s1")["q1"]["messages"][0]


def test_a_recorded_function_replays_only_the_graders_inputs():
    cases = [(0.3, 0.0), (1.0, 2.0)]
    results = [{"ok": 1.5}, {"error": "ZeroDivisionError: division by zero"}]
    f = grade._Recorded("f", [list(c) for c in cases], results)
    assert f(0.3, 0.0) == 1.5
    with pytest.raises(grade._StudentRaised, match="ZeroDivisionError"):
        f(1.0, 2.0)
    with pytest.raises(grade._StudentRaised, match="not called by the grader"):
        f(9.0, 9.0)
    with pytest.raises(ValueError, match="wrong number of recorded calls"):
        grade._Recorded("f", [list(c) for c in cases], results[:1])
