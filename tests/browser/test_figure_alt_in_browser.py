"""A figure shown with ``bmc.plotting.show`` reaches a screen reader in real JupyterLab.

JupyterLab 4's image renderer draws an ``image/png`` output as an ``<img>`` with no ``alt``
at all: the ``alt`` in the output's metadata is not read (nbconvert reads it; JupyterLab and
myst-nb do not). ``show`` therefore also emits ``text/html``, a ``<figure>`` with the PNG as
``<img alt="...">`` and the caption as ``<figcaption>``, which JupyterLab prefers to the PNG.
This test opens a notebook in JupyterLab in headless Chromium twice:

1. as stored, never run here: its outputs are *untrusted* (the notebook is not signed), so
   JupyterLab sanitizes the HTML; the picture must still load (a ``data:`` image survives
   the sanitizer), with its ``alt`` and caption;
2. after running every cell in the kernel: the outputs are *trusted*; the same must hold.

The controls: a bare ``image/png`` output (``plt.show()``'s form), and one with an ``alt``
in its output metadata, both render with no ``alt`` attribute at all.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FOLDER = "_figure_alt"  # inside the server's root
ALT = "Elbow torque over a 0.5 s flexion: from 0 N m to a peak of 2.1 N m at 0.25 s."
CAPTION = "The torque of one slow flexion."
SOURCE = [
    "import matplotlib\nmatplotlib.use('module://matplotlib_inline.backend_inline')\n"
    "import matplotlib.pyplot as plt\nimport numpy as np\nimport bmc",
    "t = np.linspace(0, 0.5, 51)\nfig, ax = plt.subplots(figsize=(6, 3))\n"
    "ax.plot(t, 2.1 * np.sin(2 * np.pi * t), label='elbow')\n"
    "ax.set(xlabel='time [s]', ylabel='torque [N m]')\n"
    f"bmc.plotting.show(fig, alt={ALT!r}, caption={CAPTION!r})",
    "d = bmc.drawing.free_body_diagram(bmc.PlanarChain([0.3], [0.13], [1.5], [0.012]),"
    " [0.5])\nbmc.plotting.show(d)",
    "fig, ax = plt.subplots(figsize=(4, 2))\nax.plot([0, 1], [0, 1])\nplt.show()",
    # a PNG with an alt in its metadata only (nbconvert's convention)
    "import io\nfrom IPython.display import publish_display_data\n"
    "fig, ax = plt.subplots(figsize=(4, 2))\nbuf = io.BytesIO()\n"
    "fig.savefig(buf, format='png')\nplt.close(fig)\n"
    "publish_display_data({'image/png': buf.getvalue(), 'text/plain': 'a line'},"
    " {'image/png': {'alt': 'an alt in the metadata'}})",
]

JS_OPEN = """
async ({path, timeout}) => {
  const open = async () => {
    const app = window.jupyterapp;
    await app.started;
    await app.restored;
    const panel = await app.commands.execute(
      'docmanager:open', {path, factory: 'Notebook', kernel: {name: 'python3'}});
    window.__altPanel = panel;
    await panel.context.ready;
    app.shell.activateById(panel.id);
    return 'opened';
  };
  const late = new Promise((resolve) => setTimeout(() => resolve('timed out'), timeout));
  return Promise.race([open(), late]);
}
"""

# Every picture in the notebook's outputs: its alt, whether it loaded, its caption, and
# whether JupyterLab counts its output as trusted.
JS_PICTURES = """
() => Array.from(window.__altPanel.node.querySelectorAll('.jp-OutputArea-output img'))
  .map((img) => {
    const output = img.closest('.jp-OutputArea-output');
    const figure = img.closest('figure');
    const caption = figure && figure.querySelector('figcaption');
    return {
      alt: img.hasAttribute('alt') ? img.getAttribute('alt') : null,
      loaded: img.complete && img.naturalWidth > 0,
      caption: caption ? caption.textContent : null,
      trusted: output.classList.contains('jp-mod-trusted'),
      renderer: output.classList.contains('jp-RenderedHTML') ? 'html'
        : output.classList.contains('jp-RenderedImage') ? 'image' : 'other',
    };
  })
"""


@pytest.fixture(scope="module")
def notebook(lab_server) -> str:
    """The test notebook, run once by nbclient (outputs stored, not signed), in the root."""
    import nbformat
    from nbclient import NotebookClient

    folder = Path(lab_server.root) / FOLDER
    folder.mkdir(exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in SOURCE]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    nbformat.write(nb, folder / "figure_alt.ipynb")
    return f"{FOLDER}/figure_alt.ipynb"


def _pictures(page, count: int, deadline: float) -> list[dict]:
    while True:
        pictures = page.evaluate(JS_PICTURES)
        if len(pictures) >= count and all(p["loaded"] for p in pictures):
            return pictures
        if time.monotonic() > deadline:
            return pictures
        time.sleep(0.25)


def _check(pictures: list[dict], *, trusted: bool, drawing_alt: str) -> None:
    assert len(pictures) == 4, pictures
    shown, drawn, bare, metadata_only = pictures
    assert all(p["loaded"] for p in pictures), f"a picture did not load: {pictures}"
    assert [p["trusted"] for p in pictures] == [trusted] * 4
    assert shown == {"alt": ALT, "loaded": True, "caption": CAPTION, "trusted": trusted,
                     "renderer": "html"}
    assert drawn["alt"] == drawing_alt and drawn["renderer"] == "html"
    assert drawn["alt"].startswith("Free-body diagram of segment 1")
    # the controls: plt.show()'s bare PNG has no alt in JupyterLab, and neither has a PNG
    # whose output metadata holds one (JupyterLab 4's image renderer does not read it)
    assert bare["renderer"] == "image" and bare["alt"] is None
    assert metadata_only["renderer"] == "image" and metadata_only["alt"] is None


def test_show_gives_the_picture_its_alt_and_caption_in_jupyterlab(lab_page, lab_server,
                                                                  notebook):
    import nbformat

    stored = nbformat.read(Path(lab_server.root) / notebook, as_version=4)
    drawing_alt = stored.cells[2].outputs[0]["data"]["text/plain"]
    page = lab_page
    page.goto(lab_server.lab_url(), timeout=90_000)
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
    assert page.evaluate(JS_OPEN, {"path": notebook, "timeout": 90_000}) == "opened"
    # 1. as stored: untrusted outputs, sanitized HTML
    assert page.evaluate("() => window.__altPanel.content.model.cells.get(1).trusted") is False
    _check(_pictures(page, 4, time.monotonic() + 30), trusted=False, drawing_alt=drawing_alt)
    # 2. run in the kernel: trusted outputs
    page.wait_for_function(
        "() => { const s = window.__altPanel.sessionContext.session;"
        " return s && s.kernel && s.kernel.status === 'idle'; }", timeout=90_000)
    page.evaluate("""() => {
        window.__altDone = false;
        const commands = window.jupyterapp.commands;
        commands.execute('notebook:clear-all-cell-outputs')
          .then(() => commands.execute('notebook:run-all-cells'))
          .then(() => { window.__altDone = true; });
    }""")
    page.wait_for_function(
        "() => window.__altDone && window.__altPanel.sessionContext.session.kernel.status"
        " === 'idle' && window.__altPanel.content.model.cells.get(4).outputs.length > 0",
        timeout=120_000)
    _check(_pictures(page, 4, time.monotonic() + 30), trusted=True, drawing_alt=drawing_alt)
