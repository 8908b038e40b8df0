"""ExecuteForDisplay: the display run of an assignment of the trusted design (classroom.grading.design), where
TrustedGrades decides every grade cell: SandboxedExecute (its kernel in the sandbox, outputs inert and capped as
they arrive, the grader's marks recorded as data) made to survive anything and to skip grade cells. It runs the
student's own cells once, so the feedback shows their outputs; nothing there decides a grade.

Its time limits are CPU time, read from outside the kernel as SandboxedExecute reads them, so that a loaded grading
machine (several graders at once, a class graded with JOBS=3 on two cores) shows the same outputs as an idle one: a
cell may use `timeout` CPU seconds (nbgrader's c.Execute.timeout; None: no limit of its own), and all cells together
`total_seconds`, which holds whatever `timeout` says: with no time limit at all one submission could hold up the
grading of the whole class. On the clock, a cell that computes nothing (it sleeps or waits) may take `timeout`
seconds, one that computes `wall_factor` times that, and the whole run `wall_factor` times `total_seconds`. A cell
that runs into its own limit is interrupted and, once its kernel answers, the next cell runs; one that runs into the
limit of all cells together, a kernel that does not answer when interrupted, or a kernel that dies, stops the run:
the grader writes an error output named by its kind (classroom.trusted.failures: TIMED_OUT, CRASHED, OUTPUT_CUT, or
NOT_RUN for each cell after), and records it. For assignments of nbgrader's design it does nothing (SandboxedExecute
runs those).
"""
import math
import time

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from traitlets import Float, Integer

from .. import cells
from ..grading import design
from ..sandbox import cell_limits
from ..trusted import failures
from .sandboxed_execute import TOKEN, SandboxedExecute, own_name

__all__ = ["ExecuteForDisplay", "own_name"]


class ExecuteForDisplay(SandboxedExecute):
    """Run the student's cells for the feedback only; grade cells are left empty for TrustedGrades."""

    design = design.TRUSTED

    timeout = Integer(5, allow_none=True, help="CPU seconds a single cell may use running its own code (user time; "
                      "the kernel's work for it counts toward total_seconds) before it is interrupted (and as many "
                      "seconds on the clock while it computes nothing); None: no limit of its own (all cells together "
                      "still stop at total_seconds).").tag(config=True)
    total_seconds = Float(20.0, help="CPU seconds for all the student's cells together, and wall_factor times as "
                          "many on the clock; later cells are skipped.").tag(config=True)
    kernel_cpu_seconds = Integer(300, help="CPU seconds the student's kernel may use in all.").tag(config=True)

    def __call__(self, nb, resources):
        if design.of_resources(resources, self).name != self.design or not self.enabled:
            return nb, resources
        return self.preprocess(nb, resources)

    def preprocess(self, nb, resources=None, km=None):
        self._spent, self._limit, self._tree = 0.0, None, None
        return super().preprocess(nb, {} if resources is None else resources, km)

    def clock_budget(self):
        """Seconds on the clock for all cells together: wall_factor times their CPU seconds."""
        return self.wall_factor * self.total_seconds

    def runs(self, cell):
        """The student's cells only: TrustedGrades decides the checks."""
        return not cells.is_check(cell)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        if cells.is_check(cell):
            cell.outputs, cell.execution_count = [], None
            return cell, resources
        if self._stopped:
            return cell, resources
        if self._deadline is not None and time.monotonic() > self._deadline:
            self._stopped = f"used up {self._whole_clock()}"
            return cell, resources
        self._ran.add(index)
        before = self._cpu()
        self._stopped = self._run(cell, resources, index)
        self._spent += max(self._cpu() - before, 0.0)
        if self._stopped is None and self._spent >= self.total_seconds:
            self._stopped = f"used up {self._whole_run()}"
        return cell, resources

    def _cpu(self):
        """CPU seconds the kernel's process tree has used so far, the kernel's work for it counted (0 before the
        kernel runs)."""
        if self._tree is None:
            self._tree = cell_limits.kernel_tree(getattr(self, "km", None))
            if self._tree is None:
                return 0.0
        return self._tree.cpu(rescan=True).total

    def _whole_run(self):
        return f"the {self.total_seconds:g} s of CPU time the grader gives all cells together"

    def _whole_clock(self):
        return f"the {self.clock_budget():g} s on the clock the grader gives all cells together"

    def cell_cpu_limit(self):
        """(CPU seconds the next cell may use, whether that is what is left of all cells' rather than its own)."""
        left = max(self.total_seconds - self._spent, 0.1)
        own = self.timeout if self.timeout and self.timeout > 0 else math.inf  # nbclient: None, 0 or -1, no limit
        return (left, True) if left < own else (own, False)

    async def _watch(self):
        self._limit = self.cell_cpu_limit()
        why = await cell_limits.watch(self.km, self._limit[0], self.wall_factor, self._deadline, self.clock_budget(),
                                      left=max(self.total_seconds - self._spent, 0.0))
        self._why_interrupted = why
        await self._interrupt()

    def _run(self, cell, resources, index):
        """Run one cell; return why the run must stop (words that end "an earlier cell ...") or None."""
        self._why_interrupted, self._stop_after, self._unanswered = None, None, False
        try:
            super(SandboxedExecute, self).preprocess_cell(cell, resources, index)
        except DeadKernelError:
            if self._unanswered:
                self.mark(cell, index, failures.TIMED_OUT,
                          f"the grader stopped this cell: it {self._interruption()[0]} and {self.unanswered}")
                return "did not stop when interrupted"
            self.mark(cell, index, failures.CRASHED, "the kernel running your notebook died during this cell "
                                                     "(os._exit, a crash, or running out of memory)")
            return "stopped the kernel"
        except CellTimeoutError as exc:
            self.mark(cell, index, failures.TIMED_OUT, f"the grader stopped waiting for this cell's output ({exc})")
            return "stopped sending its output"
        except Exception as exc:
            self.mark(cell, index, failures.CRASHED, f"the grader could not go on after this cell "
                                                     f"({type(exc).__name__}: {exc})")
            return f"failed in a way the grader could not recover from ({type(exc).__name__})"
        finally:
            if self._watching is not None:
                self._watching.cancel()
                self._watching = None
        # A cell interrupted at its own limit whose kernel answered leaves the kernel usable: the next cell runs, as
        # in nbgrader; only the limit of all cells together (or a kernel that no longer answers) stops the run.
        return self._stop_after

    def _interruption(self):
        """(Why the watch interrupted the cell, in words that follow "it"; why the run stops after it, or None.)"""
        why = self._why_interrupted or "ran past its time"
        if why == cell_limits.LEFT_TO_ALL or self._limit and self._limit[1] and why.startswith("used more than"):
            return f"ran into {self._whole_run()}", f"ran into {self._whole_run()}"
        if "gives all cells together" in why:  # the watch's words for the run's time on the clock
            return f"ran into {self._whole_clock()}", f"ran into {self._whole_clock()}"
        return why, None

    def on_cell_executed(self, **kwargs):
        """nbclient's hook after a cell; nbgrader's adds an error the kernel replied with but did not display."""
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None
        cell, index = kwargs["cell"], kwargs["cell_index"]
        content = kwargs["execute_reply"].get("content", {})
        if content.get(TOKEN) == self._token:  # nbclient gave up waiting: the kernel did not stop when interrupted
            self.mark(cell, index, failures.TIMED_OUT, f"the grader stopped this cell: it {self._interruption()[0]} "
                                                       "and did not stop when interrupted")
            self._stop_after = "did not stop when interrupted"
            return
        reply = dict(kwargs["execute_reply"], content=own_name(content))
        super(SandboxedExecute, self).on_cell_executed(**dict(kwargs, execute_reply=reply))
        if self._why_interrupted:
            why, self._stop_after = self._interruption()
            self.mark(cell, index, failures.TIMED_OUT, f"the grader interrupted this cell: it {why}")
