"""bmc.datasets: registry, local-directory override, checksums, offline behaviour."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest

from bmc import datasets


@pytest.fixture(scope="module")
def local_dir() -> Path:
    value = os.environ.get(datasets.DATA_DIR_ENV)
    assert value, "the test suite needs BMC_DATA_DIR (CI sets it to ../shared/data/isb-running)"
    return Path(value)


@pytest.fixture
def no_network(monkeypatch):
    """Make every attempt to open a network connection fail at once."""

    def refuse(*args, **kwargs):
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_load_running_shapes_and_units(local_dir):
    run = datasets.load_running()
    n = 6001
    assert run.freq == 10_000.0
    assert run.markers.shape == (n, 8)
    assert run.grf.shape == (n, 3)
    assert run.true_forces.shape == (n, 3)
    assert run.true_moments.shape == (n, 3)
    # time starts at 0 and is spaced by 1/freq (exact up to float rounding of k / 1e4)
    np.testing.assert_allclose(np.diff(run.time), 1e-4, rtol=1e-9)
    assert run.time[0] == 0.0
    assert run.segments.names == ("thigh", "shank", "foot")
    np.testing.assert_array_equal(run.segments.mass, [6.85, 2.86, 1.00])


def test_heel_strike_is_where_the_ground_reaction_starts(local_dir):
    run = datasets.load_running()
    contact = np.flatnonzero(run.grf[:, 1] > 0)
    # The README of the data says heel strike is sample 3001 counted from 1.
    assert run.heel_strike == 3000
    assert abs(contact[0] - run.heel_strike) <= 1


def test_markers_have_plausible_segment_lengths(local_dir):
    run = datasets.load_running()
    hip, knee, ankle = (run.markers[:, 2 * k: 2 * k + 2] for k in range(3))
    thigh = np.linalg.norm(hip - knee, axis=1)
    shank = np.linalg.norm(knee - ankle, axis=1)
    # rigid segments in a simulation: length constant to 1e-6 m, adult-sized
    assert np.ptp(thigh) < 1e-6 and 0.3 < thigh.mean() < 0.6
    assert np.ptp(shank) < 1e-6 and 0.3 < shank.mean() < 0.6


def test_data_dir_argument_overrides_environment(local_dir, monkeypatch):
    monkeypatch.setenv(datasets.DATA_DIR_ENV, "/nonexistent")
    run = datasets.load_running(data_dir=local_dir)
    assert run.markers.shape == (6001, 8)


def test_corrupted_file_is_refused_with_name_and_checksum(local_dir, tmp_path, monkeypatch,
                                                          no_network):
    for name in datasets.REGISTRY:
        shutil.copy(local_dir / name, tmp_path / name)
    truncated = tmp_path / "all.mom"
    truncated.write_bytes(truncated.read_bytes()[:1000])
    monkeypatch.setenv(datasets.DATA_DIR_ENV, str(tmp_path))
    message = r"checksum mismatch for .*all\.mom.*SHA-256 is [0-9a-f]{64}"
    with pytest.raises(OSError, match=message):
        datasets.load_running()


def test_missing_file_in_data_dir_says_how_to_get_it(local_dir, tmp_path, monkeypatch,
                                                     no_network):
    shutil.copy(local_dir / "all.kin", tmp_path / "all.kin")
    monkeypatch.setenv(datasets.DATA_DIR_ENV, str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"does not contain 'all\.frc'.*BMC_DATA_DIR"):
        datasets.load_running()


def test_no_cache_and_no_network_explains_how_to_get_the_data(tmp_path, monkeypatch,
                                                              no_network):
    monkeypatch.delenv(datasets.DATA_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(OSError, match=r"could not download 'all\.frc'.*set the environment "
                                      r"variable BMC_DATA_DIR"):
        datasets.data_path("all.frc")


def test_cached_files_are_used_offline(local_dir, tmp_path, monkeypatch, no_network):
    """A file already in pooch's cache with the right hash is used without any download."""
    import pooch

    monkeypatch.delenv(datasets.DATA_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = Path(pooch.os_cache("bmc"))
    cache.mkdir(parents=True)
    shutil.copy(local_dir / "all.frc", cache / "all.frc")
    assert datasets.data_path("all.frc") == cache / "all.frc"


def test_unknown_file_name_lists_the_registry():
    with pytest.raises(KeyError, match=r"all\.frc"):
        datasets.data_path("nope.txt")
