import math

import numpy as np
import pytest

from bmc import anthropometry as am

FULL_BODY = {
    # one of each unpaired segment, two of each paired one
    "dempster": {"head_neck": 1, "trunk": 1, "upper_arm": 2, "forearm": 2, "hand": 2,
                 "thigh": 2, "shank": 2, "foot": 2},
    "de_leva": {"head": 1, "trunk": 1, "upper_arm": 2, "forearm": 2, "hand": 2,
                "thigh": 2, "shank": 2, "foot": 2},
}


@pytest.mark.parametrize(("name", "sex"), [("dempster", None), ("de_leva", "female"),
                                           ("de_leva", "male")])
def test_full_body_mass_fractions_sum_to_one(name, sex):
    rows = am.table(name, sex=sex)
    total = sum(n * rows[s].mass_fraction for s, n in FULL_BODY[name].items())
    # the published percentages are rounded to 0.01 %: the sum is 1 within 1e-3
    np.testing.assert_allclose(total, 1.0, atol=1e-3)


def test_composite_rows_are_consistent_with_their_parts():
    d = am.table("dempster")
    # Winter's composite masses are sums of the part masses (to the 3 decimals printed)
    np.testing.assert_allclose(d["forearm_hand"].mass_fraction,
                               d["forearm"].mass_fraction + d["hand"].mass_fraction, atol=1e-9)
    np.testing.assert_allclose(d["hat"].mass_fraction,
                               d["trunk"].mass_fraction + d["head_neck"].mass_fraction
                               + 2 * d["total_arm"].mass_fraction, atol=1e-9)
    for sex in ("female", "male"):
        t = am.table("de_leva", sex=sex)
        parts = ("upper_trunk", "middle_trunk", "lower_trunk")
        # de Leva's trunk is the union of the three sub-trunks: masses add (to 0.01 %)
        np.testing.assert_allclose(sum(t[p].mass_fraction for p in parts),
                                   t["trunk"].mass_fraction, atol=1e-4)
        # the lengths of the three sub-trunks add up to the trunk length (to 0.1 mm in 1.7 m)
        np.testing.assert_allclose(sum(t[p].length_fraction for p in parts),
                                   t["trunk"].length_fraction, atol=1e-3)


def test_combined_forearm_hand_close_to_dempster_composite():
    kw = {"body_mass": 70.0, "height": 1.75}
    fh = am.combine([am.segment("forearm", **kw), am.segment("hand", **kw)], name="fh")
    ref = am.segment("forearm_hand", **kw)
    np.testing.assert_allclose(fh.mass, ref.mass, rtol=1e-12)  # masses add exactly
    # an independent composite measurement vs a geometric combination: a few percent
    np.testing.assert_allclose(fh.com, ref.com, rtol=0.03)


def test_scaling_laws():
    a = am.segment("thigh", body_mass=60.0, height=1.6, table="de_leva", sex="female")
    b = am.segment("thigh", body_mass=90.0, height=1.6, table="de_leva", sex="female")
    c = am.segment("thigh", body_mass=60.0, height=2.0, table="de_leva", sex="female")
    np.testing.assert_allclose(b.mass / a.mass, 1.5, rtol=1e-12)    # mass linear in body mass
    np.testing.assert_allclose(c.length / a.length, 2.0 / 1.6, rtol=1e-12)  # length in height
    np.testing.assert_allclose(c.com / a.com, 2.0 / 1.6, rtol=1e-12)
    for s in (a, b, c):
        # I = m (k L)^2, recomputed from the published fractions (women's thigh, de Leva's
        # transverse column: rotation in the sagittal plane)
        np.testing.assert_allclose(s.inertia, s.mass * (0.364 * s.length) ** 2, rtol=1e-12)
    np.testing.assert_allclose(a.mass, 0.1478 * 60.0, rtol=1e-12)
    np.testing.assert_allclose(a.length, 0.3685 / 1.735 * 1.6, rtol=1e-12)


def test_dempster_lengths_from_winter_fig_4_1():
    kw = {"body_mass": 80.0, "height": 1.80}
    for name, frac in [("upper_arm", 0.186), ("forearm", 0.146), ("hand", 0.108),
                       ("thigh", 0.245), ("leg", 0.246)]:
        np.testing.assert_allclose(am.segment(name, **kw).length, frac * 1.80, rtol=1e-12)


def test_trunk_without_radius_of_gyration_is_refused_with_what_to_use():
    # Dempster tabulates no radius for the trunk alone: no silent NaN inertia.
    with pytest.raises(ValueError, match=r"'trunk'.*no tabulated radius.*trunk_head_neck"):
        am.segment("trunk", body_mass=70.0, height=1.7)
    assert am.table("dempster")["trunk"].mass_fraction == 0.497
    assert math.isfinite(am.segment("trunk_head_neck", body_mass=70.0, height=1.7).inertia)


def test_combine_parallel_axis():
    kw = {"body_mass": 70.0, "height": 1.7, "table": "de_leva", "sex": "male"}
    parts = [am.segment(n, **kw) for n in ("upper_trunk", "middle_trunk", "lower_trunk")]
    s = am.combine(parts, name="trunk3")
    # brute force: inertia about the combined COM = sum of I_i + m_i d_i^2 from first principles
    starts = np.cumsum([0.0] + [p.length for p in parts[:-1]])
    x = np.array([st + p.com for st, p in zip(starts, parts, strict=True)])
    m = np.array([p.mass for p in parts])
    xc = (m @ x) / m.sum()
    ref = sum(p.inertia for p in parts) + m @ (x - xc) ** 2
    np.testing.assert_allclose([s.mass, s.com, s.inertia], [m.sum(), xc, ref], rtol=1e-12)


def test_provenance_is_recorded():
    for row in am.table("dempster").values():
        assert "Winter (2009)" in row.source
    for row in am.table("de_leva", sex="male").values():
        assert "de Leva (1996) Table 4" in row.source


def test_bad_inputs():
    with pytest.raises(ValueError, match="valid names: .*forearm.*thigh"):
        am.segment("femur", body_mass=70.0, height=1.7)
    with pytest.raises(ValueError, match="sex='female' or sex='male'"):
        am.segment("thigh", body_mass=70.0, height=1.7, table="de_leva")
    with pytest.raises(ValueError, match="no sex-specific"):
        am.segment("thigh", body_mass=70.0, height=1.7, sex="male")
    with pytest.raises(ValueError, match="body_mass \\[kg\\] must be a finite positive"):
        am.segment("thigh", body_mass=-70.0, height=1.7)
    with pytest.raises(ValueError, match=r"name \(the table\) must be"):
        am.table("winter")
    with pytest.raises(TypeError, match="non-empty sequence of Segment"):
        am.combine([], name="x")


def test_de_leva_alternative_definitions_share_mass():
    for sex in ("female", "male"):
        t = am.table("de_leva", sex=sex)
        # the same body part under two landmark definitions has one mass
        assert t["head_c7"].mass_fraction == t["head"].mass_fraction
        assert t["trunk_c7"].mass_fraction == t["trunk"].mass_fraction
        assert t["trunk_shoulder"].mass_fraction == t["trunk"].mass_fraction
        assert t["shank_ankle"].mass_fraction == t["shank"].mass_fraction


def test_axis_selects_radius_of_gyration():
    kw = {"body_mass": 73.0, "height": 1.741, "table": "de_leva", "sex": "male"}
    s = am.segment("trunk", axis="anteroposterior", **kw)
    t = am.segment("trunk", **kw)
    # published radii 37.2 % (sagittal column) and 34.7 % (transverse column) of the length:
    # the ratio of the inertias is their square
    np.testing.assert_allclose(s.inertia / t.inertia, (0.372 / 0.347) ** 2, rtol=1e-12)
    lo = am.segment("trunk", axis="longitudinal", **kw)
    np.testing.assert_allclose(lo.radius_of_gyration_fraction, 0.191, rtol=1e-12)
    assert (s.axis, t.axis, lo.axis) == ("anteroposterior", "mediolateral", "longitudinal")


def test_sagittal_plane_inertia_is_de_levas_transverse_column():
    kw = {"body_mass": 73.0, "height": 1.741, "table": "de_leva", "sex": "male"}
    for name, r_sag, r_trans in [("hand", 0.628, 0.513), ("upper_trunk", 0.716, 0.454),
                                 ("thigh", 0.329, 0.329), ("shank", 0.255, 0.249)]:
        default = am.segment(name, **kw)
        # the default (sagittal-plane rotation, about the medio-lateral axis) is the
        # column de Leva labels "transverse" (the published percentage / 100: rounding only)
        np.testing.assert_allclose(default.radius_of_gyration_fraction, r_trans, rtol=1e-12)
        np.testing.assert_allclose(am.table("de_leva", sex="male")[name].gyration_fraction,
                                   r_trans, rtol=1e-12)
        for alias in ("mediolateral", "Medio-lateral", "flexion", "transverse"):
            assert am.segment(name, axis=alias, **kw).inertia == default.inertia
        for alias in ("anteroposterior", "antero_posterior", "sagittal"):
            np.testing.assert_allclose(
                am.segment(name, axis=alias, **kw).radius_of_gyration_fraction, r_sag,
                rtol=1e-12)


def test_flat_segments_turn_harder_about_the_antero_posterior_axis():
    # the evidence for the reading: a hand lying in the frontal plane and the upper trunk,
    # wider than deep, spread their mass medio-laterally, so their radius about the
    # antero-posterior axis must be the larger one, for both sexes
    for sex in ("female", "male"):
        for name in ("hand", "upper_trunk"):
            row = am.table("de_leva", sex=sex)[name]
            assert row.gyration_anteroposterior > 1.1 * row.gyration_fraction


def test_axis_errors():
    with pytest.raises(ValueError, match="axis must be 'mediolateral'.*got 'frontal'"):
        am.segment("thigh", body_mass=70.0, height=1.7, table="de_leva", sex="male",
                   axis="frontal")
    # Dempster has one radius, about the medio-lateral axis
    with pytest.raises(ValueError, match="Dempster table gives one radius.*antero-posterior"):
        am.segment("thigh", body_mass=70.0, height=1.7, axis="sagittal")
    assert am.segment("thigh", body_mass=70.0, height=1.7, axis="flexion").inertia > 0
    with pytest.raises(TypeError, match="axis must be a str"):
        am.segment("thigh", body_mass=70.0, height=1.7, axis=2)
    kw = {"body_mass": 70.0, "height": 1.7, "table": "de_leva", "sex": "male"}
    mixed = [am.segment("forearm", **kw), am.segment("hand", axis="sagittal", **kw)]
    with pytest.raises(ValueError, match="inertias about one axis"):
        am.combine(mixed, name="forearm_hand")
