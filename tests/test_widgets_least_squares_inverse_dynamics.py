"""bmc.widgets.least_squares_inverse_dynamics: the torque explorer's non-interactive path."""

from __future__ import annotations

import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.widgets import least_squares_inverse_dynamics as kuo


def _lines(fig):
    return [[line.get_ydata().copy() for line in ax.get_lines()] for ax in fig.axes]


def test_torque_explorer_follows_the_noise(kuo_sway):
    quiet = {"marker_noise": 0.01, "force_noise": 0.001, "weights": "propagated"}
    fig = kuo.torque_explorer(kuo_sway, interactive=False, values=quiet)
    clean = _lines(fig)
    titles = [ax.get_title() for ax in fig.axes]
    for true, ne, est in clean:
        # 0.1 mm and 1 mN: both estimators within 0.5 N m of the truth (filter bias only)
        np.testing.assert_allclose(ne, true, atol=0.5)
        np.testing.assert_allclose(est, true, atol=0.5)
    noisy = {"marker_noise": 2.0, "force_noise": 1.0, "weights": "paper"}
    fig2 = kuo.torque_explorer(kuo_sway, interactive=False, values=noisy)
    for before, after in zip(clean, _lines(fig2), strict=True):
        np.testing.assert_array_equal(before[0], after[0])  # the truth does not move
        assert not np.allclose(before[1], after[1])
        assert not np.allclose(before[2], after[2])
    assert titles != [ax.get_title() for ax in fig2.axes]
    plt.close("all")


def test_torque_explorer_rejects_unknown_weights(kuo_sway):
    with pytest.raises(ValueError, match=r"weights \(the control 'LS weights'\) must be one of"):
        kuo.torque_explorer(kuo_sway, interactive=False, values={"weights": "equal"})
    with pytest.raises(ValueError, match="unknown control"):
        kuo.torque_explorer(kuo_sway, interactive=False, values={"cutoff": 5.0})
    plt.close("all")


def test_torque_explorer_interactive_returns_a_widget(kuo_sway):
    import ipywidgets

    box = kuo.torque_explorer(kuo_sway)
    assert isinstance(box, ipywidgets.VBox)
    plt.close("all")
