"""Build the grading sandbox's seccomp filter with libseccomp; print it as a BPF program.

Usage (by ``exercises/sandbox.py``, which passes the program to ``bwrap --seccomp FD``)::

    python3 exercises/_seccomp.py > filter.bpf

It needs libseccomp's Python bindings (``import seccomp``: Debian/Ubuntu ``python3-seccomp``,
Fedora ``python3-libseccomp``), and can run under any Python that has them: the sandbox
tries its own interpreter first, then the system's ``/usr/bin/python3``.

The filter allows everything except the system calls below, which a notebook never needs
and which reach state shared with the rest of the machine. The list starts from Flatpak's
(``common/flatpak-run.c``, itself from linux-user-chroot and Sandstorm) and adds what a
grading sandbox must also close:

- kernel keyrings (``add_key``, ``keyctl``, ``request_key``): a key of the instructor's
  session, or one planted by another submission, would be readable and writable;
- new namespaces and mounts (``unshare``, ``setns``, ``clone`` with a namespace flag,
  ``mount`` and the new mount API): the way out of a sandbox, or into a fresh user
  namespace whose root may do more; ``clone3`` answers ENOSYS so that the C library falls
  back to ``clone``, whose flags can be checked;
- the terminal (``ioctl`` ``TIOCSTI``, ``TIOCLINUX``): typing into the instructor's shell;
- kernel logs, modules, accounting, BPF, ``perf_event_open``, ``userfaultfd``,
  ``io_uring`` (whose operations bypass this filter), ``ptrace``, ``process_vm_*``,
  ``kcmp``, file handles (``open_by_handle_at``), NUMA memory policy, ``personality``
  other than the default, ``fallocate`` on files (a tmpfs file is charged to the memory
  cgroup all the same), sockets other than local, IPv4, IPv6 and netlink.

Other architectures' system calls (32-bit ``int 0x80`` on x86-64) kill the process: the
filter is for the native architecture only.
"""

from __future__ import annotations

import errno
import sys
import tempfile

__all__ = ["DENIED", "build"]

# name -> errno returned instead of running the call
DENIED = {
    # Flatpak's list
    "syslog": errno.EPERM, "uselib": errno.EPERM, "acct": errno.EPERM,
    "modify_ldt": errno.EPERM, "quotactl": errno.EPERM,
    "add_key": errno.EPERM, "keyctl": errno.EPERM, "request_key": errno.EPERM,
    "move_pages": errno.EPERM, "mbind": errno.EPERM, "get_mempolicy": errno.EPERM,
    "set_mempolicy": errno.EPERM, "migrate_pages": errno.EPERM,
    "unshare": errno.EPERM, "setns": errno.EPERM, "mount": errno.EPERM,
    "umount2": errno.EPERM, "pivot_root": errno.EPERM, "chroot": errno.EPERM,
    "open_tree": errno.ENOSYS, "move_mount": errno.ENOSYS, "fsopen": errno.ENOSYS,
    "fsconfig": errno.ENOSYS, "fsmount": errno.ENOSYS, "fspick": errno.ENOSYS,
    "mount_setattr": errno.ENOSYS, "clone3": errno.ENOSYS,
    "perf_event_open": errno.ENOSYS, "ptrace": errno.EPERM,
    # what a grading sandbox closes as well
    "bpf": errno.EPERM, "userfaultfd": errno.EPERM,
    "io_uring_setup": errno.ENOSYS, "io_uring_enter": errno.ENOSYS,
    "io_uring_register": errno.ENOSYS,
    "process_vm_readv": errno.EPERM, "process_vm_writev": errno.EPERM,
    "kcmp": errno.EPERM, "pidfd_getfd": errno.EPERM,
    "open_by_handle_at": errno.EPERM, "name_to_handle_at": errno.EPERM,
    "init_module": errno.EPERM, "finit_module": errno.EPERM, "delete_module": errno.EPERM,
    "kexec_load": errno.EPERM, "kexec_file_load": errno.EPERM, "reboot": errno.EPERM,
    "swapon": errno.EPERM, "swapoff": errno.EPERM, "fanotify_init": errno.EPERM,
    "lookup_dcookie": errno.EPERM, "vhangup": errno.EPERM, "iopl": errno.EPERM,
    "ioperm": errno.EPERM, "settimeofday": errno.EPERM, "clock_settime": errno.EPERM,
    "clock_adjtime": errno.EPERM, "adjtimex": errno.EPERM,
    "fallocate": errno.EOPNOTSUPP,
}

CLONE_NAMESPACES = (0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
                    | 0x20000000 | 0x40000000 | 0x00000080)  # NEWNS UTS IPC USER PID NET CGROUP TIME
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
SOCKET_FAMILIES = (0, 1, 2, 10, 16)  # AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK
PERSONALITY_QUERY = 0xFFFFFFFF


def build(seccomp) -> bytes:
    """Return the filter as a BPF program (``struct sock_filter`` array, native order).

    Parameters
    ----------
    seccomp : module
        libseccomp's Python bindings.

    Returns
    -------
    bytes
        What ``bwrap --seccomp FD`` reads.
    """
    filt = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name, code in DENIED.items():
        try:
            filt.add_rule(seccomp.ERRNO(code), name)
        except (RuntimeError, ValueError, OSError):  # a call this kernel/library does not know
            continue
    bit = 1  # clone() with any namespace flag: one rule per bit (a rule ANDs its arguments)
    while bit <= CLONE_NAMESPACES:
        if CLONE_NAMESPACES & bit:
            filt.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                          seccomp.Arg(0, seccomp.MASKED_EQ, bit, bit))
        bit <<= 1
    for request in (TIOCSTI, TIOCLINUX):
        filt.add_rule(seccomp.ERRNO(errno.EPERM), "ioctl",
                      seccomp.Arg(1, seccomp.MASKED_EQ, 0xFFFFFFFF, request))
    # sockets: only the families a notebook may use (all but loopback are unreachable anyway)
    for family in range(0, 46):
        if family not in SOCKET_FAMILIES:
            filt.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket",
                          seccomp.Arg(0, seccomp.EQ, family))
    filt.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket",
                  seccomp.Arg(0, seccomp.GE, 46))
    # personality(): only the query (0xffffffff); e.g. ADDR_NO_RANDOMIZE would turn off ASLR
    filt.add_rule(seccomp.ERRNO(errno.EPERM), "personality",
                  seccomp.Arg(0, seccomp.NE, PERSONALITY_QUERY))
    with tempfile.TemporaryFile() as handle:
        filt.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def main() -> int:
    """Print the BPF program to standard output (exit 2 without libseccomp's bindings)."""
    try:
        import seccomp
    except ImportError:
        print("libseccomp's Python bindings are missing: install python3-seccomp "
              "(Debian/Ubuntu) or python3-libseccomp (Fedora)", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(build(seccomp))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
