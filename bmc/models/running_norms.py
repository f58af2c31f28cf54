"""Published sagittal-plane measures of running, to set one trial beside measured runners.

A gait report reads a trial's joint angles and moments against those of a group of runners.
This module holds such group values, quoted from published tables with the cell they come
from, so that notebook 4 can draw them beside the simulated stride of
:func:`bmc.datasets.load_running` and say what in that stride is typical and what is not.

Every value is a mean and standard deviation (SD) over the runners of one study, with the
**anatomical sign of a gait report**: joint moments in N m per kg of body mass, positive
when the muscles' moment is extensor (hip, knee) or plantarflexor (ankle); knee angles in
degrees, flexion positive. Convert the course's counter-clockwise moment on the distal
segment with the signs ``-1, +1, -1`` for hip, knee and ankle (notebook 4, section 5);
:func:`bmc.newton_euler.lower_limb` already returns knee flexion positive.

**What the values are, and what they are not.** They are *discrete* measures: a value at
one event (initial contact) or the largest value within a named phase (the loading
response). They are not curves. A study that reports a peak "during the loading response"
gives the phase, not the instant, so each :class:`Reference` records the event or phase as
the study defines it (``event``) and, only when that is an instant of stance, its timing in
percent of stance (``stance_percent``).

**Sources searched and values kept.** Only values whose table cell could be read in a copy
of the published table are kept; none is recalled or read off a figure. For each value the
Notes of :func:`references` give the study, the table, the row and column, the printed cell,
the speed and the sample. At the time of writing:

- knee angles and hip and knee moments: Heiderscheit et al. (2011), Table 3, "Preferred"
  step rate column, 45 healthy recreational runners on a treadmill at their own
  (self-selected) constant speed. The table's hip angle is measured from the pelvis, which
  a planar leg without a pelvis cannot reproduce, so it is not kept;
- ankle: no published mean (SD) of the plantarflexor moment at a comparable speed could be
  read in the sources available when this module was written, so :func:`references`
  returns none for the ankle. Schache et al. (2011) measured runners at 3.50 m/s, but their
  tables were not available to transcribe.

These are numbers quoted from published tables, with their source, as a textbook quotes
them; the project commits no third-party data file.

References
----------
.. [1] B. C. Heiderscheit, E. S. Chumanov, M. P. Michalski, C. M. Wille, M. B. Ryan,
   "Effects of step rate manipulation on joint mechanics during running", *Medicine &
   Science in Sports & Exercise* 43(2), 296-302, 2011, doi:10.1249/MSS.0b013e3181ebedf4,
   Table 3 (author manuscript: https://pmc.ncbi.nlm.nih.gov/articles/PMC3022995/table/T3).
.. [2] A. G. Schache, P. D. Blanch, T. W. Dorn, N. A. T. Brown, D. Rosemond, M. G. Pandy,
   "Effect of running speed on lower limb joint kinetics", *Medicine & Science in Sports &
   Exercise* 43(7), 1260-1271, 2011, doi:10.1249/MSS.0b013e3182084929.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["JOINTS", "Reference", "references"]


def __dir__() -> list[str]:
    return sorted(__all__)


#: The joints of the planar leg, proximal first, as notebook 4 orders them.
JOINTS = ("hip", "knee", "ankle")


@dataclass(frozen=True)
class Reference:
    """One published mean (SD) of a sagittal joint angle or moment in the stance of running.

    Attributes
    ----------
    joint : str
        ``"hip"``, ``"knee"`` or ``"ankle"``.
    measure : str
        What was measured, in the study's words (for example "peak extension moment").
    unit : str
        ``"N m/kg"`` for a joint moment per kilogram of body mass, ``"deg"`` for an angle.
    mean, sd : float
        Mean and standard deviation over the study's runners [``unit``], anatomical sign
        (moments extensor or plantarflexor positive, knee angle flexion positive).
    event : str
        When in stance, as the study defines it (an instant such as "initial contact", or
        a phase such as "loading response: initial contact to peak knee flexion").
    stance_percent : float or None
        The instant in percent of stance [%] when ``event`` is one (0 for initial
        contact); None when the study reports a peak within a phase without its timing.
    study : str
        Key of the study in the course's bibliography (``docs/references.bib``).
    table, row, column : str
        Where the value is printed: table number, row label and column label as printed.
    printed : str
        The cell exactly as printed, mean followed by the SD in parentheses.
    speed : str
        The running speed of the measurement, as the study states it.
    sample : str
        Who was measured.
    """

    joint: str
    measure: str
    unit: str
    mean: float
    sd: float
    event: str
    stance_percent: float | None
    study: str
    table: str
    row: str
    column: str
    printed: str
    speed: str
    sample: str


_HEIDERSCHEIT = {
    "study": "heiderscheit2011",
    "table": "Table 3",
    "column": "Preferred",
    "speed": "self-selected, constant across step-rate conditions (treadmill)",
    "sample": "45 healthy recreational runners",
}

_REFERENCES = (
    Reference(joint="hip", measure="extension moment at initial contact", unit="N m/kg",
              mean=0.3, sd=0.5, event="initial contact", stance_percent=0.0,
              row="Hip: IC Extension Moment (Nm/kg)", printed="0.3(0.5)", **_HEIDERSCHEIT),
    Reference(joint="knee", measure="flexion angle at initial contact", unit="deg",
              mean=17.8, sd=4.0, event="initial contact", stance_percent=0.0,
              row="Knee: IC Flexion Angle (°)", printed="17.8(4.0)", **_HEIDERSCHEIT),
    Reference(joint="knee", measure="peak flexion angle", unit="deg", mean=46.3, sd=4.5,
              event="loading response: initial contact to peak knee flexion",
              stance_percent=None, row="Knee: Peak Flexion Angle(°)", printed="46.3(4.5)",
              **_HEIDERSCHEIT),
    Reference(joint="knee", measure="peak extension moment", unit="N m/kg", mean=2.5, sd=0.6,
              event="loading response: initial contact to peak knee flexion",
              stance_percent=None, row="Knee: Peak Extension Moment(Nm/kg)", printed="2.5(0.6)",
              **_HEIDERSCHEIT),
)


def references(joint: str | None = None) -> tuple[Reference, ...]:
    """Return the published sagittal joint angles and moments of running, of one or all joints.

    Parameters
    ----------
    joint : {"hip", "knee", "ankle"} or None, optional
        The joint; None (default) returns the values of every joint.

    Returns
    -------
    tuple of Reference
        The values, hip first, then knee (angles before moments). Empty for the ankle: see
        Notes.

    Notes
    -----
    Provenance of every value (the printed cell, read in a copy of the table). All
    come from Heiderscheit et al. (2011), Table 3, "Mean (SD) joint angle and moment
    measures during each step rate condition", column "Preferred" (the runners' preferred
    step rate); the table's values are "determined during the loading response, defined as
    initial contact (IC) to peak knee flexion angle during stance":

    - ``hip``, extension moment at initial contact, 0.3 (SD 0.5) N m/kg: row "Hip / IC
      Extension Moment (Nm/kg)", printed ``0.3(0.5)``;
    - ``knee``, flexion angle at initial contact, 17.8 (SD 4.0) deg: row "Knee / IC
      Flexion Angle (°)", printed ``17.8(4.0)``;
    - ``knee``, peak flexion angle, 46.3 (SD 4.5) deg, the end of the loading response:
      row "Knee / Peak Flexion Angle(°)", printed ``46.3(4.5)``;
    - ``knee``, peak extension moment in the loading response, 2.5 (SD 0.6) N m/kg: row
      "Knee / Peak Extension Moment(Nm/kg)", printed ``2.5(0.6)``.

    Sample and conditions: 45 healthy recreational runners, three-dimensional kinematics and
    kinetics on a treadmill at a constant speed that each runner chose; the caption says the
    speed was self-selected and gives no value for it. The moments are those of a
    three-dimensional analysis, whose sagittal (flexion-extension) component is what a
    planar analysis computes. Not kept from the same table: the hip's peak flexion angle
    (measured from the pelvis, which a planar leg has not) and the frontal- and
    transverse-plane rows.

    ``ankle``: none. No published mean (SD) of the ankle plantarflexor moment in running at
    about 3-4 m/s could be read, cell by cell, in the sources available when this module
    was written; the function returns an empty tuple rather than a recalled or estimated
    number.

    Examples
    --------
    >>> for ref in references():
    ...     print(f"{ref.joint:5s} {ref.measure:36s} {ref.mean:5.1f} ({ref.sd}) {ref.unit}")
    hip   extension moment at initial contact    0.3 (0.5) N m/kg
    knee  flexion angle at initial contact      17.8 (4.0) deg
    knee  peak flexion angle                    46.3 (4.5) deg
    knee  peak extension moment                  2.5 (0.6) N m/kg
    >>> references("ankle")
    ()
    """
    if joint is None:
        return _REFERENCES
    if not isinstance(joint, str):
        raise TypeError(f"joint must be a joint name (str) or None; got {type(joint).__name__} "
                        f"{joint!r}")
    if joint not in JOINTS:
        raise ValueError(f"joint must be one of {', '.join(map(repr, JOINTS))} or None; "
                         f"got {joint!r}")
    return tuple(ref for ref in _REFERENCES if ref.joint == joint)
