"""Shared fixtures and session set-up for the whole test suite."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]

# The running data: CI sets BMC_DATA_DIR to ../shared/data/isb-running. A developer working in
# the usual layout (this repository with shared/ beside it) gets the same default, so that
# tests and notebook kernels (which inherit the environment) never try the network.
_SIBLING_DATA = REPO.parent / "shared" / "data" / "isb-running"
if "BMC_DATA_DIR" not in os.environ and _SIBLING_DATA.is_dir():
    os.environ["BMC_DATA_DIR"] = str(_SIBLING_DATA)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# Non-interactive matplotlib backend for tests (notebooks choose their own, inline).
os.environ.setdefault("MPLBACKEND", "Agg")
# Figures a notebook shows with bmc.plotting.show are checked (bmc.plotting.check_figure) in
# the kernels nbval starts when BMC_FIGURE_CHECK is "error" (a defect fails the cell) or
# "warn". It is "error": every figure of the six notebooks passes the checker (47 figures;
# `python tools/check_notebook_figures.py` also catches figures shown without `show`).
# BMC_FIGURE_CHECK=off in the environment skips the check for a quick local run.
NOTEBOOK_FIGURE_CHECK = "error"
os.environ.setdefault("BMC_FIGURE_CHECK", NOTEBOOK_FIGURE_CHECK)


@pytest.fixture
def rng() -> np.random.Generator:
    """A seeded generator, so that every random test is reproducible."""
    return np.random.default_rng(20261122)


@pytest.fixture(scope="session")
def repo() -> Path:
    """Root of the repository."""
    return REPO


# Kuo's standing body and its sway benchmark (tests of bmc.models.standing, bmc.least_squares
# and the Kuo explorer). Session scope: the simulation is deterministic and read-only in the tests.
@pytest.fixture(scope="session")
def kuo_model():
    """Kuo's four-segment standing body with the paper's Appendix-A parameters."""
    from bmc.models import standing

    return standing.FourSegmentModel()


@pytest.fixture(scope="session")
def kuo_sway(kuo_model):
    """The seeded 4 s sway benchmark at 60 Hz on :func:`kuo_model`."""
    from bmc.models import standing

    return standing.simulate_sway(kuo_model)


@pytest.fixture(scope="session")
def kuo_states():
    """Seven random states near upright: segment angles, velocities, accelerations."""
    from bmc.models import standing

    rng = np.random.default_rng(20240607)
    n = 7
    phi = np.array(standing.POSTURE) + rng.uniform(-0.3, 0.3, (n, 3))
    return phi, rng.uniform(-2, 2, (n, 3)), rng.uniform(-5, 5, (n, 3))


# --- Bad-input tables (tests/test_bad_input_<module>.py) -----------------------------------
# Each case calls a public function with one bad argument and expects an exception of the
# given type whose message names that argument. The counts are printed at the end of the run
# ("bad-input cases: N clear errors of M tried"), summed over xdist workers.
_BAD_INPUT = {"tried": 0, "clear": 0}


@pytest.fixture
def refuses():
    """Return ``check(func, kwargs, exc, arg)``: the call must raise ``exc`` naming ``arg``."""

    def check(func, kwargs, exc, arg):
        _BAD_INPUT["tried"] += 1
        with pytest.raises(exc) as info:
            func(**kwargs)
        message = str(info.value)
        assert re.search(rf"(?<![\w.]){re.escape(arg)}(?!\w)", message), (
            f"the message does not name {arg!r}: {message}")
        _BAD_INPUT["clear"] += 1
        return message

    return check


@pytest.fixture
def refuses_in_place():
    """Return ``check(make_box, arg)``: the explorer ``make_box()`` shows an error naming ``arg``.

    The error must be in the explorer's own ``Output`` (``box.errors``), as one stream on
    stderr; counted with the bad-input cases above.
    """

    def check(make_box, arg):
        _BAD_INPUT["tried"] += 1
        box = make_box()
        outputs = box.errors.outputs
        assert len(outputs) == 1 and outputs[0]["name"] == "stderr", outputs
        message = outputs[0]["text"]
        assert re.search(rf"(?<![\w.]){re.escape(arg)}(?!\w)", message), (
            f"the message does not name {arg!r}: {message}")
        _BAD_INPUT["clear"] += 1
        return message

    return check


@pytest.fixture
def record_sent():
    """Return ``record(box)``: the list of messages the explorer's view sends from now on.

    Each message's buffers are put back in their places, as the browser puts them: in a
    patch's ``items``, in a sweep answer's ``frames`` (bmc.widgets._sweep).
    """

    def record(box) -> list:
        sent: list = []

        def send(content, buffers=None):
            home = content["frames"] if content.get("type") == "frames" else content.get("items")
            for path, buffer in zip(content.get("paths", []), buffers or [], strict=True):
                target = home
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = buffer
            sent.append(content)

        box.view.send = send
        return sent

    return record


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the counts to the controller
        workeroutput["bad_input"] = dict(_BAD_INPUT)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    counts = getattr(node, "workeroutput", {}).get("bad_input", {})
    for key in _BAD_INPUT:
        _BAD_INPUT[key] += counts.get(key, 0)


def pytest_terminal_summary(terminalreporter):
    if _BAD_INPUT["tried"]:
        terminalreporter.write_line(
            f"bad-input cases: {_BAD_INPUT['clear']} clear errors of {_BAD_INPUT['tried']} tried"
        )


def run_notebook(path: Path, check: str, *, env: dict[str, str] | None = None,
                 timeout: int = 900) -> dict:
    """Run a notebook top to bottom in a fresh kernel, then ``check``; return its JSON.

    ``check`` is Python run in the notebook's namespace after its last cell; it must print
    one JSON object (the quantities a test compares). ``env`` is added to the kernel's
    environment, e.g. ``{"BMC_PRECOMPUTED": "verify"}`` to recompute every stored result of
    :mod:`bmc.precomputed` and compare it with the file.
    """
    import json

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(check))
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = "".join(out.get("text", "") for out in nb.cells[-1].outputs
                   if out.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def notebook_runner():
    """:func:`run_notebook`, for tests of a notebook's own variables."""
    return run_notebook
