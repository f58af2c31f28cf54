"""Notebook 1 (one-link pendulum): what it teaches, and the numbers it shows, recomputed.

nbval checks that the stored outputs are what the code prints. These tests check the rest:
that a student sees derivations rendered as LaTeX, pictures drawn from the model, a solution
under every predict-then-check prompt, the errata of the published source; and, with
explicit tolerances, the agreements the notebook states as physics (SymPy and PlanarChain
give the same moments, the simulation keeps its energy balance, the period exceeds the
small-angle one by theta_0^2/16) and the judgements it makes about human movement (the
switched-on hold demands most of an elbow's strength, the smoothly moved one does not).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from bmc import anthropometry, kinematics, simulate
from bmc.chain import PlanarChain
from bmc.widgets import one_link

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "notebooks" / "01_one_link.ipynb"
IGNORE = "nbval-ignore-output"
G = 9.81


@pytest.fixture(scope="module")
def nb():
    return nbformat.read(PATH, as_version=4)


@pytest.fixture(scope="module")
def rod():
    seg = anthropometry.combine([anthropometry.segment(s, body_mass=70.0, height=1.70)
                                 for s in ("forearm", "hand")], name="forearm_hand")
    return PlanarChain([seg.length], [seg.com], [seg.mass], [seg.inertia], g=G)


def _texts(nb):
    """(cell index, text/plain or stream text) of every stored output."""
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            text = out.get("text", "") or out.get("data", {}).get("text/plain", "")
            yield i, text if isinstance(text, str) else "".join(text)


def _markdown(nb):
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _output(nb, needle):
    """The printed output of the code cell whose source contains ``needle``."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and needle in c.source)
    return "".join(o.get("text", "") for o in cell.outputs)


# --- what a student sees --------------------------------------------------------------

def test_symbolic_results_are_rendered_not_printed(nb):
    raw = [(i, t[:60]) for i, t in _texts(nb) if "Derivative(" in t or "Matrix([[" in t]
    assert raw == [], f"SymPy repr in an output (display Math(vlatex(...)) instead): {raw}"
    latex = sum("text/latex" in out.get("data", {}) for c in nb.cells
                for out in c.get("outputs", []))
    assert latex >= 15, f"only {latex} rendered equations; the derivations should be in view"


def test_every_prompt_has_a_solution(nb):
    prompts = [i for i, c in enumerate(nb.cells)
               if c.cell_type == "markdown" and "**Predict, then check.**" in c.source]
    assert 2 <= len(prompts) <= 5, prompts
    for i in prompts:
        # the prompt, then the cell(s) that check it, then the hidden solution
        following = nb.cells[i + 1:i + 4]
        assert following[0].cell_type == "code", f"cell {i}: no check cell after the prompt"
        assert any(c.cell_type == "markdown" and "<details><summary>Solution</summary>"
                   in c.source for c in following), f"cell {i}: no hidden solution"


def test_figures_carry_text_and_are_not_compared(nb):
    visual = ("image/png", "application/vnd.jupyter.widget-view+json")
    untagged = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                and any(k in out.get("data", {}) for out in c.get("outputs", []) for k in visual)
                and IGNORE not in c.metadata.get("tags", [])]
    assert untagged == []
    pictures = [out for c in nb.cells for out in c.get("outputs", [])
                if "image/png" in out.get("data", {})]
    assert len(pictures) >= 9, "sketch, two free-body diagrams, strobe, animation, plots, explorer"
    no_alt = [p.get("data", {}).get("text/plain", "")[:40] for p in pictures
              if not p.get("metadata", {}).get("image/png", {}).get("alt")]
    assert no_alt == [], f"figures without a text alternative: {no_alt}"
    assert "plt.show()" not in "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def test_pictures_are_drawn_from_the_model(nb):
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for call in ("drawing.model_sketch(rod", "rod.joint_positions(", "drawing.segment_diagram(",
                 "symbolic=True", "drawing.strobe(", "drawing.animation(",
                 "with_point_mass(", "one_link.torque_explorer("):
        assert call in code, call


def test_figure_labels_use_the_texts_symbols(nb):
    """The free-body diagrams label the joint moment tau_1 and the joint force F_1, as the
    text and the notation table do (not M_1 or F_r)."""
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert r"r'\tau_1'" in code and r"r'\mathbf{F}_1'" in code
    assert "M_1" not in code and "F_r" not in code
    table = next(c.source for c in nb.cells if c.source.startswith("## Notation"))
    for symbol in (r"$\tau_i$", r"$\mathbf{F}_i$", r"$\alpha_i$", r"$\ell_i$"):
        assert symbol in table


def test_links_resolve(nb):
    links = re.findall(r"\]\(([^)\s]+\.ipynb)\)", _markdown(nb))
    assert any("02_two_link" in link for link in links)
    assert any("exercises/01_one_link" in link for link in links)
    missing = [link for link in links if not (PATH.parent / link).resolve().exists()]
    assert missing == [], missing


def test_errata_name_errors_of_the_published_source(nb):
    text = _markdown(nb)
    errata = text[text.index("## 10. Errata of the source"):text.index("## Summary")]
    # the weight written as (0, -g, 0), and the moment of a tip force from the COM Jacobian
    assert r"(0, -g, 0)" in errata and r"(0, -mg, 0)" in errata
    assert "J_{cm}" in errata and r"L\,(-F_{ex}\sin\alpha + F_{ey}\cos\alpha)" in errata
    # a sign convention is not an error, and the sources reached us as published works
    assert "extensor" not in errata.lower()
    assert "extraction" not in text.lower()


# --- the numbers the notebook states as physics --------------------------------------

def test_tip_force_needs_the_tip_jacobian():
    """The erratum: J^T F with the centre-of-mass Jacobian is the moment of a force applied
    at the centre of mass; a tip force needs the tip's, as the source's own moment
    equation about the joint has it."""
    import sympy as sp

    a, ell, d, fx, fy = sp.symbols("alpha ell d F_x F_y")
    u = sp.Matrix([sp.cos(a), sp.sin(a)])
    tip, com = (ell * u).jacobian([a]), (d * u).jacobian([a])
    force = sp.Matrix([fx, fy])
    moment_about_joint = (ell * u)[0] * fy - (ell * u)[1] * fx      # [r x F]_z at the tip
    assert sp.simplify((tip.T * force)[0] - moment_about_joint) == 0
    assert sp.simplify((com.T * force)[0] - d / ell * moment_about_joint) == 0


def test_sympy_equation_and_planar_chain_give_the_same_moments(nb, rod):
    t = np.linspace(0.0, 0.5, 501)
    q, qd, qdd = kinematics.minimum_jerk(-np.pi / 2, 0.0, 0.5, t)
    seg_l, seg_d = rod.lengths[0], rod.com[0]
    i_o = rod.inertias[0] + rod.masses[0] * seg_d**2
    by_hand = i_o * qdd + rod.masses[0] * G * seg_d * np.cos(q)      # section 4's equation
    chain = rod.inverse_dynamics(q[:, None], qd[:, None], qdd[:, None])[:, 0]
    # the same equation evaluated two ways: round-off of a few ulp of ~3 N m
    np.testing.assert_allclose(chain, by_hand, rtol=1e-12, atol=1e-12)
    assert "SymPy equation 2.872 N m, PlanarChain 2.872 N m" in _output(nb, "torque_fn")
    assert seg_l == pytest.approx(0.4318, abs=5e-5)


def test_numeric_and_symbolic_endpoint_jacobians_match():
    j = kinematics.jacobian([0.4], [np.pi / 6])[:, 0]
    # l (-sin a, cos a) at 30 deg: closed form, round-off only
    np.testing.assert_allclose(j, [-0.2, 0.4 * np.cos(np.pi / 6)], rtol=0, atol=1e-15)


def test_simulations_keep_their_energy_balance(rod):
    t = np.linspace(0.0, 1.5, 301)
    fall = simulate.simulate_chain(rod, t, [np.radians(85.0)], [0.0])
    # DOP853 at rtol 1e-10 over 1.5 s: the balance holds to ~1e-10 of the energy scale
    assert fall.relative_energy_error < 1e-8
    np.testing.assert_allclose(np.degrees(fall.q[:, 0].min()), -265.0, atol=0.01)
    hold = rod.gravity_terms([np.radians(30.0)])
    run = simulate.simulate_chain(rod, np.linspace(0.0, 1.0, 201), [np.radians(31.0)], [0.0],
                                  tau=hold, rtol=1e-8, atol=1e-10)
    # work of the moment = change in energy, to the integrator's tolerance (1e-8)
    assert run.relative_energy_error < 1e-6


def test_swing_period_exceeds_the_small_angle_one_by_theta0_squared_over_16(rod):
    i_o = rod.mass_matrix([0.0])[0, 0]
    small = 2 * np.pi * np.sqrt(i_o / (rod.masses[0] * G * rod.com[0]))
    t = np.linspace(0.0, 3.0, 3001)
    swing = simulate.simulate_chain(rod, t, [np.radians(2.0) - np.pi / 2], [0.0])
    theta = swing.q[:, 0] + np.pi / 2
    k = np.flatnonzero((theta[:-1] > 0) & (theta[1:] <= 0))
    cross = t[k] - theta[k] * (t[k + 1] - t[k]) / (theta[k + 1] - theta[k])
    excess = (np.diff(cross).mean() - small) / small
    # exact pendulum: 1 + theta0^2/16 + 11 theta0^4/3072; the linear interpolation of the
    # crossings (1 ms samples) is good to ~1e-7 of the period
    np.testing.assert_allclose(excess, np.radians(2.0)**2 / 16, rtol=0.05)


def test_the_switched_on_hold_is_a_throw_and_the_smooth_one_a_hold(rod):
    alpha_ref, k, b = np.radians(30.0), 20.0, 2.0
    g_ref = rod.gravity_terms([alpha_ref])
    t = np.linspace(0.0, 2.0, 401)
    held = simulate.simulate_chain(rod, t, [-np.pi / 2], [0.0],
                                   tau=lambda t, q, qd: g_ref + k * (alpha_ref - q) - b * qd,
                                   rtol=1e-8, atol=1e-10)
    strength = one_link.ELBOW["flexor_strength_n_m_per_kg"] * 70.0
    peak, speed = np.abs(held.tau).max(), np.degrees(np.abs(held.qd)).max()
    np.testing.assert_allclose([peak, speed], [44.12, 858.2], atol=0.1)   # printed values
    assert peak > 0.75 * strength                  # most of an average man's elbow strength
    assert speed > ELBOW_THIRD                     # over a third of a pitcher's elbow

    def smooth(t, q, qd, start=-np.pi / 2, duration=1.0):
        s, ds, _ = kinematics.minimum_jerk_profile(t / duration)
        ref = start + (alpha_ref - start) * s
        return (rod.masses[0] * G * rod.com[0] * np.cos(ref) + k * (ref - q)
                + b * ((alpha_ref - start) * ds / duration - qd))

    tracked = simulate.simulate_chain(rod, t, [-np.pi / 2], [0.0], tau=smooth,
                                      rtol=1e-8, atol=1e-10)
    flexion = np.degrees(tracked.q[:, 0]) + 90.0
    assert one_link.outside_human_range(
        flexion, tracked.tau[:, 0], speed_deg_s=np.degrees(np.abs(tracked.qd)).max()) == []
    np.testing.assert_allclose(np.abs(tracked.tau).max(), 2.32, atol=0.01)
    assert np.degrees(np.abs(tracked.qd)).max() < 300.0


ELBOW_THIRD = one_link.ELBOW["peak_speed_deg_s"] / 3


def test_the_load_is_a_mass(rod):
    t = np.linspace(0.0, 0.5, 501)
    q, qd, qdd = (x[:, None] for x in kinematics.minimum_jerk(-np.pi / 2, 0.0, 0.5, t))
    loaded = rod.with_point_mass(2.0).inverse_dynamics(q, qd, qdd)[:, 0]
    assert round(float(loaded.max()), 1) == 17.4 and round(float(loaded.min()), 2) == -5.05
    # the notebook's judgement: about a third of an average man's elbow flexor strength
    assert 0.25 < loaded.max() / (0.78 * 70.0) < 0.4


def test_stored_free_fall_is_what_the_code_computes(notebook_runner):
    """Run with BMC_PRECOMPUTED=verify: the stored fall is recomputed and compared."""
    check = ("import json\nprint(json.dumps({'t_horizontal': float(t_horizontal), "
             "'lowest': float(np.degrees(fall['q'][lowest, 0])), "
             "'spread': float(np.ptp(fall['energy']))}))")
    path = Path(__file__).resolve().parents[1] / "notebooks" / "01_one_link.ipynb"
    checked = notebook_runner(path, check, env={"BMC_PRECOMPUTED": "verify"})
    # the segment swings through to the mirror of its release angle: -265 deg
    assert checked["lowest"] == pytest.approx(-265.0, abs=0.01)
    assert checked["spread"] < 1e-6   # J: DOP853 at the package's default tolerances
