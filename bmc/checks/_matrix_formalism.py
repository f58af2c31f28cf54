"""Exercise set 3, the matrix formalism: data, right answers from ``bmc``, public checks.

The right answers are computed by ``bmc`` (:class:`~bmc.models.double_pendulum.DoublePendulum`
and its :class:`~bmc.chain.PlanarChain`, :func:`bmc.newton_euler.joint_loads3d`) from any
data; the public checks call them on :func:`~bmc.checks.practice` data only, the grader
(``exercises/bmc_answers``) on a student's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bmc.checks._core import Problem, register_problem
from bmc.checks._practice import Output, answer_of, practice_function
from bmc.checks._sections import section

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


# ----------------------------------------------------------------------------- answers
def answer_skew(v: Any) -> np.ndarray:
    """Return the skew-symmetric matrix S(v), S(v) w = v x w: its columns are v x e_j."""
    return np.cross(np.asarray(v, dtype=float), np.eye(3)).T


def _pendulum(data: Problem):
    """Return the data's :class:`bmc.models.double_pendulum.DoublePendulum`."""
    from bmc.models.double_pendulum import DoublePendulum

    (m1, m2), (l1, l2) = data.m, data.l
    return DoublePendulum(m1, m2, l1, l2, g=data.g)


def answer_accelerations(data: Problem) -> tuple[np.ndarray]:
    """[theta1'', theta2''] [rad/s^2] at rest torques, from the pendulum's PlanarChain."""
    pend = _pendulum(data)
    chain = pend.to_chain()
    # angles map with an offset; rates (and accelerations) by the same linear map without it
    qdd = chain.forward_dynamics(pend.to_chain_coordinates(data.theta),
                                 chain.from_segment_angles(data.omega), [0.0, 0.0])
    return (chain.to_segment_angles(qdd),)


def source_accelerations(data: Problem, *, wrong_gravity: bool = False) -> np.ndarray:
    """Return the same accelerations from the source's own M, C, G (``DoublePendulum``).

    ``wrong_gravity`` puts back the source's error: the weight of rod 2 acting on joint 1
    with the lever l2 instead of l1.
    """
    pend = _pendulum(data)
    rhs = pend.velocity_terms(data.theta, data.omega) + pend.gravity_terms(data.theta)
    if wrong_gravity:  # the source's error itself, not a formula of the library
        rhs[0] -= pend.m2 * data.g * (pend.l2 - pend.l1) * np.sin(data.theta[0])
    return np.linalg.solve(pend.mass_matrix(data.theta), rhs)


def answer_seed_error(data: Problem) -> tuple[float]:
    """theta1'' with the source's gravity vector minus theta1'' with the right one."""
    return (float(source_accelerations(data, wrong_gravity=True)[0]
                  - source_accelerations(data)[0]),)


def answer_bars_loads(data: Problem, *, rotate: bool = True) -> tuple[np.ndarray]:
    """Joint loads (4, 3) [N, N m] of the 3D double pendulum by recursive Newton-Euler.

    :func:`bmc.newton_euler.joint_loads3d` numbers the segments from the distal end, so
    the bars go in reversed; nothing acts on the free end of bar 2. Rows: force and moment
    at joint 1 on bar 1, then at joint 2 on bar 2, global frame. ``rotate=False`` is the
    mistake of leaving Euler's equation in each bar's own frame.
    """
    from bmc.newton_euler import joint_loads3d

    distal_first = slice(None, None, -1)
    R = data.bars_R if rotate else np.broadcast_to(np.eye(3), (2, 3, 3))
    F, M = joint_loads3d(
        data.bars_mass[distal_first], [np.diag(i) for i in data.bars_inertia[distal_first]],
        R[distal_first], data.bars_rcm[distal_first], data.bars_joint[distal_first],
        data.bars_acm[distal_first], data.bars_omega[distal_first],
        data.bars_omegadot[distal_first], np.zeros(3), data.bars_rcm[1], g=data.bars_g,
        frame="global")
    return (np.stack([F[1], M[1], F[0], M[0]]),)


# ----------------------------------------------------------------------------- checks
_SKEW_PRACTICE = [np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.2, 1.5])]


def check_matrix_form_skew(skew: Any) -> bool:
    """Question 1: ``skew(v)`` (3, 3) on practice vectors (the grader uses others)."""
    hint = section("matrix.skew", "write a x b component by component and read off the "
                   "matrix that multiplies b; it is antisymmetric (S^T = -S)")
    for v in _SKEW_PRACTICE:
        practice_function(
            f"skew({v.tolist()})", skew, topic="matrix_form",
            outputs=[Output("S", (3, 3), "-")], expected=lambda d, v=v: (answer_skew(v),),
            call=lambda f, d, v=v: f(v.copy()), parameter=None, rtol=1e-9, atol=1e-12,
            hint=hint)
    return True


_ACC_HINT = section("matrix.double_pendulum", "solve M(theta) theta'' = -(C + G) with "
                    "np.linalg.solve (the course's form, C and G beside M theta''); the "
                    "gravity term of rod 2 acting through joint 1 has the lever l1")


def check_matrix_form_accelerations(pendulum_accelerations: Any, thetadd: Any,
                                    p: Any = None) -> bool:
    """Question 2: ``pendulum_accelerations(p)`` (2,) [rad/s^2] on the practice data."""
    practice_function(
        "pendulum_accelerations", pendulum_accelerations, topic="matrix_form",
        outputs=[Output("thetadd", (2,), "rad/s^2")], expected=answer_accelerations,
        probes=[("the rods at rest (p.omega = 0)", {"omega": [0.0, 0.0]}),
                ("no gravity (p.g = 0)", {"g": 0.0})],
        mistakes=[("the source's gravity vector (m2 g l2 sin(theta1) where m2 g l1 "
                   "sin(theta1) belongs)",
                   lambda d: (source_accelerations(d, wrong_gravity=True),))],
        rtol=1e-4, hint=_ACC_HINT)
    return answer_of("thetadd", thetadd, pendulum_accelerations, p, shape=(2,),
                     unit="rad/s^2", hint=_ACC_HINT)


def check_matrix_form_seed_error(source_error: Any, delta: Any, p: Any = None) -> bool:
    """Question 3: ``source_error(p)`` [rad/s^2] on the practice data."""
    hint = section("matrix.gravity_error", "keep M and C, change only the first entry of "
                   "G, solve twice and subtract (wrong minus correct)")
    practice_function(
        "source_error", source_error, topic="matrix_form",
        outputs=[Output("delta", (), "rad/s^2")], expected=answer_seed_error,
        probes=[("rods of equal length (p.l = [1, 1])", {"l": [1.0, 1.0]})],
        rtol=1e-4, hint=hint)
    return answer_of("delta", delta, source_error, p, unit="rad/s^2", hint=hint)


def check_matrix_form_double_pendulum_3d(joint_loads: Any, loads: Any,
                                         p: Any = None) -> bool:
    """Question 4: ``joint_loads(p)`` (4, 3) [N, N m] on the practice data."""
    hint = section("matrix.inverse3d", "one block row per bar for forces (global frame) and "
                   "one for moments (rotate I omega' + omega x I omega to the global frame "
                   "with R); bar 2 receives minus the joint-2 load on bar 1; cross products "
                   "become skew(r) @ F, then one np.linalg.solve")
    zero = np.zeros((2, 3))
    practice_function(
        "joint_loads", joint_loads, topic="matrix_form",
        outputs=[Output("loads", (4, 3), "N, N m")], expected=answer_bars_loads,
        probes=[("no gravity (p.bars_g = 0)", {"bars_g": 0.0}),
                ("no rotation (p.bars_omega = p.bars_omegadot = 0)",
                 {"bars_omega": zero, "bars_omegadot": zero})],
        mistakes=[("Euler's equation left in each bar's own frame (rotate it with R)",
                   lambda d: answer_bars_loads(d, rotate=False)),
                  ("the gyroscopic term omega x I omega left out",
                   lambda d: answer_bars_loads(d.modified(bars_omega=zero)))],
        rtol=1e-3, atol=1e-6, hint=hint)
    return answer_of("loads", loads, joint_loads, p, shape=(4, 3), unit="N, N m",
                     hint=hint)
