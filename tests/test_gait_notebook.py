"""Checks of what notebook 4 (gait inverse dynamics) computes beyond bmc.newton_euler's tests.

The ground-reaction-only case of notebook 4, section 7 (segment masses and accelerations
neglected, as in the source's last variant) is the invdyn2d recursion with zero mass,
inertia and accelerations. Independent truths: the moment of the ground reaction about each
joint, written out as a 2D cross product; the quasi-static model, which differs from it by
the moments of the weights below each joint only; Dempster's mass fractions (Winter 2009,
Table 4.1) for the body-mass estimate of section 5.
"""

from __future__ import annotations

import numpy as np
import pytest

import bmc
from bmc import newton_euler

G = 9.80665  # the gait analysis's gravity [m/s^2], lower_limb's default


@pytest.fixture(scope="module")
def run():
    return bmc.datasets.load_running()  # BMC_DATA_DIR set by tests/conftest.py or CI


@pytest.fixture(scope="module")
def parts(run):
    n = len(run.time)
    markers = run.markers.reshape(n, 4, 2)  # hip, knee, ankle, toe
    cop = np.column_stack([run.grf[:, 2], np.zeros(n)])
    contact = np.nonzero(run.grf[:, 1] > 0)[0]
    stance = slice(run.heel_strike, contact[-1] + 1)
    return markers, cop, stance


def _grf_only(run, markers, cop):
    """Notebook 4's recursion with massless, unaccelerated segments (cell of section 7)."""
    n = len(run.time)
    prox, dist = markers[:, :3], markers[:, 1:]
    rcm = prox + run.segments.com_fraction[:, None] * (dist - prox)
    zero = np.zeros((n, 2))
    fa, ma = bmc.invdyn2d(rcm[:, 2], cop, markers[:, 2], zero, 0.0, 0.0, 0.0, run.grf[:, :2], 0.0)
    fk, mk = bmc.invdyn2d(rcm[:, 1], markers[:, 2], markers[:, 1], zero, 0.0, 0.0, 0.0, -fa, -ma)
    fh, mh = bmc.invdyn2d(rcm[:, 0], markers[:, 1], markers[:, 0], zero, 0.0, 0.0, 0.0, -fk, -mk)
    return np.stack([fh, fk, fa], axis=1), np.column_stack([mh, mk, ma])


def test_grf_only_moment_is_the_ground_reactions_moment_about_each_joint(run, parts):
    markers, cop, _ = parts
    forces, moments = _grf_only(run, markers, cop)
    fx, fy = run.grf[:, 0], run.grf[:, 1]
    for j in range(3):  # hip, knee, ankle: M_j = (r_j - r_cop) x GRF, written out
        rx, ry = markers[:, j, 0] - cop[:, 0], markers[:, j, 1] - cop[:, 1]
        # terms up to ~1700 N x 1 m: round-off of a few 1e-13 N m
        np.testing.assert_allclose(moments[:, j], rx * fy - ry * fx, rtol=0, atol=1e-9)
        # a massless segment passes the ground reaction on unchanged: F_j = -GRF
        np.testing.assert_allclose(forces[:, j], -run.grf[:, :2], rtol=0, atol=1e-9)
    # the check has teeth: the knee's and hip's moments differ by the GRF's lever arm change
    assert np.abs(moments[:, 0] - moments[:, 1]).max() > 100.0


def test_quasi_static_minus_grf_only_is_the_weights_moment(run, parts):
    markers, cop, _ = parts
    _, grf_only = _grf_only(run, markers, cop)
    static = newton_euler.lower_limb(run.markers, run.grf, run.freq, run.segments,
                                     quasi_static=True)
    mass = run.segments.mass
    for j in range(3):
        # each weight m_i g at the centre of mass of a segment i at or below joint j acts on
        # the distal segment with moment (r_cm,i - r_j) x (0, -m_i g) = -(x_cm,i - x_j) m_i g;
        # the joint moment balances it: + (x_cm,i - x_j) m_i g
        expected = sum((static.com[:, i, 0] - markers[:, j, 0]) * mass[i] * G
                       for i in range(j, 3))
        np.testing.assert_allclose(static.moments[:, j] - grf_only[:, j], expected,
                                   rtol=0, atol=1e-9)  # round-off only, as above
    # the foot's centre of mass is at the ankle marker: its weight has no moment there
    np.testing.assert_allclose(static.moments[:, 2], grf_only[:, 2], rtol=0, atol=1e-9)


def test_grf_only_errors_printed_by_the_notebook(run, parts):
    markers, cop, stance = parts
    _, grf_only = _grf_only(run, markers, cop)
    err = grf_only[stance] - run.true_moments[stance]
    rmse = np.sqrt(np.mean(err**2, axis=0))
    # notebook 4 prints 69.9, 21.36, 8.533 N m (4 significant digits)
    np.testing.assert_allclose(rmse, [69.90, 21.36, 8.533], rtol=1e-3)


def test_anatomical_signs_and_body_mass(run, parts):
    markers, cop, stance = parts
    _, grf_only = _grf_only(run, markers, cop)
    truth = run.true_moments[stance]
    n = truth.shape[0]
    mid = slice(int(0.3 * n), int(0.6 * n))  # mid-stance, all three moments large
    anatomical = np.array([-1.0, 1.0, -1.0])  # hip extensor, knee extensor, plantarflexor
    # in mid-stance a runner's hip and knee extensors and ankle plantarflexors are active
    assert np.all(truth[mid] * anatomical > 0)
    # knee and ankle: the muscles oppose the ground reaction's moment about the joint
    assert np.all(np.sign(truth[mid, 1:]) == np.sign(grf_only[stance][mid, 1:]))
    # body mass from Dempster's fractions 0.100 + 0.0465 + 0.0145 of thigh, shank, foot
    fractions = [bmc.anthropometry.table("dempster")[s].mass_fraction
                 for s in run.segments.names]
    body_mass = run.segments.mass.sum() / sum(fractions)
    np.testing.assert_allclose(body_mass, 10.71 / 0.161, rtol=1e-12)  # exact arithmetic
    # running: peak vertical ground reaction 2-3 body weights (2.59 printed)
    assert 2.0 < run.grf[:, 1].max() / (body_mass * G) < 3.0
