"""bmc.models.standing: bad input refused by name (seeds exact, angles in radians)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models import standing

MODEL = standing.FourSegmentModel()
SWAY = standing.simulate_sway(duration=0.5, margin=0.1)
VALID = {
    standing.FourSegmentModel: {},
    standing.simulate_sway: {"duration": 0.5, "margin": 0.1},
    standing.measure: {"sway": SWAY},
    # the interface names the coordinates q, qd, qdd; Kuo's body calls them phi in messages
    MODEL.inverse_dynamics: {"q": np.zeros(3), "qd": np.zeros(3), "qdd": np.zeros(3)},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(standing.FourSegmentModel, TypeError, "lengths", lengths="0.1"),
    case(standing.FourSegmentModel, TypeError, "foot_angle", foot_angle="0.47"),
    case(standing.FourSegmentModel, TypeError, "g", g=True),
    case(standing.simulate_sway, TypeError, "model", model="kuo"),
    case(standing.simulate_sway, TypeError, "seed", seed=1.5),       # was truncated to 1
    case(standing.simulate_sway, TypeError, "seed", seed=True),      # was taken as 1
    case(standing.simulate_sway, TypeError, "seed", seed="1"),
    case(standing.simulate_sway, TypeError, "duration", duration=None),
    case(standing.measure, TypeError, "sway", sway=MODEL),
    case(standing.measure, TypeError, "seed", seed=1.5),
    case(standing.measure, TypeError, "seed", seed=[1.0, 2.0], realisations=2),
    case(MODEL.inverse_dynamics, TypeError, "phi", q=["0", "0", "0"]),
    # wrong shapes, signs, non-finite values
    case(standing.FourSegmentModel, ValueError, "masses", masses=[1.0, 2.0]),
    case(standing.FourSegmentModel, ValueError, "foot_angle", foot_angle=np.nan),
    case(standing.simulate_sway, ValueError, "seed", seed=-1),
    case(standing.simulate_sway, ValueError, "duration", duration=-1.0),
    case(standing.simulate_sway, ValueError, "freq", freq=np.inf),
    # cost: 73 kHz (Hz given for mHz) ran for minutes; refused before integrating
    case(standing.simulate_sway, ValueError, "freq", freq=73_045.0),
    case(standing.simulate_sway, ValueError, "duration", duration=4000.0),
    case(standing.measure, ValueError, "realisations", realisations=0),
    case(standing.measure, ValueError, "marker_noise", marker_noise=-0.01),
    # checked before the work (float() of a cut-off array failed at the end, unnamed)
    case(standing.measure, ValueError, "cutoff", cutoff=np.array([5.0, 6.0])),
    case(standing.measure, TypeError, "cutoff", cutoff="5"),
    case(standing.measure, ValueError, "order", order=0),
    case(MODEL.inverse_dynamics, ValueError, "phid", qd=np.zeros(4)),
    case(MODEL.inverse_dynamics, ValueError, "phidd", qdd=[np.nan, 0, 0]),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{getattr(c[0], '__name__', 'f')}-{c[3]}-{i}"
                              for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_foot_angle_in_degrees_is_named():
    # 27 (degrees) was taken as 27 rad silently; any angle is a valid geometry, so the
    # guard warns, naming the likely unit, and never refuses (issue 34: 2.67 rad was refused)
    from bmc._validation import BMCWarning

    with pytest.warns(BMCWarning, match=r"foot_angle.*degrees: pass 0\.4712"):
        model = standing.FourSegmentModel(foot_angle=27.0)
    assert model.foot_angle == 27.0
    with pytest.warns(BMCWarning, match="foot_angle"):
        backwards = standing.FourSegmentModel(foot_angle=2.67)  # the ankle behind the heel
    assert backwards.ankle[0] < 0


def test_valid_input_gives_finite_output(rng):
    phi = np.array(standing.POSTURE) + rng.uniform(-0.3, 0.3, (20, 3))
    phid, phidd = rng.uniform(-2, 2, (2, 20, 3))
    model = standing.FourSegmentModel(foot_angle=float(rng.uniform(0.2, 0.8)))
    assert np.all(np.isfinite(model.inverse_dynamics(phi, phid, phidd)))
    assert np.all(np.isfinite(model.ground_reaction(phi, phid, phidd)))
    assert standing.measure(SWAY, cutoff=np.array([5.0])).cutoff == 5.0  # one number
    meas = standing.measure(SWAY, realisations=2, seed=np.int64(3))
    assert np.all(np.isfinite(meas.phidd)) and np.all(np.isfinite(meas.grf))
