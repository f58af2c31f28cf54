"""bmc.widgets.gait_inverse_dynamics: the noisy-trial builder and the non-interactive path."""

import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc import datasets
from bmc.widgets import gait_inverse_dynamics as gait


@pytest.fixture(scope="module")
def run():
    return datasets.load_running()


def test_noisy_running_decimates_and_scales_one_pattern(run):
    clean = gait.noisy_running(run, step=10)
    a = gait.noisy_running(run, step=10, marker_noise=1e-3, force_noise=2.0, seed=3)
    b = gait.noisy_running(run, step=10, marker_noise=2e-3, force_noise=4.0, seed=3)
    assert clean.freq == 1000.0 and clean.markers.shape == (601, 8)
    np.testing.assert_array_equal(clean.markers, run.markers[::10])  # no noise: exact copy
    # Same seed: doubling the level doubles the same noise pattern (round-off only).
    np.testing.assert_allclose(b.markers - clean.markers, 2 * (a.markers - clean.markers),
                               rtol=0, atol=1e-15)
    # 601 x 8 draws: the sample SD is within 5 % of 1 mm.
    np.testing.assert_allclose(np.std(a.markers - clean.markers), 1e-3, rtol=0.05)
    # Centre-of-pressure noise only while the foot is on the ground.
    c = gait.noisy_running(run, step=10, cop_noise=1e-3)
    flight = clean.grf[:, 1] <= 0
    np.testing.assert_array_equal(c.grf[flight, 2], clean.grf[flight, 2])
    assert np.all(c.grf[~flight, 2] != clean.grf[~flight, 2])
    # The stance window maps to the same times as at 10 kHz: 25 ms before heel strike.
    np.testing.assert_allclose(clean.time[clean.window][0],
                               run.time[run.heel_strike - 250], rtol=0, atol=1e-12)


def test_noisy_running_rejects_bad_arguments(run):
    with pytest.raises(ValueError, match="step must be a positive integer"):
        gait.noisy_running(run, step=0)
    with pytest.raises(ValueError, match=r"marker_noise \[m\]"):
        gait.noisy_running(run, marker_noise=-1.0)


def test_noise_explorer_updates_artists(run):
    fig = gait.noise_explorer(run, interactive=False,
                              values={"marker_noise": 0.0, "force_noise": 0.0, "cutoff": 100})
    lines = [ax.get_lines()[1] for ax in fig.axes]
    quiet = [line.get_ydata().copy() for line in lines]
    titles = [ax.get_title() for ax in fig.axes]
    fig2 = gait.noise_explorer(run, interactive=False,
                               values={"marker_noise": 2.0, "force_noise": 5.0, "cutoff": 10})
    noisy = [ax.get_lines()[1].get_ydata() for ax in fig2.axes]
    for q, n_ in zip(quiet, noisy, strict=True):
        assert not np.allclose(q, n_)
    assert titles != [ax.get_title() for ax in fig2.axes]
    # Clean data at 1 kHz filtered at 100 Hz: every joint within 1 N m RMS of the truth
    # (title shows it); noisy and filtered at 10 Hz: several N m.
    errors = [float(t.split("RMSE ")[1].split()[0]) for t in titles]
    assert max(errors) < 1.0, titles
    plt.close("all")


def test_noise_explorer_interactive_returns_widget(run):
    box = gait.noise_explorer(run)
    assert "bmc-explorer" in box._dom_classes
    plt.close("all")
