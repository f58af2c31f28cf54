"""Execute course notebooks in a fresh kernel and store them with clean metadata.

Usage::

    python tools/run_notebooks.py notebooks/01_one_link.ipynb [more.ipynb ...]
    python tools/run_notebooks.py --strip-only notebooks/*.ipynb

Each notebook runs top to bottom in a new kernel with ``notebooks/`` as working directory
(as nbval and JupyterLab run it), then is written back with outputs kept and metadata noise
removed: execution counts renumbered 1, 2, 3 ..., per-cell metadata other than ``tags``,
notebook metadata other than the kernel spec and language name. ``OPENBLAS_NUM_THREADS=1``
is set so the stored numbers are produced the way CI reproduces them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat

KEEP_CELL_METADATA = ("tags",)


def strip(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove execution counts and editor metadata, keep outputs and tags."""
    nb.metadata = nbformat.from_dict(
        {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                           "name": "python3"},
            "language_info": {"name": "python"},
        }
    )
    count = 0
    for cell in nb.cells:
        cell.metadata = nbformat.from_dict(
            {k: v for k, v in cell.metadata.items() if k in KEEP_CELL_METADATA}
        )
        cell.pop("id", None)
        if cell.cell_type == "code":
            # nbval needs a count on every cell that has outputs; renumbering 1, 2, 3 ...
            # keeps that without the noise of a session's real counts.
            count += 1
            cell.execution_count = count
            for out in cell.outputs:
                if "execution_count" in out:
                    out.execution_count = count
    nb.nbformat, nb.nbformat_minor = 4, 4
    return nb


def execute(path: Path, timeout: int) -> float:
    """Run ``path`` in a fresh kernel and return the wall time [s]."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    start = time.perf_counter()
    NotebookClient(
        nb, timeout=timeout, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    elapsed = time.perf_counter() - start
    nbformat.write(strip(nb), path)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--strip-only", action="store_true", help="do not execute")
    parser.add_argument("--timeout", type=int, default=600, help="per-cell timeout [s]")
    args = parser.parse_args(argv)
    for path in args.notebooks:
        if args.strip_only:
            nbformat.write(strip(nbformat.read(path, as_version=4)), path)
            print(f"stripped {path}")
        else:
            print(f"executed {path} in {execute(path, args.timeout):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
