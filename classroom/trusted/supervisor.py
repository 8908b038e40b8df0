"""The grading child of one submission, kept running within the submission's time (for classroom.trusted.proxy).

A `Supervisor` starts a child (classroom.trusted.child_handle) on demand with the student's answer cells defined in
it, and sends it requests. Each answer cell runs within `define_timeout`: one that runs past it is left out (the child starts
again without it, and `slow_cells` says by how much it was over); what the cells raised is kept in `cell_errors`.
Every time limit is CPU time of the child's process tree, read from outside it, so the machine's load cannot change
a grade: a request's own limit counts the time its code runs (user time), the submission's counts the kernel's work
for it too (classroom.sandbox.process_tree.CpuTime); code that waits instead meets the clock, `wall_factor` times
each limit. A child that hangs is killed after
`call_timeout`; a child that dies is reported and restarted for the next request, until `max_strikes` hangs or
deaths, after which requests fail at once (an infinite loop must not cost minutes). All of it, for one submission,
fits in `total_seconds`: past that every request fails at once with OutOfTime.
"""
import time

from . import failures, protocol
from .child_handle import ChildHandle, OutOfCpuTime
from .student_errors import OutOfTime, StudentError, raised
from .unanswered import not_answered
from ..units import MiB

# A request may also wait this many times its CPU time on the clock (code that sleeps or blocks uses no CPU time):
# far more than a loaded machine stretches honest work, so that only waiting runs into it.
WALL_FACTOR = 6
# The grader's default limits, for the preprocessor's settings (c.TrustedGrades) and a StudentCode made directly.
CALL_SECONDS, CELL_SECONDS = 3.0, 5.0  # CPU seconds: one call of a student's function; one answer cell
MAX_STRIKES = 3  # hangs or crashes after which the student's function is not called again
CHILD_MEMORY, MAX_REPLY, CHILD_CPU_SECONDS = 2048 * MiB, 64 * MiB, 120


def _submission_limited(exc, wall_budget):
    """Whether the TimeoutError `exc` came from the submission's time rather than the request's own: `wall_budget`
    says whether the request's time on the clock was the submission's (Supervisor._timeout)."""
    return exc.total if isinstance(exc, OutOfCpuTime) else wall_budget


class Supervisor:
    """The child that runs `cells` (Python code, one answer cell each, or one solution cell), started and restarted
    on demand; `limits` are the child's (classroom.trusted.child_handle.ChildHandle)."""

    def __init__(self, cells, limits, call_timeout, define_timeout, max_strikes, total_seconds, wall_factor):
        self.cells = cells
        self.limits = limits
        self.cell_errors = []
        self.call_timeout = call_timeout  # CPU seconds
        self.define_timeout = define_timeout  # CPU seconds
        self.wall_factor = wall_factor
        self.slow_cells = {}  # {answer cell number: what it did past its time}, left out of the child
        self.max_strikes = max_strikes
        self.total_seconds = total_seconds
        self.deadline = None if total_seconds is None else time.monotonic() + total_seconds * wall_factor
        self.cpu_used = 0.0  # CPU seconds the student's processes have used, over every child
        self.strikes = 0
        self.last_strike = None
        self.define_error = None
        self._child = None
        self.calls, self.call_seconds = 0, 0.0  # calls of the student's functions that returned, and their time

    # -- the time of the whole submission -----------------------------------------------------------------------
    def seconds_left(self):
        """The CPU seconds left to the submission (0 once its time on the clock, wall_factor times longer for code
        that waits, has run out too)."""
        if self.total_seconds is None:
            return float("inf")
        return max(self.total_seconds - self.cpu_used, 0.0) if time.monotonic() < self.deadline else 0.0

    def out_of_time(self, what="this check was not reached"):
        pace = (f"; your function took about {self.call_seconds / self.calls:.1f} s per call"
                if self.calls else "")
        return OutOfTime(f"{what}: grading one submission stops after {self.total_seconds:g} s of CPU time (or "
                         f"{self.total_seconds * self.wall_factor:g} s on the clock){pace}")

    def _timeout(self, cpu):
        """What a request whose own limit is `cpu` may take: (CPU seconds of its own, CPU seconds with the kernel's
        work, which are the submission's, seconds on the clock, whether those are the submission's)."""
        if self.seconds_left() <= 0:
            raise self.out_of_time()
        cpu_left = self.seconds_left()
        wall_left = self.deadline - time.monotonic() if self.deadline is not None else float("inf")
        wall = cpu * self.wall_factor
        return cpu, cpu_left, min(wall, wall_left), wall_left < wall

    def _spent(self, child):
        self.cpu_used += child.cpu_spent

    # -- children ---------------------------------------------------------------------------------------------
    def _fail_define(self, child, error):
        child.kill()
        self.define_error = error
        raise error

    def _start(self):
        """A child with the solution defined in it, or a StudentError that says why there cannot be one. Answer
        cells are run one request each, each within its own time: one that runs past it is left out (the child is
        started again without it), and the names it would have set fail with TIMED_OUT, saying so."""
        if self.define_error is not None:
            raise StudentError(str(self.define_error), self.define_error.kind)
        if self.strikes >= self.max_strikes:
            raise StudentError(f"grading stopped calling your function after it hung or crashed {self.strikes} "
                               "times", self.last_strike or failures.CRASHED)
        child = ChildHandle(**self.limits)
        try:
            child.request({"op": protocol.READY}, timeout=self._timeout(self.define_timeout)[2])
        except (TimeoutError, StudentError):  # it never came up: not the student's doing, unless a check says so
            child.kill()
            raise StudentError("the process that runs your code did not start (the grading machine may be "
                               "overloaded): tell your teacher", failures.CRASHED) from None
        child.tree.cpu(rescan=True)  # its processes are all there now: what each request uses counts them all
        errors = []
        alone = len(self.cells) > 1
        for number, cell in enumerate(self.cells, start=1):
            if number in self.slow_cells:
                continue
            reply, too_slow = self._define(child, number, cell, alone)
            if too_slow:
                if not alone:
                    self._fail_define(child, StudentError(f"running your solution cell {too_slow} (an infinite loop "
                                                          "outside the function?)", failures.TIMED_OUT))
                child.kill()
                self.slow_cells[number] = too_slow
                return self._start()
            if not reply.get("ok"):
                error = raised(reply.get("error"), reply.get("message"), what="your solution cell")
                if reply.get("error") == "NotImplementedError":
                    error = StudentError(not_answered("your solution cell", message=reply.get("message")))
                elif reply.get("error") != "NameError":
                    error = StudentError(f"{error} (the grader runs that cell on its own)", error.kind)
                self._fail_define(child, error)
            errors += reply.get("errors", [])
        self.cell_errors = errors
        return child

    def _define(self, child, number, cell, alone):
        """Run one answer cell in `child`: (the reply, None), or (None, how it ran past its time, in words). It may
        run on to twice its CPU time, so that the student learns by how much it is too slow."""
        request = {"op": protocol.DEFINE, "cells": [cell], "each_on_its_own": alone, "first": number}
        limit = self.define_timeout
        cpu, total, timeout, wall_budget = self._timeout(2 * limit)
        timeout = min(timeout, limit * self.wall_factor)
        try:
            reply, _ = child.request(request, timeout=timeout, cpu=cpu, total=total)
        except TimeoutError as exc:
            self._spent(child)
            if _submission_limited(exc, wall_budget):
                child.kill()
                raise self.out_of_time("this check was not finished") from None
            if isinstance(exc, OutOfCpuTime):
                return None, f"was still running after {cpu:g} s of CPU time, twice the {limit:g} s it may use"
            return None, f"did not finish within {timeout:g} s, though it used little CPU time (a sleep?)"
        except StudentError as exc:
            self._spent(child)
            self._fail_define(child, StudentError(f"while running your solution cell, {exc}", exc.kind))
        self._spent(child)
        if child.own_spent > limit:
            return None, (f"took {child.own_spent:.1f} s of CPU time, {child.own_spent - limit:.1f} s more than the "
                          f"{limit:g} s it may use")
        return reply, None

    def child(self):
        """The running child (started, or restarted after a hang or a crash, on demand)."""
        if self._child is None or not self._child.alive():
            self._child = self._start()
        return self._child

    def close(self):
        if self._child is not None:
            self._child.kill()
            self._child = None

    # -- requests ---------------------------------------------------------------------------------------------
    def request(self, header, watch=None):
        """Send one request to the running child, within `call_timeout` and the submission's time: the reply
        (header, blobs). A hang or a death is a strike: the child is killed, and started again for the next one.
        `watch()` is called while waiting (classroom.trusted.child_handle.ChildHandle.request)."""
        child = self.child()
        cpu, total, timeout, wall_budget = self._timeout(self.call_timeout)
        started = time.monotonic()
        try:
            reply = child.request(header, timeout=timeout, watch=watch, cpu=cpu, total=total)
        except TimeoutError as exc:
            if _submission_limited(exc, wall_budget):
                self.close()
                raise self.out_of_time("this check was not finished") from None
            if isinstance(exc, OutOfCpuTime):
                error = StudentError(f"your function used more than {cpu:g} s of CPU time in one call (an infinite "
                                     "loop?)", failures.TIMED_OUT)
            else:
                error = StudentError(f"your function did not return within {timeout:g} s, though it used little CPU "
                                     "time (a sleep, or waiting for something?)", failures.TIMED_OUT)
        except StudentError as exc:
            error = exc
        else:
            if header["op"] == protocol.CALL:  # the pace of the student's function, for OutOfTime's message
                self.calls, self.call_seconds = self.calls + 1, self.call_seconds + time.monotonic() - started
            return reply
        finally:
            self._spent(child)
        child.kill()
        self._child = None
        self.strikes += 1
        self.last_strike = error.kind
        raise error
