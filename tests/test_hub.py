"""A real JupyterHub serving the course to a small class, on loopback only.

JupyterHub (PyPI) behind configurable-http-proxy (npm), DummyAuthenticator, one local process
per student (SimpleLocalProcessSpawner, each with its own home under a temporary folder) and
nbgitpuller (PyPI). The course is a git repository served from a bare clone in a temporary
folder. Each student:

1. logs in through the hub's login form (HTTP, as a browser does), which spawns the server;
2. pulls the course with nbgitpuller (its event-stream API, what a link's page calls);
3. runs notebook 1 in a kernel started through the server's REST and websocket API;
4. edits it and saves it through the contents API, as JupyterLab does.

Then the course changes (a new commit touches the same notebook in another cell and another
file) and every student pulls again: the update must arrive and no student's edit may be
lost, including one student who edited the very cell the course changed (nbgitpuller keeps
the student's version there). Memory per student (RSS of server and kernel), the time to
log in, pull, run and pull again are printed, with how many such students fit in this
machine's available memory.

Needs ``configurable-http-proxy``: ``BMC_CHP`` naming the executable, or the one under
``.ci/node`` (which .ci/run installs, and this test installs there with npm when it is
missing). Only without node and npm is the test skipped, with a message, and
``BMC_REQUIRE_HUB=1`` (set by .ci/run) makes that a failure.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/01_one_link.ipynb"
STUDENTS = [f"student{i}" for i in range(1, 6)]
CONFLICTING = STUDENTS[-1]  # edits the same cell as the course update
STUDENT_NOTE = "Note by {name}: check the sign of the gravity torque again."
COURSE_NOTE = "Course update: a clarification added after the first lecture."

pytestmark = pytest.mark.slow


def _chp() -> str | None:
    for candidate in (os.environ.get("BMC_CHP"),
                      REPO / ".ci" / "node" / "node_modules" / ".bin" / "configurable-http-proxy",
                      shutil.which("configurable-http-proxy")):
        if candidate and Path(candidate).is_file() and shutil.which("node"):
            return str(candidate)
    return None


CHP_VERSION = "4.6.3"  # the version .ci/run installs


@pytest.fixture(scope="module")
def chp() -> str:
    """configurable-http-proxy: found, or installed under .ci/node with npm when node is here."""
    found = _chp()
    if found is None and shutil.which("node") and shutil.which("npm"):
        done = subprocess.run(["npm", "install", "--prefix", str(REPO / ".ci" / "node"),
                               "--no-audit", "--no-fund", "--loglevel=error",
                               f"configurable-http-proxy@{CHP_VERSION}"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, "npm could not install configurable-http-proxy:\n" + \
            done.stdout + done.stderr
        found = _chp()
    if found is None:
        message = ("node and npm are not installed: the JupyterHub test needs "
                   "configurable-http-proxy from npm (or BMC_CHP naming one)")
        if os.environ.get("BMC_REQUIRE_HUB") == "1":
            pytest.fail(message + "; BMC_REQUIRE_HUB=1 requires the test to run")
        pytest.skip(message)
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _git(*args: str, cwd: Path) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Course", "GIT_AUTHOR_EMAIL": "course@example.org",
           "GIT_COMMITTER_NAME": "Course", "GIT_COMMITTER_EMAIL": "course@example.org"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env=env).stdout


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> dict:
    """The course as a git remote: a bare repository, and a clone to publish changes from."""
    root = tmp_path_factory.mktemp("course")
    src = root / "src"
    (src / "notebooks").mkdir(parents=True)
    for nb in sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        shutil.copy(nb, src / "notebooks" / nb.name)
    (src / "README.md").write_text("# The course\n")
    _git("init", "-q", "-b", "main", cwd=src)
    _git("add", ".", cwd=src)
    _git("commit", "-q", "-m", "course", cwd=src)
    bare = root / "course.git"
    _git("clone", "-q", "--bare", str(src), str(bare), cwd=root)
    return {"bare": bare, "src": src}


HUB_CONFIG = """
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{tmp}/cookie_secret"
c.JupyterHub.pid_file = "{tmp}/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{tmp}/home/{{username}}"
c.Spawner.cmd = [{python!r}, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab"
# CI containers run as root. Kernels talk over IPC files in each home: with every student on
# one host, TCP kernel ports chosen at the same moment can collide (on a Kubernetes hub each
# student's pod has its own network, so the image keeps the default).
c.Spawner.args = ["--ServerApp.allow_root=True", "--KernelManager.transport=ipc"]
c.Spawner.environment = {{"JUPYTER_RUNTIME_DIR": "{runtime}/{{username}}"}}  # short socket paths
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.env_keep = ["PATH", "PYTHONPATH", "LANG", "LC_ALL", "BMC_DATA_DIR",
                      "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MPLBACKEND"]
c.JupyterHub.services = [{{"name": "class-test", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "admin", "services": ["class-test"]}}]
"""


@pytest.fixture(scope="module")
def hub(chp, tmp_path_factory):
    """A running JupyterHub; yields its URL, service token, process and folder."""
    pytest.importorskip("jupyterhub", reason="jupyterhub is in requirements-dev.txt")
    pytest.importorskip("nbgitpuller", reason="nbgitpuller is in requirements-dev.txt")
    tmp = tmp_path_factory.mktemp("hub")
    runtime = tempfile.mkdtemp(prefix="bmc-hub-")  # unix sockets allow ~100-character paths
    port, token = _free_port(), secrets.token_hex(32)
    (tmp / "jupyterhub_config.py").write_text(HUB_CONFIG.format(
        port=port, hub_port=_free_port(), proxy_api_port=_free_port(), chp=chp, tmp=tmp,
        python=sys.executable, token=token, runtime=runtime))
    log = (tmp / "hub.log").open("w")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "MPLBACKEND": "Agg",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO),
                                                        os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f",
                             str(tmp / "jupyterhub_config.py")], cwd=tmp, stdout=log,
                            stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    import requests

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{url}/hub/api/", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("JupyterHub did not start:\n" + (tmp / "hub.log").read_text()[-4000:])
            time.sleep(0.3)
        yield {"url": url, "token": token, "proc": proc, "tmp": tmp}
    finally:
        proc.terminate()  # the hub stops the proxy and the single-user servers it started
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, 9)  # anything of this session left over (only ours)
        except ProcessLookupError:
            pass
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


class _Student:
    """One student's browser-like session and API token."""

    def __init__(self, hub: dict, name: str):
        import requests

        self.hub, self.name = hub, name
        self.admin = {"Authorization": f"token {hub['token']}"}
        self.session = requests.Session()
        self.server = f"{hub['url']}/user/{name}"
        self.times: dict[str, float] = {}

    def login(self) -> None:
        """The hub's login form, as a browser submits it; the hub then spawns the server."""
        t0 = time.perf_counter()
        self.session.get(f"{self.hub['url']}/hub/login", timeout=30).raise_for_status()
        form = {"username": self.name, "password": "any",
                "_xsrf": self.session.cookies.get("_xsrf", "")}
        self.session.post(f"{self.hub['url']}/hub/login", data=form, timeout=60,
                          allow_redirects=True).raise_for_status()
        api = f"{self.hub['url']}/hub/api/users/{self.name}"
        deadline = time.monotonic() + 150
        while True:
            user = self.session.get(api, headers=self.admin, timeout=30).json()
            server = user.get("servers", {}).get("", {})
            if server.get("ready"):
                break
            assert time.monotonic() < deadline, f"{self.name}'s server never became ready"
            time.sleep(0.5)
        token = self.session.post(f"{api}/tokens", headers=self.admin, timeout=30,
                                  json={"note": "class test"}).json()["token"]
        self.session.headers["Authorization"] = f"token {token}"
        self.times["login and spawn"] = time.perf_counter() - t0

    def pull(self, repo: Path, label: str) -> str:
        """nbgitpuller's API: stream its events until it finishes; return its output."""
        t0 = time.perf_counter()
        query = urlencode({"repo": f"file://{repo}", "branch": "main", "targetpath": "course"})
        out = []
        with self.session.get(f"{self.server}/git-pull/api?{query}", stream=True,
                              timeout=120) as resp:
            resp.raise_for_status()
            for line in resp.iter_lines(decode_unicode=True):
                if not line.startswith("data:"):
                    continue
                event = json.loads(line[5:])
                out.append(event.get("output", ""))
                if event.get("phase") == "error":
                    pytest.fail(f"{self.name}: nbgitpuller failed: {event.get('message')}\n"
                                + "".join(out))
                if event.get("phase") == "finished":
                    break
            else:
                pytest.fail(f"{self.name}: nbgitpuller stream ended early:\n" + "".join(out))
        self.times[label] = time.perf_counter() - t0
        return "".join(out)

    def run_notebook(self, path: str) -> int:
        """Start a kernel for ``path`` (sessions API) and run its code cells over the websocket."""
        import websocket

        t0 = time.perf_counter()
        nb = self.contents(path)
        sess = self.session.post(f"{self.server}/api/sessions", timeout=60, json={
            "path": path, "type": "notebook", "name": Path(path).name,
            "kernel": {"name": "python3"}}).json()
        kid = sess["kernel"]["id"]
        ws_url = self.server.replace("http://", "ws://") + f"/api/kernels/{kid}/channels"
        ws = websocket.create_connection(
            ws_url, timeout=300,
            header=[f"Authorization: {self.session.headers['Authorization']}"])
        ran = 0
        try:
            for cell in nb["cells"]:
                if cell["cell_type"] != "code":
                    continue
                msg_id = uuid.uuid4().hex
                ws.send(json.dumps({
                    "header": {"msg_id": msg_id, "msg_type": "execute_request",
                               "username": self.name, "session": uuid.uuid4().hex,
                               "version": "5.3", "date": ""},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": cell["source"], "silent": False,
                                "store_history": True, "user_expressions": {},
                                "allow_stdin": False, "stop_on_error": True}}))
                while True:
                    msg = json.loads(ws.recv())
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    if msg["msg_type"] == "error":
                        pytest.fail(f"{self.name}: cell failed: {msg['content']['ename']}: "
                                    f"{msg['content']['evalue']}\n{cell['source'][:300]}")
                    if msg["msg_type"] == "execute_reply":
                        assert msg["content"]["status"] == "ok", msg["content"]
                        break
                ran += 1
        finally:
            ws.close()
        self.times["run notebook 1"] = time.perf_counter() - t0
        return ran

    def contents(self, path: str) -> dict:
        resp = self.session.get(f"{self.server}/api/contents/{path}", timeout=60)
        resp.raise_for_status()
        return resp.json()["content"]

    def save(self, path: str, nb: dict) -> None:
        """Save through the contents API, as JupyterLab does."""
        self.session.put(f"{self.server}/api/contents/{path}", timeout=60, json={
            "type": "notebook", "format": "json", "content": nb}).raise_for_status()


def _server_memory(hub_pid: int) -> dict[str, tuple[int, int]]:
    """RSS in bytes of each student's single-user server and of its kernels."""
    import psutil

    usage = {}
    for child in psutil.Process(hub_pid).children(recursive=False):
        try:
            user = child.environ().get("JUPYTERHUB_USER")
            if user:
                kernels = sum(p.memory_info().rss for p in child.children(recursive=True))
                usage[user] = (child.memory_info().rss, kernels)
        except psutil.Error:
            continue
    return usage


def _in_parallel(function, students) -> None:
    errors = []

    def run(student):
        try:
            function(student)
        except BaseException as err:  # noqa: BLE001 (reported below, with the student)
            errors.append((student.name, err))

    threads = [threading.Thread(target=run, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=170)
    if errors:
        name, err = errors[0]
        raise AssertionError(f"{name}: {err!r}") from err


def _last_markdown(nb: dict) -> int:
    return max(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown")


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def test_a_class_pulls_runs_edits_and_keeps_its_edits_across_a_course_update(hub, course,
                                                                              capsys):
    import psutil

    t_start = time.perf_counter()
    available = psutil.virtual_memory().available
    students = [_Student(hub, name) for name in STUDENTS]
    peak: dict[str, int] = {}
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            for user, (server, kernels) in _server_memory(hub["proc"].pid).items():
                peak[user] = max(peak.get(user, 0), server + kernels)
            sampling.wait(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        _in_parallel(lambda s: s.login(), students)
        _in_parallel(lambda s: s.pull(course["bare"], "first pull (clone)"), students)
        ran = {}
        _in_parallel(lambda s: ran.__setitem__(s.name, s.run_notebook(f"course/{NOTEBOOK}")),
                     students)
        assert set(ran.values()) == {ran[STUDENTS[0]]} and ran[STUDENTS[0]] > 5

        # Each student edits notebook 1 (its first cell; one student also its last) and saves.
        def edit(s: _Student) -> None:
            nb = s.contents(f"course/{NOTEBOOK}")
            nb["cells"][0]["source"] += "\n\n" + STUDENT_NOTE.format(name=s.name)
            if s.name == CONFLICTING:
                nb["cells"][_last_markdown(nb)]["source"] += "\n\nMy own reference list."
            s.save(f"course/{NOTEBOOK}", nb)

        _in_parallel(edit, students)
        memory = _server_memory(hub["proc"].pid)
    finally:
        sampling.set()
        sampler.join(timeout=5)

    # The course changes: the same notebook in another cell, and another file.
    src = course["src"]
    nb_path = src / NOTEBOOK
    nb = json.loads(nb_path.read_text())
    nb["cells"][_last_markdown(nb)]["source"].append("\n\n" + COURSE_NOTE)
    nb_path.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    (src / "README.md").write_text("# The course\n\nWeek 2: read notebook 2 before class.\n")
    _git("commit", "-q", "-am", "course update", cwd=src)
    _git("push", "-q", str(course["bare"]), "main", cwd=src)

    _in_parallel(lambda s: s.pull(course["bare"], "second pull (merge)"), students)

    home = hub["tmp"] / "home"
    for s in students:
        text = (home / s.name / "course" / NOTEBOOK).read_text()
        mine = json.loads(text)
        assert STUDENT_NOTE.format(name=s.name) in _src(mine["cells"][0]), \
            f"{s.name}'s edit was lost in the merge"
        last = _src(mine["cells"][_last_markdown(mine)])
        if s.name == CONFLICTING:
            assert "My own reference list." in last, f"{s.name}'s edit of the changed cell lost"
        else:
            assert COURSE_NOTE in last, f"{s.name} did not receive the course update"
        assert "Week 2" in (home / s.name / "course" / "README.md").read_text()
        assert json.loads(text)["nbformat"] == 4  # still a valid notebook file
    for s in students:  # homes are separate: nobody sees another student's note
        others = [o for o in STUDENTS if o != s.name]
        text = (home / s.name / "course" / NOTEBOOK).read_text()
        assert not any(STUDENT_NOTE.format(name=o) in text for o in others)

    per_student = max(peak.get(s.name, 0) for s in students)
    assert per_student > 0 and len(memory) == len(STUDENTS), memory
    servers = [m[0] / 2**20 for m in memory.values()]
    kernels = [m[1] / 2**20 for m in memory.values()]
    assert min(kernels) > 0, "no kernel process found under a student's server"
    fits = int(available // per_student)
    lines = [f"JupyterHub class test: {len(STUDENTS)} students at once on "
             f"{os.cpu_count()} cores, {available / 2**30:.1f} GiB available at start",
             f"  memory per student (server + kernel, RSS): peak "
             f"{min(peak.values()) / 2**20:.0f}-{per_student / 2**20:.0f} MiB; after the run "
             f"server {min(servers):.0f}-{max(servers):.0f} MiB + kernel "
             f"{min(kernels):.0f}-{max(kernels):.0f} MiB",
             f"  students that fit in the available memory at that peak: {fits}"]
    for label in ("login and spawn", "first pull (clone)", "run notebook 1",
                  "second pull (merge)"):
        values = [s.times[label] for s in students]
        lines.append(f"  {label}: {min(values):.1f}-{max(values):.1f} s")
    lines.append(f"  whole test: {time.perf_counter() - t_start:.0f} s")
    with capsys.disabled():
        print("\n" + textwrap.indent("\n".join(lines), ""))
