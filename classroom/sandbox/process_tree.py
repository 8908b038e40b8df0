"""The resident memory and the CPU time of a process tree, read from outside it: the grading child's
(classroom.trusted.child_handle) and a sandboxed kernel's (classroom.sandbox.cell_limits), so that the machine's load
does not change what a limit counts. Where the tree has a control group that counts CPU time
(classroom.sandbox.cgroups), its CPU time is read there: one file, where psutil reads a file per process and, to find
the processes, one per process of the machine (a grading child answers hundreds of calls per submission, each read
before and after)."""
import time
from typing import NamedTuple

import psutil

RESCAN = 0.02  # seconds between two searches for the processes of a tree without a control group
CPU_RESCAN = 0.5  # seconds between two searches for the processes whose CPU time a request uses


class CpuTime(NamedTuple):
    """CPU seconds a tree has used: `user`, running its own code, and `total`, with what the kernel did for it
    (system time). A limit on one step (a call, a cell) counts `user`: the kernel's share is mostly handing out fresh
    memory, whose cost on a virtual machine varies tenfold with the host (on this project's 2-core machine, 9
    microseconds a page the host had not given it yet, 0.8 a page it had), so that the same honest code would pass
    or fail with the state of the host (docs/sandbox.md). Budgets of a whole
    submission count `total`, so that nothing a student's code makes the kernel do escapes them."""
    user: float
    total: float


class Tree:
    """The resident memory and the CPU time of a process and all its descendants (psutil). psutil finds descendants
    by reading every process of the machine, far slower than one reading, so the tree is found again at most every
    RESCAN seconds for memory (where a new process must be seen at once) and every CPU_RESCAN seconds for CPU time;
    the memory of its processes is read every time (those that exited count nothing), and their CPU time with that
    of the children they have reaped."""

    def __init__(self, pid, cgroup=None):
        self.pid, self.found, self.when, self.gone = pid, [], float("-inf"), CpuTime(0.0, 0.0)
        self.cgroup = cgroup  # the tree's classroom.sandbox.cgroups.Cgroup, or None

    def _rescan(self, interval):
        if time.monotonic() - self.when >= interval:
            try:
                top = psutil.Process(self.pid)
                self.found = [top, *top.children(recursive=True)]
            except psutil.Error:
                self.found = []
            self.when = time.monotonic()

    def cpu(self, rescan=False):
        """CpuTime the tree has used; each part only ever grows (an exited process keeps its share). `rescan`: look
        for the tree's processes now (once the child is up), not only every CPU_RESCAN seconds."""
        counted = self.cgroup.cpu_times() if self.cgroup is not None else None
        if counted is None:
            self._rescan(0.0 if rescan else CPU_RESCAN)
            user = total = 0.0
            for process in self.found:
                try:
                    times = process.cpu_times()
                except psutil.Error:
                    continue
                user += times.user + times.children_user
                total += times.user + times.system + times.children_user + times.children_system
            counted = user, total
        self.gone = CpuTime(max(self.gone.user, counted[0]), max(self.gone.total, counted[1]))
        return self.gone

    def rss(self):
        self._rescan(RESCAN)
        total = 0
        for process in self.found:
            try:
                total += process.memory_info().rss
            except psutil.Error:
                pass
        return total
