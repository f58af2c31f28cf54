"""Exercise checks for students: judged on practice data, with how far off and why.

The exercise notebooks in ``exercises/`` (otter-grader master notebooks, one per course
notebook) ask every computed answer as a function of the data (``joint_torque(p)``), and
have two kinds of tests per question:

- **public tests**, in the student's ``tests/`` folder, call one ``check_*`` function of
  this package. It runs the student's function on the :func:`practice` data (the course's
  subject, the same for everyone), whose answers may be shown, and says whether it is right
  there, how far off and which way, and the likely mistake: it compares with wrong answers
  computed from the same data and probes the function with changed data (no velocity
  removes the velocity terms ...). The answer for the student's own data
  (``tau = joint_torque(p)``) is checked for its form only. A prediction (a sign, a set, a
  choice: few possible values) is never judged here: its practice case is, and the check
  ends with :class:`JudgedAtGrading`, so it never says "passed". :func:`report` heads
  otter's result with what was judged.
- **hidden tests**, only in the autograder, call the checks of the same name in the
  grader-side package ``exercises/bmc_answers``, which compute the right answer for the
  student's own data with ``bmc`` and name the likely mistake, never the value (and only
  the concept for answers with few possible values).

:func:`problem` hands the given data to the notebook; ``problem(topic, student=ID)`` gives
a student's own variant (some quantities scaled by a few per cent, seeded by the id), and
:func:`student_data` makes the grader use the same variant.

Generic checks (:func:`check_value`, :func:`check_sign`, :func:`check_choice`,
:func:`check_set`, :func:`check_function`, :func:`check_form`) take the expected value (or
only the form) as an argument; they are the building blocks of both kinds of test.

Layout: ``_core`` (the generic checks, :class:`Problem`, the registry), ``_practice``
(checks of a function on practice data, predictions), ``_diagnose`` (how far off, which
way, the mistake), ``_cells`` (a cell's error reported as an error), ``_sections`` (the
notebook headings hints name, in one table), ``_report`` (the headline), and one module per
exercise set, named after its notebook (``_one_link``, ``_two_link``,
``_matrix_formalism``, ``_gait_inverse_dynamics``, ``_joint_reactions``,
``_least_squares``), with its data, its right answers (``answer_*``, computed with ``bmc``)
and its public checks.

Examples
--------
>>> from bmc import checks
>>> checks.check_value("x", 2.0, 2.0)
True
>>> try:
...     checks.check_value("x", -2.0, 2.0, hint="Re-read section 1.")
... except checks.IncorrectAnswer as err:
...     print(err)
x is not correct yet: x has the wrong sign (its size is right). Hint: Re-read section 1.
"""

from __future__ import annotations

from bmc.checks._core import (
    PLACEHOLDER_ID,
    IncorrectAnswer,
    Problem,
    check_choice,
    check_form,
    check_function,
    check_set,
    check_sign,
    check_value,
    practice,
    problem,
    problems,
    register_problem,
    student_data,
)
from bmc.checks._gait_inverse_dynamics import (
    check_gait_foot_loads,
    check_gait_quasi_static,
    check_gait_seed_error,
    check_gait_signs,
)
from bmc.checks._joint_reactions import (
    check_reactions_accelerations,
    check_reactions_lambda,
    check_reactions_predictions,
    check_reactions_Z,
)
from bmc.checks._least_squares import (
    check_least_squares_bias,
    check_least_squares_drop_channel,
    check_least_squares_std,
    check_least_squares_wls,
)
from bmc.checks._matrix_formalism import (
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
from bmc.checks._practice import JudgedAtGrading
from bmc.checks._report import report
from bmc.checks._two_link import (
    check_two_link_segmental_mass_matrix,
    check_two_link_time_scaling,
    check_two_link_vanishing,
    check_two_link_velocity_terms,
)

__all__ = [
    "PLACEHOLDER_ID",
    "IncorrectAnswer",
    "JudgedAtGrading",
    "Problem",
    "check_choice",
    "check_form",
    "check_function",
    "check_set",
    "check_sign",
    "check_value",
    "practice",
    "problem",
    "problems",
    "register_problem",
    "report",
    "student_data",
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
    "check_reactions_Z",
    "check_reactions_lambda",
    "check_reactions_predictions",
    # 6 least-squares inverse dynamics
    "check_least_squares_bias",
    "check_least_squares_drop_channel",
    "check_least_squares_std",
    "check_least_squares_wls",
]


def __dir__() -> list[str]:
    return sorted(__all__)
