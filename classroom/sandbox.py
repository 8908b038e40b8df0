"""Start untrusted code: the one place every student process (kernel or grading child) is launched through.

`wrap(argv, home=...)` returns a bubblewrap (`bwrap`) command line that runs `argv` in a sandbox:
  * the file system holds only the system (/usr, /etc, /lib...) and the Python environment, read-only, plus the
    files named in `readonly`; `home` (the student's working copy) is a private, size-limited tmpfs, the only
    writable place besides a private /tmp. The course directory (source/, gradebook.db, submitted/, autograded/,
    feedback/, the exchange) is not mounted at all: the .venv lives inside the repository, so exactly the Python
    prefixes are bound, never the repository root;
  * no network (own network namespace, loopback only), own PID, IPC and UTS namespaces;
  * the first process is the student's own (`--as-pid-1`), and `--die-with-parent` ties it to bwrap: when the
    grader kills bwrap, the kernel tears down the whole PID namespace, so nothing the student started survives;
  * that PID 1 (a script, standard library only: `python -I -S`) applies the resource limits (address space, CPU
    seconds, file size, processes), starts the real command as its only child (as SANDBOX_UID if bwrap is root),
    ignores the interrupts meant for that child, and exits with its status.
How the sandbox talks to the grader: the grading child speaks over stdin/stdout pipes, which bwrap passes through;
the display kernel speaks ZeroMQ over *IPC* (unix sockets) in a per-kernel directory bound into the sandbox
(`ipc_dir`), because with its own network namespace the kernel's 127.0.0.1 is not the grader's. We chose that over
sharing the network namespace (then any egress would have to be blocked some other way) and over a kernelspec
wrapper (the kernel manager is already ours): no network at all is the simpler guarantee.

Processes: RLIMIT_NPROC counts processes per user, and root (kuid 0) is exempt from it; set inside a user
namespace it counts that namespace's processes (Linux >= 5.14). So when the grader is root the student's code runs
as SANDBOX_UID (nobody), never as root, and the limit holds either way.

`wrap(argv, sandboxed=False)` applies the same limits without bubblewrap; only an explicit flag reaches it
(`python -m classroom.autograde ... --no-sandbox`, i.e. `--Sandbox.enabled=False`). Without bwrap, grading refuses
with MISSING.
"""
import json
import os
import shutil
import sys

MiB = 2 ** 20
HERE = os.path.abspath(__file__)
INSIDE = "/run/classroom-sandbox.py"  # where this file is bound inside the sandbox
SANDBOX_UID = 65534  # nobody: whom the student's code runs as when the grader is root
MISSING = """Grading refuses to run: bubblewrap (`bwrap`) is not installed, and without it every student's code would
run with your rights (it could read source/ with the hidden tests and rewrite gradebook.db).
Install it:  Debian/Ubuntu: sudo apt-get install bubblewrap    Fedora: sudo dnf install bubblewrap
             Arch: sudo pacman -S bubblewrap                   (macOS has none: grade on Linux, e.g. in a VM)
To grade WITHOUT a sandbox, knowingly (only on a machine or account that holds no other course data):
  python -m classroom.autograde ASSIGNMENT --no-sandbox      (plain nbgrader: --Sandbox.enabled=False)"""


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
            "--die-with-parent", "--as-pid-1", "--hostname", "sandbox", "--clearenv",
            "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc",
            "--perms", "01777", "--size", str(int(tmp)), "--tmpfs", "/tmp"]
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
    args += parents(INSIDE) + ["--ro-bind", HERE, INSIDE]
    for path in readonly:
        args += parents(path) + ["--ro-bind", path, path]
    if home is not None:
        args += parents(home) + ["--perms", "0777", "--size", str(int(disk)), "--tmpfs", home]
        mounted.add(home)
        for name in sorted(os.listdir(home)):  # the working copy's files (data the notebook reads)
            full = os.path.join(home, name)
            if os.path.isfile(full):
                os.chmod(full, 0o666)
                args += ["--bind", full, full]
        args += ["--chdir", home]
    for path in writable:
        args += parents(path) + ["--bind", path, path]
    if ipc_dir is not None:
        args += parents(ipc_dir) + ["--bind", ipc_dir, ipc_dir]
    for key, value in (env or {}).items():
        args += ["--setenv", key, value]
    return args


def wrap(argv, memory=2048 * MiB, cpu_seconds=120, file_size=64 * MiB, processes=64, *, sandboxed=True,
         home=None, readonly=(), writable=(), ipc_dir=None, env=None, disk=256 * MiB, tmp=64 * MiB):
    """The command that runs `argv` with the limits applied (address space, CPU seconds, file size, processes),
    inside bubblewrap unless `sandboxed` is False. `home` becomes a fresh tmpfs of `disk` bytes (its current files
    bound in), `readonly` files and `writable` directories are bound at the same paths, `env` is the whole
    environment. Raises SandboxUnavailable if bubblewrap is missing."""
    limits = ["--memory", str(int(memory)), "--cpu", str(int(cpu_seconds)), "--fsize", str(int(file_size)),
              "--nproc", str(int(processes))]
    if not sandboxed:
        return [sys.executable, "-I", "-S", HERE, *limits, "--", *argv]
    require()
    return [*_bwrap_args(home, readonly, writable, ipc_dir, env, disk, tmp),
            sys.executable, "-I", "-S", INSIDE, *limits, "--in-sandbox", "--", *argv]


def student_pid(fd, timeout=10.0):
    """The host pid of the student's process: bwrap writes the pid of PID 1 (this file, inside) to `--info-fd`;
    the student's process is its first child."""
    import time
    init = int(_read_info(fd, timeout)["child-pid"])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(f"/proc/{init}/task/{init}/children") as children:
            found = children.read().split()
        if found:
            return int(found[0])
        time.sleep(0.001)
    raise TimeoutError("the sandbox started no process")


def _read_info(fd, timeout):
    import select
    data = b""
    while True:
        if not select.select([fd], [], [], timeout)[0]:
            raise TimeoutError("bubblewrap did not report its child")
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
        try:
            return json.loads(data)
        except ValueError:
            continue
    return json.loads(data or b"{}")


def untrusted_env(home):
    """A small environment for a student process: nothing of the grader's is passed on, BLAS kept single-threaded."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    return env


def main(args):
    import resource
    limits = {"--memory": resource.RLIMIT_AS, "--cpu": resource.RLIMIT_CPU, "--fsize": resource.RLIMIT_FSIZE,
              "--nproc": resource.RLIMIT_NPROC}
    split = args.index("--")
    options, argv = args[:split], args[split + 1:]
    inside = "--in-sandbox" in options
    options = [o for o in options if o != "--in-sandbox"]
    for flag, value in zip(options[::2], options[1::2]):
        value = int(value)
        if value > 0 and (inside or flag != "--nproc"):  # outside, NPROC would count all the grader's processes
            resource.setrlimit(limits[flag], (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not inside:
        os.execv(argv[0], argv)
    import signal
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)  # a kernel interrupt reaches the child through the process group
    pid = os.fork()
    if pid == 0:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_DFL)
        try:
            if os.getuid() == 0:  # bwrap ran as root and kept every capability: the student's code gets none
                os.setgroups([])
                os.setgid(SANDBOX_UID)
                os.setuid(SANDBOX_UID)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    while True:
        try:
            got, status = os.waitpid(-1, 0)  # reap orphans too; leave when the student's process ends
        except ChildProcessError:
            os._exit(1)
        if got == pid:
            os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))

if __name__ == "__main__":
    main(sys.argv[1:])
