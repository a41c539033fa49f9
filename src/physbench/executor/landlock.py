"""Landlock (Linux >= 5.13) through raw syscalls: read-only access to the interpreter's files.

The warm parent builds one ruleset; each program's process restricts itself with it. Handled
rights with no rule are denied, so: no writing, creating, removing or executing any file, reads
only beneath the directories Python imports from; from ABI 4 no TCP bind/connect; from ABI 6
no signals to processes outside the sandbox and no abstract unix sockets.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

_SYSCALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}  # create_ruleset, add_rule, restrict_self
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

# filesystem rights by the ABI that introduced them
_FS_V1 = (1 << 13) - 1          # execute, write/read file, read dir, remove, make char/dir/reg/sock/fifo/block/sym
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_READ_FILE, _READ_DIR = 1 << 2, 1 << 3
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _numbers() -> tuple[int, int, int]:
    nums = _SYSCALLS.get(platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64"))
    if nums is None:
        raise OSError(errno.ENOSYS, f"no Landlock syscall numbers for {platform.machine()}")
    return nums


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is absent or disabled."""
    try:
        create, _, _ = _numbers()
    except OSError:
        return 0
    v = _libc().syscall(create, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return int(v) if v > 0 else 0


def build_ruleset(read_paths: list[str]) -> tuple[int, int]:
    """Create the ruleset (read-only beneath `read_paths`); returns (fd, abi). Raises OSError."""
    abi = abi_version()
    if abi < 1:
        raise OSError(errno.ENOSYS, "Landlock is not available on this kernel")
    create, add_rule, _ = _numbers()
    fs = _FS_V1 | (_FS_REFER if abi >= 2 else 0) | (_FS_TRUNCATE if abi >= 3 else 0) \
        | (_FS_IOCTL_DEV if abi >= 5 else 0)
    attr = _RulesetAttr(fs, (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0,
                        (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    libc = _libc()
    fd = libc.syscall(create, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"landlock_create_ruleset: {os.strerror(err)}")
    for path in read_paths:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        is_dir = os.path.isdir(path)
        rule = _PathBeneath((_READ_FILE | _READ_DIR) if is_dir else _READ_FILE, pfd)
        rc = libc.syscall(add_rule, ctypes.c_int(fd), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                          ctypes.c_uint32(0))
        os.close(pfd)
        if rc != 0:
            err = ctypes.get_errno()
            os.close(fd)
            raise OSError(err, f"landlock_add_rule({path}): {os.strerror(err)}")
    return int(fd), abi


def restrict_self(ruleset_fd: int, libc: ctypes.CDLL | None = None) -> None:
    """Set no-new-privs and enforce the ruleset on this process. Raises OSError."""
    _, _, restrict = _numbers()
    libc = libc or _libc()
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(NO_NEW_PRIVS): {os.strerror(err)}")
    if libc.syscall(restrict, ctypes.c_int(ruleset_fd), ctypes.c_uint32(0)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"landlock_restrict_self: {os.strerror(err)}")
