"""Kernel isolation that needs no Python cooperation: namespaces, a read-only mount tree, no uid.

Each program's process is forked into a fresh PID namespace (it is PID 1 there, so when it ends
the kernel kills everything it could have started, and it cannot even name a process outside)
where the warm parent may create one (root, or CAP_SYS_ADMIN). The process then unshares user,
mount, network, IPC and UTS namespaces: it holds no capability outside its own user namespace,
has no network device but a loopback that is down (no TCP, UDP or abstract unix socket reaches
anything), sees empty read-only tmpfs over /proc, /sys and the temporary directories, and its
whole mount tree is made read-only, nosuid and nodev in one call (mount_setattr). All
calls are raw syscalls through ctypes, prepared in the warm parent.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
CHILD_FLAGS = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
# covered by an empty read-only tmpfs in the child's mount namespace (missing ones are skipped)
HIDDEN = ("/proc", "/sys", "/tmp", "/var/tmp", "/dev/shm", "/run", "/home")
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8

_MOUNT_SETATTR = {"x86_64": 442, "aarch64": 442}
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000
_MOUNT_ATTR_RDONLY, _MOUNT_ATTR_NOSUID, _MOUNT_ATTR_NODEV, _MOUNT_ATTR_NOEXEC = 0x1, 0x2, 0x4, 0x8
_PR_SET_CHILD_SUBREAPER = 36


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


def _check(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


class Prepared:
    """Everything the fork path needs, built once in the warm parent."""

    def __init__(self, libc: Any, pid_namespace: bool, keep: tuple[str, ...] = ()) -> None:
        self.libc = libc
        self.flags = CHILD_FLAGS
        # not noexec: the interpreter still maps shared libraries of lazily imported modules
        self.attr = _MountAttr(_MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV, 0, 0, 0)
        self.mount_setattr = _MOUNT_SETATTR.get(os.uname().machine, 442)
        # never cover a directory the interpreter still reads from (`keep`: the Landlock read roots)
        self.hidden = [p.encode() for p in HIDDEN if os.path.isdir(p) and not os.path.islink(p)
                       and not any(k == p or k.startswith(p + "/") for k in keep)]
        libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        # the parent's own PID namespace, to return to after forking each child into a new one
        self.own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC) if pid_namespace else None

    def fork(self) -> int:
        """os.fork(), with the child as PID 1 of a new PID namespace when that is prepared."""
        if self.own_pid_ns is None:
            return os.fork()
        _check(self.libc.unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")
        try:
            pid = os.fork()
        finally:
            if os.getpid() != 1:  # the parent (in the child, getpid() is 1 and nothing is undone)
                _check(self.libc.setns(self.own_pid_ns, CLONE_NEWPID), "setns(pid)")
        return pid

    def enter(self) -> None:
        """In the child: new user/mount/net/IPC/UTS namespaces, hidden /proc and temp dirs, read-only mounts."""
        _check(self.libc.unshare(self.flags), "unshare(user, mount, net, ipc, uts)")
        flags = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC  # the covers hold nothing to map
        for path in self.hidden:
            _check(self.libc.mount(b"none", path, b"tmpfs", flags, b"size=4k,mode=555"), f"mount tmpfs on {path!r}")
        _check(self.libc.syscall(self.mount_setattr, _AT_FDCWD, b"/", _AT_RECURSIVE, ctypes.byref(self.attr),
                                 ctypes.sizeof(self.attr)), "mount_setattr(read-only)")


def isolate_parent(libc: Any) -> bool:
    """Move the warm parent itself into new network, IPC and UTS namespaces (it needs none of
    them: it talks over pipes) when it may, so each child need not pay for creating a network
    namespace; children share that empty one in turn (none outlives its job). Root only."""
    return os.geteuid() == 0 and libc.unshare(CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) == 0


def become_subreaper(libc: Any) -> bool:
    """Orphans of our children are re-parented to us (so we can reap and account for them)."""
    return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def probe_pid_namespace(libc: Any) -> str | None:
    """None when this process may fork children into new PID namespaces, else why not."""
    try:
        prep = Prepared(libc, pid_namespace=True)
    except OSError as exc:
        return str(exc)
    try:
        pid = prep.fork()
    except OSError as exc:
        return str(exc)
    if pid == 0:
        os._exit(0 if os.getpid() == 1 else 1)
    _, status = os.waitpid(pid, 0)
    os.close(prep.own_pid_ns)  # type: ignore[arg-type]
    return None if status == 0 else "the child was not PID 1 of a new namespace"
