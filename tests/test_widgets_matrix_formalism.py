"""bmc.widgets.matrix_formalism: the explorers' non-interactive paths."""

import matplotlib.pyplot as plt  # tests/conftest.py selects the Agg backend
import numpy as np
import pytest

from bmc.rotations import rotation_matrix
from bmc.widgets import matrix_formalism as wmf


def test_energy_explorer_updates_and_orders_the_methods():
    fig = wmf.energy_explorer(duration=1.0, interactive=False,
                              values={"log_dt": -2.0, "log_rtol": -10.0})
    euler, dop = fig.axes[0].get_lines()
    coarse = euler.get_ydata().copy()
    title = fig.axes[0].get_title()
    # A 10 ms Euler step gains energy by far more than DOP853 at rtol 1e-10 drifts.
    assert coarse[-1] > 1e-2
    assert dop.get_ydata()[-1] < 1e-7
    fig2 = wmf.energy_explorer(duration=1.0, interactive=False,
                               values={"log_dt": -3.0, "log_rtol": -6.0})
    euler2, dop2 = fig2.axes[0].get_lines()
    # Euler is first order: ten times smaller step, about ten times smaller error (5-20x).
    assert 5 < coarse[-1] / euler2.get_ydata()[-1] < 20
    assert dop2.get_ydata()[-1] > dop.get_ydata()[-1]       # looser tolerance, larger error
    assert fig2.axes[0].get_title() != title
    plt.close("all")


def test_frames_explorer_draws_the_rotation_matrix_columns():
    values = {"angle1": 40.0, "angle2": -25.0, "angle3": 70.0, "sequence": "zxy",
              "intrinsic": True}
    fig = wmf.frames_explorer(interactive=False, values=values)
    ax = fig.axes[0]
    R = rotation_matrix(np.radians([40.0, -25.0, 70.0]), sequence="zxy")
    final = ax.get_lines()[-3:]                      # the thick lines: the final frame
    for k, line in enumerate(final):
        xs, ys, zs = line.get_data_3d()
        np.testing.assert_allclose([xs[1], ys[1], zs[1]], R[:, k], atol=1e-12)
    text = fig.axes[1].texts[0].get_text()
    assert "zxy" in text and f"{R[0, 0]:+.3f}" in text
    fig2 = wmf.frames_explorer(interactive=False, values={**values, "intrinsic": False})
    R2 = rotation_matrix(np.radians([40.0, -25.0, 70.0]), sequence="zxy", intrinsic=False)
    xs, ys, zs = fig2.axes[0].get_lines()[-3].get_data_3d()
    np.testing.assert_allclose([xs[1], ys[1], zs[1]], R2[:, 0], atol=1e-12)
    plt.close("all")


def test_explorers_reject_unknown_values():
    with pytest.raises(ValueError, match="unknown control"):
        wmf.frames_explorer(interactive=False, values={"angle4": 1.0})
    plt.close("all")
