"""Run an untrusted command in a bubblewrap sandbox with hard limits (Linux).

The grader (``exercises/grade.py``) runs each submitted notebook through :func:`run`. With
bubblewrap (``/usr/bin/bwrap``, Debian package ``bubblewrap``) the command gets:

- no network (a new, empty network namespace), its own PID, IPC and UTS namespaces;
- an empty root file system into which only the system (``/usr``, ``/etc``), the Python
  installation, the course environment and the ``bmc`` package are bound **read-only**; the
  instructor's home, the repository (solutions, autograders, other submissions, the grade
  book) are not there at all; ``/tmp`` and ``$HOME`` are fresh, empty tmpfs;
- one private writable scratch directory (``/scratch``), deleted afterwards;
- limits (``setrlimit``) on CPU time, address space (memory), file size, open files and
  processes; when the grader runs as root the command drops to an unprivileged uid inside
  the sandbox, because the kernel does not enforce the process limit for root;
- a wall-clock limit, after which the whole process group (and with it the sandbox,
  ``--die-with-parent``) is killed;
- at most ``max_output`` bytes of its standard output and error kept; the rest is read and
  thrown away, so printing gigabytes costs time but no memory.

:func:`run` with ``sandbox=False`` applies the same limits without bubblewrap: this is only
for the benchmark and for the explicit ``--unsafe-no-sandbox`` mode of the grader.
"""

from __future__ import annotations

import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Limits", "Outcome", "bwrap_path", "run"]

BWRAP_HINT = ("install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`), or grade in "
              "otter's Docker mode; --unsafe-no-sandbox runs student code with your rights")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one sandboxed run.

    Parameters
    ----------
    wall : float
        Wall-clock limit [s] for the whole run.
    cpu : int
        CPU-time limit [s] (RLIMIT_CPU).
    memory : int
        Address-space limit [bytes] (RLIMIT_AS).
    processes : int
        Processes and threads of the sandbox's user (RLIMIT_NPROC).
    file_size : int
        Largest file the command may write [bytes] (RLIMIT_FSIZE).
    max_output : int
        Bytes of standard output and error kept.
    """

    wall: float = 120.0
    cpu: int = 100
    memory: int = 3 * 2**30
    processes: int = 64
    file_size: int = 64 * 2**20
    max_output: int = 64 * 2**10


@dataclass
class Outcome:
    """What a sandboxed run did.

    Attributes
    ----------
    returncode : int or None
        Exit status (negative: killed by that signal; ``None``: killed at the wall limit).
    timed_out : bool
        The wall-clock limit was reached and the process group killed.
    output : str
        The first ``max_output`` bytes of standard output and error, decoded leniently.
    output_bytes : int
        How many bytes it printed in all.
    seconds : float
        Wall-clock time [s].
    """

    returncode: int | None
    timed_out: bool
    output: str
    output_bytes: int
    seconds: float
    command: list[str] = field(default_factory=list)


def bwrap_path() -> str | None:
    """Return the path of a working bubblewrap, or ``None``."""
    path = shutil.which("bwrap")
    if path is None:
        return None
    try:
        done = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-net", "true"],
                              capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if done.returncode == 0 else None


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


def _bwrap_command(bwrap: str, argv: list[str], *, scratch: Path, ro: list[Path],
                   env: dict[str, str]) -> list[str]:
    cmd = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session",
           "--clearenv", "--hostname", "grader"]
    if os.getuid() != 0:  # unprivileged bubblewrap needs a user namespace
        cmd.append("--unshare-user")
    for name in ("usr", "etc"):
        cmd += ["--ro-bind", f"/{name}", f"/{name}"]
    for link in ("bin", "sbin", "lib", "lib64", "lib32"):
        target = Path("/") / link
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/home",
            "--tmpfs", "/root", "--tmpfs", "/var", "--tmpfs", "/run"]
    extra = sorted({p.resolve() for p in ro if p.exists()}, key=lambda p: len(p.parts))
    extra = [p for p in extra if not any(p != q and q in p.parents for q in extra)]
    extra = [p for p in extra if p.parts[1:2] not in (("usr",), ("etc",))]
    cmd += _dirs_for(extra)
    for path in extra:
        cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--bind", str(scratch), "/scratch", "--chdir", "/scratch"]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + argv


def _limit(limits: Limits):
    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 5))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size))
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(argv: list[str], *, scratch: Path, ro: list[Path], env: dict[str, str],
        limits: Limits, sandbox: bool = True) -> Outcome:
    """Run ``argv`` in the sandbox and return what happened (never raises on its failure).

    Parameters
    ----------
    argv : list of str
        The command; paths in it must exist inside the sandbox (``/scratch/...`` or one of
        ``ro``).
    scratch : pathlib.Path
        The private writable folder, mounted at ``/scratch`` (with ``sandbox=False`` the
        command runs in it directly and ``/scratch`` in ``argv`` is replaced by it).
    ro : list of pathlib.Path
        Folders bound read-only at the same path (the Python installation, the course's
        packages, data).
    env : dict
        The whole environment of the command (nothing else is inherited).
    limits : Limits
        Resource limits.
    sandbox : bool, optional
        ``False`` runs without bubblewrap (same limits, no isolation): unsafe.

    Returns
    -------
    Outcome
    """
    if sandbox:
        bwrap = bwrap_path()
        if bwrap is None:
            raise RuntimeError(f"no working bubblewrap: {BWRAP_HINT}")
        cmd = _bwrap_command(bwrap, argv, scratch=scratch, ro=ro, env=env)
        cwd, child_env = None, {"PATH": "/usr/bin:/bin"}
    else:
        cmd = [a.replace("/scratch", str(scratch)) for a in argv]
        cwd = scratch
        child_env = {k: v.replace("/scratch", str(scratch)) for k, v in env.items()}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=cwd, env=child_env,
                            preexec_fn=_limit(limits), close_fds=True)
    kept = bytearray()
    total = 0
    timed_out = False
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    deadline = start + limits.wall
    try:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                timed_out = True
                break
            if not selector.select(timeout=min(left, 1.0)):
                if proc.poll() is not None:
                    break
                continue
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            total += len(chunk)
            if len(kept) < limits.max_output:
                kept += chunk[: limits.max_output - len(kept)]
    finally:
        selector.close()
        _kill_group(proc)  # whatever is left of the group (a forked child, a sleeper)
        proc.stdout.close()
        try:
            returncode = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            returncode = None
    return Outcome(None if timed_out else returncode, timed_out,
                   kept.decode("utf-8", errors="replace"), total,
                   time.perf_counter() - start, cmd)


if __name__ == "__main__":  # a quick self-check: `python exercises/sandbox.py`
    print("bubblewrap:", bwrap_path() or "not available")
    sys.exit(0 if bwrap_path() else 1)
