"""bmc.least_squares: bad input refused by name (variances, models, measurements)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import least_squares as ls
from bmc.models import standing

MODEL = standing.FourSegmentModel()
A = np.random.default_rng(1).normal(size=(5, 6, 3))
B = np.ones((5, 6))
COV = np.ones(6)
Z = np.zeros((5, 3))
VALID = {
    ls.weighted_least_squares: {"A": A, "b": B, "cov": COV},
    ls.newton_euler: {"model": MODEL, "phi": Z, "phid": Z, "phidd": Z, "grf": Z},
    ls.system: {"model": MODEL, "phi": Z, "phid": Z, "phidd": Z, "grf": Z},
    ls.least_squares: {"model": MODEL, "phi": Z, "phid": Z, "phidd": Z, "grf": Z, "cov": COV},
    ls.newton_euler_gain: {"model": MODEL, "phi": Z, "phid": Z},
    ls.error_covariance: {"gain": np.ones((3, 6)), "cov": COV},
    ls.estimate_bias: {"A": A, "b": B, "cov": COV, "B": np.ones((6, 1))},
    ls.overall_rmse_by_realisation: {"estimate": np.ones((4, 2)), "truth": np.zeros((4, 2)),
                                     "realisations": 2},
    ls.rmse: {"estimate": [1.0], "truth": [0.0]},
    ls.overall_rmse: {"estimate": np.ones((3, 2)), "truth": np.zeros((3, 2))},
    ls.paper_covariance: {"model": MODEL, "meas": None},
    ls.propagated_covariance: {"model": MODEL, "meas": None},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # issue 34's long survey, round 2: a singular system refused without saying what arrived
    # (no usable row); phidd of other frames than phi was NumPy's broadcast error
    case(ls.weighted_least_squares, ValueError, "available", available=[False] * 6),
    case(ls.estimate_bias, ValueError, "available", available=[False] * 6),
    # frames of A, b and cov that disagree were NumPy's broadcast error; a singular
    # covariance matrix was LinAlgError (found at 100 examples)
    case(ls.weighted_least_squares, ValueError, "b", b=np.ones((4, 6))),
    case(ls.estimate_bias, ValueError, "cov", cov=np.ones((2, 6))),
    case(ls.weighted_least_squares, ValueError, "cov", A=A[:, :, :1], cov=np.ones((6, 6))),
    case(ls.least_squares, ValueError, "phidd", phi=Z[0], phid=Z[0], grf=Z[:3],
         phidd=np.zeros((2, 3))),
    # wrong types
    case(ls.weighted_least_squares, TypeError, "A", A="A"),
    case(ls.weighted_least_squares, TypeError, "cov", cov=["1"] * 6),
    case(ls.newton_euler, TypeError, "model", model=None),
    case(ls.system, TypeError, "model", model=3),
    case(ls.least_squares, TypeError, "model", model="kuo"),
    case(ls.newton_euler_gain, TypeError, "model", model="kuo"),
    case(ls.paper_covariance, TypeError, "meas", meas="meas"),
    case(ls.propagated_covariance, TypeError, "meas", meas="meas"),
    case(ls.error_covariance, TypeError, "gain", gain=None),
    case(ls.rmse, TypeError, "estimate", estimate=["1"]),
    # wrong shapes and frame counts
    case(ls.weighted_least_squares, ValueError, "b", b=np.ones((5, 5))),
    case(ls.newton_euler, ValueError, "grf", grf=np.zeros((5, 2))),
    case(ls.newton_euler, ValueError, "grf", grf=np.zeros((4, 3))),
    case(ls.newton_euler_gain, ValueError, "phi", phi=np.zeros(2)),
    case(ls.error_covariance, ValueError, "cov", cov=np.ones(5)),
    case(ls.estimate_bias, ValueError, "B", B=np.ones((5, 1))),
    case(ls.overall_rmse_by_realisation, ValueError, "realisations", realisations=3),
    case(ls.overall_rmse_by_realisation, ValueError, "realisations", realisations=2.0),
    case(ls.rmse, ValueError, "estimate", estimate=[], truth=[]),      # was NaN + warnings
    case(ls.overall_rmse, ValueError, "estimate", estimate=np.zeros((3, 0)),
         truth=np.zeros((3, 0))),
    # non-finite values, signs
    case(ls.weighted_least_squares, ValueError, "cov", cov=-COV),
    # all-zero A: singular, refused in words (no NumPy warning first: warnings are errors)
    case(ls.weighted_least_squares, ValueError, "A", A=np.zeros_like(A)),
    case(ls.weighted_least_squares, ValueError, "cov", cov=COV * np.nan),
    case(ls.newton_euler, ValueError, "phi", phi=np.full((5, 3), np.nan)),
    case(ls.error_covariance, ValueError, "cov", cov=-COV),              # was accepted
    case(ls.error_covariance, ValueError, "cov", cov=np.diag([1.0, -1.0, 1, 1, 1, 1])),
    case(ls.error_covariance, ValueError, "cov",
         cov=np.block([[np.array([[1.0, 2.0], [2.0, 1.0]]), np.zeros((2, 4))],
                       [np.zeros((4, 2)), np.eye(4)]])),
    # singular configurations, named as such
    case(ls.weighted_least_squares, ValueError, "available",
         available=[True, True, False, False, False, False]),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    phi = np.array(standing.POSTURE) + rng.uniform(-0.2, 0.2, (8, 3))
    phid, phidd = rng.uniform(-1, 1, (2, 8, 3))
    grf = MODEL.ground_reaction(phi, phid, phidd)
    res = ls.least_squares(MODEL, phi, phid, phidd, grf, rng.uniform(0.5, 2.0, 6))
    assert np.all(np.isfinite(res.tau)) and np.all(np.isfinite(res.covariance))
    gain = ls.newton_euler_gain(MODEL, phi, phid)
    cov = ls.error_covariance(gain, rng.uniform(0.0, 2.0, 6))
    assert np.all(np.isfinite(cov)) and np.all(np.diagonal(cov, axis1=-2, axis2=-1) >= 0)


def test_a_singular_system_says_how_many_rows_were_usable():
    for func in (ls.weighted_least_squares, ls.estimate_bias):
        with pytest.raises(ValueError, match=r"got 0 usable row\(s\) of 6"):
            func(**{**VALID[func], "available": [False] * 6})


def test_zero_frames_of_the_accelerations_give_zero_frames():
    res = ls.least_squares(MODEL, Z[0], Z[0], np.zeros((0, 3)), [0.0, 0.0, 700.0], cov=COV)
    assert res.tau.shape == (0, 3)
