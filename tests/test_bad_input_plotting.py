"""bmc.plotting: wrong figures, texts, styles and options refused by name."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from bmc import plotting as pl


def _axes():
    _, ax = plt.subplots()
    return ax


CASES = [
    (pl.series_style, {"index": -1}, ValueError, "index"),
    (pl.series_style, {"index": 1.0}, TypeError, "index"),
    (pl.series_style, {"index": True}, TypeError, "index"),
    (pl.legend_outside, {"ax": None, "side": "top"}, ValueError, "side"),
    # issue 34's long survey, round 2: ncol reached Matplotlib (a MemoryError for 1e12, its
    # own words for -1); a NaN channel reached colorspacious (IndexError)
    (pl.legend_outside, {"ax": None, "ncol": 10**12}, ValueError, "ncol"),
    (pl.legend_outside, {"ax": None, "ncol": -1}, ValueError, "ncol"),
    (pl.legend_outside, {"ax": None, "ncol": 2.0}, TypeError, "ncol"),
    (pl.colour_distances, {"first": (np.nan, 0.0, 0.0), "second": "#0072B2"}, ValueError,
     "first"),
    (pl.estimates_against_truth, {"t": [0, 1, 2], "truth": np.zeros((3, 1)), "estimates": {},
                                  "titles": ["a"], "ylabel": "", "margin": "0.3"}, TypeError,
     "margin"),
    (pl.estimates_against_truth, {"t": [0, 1, 2], "truth": np.zeros((3, 1)), "estimates": {},
                                  "titles": ["a"], "ylabel": "", "margin": 30.0}, ValueError,
     "margin"),
    (pl.show, {"figure": "fig", "alt": "x"}, TypeError, "figure"),
    (pl.show, {"figure": None, "alt": ""}, TypeError, "alt"),
    (pl.show, {"figure": None, "alt": 3}, TypeError, "alt"),
    (pl.show, {"figure": None, "alt": "x", "caption": " "}, TypeError, "caption"),
    (pl.check_figure, {"figure": "fig"}, TypeError, "figure"),
    (pl.describe_figure, {"figure": [1, 2]}, TypeError, "figure"),
    (pl.tight_png, {"figure": "fig"}, TypeError, "figure"),
    (pl.cropped_png, {"figure": None, "box": None}, TypeError, "figure"),
    (pl.cropped_png, {"figure": "DRAWN", "box": (0, 0, 1, 1)}, TypeError, "box"),
    (pl.cropped_png, {"figure": "DRAWN", "box": "PIXELS"}, ValueError, "box"),
    (pl.cropped_png, {"figure": "NEW", "box": "INCHES"}, ValueError, "figure"),
    (pl.estimates_against_truth, {"t": [0, 1, 2], "truth": np.zeros((2, 1)), "estimates": {},
                                  "titles": ["a"], "ylabel": ""}, ValueError, "truth"),
    (pl.estimates_against_truth, {"t": "t", "truth": np.zeros((3, 1)), "estimates": {},
                                  "titles": ["a"], "ylabel": ""}, TypeError, "t"),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    try:
        if kwargs.get("ax", 0) is None:
            kwargs = {**kwargs, "ax": _axes()}
        if kwargs.get("figure") in ("DRAWN", "NEW"):  # a figure drawn on its canvas, or not
            from matplotlib.transforms import Bbox

            fig, _ = plt.subplots(figsize=(4, 3))
            if kwargs["figure"] == "DRAWN":
                fig.canvas.draw()
            boxes = {"PIXELS": Bbox.from_extents(0, 0, 400, 300),  # pixels, not inches
                     "INCHES": Bbox.from_extents(0, 0, 4, 3)}
            kwargs = {**kwargs, "figure": fig, "box": boxes.get(kwargs["box"], kwargs["box"])}
        refuses(func, kwargs, exc, arg)
    finally:
        plt.close("all")


def test_the_check_switch_names_its_values(monkeypatch):
    monkeypatch.setenv(pl.CHECK_VARIABLE, "strict")
    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="BMC_FIGURE_CHECK must be 'error', 'warn' or 'off'"):
        pl.show(fig, alt="An empty plot.")
    plt.close("all")


def test_a_constant_truth_without_margin_still_gets_a_range():
    # margin=0 with a constant truth set identical y-limits (Matplotlib's UserWarning, an
    # error under the test settings)
    axes, _ = pl.estimates_against_truth([0, 1, 2], np.ones((3, 1)), {}, titles=["a"],
                                         ylabel="", margin=0)
    low, high = axes[0].get_ylim()
    assert low < 1.0 < high
    plt.close("all")
