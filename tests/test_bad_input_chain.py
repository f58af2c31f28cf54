"""bmc.chain: bad input refused by name (plausible units, COM within its link)."""

from __future__ import annotations

import numpy as np
import pytest

from bmc.chain import PlanarChain

ARM = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
Q = [0.3, 0.4]
VALID = {
    PlanarChain: {"lengths": [0.4], "com": [0.17], "masses": [1.5], "inertias": [0.02]},
    ARM.inverse_dynamics: {"q": Q, "qd": Q, "qdd": Q},
    ARM.forward_dynamics: {"q": Q, "qd": Q, "tau": Q},
    ARM.external_terms: {"q": Q, "F": [0.0, -10.0]},
    ARM.energy: {"q": Q, "qd": Q},
    ARM.with_point_mass: {"mass": 1.0},
    PlanarChain.from_segments: {"segments": [{"length": 0.3, "com": 0.13, "mass": 2.0,
                                              "inertia": 0.02}]},
    ARM.frame_accelerations: {"q": np.array(Q), "qd": np.array(Q), "tau": np.array(Q),
                              "F": np.array([1.0, 2.0])},
}


def case(func, exc, arg, **bad):
    return func, {**VALID[func], **bad}, exc, arg


CASES = [
    # wrong types
    case(PlanarChain, TypeError, "lengths", lengths="0.4"),
    case(PlanarChain, TypeError, "masses", masses=[True]),
    case(PlanarChain, TypeError, "g", g="9.81"),
    case(PlanarChain, TypeError, "inertias", inertias=[0.02j]),
    case(ARM.inverse_dynamics, TypeError, "q", q=["0.3", "0.4"]),
    case(ARM.external_terms, TypeError, "F", F=None),
    case(ARM.with_point_mass, TypeError, "mass", mass="1"),
    # wrong shapes, frame counts
    case(PlanarChain, ValueError, "com", com=[0.1, 0.2]),
    case(PlanarChain, ValueError, "lengths", lengths=[]),
    case(ARM.inverse_dynamics, ValueError, "q", q=[0.3]),
    case(ARM.inverse_dynamics, ValueError, "qd", qd=np.zeros((5, 2)), q=np.zeros((4, 2))),
    case(ARM.forward_dynamics, ValueError, "tau", tau=[1.0, 2.0, 3.0]),
    case(ARM.external_terms, ValueError, "F", F=[1.0, 2.0, 3.0]),
    # non-finite values, signs
    case(PlanarChain, ValueError, "lengths", lengths=[-0.4]),
    case(PlanarChain, ValueError, "masses", masses=[np.nan]),
    case(PlanarChain, ValueError, "inertias", inertias=[-0.02]),
    case(ARM.energy, ValueError, "qd", qd=[np.inf, 0.0]),
    case(ARM.with_point_mass, ValueError, "mass", mass=-1.0),
    # the integrators' unchecked hot path: a non-finite input is named without a NumPy
    # RuntimeWarning on the way (warnings are errors here; issue 34's long survey)
    case(ARM.frame_accelerations, ValueError, "qd", qd=np.array([-np.inf, 0.0])),
    case(ARM.frame_accelerations, ValueError, "q", q=np.array([0.3, np.inf])),
    case(ARM.frame_accelerations, ValueError, "F", F=np.array([np.nan, 0.0])),
    case(ARM.frame_accelerations, TypeError, "tau", tau=np.array(["1", "2"])),
    # physics and units: COM outside its link; masses in g, lengths in cm were accepted
    case(PlanarChain, ValueError, "com", com=[0.5]),
    case(PlanarChain, ValueError, "com", com=[-0.1]),
    case(PlanarChain, ValueError, "masses", masses=[7000.0]),
    case(PlanarChain, ValueError, "lengths", lengths=[40.0], com=[17.0]),
    case(PlanarChain, ValueError, "g", g=981.0),                        # cm/s^2
    case(PlanarChain.from_segments, TypeError, "segments", segments=None),
    case(PlanarChain.from_segments, TypeError, "segments", segments=[{"length": 0.3}]),
    case(ARM.with_point_mass, ValueError, "distance", distance=5.0),
    case(ARM.with_point_mass, ValueError, "distance", distance=np.nan),
    case(ARM.with_point_mass, ValueError, "segment", segment=5),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{getattr(c[0], '__name__', 'f')}-{c[3]}-{i}"
                              for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


def test_mass_in_grams_is_named():
    with pytest.raises(ValueError, match=r"looks like g: pass 7 "):
        PlanarChain([0.4], [0.17], [7000.0], [0.02])


def test_valid_input_gives_finite_output(rng):
    for n in (1, 2, 3):
        lengths = rng.uniform(0.2, 1.0, n)
        chain = PlanarChain(lengths, lengths * rng.uniform(0.1, 0.9, n),
                            rng.uniform(0.5, 10.0, n), rng.uniform(0.01, 0.5, n))
        q, qd, qdd = rng.uniform(-2, 2, (3, 10, n))
        tau = chain.inverse_dynamics(q, qd, qdd, contact_force=rng.uniform(-5, 5, (10, 2)))
        assert np.all(np.isfinite(tau))
        assert np.all(np.isfinite(chain.forward_dynamics(q, qd, tau)))
        assert np.all(np.isfinite(chain.energy(q, qd)))


def test_base_reaction_terms_share_the_frames_of_q_and_qd():
    # one posture with 4 velocities: C (from q alone) had one frame and d four (issue 34's
    # long survey, round 2: mixed frames); both have 4 now, and each frame is the one-frame
    # result
    qd = np.array([[0.1, 0.2], [0.3, -0.1], [0.0, 0.0], [1.0, 2.0]])
    c, d = ARM.base_reaction_terms(Q, qd)
    assert c.shape == (4, 3, 2) and d.shape == (4, 3)
    for i in range(4):
        c1, d1 = ARM.base_reaction_terms(Q, qd[i])
        np.testing.assert_allclose(c[i], c1, rtol=0, atol=1e-12)  # the same arithmetic
        np.testing.assert_allclose(d[i], d1, rtol=0, atol=1e-12)
