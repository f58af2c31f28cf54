"""Checks of exercise set 3: the matrix formalism."""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import check_form, register_problem

__all__ = [
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
]


def _pendulum_3d(masses: tuple[float, float] = (2.0, 2.0)) -> list[tuple[str, Any, str, str]]:
    """Two cylindrical bars hanging from a fixed point, with consistent 3D kinematics.

    ``masses`` [kg]; each bar is 0.40 m long with a radius of 0.03 m. Orientations are
    intrinsic z-x-y Cardan angles [rad] (:func:`bmc.rotations.rotation_matrix`).
    """
    from bmc.rotations import point_acceleration as acc
    from bmc.rotations import rotation_matrix

    length, radius = 0.40, 0.03
    inertia = [m * np.array([(3 * radius**2 + length**2) / 12, radius**2 / 2,
                             (3 * radius**2 + length**2) / 12]) for m in masses]
    R1 = rotation_matrix([0.35, 0.20, 0.0], sequence="zxy")    # Rz Rx
    R2 = rotation_matrix([0.80, -0.15, 0.40], sequence="zxy")  # Rz Rx Ry
    w1 = np.array([0.6, 1.1, -2.0])     # segment frame [rad/s]
    w2 = np.array([-0.4, 0.9, 2.6])
    wd1 = np.array([1.5, -0.8, 4.0])    # segment frame [rad/s^2]
    wd2 = np.array([-2.2, 1.2, -5.5])
    axis = np.array([0.0, length, 0.0])  # from the distal end to the proximal joint
    j1 = np.zeros(3)
    c1 = j1 - R1 @ axis / 2
    j2 = j1 - R1 @ axis
    c2 = j2 - R2 @ axis / 2
    W1, W2, A1, A2 = R1 @ w1, R2 @ w2, R1 @ wd1, R2 @ wd2
    a1 = acc(W1, A1, c1 - j1)
    aj2 = acc(W1, A1, j2 - j1)
    a2 = aj2 + acc(W2, A2, c2 - j2)
    return [
        ("mass", masses, "kg", "masses of bars 1 (upper) and 2 (lower)"),
        ("inertia", inertia, "kg m^2",
         "principal moments of inertia about each centre of mass, in the bar's own frame "
         "(x, y along the bar, z)"),
        ("R", [R1, R2], "-", "orientation of each bar: columns are the bar's axes in the "
         "global frame, v_global = R @ v_bar"),
        ("omega", [w1, w2], "rad/s", "angular velocities in each bar's own frame"),
        ("omegadot", [wd1, wd2], "rad/s^2", "angular accelerations in each bar's own frame"),
        ("joint", [j1, j2], "m", "positions of joint 1 (fixed support) and joint 2"),
        ("rcm", [c1, c2], "m", "centre-of-mass positions"),
        ("acm", [a1, a2], "m/s^2", "centre-of-mass accelerations"),
        ("g", 9.81, "m/s^2", "gravitational acceleration, along -y"),
    ]


def _matrix_form_entries(bars_mass: tuple[float, float] = (2.0, 2.0)
                         ) -> list[tuple[str, Any, str, str]]:
    """Return the double pendulum of notebook 3 and the 3D bars of ``bars_mass`` [kg]."""
    return [
        ("m", [1.0, 1.0], "kg", "rod masses m1, m2"),
        ("l", [1.0, 0.5], "m", "rod lengths l1, l2"),
        ("g", 9.81, "m/s^2", "gravitational acceleration"),
        ("theta", [np.pi / 10, np.pi / 3], "rad", "rod angles from the downward vertical"),
        ("omega", [2 * np.pi, -6 * np.pi], "rad/s", "rod angular velocities"),
        *[("bars_" + name, value, unit, meaning)
          for name, value, unit, meaning in _pendulum_3d(bars_mass)],
    ]


def _matrix_form_variant(rng: np.random.Generator) -> dict[str, Any]:
    """Draw a student's bar masses (+-20 %, each bar its own); the inertias follow."""
    return {"bars_mass": tuple(float(m) for m in 2.0 * rng.uniform(0.8, 1.2, 2))}


register_problem(
    "matrix_form",
    "Double pendulum of uniform rods (angles from the downward vertical) and a 3D double "
    "pendulum of two cylindrical bars",
    _matrix_form_entries,
    vary={"m": 0.2, "l": 0.2, "omega": 0.2},
    variant=_matrix_form_variant,
)


_NB3 = "notebooks/03_matrix_formalism.ipynb"



def check_matrix_form_skew(skew: Any) -> bool:
    """Public check of question 1: a function of a 3-vector returning a (3, 3) matrix.

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("skew", skew, kind="function", example=(np.array([0.3, -1.2, 2.5]),),
                      shape=(3, 3), hint=f"{_NB3}, section 5 (the skew operator).")


def check_matrix_form_accelerations(thetadd: Any) -> bool:
    """Public check of question 2: two angular accelerations [rad/s^2].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("thetadd", thetadd, shape=(2,), unit="rad/s^2",
                      hint=f"{_NB3}, the double pendulum in matrix form.")


def check_matrix_form_seed_error(delta: Any) -> bool:
    """Public check of question 3: one number [rad/s^2].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("delta", delta, unit="rad/s^2", hint=f"{_NB3}, the gravity vector.")


def check_matrix_form_double_pendulum_3d(loads: Any) -> bool:
    """Public check of question 4: the 12 joint loads [N, N m].

    Only the form is checked (answered, type, shape, finite); the value is checked
    by the hidden tests when the notebook is graded.

    Returns
    -------
    bool
        ``True`` if the form is right.
    """
    return check_form("loads", loads, shape=(12,), unit="N, N m",
                      hint=f"{_NB3}, all joint loads in one solve.")
