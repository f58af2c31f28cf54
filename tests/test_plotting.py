"""bmc.plotting: helpers return their Axes, style is opt-in, bad input is named."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bmc import plotting


def test_importing_plotting_leaves_rcparams_alone_and_use_style_applies():
    code = (
        "import matplotlib as mpl; before = dict(mpl.rcParams)\n"
        "import bmc.plotting as p; assert dict(mpl.rcParams) == before\n"
        "p.use_style(); assert mpl.rcParams['axes.grid'] is True\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_estimates_against_truth_draws_truth_and_updatable_lines():
    import matplotlib.pyplot as plt

    t = np.linspace(0, 1, 11)
    truth = np.c_[np.sin(t), np.zeros_like(t)]
    axes, lines = plotting.estimates_against_truth(
        t, truth, {"A": {"color": "C1"}, "B": {"color": "C0"}}, titles=("one", "two"),
        ylabel="torque [N m]",
    )
    assert [ax.get_title() for ax in axes] == ["one", "two"]
    assert set(lines) == {"A", "B"} and all(len(v) == 2 for v in lines.values())
    # the truth first, then the estimates in order, all starting at the truth
    assert [line.get_label() for line in axes[0].lines] == ["true", "A", "B"]
    np.testing.assert_array_equal(lines["B"][0].get_ydata(), truth[:, 0])
    # limits: the truth's range widened by 30 %; a constant truth gets +-0.3
    span = np.ptp(truth[:, 0])
    np.testing.assert_allclose(axes[0].get_ylim(), (-0.3 * span, truth[:, 0].max() + 0.3 * span))
    np.testing.assert_allclose(axes[1].get_ylim(), (-0.3, 0.3))
    lines["A"][1].set_ydata(np.ones_like(t))
    np.testing.assert_array_equal(axes[1].lines[1].get_ydata(), 1.0)
    assert axes[0].get_ylabel() == "torque [N m]"
    plt.close("all")


def test_estimates_against_truth_names_bad_input():
    t = np.arange(5.0)
    with pytest.raises(ValueError, match=r"truth must have one row per time sample \(5\)"):
        plotting.estimates_against_truth(t, np.zeros((4, 2)), {}, titles="ab", ylabel="")
    with pytest.raises(ValueError, match="titles must name the 2 columns of truth; got 3"):
        plotting.estimates_against_truth(t, np.zeros((5, 2)), {}, titles="abc", ylabel="")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3)
    with pytest.raises(ValueError, match="axes must hold 2 Axes, one per column of truth; got 3"):
        plotting.estimates_against_truth(t, np.zeros((5, 2)), {}, titles="ab", ylabel="",
                                         axes=axes)
    drawn, _ = plotting.estimates_against_truth(t, np.zeros((5, 3)), {}, titles="abc",
                                                ylabel="", axes=axes)
    assert list(drawn) == list(axes) and len(fig.axes) == 3
    plt.close(fig)


# -- show: the figure with its text alternative, in every form a front end reads -------------
@pytest.fixture
def shell(monkeypatch):
    """An IPython shell with the inline backend's PNG formatter; what show publishes."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    sh = InteractiveShell.instance()
    select_figure_formats(sh, {"png"})
    published = []
    monkeypatch.setattr("IPython.display.publish_display_data",
                        lambda data, metadata=None, **kw: published.append((data, metadata)))
    yield published
    InteractiveShell.clear_instance()


def test_show_publishes_html_with_alt_and_caption_png_with_metadata_and_text(shell):
    import base64
    import html

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 2])
    alt = 'Elbow torque rises from 0 to 2 N m in 1 s; "peak" at the end & no dip.'
    plotting.show(fig, alt=alt, caption="Torque of a slow reach.")
    ((data, metadata),) = shell
    assert set(data) == {"image/png", "text/html", "text/plain"}
    assert data["text/plain"] == alt
    assert metadata["image/png"] == {"alt": alt, "caption": "Torque of a slow reach."}
    page = data["text/html"]
    assert f'alt="{html.escape(alt, quote=True)}"' in page          # quotes and & escaped
    assert "<figcaption>Torque of a slow reach.</figcaption>" in page
    png = data["image/png"]      # base64 text (or bytes, depending on IPython)
    src = png if isinstance(png, str) else base64.b64encode(png).decode()
    assert f'src="data:image/png;base64,{src}"' in page          # the same picture
    assert not plt.fignum_exists(fig.number)                     # shown once, then closed


def test_show_draws_once_the_picture_the_inline_backend_draws_twice(shell):
    """As the kernel's inline backend is set up (bbox_inches='tight'), show draws once."""
    import base64
    import io

    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats
    from PIL import Image

    from bmc.plotting import _show

    sh = InteractiveShell.instance()
    select_figure_formats(sh, {"png"}, bbox_inches="tight")

    def figure(title="Elbow moment"):
        fig, ax = plt.subplots(figsize=(5, 3), layout="constrained")
        ax.plot(np.linspace(0, 1, 50), np.sin(np.linspace(0, 6, 50)), label="$\\tau_2$")
        ax.set(title=title, xlabel="time [s]", ylabel="moment [N m]")
        ax.legend()
        return fig

    def pixels(png):
        return np.asarray(Image.open(io.BytesIO(base64.b64decode(png))).convert("RGBA"),
                          dtype=float)

    fig = figure()
    backend = pixels(sh.display_formatter.format(fig)[0]["image/png"])
    plt.close(fig)
    fig = figure()
    drawn = fig.canvas.draw
    draws = []
    fig.canvas.draw = lambda: (draws.append(1), drawn())[1]
    once = _show._inline_png(sh, fig)
    plt.close(fig)
    assert len(draws) == 1
    ours = pixels(once)
    # the same box; the backend renders the cropped figure shifted by a fraction of a
    # pixel, so the antialiased edges of lines and glyphs differ (0.6 of 255 on average;
    # shifted by one whole pixel the pictures would differ by 3 to 6)
    assert ours.shape == backend.shape
    assert np.abs(ours - backend).mean() < 1.5
    # a title far wider than the figure sticks out of it: the backend's own path
    fig = figure("a title far wider than this small figure " * 3)
    assert _show._inline_png(sh, fig) is None
    plt.close(fig)
    plotting.show(figure(), alt="An elbow moment over 1 s, between -1 and 1 N m.")
    assert shell[-1][0]["image/png"]


def test_show_takes_a_drawing_or_the_drawings_of_one_figure(shell, monkeypatch):
    # what show passes on, not the pictures' layout (tests/test_figures.py checks figures)
    monkeypatch.setenv("BMC_FIGURE_CHECK", "off")
    from bmc import drawing
    from bmc.chain import PlanarChain

    arm = PlanarChain([0.3, 0.35], [0.13, 0.15], [2.0, 1.5], [0.02, 0.018])
    d = drawing.model_sketch(arm, [0.2, 0.4])
    text = d.describe()
    plotting.show(d)
    assert shell[-1][0]["text/plain"] == text and shell[-1][1]["image/png"]["alt"] == text
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(7, 3.5), layout="constrained")
    pair = [drawing.free_body_diagram(arm, [0.2, 0.4], segment=k, ax=ax)
            for k, ax in enumerate(axes)]
    plotting.show(pair)
    assert shell[-1][0]["text/plain"] == " ".join(p.describe() for p in pair)
    plotting.show(drawing.model_sketch(arm, [0.2, 0.4]), alt="A two-link arm.")
    assert shell[-1][0]["text/plain"] == "A two-link arm."


def test_show_refuses_no_text_alternative_and_drawings_of_two_figures(shell):
    import matplotlib.pyplot as plt

    from bmc import drawing

    fig, _ = plt.subplots()
    with pytest.raises(TypeError, match="alt must be a sentence"):
        plotting.show(fig)
    with pytest.raises(TypeError, match="alt must be a sentence"):
        plotting.show(fig, alt="  ")
    with pytest.raises(TypeError, match="caption"):
        plotting.show(fig, alt="x", caption="")
    with pytest.raises(TypeError, match="figure must be a Matplotlib Figure"):
        plotting.show("figure", alt="x")
    a = drawing.model_sketch([[0, 0], [1, 0]])
    b = drawing.model_sketch([[0, 0], [0, 1]])
    with pytest.raises(ValueError, match="share one figure"):
        plotting.show([a, b])
    assert shell == []


def test_show_checks_the_figure_when_asked(shell, monkeypatch):
    import matplotlib.pyplot as plt

    def bad():
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.text(0.5, 0.5, "knee", transform=ax.transAxes)
        ax.text(0.51, 0.5, "hip", transform=ax.transAxes)
        return fig

    monkeypatch.delenv(plotting.CHECK_VARIABLE, raising=False)
    plotting.show(bad(), alt="Two words.")            # a student's run: no check
    monkeypatch.setenv(plotting.CHECK_VARIABLE, "warn")
    with pytest.warns(plotting.FigureWarning, match="overlap: text 'knee' overlaps text 'hip'"):
        plotting.show(bad(), alt="Two words.")
    assert len(shell) == 2                            # a warning still shows the figure
    monkeypatch.setenv(plotting.CHECK_VARIABLE, "error")
    figure = bad()
    with pytest.raises(ValueError, match="1 defect"):
        plotting.show(figure, alt="Two words.")
    assert len(shell) == 2 and not plt.fignum_exists(figure.number)  # not shown, closed
    monkeypatch.setenv(plotting.CHECK_VARIABLE, "yes please")
    with pytest.raises(ValueError, match="BMC_FIGURE_CHECK must be"):
        plotting.show(bad(), alt="Two words.")


def test_legend_outside_sits_below_the_axes_or_beside():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
    ax.plot([0, 1], [0, 1], label="hip")
    ax.plot([0, 1], [1, 0], "--", label="knee")
    ax.set_xlabel("time [s]")
    legend = plotting.legend_outside(ax)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box, area = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    label = ax.xaxis.label.get_window_extent(renderer)
    assert box.y1 <= label.y0 + 1 and box.y1 < area.y0      # under the x label
    assert plotting.check_figure(fig) == []
    right = plotting.legend_outside(ax, side="right")
    fig.canvas.draw()
    assert right.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1
    with pytest.raises(ValueError, match="side"):
        plotting.legend_outside(ax, side="top")
    plt.close(fig)


def test_tight_png_is_savefig_s_tight_picture_drawn_once():
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    def figure(title="Knee angle"):
        fig = Figure(figsize=(4, 3), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        ax.plot([0, 1, 2], [0, 60, 10], marker="o")
        ax.set(title=title, xlabel="time [s]", ylabel="knee flexion [deg]")
        return fig

    def pixels(png):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"), dtype=float)

    buffer = io.BytesIO()
    figure().savefig(buffer, format="png", bbox_inches="tight")
    ours = pixels(plotting.tight_png(figure()))
    theirs = pixels(buffer.getvalue())
    assert ours.shape == theirs.shape
    # a fraction of a pixel of shift: antialiased edges differ (0.6 of 255 on average)
    assert np.abs(ours - theirs).mean() < 1.5
    # a title sticking out of the figure: savefig's own picture, or None when asked
    wide = figure("a title far wider than this small figure " * 3)
    assert plotting.tight_png(wide, fallback=False) is None
    buffer = io.BytesIO()
    wide.savefig(buffer, format="png", bbox_inches="tight")
    assert pixels(plotting.tight_png(wide)).shape == pixels(buffer.getvalue()).shape
