"""bmc.muscles: bad input refused by name; coincident points named as singular."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import muscles as mu
from bmc.chain import PlanarChain

PATH = [(0, (0.0, 0.05)), (1, (0.1, 0.0))]
VALID = {f: {"lengths": [0.3], "q": [0.0], "attachments": PATH}
         for f in (mu.path_points, mu.muscle_length, mu.moment_arms)}
FOREARM = PlanarChain([0.43], [0.17], [1.54], [0.024])
HELD = [-np.pi / 4]
VALID[mu.activation_rate] = {"excitation": 0.5, "activation": 0.1}
VALID[mu.force_length] = {"length": 1.0}
VALID[mu.passive_force] = {"length": 1.0}
VALID[mu.force_velocity] = {"velocity": 0.0}
VALID[mu.tendon_force] = {"strain": 0.01}
VALID[mu.HillMuscle] = {"max_isometric_force": 987.0, "optimal_fiber_length": 0.086,
                        "tendon_slack_length": 0.054}
VALID[mu.holding_activation] = {"chain": FOREARM, "muscle": mu.BRACHIALIS,
                                "attachments": mu.BRACHIALIS_PATH, "q": HELD}
VALID[mu.simulate_muscle] = {"chain": FOREARM, "t_eval": [0.0, 0.01], "q0": HELD,
                             "qd0": [0.0], "muscle": mu.BRACHIALIS,
                             "attachments": mu.BRACHIALIS_PATH, "excitation": 0.2,
                             "activation0": 0.2}
VALID[mu.contact_force] = {"net_force": np.zeros((4, 2)), "net_moment": np.ones(4),
                           "moment_arm": 0.05, "direction": [1.0, 0.0]}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # frames that disagree were NumPy's broadcast error (issue 34's long survey, round 2)
    case(mu.contact_force, ValueError, "net_moment", net_moment=np.ones(5)),
    case(mu.contact_force, ValueError, "direction", direction=np.tile([1.0, 0.0], (3, 1))),
    # wrong types
    case(mu.muscle_length, TypeError, "lengths", lengths="0.3"),
    case(mu.muscle_length, TypeError, "q", q=[None]),
    case(mu.moment_arms, TypeError, "attachments", attachments=None),
    case(mu.moment_arms, TypeError, "attachments", attachments="origin, insertion"),
    case(mu.path_points, TypeError, "attachments", attachments=[(0, ("0", 0)), (1, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (True, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (1.0, (0.1, 0))]),
    # wrong shapes
    case(mu.muscle_length, ValueError, "q", q=[0.0, 0.0]),
    case(mu.muscle_length, ValueError, "attachments", attachments=PATH[:1]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0)), (2, (0.1, 0))]),
    case(mu.muscle_length, ValueError, "attachments", attachments=[(0, (0, 0, 0)), (1, (0.1, 0))]),
    # non-finite values, signs, units (were accepted)
    case(mu.muscle_length, ValueError, "q", q=[np.nan]),
    case(mu.muscle_length, ValueError, "lengths", lengths=[-0.3]),
    case(mu.muscle_length, ValueError, "lengths", lengths=[30.0]),     # cm
    # singular: two coincident points leave the direction undefined (gave NaN + warning)
    case(mu.moment_arms, ValueError, "attachments", attachments=[(0, (0, 0)), (0, (0, 0))]),
    # the Hill-type muscle: fractions outside 0 to 1, text, units, impossible postures
    case(mu.activation_rate, ValueError, "excitation", excitation=1.5),
    case(mu.activation_rate, ValueError, "activation", activation=-0.1),
    case(mu.activation_rate, TypeError, "excitation", excitation="full"),
    case(mu.activation_rate, ValueError, "activation_time", activation_time=0.0),
    # found by the fuzzing suite: unbroadcastable shapes, exp(k_PE) overflow, a path in cm
    case(mu.activation_rate, ValueError, "excitation", excitation=np.zeros(3),
         activation=np.zeros(2)),
    case(mu.passive_force, ValueError, "shape", shape=1e300),
    case(mu.HillMuscle, ValueError, "passive_shape", passive_shape=1e4),
    case(mu.holding_activation, ValueError, "attachments",
         attachments=[(0, (0.0, 5.0)), (1, (10.0, 0.0))]),
    case(mu.simulate_muscle, ValueError, "attachments",
         attachments=[(0, (0.0, 5.0)), (1, (10.0, 0.0))]),
    case(mu.muscle_length, ValueError, "lengths", lengths=[0.3, 0.3]),
    case(mu.force_length, TypeError, "length", length=None),
    case(mu.force_length, ValueError, "length", length=np.nan),
    case(mu.passive_force, ValueError, "length", length=[1.0, np.inf]),
    case(mu.force_velocity, TypeError, "velocity", velocity="fast"),
    case(mu.tendon_force, ValueError, "strain", strain=np.nan),
    case(mu.force_length, ValueError, "width", width=0.0),
    case(mu.passive_force, ValueError, "shape", shape=0.0),
    case(mu.passive_force, ValueError, "strain_at_f0", strain_at_f0=-0.6),
    case(mu.force_velocity, ValueError, "shape", shape=0.0),
    case(mu.force_velocity, ValueError, "max_lengthening_force", max_lengthening_force=1.0),
    case(mu.tendon_force, ValueError, "strain_at_f0", strain_at_f0=0.0),
    case(mu.HillMuscle, ValueError, "max_isometric_force", max_isometric_force=-5.0),
    case(mu.HillMuscle, ValueError, "optimal_fiber_length", optimal_fiber_length=8.6),  # cm
    case(mu.HillMuscle, ValueError, "tendon_slack_length", tendon_slack_length=54.0),  # mm
    case(mu.HillMuscle, TypeError, "max_isometric_force", max_isometric_force="strong"),
    case(mu.HillMuscle, ValueError, "max_lengthening_force", max_lengthening_force=0.8),
    case(mu.holding_activation, TypeError, "chain", chain="forearm"),
    case(mu.holding_activation, TypeError, "muscle", muscle={"F0": 987.0}),
    case(mu.holding_activation, ValueError, "q", q=[0.0, 0.0]),
    # an extensor path cannot hold the forearm up: it would have to push
    case(mu.holding_activation, ValueError, "muscle",
         attachments=[(0, (-0.02, 0.1)), (1, (-0.02, 0.0))]),
    case(mu.simulate_muscle, ValueError, "activation0", activation0=2.0),
    case(mu.simulate_muscle, ValueError, "excitation", excitation=[0.2, 0.2, 0.2]),
    case(mu.simulate_muscle, ValueError, "excitation", excitation=-0.1),
    case(mu.simulate_muscle, ValueError, "excitation", excitation=lambda t: 1.5),
    case(mu.simulate_muscle, ValueError, "t_eval", t_eval=[0.01, 0.0]),
    case(mu.simulate_muscle, TypeError, "muscle", muscle=None),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_valid_input_gives_finite_output(rng):
    path = [(0, (0.0, 0.05)), (1, (0.15, 0.02)), (2, (0.05, 0.0))]
    q = rng.uniform(0.1, 2.0, (50, 2))
    assert np.all(np.isfinite(mu.muscle_length([0.3, 0.25], q, path)))
    assert np.all(np.isfinite(mu.moment_arms([0.3, 0.25], q, path)))


def test_contact_force_results_share_the_frames():
    # one frame of the net load with two directions: the tension and the unbalanced moment
    # had one frame and the contact force two (issue 34's long survey, round 2)
    e = np.array([[1.0, 0.0], [0.0, 1.0]])
    tension, contact, unbalanced = mu.contact_force([[-2700.0, -3000.0]], [-6.4], [-0.06], e)
    assert tension.shape == (2,) and contact.shape == (2, 2) and unbalanced.shape == (2,)
    np.testing.assert_allclose(tension, 0.0, atol=0)  # -tau/r < 0: a muscle only pulls
