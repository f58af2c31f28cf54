"""Hypothesis settings of the fuzzing suite (issue 34).

Profiles (``BMC_HYPOTHESIS_PROFILE``, default ``ci``):

- ``ci``: 15 % of each callable's stated number of examples (``Spec.examples``), at
  least one; ``full``: all of them. Both with a fixed seed
  (``@seed`` in the tests, so every run draws the same calls) and no example database
  (nothing is written into the repository; a failure prints the call and the
  ``@reproduce_failure`` blob); no per-example deadline (the property has its own CPU and
  memory budgets, see ``harness.py``).
- ``long``: 40 times as many examples, for ``benchmarks/fuzz.py`` or a nightly run, with
  an example database in the temporary directory (``$TMPDIR/bmc-hypothesis/examples``), outside
  the repository, so that a failure found once is replayed first by the next long run.

A profile's ``max_examples`` is the scale: 100 means ``Spec.examples`` as stated.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

#: Hypothesis' own files (its caches; the long runs' database), outside the repository.
HOME = Path(tempfile.gettempdir()) / "bmc-hypothesis"
set_hypothesis_home_dir(HOME)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: The long runs' database: outside the repository, replayed by the next long run.
DATABASE = DirectoryBasedExampleDatabase(str(HOME / "examples"))
_COMMON = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large, HealthCheck.differing_executors],
)
# CI: 15 % of each callable's stated examples, at least one valid and one hostile call
# each (about 520 calls, under a minute on the course's 2-core machine under load).
settings.register_profile("ci", max_examples=15, database=None, **_COMMON)
# Every stated example (about 3500 calls, several minutes): BMC_HYPOTHESIS_PROFILE=full.
settings.register_profile("full", max_examples=100, database=None, **_COMMON)
settings.register_profile("long", max_examples=4000, database=DATABASE, **_COMMON)
# A quick look while writing a strategy: no shrinking, few examples.
settings.register_profile("dev", max_examples=30,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate], database=None,
                          **_COMMON)
settings.load_profile(os.environ.get("BMC_HYPOTHESIS_PROFILE", "ci"))

# The helpers are modules of this folder, not tests (nor doctests): collect them once, as
# the imports above make them.
collect_ignore = ["harness.py", "hostile.py", "inventory.py"]
collect_ignore_glob = ["specs*.py"]
