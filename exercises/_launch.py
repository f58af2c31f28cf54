"""Start a sandboxed command: join its cgroup, a fresh session keyring and its limits, exec.

Run by ``exercises/sandbox.py`` (never by hand), with the standard library only and
``python -I -S`` so that it starts in milliseconds::

    python -I -S _launch.py CONFIG_JSON COMMAND ...

``CONFIG_JSON`` holds ``{"procs": [cgroup.procs files], "rlimits": {name: [soft, hard]},
"keyring": true}``. In this order, before ``COMMAND`` replaces this process (so that the
command and everything it starts are inside from the first instruction):

1. write this process's id into each ``cgroup.procs`` file (the submission's memory and
   process caps);
2. join a new, empty anonymous session keyring (``keyctl(KEYCTL_JOIN_SESSION_KEYRING,
   NULL)``): the instructor's session keyring is no longer reachable through ``@s``, even
   before the sandbox's seccomp filter denies ``keyctl`` altogether;
3. set the resource limits (``RLIMIT_CPU``, ``RLIMIT_AS`` ...).

The process limit (``RLIMIT_NPROC``) is not set here: it counts every process of the
user, so an instructor already running many processes would make bubblewrap's namespace
creation fail. The runner sets it inside the sandbox, where it counts only the sandbox's
processes, and the cgroup's ``pids.max`` caps them from outside.

A failure of step 1 stops with exit status 125 and a line starting ``bmc-launch:``;
nothing unconfined is ever run.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import sys

# keyctl's system call number per architecture (glibc has no wrapper)
_KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219, "ppc64le": 311, "ppc64": 311,
           "s390x": 280, "i686": 288, "i386": 288, "armv7l": 311, "armv6l": 311}
_KEYCTL_JOIN_SESSION_KEYRING = 1


def _fail(message: str) -> None:
    os.write(2, f"bmc-launch: {message}\n".encode())
    os._exit(125)


def _new_session_keyring() -> bool:
    number = _KEYCTL.get(platform.machine())
    if number is None:
        return False
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall(ctypes.c_long(number), ctypes.c_long(_KEYCTL_JOIN_SESSION_KEYRING),
                        ctypes.c_void_p(None)) >= 0


def main(argv: list[str]) -> None:
    """Apply the configuration ``argv[0]`` and exec ``argv[1:]``."""
    config = json.loads(argv[0])
    command = argv[1:]
    pid = str(os.getpid()).encode()
    for path in config.get("procs", []):
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)
        except OSError as exc:
            _fail(f"cannot join the cgroup {path}: {exc}")
    if config.get("keyring") and not _new_session_keyring():
        # keyctl itself is denied here (a container's seccomp filter): the sandbox's own
        # filter denies it too, so no keyring is reachable from inside either way
        pass
    for name, (soft, hard) in config.get("rlimits", {}).items():
        try:
            resource.setrlimit(getattr(resource, f"RLIMIT_{name}"), (soft, hard))
        except (ValueError, OSError) as exc:
            _fail(f"cannot set RLIMIT_{name}={soft}: {exc}")
    try:
        os.execv(command[0], command)
    except OSError as exc:
        _fail(f"cannot run {command[0]}: {exc}")


if __name__ == "__main__":
    main(sys.argv[1:])
