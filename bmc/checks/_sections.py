"""Where the checks' hints send a student: headings of the course notebooks, in one table.

Every hint names a section by its heading as it stands in ``notebooks/NN_*.ipynb``
(without its number, which moves when sections are added). ``tests/test_checks.py``
resolves every entry to a heading anchor of the current notebooks and fails if one is
missing: when a notebook's heading is renamed, update it here, and only here.
"""

from __future__ import annotations

__all__ = ["NOTEBOOKS", "SECTIONS", "section"]

#: notebook stem -> how a hint names it
NOTEBOOKS = {
    "01_one_link": "notebook 1 (the one-link pendulum)",
    "02_two_link": "notebook 2 (the two-link arm)",
    "03_matrix_formalism": "notebook 3 (the matrix formalism)",
    "04_gait_inverse_dynamics": "notebook 4 (gait inverse dynamics)",
    "05_joint_reactions": "notebook 5 (joint reaction forces)",
    "06_least_squares_inverse_dynamics": "notebook 6 (least-squares inverse dynamics)",
}

#: key -> (notebook stem, heading text without its number)
SECTIONS = {
    "one_link.newton_euler": ("01_one_link",
                              "Newton-Euler with moments about the centre of mass"),
    "one_link.moments": ("01_one_link", "Moments about the joint"),
    "one_link.load": ("01_one_link", "A load in the hand is a mass"),
    "one_link.forward": ("01_one_link", "Forward dynamics: simulation"),
    "one_link.hanging": ("01_one_link",
                         "Worked exercise from the source: the hanging pendulum"),
    "two_link.form": ("02_two_link", "The $M$, $C$, $G$, $E$ form"),
    "two_link.horizontal": ("02_two_link", "Exercise 3. Horizontal plane, no external force: "
                                           "which terms change?"),
    "two_link.segment_angles": ("02_two_link", "Exercise 4. Segment angles"),
    "two_link.reaches": ("02_two_link", "The torques of slow, fast and horizontal reaches"),
    "matrix.double_pendulum": ("03_matrix_formalism", "The double pendulum"),
    "matrix.gravity_error": ("03_matrix_formalism", "An error in the source's gravity vector"),
    "matrix.skew": ("03_matrix_formalism",
                    "Rotations, angular velocity and the skew operator"),
    "matrix.inverse3d": ("03_matrix_formalism", "3D inverse dynamics of foot and shank"),
    "gait.segment": ("04_gait_inverse_dynamics", "Newton-Euler equations of one segment"),
    "gait.one_sample": ("04_gait_inverse_dynamics",
                        "The source's acceleration is one sample early"),
    "gait.quasi_static": ("04_gait_inverse_dynamics",
                          "Simpler models: quasi-static and ground reaction only"),
    "gait.powers": ("04_gait_inverse_dynamics", "Joint powers"),
    "reactions.coordinates": ("05_joint_reactions",
                              "Absolute, joint and open-constraint coordinates"),
    "reactions.jacobian": ("05_joint_reactions", "The leg in NumPy: $D$, $Z$, $\\gamma$ and the "
                                                 "constraint Jacobian $\\Phi_p$"),
    "reactions.resolved": ("05_joint_reactions",
                           "From Newton-Euler to the minimal form and to the reactions"),
    "reactions.formulas": ("05_joint_reactions", "The explicit formulas (3.3)"),
    "least_squares.wls": ("06_least_squares_inverse_dynamics",
                          "Weighted least squares and its covariance"),
    "least_squares.missing": ("06_least_squares_inverse_dynamics",
                              "Fig. 6: missing force-plate channels"),
    "least_squares.bias": ("06_least_squares_inverse_dynamics",
                           "Fig. 7: a misaligned force plate and bias estimation"),
}


def _plain(heading: str) -> str:
    """Return a heading as plain text: TeX arrows and dollar signs removed."""
    return heading.replace("$\\to$", "->").replace("$", "")


def section(key: str, detail: str = "") -> str:
    """Name a course section for a hint: 'notebook 1 (...), section "Moments about the joint"'.

    Parameters
    ----------
    key : str
        One of :data:`SECTIONS`.
    detail : str, optional
        What to look for there, appended after a colon.

    Returns
    -------
    str
        The reference, for a hint.
    """
    stem, heading = SECTIONS[key]
    text = f"{NOTEBOOKS[stem]}, section \u201c{_plain(heading)}\u201d"
    return f"{text}: {detail}" if detail else text
