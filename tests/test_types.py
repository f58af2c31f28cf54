"""The type checker of the core and the formulations (mypy, strict; pyproject.toml [tool.mypy]).

It, not a pattern over the source, guards that the formulations take the one planar model
interface (:class:`bmc.planar.PlanarModel`) and that no model overrides its algorithms
(``typing.final``). The second test shows that the check can fail: it feeds mypy the
mistakes it exists to catch.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("mypy", reason="mypy is in the test extra (pip install -e .[test])")


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    # the configuration (files, strict) is the project's; the cache stays out of the tree
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", "/dev/null", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_core_and_the_formulations_type_check():
    run = _mypy()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


WRONG = '''
import numpy as np
from bmc import least_squares, reactions
from bmc.chain import PlanarChain


class Duck:
    """A body with the standing model's methods, but not a planar model."""

    def mass_matrix(self, q: np.ndarray) -> np.ndarray:
        return np.eye(3)


least_squares.system(Duck(), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3))
reactions.reactions_augmented(PlanarChain([1.0], [0.5], [1.0], [0.1]), np.zeros(1),
                              np.zeros(1), np.zeros(1))


class Cheat(PlanarChain):
    def inverse_dynamics(self, q, qd, qdd, **kw):  # an algorithm overridden by a model
        return q
'''


def test_the_checker_refuses_a_duck_model_a_missing_argument_and_an_override(tmp_path):
    sample = tmp_path / "wrong.py"
    sample.write_text(WRONG)
    run = _mypy(str(sample))  # the project's configuration, on this file
    out = run.stdout
    assert run.returncode == 1, out
    assert 'incompatible type "Duck"; expected "PlanarModel"' in out, out
    assert 'Missing positional argument "h"' in out, out
    assert 'Cannot override final attribute "inverse_dynamics"' in out, out
