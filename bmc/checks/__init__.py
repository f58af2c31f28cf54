"""Exercise self-checks: right or wrong, with a hint, never the answer.

The exercise notebooks in ``exercises/`` (otter-grader master notebooks, one per course
notebook) have autograder tests that call one ``check_*`` function of this module per
answer. A check returns ``True`` when the answer is right. Otherwise it raises
:class:`IncorrectAnswer` (an ``AssertionError``) whose message says what is wrong (no answer
yet, not a number, wrong shape, wrong sign, degrees instead of radians, transposed, which
entries) and where in the course to look, **never the expected value**.

The expected values are computed here, with ``bmc`` itself, from the problem data that
:func:`problem` hands to the notebook. The test files that students can read therefore hold
no numbers, and an exercise cannot drift from the library it teaches: if ``bmc`` changes,
the solution run of the exercises (``tests/test_exercises.py``) fails.

Generic checks (:func:`check_value`, :func:`check_sign`, :func:`check_choice`,
:func:`check_set`, :func:`check_function`) take the expected value as an argument; they are
the building blocks and are usable in any new exercise. Topic checks
(``check_one_link_torque`` ...) take only the student's answer.

Layout: ``bmc/checks/_core.py`` holds the generic checks and the problem registry; one
private module per exercise set (``_one_link``, ``_two_link``, ``_matrix_form``, ``_gait``,
``_reactions``, ``_least_squares``) registers its data and defines its checks. Everything
public is re-exported here, so tests write ``checks.check_...``. Heavy ``bmc`` modules
(``least_squares``, ``newton_euler``, ``datasets``) load only when a check needs them.

Examples
--------
>>> from bmc import checks
>>> checks.check_value("x", 2.0, 2.0)
True
>>> try:
...     checks.check_value("x", -2.0, 2.0, hint="Re-read section 1.")
... except checks.IncorrectAnswer as err:
...     print(err)
x is not correct yet: the magnitude is right but the sign is not. Hint: Re-read section 1.
"""

from __future__ import annotations

from bmc.checks._core import (
    IncorrectAnswer,
    Problem,
    check_choice,
    check_function,
    check_set,
    check_sign,
    check_value,
    problem,
    problems,
    register_problem,
)
from bmc.checks._gait import (
    check_gait_foot_loads,
    check_gait_quasi_static,
    check_gait_seed_error,
    check_gait_signs,
)
from bmc.checks._least_squares import (
    check_least_squares_bias,
    check_least_squares_drop_channel,
    check_least_squares_std,
    check_least_squares_wls,
)
from bmc.checks._matrix_form import (
    check_matrix_form_accelerations,
    check_matrix_form_double_pendulum_3d,
    check_matrix_form_seed_error,
    check_matrix_form_skew,
)
from bmc.checks._one_link import (
    check_one_link_centripetal,
    check_one_link_euler_step,
    check_one_link_hanging,
    check_one_link_period,
    check_one_link_torque,
)
from bmc.checks._reactions import (
    check_reactions_accelerations,
    check_reactions_E,
    check_reactions_lambda,
    check_reactions_predictions,
)
from bmc.checks._two_link import (
    check_two_link_segmental_mass_matrix,
    check_two_link_time_scaling,
    check_two_link_vanishing,
    check_two_link_velocity_terms,
)

__all__ = [
    "IncorrectAnswer",
    "Problem",
    "check_choice",
    "check_function",
    "check_set",
    "check_sign",
    "check_value",
    "problem",
    "problems",
    "register_problem",
    # 1 one-link pendulum
    "check_one_link_centripetal",
    "check_one_link_euler_step",
    "check_one_link_hanging",
    "check_one_link_period",
    "check_one_link_torque",
    # 2 two-link arm
    "check_two_link_segmental_mass_matrix",
    "check_two_link_time_scaling",
    "check_two_link_vanishing",
    "check_two_link_velocity_terms",
    # 3 matrix formalism
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
    # 4 gait inverse dynamics
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
    # 5 joint reactions
    "check_reactions_accelerations",
    "check_reactions_E",
    "check_reactions_lambda",
    "check_reactions_predictions",
    # 6 least-squares inverse dynamics
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
]
