"""Property-based fuzzing of every public callable of bmc (issue 34).

For every callable (``inventory.public_callables``: ``__all__`` of every public module and
the public methods of its classes, with the explorers, the checks and the drawings), a
strategy in ``specs_*.py`` draws valid calls and hostile ones. The property
(``harness.outcome``): a valid call returns a finite result of the documented shape; a
hostile call does that or raises ``ValueError``/``TypeError`` whose message names the
argument and what arrived; never another exception type, a NaN, a warning, more than the
CPU or memory budget.
"""

from __future__ import annotations

import pytest
import specs  # noqa: F401  (registers every strategy)
from harness import REGISTRY, calls, outcome
from hypothesis import given, seed, settings
from inventory import public_callables

SEED = 20261122
NAMES = sorted(REGISTRY)


def test_every_public_callable_has_a_strategy():
    public = set(public_callables())
    missing = sorted(public - set(REGISTRY) - set(specs.EXEMPT))
    assert not missing, f"public callables without a fuzzing strategy: {missing}"
    stale = sorted((set(REGISTRY) | set(specs.EXEMPT)) - public)
    assert not stale, f"strategies for names that are not public callables: {stale}"


def _run(name: str, hostile: bool) -> None:
    spec = REGISTRY[name]
    scale = settings.default.max_examples / 100

    @seed(SEED)
    @settings(max_examples=max(1, round(spec.examples * scale)))
    @given(call=calls(spec, hostile=hostile))
    def check(call):
        failure = outcome(call)
        assert failure is None, str(failure)

    # one database key per callable and kind of call (as the pytest plugin gives each
    # parametrized test), so that a failure is replayed for the right callable
    check.hypothesis.inner_test._hypothesis_internal_add_digest = (
        f"{name}:{'hostile' if hostile else 'valid'}".encode())
    check()


@pytest.mark.parametrize("name", NAMES)
def test_valid_calls_return(name):
    _run(name, hostile=False)


@pytest.mark.parametrize("name", NAMES)
def test_hostile_calls_fail_clearly(name):
    _run(name, hostile=True)
