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
     FileNotFoundError, "BMC_DATA_DIR"),
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
    assert not (tmp_path / "cache" / "bmc" / "all.frc").exists()


def test_no_nan_or_inf_in_the_loaded_trial():
    run = datasets.load_running()
    for name in ("time", "markers", "grf", "true_forces", "true_moments"):
        assert np.all(np.isfinite(getattr(run, name))), name
