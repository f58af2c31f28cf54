"""bmc.plotting: helpers return their Axes, style is opt-in, bad input is named."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bmc import plotting


def test_time_series_draws_one_line_per_column_and_labels_axes():
    import matplotlib.pyplot as plt

    t = np.linspace(0, 1, 5)
    ax = plotting.time_series(t, np.c_[t, 2 * t], labels=["a", "b"], ylabel="angle [rad]")
    assert len(ax.lines) == 2
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), 2 * t)
    assert ax.get_xlabel() == "time [s]" and ax.get_ylabel() == "angle [rad]"
    plt.close(ax.figure)


def test_time_series_names_mismatched_lengths():
    with pytest.raises(ValueError, match=r"y must have one row per time sample \(5\)"):
        plotting.time_series(np.arange(5.0), np.arange(4.0))


def test_stick_figure_uses_the_given_axes():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    out = plotting.stick_figure([[0, 0], [0.3, 0.1], [0.5, 0.4]], ax=ax)
    assert out is ax and len(ax.lines) == 1
    plt.close(fig)


def test_importing_plotting_leaves_rcparams_alone_and_use_style_applies():
    code = (
        "import matplotlib as mpl; before = dict(mpl.rcParams)\n"
        "import bmc.plotting as p; assert dict(mpl.rcParams) == before\n"
        "p.use_style(); assert mpl.rcParams['axes.grid'] is True\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
