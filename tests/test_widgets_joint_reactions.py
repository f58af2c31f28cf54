"""bmc.widgets.joint_reactions: the reaction explorer's non-interactive path."""

from __future__ import annotations

import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc import reactions as rx
from bmc.models.somersault import somersault
from bmc.widgets import joint_reactions as wr


@pytest.fixture(scope="module")
def motion():
    return somersault(freq=100.0)


def _state(fig):
    body, series = fig.axes
    lines = [line.get_xydata().copy() for line in body.get_lines()[:7]]
    curves = [line.get_ydata().copy() for line in series.get_lines()[:6]]
    arrows = body.collections[0]
    return lines, curves, arrows.U.copy(), arrows.V.copy(), series.get_title()


def test_explorer_follows_time_and_noise(motion):
    bw = motion.model.body_weight
    fig = wr.reaction_explorer(motion, interactive=False, values={"time": 0.2, "noise": 0.0})
    lines, curves, u, v, title = _state(fig)
    # clean force: eq. (2.10) and eq. (2.11) coincide (1e-9 body weights)
    for k in range(3):
        np.testing.assert_allclose(curves[2 * k], curves[2 * k + 1], atol=1e-9)
    # ankle arrow = ankle reaction at t = 0.2 s, drawn 0.06 m per body weight
    i = int(np.searchsorted(motion.t, 0.2))
    lam, _ = rx.motion_reactions(motion, joints=["ankle"])
    np.testing.assert_allclose(v[3], 0.06 * lam[i, 1] / bw, rtol=1e-12)
    fig2 = wr.reaction_explorer(motion, interactive=False, values={"time": 1.0, "noise": 50.0})
    lines2, curves2, u2, v2, title2 = _state(fig2)
    assert not np.allclose(lines[0], lines2[0])  # the body moved
    assert not np.allclose(curves2[0], curves2[1])  # noisy force: the formulas part
    assert np.abs(v2[1:]).max() < 0.012  # in flight the reactions are small (< 0.2 BW)
    assert title != title2
    plt.close("all")


def test_explorer_rejects_unknown_controls(motion):
    with pytest.raises(ValueError, match="unknown control"):
        wr.reaction_explorer(motion, interactive=False, values={"speed": 1.0})
    plt.close("all")


def test_explorer_interactive_returns_a_widget(motion):
    import ipywidgets

    assert isinstance(wr.reaction_explorer(motion), ipywidgets.VBox)
    plt.close("all")
