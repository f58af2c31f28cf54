"""Tests for the 3D section of bmc.newton_euler (invdyn3d, joint_loads3d)."""

import numpy as np
import pytest

import bmc
from bmc import matrix_form as mf
from bmc import newton_euler as ne
from bmc.models.stance import stance_example
from bmc.rotations import rotation_matrix

G = 9.80665


@pytest.fixture(scope="module")
def stance():
    return stance_example()


@pytest.fixture(scope="module")
def planar():
    return stance_example(planar=True)


def _rel(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


@pytest.mark.parametrize("frame", ["segment", "global"])
def test_matrix_solve_equals_recursion(stance, frame):
    # Two formulations of the same equations: one batched linear solve of the 12x12 block
    # system versus segment-by-segment substitution with Euler's equations rotated to the
    # global frame. A is unit lower block-triangular (well conditioned), so the two differ
    # by rounding only: 1e-10 relative leaves a wide margin (measured ~1e-15).
    F_mat, M_mat = mf.joint_loads(**stance.inputs(), frame=frame)
    F_rec, M_rec = ne.joint_loads3d(**stance.inputs(), frame=frame)
    assert _rel(F_mat, F_rec) < 1e-10
    assert _rel(M_mat, M_rec) < 1e-10
    assert np.abs(M_mat[..., :2]).max() > 1.0      # a genuinely 3D case (out-of-plane moments)


def test_planar_case_equals_invdyn2d(planar):
    # The planar special case of the 3D equations is the classic 2D recursion: forces in
    # x-y and the moment about z agree to rounding; out-of-plane components vanish.
    F, M = ne.joint_loads3d(**planar.inputs(), g=G)
    F_mat, M_mat = mf.joint_loads(**planar.inputs(), g=G)
    Fa, Ma = bmc.invdyn2d(planar.rcm[:, 0, :2], planar.p_ext[:, :2], planar.rp[:, 0, :2],
                          planar.acm[:, 0, :2], planar.omegadot[:, 0, 2], planar.mass[0],
                          planar.inertia[0, 2, 2], planar.f_ext[:, :2], 0.0, g=G)
    Fk, Mk = bmc.invdyn2d(planar.rcm[:, 1, :2], planar.rp[:, 0, :2], planar.rp[:, 1, :2],
                          planar.acm[:, 1, :2], planar.omegadot[:, 1, 2], planar.mass[1],
                          planar.inertia[1, 2, 2], -Fa, -Ma, g=G)
    for result_F, result_M in ((F, M), (F_mat, M_mat)):
        assert _rel(result_F[:, 0, :2], Fa) < 1e-12
        assert _rel(result_F[:, 1, :2], Fk) < 1e-12
        assert _rel(result_M[:, 0, 2], Ma) < 1e-12
        assert _rel(result_M[:, 1, 2], Mk) < 1e-12
        np.testing.assert_allclose(result_F[..., 2], 0.0, atol=1e-12)
        np.testing.assert_allclose(result_M[..., :2], 0.0, atol=1e-12)


def test_invdyn3d_spinning_body_closed_form():
    # Torque-free spin about a principal axis needs no moment; a constant spin w about a
    # tilted axis of an axisymmetric body needs M = w x (I w) (gyroscopic moment),
    # computed here by hand. Free body: Fd = Md = 0, rp = rcm, no gravity.
    inertia = np.diag([0.2, 0.2, 0.05])
    R = rotation_matrix([0.3, -0.4, 1.1])
    zero = np.zeros(3)
    _, Mp = ne.invdyn3d(zero, zero, zero, zero, [0, 0, 7.0], zero, R, 1.0, inertia,
                        zero, zero, g=0.0)
    np.testing.assert_allclose(Mp, 0.0, atol=1e-13)
    w = np.array([0.0, 2.0, 5.0])                       # segment frame
    _, Mp = ne.invdyn3d(zero, zero, zero, zero, w, zero, R, 1.0, inertia, zero, zero, g=0.0)
    by_hand = np.array([(0.05 - 0.2) * 2.0 * 5.0, 0.0, 0.0])   # (I_z - I_y) w_y w_z on x
    np.testing.assert_allclose(R.T @ Mp, by_hand, atol=1e-13)


def test_invdyn3d_static_hanging_segment():
    # Static equilibrium: the joint carries the weight and the moment of an offset load.
    Fp, Mp = ne.invdyn3d([0, 0.5, 0], [0.2, 0, 0.1], [0, 1, 0], [0, 0, 0], [0, 0, 0],
                         [0, 0, 0], np.eye(3), 2.0, 0.1 * np.eye(3), [0, -10.0, 0],
                         [0, 0, 0], g=10.0)
    np.testing.assert_allclose(Fp, [0, 30.0, 0], atol=1e-14)
    # Moments about the proximal joint: r_d x Fd + Mp = 0 with weight through the joint line.
    r = np.array([0.2, -1.0, 0.1])
    np.testing.assert_allclose(Mp, -np.cross(r, [0, -10.0, 0]), atol=1e-14)


def test_recursion_is_vectorised(stance):
    # Frame k alone gives the same loads as inside the batch (no per-frame loop hides a
    # mixing of frames).
    F, M = ne.joint_loads3d(**stance.inputs())
    k = 17
    one = {name: (v if name in ("mass", "inertia") else v[k])
           for name, v in stance.inputs().items()}
    F1, M1 = ne.joint_loads3d(**one)
    np.testing.assert_allclose(F1, F[k], rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(M1, M[k], rtol=1e-13, atol=1e-12)


def test_errors(stance):
    kw = stance.inputs()
    with pytest.raises(ValueError, match="frame must be"):
        ne.joint_loads3d(**kw, frame="local")
    with pytest.raises(ValueError, match="R must have trailing shape"):
        ne.joint_loads3d(**{**kw, "R": kw["R"][:, :1]})
    with pytest.raises(ValueError, match="same number of frames"):
        ne.invdyn3d(np.zeros((5, 3)), np.zeros((4, 3)), np.zeros(3), np.zeros(3),
                    np.zeros(3), np.zeros(3), np.eye(3), 1.0, np.eye(3), np.zeros(3),
                    np.zeros(3))
    with pytest.raises(ValueError, match="mass \\[kg\\]"):
        ne.invdyn3d(*[np.zeros(3)] * 6, np.eye(3), -1.0, np.eye(3), np.zeros(3), np.zeros(3))
