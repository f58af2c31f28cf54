"""model_sketch on Blajer and Czaplicki's tree: per-segment references and nested arcs."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from bmc import drawing
from bmc.models.human import human_model

POSE = np.array([0.0, 1.0, -0.15, 0.45, -0.2, np.pi / 2 + 0.15, 1.3, 2.0, 0.2])


@pytest.fixture
def sketch():
    model = human_model()
    n = model.n
    ends = np.vstack([model.joint_positions(POSE), model.distal_positions(POSE)])
    refs = np.where(model.direction > 0, np.pi / 2, -np.pi / 2)
    d = drawing.model_sketch(ends, segments=[(i, n + i) for i in range(n)], angles="segment",
                             reference=refs, symbol=r"\varphi")
    yield d
    plt.close("all")


def test_angles_are_the_models_absolute_angles(sketch):
    """Trunk and head from the upward vertical, limbs from the downward one: phi_i itself."""
    drawn = np.array([sketch.angles[rf"\varphi_{{{i + 1}}}"] for i in range(7)])
    np.testing.assert_allclose(drawn, POSE[2:], atol=1e-12)   # geometry round trip


def test_labels_of_angles_at_one_point_do_not_coincide():
    """Two segments leave one point 23 degrees apart: nested arcs keep their labels apart."""
    d = drawing.model_sketch([[0.0, 0.0], [1.0, 0.2], [1.0, -0.2]], segments=[(0, 1), (0, 2)],
                             angles="segment", values=False)
    where = {t.get_text(): np.array(t.get_position()) for t in d.ax.texts}
    # without nesting the two labels are 0.09 m apart, about a label's height at this scale
    assert np.hypot(*(where[r"$\varphi_{1}$"] - where[r"$\varphi_{2}$"])) > 0.2
    plt.close("all")


def test_reference_must_match_the_segments():
    with pytest.raises(ValueError, match="reference"):
        drawing.model_sketch([[0, 0], [0, 1], [1, 1]], angles="segment", reference=[0.0, 1.0, 2.0])
