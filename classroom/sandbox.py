"""Start untrusted code: the one place every student process (kernel or grading child) is launched through.

Today it applies resource limits and then `exec`s the real command; a later sandbox (bubblewrap) wraps here.
Run as a script with the standard library only (`python -I -S sandbox.py --memory BYTES -- ARGV...`),
so it adds a few milliseconds and imports nothing the student could have touched.
"""
import os
import sys

MiB = 2 ** 20
HERE = os.path.abspath(__file__)


def wrap(argv, memory=2048 * MiB, cpu_seconds=120, file_size=64 * MiB):
    """Return the command that runs `argv` with the limits applied (address space, CPU seconds, file size)."""
    return [sys.executable, "-I", "-S", HERE, "--memory", str(int(memory)), "--cpu", str(int(cpu_seconds)),
            "--fsize", str(int(file_size)), "--", *argv]


def untrusted_env(home):
    """A small environment for a grading child: nothing of the grader's is passed on, BLAS kept single-threaded."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    return env


def main(args):
    import resource
    limits = {"--memory": resource.RLIMIT_AS, "--cpu": resource.RLIMIT_CPU, "--fsize": resource.RLIMIT_FSIZE}
    split = args.index("--")
    options, argv = args[:split], args[split + 1:]
    for flag, value in zip(options[::2], options[1::2]):
        value = int(value)
        if value > 0:
            resource.setrlimit(limits[flag], (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
