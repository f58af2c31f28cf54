"""The synthetic stance of notebook 3: a walking ground reaction, and consistent loads."""

from __future__ import annotations

import numpy as np
import pytest

from bmc import matrix_form as mf
from bmc import newton_euler
from bmc.models.stance import stance_example

G = 9.80665  # the weight that stance_example scales its ground reaction with [m/s^2]


@pytest.mark.parametrize("body_mass", [55.0, 70.0, 95.0])
def test_vertical_force_has_the_size_and_shape_of_walking(body_mass):
    """Walking: two humps of 1.0-1.3 body weight near 25 % and 75 % of stance and a
    mid-stance valley below body weight (Winter 2009; Perry and Burnfield 2010)."""
    st = stance_example(body_mass=body_mass, n_frames=601)
    fy = st.f_ext[:, 1] / (body_mass * G)            # body weights
    s = st.t / st.t[-1]
    first, second = np.argmax(np.where(s < 0.5, fy, -1)), np.argmax(np.where(s > 0.5, fy, -1))
    assert 1.0 <= fy.max() <= 1.3, fy.max()
    assert 0.15 <= s[first] <= 0.35 and 0.65 <= s[second] <= 0.85, (s[first], s[second])
    valley = fy[(s > 0.4) & (s < 0.6)].min()
    assert 0.6 <= valley <= 0.9 and valley < fy[first] - 0.2, valley
    assert fy.min() >= 0.0                            # the ground only pushes
    assert fy[0] == pytest.approx(0.0, abs=1e-12) and fy[-1] == pytest.approx(0.0, abs=1e-12)


def test_the_old_single_hump_would_fail():
    """The bounds above reject the earlier 0.89 body-weight profile (the test can fail)."""
    s = np.linspace(0.0, 1.0, 601)
    old = np.sin(np.pi * s) + 0.25 * np.sin(3 * np.pi * s)
    assert not 1.0 <= old.max() <= 1.3


def test_fore_aft_force_brakes_then_propels():
    st = stance_example()
    fx = st.f_ext[:, 0] / (70.0 * G)
    half = st.t.size // 2
    assert fx[1:half].max() < 0 < fx[half + 1:-1].min()   # braking, then propulsion
    assert 0.1 <= np.abs(fx).max() <= 0.3                  # walking: about 0.2 BW


@pytest.mark.parametrize("planar", [False, True])
def test_matrix_solve_equals_recursion_on_the_new_stance(planar):
    """Block solve and segment-by-segment recursion are two formulations of one system."""
    st = stance_example(planar=planar)
    F, M = mf.joint_loads(**st.inputs())
    F_rec, M_rec = newton_euler.joint_loads3d(**st.inputs())
    # 1e-10 of the largest load: both are exact linear algebra on the same numbers
    np.testing.assert_allclose(F, F_rec, rtol=0, atol=1e-10 * np.abs(F).max())
    np.testing.assert_allclose(M, M_rec, rtol=0, atol=1e-10 * np.abs(M).max())
