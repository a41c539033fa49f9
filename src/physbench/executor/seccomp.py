"""A seccomp-BPF syscall filter for a sandboxed program, built with ctypes (no dependency).

Denied with EPERM: sockets, exec, fork/clone (so also threads), opening files for writing or
creating them, every call that changes the file system, signals to any process but itself,
ptrace and friends, io_uring (which would bypass the filter), namespaces (unshare, setns),
mounts, modules, privilege changes, rlimit changes, process groups and sessions (setpgid,
setsid), prctl and seccomp itself, System V / POSIX IPC, terminal input injection (TIOCSTI). A foreign syscall ABI (x32, or i386 on x86_64) kills the process. Reading
files stays allowed: the interpreter may still import lazily; Landlock narrows where.
Syscall numbers from the kernel's unistd_64.h (x86_64) and asm-generic/unistd.h (aarch64).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

# name: (x86_64 number, aarch64 number); None where that ABI lacks the call
DENIED: dict[str, tuple[int | None, int | None]] = {
    "socket": (41, 198), "socketpair": (53, 199), "connect": (42, 203), "bind": (49, 200),
    "listen": (50, 201), "accept": (43, 202), "accept4": (288, 242), "execve": (59, 221),
    "execveat": (322, 281), "fork": (57, None), "vfork": (58, None), "clone": (56, 220),
    "clone3": (435, 435), "ptrace": (101, 117), "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271), "pidfd_open": (434, 434), "pidfd_send_signal": (424, 424),
    "pidfd_getfd": (438, 438), "openat2": (437, 437), "creat": (85, None), "unlink": (87, None),
    "unlinkat": (263, 35), "rename": (82, None), "renameat": (264, 38), "renameat2": (316, 276),
    "mkdir": (83, None), "mkdirat": (258, 34), "rmdir": (84, None), "link": (86, None),
    "linkat": (265, 37), "symlink": (88, None), "symlinkat": (266, 36), "chmod": (90, None),
    "fchmod": (91, 52), "fchmodat": (268, 53), "chown": (92, None), "fchown": (93, 55),
    "lchown": (94, None), "fchownat": (260, 54), "truncate": (76, 45), "ftruncate": (77, 46),
    "mknod": (133, None), "mknodat": (259, 33), "mount": (165, 40), "umount2": (166, 39),
    "pivot_root": (155, 41), "chroot": (161, 51), "setxattr": (188, 5), "lsetxattr": (189, 6),
    "fsetxattr": (190, 7), "removexattr": (197, 14), "lremovexattr": (198, 15),
    "fremovexattr": (199, 16), "utime": (132, None), "utimes": (235, None), "utimensat": (280, 88),
    "futimesat": (261, None), "memfd_create": (319, 279), "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426), "io_uring_register": (427, 427), "bpf": (321, 280),
    "perf_event_open": (298, 241), "userfaultfd": (323, 282), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "unshare": (272, 97), "setns": (308, 268),
    "init_module": (175, 105), "finit_module": (313, 273), "delete_module": (176, 106),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294), "reboot": (169, 142),
    "swapon": (167, 224), "swapoff": (168, 225), "sethostname": (170, 161),
    "setdomainname": (171, 162), "settimeofday": (164, 170), "clock_settime": (227, 112),
    "clock_adjtime": (305, 266), "adjtimex": (159, 171), "acct": (163, 89), "quotactl": (179, 60),
    "syslog": (103, 116), "ioperm": (173, None), "iopl": (172, None), "move_pages": (279, 239),
    "migrate_pages": (256, 238), "name_to_handle_at": (303, 264), "open_by_handle_at": (304, 265),
    "fanotify_init": (300, 262), "lookup_dcookie": (212, 18), "vhangup": (153, 58),
    "setuid": (105, 146), "setgid": (106, 144), "setreuid": (113, 145), "setregid": (114, 143),
    "setresuid": (117, 147), "setresgid": (119, 149), "setfsuid": (122, 151),
    "setfsgid": (123, 152), "setgroups": (116, 159), "capset": (126, 91),
    "mount_setattr": (442, 442), "move_mount": (429, 429), "open_tree": (428, 428),
    "fsopen": (430, 430), "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433),
    "fchmodat2": (452, 452),
    "setrlimit": (160, 164), "prlimit64": (302, 261),
    # process groups, sessions and process attributes: a program stays in the job the zygote kills
    "setpgid": (109, 154), "setsid": (112, 157), "prctl": (157, 167), "seccomp": (317, 277),
    "personality": (135, 92), "kcmp": (312, 272), "process_madvise": (440, 440),
    "process_mrelease": (448, 448), "setpriority": (141, 140), "ioprio_set": (251, 30),
    "sched_setscheduler": (144, 119), "sched_setparam": (142, 118), "sched_setattr": (314, 274),
    # System V and POSIX message queues / shared memory: channels to other processes
    "shmget": (29, 194), "shmat": (30, 196), "shmctl": (31, 195), "shmdt": (67, 197),
    "msgget": (68, 186), "msgsnd": (69, 189), "msgrcv": (70, 188), "msgctl": (71, 187),
    "semget": (64, 190), "semop": (65, 193), "semctl": (66, 191), "semtimedop": (220, 192),
    "mq_open": (240, 180), "mq_unlink": (241, 181), "mq_timedsend": (242, 182),
    "mq_timedreceive": (243, 183), "mq_notify": (244, 184), "mq_getsetattr": (245, 185),
    "fanotify_mark": (301, 263), "inotify_init": (253, None), "inotify_init1": (294, 26),
    "uselib": (134, None), "sysfs": (139, None), "ustat": (136, None),
    "landlock_create_ruleset": (444, 444), "landlock_add_rule": (445, 445),
    "landlock_restrict_self": (446, 446),
}
OPEN = {"x86_64": ((2, 1), (257, 2)), "aarch64": ((56, 2),)}  # (number, index of the flags argument)
# kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo: arg 0 is the target process
SIGNALS = {"x86_64": (62, 200, 234, 129, 297), "aarch64": (129, 130, 131, 138, 240)}
IOCTL = {"x86_64": 16, "aarch64": 29}
TTY_IOCTLS = (0x5412, 0x541C)  # TIOCSTI (push input into a terminal), TIOCLINUX
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_BIT = 0x40000000

# O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | __O_TMPFILE (same values on both ABIs)
WRITE_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000 | 0o20000000

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL_PROCESS, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_NR, _ARCH = 0, 4
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


def machine() -> str | None:
    """The syscall table this host uses, or None when we have none for it."""
    m = platform.machine().lower()
    return {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(m)


def _arg_low(index: int) -> int:
    return 16 + 8 * index  # offsetof(struct seccomp_data, args[index]), low word (little-endian)


def build_filter(own_pid: int, arch: str) -> list[tuple[int, int, int, int]]:
    """The BPF program as (code, jt, jf, k) rows; signals are allowed only to `own_pid`."""
    deny = (_RET, 0, 0, _ERRNO | errno.EPERM)
    prog = [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ, 1, 0, AUDIT_ARCH[arch]), (_RET, 0, 0, _KILL_PROCESS),
            (_LD_W_ABS, 0, 0, _NR)]
    if arch == "x86_64":
        prog += [(_JGE, 0, 1, X32_BIT), (_RET, 0, 0, _KILL_PROCESS)]
    index = 0 if arch == "x86_64" else 1
    for numbers in DENIED.values():
        nr = numbers[index]
        if nr is not None:
            prog += [(_JEQ, 0, 1, nr), deny]
    for nr, flags_arg in OPEN[arch]:
        # not this call: skip the 4-row check; else load flags and deny any write flag
        prog += [(_JEQ, 0, 4, nr), (_LD_W_ABS, 0, 0, _arg_low(flags_arg)), (_JSET, 0, 1, WRITE_FLAGS),
                 deny, (_RET, 0, 0, _ALLOW)]
    for nr in SIGNALS[arch]:
        prog += [(_JEQ, 0, 4, nr), (_LD_W_ABS, 0, 0, _arg_low(0)), (_JEQ, 1, 0, own_pid), deny,
                 (_RET, 0, 0, _ALLOW)]
    # ioctl: deny the terminal-injection requests (arg 1), allow the rest
    prog += [(_JEQ, 0, 2 + 2 * len(TTY_IOCTLS), IOCTL[arch]), (_LD_W_ABS, 0, 0, _arg_low(1))]
    for request in TTY_IOCTLS:
        prog += [(_JEQ, 0, 1, request), deny]
    prog.append((_RET, 0, 0, _ALLOW))
    prog.append((_RET, 0, 0, _ALLOW))
    return prog


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_ROW = struct.Struct("=HBBI")
_PID_PLACEHOLDER = 0x7FFFFFF0  # no real pid; replaced in each child before loading


class Prepared:
    """A filter built once in the warm parent; `load` patches in the child's pid and installs it."""

    def __init__(self, libc: ctypes.CDLL | None = None) -> None:
        arch = machine()
        if arch is None:
            raise OSError(errno.ENOSYS, f"no syscall table for {platform.machine()}")
        rows = build_filter(_PID_PLACEHOLDER, arch)
        self.pid_offsets = [i * _ROW.size + 4 for i, row in enumerate(rows) if row[3] == _PID_PLACEHOLDER]
        self.buffer = ctypes.create_string_buffer(b"".join(_ROW.pack(*row) for row in rows))
        self.prog = _SockFprog(len(rows), ctypes.cast(self.buffer, ctypes.c_void_p))
        self.libc = libc or ctypes.CDLL(None, use_errno=True)

    def load(self, own_pid: int) -> None:
        """Set no-new-privs and load the filter into this (single-threaded) process; raises OSError."""
        for offset in self.pid_offsets:
            struct.pack_into("=I", self.buffer, offset, own_pid)
        if self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"prctl(NO_NEW_PRIVS): {os.strerror(err)}")
        if self.libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(self.prog), 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"prctl(SECCOMP): {os.strerror(err)}")


def install(own_pid: int | None = None) -> None:
    """Build and load the filter in one step (used by the layer probe)."""
    Prepared().load(own_pid if own_pid is not None else os.getpid())
