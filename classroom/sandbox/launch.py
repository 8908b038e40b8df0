"""Start untrusted code: the one place every student process (kernel or grading child) is launched through.

`bubblewrap(argv, home=...)` returns a bubblewrap (`bwrap`) command line that runs `argv` in a sandbox:
  * the file system holds only the system (/usr, /etc, /lib...) and the Python environment, read-only, plus the
    files named in `readonly`; `home` (the student's working copy) is a private, size-limited tmpfs, the only
    writable place besides a private /tmp and /dev/shm (size-limited tmpfs too); the sandbox's root and /dev are
    read-only. The course directory (source/, gradebook.db, submitted/, autograded/, feedback/, the exchange) is
    not mounted at all: the .venv lives inside the repository, so exactly the Python prefixes are bound, never the
    repository root;
  * no network (own network namespace, loopback only), own PID, IPC and UTS namespaces, and no further user
    namespaces (`--disable-userns`: `unshare -r` and its private mounts fail) where the machine allows
    unprivileged user namespaces at all (`mode()`);
  * the first process is the student's own (`--as-pid-1`), and `--die-with-parent` ties it to bwrap: when the
    grader kills bwrap, the kernel tears down the whole PID namespace, so nothing the student started survives;
  * a session of its own (`--new-session`): no controlling terminal, so even a terminal inherited by mistake cannot
    be sent keystrokes (the TIOCSTI ioctl) into the instructor's shell; the display kernel's standard streams lead
    nowhere anyway (classroom.sandbox.kernel), the grading child's are pipes;
  * that PID 1 (classroom/sandbox/init_process.py, standard library only) applies the resource limits (address space,
    CPU seconds, file size, processes) and starts the real command (as SANDBOX_UID, nobody, when the grader is
    root);
  * with `cgroup` (classroom.sandbox.cgroups), the launcher moves itself into that control group before bwrap
    starts, so the memory of the whole tree (tmpfs files and memfd included) and its number of processes are
    bounded.
How the sandbox talks to the grader: the grading child speaks over stdin/stdout pipes, which bwrap passes through;
the display kernel speaks ZeroMQ over *IPC* (unix sockets) in a per-kernel directory bound into the sandbox
(`ipc_dir`), because with its own network namespace the kernel's 127.0.0.1 is not the grader's. We chose that over
sharing the network namespace (then any egress would have to be blocked some other way) and over a kernelspec
wrapper (the kernel manager is already ours): no network at all is the simpler guarantee.

`limited(argv)` applies the same limits without bubblewrap. Which of the two a grading run uses is its launcher
(classroom.sandbox.launchers: bubblewrap unless the configuration says otherwise, knowingly). Without bwrap, the
bubblewrap launcher refuses with MISSING.
"""
import os
import shutil
import subprocess
import sys

from . import cgroups, init_process
from .init_process import SANDBOX_UID
from ..units import MiB

DISK, TMP = 256 * MiB, 64 * MiB  # the home tmpfs; /tmp and /dev/shm each
PROCESSES = 64
INIT = os.path.abspath(init_process.__file__)
INSIDE = "/run/classroom-sandbox.py"  # where init_process.py is bound inside the sandbox
INSTALL = """Install it:  Debian/Ubuntu: sudo apt-get install bubblewrap    Fedora: sudo dnf install bubblewrap
             Arch: sudo pacman -S bubblewrap                   (macOS has none: grade on Linux, e.g. in a VM)"""
MISSING = f"""Grading refuses to run: bubblewrap (`bwrap`) is not installed, and without it every student's code would
run with your rights (it could read source/ with the hidden tests and rewrite gradebook.db).
{INSTALL}
To grade WITHOUT a sandbox, knowingly (only on a machine or account that holds no other course data):
  python -m classroom.autograde ASSIGNMENT --no-sandbox      (plain nbgrader: --Grader.launcher_class=unsandboxed)"""
_mode = {}


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or does not work here; str() says how to install it and how to grade without."""


def bwrap_path():
    return shutil.which("bwrap")


def require():
    """Raise SandboxUnavailable (with MISSING) unless bubblewrap is installed."""
    if bwrap_path() is None:
        raise SandboxUnavailable(MISSING)


def hand_over(*paths):
    """Make paths the grader created usable by the sandboxed user (only needed when the grader is root)."""
    if os.geteuid() == 0:
        for path in paths:
            os.chown(path, SANDBOX_UID, SANDBOX_UID)


def mode():
    """Whether user namespaces can be forbidden inside the sandbox here (probed once): {"no_userns": bool,
    "inner": bool}. bubblewrap's `--disable-userns` needs a user namespace of its own; run by root, bwrap makes
    none, so a root grader forbids them in a second, unprivileged bwrap started as SANDBOX_UID inside the first
    (`inner`); anyone else's bwrap is unprivileged already and takes the flag itself."""
    if _mode.get("pid") != os.getpid():
        root = os.geteuid() == 0
        probe = [bwrap_path(), "--unshare-user", "--disable-userns", "--bind", "/", "/", "/bin/true"]
        ok = subprocess.run(probe, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=(lambda: init_process._become(SANDBOX_UID)) if root else None).returncode == 0
        _mode.clear()
        _mode.update(pid=os.getpid(), no_userns=ok, inner=ok and root)
    return _mode


def _python_roots():
    roots = set()
    for prefix in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix):
        roots.add(os.path.abspath(prefix))
        roots.add(os.path.realpath(prefix))
    roots.add(os.path.dirname(os.path.realpath(sys.executable)))
    roots = {r for r in roots if not r.startswith(("/usr/", "/etc/")) and r not in ("/usr", "/")}
    return sorted(r for r in roots if not any(r.startswith(other + "/") for other in roots))


def _bwrap_args(home, readonly, writable, ipc_dir, env, disk, tmp):
    args = [bwrap_path(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--as-pid-1", "--new-session", "--hostname", "sandbox", "--clearenv",
            "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc",
            "--perms", "01777", "--size", str(int(tmp)), "--tmpfs", "/tmp",
            "--perms", "01777", "--size", str(int(tmp)), "--tmpfs", "/dev/shm"]
    # Unprivileged, bwrap makes / and /dev the sandbox user's own: read-only then (run by root, they are root's).
    read_only = [] if os.geteuid() == 0 else ["--remount-ro", "/dev", "--remount-ro", "/"]
    if mode()["no_userns"] and not mode()["inner"]:
        args[1:1] = ["--unshare-user", "--disable-userns"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    mounted = {"/usr", "/etc", "/dev", "/proc", "/tmp", "/bin", "/sbin", "/lib", "/lib32", "/lib64"}
    made = set()

    def parents(path):  # bwrap would create missing parents 0700; the unprivileged user must traverse them
        out = []
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            parent = "/" + "/".join(parts[:i])
            if parent not in mounted and parent not in made and not any(
                    parent.startswith(m + "/") for m in mounted - {"/tmp"}):
                out += ["--perms", "0755", "--dir", parent]
                made.add(parent)
        return out

    for root in _python_roots():
        args += parents(root) + ["--ro-bind", root, root]
        mounted.add(root)
    args += parents(INSIDE) + ["--ro-bind", INIT, INSIDE]
    for path in readonly:
        args += parents(path) + ["--ro-bind", path, path]
    if home is not None:
        args += parents(home) + ["--perms", "0777", "--size", str(int(disk)), "--tmpfs", home]
        mounted.add(home)
        for folder, names, files in os.walk(home):  # the working copy (the data, modules... the notebook reads)
            names.sort()
            for name in names:  # made afresh in the tmpfs: what the student's code writes there is held by it
                args += ["--perms", "0777", "--dir", os.path.join(folder, name)]
            for name in sorted(files):
                full = os.path.join(folder, name)
                if os.path.isfile(full) and not os.path.islink(full):
                    os.chmod(full, 0o666)
                    args += ["--bind", full, full]
        args += ["--chdir", home]
    for path in writable:
        args += parents(path) + ["--bind", path, path]
    if ipc_dir is not None:
        args += parents(ipc_dir) + ["--bind", ipc_dir, ipc_dir]
    for key, value in (env or {}).items():
        args += ["--setenv", key, value]
    return args + read_only


def _limits(memory, cpu_seconds, file_size, processes, cgroup):
    """The launcher's options: the resource limits, and the control group to enter first."""
    enter = [arg for procs in (cgroup.procs_files if cgroup else []) for arg in ("--cgroup-procs", procs)]
    return enter, ["--memory", str(int(memory)), "--cpu", str(int(cpu_seconds)), "--fsize", str(int(file_size)),
                   "--nproc", str(int(processes))]


def limited(argv, memory=2048 * MiB, cpu_seconds=120, file_size=64 * MiB, processes=PROCESSES, *, cgroup=None):
    """The command that runs `argv` with the limits applied (address space, CPU seconds, file size, processes) and
    inside `cgroup` (a classroom.sandbox.cgroups.Cgroup) if given, but with the grader's rights: no sandbox."""
    enter, limits = _limits(memory, cpu_seconds, file_size, processes, cgroup)
    return [sys.executable, "-I", "-S", INIT, *enter, *limits, "--", *argv]


def bubblewrap(argv, memory=2048 * MiB, cpu_seconds=120, file_size=64 * MiB, processes=PROCESSES, *, home=None,
               readonly=(), writable=(), ipc_dir=None, env=None, disk=DISK, tmp=TMP, cgroup=None):
    """The command that runs `argv` inside bubblewrap, with the limits of `limited`. `home` becomes a fresh tmpfs of
    `disk` bytes (its current files bound in), `readonly` files and `writable` files or directories are bound at the
    same paths (the writable ones, and `ipc_dir` with what it holds, handed over to the sandbox's user), `env` is
    the whole environment. Raises SandboxUnavailable if bubblewrap is missing."""
    require()
    enter, limits = _limits(memory, cpu_seconds, file_size, processes, cgroup)
    shared = [ipc_dir, *(os.path.join(ipc_dir, name) for name in os.listdir(ipc_dir))] if ipc_dir else []
    hand_over(*writable, *shared)
    inner = ["--no-userns", bwrap_path()] if mode()["inner"] else []
    command = [*_bwrap_args(home, readonly, writable, ipc_dir, env, disk, tmp),
               sys.executable, "-I", "-S", INSIDE, *limits, *inner, "--in-sandbox", "--", *argv]
    return [sys.executable, "-I", "-S", INIT, *enter, "--", *command] if enter else command


MAX_DATA_FILES = 2000  # files of an assignment's working copy (each is bound into the sandbox on its own)


def copy_data_files(folder, home):
    """Copy the files in `folder` and its sub-folders that are not notebooks at its top (the assignment's files: data,
    modules; its notebooks hold the tests) into `home`, the working copy a student process starts in (bound into the
    sandbox, see `bubblewrap`), as the notebook sees them beside it. Links are left out; so are the grader's own
    files (whose names start with `.classroom-`), and anything past MAX_DATA_FILES files."""
    if not folder or not os.path.isdir(folder):
        return
    copied = 0
    for parent, names, files in os.walk(folder):
        names[:] = sorted(n for n in names if not os.path.islink(os.path.join(parent, n)))
        for name in sorted(files):
            full = os.path.join(parent, name)
            if (parent == folder and name.endswith(".ipynb")) or name.startswith(".classroom-") \
                    or os.path.islink(full) or not os.path.isfile(full) or copied >= MAX_DATA_FILES:
                continue
            target = os.path.join(home, os.path.relpath(parent, folder))
            os.makedirs(target, exist_ok=True)
            shutil.copy(full, target)
            copied += 1


def tree_memory(memory):
    """What a sandboxed tree may hold in all, in its control group: `memory` plus its tmpfs files."""
    return int(memory) + DISK + 2 * TMP


def new_cgroup(memory, processes=PROCESSES):
    """A control group for one sandboxed tree (classroom.sandbox.cgroups), or None where the machine offers none: it
    holds at most tree_memory(memory) bytes and the student's `processes` plus bwrap's and the launcher's."""
    return cgroups.Cgroup.create(tree_memory(memory), processes + 8)


def untrusted_env(home):
    """A small environment for a student process: nothing of the grader's is passed on, BLAS kept single-threaded,
    and nbgrader's NBGRADER_EXECUTION, which a notebook reads to skip cells (widgets, long demos) while graded."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    if os.environ.get("NBGRADER_EXECUTION") in ("autograde", "validate"):  # nbgrader's word to the notebook: graded
        env["NBGRADER_EXECUTION"] = os.environ["NBGRADER_EXECUTION"]
    return env
