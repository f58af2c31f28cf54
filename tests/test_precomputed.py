"""bmc.precomputed: a stored result is read back only for the same code and arguments.

The functions under test are written to a module file, so that ``inspect.getsource`` finds
them as it finds a notebook cell's code; each test gets its own storage folder.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import numpy as np
import pytest

from bmc import precomputed

CODE = '''
import numpy as np
from bmc import precomputed

CALLS = []
RECORD = CALLS.append  # a callable: not part of the key
SCALE = {scale}


def helper(x):
    return x * {factor}


@precomputed.cached("t_squares")
def squares(n, *, label="sq"):
    RECORD(n)
    x = helper(np.arange(n, dtype=float)) * SCALE
    return {{"x": x ** 2, "label": label, "n": n, "nested": {{"total": float(x.sum())}},
            "names": ["a", "b"]}}
'''


def _module(tmp_path, name, scale=1.0, factor=1.0):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(CODE.format(scale=scale, factor=factor)))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def store(tmp_path, monkeypatch):
    folder = tmp_path / "store"
    monkeypatch.setenv("BMC_PRECOMPUTED_DIR", str(folder))
    return folder


def test_written_then_read_back_without_computing(tmp_path, store, monkeypatch):
    mod = _module(tmp_path, "m_write")
    monkeypatch.setenv("BMC_PRECOMPUTED", "write")
    first = mod.squares(4)
    assert len(list(store.glob("t_squares.*.npz"))) == 1 and mod.CALLS == [4]
    monkeypatch.setenv("BMC_PRECOMPUTED", "read")
    again = mod.squares(4)
    assert mod.CALLS == [4]  # read back: not computed again
    np.testing.assert_array_equal(again["x"], [0.0, 1.0, 4.0, 9.0])
    assert again["label"] == "sq" and again["n"] == 4 and again["nested"]["total"] == 6.0
    assert list(again["names"]) == ["a", "b"]
    # the same structure and types whether computed or read
    assert first.keys() == again.keys() and type(first["n"]) is type(again["n"])
    assert not again["x"].flags.writeable


def test_other_arguments_code_helpers_or_constants_compute_afresh(tmp_path, store,
                                                                  monkeypatch):
    mod = _module(tmp_path, "m_key")
    monkeypatch.setenv("BMC_PRECOMPUTED", "write")
    mod.squares(4)
    monkeypatch.setenv("BMC_PRECOMPUTED", "read")
    mod.squares(5)                       # another argument
    mod.squares(4, label="other")        # another keyword
    assert mod.CALLS == [4, 5, 4]
    for i, (scale, factor) in enumerate(((2.0, 1.0), (1.0, 3.0))):
        other = _module(tmp_path, f"m_key{i}", scale=scale, factor=factor)
        result = other.squares(4)        # a changed constant, then a changed helper
        assert other.CALLS == [4]
        assert result["x"][1] == (scale * factor) ** 2


def test_verify_accepts_the_same_result_and_refuses_a_changed_one(tmp_path, store,
                                                                  monkeypatch):
    mod = _module(tmp_path, "m_verify")
    monkeypatch.setenv("BMC_PRECOMPUTED", "verify")
    with pytest.raises(precomputed.PrecomputedError, match="no stored result"):
        mod.squares(3)
    monkeypatch.setenv("BMC_PRECOMPUTED", "write")
    mod.squares(3)
    monkeypatch.setenv("BMC_PRECOMPUTED", "verify")
    mod.squares(3)                                   # the same: accepted
    with pytest.raises(precomputed.PrecomputedError, match="no stored result"):
        mod.squares(4)                               # other arguments: another file
    other = _module(tmp_path, "m_verify2", scale=2.0)
    with pytest.raises(precomputed.PrecomputedError, match="other code or arguments"):
        other.squares(3)                             # the same arguments, other code
    # a stored number that no longer comes out (the library changed under the code)
    (path,) = store.glob("t_squares.*.npz")
    with np.load(path, allow_pickle=False) as data:
        flat = {k: data[k] for k in data.files}
    flat["x"] = flat["x"] * (1 + 1e-5)
    np.savez_compressed(path, **flat)
    with pytest.raises(precomputed.PrecomputedError, match="differs"):
        mod.squares(3)


def test_two_argument_sets_keep_two_results(tmp_path, store, monkeypatch):
    mod = _module(tmp_path, "m_two")
    monkeypatch.setenv("BMC_PRECOMPUTED", "update")
    mod.squares(2)
    mod.squares(3)
    mod.squares(2)
    mod.squares(3)
    assert mod.CALLS == [2, 3] and len(list(store.glob("t_squares.*.npz"))) == 2


def test_update_writes_only_what_is_stale(tmp_path, store, monkeypatch):
    mod = _module(tmp_path, "m_update")
    monkeypatch.setenv("BMC_PRECOMPUTED", "update")
    mod.squares(3)                                   # nothing stored: computed and written
    mod.squares(3)                                   # now read back
    assert mod.CALLS == [3]
    mod.squares(4)                                   # stale: computed and written again
    monkeypatch.setenv("BMC_PRECOMPUTED", "verify")
    mod.squares(4)


def test_off_always_computes_and_a_missing_folder_is_not_an_error(tmp_path, store,
                                                                  monkeypatch):
    mod = _module(tmp_path, "m_off")
    monkeypatch.setenv("BMC_PRECOMPUTED", "off")
    mod.squares(2)
    mod.squares(2)
    assert mod.CALLS == [2, 2] and not store.exists()


def test_objects_as_arguments_or_globals_are_refused(tmp_path, store):
    mod = _module(tmp_path, "m_refuse")
    with pytest.raises(TypeError, match="argument 'label'"):
        mod.squares(2, label=object())
    mod.SCALE = object()                 # data the key cannot see
    with pytest.raises(TypeError, match="global 'SCALE'"):
        mod.squares(2)


def test_bad_names_modes_and_results_are_refused(tmp_path, store, monkeypatch):
    with pytest.raises(ValueError, match="file name"):
        precomputed.cached("a/b")
    monkeypatch.setenv("BMC_PRECOMPUTED", "sometimes")
    mod = _module(tmp_path, "m_mode")
    with pytest.raises(ValueError, match="BMC_PRECOMPUTED"):
        mod.squares(2)
    monkeypatch.setenv("BMC_PRECOMPUTED", "off")

    @precomputed.cached("t_bad")
    def bad():
        return [1, 2]

    with pytest.raises(TypeError, match="dict"):
        bad()

    @precomputed.cached("t_bad")
    def bad_key():
        return {"a/b": 1}

    with pytest.raises(TypeError, match="without '/'"):
        bad_key()
