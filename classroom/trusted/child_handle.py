"""The grader's handle on one grading child process (the child itself is classroom.trusted.server): it starts the
child with the grading run's launcher (classroom.sandbox.launchers), speaks classroom.trusted.protocol to it and
watches it from outside.

`ChildHandle.request` sends one frame and waits for the reply, reading at most `max_reply` bytes, for at most `cpu`
seconds of the CPU time the child's process tree uses running its own code and `total` seconds with the kernel's
work for it (classroom.sandbox.process_tree.CpuTime: read from outside, so that the load of the machine does not
change it), and at most `timeout` seconds on the clock, a limit for code that waits rather than computes (a child
still computing at that time is given more, however loaded the machine); a child that runs past either raises
TimeoutError (OutOfCpuTime for the first two), one that dies or overflows raises StudentError (with its kind).

What the grader decides on is read by the grader itself, never reported by the child:
  * the arguments of a call live in two files the grader writes (classroom.trusted.inputs): the child maps the
    writeable ones shared and the read-only ones read-only (bound read-only into the sandbox, owned by the grader),
    and after the call the grader reads the writeable file back itself;
  * memory is read from the tree's control group (classroom.sandbox.cgroups: its usage and the peak the grader resets
    and reads; /sys is not in the sandbox), or without one by summing the resident memory of the tree's processes
    (psutil, classroom.sandbox.process_tree), polled during the call (`request(..., watch=...)`).
"""
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import time

from ..sandbox import launch, scratch
from ..sandbox.process_tree import Tree
from ..sandbox.launchers import BubblewrapLauncher
from ..units import MiB
from . import failures, protocol, server
from .student_errors import StudentError
from .inputs import Inputs

POLL = 0.002  # seconds between two readings of memory while a measured call runs
CPU_POLL = 0.02  # seconds between two readings of the CPU time a request has used
COMPUTING = 0.05  # share of a CPU that a child past its time on the clock must be using to be given more


class OutOfCpuTime(TimeoutError):
    """A request used more CPU time than it may: `total` says it ran into its `total` limit rather than `cpu`."""

    def __init__(self, total):
        super().__init__("all the CPU time it may use" if total else "the CPU time its code may use")
        self.total = total


class ChildHandle:
    """The handle on one running grading child (server.py, started by `launcher`: the sandbox unless one is given),
    in a working folder of its own that holds a copy of the files directly in `data_folder` (the assignment's data
    files)."""

    def __init__(self, memory, max_reply, launcher=None, cpu_seconds=120, processes=launch.PROCESSES,
                 data_folder=None):
        self.home = scratch.folder("grading-child")
        self.inputs = Inputs()
        self.max_reply = max_reply
        self.proc = None
        self.limit = launch.tree_memory(memory)
        self.cgroup = launch.new_cgroup(memory, processes)
        try:
            launch.copy_data_files(data_folder, self.home)  # the assignment's data files, as the display run gets
            self._start(memory, launcher or BubblewrapLauncher(), cpu_seconds, processes)
        except BaseException:
            self.kill()
            raise
        self.received = 0
        self.cpu_spent = self.own_spent = 0.0  # CPU seconds the last request used: with the kernel's work, without

    def _start(self, memory, launcher, cpu_seconds, processes):
        env = launch.untrusted_env(self.home)
        command = launcher.command([sys.executable, "-I", server.RUNNER], memory=memory, cpu_seconds=cpu_seconds,
                                   processes=processes, home=self.home, readonly=[*server.FILES, self.inputs.ro],
                                   writable=[self.inputs.rw], env=env, cgroup=self.cgroup)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=self.home, env=env, start_new_session=True)
        self.tree = Tree(self.proc.pid, self.cgroup)

    def alive(self):
        return self.proc.poll() is None

    def request(self, header, blobs=(), timeout=5.0, watch=None, cpu=None, total=None):
        """Send one request and return the reply; `watch()` is called every POLL seconds while waiting. `cpu`: the
        CPU seconds the child's tree may use for it running its own code (user time); `total`: with the kernel's work
        for it (None: no such limit)."""
        deadline = time.monotonic() + timeout
        self.cpu_spent = self.own_spent = 0.0
        start = self.tree.cpu()
        limits = (math.inf if cpu is None else cpu, math.inf if total is None else total)
        budget = None if cpu is None and total is None else (start, limits, time.monotonic())
        try:
            protocol.send(self.proc.stdin, header, blobs)
        except (BrokenPipeError, OSError):
            raise self._died() from None
        self.received = 0
        try:
            return protocol.recv_frame(lambda n: self._read_exact(n, deadline, watch, budget))
        except EOFError:
            raise self._died() from None
        except (ValueError, RecursionError, MemoryError, AttributeError, TypeError):  # a reply no server.py sends
            self.kill()
            raise StudentError("the process running your code sent back a malformed reply", failures.WRONG_TYPE) \
                from None
        finally:
            end = self.tree.cpu()  # what this request cost, whatever its end
            self.cpu_spent, self.own_spent = end.total - start.total, end.user - start.user

    def _read_exact(self, n, deadline, watch, budget=None):
        self.received += n
        if self.received > self.max_reply:
            self.kill()
            raise StudentError(f"your code sent back more than {self.max_reply // MiB} MiB of data, far more "
                               "than the values asked for", failures.WRONG_TYPE)
        fd = self.proc.stdout.fileno()
        chunks, need = [], n
        while need:
            left = deadline - time.monotonic()
            if left <= 0 and budget and self._computing(budget):
                deadline, left = time.monotonic() + CPU_POLL, CPU_POLL  # slowed by the machine's load, not waiting
            if left <= 0:
                raise TimeoutError
            wait = min(left, POLL if watch else CPU_POLL if budget else left)
            if not select.select([fd], [], [], wait)[0]:
                if watch:
                    watch()
                if budget:
                    self._within(budget)
                continue
            chunk = os.read(fd, min(need, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            need -= len(chunk)
        return b"".join(chunks)

    def _within(self, budget):
        """Raise OutOfCpuTime if the request has used more CPU time than its `budget` allows."""
        start, (own, total), _ = budget
        now = self.tree.cpu()
        if now.total - start.total > total:
            raise OutOfCpuTime(total=True)
        if now.user - start.user > own:
            raise OutOfCpuTime(total=False)

    def _computing(self, budget):
        """Whether the child has used at least COMPUTING of the time since the request began (the kernel's work for
        it counted): then it computes, and only its CPU time is judged; a child that sleeps or waits uses next to
        none."""
        start, _, began = budget
        return self.tree.cpu().total - start.total >= COMPUTING * (time.monotonic() - began)

    def _died(self):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        if self.cgroup is not None and self.cgroup.oom_kills():
            return StudentError(f"the processes running your code went over the {self.limit // MiB} MiB they may "
                                "hold together (memory and files) and were stopped", failures.OUT_OF_MEMORY)
        if code is not None and code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}"
            if -code == signal.SIGXCPU:
                how += " (it used up its CPU time)"
        else:
            how = f"exited with status {code} (os._exit or sys.exit from your code?)"
        return StudentError(f"the process running your code {how}", failures.CRASHED)

    # -- memory, read by the grader ----------------------------------------------------------------------------
    def usage(self):
        """Bytes the child's whole process tree holds now: its control group's usage, or the sum of its processes'
        resident memory (shared files and memory included)."""
        if self.cgroup is not None:
            return self.cgroup.usage()
        return self.tree.rss()

    def start_peak(self):
        """Begin a measurement: returns a Peak that `watch` updates and `extra()` reads."""
        return Peak(self)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        if self.cgroup is not None:
            self.cgroup.close()
        shutil.rmtree(self.home, ignore_errors=True)
        self.inputs.remove()


class Peak:
    """The memory one call adds: its peak (the group's own high-water mark, reset here, and every reading) above
    the lowest reading from just before the call to just after it (so memory freed during the call to make room
    does not hide what the call built)."""

    def __init__(self, child):
        self.child = child
        self.exact = child.cgroup is not None and child.cgroup.reset_peak()
        self.low = self.high = child.usage()

    def watch(self):
        now = self.child.usage()
        self.low, self.high = min(self.low, now), max(self.high, now)

    def extra(self):
        self.watch()
        if self.exact:
            self.high = max(self.high, self.child.cgroup.peak())
        return max(self.high - self.low, 0)
