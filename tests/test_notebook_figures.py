"""The figure checker where notebooks run: in nbval's kernels and in the report tool.

``BMC_FIGURE_CHECK=error`` makes ``bmc.plotting.show`` fail a notebook cell whose figure has
a defect (what ``pytest --nbval`` runs see when ``tests/conftest.py`` switches it on);
``tools/check_notebook_figures.py`` checks every figure a notebook displays, however it is
displayed, and names the cell.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]

GOOD = ("import matplotlib.pyplot as plt\nimport bmc\nfig, ax = plt.subplots(figsize=(6, 3))\n"
        "ax.plot([0, 1], [0, 1], label='hip')\nax.set_xlabel('time [s]')\n"
        "bmc.plotting.show(fig, alt='A straight line.')")
BAD = ("fig, ax = plt.subplots(figsize=(6, 3))\nax.text(0.5, 0.5, 'knee', transform=ax.transAxes)"
       "\nax.text(0.51, 0.5, 'hip', transform=ax.transAxes)\n")


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(c[3:]) if c.startswith("md:")
                else nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def _run(nb, tmp_path, **env):
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
        return None
    except CellExecutionError as error:
        return str(error)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_nbval_kernels_fail_a_defective_figure_only_when_asked(tmp_path):
    cells = ("%matplotlib inline", GOOD, BAD + "bmc.plotting.show(fig, alt='Two words.')")
    assert _run(_notebook(*cells), tmp_path, BMC_FIGURE_CHECK="off") is None
    error = _run(_notebook(*cells), tmp_path, BMC_FIGURE_CHECK="error")
    assert error is not None and "overlap: text 'knee' overlaps text 'hip'" in error
    assert "A straight line" not in error              # the good figure passed


def test_the_report_tool_names_each_defective_figure_and_its_cell(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "check_notebook_figures", REPO / "tools" / "check_notebook_figures.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    path = tmp_path / "figures.ipynb"
    # GOOD and the last cell show their figures with bmc.plotting.show, which draws the
    # picture without IPython's print_figure (the tool once missed every figure after the
    # first one shown that way)
    nbformat.write(_notebook("%matplotlib inline", "md:## A section", GOOD, "x = 1",
                             BAD + "plt.show()", "md:## Another", BAD,
                             BAD + "bmc.plotting.show(fig, alt='Two words.')"), path)
    report = tool.check_notebook(path)
    assert [r["cell"] for r in report] == [2, 4, 6, 7]    # every figure shown, in its cell
    assert report[0]["problems"] == []
    for entry in report[1:]:
        assert entry["problems"] == ["overlap: text 'knee' overlaps text 'hip'"]
    assert tool.main([str(path)]) == 1
    nbformat.write(_notebook("%matplotlib inline", GOOD), path)
    assert tool.main([str(path)]) == 0


@pytest.mark.parametrize("mode", ["off", "error"])
def test_notebook_kernels_inherit_the_switch(mode, tmp_path):
    # nbval starts its kernels from the pytest process, where tests/conftest.py sets it
    nb = _notebook("import os\nprint(os.environ.get('BMC_FIGURE_CHECK'))")
    _run(nb, tmp_path, BMC_FIGURE_CHECK=mode)
    assert nb.cells[0].outputs[0]["text"].strip() == mode
