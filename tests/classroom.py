"""A class of 12 for exercise set 5, as both grading paths must see it (test helper).

3 right, 3 sign errors, 2 unit mistakes, 2 empty, 1 exception, 1 copy. Every student
writes their own code (their own names, as students do), so that only the copy is a near
copy of another submission; the mistakes are the ones a student makes. ``EXPECTED`` holds
each student's score out of 9 (q1 2, q2 3, q3 2, q4 2 points).
"""

from __future__ import annotations

import json
from pathlib import Path

STEM = "05_joint_reactions"
ASSIGNMENT = "bmc-05-joint-reactions"

_Z = '''def open_constraint_Z(n):
    {Z} = np.zeros((3 * n, 2 * n))
    for {seg} in range(n):
        for {jnt} in range({seg} + 1):
            {Z}[3 * {seg}, 2 * {jnt}] = {one}
            {Z}[3 * {seg} + 1, 2 * {jnt} + 1] = {one}
    return {Z}


Z = open_constraint_Z(3)
'''

_PDD = '''def accelerations(p):
    ({l2}, {l3}), ({d2}, {d3}, {d4}) = {scale}p.lengths, p.com
    {phi} = {angles}(p.q[2:])
    {w} = p.qd[2:]
    {hx}, {hy} = p.qdd[:2]
    {a} = p.qdd[2:]

    def {arm}({length}, i):
        {s}, {c} = np.sin({phi}[i]), np.cos({phi}[i])
        return {length} * np.array([{a}[i] * {c} - {w}[i]**2 * {s},
                                     {a}[i] * {s} {sign} {w}[i]**2 * {c}])

    {hip} = np.array([{hx}, {hy}])
    {knee} = {hip} + {arm}({l2}, 0)
    {ankle} = {knee} + {arm}({l3}, 1)
    return np.concatenate([{hip} + {arm}({d2}, 0), [{a}[0]], {knee} + {arm}({d3}, 1), [{a}[1]],
                           {ankle} + {arm}({d4}, 2), [{a}[2]]])


pdd = accelerations(p)
'''

_LAM = '''def joint_reactions(p):
    {m2}, {m3}, {m4} = p.masses
    {M_p} = np.diag([{m2}, {m2}, 1.0, {m3}, {m3}, 1.0, {m4}, {m4}, 1.0])
    {h} = np.array([0.0, -{m2} * p.g, 0.0, 0.0, -{m3} * p.g, 0.0, p.F_bed[0],
                    p.F_bed[1] - {m4} * p.g, 0.0])
    return open_constraint_Z(3).T @ ({h} {inertial} {M_p} @ accelerations(p))


lam = joint_reactions(p)
'''

_PREDICT = '''practice_sign = +1
sign_lam2_flight = {flight}
largest_vertical = "ankle"
'''

_NAMES = ["Z seg jnt l2 l3 d2 d3 d4 phi w hx hy a arm length s c hip knee ankle m2 m3 m4 M_p h",
          "mat i j thigh_l shank_l thigh_c shank_c foot_c angles rates axh ayh accs "
          "lever dist sn cs pelvis kn an mass2 mass3 mass4 mass_matrix forces",
          "EE k jj L2 L3 C2 C3 C4 ang omg xhdd yhdd alp term r si co H K A mt ms mf MM hh",
          "Emat row col lt ls ct cs_ cf theta om ah_x ah_y thdd part rr sth cth hp kp ap "
          "mth msh mft Mdiag hvec",
          "e_mat a_seg a_j lth lsh cth csh cft phis phids xh_dd yh_dd phidds seg_acc ln sv cv "
          "hip_p knee_p ank_p mt2 mt3 mt4 Mm hv",
          "EZ u v len2 len3 com2 com3 com4 ph wd xdd ydd add link ll sp cp hipa kneea anka "
          "m_t m_s m_f big_m rhs",
          "Ez seg_i joint_j thigh shank cthigh cshank cfoot q_phi q_w hxa hya q_a piece lgth "
          "sine cosine base kpt apt w2 w3 w4 M9 h9",
          "Eo ii jj2 l_th l_sh c_th c_sh c_ft fi fd hax hay fdd contrib lng sf cf hipv kneev "
          "anklev wt2 wt3 wt4 inertia load",
          "Ex n_s n_j a2 a3 b2 b3 b4 angs vels hxdd hydd accs2 step lg snv csv h_pt k_pt "
          "a_pt mm2 mm3 mm4 MMM hh2"]
_KEYS = _NAMES[0].split()


def _names(i: int) -> dict[str, str]:
    return dict(zip(_KEYS, _NAMES[i].split(), strict=True))


def _code(i: int, *, one: str = "1.0", sign: str = "+", angles: str = "",
          scale: str = "", inertial: str = "-", flight: str = "0") -> list[str]:
    names = _names(i)
    return [_Z.format(one=one, **names),
            _PDD.format(sign=sign, angles=angles, scale=scale, **names),
            _LAM.format(inertial=inertial, **names), _PREDICT.format(flight=flight)]


#: student id -> (their answer cells, expected score out of 9, what they did)
STUDENTS = {
    "s01": (_code(0), 9.0, "right"),
    "s02": (_code(1), 9.0, "right"),
    "s03": (_code(2), 9.0, "right"),
    "s04": (_code(3, sign="-"), 4.0, "sign: the centripetal term of y'' (q2, and q3 with it)"),
    "s05": (_code(4, inertial="+"), 7.0, "sign: the inertial forces in eq. (2.10) (q3)"),
    "s06": (_code(5, flight="-1"), 7.0, "sign: the flight prediction (q4)"),
    "s07": (_code(6, angles="np.degrees"), 4.0, "units: the angles in degrees (q2, q3)"),
    "s08": (_code(7, scale="100 * "), 4.0, "units: the lengths in centimetres (q2, q3)"),
    "s09": (None, 0.0, "empty"),
    "s10": (None, 0.0, "empty"),
    "s11": (_code(8, one="'one'"), 5.0, "exception: ValueError in Z's cell (q1, and q3 "
            "that uses it)"),
    "s12": ("s01", 9.0, "copy of s01's notebook, STUDENT_ID = 's01' left in it"),
}
EXPECTED = {sid: score for sid, (_, score, _) in STUDENTS.items()}
COPY = ("s01", "s12")


def notebooks(student_version: dict) -> dict[str, dict]:
    """Each student's submitted notebook, built from the set's student version."""
    out = {}
    for sid, (cells, _, _) in STUDENTS.items():
        if isinstance(cells, str):
            continue
        nb = json.loads(json.dumps(student_version))
        answers = [c for c in nb["cells"] if c["cell_type"] == "code"
                   and "otter_answer_cell" in c.get("metadata", {}).get("tags", [])]
        assert len(answers) == 4, len(answers)
        for cell, text in zip(answers, cells or [None] * 4, strict=True):
            if text is not None:
                cell["source"] = text
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                cell["source"] = source.replace('"your student id"', f'"{sid}"')
        out[sid] = nb
    for sid, (cells, _, _) in STUDENTS.items():
        if isinstance(cells, str):
            out[sid] = json.loads(json.dumps(out[cells]))  # verbatim, typed id and all
    return out


def write(student_version: Path, folder: Path) -> dict[str, Path]:
    """Write the class into ``folder`` as ``<id>.ipynb``; return the paths by id."""
    folder.mkdir(parents=True, exist_ok=True)
    nbs = notebooks(json.loads(student_version.read_text(encoding="utf-8")))
    paths = {}
    for sid, nb in nbs.items():
        paths[sid] = folder / f"{sid}.ipynb"
        paths[sid].write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return paths
