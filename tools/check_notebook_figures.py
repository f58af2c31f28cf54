"""Check every figure a notebook shows with bmc.plotting.check_figure; report the defects.

Runs each notebook top to bottom in a fresh kernel (working directory ``notebooks/``, as
``tools/run_notebooks.py`` does) with one cell put first that wraps IPython's
``print_figure`` and the check of ``bmc.plotting.show`` (which draws its picture without
``print_figure``): every Matplotlib figure the notebook displays, through
``bmc.plotting.show``, ``plt.show()`` or as a cell's last value, is checked once, just
before it is turned into a picture. Nothing is written back to the notebook.

    python tools/check_notebook_figures.py                         # every course notebook
    python tools/check_notebook_figures.py notebooks/02_two_link.ipynb --json report.json

Cells are numbered as in the notebook's list of cells, from 0 (markdown cells count), the
numbering the issues use ("notebook 2, cell 11"). The exit status is 1 when a figure has a
defect. ``BMC_FIGURE_CHECK=error`` does the same check inside ``pytest --nbval`` for the
figures a notebook shows with ``bmc.plotting.show``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

HOOK = r'''
import json as _json, os as _os
import IPython.core.pylabtools as _pylabtools
from IPython import get_ipython as _get_ipython
from bmc.plotting import check_figure as _check_figure
_print_figure = _pylabtools.print_figure
import bmc.plotting._show as _show
_seen = set()  # figures show() has checked in this cell, by id (no second check)
_get_ipython().events.register("post_run_cell", lambda *args: _seen.clear())
def _record(fig):
    problems = [str(p) for p in _check_figure(fig)]
    with open(_os.environ["BMC_FIGURE_REPORT"], "a") as out:
        out.write(_json.dumps({"cell": _get_ipython().user_ns.get("__bmc_cell__"),
                               "problems": problems}) + "\n")
def _checked(fig, *args, **kwargs):
    if fig.axes and id(fig) not in _seen:
        _record(fig)
    _seen.discard(id(fig))
    return _print_figure(fig, *args, **kwargs)
def _show_check(fig):  # show() draws its picture itself, without print_figure
    _record(fig)
    _seen.add(id(fig))
_pylabtools.print_figure = _checked
_show._check = _show_check
'''


def check_notebook(path: Path, *, timeout: int = 600) -> list[dict]:
    """Run ``path`` and return one record per figure shown: its cell and its defects.

    Parameters
    ----------
    path : pathlib.Path
        The notebook.
    timeout : int, optional
        Longest time one cell may run [s]. Default 600.

    Returns
    -------
    list of dict
        ``{"cell": index in the notebook's cells, "source": first line, "problems": [...]}``
        for every figure displayed, in order.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    sources = [cell.source for cell in nb.cells]
    for i, cell in enumerate(nb.cells):  # each cell says which it is (a cell magic stays first)
        if cell.cell_type == "code" and not cell.source.lstrip().startswith("%%"):
            cell.source = f"__bmc_cell__ = {i}\n{cell.source}"
    nb.cells.insert(0, nbformat.v4.new_code_cell(HOOK))
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "figures.jsonl"
        report.touch()
        env = {"BMC_FIGURE_REPORT": str(report), "BMC_FIGURE_CHECK": "off"}
        saved = {key: os.environ.get(key) for key in env}
        os.environ.update(env)  # the kernel inherits the environment
        try:
            NotebookClient(nb, timeout=timeout, kernel_name="python3",
                           resources={"metadata": {"path": str(path.parent)}}).execute()
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        lines = report.read_text().splitlines()
    out = []
    for line in lines:
        entry = json.loads(line)
        index = entry["cell"]
        first = (sources[index].strip().splitlines() or [""])[0] if index is not None else ""
        out.append({"cell": index, "source": first[:70], "problems": entry["problems"]})
    return out


def main(argv: list[str] | None = None) -> int:
    """Check the notebooks named (default: every course notebook); print the defects."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    report, flagged = {}, 0
    for path in paths:
        figures = check_notebook(path)
        report[path.name] = figures
        bad = [f for f in figures if f["problems"]]
        flagged += len(bad)
        print(f"{path.name}: {len(figures)} figure(s), {len(bad)} with defects")
        for f in bad:
            print(f"  cell {f['cell']} ({f['source']!r}):")
            for problem in f["problems"]:
                print(f"    {problem}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
