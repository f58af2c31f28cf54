"""Body-segment parameters scaled to a subject: Dempster (via Winter) and de Leva (1996).

A body-segment parameter (BSP) table gives, for each segment, its mass as a fraction of body
mass, the position of its centre of mass (COM) as a fraction of its length measured from the
proximal end, and its radius of gyration about the COM as a fraction of its length. With a
segment length ``L`` [m] and a body mass ``m_body`` [kg] these scale to

- mass ``m = f_m m_body`` [kg],
- COM distance from the proximal end ``c = f_c L`` [m],
- moment of inertia about the COM ``I = m (k L)^2`` [kg m^2],

where ``f_m``, ``f_c`` and ``k`` are the tabulated fractions. Segment lengths are taken as a
fraction of body height (stature) ``H`` [m].

Which radius of gyration: every planar model of the course rotates its segments in the
sagittal plane (flexion-extension), that is about the **medio-lateral** axis, and that is
the inertia :func:`segment` returns by default (``axis="mediolateral"``). Dempster tabulates
only this radius. de Leva (1996) tabulates three, under the anatomical axis names of
Zatsiorsky that he follows: about the *sagittal* axis (antero-posterior), the *transverse*
axis (medio-lateral) and the *longitudinal* axis; so the sagittal-plane radius is de Leva's
**transverse** column. See the Notes of :func:`segment` for the evidence.

Two tables are provided:

``"dempster"``
    Dempster's (1955) cadaver data as tabulated by Winter (2009), Table 4.1, with segment
    lengths from Winter's Fig. 4.1 (after Drillis and Contini). No sex differences.
``"de_leva"``
    de Leva's (1996) adjustment of Zatsiorsky and Seluyanov's data, Table 4, for young adult
    women and men, with lengths scaled from the sample's mean lengths and stature.

Use :func:`segment` for one scaled segment, :func:`table` for the raw rows with their
provenance and :func:`combine` to merge collinear segments (for example forearm and hand).

References
----------
.. [1] D. A. Winter, *Biomechanics and Motor Control of Human Movement*, 4th ed., Wiley,
   Hoboken NJ, 2009, Table 4.1 and Fig. 4.1.
.. [2] W. T. Dempster, *Space Requirements of the Seated Operator*, WADC Technical Report
   55-159, Wright-Patterson Air Force Base, Ohio, 1955.
.. [3] P. de Leva, "Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters",
   *Journal of Biomechanics* 29(9), 1223-1230, 1996, Table 4.
.. [4] R. Drillis, R. Contini, *Body Segment Parameters*, Report 1166-03, Office of
   Vocational Rehabilitation, New York University, 1966 (the length fractions of Winter's
   Fig. 4.1).
.. [5] V. M. Zatsiorsky, *Kinetics of Human Motion*, Human Kinetics, Champaign IL, 2002,
   chapter 4 (the segment inertia data that de Leva adjusted, and their axis names).
.. [6] M. Duarte, "Body segment parameters", notebook of the BMC course, Laboratory of
   Biomechanics and Motor Control, Federal University of ABC,
   https://github.com/BMClab/BMC (radius of gyration "around the transverse axis
   (rotation at the sagittal plane)").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from bmc._validation import plausible, positive

__all__ = ["AXES", "Row", "Segment", "combine", "segment", "segment_names", "table"]

# Every human's stature and body mass lie in these ranges (a newborn to the tallest and
# heaviest people recorded); a value outside is a unit mistake or a typo.
_HEIGHT_RANGE = (0.4, 2.75)   # [m]
_MASS_RANGE = (1.0, 650.0)    # [kg]


def __dir__() -> list[str]:
    return sorted(__all__)


_NAN = float("nan")

# The three axes of a segment's radii of gyration, by what they mean, and every accepted
# spelling of ``axis`` (de Leva's own column labels included) with the axis it names.
AXES = ("mediolateral", "anteroposterior", "longitudinal")
_AXIS_NAMES = {
    "mediolateral": "mediolateral", "flexion": "mediolateral", "transverse": "mediolateral",
    "anteroposterior": "anteroposterior", "sagittal": "anteroposterior",
    "longitudinal": "longitudinal",
}
_READABLE = {"mediolateral": "medio-lateral", "anteroposterior": "antero-posterior",
             "longitudinal": "longitudinal"}


@dataclass(frozen=True)
class Row:
    """One raw row of a body-segment parameter table (dimensionless fractions).

    Attributes
    ----------
    name : str
        Segment name used by :func:`segment`.
    endpoints : str
        The two landmarks that define the segment, proximal (origin) first.
    mass_fraction : float
        Segment mass / body mass [-].
    com_fraction : float
        Distance of the COM from the first endpoint / segment length [-].
    gyration_fraction : float
        Radius of gyration about the COM / segment length [-] for rotation in the sagittal
        plane, i.e. about the medio-lateral axis: Dempster's one radius, de Leva's column
        labelled *transverse*; ``nan`` where the source does not tabulate it.
    length_fraction : float
        Segment length / body height [-].
    source : str
        Where each number comes from.
    gyration_anteroposterior : float
        Radius of gyration about the antero-posterior axis / length [-]: de Leva's column
        labelled *sagittal* (``nan`` for Dempster).
    gyration_longitudinal : float
        Radius of gyration about the segment's long axis / length [-]: de Leva's column
        labelled *longitudinal* (``nan`` for Dempster).
    """

    name: str
    endpoints: str
    mass_fraction: float
    com_fraction: float
    gyration_fraction: float
    length_fraction: float
    source: str
    gyration_anteroposterior: float = _NAN
    gyration_longitudinal: float = _NAN


@dataclass(frozen=True)
class Segment:
    """A body segment scaled to a subject.

    Attributes
    ----------
    name : str
        Segment name.
    mass : float
        Segment mass, m [kg].
    length : float
        Segment length, L [m] (between the two endpoints of the table's definition).
    com : float
        Distance of the centre of mass from the proximal endpoint, c [m].
    com_fraction : float
        ``com / length`` [-].
    inertia : float
        Moment of inertia about the COM, I [kg m^2], about the axis named by ``axis``: by
        default the medio-lateral one, i.e. for rotation in the sagittal plane (always
        finite: :func:`segment` refuses a segment whose table gives no radius).
    radius_of_gyration_fraction : float
        Radius of gyration about the COM / length, k [-]; ``I = m (k L)^2``.
    table : str
        The table the values come from (``"dempster"`` or ``"de_leva"``).
    sex : str or None
        ``"female"`` or ``"male"`` (de Leva), ``None`` (Dempster).
    axis : str
        The axis of ``inertia``: ``"mediolateral"`` (rotation in the sagittal plane),
        ``"anteroposterior"`` or ``"longitudinal"``.
    """

    name: str
    mass: float
    length: float
    com: float
    com_fraction: float
    inertia: float
    radius_of_gyration_fraction: float
    table: str = ""
    sex: str | None = None
    axis: str = "mediolateral"


_W = "Winter (2009) Table 4.1"
_F = "Winter (2009) Fig. 4.1"

# Dempster via Winter (2009), Table 4.1: mass fraction, COM from proximal, radius of
# gyration about the COM; lengths from Fig. 4.1 (fractions of height H).
_DEMPSTER = (
    Row("hand", "wrist axis - knuckle II middle finger", 0.006, 0.506, 0.297, 0.108,
        f"{_W}; length 0.108 H from {_F}"),
    Row("forearm", "elbow axis - ulnar styloid", 0.016, 0.430, 0.303, 0.146,
        f"{_W}; length 0.146 H from {_F}"),
    Row("upper_arm", "glenohumeral axis - elbow axis", 0.028, 0.436, 0.322, 0.186,
        f"{_W}; length 0.186 H from {_F}"),
    Row("forearm_hand", "elbow axis - ulnar styloid", 0.022, 0.682, 0.468, 0.146,
        f"{_W} (COM and gyration relative to the forearm length); length 0.146 H from {_F}"),
    Row("total_arm", "glenohumeral joint - ulnar styloid", 0.050, 0.530, 0.368, 0.332,
        f"{_W}; length (0.186 + 0.146) H from {_F}"),
    Row("foot", "lateral malleolus - head metatarsal II", 0.0145, 0.50, 0.475, 0.152,
        f"{_W}; length taken as the foot length 0.152 H of {_F} (Winter's usage; "
        "Dempster's landmarks span less)"),
    Row("shank", "femoral condyles - medial malleolus", 0.0465, 0.433, 0.302, 0.246,
        f"{_W} ('leg'); length 0.246 H (knee 0.285 H - ankle 0.039 H) from {_F}"),
    Row("thigh", "greater trochanter - femoral condyles", 0.100, 0.433, 0.323, 0.245,
        f"{_W}; length 0.245 H (hip 0.530 H - knee 0.285 H) from {_F}"),
    Row("foot_shank", "femoral condyles - medial malleolus", 0.061, 0.606, 0.416, 0.246,
        f"{_W} ('foot and leg', relative to the shank length); length 0.246 H from {_F}"),
    Row("total_leg", "greater trochanter - medial malleolus", 0.161, 0.447, 0.326, 0.491,
        f"{_W}; length (0.245 + 0.246) H from {_F}"),
    Row("head_neck", "C7-T1 and first rib - ear canal", 0.081, 1.000, 0.495, 0.118,
        f"{_W}; length approximated as shoulder (0.818 H) to eye level (0.936 H), {_F}, "
        "standing in for the ear canal"),
    Row("trunk", "greater trochanter - glenohumeral joint", 0.497, 0.50, _NAN, 0.288,
        f"{_W} (no radius of gyration tabulated); length 0.288 H (shoulder 0.818 H - "
        f"hip 0.530 H) from {_F}"),
    Row("trunk_head_neck", "greater trochanter - glenohumeral joint", 0.578, 0.66, 0.503,
        0.288, f"{_W}; length 0.288 H from {_F}"),
    Row("hat", "greater trochanter - glenohumeral joint", 0.678, 0.626, 0.496, 0.288,
        f"{_W} (head, arms and trunk); length 0.288 H from {_F}"),
)

# de Leva (1996), Table 4: mean length [mm], mass [%], COM [% from the first endpoint],
# radii of gyration [% of length] about the sagittal (antero-posterior), transverse
# (medio-lateral) and longitudinal axes, in the paper's column order.
# Reference sample: women stature 1735 mm, men stature 1741 mm.
_STATURE_MM = {"female": 1735.0, "male": 1741.0}
_DE_LEVA_RAW = {
    # name: (endpoints, {sex: (length mm, mass %, COM %, r_sag %, r_trans %, r_long %)})
    "head": ("vertex - mid-gonion", {
        "female": (200.2, 6.68, 58.94, 33.0, 35.9, 31.8),
        "male": (203.3, 6.94, 59.76, 36.2, 37.6, 31.2)}),
    "trunk": ("suprasternale - mid-hip (midpoint of the hip joint centres)", {
        "female": (529.3, 42.57, 41.51, 35.7, 33.9, 17.1),
        "male": (531.9, 43.46, 44.86, 37.2, 34.7, 19.1)}),
    "upper_trunk": ("suprasternale - xiphoid process", {
        "female": (142.5, 15.45, 20.77, 74.6, 50.2, 71.8),
        "male": (170.7, 15.96, 29.99, 71.6, 45.4, 65.9)}),
    "middle_trunk": ("xiphoid process - omphalion (navel)", {
        "female": (205.3, 14.65, 45.12, 43.3, 35.4, 41.5),
        "male": (215.5, 16.33, 45.02, 48.2, 38.3, 46.8)}),
    "lower_trunk": ("omphalion (navel) - mid-hip", {
        "female": (181.5, 12.47, 49.20, 43.3, 40.2, 44.4),
        "male": (145.7, 11.17, 61.15, 61.5, 55.1, 58.7)}),
    "upper_arm": ("shoulder joint centre - elbow joint centre", {
        "female": (275.1, 2.55, 57.54, 27.8, 26.0, 14.8),
        "male": (281.7, 2.71, 57.72, 28.5, 26.9, 15.8)}),
    "forearm": ("elbow joint centre - wrist joint centre", {
        "female": (264.3, 1.38, 45.59, 26.1, 25.7, 9.4),
        "male": (268.9, 1.62, 45.74, 27.6, 26.5, 12.1)}),
    "hand": ("wrist joint centre - third metacarpale", {
        "female": (78.0, 0.56, 74.74, 53.1, 45.4, 33.5),
        "male": (86.2, 0.61, 79.00, 62.8, 51.3, 40.1)}),
    "thigh": ("hip joint centre - knee joint centre", {
        "female": (368.5, 14.78, 36.12, 36.9, 36.4, 16.2),
        "male": (422.2, 14.16, 40.95, 32.9, 32.9, 14.9)}),
    "shank": ("knee joint centre - lateral malleolus", {
        "female": (432.3, 4.81, 44.16, 27.1, 26.7, 9.3),
        "male": (434.0, 4.33, 44.59, 25.5, 24.9, 10.3)}),
    "foot": ("heel - tip of the longest toe", {
        "female": (228.3, 1.29, 40.14, 29.9, 27.9, 13.9),
        "male": (258.1, 1.37, 44.15, 25.7, 24.5, 12.4)}),
    # alternative endpoints (lower half of de Leva's Table 4)
    "head_c7": ("vertex - cervicale (C7)", {
        "female": (243.7, 6.68, 48.41, 27.1, 29.5, 26.1),
        "male": (242.9, 6.94, 50.02, 30.3, 31.5, 26.1)}),
    "trunk_c7": ("cervicale (C7) - mid-hip", {
        "female": (614.8, 42.57, 49.64, 30.7, 29.2, 14.7),
        "male": (603.3, 43.46, 51.38, 32.8, 30.6, 16.9)}),
    "trunk_shoulder": ("mid-shoulder (midpoint of the shoulder joint centres) - mid-hip", {
        "female": (497.9, 42.57, 37.82, 37.9, 36.1, 18.2),
        "male": (515.5, 43.46, 43.10, 38.4, 35.8, 19.7)}),
    "shank_ankle": ("knee joint centre - ankle joint centre", {
        "female": (438.6, 4.81, 43.52, 26.7, 26.3, 9.2),
        "male": (440.3, 4.33, 43.95, 25.1, 24.6, 10.2)}),
}


def _de_leva_rows(sex: str) -> tuple[Row, ...]:
    rows = []
    for name, (endpoints, by_sex) in _DE_LEVA_RAW.items():
        length, mass, com, r_sag, r_trans, r_long = by_sex[sex]
        rows.append(Row(
            name, endpoints, mass / 100.0, com / 100.0, r_trans / 100.0,
            length / _STATURE_MM[sex],
            f"de Leva (1996) Table 4, {sex}; length fraction = {length} mm / "
            f"{_STATURE_MM[sex]:.0f} mm mean stature; sagittal-plane radius of gyration "
            "from the column labelled transverse",
            r_sag / 100.0, r_long / 100.0))
    return tuple(rows)


_TABLES: dict[tuple[str, str | None], Mapping[str, Row]] = {
    ("dempster", None): MappingProxyType({r.name: r for r in _DEMPSTER}),
    ("de_leva", "female"): MappingProxyType({r.name: r for r in _de_leva_rows("female")}),
    ("de_leva", "male"): MappingProxyType({r.name: r for r in _de_leva_rows("male")}),
}
_ALIASES = {"leg": "shank", "head_and_neck": "head_neck", "forearm_and_hand": "forearm_hand",
            "foot_and_leg": "foot_shank", "upperarm": "upper_arm",
            "head_arms_trunk": "hat"}


def _key(table_name: str, sex: str | None, arg: str = "table") -> tuple[str, str | None]:
    if not isinstance(table_name, str) or table_name.lower() not in ("dempster", "de_leva"):
        label = "" if arg == "table" else " (the table)"
        raise ValueError(f"{arg}{label} must be 'dempster' or 'de_leva'; got {table_name!r}")
    name = table_name.lower()
    if name == "dempster":
        if sex is not None:
            raise ValueError(
                f"the Dempster table has no sex-specific values; leave sex=None (got {sex!r})")
        return name, None
    if sex not in ("female", "male"):
        raise ValueError(
            f"table 'de_leva' needs sex='female' or sex='male'; got sex={sex!r}")
    return name, sex


def _normalise(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str segment name; got {type(name).__name__}")
    key = name.strip().lower().replace(" ", "_").replace("-", "_").replace("+", "_")
    return _ALIASES.get(key, key)


def table(name: str = "dempster", *, sex: str | None = None) -> Mapping[str, Row]:
    """Return the raw rows of a body-segment parameter table, with provenance.

    Parameters
    ----------
    name : {"dempster", "de_leva"}
        Which table.
    sex : {"female", "male"} or None, optional
        Required for ``"de_leva"``; must be ``None`` for ``"dempster"``.

    Returns
    -------
    mapping of str to Row
        Read-only mapping from segment name to its :class:`Row` of dimensionless fractions.

    Examples
    --------
    >>> rows = table("dempster")
    >>> rows["thigh"].mass_fraction, rows["thigh"].length_fraction
    (0.1, 0.245)
    >>> round(sum(r.mass_fraction for r in table("de_leva", sex="male").values()
    ...           if r.name in ("head", "trunk")), 4)
    0.504
    """
    return _TABLES[_key(name, sex, "name")]


def segment_names(name: str = "dempster", *, sex: str | None = None) -> list[str]:
    """Return the segment names a table provides (see :func:`table`).

    Examples
    --------
    >>> segment_names("dempster")[:3]
    ['foot', 'foot_shank', 'forearm']
    """
    return sorted(table(name, sex=sex))


def segment(
    name: str,
    *,
    body_mass: float,
    height: float,
    table: str = "dempster",
    sex: str | None = None,
    axis: str = "mediolateral",
) -> Segment:
    """Return one body segment's parameters scaled to a subject.

    Parameters
    ----------
    name : str
        Segment name, for example ``"thigh"``, ``"shank"`` (alias ``"leg"``),
        ``"forearm_hand"``; see :func:`segment_names` for each table's list.
    body_mass : float
        Body mass [kg], 1 to 650 kg (any human).
    height : float
        Body height (stature) [m], 0.4 to 2.75 m (any human).
    table : {"dempster", "de_leva"}, optional
        Which table (default ``"dempster"``).
    sex : {"female", "male"} or None, optional
        Required for ``"de_leva"``, ``None`` for ``"dempster"``.
    axis : str, optional
        The axis about the COM of ``inertia``, by what it means:

        - ``"mediolateral"`` (default; alias ``"flexion"``): rotation in the sagittal
          plane, flexion-extension, the one every planar model needs. de Leva's column
          labelled *transverse*, which is also accepted as a name; Dempster's only radius.
        - ``"anteroposterior"``: rotation in the frontal plane (ab/adduction); de Leva's
          column labelled *sagittal*, which is also accepted as a name.
        - ``"longitudinal"``: rotation about the segment's long axis.

        Dempster accepts only the medio-lateral axis. Spelling is forgiving about case,
        hyphens and underscores (``"medio-lateral"`` works).

    Returns
    -------
    Segment
        Mass [kg], length [m], COM distance from the proximal end [m] and moment of
        inertia about the COM [kg m^2], with the fractions they came from.

    Raises
    ------
    ValueError
        For an unknown segment (the message lists the valid names), an unknown table, a
        missing or invalid ``sex``, an unknown ``axis`` (or one the table does not give),
        a non-positive mass or height, a mass or height outside every human's range (the
        message names the unit it was probably given in: 175 is centimetres, 70000 grams),
        or a segment whose radius of gyration the table does not give (Dempster's
        ``"trunk"``: use ``"trunk_head_neck"`` or ``"hat"``, or de Leva's ``"trunk"``; its
        mass fraction stays available in ``table("dempster")["trunk"]``).
    TypeError
        If ``body_mass`` or ``height`` is not a real number, or a name is not a str.

    Notes
    -----
    Provenance of each row is in ``table(...)[name].source``.

    de Leva's three columns of radii are about the *sagittal*, *transverse* and
    *longitudinal* axes, in the anatomical naming of Zatsiorsky that he follows: the
    sagittal axis runs antero-posterior (it lies in the sagittal plane, and rotation about
    it happens in the frontal plane), the transverse axis runs medio-lateral. Rotation *in*
    the sagittal plane, flexion-extension, is therefore about the transverse axis, and the
    default ``axis="mediolateral"`` takes de Leva's **transverse** column. The table bears
    this out: a hand lies flat in the frontal plane, so turning it about the
    antero-posterior axis moves its width as well as its length, and indeed its *sagittal*
    radius (62.8 % of the length, men) is much larger than its *transverse* one (51.3 %);
    the upper trunk, wider than deep, shows the same (71.6 % and 45.4 %). Duarte's course
    notes on body-segment parameters read the columns the same way ("around the
    transverse axis (rotation at the sagittal plane)"). For the limb segments the two
    columns differ by at most 8 %, for the whole trunk by about 7 % (15 % in inertia), so
    the choice matters most for the trunk and the hand.

    de Leva's Table 4 gives several endpoint definitions for some segments; the rows named
    ``head_c7`` (vertex to C7), ``trunk_c7`` (C7 to mid-hip), ``trunk_shoulder``
    (mid-shoulder to mid-hip) and ``shank_ankle`` (knee to ankle joint centre) are the
    alternatives from its lower half.

    Examples
    --------
    >>> s = segment("forearm", body_mass=70.0, height=1.70)
    >>> round(s.mass, 3), round(s.length, 4), round(s.com, 4), round(s.inertia, 5)
    (1.12, 0.2482, 0.1067, 0.00633)
    >>> t = segment("thigh", body_mass=73.0, height=1.741, table="de_leva", sex="male")
    >>> round(t.mass, 3), round(t.length, 4)
    (10.337, 0.4222)
    >>> h = dict(body_mass=73.0, height=1.741, table="de_leva", sex="male")
    >>> (segment("hand", **h).radius_of_gyration_fraction,
    ...  segment("hand", axis="anteroposterior", **h).radius_of_gyration_fraction)
    (0.513, 0.628)
    """
    body_mass = plausible(positive(body_mass, "body_mass", unit="kg"), "body_mass", unit="kg",
                          low=_MASS_RANGE[0], high=_MASS_RANGE[1], quantity="body mass",
                          units={"g": 1e-3})
    height = plausible(positive(height, "height", unit="m"), "height", unit="m",
                       low=_HEIGHT_RANGE[0], high=_HEIGHT_RANGE[1], quantity="body height",
                       units={"cm": 1e-2, "mm": 1e-3, "ft": 0.3048})
    rows = _TABLES[_key(table, sex)]
    key = _normalise(name)
    if key not in rows:
        raise ValueError(
            f"name must be a segment of table {table!r}; got the unknown segment {name!r}; "
            f"valid names: {', '.join(sorted(rows))}")
    row = rows[key]
    meaning = _axis(axis, table.lower())
    length = row.length_fraction * height
    mass = row.mass_fraction * body_mass
    k = {"mediolateral": row.gyration_fraction,
         "anteroposterior": row.gyration_anteroposterior,
         "longitudinal": row.gyration_longitudinal}[meaning]
    if not math.isfinite(k):
        raise ValueError(
            f"segment {name!r} of table {table!r} has no tabulated radius of gyration, so no "
            "moment of inertia: use 'trunk_head_neck' or 'hat' (Dempster), or "
            "table='de_leva' with sex=..., which tabulates the trunk's; the mass fraction "
            f"alone is in table({table!r})[{key!r}].mass_fraction"
        )
    inertia = mass * (k * length) ** 2
    return Segment(key, mass, length, row.com_fraction * length, row.com_fraction, inertia, k,
                   table.lower(), sex, meaning)


def _axis(axis: str, table_name: str) -> str:
    """Return what ``axis`` means (one of AXES), checked against the table."""
    if not isinstance(axis, str):
        raise TypeError(f"axis must be a str such as 'mediolateral'; got "
                        f"{type(axis).__name__}")
    meaning = _AXIS_NAMES.get(axis.strip().lower().replace("-", "").replace("_", ""))
    if meaning is None:
        raise ValueError(
            f"axis must be 'mediolateral' (alias 'flexion', de Leva's 'transverse'), "
            f"'anteroposterior' (de Leva's 'sagittal') or 'longitudinal'; got {axis!r}")
    if table_name == "dempster" and meaning != "mediolateral":
        raise ValueError(
            "the Dempster table gives one radius of gyration, for rotation in the sagittal "
            "plane (about the medio-lateral axis): use axis='mediolateral' (the default); "
            f"got axis={axis!r}, which names the {_READABLE[meaning]} axis")
    return meaning


def combine(parts: Sequence[Segment], *, name: str) -> Segment:
    """Merge collinear segments joined end to end into one rigid segment.

    The parts are placed along one line, each starting where the previous one ends (for
    example forearm then hand, or head then trunk read from the top). Mass adds, the COM is
    the mass-weighted mean and the inertia follows from the parallel-axis theorem.

    Parameters
    ----------
    parts : sequence of Segment
        At least one segment, ordered from the proximal end of the result.
    name : str
        Name of the combined segment.

    Returns
    -------
    Segment
        The combined segment; its length is the sum of the parts' lengths [m].

    Raises
    ------
    ValueError
        If the parts' inertias are about different axes (see :func:`segment`).

    Examples
    --------
    >>> fa = segment("forearm", body_mass=70.0, height=1.70)
    >>> ha = segment("hand", body_mass=70.0, height=1.70)
    >>> s = combine([fa, ha], name="forearm_hand")
    >>> round(s.mass, 3), round(s.com, 4)
    (1.54, 0.1706)
    """
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"name must be a non-empty str naming the combined segment; got "
                        f"{name!r}")
    if isinstance(parts, (str, Segment)) or not isinstance(parts, Sequence):
        raise TypeError("parts must be a non-empty sequence of Segment objects, as returned by "
                        f"bmc.anthropometry.segment(); got {type(parts).__name__}")
    parts = list(parts)
    if not parts or not all(isinstance(p, Segment) for p in parts):
        kinds = sorted({type(p).__name__ for p in parts}) or ["nothing"]
        raise TypeError("parts must be a non-empty sequence of Segment objects, as returned by "
                        "bmc.anthropometry.segment(); got " + ", ".join(kinds))
    axes = {p.axis for p in parts}
    if len(axes) != 1:
        raise ValueError(f"parts must have their inertias about one axis; got "
                         f"{[p.axis for p in parts]} (choose axis= in segment())")
    start, starts = 0.0, []
    for p in parts:
        starts.append(start)
        start += p.length
    length = start
    mass = sum(p.mass for p in parts)
    com = sum(p.mass * (s + p.com) for p, s in zip(parts, starts, strict=True)) / mass
    inertia = sum(p.inertia + p.mass * (s + p.com - com) ** 2
                  for p, s in zip(parts, starts, strict=True))
    k = math.sqrt(inertia / mass) / length
    tables = {p.table for p in parts}
    sexes = {p.sex for p in parts}
    return Segment(name, mass, length, com, com / length, inertia, k,
                   tables.pop() if len(tables) == 1 else "mixed",
                   sexes.pop() if len(sexes) == 1 else None, axes.pop())
