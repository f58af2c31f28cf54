"""bmc.tree.PlanarTree: Blajer and Czaplicki's floating tree, against independent truths.

The augmented joint coordinates (eqs. 2.1-2.5 of the paper) are checked against finite
differences of the positions and against the constraints they must satisfy; the tree's
axes against the paper's ``x = x_H + c sin(phi)``, ``y = y_H - c cos(phi)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmc.models.human import human_model
from bmc.planar import PlanarModel
from bmc.tree import PlanarTree


@pytest.fixture(scope="module")
def model() -> PlanarTree:
    return human_model()


@pytest.fixture
def state(rng, model):
    return rng.uniform(-1.5, 1.5, (3, 7, model.k))


def test_a_tree_is_a_floating_planar_model(model):
    assert isinstance(model, PlanarModel) and model.floating
    assert (model.n, model.k, model.m) == (7, 9, 12)
    assert model.joint_names == ("hip", "knee", "ankle", "shoulder", "elbow", "neck")


def test_the_leg_hangs_as_the_paper_writes_it(model, state):
    # eq. (3.1): thigh COM at (x_H + c2 sin phi2, y_H - c2 cos phi2); trunk up: -sin, +cos
    q = state[0]
    p = model.absolute_coordinates(q).reshape(-1, 7, 3)
    c = model.com
    np.testing.assert_allclose(p[:, 1, 0], q[:, 0] + c[1] * np.sin(q[:, 3]), atol=1e-15)
    np.testing.assert_allclose(p[:, 1, 1], q[:, 1] - c[1] * np.cos(q[:, 3]), atol=1e-15)
    np.testing.assert_allclose(p[:, 0, 0], q[:, 0] - c[0] * np.sin(q[:, 2]), atol=1e-15)
    np.testing.assert_array_equal(model.joint_positions(q), model.proximal_positions(q))


def test_D_and_gamma_are_the_derivatives_of_the_positions(model, state):  # noqa: N802
    q, qd, _ = state
    p = model.absolute_coordinates
    eps = 1e-6
    D = np.stack([(p(q + eps * e) - p(q - eps * e)) / (2 * eps) for e in np.eye(model.k)], -1)
    np.testing.assert_allclose(model.jacobian_q(q), D, atol=1e-8)  # central differences
    h = 1e-4  # second difference along q + qd t: the acceleration at qdd = 0
    second = (p(q + h * qd) - 2 * p(q) + p(q - h * qd)) / h**2
    np.testing.assert_allclose(model.gamma(q, qd), second, atol=1e-5 * np.abs(second).max())


def test_the_constraints_hold_and_E_opens_them(model, state):  # noqa: N802
    q = state[0]
    p = model.absolute_coordinates(q)
    np.testing.assert_allclose(model.constraints(p), 0.0, atol=1e-15)      # eq. (2.1)
    C = model.constraint_jacobian(p)
    np.testing.assert_allclose(C @ model.jacobian_q(q), 0.0, atol=1e-14)   # C D = 0
    z = np.random.default_rng(1).normal(size=model.m)
    opened = model.absolute_coordinates(q, z)
    np.testing.assert_allclose(opened - p, np.broadcast_to(model.jacobian_z() @ z, p.shape),
                               atol=1e-15)                                   # E = dp/dz
    # C E = I: opening joint j by z_j moves its constraint by exactly z_j (a right inverse)
    np.testing.assert_allclose(C @ model.jacobian_z(), np.broadcast_to(np.eye(model.m),
                                                                        C.shape[:-2] + (12, 12)),
                               atol=1e-14)


def test_mass_matrix_and_bias_are_the_projections(model, state):
    q, qd, _ = state
    D = model.jacobian_q(q)
    w = model.mass_diagonal()
    np.testing.assert_allclose(model.mass_matrix(q), np.einsum("nai,a,naj->nij", D, w, D),
                               atol=1e-12)
    h = np.einsum("nai,na->ni", D, w * model.gamma(q, qd) - model.applied_forces(q))
    np.testing.assert_allclose(model.bias_forces(q, qd), h, atol=1e-10)


def test_a_tree_is_refused_in_words():
    with pytest.raises(ValueError, match="direction must be"):
        PlanarTree(["a", "b"], [-1, 0], [0, 1], [1, 0], [1, 1], [0.5, 0.5], [1, 1], [0.1, 0.1])
    with pytest.raises(ValueError, match="joint_names must name the 1 joint"):
        PlanarTree(["a", "b"], [-1, 0], [0, 1], [1, 1], [1, 1], [0.5, 0.5], [1, 1], [0.1, 0.1],
                   joint_names=["x", "y"])
