"""bmc.datasets refuses bad input and never hangs on a slow server."""

from __future__ import annotations

import http.server
import threading
import time

import numpy as np
import pytest

from bmc import datasets

CASES = [
    # (callable, kwargs, exception, argument named in the message)
    (datasets.data_path, {"name": "nope.txt"}, KeyError, "name"),
    (datasets.data_path, {"name": 3}, KeyError, "name"),
    (datasets.data_path, {"name": None}, KeyError, "name"),
    (datasets.data_path, {"name": "all.frc", "deadline": float("nan")}, ValueError, "deadline"),
    (datasets.data_path, {"name": "all.frc", "deadline": -1.0}, ValueError, "deadline"),
    (datasets.data_path, {"name": "all.frc", "deadline": "10"}, TypeError, "deadline"),
    (datasets.data_path, {"name": "all.frc", "deadline": True}, TypeError, "deadline"),
    (datasets.data_path, {"name": "all.frc", "data_dir": "/nonexistent-bmc"},
     FileNotFoundError, "data_dir"),
    (datasets.data_path, {"name": "all.frc", "data_dir": 3}, TypeError, "data_dir"),
    (datasets.load_running, {"deadline": 0.0}, ValueError, "deadline"),
]


@pytest.mark.parametrize(("func", "kwargs", "exc", "arg"), CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_refused_by_name(refuses, func, kwargs, exc, arg):
    refuses(func, kwargs, exc, arg)


class _Trickle(http.server.BaseHTTPRequestHandler):
    """Announces a 1 MB file, then sends one byte every 50 ms (a per-read timeout never trips)."""

    stop = threading.Event()

    def do_GET(self):  # noqa: N802 (http.server's name)
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 20))
            self.end_headers()
            while not self.stop.is_set():
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:  # the client gave up and closed the connection
            pass

    def log_message(self, *args):  # keep the test output quiet
        pass


@pytest.fixture
def trickling_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Trickle)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Trickle.stop.clear()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        _Trickle.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_trickling_server_is_abandoned_at_the_overall_deadline(trickling_server, tmp_path,
                                                                  monkeypatch):
    monkeypatch.delenv(datasets.DATA_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(datasets, "_BASE_URL", trickling_server)
    start = time.monotonic()
    with pytest.raises(OSError, match=r"could not download 'all\.frc'.*deadline of 1 s"):
        datasets.data_path("all.frc", deadline=1.0)
    elapsed = time.monotonic() - start
    # The server would take 1 MB x 50 ms = 14 h; the deadline stops it after 1 s (a few
    # tenths of slack for one read and the thread scheduling on a loaded machine).
    assert 0.9 < elapsed < 5.0
    # nothing left behind: neither the file nor pooch's temporary name for it
    cache = tmp_path / "cache" / "bmc"
    assert not cache.exists() or not list(cache.iterdir()), list(cache.iterdir())


class _Wrong(http.server.BaseHTTPRequestHandler):
    """Serves 1000 bytes that are not the registered file, or breaks off after 500 of them."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"y" * (500 if self.path.endswith(".kin") else 1000))
        self.wfile.flush()
        if self.path.endswith(".kin"):
            self.close_connection = True  # an interrupted transfer: 500 of 1000 bytes


@pytest.mark.parametrize("name", ["all.frc", "all.kin"])
def test_a_wrong_or_broken_download_leaves_nothing_in_the_cache(tmp_path, monkeypatch, name):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Wrong)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.delenv(datasets.DATA_DIR_ENV, raising=False)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setattr(datasets, "_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/")
        with pytest.raises(OSError, match=name.replace(".", r"\.")):
            datasets.data_path(name, deadline=10.0)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    cache = tmp_path / "cache" / "bmc"
    assert not cache.exists() or not list(cache.iterdir()), list(cache.iterdir())


def test_the_default_deadline_suits_the_course_data():
    import os
    from pathlib import Path

    # the four files arrive within DOWNLOAD_DEADLINE on a link of 0.35 Mbit/s (a slow
    # mobile connection); a stalled server holds the notebook for a minute, not five
    local = Path(os.environ[datasets.DATA_DIR_ENV])
    size = sum((local / name).stat().st_size for name in datasets.REGISTRY)
    assert 2.4e6 < size < 2.8e6
    assert 8 * size / datasets.DOWNLOAD_DEADLINE < 0.35e6
    assert datasets.DOWNLOAD_DEADLINE <= 60.0


def test_load_running_has_one_deadline_for_all_files(monkeypatch):
    # the four files share one stop time (not one deadline each, 4 x 60 s)
    stops = []
    original = datasets._data_path

    def spy(name, data_dir, stop, limit):
        stops.append(stop)
        return original(name, data_dir, stop, limit)

    monkeypatch.setattr(datasets, "_data_path", spy)
    datasets.load_running()
    assert len(stops) == 4 and len(set(stops)) == 1


def test_no_nan_or_inf_in_the_loaded_trial():
    run = datasets.load_running()
    for name in ("time", "markers", "grf", "true_forces", "true_moments"):
        assert np.all(np.isfinite(getattr(run, name))), name
