"""The course palette survives colour-vision deficiency, and series never differ by colour alone.

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira and Fernandes
(2009) at full severity (deuteranopia and protanopia, together about 2 % of men; the
anomalous trichromacies are milder), as ``colorspacious`` implements them, and distances are
measured in CAM02-UCS (Luo, Cui and Li 2006), where 1 unit is about one just-noticeable
difference. The threshold, 12 units, is ``bmc.plotting.check_figure``'s: every pair of the
Okabe-Ito palette (designed for colour-vision deficiency) passes it, Matplotlib's default
orange and green under protanopia (1.6) and red and green under deuteranopia (5.2) fail it.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest

from bmc import plotting
from bmc.plotting import LINESTYLES, MARKERS, PALETTE, ROLES, colour_distances

THRESHOLD = 12.0  # CAM02-UCS units (bmc.plotting._check.MIN_COLOUR_DISTANCE)
OKABE_ITO = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
             "#CC79A7")


def _contrast(colour: str) -> float:
    """WCAG 2.1 contrast ratio of a colour against white."""
    from matplotlib.colors import to_rgb

    c = np.array(to_rgb(colour))
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return 1.05 / (linear @ [0.2126, 0.7152, 0.0722] + 0.05)


def test_the_threshold_separates_a_cvd_palette_from_red_and_green():
    okabe = min(min(colour_distances(a, b).values())
                for a, b in itertools.combinations(OKABE_ITO, 2))
    assert okabe > THRESHOLD                      # 14.0 (blue and reddish purple, protanopia)
    assert colour_distances("C1", "C2")["protanopia"] < THRESHOLD      # 1.6
    assert colour_distances("tab:red", "tab:green")["deuteranopia"] < THRESHOLD  # 5.2


def test_every_pair_of_the_palette_stays_apart_under_cvd():
    worst = {}
    for a, b in itertools.combinations(PALETTE, 2):
        for vision, distance in colour_distances(a, b).items():
            assert distance >= THRESHOLD, f"{a} and {b}: {distance:.1f} under {vision}"
            worst[vision] = min(worst.get(vision, np.inf), distance)
    # the measured minima (stated in PALETTE's docstring and CONTRIBUTING.md)
    assert worst["normal"] == pytest.approx(34.3, abs=0.1)
    assert worst["deuteranopia"] == pytest.approx(16.9, abs=0.1)
    assert worst["protanopia"] == pytest.approx(15.0, abs=0.1)


def test_every_colour_has_the_contrast_of_a_graphical_object():
    # WCAG 2.1, 1.4.11: the lines of a graph need 3:1 against the white background
    for colour in (*PALETTE, ROLES["force"], ROLES["weight"], ROLES["moment"], ROLES["angle"],
                   ROLES["guide"]):
        assert _contrast(colour) >= 3.0, colour


def test_the_cycle_pairs_each_colour_with_its_own_line_style_and_marker():
    assert len(PALETTE) == len(LINESTYLES) == len(MARKERS) == len(set(PALETTE))
    assert len({str(s) for s in LINESTYLES}) == len(LINESTYLES)
    assert len(set(MARKERS)) == len(MARKERS)
    entries = list(plotting.cycle(markers=True))
    assert [e["color"] for e in entries] == list(PALETTE)
    assert [e["linestyle"] for e in entries] == list(LINESTYLES)
    assert [e["marker"] for e in entries] == list(MARKERS)
    assert plotting.series_style(6) == {"color": PALETTE[1], "linestyle": LINESTYLES[1]}
    assert plotting.series_style(0, marker=True)["marker"] == MARKERS[0]
    with pytest.raises(ValueError, match="index"):
        plotting.series_style(-1)


def test_use_style_draws_successive_lines_in_colour_and_style():
    import matplotlib as mpl

    with mpl.rc_context():
        plotting.use_style()
        fig, ax = plt.subplots()
        lines = ax.plot(np.zeros((2, 5)))
        assert [mpl.colors.to_hex(ln.get_color()).upper() for ln in lines] == list(PALETTE)
        assert len({ln.get_linestyle() for ln in lines[:4]}) == 4
        plt.close(fig)


def test_the_drawings_use_the_palette():
    from bmc import drawing
    from bmc.chain import PlanarChain

    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    d = drawing.free_body_diagram(arm, [0.2, 0.4], segment=0, qd=[1.0, 1.0])
    for arrow in d.arrows:
        expected = ROLES["weight"] if arrow.kind == "weight" else ROLES["force"]
        assert plotting.colour_distances(arrow.artist.arrow_patch.get_edgecolor(),
                                         expected)["normal"] < 0.5
    for moment in d.moments:
        assert moment.artist.get_color().upper() == ROLES["moment"]
    plt.close("all")
