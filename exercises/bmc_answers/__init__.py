"""The exact checks of the exercise sets: grader side only, never in a student's hands.

The hidden tests of every exercise set (``# HIDDEN`` test cells of the master notebooks,
shipped only in the ``*-autograder.zip``) call these ``check_*`` functions, which compute
the expected value with ``bmc`` from the problem data (the student's own variant when the
grader sets one, :func:`bmc.checks.student_data`) and raise
:class:`bmc.checks.IncorrectAnswer` with a hint when an answer is wrong. Students have only
the public checks of :mod:`bmc.checks`, which test the form of an answer (type, shape,
finite, sign convention) and name the section to re-read, never its value.

``CALLS`` lists, for every function a student writes, the inputs the grader calls it with
inside the sandbox (``exercises/grade.py``); inputs are not answers.
"""

from __future__ import annotations

from bmc_answers.gait import (
    check_gait_foot_loads,
    check_gait_quasi_static,
    check_gait_seed_error,
    check_gait_signs,
)
from bmc_answers.least_squares import (
    _wls_cases,
    check_least_squares_bias,
    check_least_squares_drop_channel,
    check_least_squares_std,
    check_least_squares_wls,
)
from bmc_answers.matrix_form import (
    _SKEW_CASES,
    check_matrix_form_accelerations,
    check_matrix_form_double_pendulum_3d,
    check_matrix_form_seed_error,
    check_matrix_form_skew,
)
from bmc_answers.one_link import (
    _EULER_CASES,
    _HANGING_CASES,
    check_one_link_centripetal,
    check_one_link_euler_step,
    check_one_link_hanging,
    check_one_link_period,
    check_one_link_torque,
)
from bmc_answers.reactions import (
    check_reactions_accelerations,
    check_reactions_lambda,
    check_reactions_predictions,
    check_reactions_Z,
)
from bmc_answers.two_link import (
    _SEGMENTAL_CASES,
    check_two_link_segmental_mass_matrix,
    check_two_link_time_scaling,
    check_two_link_vanishing,
    check_two_link_velocity_terms,
)

#: Function answers -> the argument tuples the grader calls them with (in the sandbox).
CALLS: dict[str, list[tuple]] = {
    "hanging_qdd": list(_HANGING_CASES),
    "euler_step": list(_EULER_CASES),
    "mass_matrix_segmental": list(_SEGMENTAL_CASES),
    "skew": list(_SKEW_CASES),
    "wls": list(_wls_cases()[0]),
}

__all__ = [
    "CALLS",
    "check_gait_foot_loads",
    "check_gait_quasi_static",
    "check_gait_seed_error",
    "check_gait_signs",
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
    "check_matrix_form_accelerations",
    "check_matrix_form_double_pendulum_3d",
    "check_matrix_form_seed_error",
    "check_matrix_form_skew",
    "check_one_link_centripetal",
    "check_one_link_euler_step",
    "check_one_link_hanging",
    "check_one_link_period",
    "check_one_link_torque",
    "check_reactions_Z",
    "check_reactions_accelerations",
    "check_reactions_lambda",
    "check_reactions_predictions",
    "check_two_link_segmental_mass_matrix",
    "check_two_link_time_scaling",
    "check_two_link_vanishing",
    "check_two_link_velocity_terms",
]
