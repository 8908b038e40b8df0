"""Where `make test`'s time goes: the CPU seconds of every test file, with all the processes it started (kernels,
graders, sandboxes, servers, the browser), beside its seconds on the clock; then the same of the costliest tests, each
with its fixtures' set-up and tear-down (a module's shared fixture counts in its first test).

The suite is CPU-bound on a 2-core machine, so the clock of one file says little (it waits for the other worker's
file); its CPU time says what it costs. Each pytest-xdist worker moves itself into a v1 `cpuacct` control group of
its own, which counts everything it starts (the sandboxes' groups are made inside the grader's own,
classroom.sandbox.cgroups, and v1 counts a group's children), and reads it before and after each test.

    python -m bench.suite_cpu [PYTEST ARGS]     (from the repository root, as root; no arguments: the whole suite)

Needs root and a v1 cpuacct hierarchy (/sys/fs/cgroup/cpuacct); elsewhere it says so and stops.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
OUT = "SQDK_SUITE_CPU_OUT"  # where each worker writes its figures (set by main for the workers)
SHOWN = 40  # files in the table


class _Worker:
    """One pytest-xdist worker's group and figures: {file: [CPU seconds, clock seconds]}."""

    def __init__(self, name):
        self.name = name
        self.group = CPUACCT / f"suite-cpu-{name}-{os.getpid()}"
        self.group.mkdir()
        (self.group / "cgroup.procs").write_text(str(os.getpid()))
        self.files = defaultdict(lambda: [0.0, 0.0])
        self.tests = {}  # {test id: [CPU seconds, clock seconds]}, its fixtures' set-up and tear-down included
        self.started = None

    def usage(self):
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    def close(self):
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))  # back to the root group, so ours can go
        for child in sorted(self.group.rglob("*"), reverse=True):  # groups a test left behind, deepest first
            if child.is_dir():
                child.rmdir()
        self.group.rmdir()
        (Path(os.environ[OUT]) / f"{self.name}.json").write_text(json.dumps({"files": self.files, "tests": self.tests}))


_worker = None


def pytest_configure(config):
    global _worker
    if os.environ.get(OUT) and os.environ.get("PYTEST_XDIST_WORKER"):
        _worker = _Worker(os.environ["PYTEST_XDIST_WORKER"])


def pytest_unconfigure(config):
    if _worker is not None:
        _worker.close()


def pytest_runtest_logstart(nodeid, location):
    if _worker is not None:
        _worker.started = (_worker.usage(), time.monotonic())


def pytest_runtest_logfinish(nodeid, location):
    if _worker is not None and _worker.started is not None:
        cpu, clock = _worker.started
        spent = [_worker.usage() - cpu, time.monotonic() - clock]
        figures = _worker.files[nodeid.split("::")[0]]
        figures[0] += spent[0]
        figures[1] += spent[1]
        _worker.tests[nodeid] = spent
        _worker.started = None


def table(files, shown=SHOWN, what="test file"):
    """The figures {file: [CPU s, clock s]} as lines of text, the costliest first, and the totals."""
    total = sum(cpu for cpu, _ in files.values())
    lines = [f"{'CPU s':>8} {'clock s':>8}  {what} (the {min(shown, len(files))} costliest of {len(files)})"]
    for name, (cpu, clock) in sorted(files.items(), key=lambda item: -item[1][0])[:shown]:
        lines.append(f"{cpu:8.1f} {clock:8.1f}  {name}")
    lines.append(f"{total:8.1f} {'':8}  all {len(files)} together")
    return lines


def main(args):
    """Run pytest with `args` (its own command-line arguments; none: the whole suite) and print the table."""
    if os.geteuid() != 0 or not (CPUACCT / "cgroup.procs").exists():
        sys.exit("bench.suite_cpu: needs root and a v1 cpuacct hierarchy at /sys/fs/cgroup/cpuacct (this machine has "
                 "neither or not both); run the suite with `make test` and read pytest's --durations instead")
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as out:
        command = [sys.executable, "-m", "pytest", "-n", "auto", "--dist", "loadfile", "--no-loadscope-reorder", "-q",
                   "-p", "bench.suite_cpu", *args]
        started = time.monotonic()
        run = subprocess.run(command, env=dict(os.environ, **{OUT: out}))
        files, tests = {}, {}
        for worker in Path(out).glob("*.json"):
            figures = json.loads(worker.read_text())
            files.update(figures["files"])
            tests.update(figures["tests"])
    print("\n".join(table(files)))
    print("\n".join(table(tests, what="test, with its fixtures")))
    print(f"pytest's exit status {run.returncode}, {time.monotonic() - started:.0f} s on the clock")
    return run.returncode


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.suite_cpu",
                                     description="The CPU seconds of every test file of `make test` and of its "
                                                 "costliest tests, with everything they started, beside their "
                                                 "seconds on the clock.")
    parser.add_argument("pytest_args", nargs=argparse.REMAINDER,
                        help="pytest's own arguments, e.g. tests/grading -k semester (none: the whole suite)")
    sys.exit(main(parser.parse_args().pytest_args))
