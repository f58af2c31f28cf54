"""Run an untrusted command in a bubblewrap sandbox with kernel-enforced limits (Linux).

The grader (``exercises/grade.py``) runs each submitted notebook through :func:`run`. The
command gets:

- **no network** (a new, empty network namespace), its own PID, IPC and UTS namespaces;
- **an empty, read-only root file system** into which only the system (``/usr``,
  ``/etc``), the Python installation, the course environment and the ``bmc`` package are
  bound read-only; the instructor's home, the repository (solutions, autograders, other
  submissions, the grade book) are not there at all. Its inputs (the notebook, the
  runner) are bound read-only at ``/input``;
- **writable space only in memory**: ``/scratch`` (its home and working folder), ``/tmp``
  and ``/dev/shm`` are size-capped tmpfs, whose pages are charged to the submission's
  memory cgroup. Nothing it writes reaches the host's disk, and everything vanishes with
  its namespaces: there is no folder left to clean up, whatever permissions it set;
- **a memory cgroup** (:class:`CgroupPool`; v2 where the host has it, v1 otherwise) whose
  limit counts what ``RLIMIT_AS`` misses: tmpfs files, ``memfd`` and shared memory, the
  page cache, kernel memory, as well as the heap; and a **pids** cgroup capping its
  processes and threads. At the end every process left in the cgroup is killed (SIGKILL,
  until it is empty) and the cgroup removed;
- **a seccomp filter** (``bwrap --seccomp``, built by ``exercises/_seccomp.py`` with
  libseccomp) denying the kernel keyrings, namespaces, mounts, ``ptrace``, BPF,
  ``io_uring``, ``TIOCSTI`` and more; and **a fresh session keyring**
  (``exercises/_launch.py``);
- **limits** (``setrlimit``) on CPU time, address space, file size and open files; the
  process limit is set inside, where it counts only the sandbox's processes. When the
  grader runs as root the command drops to an unprivileged uid inside the sandbox and
  keeps only the capabilities to do so until then;
- **a wall-clock limit**, after which the cgroup (or process group) is killed;
- **bounded output**: the first ``max_output`` bytes of standard output and error are
  kept, the rest read and discarded; the answers come out through a pipe (file
  descriptor ``{ANSWERS_FD}`` in ``argv``), of which at most ``max_answers`` bytes are read.

:func:`run` with ``sandbox=False`` applies the same limits without bubblewrap: this is only
for the benchmark and for the explicit ``--unsafe-no-sandbox`` mode of the grader.
"""

from __future__ import annotations

import errno
import functools
import itertools
import json
import os
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CgroupError", "CgroupPool", "Limits", "Outcome", "SandboxError", "bwrap_path",
           "remove_tree", "run", "seccomp_program"]

HERE = Path(__file__).resolve().parent
ANSWERS_FD = "{ANSWERS_FD}"
BWRAP_HINT = ("install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`), or grade in "
              "otter's Docker mode; --unsafe-no-sandbox runs student code with your rights")
SECCOMP_HINT = ("install libseccomp's Python bindings (Debian/Ubuntu: `apt-get install "
                "python3-seccomp`; Fedora: python3-libseccomp)")
CGROUP_HINT = ("run the grader as root; or in a cgroup delegated to you (cgroup v2: "
               "`systemd-run --user --scope -p Delegate=yes python exercises/grade.py ...`; "
               "v1 or v2: an administrator creates a cgroup, chowns it to you, and you pass "
               "`--cgroup DIR`, once per controller for v1); --unsafe-no-cgroup grades with "
               "rlimits and tmpfs sizes only (memfd and page cache then uncapped)")


class SandboxError(RuntimeError):
    """The sandbox could not be set up (the grader's problem, never the submission's)."""


class CgroupError(SandboxError):
    """No memory cgroup can be had for the submissions."""


@dataclass(frozen=True)
class Limits:
    """Resource limits for one sandboxed run.

    Parameters
    ----------
    wall : float
        Wall-clock limit [s] for the whole run.
    cpu : int
        CPU-time limit [s] per process (RLIMIT_CPU).
    memory : int
        Memory of the whole submission [bytes]: the cgroup's limit (heap, tmpfs files,
        memfd, page cache, kernel memory of all its processes) and each process's address
        space (RLIMIT_AS).
    processes : int
        Processes and threads (the cgroup's pids.max, and RLIMIT_NPROC inside).
    file_size : int
        Largest file the command may write [bytes] (RLIMIT_FSIZE).
    scratch : int
        Size of ``/scratch`` [bytes] (tmpfs, inside the memory budget); 0: a quarter of
        ``memory``.
    tmp : int
        Size of ``/tmp`` and of ``/dev/shm`` [bytes] each (tmpfs, inside the memory
        budget); 0: an eighth of ``memory``. With the defaults the file systems hold at
        most half the budget: filling them fails with "no space left" while the notebook
        still has memory to finish.
    max_output : int
        Bytes of standard output and error kept.
    max_answers : int
        Bytes of the answers pipe read; more makes the answers unreadable.
    """

    wall: float = 120.0
    cpu: int = 100
    memory: int = 3 * 2**30
    processes: int = 64
    file_size: int = 64 * 2**20
    scratch: int = 0
    tmp: int = 0
    max_output: int = 64 * 2**10
    max_answers: int = 16 * 2**20

    @property
    def scratch_bytes(self) -> int:
        """Size of ``/scratch`` [bytes]."""
        return self.scratch or self.memory // 4

    @property
    def tmp_bytes(self) -> int:
        """Size of ``/tmp`` and ``/dev/shm`` [bytes] each."""
        return self.tmp or self.memory // 8


@dataclass
class Outcome:
    """What a sandboxed run did.

    Attributes
    ----------
    returncode : int or None
        Exit status (negative: killed by that signal; ``None``: killed at the wall limit).
    timed_out : bool
        The wall-clock limit was reached and everything killed.
    output : str
        The first ``max_output`` bytes of standard output and error, decoded leniently.
    output_bytes : int
        How many bytes it printed in all.
    seconds : float
        Wall-clock time [s].
    answers : bytes
        What came through the answers pipe (at most ``max_answers`` bytes).
    answers_bytes : int
        How many bytes were written to it in all.
    resources : dict
        What the cgroup measured: ``memory_peak`` [bytes], ``memory_limit_hits``,
        ``oom_kills``, ``pids_limit_hits``, ``cpu_seconds`` (empty without a cgroup).
    """

    returncode: int | None
    timed_out: bool
    output: str
    output_bytes: int
    seconds: float
    answers: bytes = b""
    answers_bytes: int = 0
    resources: dict = field(default_factory=dict)
    command: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- tools
@functools.lru_cache(maxsize=1)
def bwrap_path() -> str | None:
    """Return the path of a working bubblewrap, or ``None`` (checked once per process)."""
    path = shutil.which("bwrap")
    if path is None:
        return None
    cmd = [path, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "true"]
    if os.getuid() != 0:
        cmd.insert(1, "--unshare-user")
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if done.returncode == 0 else None


@functools.lru_cache(maxsize=1)
def seccomp_program() -> bytes:
    """The seccomp filter as a BPF program (see ``exercises/_seccomp.py``).

    Built with libseccomp's Python bindings, by this interpreter if it has them, else by
    the system's ``python3`` (Debian's ``python3-seccomp`` lives there).

    Raises
    ------
    SandboxError
        If no interpreter with the bindings is found.
    """
    helper = HERE / "_seccomp.py"
    tried = []
    for python in _seccomp_pythons():
        if not python or not os.access(python, os.X_OK):
            continue
        try:
            done = subprocess.run([python, "-I", str(helper)], capture_output=True,
                                  timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            tried.append(f"{python}: {exc}")
            continue
        if done.returncode == 0 and done.stdout and len(done.stdout) % 8 == 0:
            return done.stdout
        tried.append(f"{python}: exit {done.returncode}")
    raise SandboxError(f"no seccomp filter: {SECCOMP_HINT} (tried {'; '.join(tried)})")


def _seccomp_pythons() -> list[str]:
    """Interpreters that may have libseccomp's bindings, in the order they are tried."""
    return list(dict.fromkeys(p for p in (sys.executable, "/usr/bin/python3",
                                          shutil.which("python3")) if p))


def remove_tree(path: Path) -> None:
    """Delete a folder whatever permissions were set inside it (then check it is gone).

    Raises
    ------
    OSError
        If it still exists afterwards.
    """
    path = Path(path)

    def fix(func, target, exc_info) -> None:
        # a folder without write or search permission: restore them and try again
        for p in (Path(target).parent, Path(target)):
            try:
                if not p.is_symlink():
                    os.chmod(p, stat.S_IRWXU)
            except OSError:
                pass
        try:
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target, onerror=fix)
            else:
                os.unlink(target)
        except FileNotFoundError:
            pass

    if not path.exists() and not path.is_symlink():
        return
    try:
        os.chmod(path, stat.S_IRWXU)
    except OSError:
        pass
    shutil.rmtree(path, onerror=fix)
    if path.exists() or path.is_symlink():
        raise OSError(errno.ENOTEMPTY, f"could not remove {path}")


# ----------------------------------------------------------------------------- cgroups
def _mountinfo() -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, file system type, super options) of each mount."""
    mounts = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) < 5 or len(tail) < 3:
                continue
            mounts.append((fields[3].replace("\\040", " "), fields[4].replace("\\040", " "),
                           tail[0], set(tail[2].split(","))))
    return mounts


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup per v1 controller, and ``""`` for the v2 hierarchy."""
    own = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            for controller in (parts[1].split(",") if parts[1] else [""]):
                own[controller] = parts[2]
    return own


def _under(mountpoint: str, root: str, path: str) -> Path:
    rel = os.path.relpath(path, root) if path.startswith(root) else "."
    return Path(mountpoint) / ("" if rel == "." else rel)


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _keyed(text: str) -> dict[str, int]:
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            out[parts[0]] = int(parts[1])
    return out


@dataclass
class Cgroup:
    """One submission's cgroup: a directory per controller (v1) or one directory (v2)."""

    dirs: dict[str, Path]
    version: int

    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files a process writes its id into to join."""
        return [str(d / "cgroup.procs") for d in dict.fromkeys(self.dirs.values())]

    def pids(self) -> set[int]:
        """Processes in the cgroup now."""
        found: set[int] = set()
        for d in dict.fromkeys(self.dirs.values()):
            found |= {int(p) for p in _read(d / "cgroup.procs").split() if p.isdigit()}
        return found

    def kill(self, timeout: float = 20.0) -> bool:
        """SIGKILL everything in the cgroup until it is empty; True if it is.

        A fork bomb cannot outrun this: its processes are capped by ``pids.max`` and each
        round kills all that exist.
        """
        dirs = list(dict.fromkeys(self.dirs.values()))
        if self.version == 2 and (dirs[0] / "cgroup.kill").exists():
            try:
                _write(dirs[0] / "cgroup.kill", "1")
            except OSError:
                pass
        deadline = time.monotonic() + timeout
        pause = 0.002
        while True:
            pids = self.pids()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def usage(self) -> dict:
        """Peak memory [bytes], limit hits and OOM kills, limit hits of pids, CPU time [s]
        (``cpu_seconds``: all its processes; v1 only where ``cpuacct`` is mounted)."""
        if self.version == 1:
            mem = self.dirs.get("memory")
            out = {}
            if mem is not None:
                peak = _read(mem / "memory.max_usage_in_bytes").strip()
                hits = _read(mem / "memory.failcnt").strip()
                out = {"memory_peak": int(peak) if peak.isdigit() else None,
                       "memory_limit_hits": int(hits) if hits.isdigit() else None,
                       "oom_kills": _keyed(_read(mem / "memory.oom_control")).get("oom_kill")}
            pids = self.dirs.get("pids")
            if pids is not None:
                out["pids_limit_hits"] = _keyed(_read(pids / "pids.events")).get("max")
            cpu = self.dirs.get("cpuacct")
            if cpu is not None:
                ns = _read(cpu / "cpuacct.usage").strip()
                out["cpu_seconds"] = round(int(ns) / 1e9, 3) if ns.isdigit() else None
            return out
        d = self.dirs["unified"]
        peak = _read(d / "memory.peak").strip()
        events = _keyed(_read(d / "memory.events"))
        usec = _keyed(_read(d / "cpu.stat")).get("usage_usec")
        return {"memory_peak": int(peak) if peak.isdigit() else None,
                "memory_limit_hits": events.get("max"), "oom_kills": events.get("oom_kill"),
                "pids_limit_hits": _keyed(_read(d / "pids.events")).get("max"),
                "cpu_seconds": None if usec is None else round(usec / 1e6, 3)}

    def remove(self, timeout: float = 30.0) -> bool:
        """Kill what is left and remove the directories, retrying while they drain.

        Returns
        -------
        bool
            True if they are gone; False if still there after ``timeout`` seconds (a
            process stuck in the kernel): the run's :meth:`CgroupPool.close` tries again.
        """
        deadline = time.monotonic() + timeout
        left = list(dict.fromkeys(self.dirs.values()))
        while True:
            self.kill(timeout=max(deadline - time.monotonic(), 0.1))
            for d in list(left):
                try:
                    d.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                left.remove(d)
            if not left:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)


class CgroupPool:
    """The grader run's cgroup, under which each submission gets its own (:meth:`new`).

    Use :meth:`find`; :meth:`close` removes everything at the end.

    Attributes
    ----------
    version : int
        1 or 2.
    parents : dict
        The run's directory per controller (``"unified"`` for v2).
    """

    PREFIX = "bmc-grade-"

    def __init__(self, parents: dict[str, Path], version: int) -> None:
        self.version = version
        self.parents = parents
        self._count = itertools.count(1)

    def __repr__(self) -> str:
        dirs = ", ".join(str(p) for p in dict.fromkeys(self.parents.values()))
        return f"cgroup v{self.version} ({dirs})"

    @classmethod
    def find(cls, explicit: list[Path] | None = None) -> CgroupPool:
        """Find a cgroup to create submissions' cgroups in, and create the run's own.

        Parameters
        ----------
        explicit : list of pathlib.Path, optional
            Cgroup directories delegated to this user (``--cgroup``): for v1 one per
            controller (memory, and pids if available), for v2 one. Default: the cgroup
            this process is in (v1, or v2 when it is delegated to this user), or as root
            the hierarchy's root (v2).

        Raises
        ------
        CgroupError
            Saying why none can be had.
        """
        mounts = _mountinfo()
        own = _own_cgroups()
        v2 = [(root, point) for root, point, kind, _ in mounts if kind == "cgroup2"]
        v1 = {c: (root, point) for root, point, kind, opts in mounts if kind == "cgroup"
              for c in opts if c in ("memory", "pids", "cpuacct")}
        if explicit:
            return cls._explicit([Path(p) for p in explicit], mounts)
        for root, point in v2:
            controllers = _read(Path(point) / "cgroup.controllers").split()
            if "memory" in controllers:
                return cls._v2_auto(_under(point, root, own.get("", "/")), Path(point))
        if "memory" in v1:
            parents = {c: _under(v1[c][1], v1[c][0], own.get(c, "/")) for c in v1}
            return cls._create(parents, 1)
        raise CgroupError("no memory cgroup controller is mounted (neither v1 nor v2)")

    @classmethod
    def _explicit(cls, dirs: list[Path], mounts) -> CgroupPool:
        parents: dict[str, Path] = {}
        version = None
        for d in dirs:
            d = d.resolve()
            best = max(((root, point, kind, opts) for root, point, kind, opts in mounts
                        if kind in ("cgroup", "cgroup2")
                        and (d == Path(point) or Path(point) in d.parents)),
                       key=lambda m: len(m[1]), default=None)
            if best is None:
                raise CgroupError(f"--cgroup {d}: not inside a mounted cgroup hierarchy")
            if best[2] == "cgroup2":
                version = 2
                parents["unified"] = d
            else:
                version = version or 1
                for c in ("memory", "pids"):
                    if c in best[3]:
                        parents[c] = d
        if version == 1 and "memory" not in parents:
            raise CgroupError("--cgroup: none of the folders is in the memory hierarchy")
        if version == 2:
            _enable_v2(parents["unified"])
        return cls._create(parents, version)

    @classmethod
    def _v2_auto(cls, own: Path, mount_root: Path) -> CgroupPool:
        if os.getuid() == 0:
            parent = mount_root  # the root cgroup may hold processes and children alike
        else:
            parent = own
            if not os.access(parent / "cgroup.subtree_control", os.W_OK):
                raise CgroupError(f"the cgroup this grader runs in ({parent}) is not "
                                  "delegated to you")
            others = {int(p) for p in _read(parent / "cgroup.procs").split()} - {os.getpid()}
            if others:
                raise CgroupError(f"the cgroup this grader runs in ({parent}) holds other "
                                  "processes; start the grader in its own delegated scope")
            leaf = parent / f"grader-{os.getpid()}"
            try:
                leaf.mkdir(exist_ok=True)
                _write(leaf / "cgroup.procs", str(os.getpid()))
            except OSError as exc:
                raise CgroupError(f"cannot move the grader into {leaf}: {exc}") from exc
        _enable_v2(parent)
        return cls._create({"unified": parent}, 2)

    @classmethod
    def _create(cls, parents: dict[str, Path], version: int) -> CgroupPool:
        for parent in dict.fromkeys(parents.values()):
            if not os.access(parent, os.W_OK | os.X_OK):
                raise CgroupError(f"cannot create cgroups in {parent}: it is not delegated "
                                  "to you (not writable)")
            _remove_stale(parent, version)
        run = {c: p / f"{cls.PREFIX}{os.getpid()}" for c, p in parents.items()}
        for d in dict.fromkeys(run.values()):
            try:
                d.mkdir(exist_ok=True)
            except OSError as exc:
                raise CgroupError(f"cannot create a cgroup in {d.parent}: {exc}") from exc
        if version == 2:
            _enable_v2(run["unified"])
        return cls(run, version)

    def new(self, limits: Limits) -> Cgroup:
        """Create one submission's cgroup with the memory and process caps of ``limits``.

        Raises
        ------
        CgroupError
            If it cannot be created or its limits cannot be set.
        """
        name = f"s{next(self._count)}"  # atomic under the GIL: jobs never share a name
        dirs = {c: p / name for c, p in self.parents.items()}
        group = Cgroup(dirs, self.version)
        try:
            for d in dict.fromkeys(dirs.values()):
                d.mkdir()
            if self.version == 1:
                mem = dirs["memory"]
                _write(mem / "memory.limit_in_bytes", str(limits.memory))
                if (mem / "memory.memsw.limit_in_bytes").exists():
                    _write(mem / "memory.memsw.limit_in_bytes", str(limits.memory))
                if "pids" in dirs:
                    _write(dirs["pids"] / "pids.max", str(limits.processes))
            else:
                d = dirs["unified"]
                _write(d / "memory.max", str(limits.memory))
                for name_, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    if (d / name_).exists():
                        _write(d / name_, value)
                _write(d / "pids.max", str(limits.processes))
        except OSError as exc:
            group.remove()
            raise CgroupError(f"cannot set up the submission's cgroup {name}: {exc}") from exc
        return group

    def close(self) -> None:
        """Remove the run's cgroups (and anything left in them)."""
        for parent in dict.fromkeys(self.parents.values()):
            _remove_cgroup_tree(parent, self.version)


def _enable_v2(parent: Path) -> None:
    controllers = _read(parent / "cgroup.controllers").split()
    missing = [c for c in ("memory", "pids") if c not in controllers]
    if missing:
        raise CgroupError(f"{parent}: controllers {missing} are not available")
    enabled = _read(parent / "cgroup.subtree_control").split()
    if "memory" in enabled and "pids" in enabled:
        return
    try:
        _write(parent / "cgroup.subtree_control", "+memory +pids")
    except OSError as exc:
        raise CgroupError(f"cannot enable memory and pids in {parent}: {exc}") from exc


def _remove_cgroup_tree(d: Path, version: int) -> None:
    if not d.is_dir():
        return
    for child in sorted((c for c in d.iterdir() if c.is_dir()), reverse=True):
        _remove_cgroup_tree(child, version)
    Cgroup({"x": d}, version).remove()


def _remove_stale(parent: Path, version: int) -> None:
    """Remove run cgroups of graders that are gone (killed before they could clean up)."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for d in entries:
        prefix = next((p for p in (CgroupPool.PREFIX, "grader-") if d.name.startswith(p)), None)
        if prefix is None or not d.is_dir():
            continue
        pid = d.name[len(prefix):]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                _remove_cgroup_tree(d, version)
            except OSError:
                pass


# ----------------------------------------------------------------------------- command
def _dirs_for(paths: list[Path]) -> list[str]:
    """bwrap arguments that create the parent folders of ``paths`` world-readable."""
    made: list[str] = []
    args: list[str] = []
    for path in paths:
        for parent in reversed(path.parents):
            text = str(parent)
            if text in ("/", *made):
                continue
            made.append(text)
            args += ["--perms", "0755", "--dir", text]
    return args


def _bwrap_command(bwrap: str, argv: list[str], *, inputs: Path, ro: list[Path],
                   env: dict[str, str], limits: Limits, seccomp_fd: int | None) -> list[str]:
    cmd = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session",
           "--clearenv", "--hostname", "grader"]
    if os.getuid() != 0:  # unprivileged bubblewrap needs a user namespace
        cmd.append("--unshare-user")
    else:  # root inside until the runner drops to its uid: keep only what that takes
        cmd += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    for name in ("usr", "etc"):
        cmd += ["--ro-bind", f"/{name}", f"/{name}"]
    for link in ("bin", "sbin", "lib", "lib64", "lib32"):
        target = Path("/") / link
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    cmd += ["--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/dev/shm",
            "--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
            "--dir", "/home", "--dir", "/root", "--dir", "/var", "--dir", "/run"]
    extra = sorted({p.resolve() for p in ro if p.exists()}, key=lambda p: len(p.parts))
    extra = [p for p in extra if not any(p != q and q in p.parents for q in extra)]
    extra = [p for p in extra if p.parts[1:2] not in (("usr",), ("etc",))]
    cmd += _dirs_for(extra)
    for path in extra:
        cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--ro-bind", str(inputs), "/input",
            "--perms", "1777", "--size", str(limits.scratch_bytes), "--tmpfs", "/scratch",
            "--chdir", "/scratch", "--remount-ro", "/dev", "--remount-ro", "/"]
    if seccomp_fd is not None:
        cmd += ["--seccomp", str(seccomp_fd)]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + argv


def _rlimits(limits: Limits) -> dict[str, list[int]]:
    return {"CPU": [limits.cpu, limits.cpu + 5], "AS": [limits.memory, limits.memory],
            "FSIZE": [limits.file_size, limits.file_size], "NOFILE": [256, 256],
            "CORE": [0, 0]}


def _kill(proc: subprocess.Popen, cgroup: Cgroup | None) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if cgroup is not None:
        cgroup.kill()


def run(argv: list[str], *, inputs: Path, ro: list[Path], env: dict[str, str],
        limits: Limits, sandbox: bool = True, cgroup: Cgroup | None = None,
        seccomp: bytes | None = None) -> Outcome:
    """Run ``argv`` in the sandbox and return what happened (never raises on its failure).

    Parameters
    ----------
    argv : list of str
        The command; paths in it must exist inside the sandbox (``/input/...``,
        ``/scratch/...`` or one of ``ro``); an item ``"{ANSWERS_FD}"`` is replaced by the
        number of the answers pipe's file descriptor.
    inputs : pathlib.Path
        A folder of the grader's, bound read-only at ``/input``.
    ro : list of pathlib.Path
        Folders bound read-only at the same path (the Python installation, the course's
        packages, data).
    env : dict
        The whole environment of the command (nothing else is inherited).
    limits : Limits
        Resource limits.
    sandbox : bool, optional
        ``False`` runs without bubblewrap (same limits, no isolation): unsafe. ``/input``
        and ``/scratch`` in ``argv`` and ``env`` then name ``inputs`` and a temporary
        folder, removed afterwards.
    cgroup : Cgroup, optional
        The submission's cgroup (:meth:`CgroupPool.new`); killed empty at the end.
    seccomp : bytes, optional
        The BPF program of :func:`seccomp_program` (only with ``sandbox=True``).

    Returns
    -------
    Outcome

    Raises
    ------
    SandboxError
        If the sandbox cannot be started (the grader's fault, not the command's).
    """
    answers_r, answers_w = os.pipe()
    fds = [answers_w]
    seccomp_fd = None
    scratch = None
    try:
        if seccomp is not None and sandbox:
            seccomp_fd, w = os.pipe()
            if len(seccomp) > 60000:
                raise SandboxError("seccomp program too large for a pipe")
            os.write(w, seccomp)
            os.close(w)
            fds.append(seccomp_fd)
        argv = [str(answers_w) if a == ANSWERS_FD else a for a in argv]
        if sandbox:
            bwrap = bwrap_path()
            if bwrap is None:
                raise SandboxError(f"no working bubblewrap: {BWRAP_HINT}")
            cmd = _bwrap_command(bwrap, argv, inputs=inputs, ro=ro, env=env, limits=limits,
                                 seccomp_fd=seccomp_fd)
            cwd, child_env = None, {"PATH": "/usr/bin:/bin"}
        else:
            scratch = Path(tempfile.mkdtemp(prefix="bmc-unsafe-"))

            def local(text: str) -> str:
                return text.replace("/input", str(inputs)).replace("/scratch", str(scratch))

            cmd = [local(a) for a in argv]
            cwd, child_env = scratch, {k: local(v) for k, v in env.items()}
        config = {"procs": cgroup.procs_files() if cgroup is not None else [],
                  "rlimits": _rlimits(limits), "keyring": True}
        launch = [sys.executable, "-I", "-S", str(HERE / "_launch.py"), json.dumps(config)]
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(launch + cmd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    cwd=cwd, env=child_env, close_fds=True,
                                    pass_fds=tuple(fds), start_new_session=True)
        except OSError as exc:
            raise SandboxError(f"cannot start the sandbox: {exc}") from exc
        for fd in fds:
            os.close(fd)
        fds = []
        outcome = _collect(proc, answers_r, limits, cgroup, start)
        outcome.command = cmd
        if outcome.returncode == 125 and outcome.output.startswith("bmc-launch:"):
            raise SandboxError(outcome.output.strip())
        return outcome
    finally:
        for fd in [*fds, answers_r]:
            try:
                os.close(fd)
            except OSError:
                pass
        if scratch is not None:
            remove_tree(scratch)


def _collect(proc: subprocess.Popen, answers_r: int, limits: Limits, cgroup: Cgroup | None,
             start: float) -> Outcome:
    """Read output and answers (capped) until the command ends or the wall limit."""
    out_fd = proc.stdout.fileno()
    streams = {out_fd: [bytearray(), 0, limits.max_output],
               answers_r: [bytearray(), 0, limits.max_answers]}
    selector = selectors.DefaultSelector()
    for fd in streams:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    open_fds = set(streams)
    deadline = start + limits.wall
    timed_out = False

    def drain(fd: int) -> bool:
        """Read what is there; False at end of file."""
        kept, _, cap = streams[fd]
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            streams[fd][1] += len(chunk)
            if len(kept) < cap:
                kept += chunk[: cap - len(kept)]

    try:
        while open_fds:
            left = deadline - time.perf_counter()
            if left <= 0:
                timed_out = True
                break
            events = selector.select(timeout=min(left, 0.5))
            for key, _ in events:
                if not drain(key.fd):
                    selector.unregister(key.fd)
                    open_fds.discard(key.fd)
            if proc.poll() is not None:
                break  # ended; a leftover process may hold a pipe open: killed, then drained
    finally:
        _kill(proc, cgroup)
        for fd in list(open_fds):  # what was written before the end
            end = time.perf_counter() + 2.0
            while time.perf_counter() < end:
                try:
                    if not drain(fd):
                        break
                except OSError:
                    break
                time.sleep(0.01)
        selector.close()
        proc.stdout.close()
        try:
            returncode = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            returncode = None
    usage = cgroup.usage() if cgroup is not None else {}
    (out, out_n, _), (ans, ans_n, _) = streams[out_fd], streams[answers_r]
    return Outcome(None if timed_out else returncode, timed_out,
                   bytes(out).decode("utf-8", errors="replace"), out_n,
                   time.perf_counter() - start, bytes(ans), ans_n, usage)


if __name__ == "__main__":  # a quick self-check: `python exercises/sandbox.py`
    print("bubblewrap:", bwrap_path() or "not available")
    try:
        print("seccomp filter:", len(seccomp_program()) // 8, "instructions")
    except SandboxError as exc:
        print("seccomp filter:", exc)
    try:
        pool = CgroupPool.find()
        print("cgroup:", pool)
        pool.close()
    except CgroupError as exc:
        print("cgroup: none:", exc)
    sys.exit(0 if bwrap_path() else 1)
