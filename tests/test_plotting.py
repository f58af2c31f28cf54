"""bmc.plotting: helpers return their Axes, style is opt-in, bad input is named."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bmc import plotting


def test_importing_plotting_leaves_rcparams_alone_and_use_style_applies():
    code = (
        "import matplotlib as mpl; before = dict(mpl.rcParams)\n"
        "import bmc.plotting as p; assert dict(mpl.rcParams) == before\n"
        "p.use_style(); assert mpl.rcParams['axes.grid'] is True\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_estimates_against_truth_draws_truth_and_updatable_lines():
    import matplotlib.pyplot as plt

    t = np.linspace(0, 1, 11)
    truth = np.c_[np.sin(t), np.zeros_like(t)]
    axes, lines = plotting.estimates_against_truth(
        t, truth, {"A": {"color": "C1"}, "B": {"color": "C0"}}, titles=("one", "two"),
        ylabel="torque [N m]",
    )
    assert [ax.get_title() for ax in axes] == ["one", "two"]
    assert set(lines) == {"A", "B"} and all(len(v) == 2 for v in lines.values())
    # the truth first, then the estimates in order, all starting at the truth
    assert [line.get_label() for line in axes[0].lines] == ["true", "A", "B"]
    np.testing.assert_array_equal(lines["B"][0].get_ydata(), truth[:, 0])
    # limits: the truth's range widened by 30 %; a constant truth gets +-0.3
    span = np.ptp(truth[:, 0])
    np.testing.assert_allclose(axes[0].get_ylim(), (-0.3 * span, truth[:, 0].max() + 0.3 * span))
    np.testing.assert_allclose(axes[1].get_ylim(), (-0.3, 0.3))
    lines["A"][1].set_ydata(np.ones_like(t))
    np.testing.assert_array_equal(axes[1].lines[1].get_ydata(), 1.0)
    assert axes[0].get_ylabel() == "torque [N m]"
    plt.close("all")


def test_estimates_against_truth_names_bad_input():
    t = np.arange(5.0)
    with pytest.raises(ValueError, match=r"truth must have one row per time sample \(5\)"):
        plotting.estimates_against_truth(t, np.zeros((4, 2)), {}, titles="ab", ylabel="")
    with pytest.raises(ValueError, match="titles must name the 2 columns of truth; got 3"):
        plotting.estimates_against_truth(t, np.zeros((5, 2)), {}, titles="abc", ylabel="")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3)
    with pytest.raises(ValueError, match="axes must hold 2 Axes, one per column of truth; got 3"):
        plotting.estimates_against_truth(t, np.zeros((5, 2)), {}, titles="ab", ylabel="",
                                         axes=axes)
    drawn, _ = plotting.estimates_against_truth(t, np.zeros((5, 3)), {}, titles="abc",
                                                ylabel="", axes=axes)
    assert list(drawn) == list(axes) and len(fig.axes) == 3
    plt.close(fig)
