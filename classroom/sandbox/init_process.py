"""The two small steps around bubblewrap, standard library only (started as `python -I -S init_process.py ...`):

* outside, the launcher: moves itself into the tree's control group (`--cgroup-procs FILE`, see
  classroom.sandbox.cgroups), applies the resource limits when there is no sandbox, and execs the command;
* inside (`--in-sandbox`), PID 1 of the sandbox: applies the resource limits (address space, CPU seconds, file size,
  processes), starts the real command as its only child (as SANDBOX_UID if it is still root), ignores the
  interrupts meant for that child, reaps orphans, and exits with the child's status. With `--no-userns BWRAP`
  (a root grader: the outer bubblewrap ran as root, so it could not forbid user namespaces itself), that child,
  once SANDBOX_UID, runs the command through an unprivileged bubblewrap that only adds `--disable-userns`, and
  sets the process limit only inside it (`--then-exec`: limits, then exec), so that the count is that tree's own.

RLIMIT_NPROC counts processes per user, and root (kuid 0) is exempt from it; inside a user namespace it counts that
namespace's processes (Linux >= 5.14), so each sandbox has its own count.
"""
import os
import sys

SANDBOX_UID = 65534  # nobody: whom the student's code runs as when the grader is root


def _options(args):
    split = args.index("--")
    options, argv = args[:split], args[split + 1:]
    flags = {"--in-sandbox": False, "--then-exec": False}  # the other options take one value
    pairs = []
    i = 0
    while i < len(options):
        if options[i] in flags:
            flags[options[i]] = True
            i += 1
        else:
            pairs.append((options[i], options[i + 1]))
            i += 2
    return pairs, flags["--in-sandbox"] and not flags["--then-exec"], flags["--then-exec"], argv


def _become(uid):
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def main(args):
    import resource
    limits = {"--memory": resource.RLIMIT_AS, "--cpu": resource.RLIMIT_CPU, "--fsize": resource.RLIMIT_FSIZE,
              "--nproc": resource.RLIMIT_NPROC}
    pairs, inside, then_exec, argv = _options(args)
    inner = dict(pairs).get("--no-userns")
    if inner and inside:  # the process count is set after the inner user namespace exists, so it is that tree's
        pairs = [(flag, value) for flag, value in pairs if flag != "--nproc"]
    for flag, value in pairs:
        if flag == "--cgroup-procs":  # writing 0 moves the writer; everything it starts stays in the group
            with open(value, "w") as procs:
                procs.write("0")
    for flag, value in pairs:
        if flag in limits and int(value) > 0 and (inside or then_exec or flag != "--nproc"):
            resource.setrlimit(limits[flag], (int(value), int(value)))  # outside, NPROC would count the grader's
    if any(flag in limits for flag, _ in pairs):
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
                _become(SANDBOX_UID)
            if inner:
                nproc = dict(_options(args)[0])["--nproc"]
                argv = [inner, "--unshare-user", "--disable-userns", "--dev-bind", "/", "/", "--die-with-parent",
                        "--", sys.executable, "-I", "-S", os.path.abspath(__file__), "--nproc", nproc,
                        "--then-exec", "--", *argv]
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
