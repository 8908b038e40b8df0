"""ExecuteForDisplay: the display run of an assignment of the trusted design (classroom.grading.design), where
TrustedGrades decides every grade cell: SandboxedExecute (its kernel in the sandbox, outputs inert and capped as
they arrive, the grader's marks recorded as data) made to survive anything and to skip grade cells. It runs the
student's own cells once, so the feedback shows their outputs; nothing there decides a grade. A cell may run `timeout`
seconds on the clock (nbgrader's c.Execute.timeout; None: no limit of its own), and all cells together
`total_seconds`, which holds whatever `timeout` says: with no time limit at all one submission could hold up the
grading of the whole class. A cell that runs into its own limit is interrupted and, once its kernel answers, the next
cell runs; one that runs into `total_seconds`, a kernel that does not answer within nbclient's iopub_timeout once
interrupted, or a kernel that dies, stops the run: the grader writes an
error output named by its kind (classroom.trusted.failures: TIMED_OUT, CRASHED, OUTPUT_CUT, or NOT_RUN for each cell
after), and records it. For assignments of nbgrader's design it does nothing (SandboxedExecute runs those).
"""
import time

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from traitlets import Float, Integer

from .. import cells
from ..grading import design
from ..trusted import failures
from .sandboxed_execute import TOKEN, SandboxedExecute, own_name

__all__ = ["ExecuteForDisplay", "own_name"]


class ExecuteForDisplay(SandboxedExecute):
    """Run the student's cells for the feedback only; grade cells are left empty for TrustedGrades."""

    design = design.TRUSTED

    timeout = Integer(5, allow_none=True, help="Seconds a single cell may run before it is interrupted; None: no "
                      "limit of its own (all cells together still stop at total_seconds).").tag(config=True)
    total_seconds = Float(20.0, help="Seconds for all the student's cells together; later cells are skipped.").tag(
        config=True)
    kernel_cpu_seconds = Integer(300, help="CPU seconds the student's kernel may use in all.").tag(config=True)

    def __call__(self, nb, resources):
        if design.of_resources(resources, self).name != self.design or not self.enabled:
            return nb, resources
        return self.preprocess(nb, resources)

    def preprocess(self, nb, resources=None, km=None):
        self._limit = None
        return super().preprocess(nb, {} if resources is None else resources, km)

    def runs(self, cell):
        """The student's cells only: TrustedGrades decides the checks."""
        return not cells.is_check(cell)

    def _clock_limit(self, cell):
        return self._cell_limit(cell)

    def on_cell_complete(self, **kwargs):
        """No watch of the CPU time: the display run's limits are on the clock."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        if cells.is_check(cell):
            cell.outputs, cell.execution_count = [], None
            return cell, resources
        if self._stopped:
            return cell, resources
        self._ran.add(index)
        self._stopped = self._run(cell, resources, index)
        if self._stopped is None and time.monotonic() > self._deadline:
            self._stopped = f"used up the {self.total_seconds:g} s the grader gives all cells together"
        return cell, resources

    def _cell_limit(self, cell):
        """nbclient's timeout_func: the seconds this cell may run, its own limit or what is left of all cells'
        (at least one second); remembered for the message if the cell is interrupted."""
        left = max(self._deadline - time.monotonic(), 1.0)
        own = self.timeout if self.timeout and self.timeout > 0 else None  # nbclient: None, 0 or -1, no limit
        self._limit = (left, True) if own is None or left < own else (own, False)
        return self._limit[0]

    def _overran(self):
        """The limit the interrupted cell ran into, in words that follow "interrupted after" or "ran past"."""
        seconds, whole_run = getattr(self, "_limit", None) or (self.timeout, False)
        return f"the {self.total_seconds:g} s the grader gives all cells together" if whole_run else f"{seconds:g} s"

    def _run(self, cell, resources, index):
        """Run one cell; return why the run must stop (words that end "an earlier cell ...") or None."""
        self._interrupted = False
        try:
            super(SandboxedExecute, self).preprocess_cell(cell, resources, index)
        except DeadKernelError:
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
        # A cell interrupted at its own limit whose kernel answered leaves the kernel usable: the next cell runs, as
        # in nbgrader; only the limit of all cells together (or a kernel that no longer answers) stops the run.
        return f"ran past {self._overran()}" if self._interrupted and self._limit and self._limit[1] else None

    def on_cell_executed(self, **kwargs):
        """nbclient's hook after a cell; nbgrader's adds an error the kernel replied with but did not display."""
        content = kwargs["execute_reply"].get("content", {})
        if content.get(TOKEN) == self._token:  # nbclient interrupted the cell: the reply is our error_on_timeout
            self._interrupted = True
            self.mark(kwargs["cell"], kwargs["cell_index"], failures.TIMED_OUT,
                      f"the grader interrupted this cell after {self._overran()}")
            return
        reply = dict(kwargs["execute_reply"], content=own_name(content))
        super(SandboxedExecute, self).on_cell_executed(**dict(kwargs, execute_reply=reply))
