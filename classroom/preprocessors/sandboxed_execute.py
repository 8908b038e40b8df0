"""SandboxedExecute: nbgrader's own Execute, with the student's kernel in the sandbox. It grades the assignments
written for nbgrader's design (classroom.grading.design): every code cell runs in order in one kernel, grade cells
included, and nbgrader's SaveAutoGrades reads their outputs as nbgrader always does (an error or text on standard
error: 0; a number as the cell's result: partial credit; anything else: full marks). For assignments of the trusted
design it does nothing (ExecuteForDisplay, its subclass, runs those).

What it adds to nbgrader's Execute, none of which changes the grade of work that runs within nbgrader's limits:
  * the kernel is started by the configured launcher (classroom.sandbox: bubblewrap unless chosen otherwise), in a
    working copy of the assignment's files (sub-folders included: data/, a helper module), with limits on memory and
    on its CPU time in all;
  * a cell may use `timeout` seconds (nbgrader's c.Execute.timeout, 30 s) of CPU time, read from outside the kernel,
    so the machine's load does not change it, and may wait on the clock `timeout` seconds while it computes nothing
    (sleeping, waiting for input), as in nbgrader; one that is still computing is given up to `wall_factor` times
    that on the clock. A cell that runs into its limit is interrupted and the run goes on with the next cell, as in
    nbgrader; a kernel that dies or does not stop when interrupted ends the run: the cells after it are not run and
    each grade cell among them scores 0 (nbgrader would fail the whole notebook). A kernel that computes nothing
    for GRACE seconds after its interrupt without replying is stopped then, not waited for to the clock limit;
  * outputs are made inert and capped as they arrive (classroom.feedback.inert_outputs), per cell and for the whole
    notebook, but the output that decides a grade cell's score (its first error, standard-error text or result, in
    nbgrader's order) is always kept;
  * whatever the grader itself decided about a cell (timed out, crashed, not run, output cut, a cell of the
    assignment's own that failed) is recorded as data, resources["classroom"]["marks"], from which the notebook's
    result is made (classroom.grading.result); nothing a student's code prints is read as one.
`--no-execute` is not honoured for these assignments: the grades would be read from outputs the student saved.
"""
import asyncio
import contextlib
import json
import secrets
import time

from nbclient.exceptions import DeadKernelError
from nbformat import from_dict
from nbgrader.preprocessors import Execute
from traitlets import Float, Integer

from .. import cells
from ..feedback.inert_outputs import Budget, decides_grade, kept_as_decided, reduce_output
from ..grading import design
from ..sandbox import cell_limits, launchers
from ..sandbox.kernel import SandboxedKernelManager, kernel_folders
from ..trusted import failures
from ..trusted.supervisor import WALL_FACTOR
from ..units import MiB
from .inert_content import InertContent

TOKEN = "classroom_timeout"  # a key of nbclient's own reply for an interrupted cell (see error_on_timeout)
GRACE = 10.0  # seconds a kernel has to answer once interrupted (computing nothing: cell_limits.interrupt)


def own_name(content):
    """A kernel message's content, its `ename` made to never be one of the grader's kinds."""
    ename = content.get("ename")
    return dict(content, ename=f"{ename} (raised by your code)") if ename in failures.KINDS else content


class PartialCreditPastPoints(ValueError):
    """A grade cell's result gives more points than the cell is worth, which nbgrader refuses (it fails the
    notebook); str() names the cell."""


def refuse_partial_credit_past_points(nb):
    """Refuse, naming the grade cell, what nbgrader's SaveAutoGrades refuses without naming it: partial credit above
    the cell's points (the notebook is then not graded, as with nbgrader, and flagged for grading by hand)."""
    from nbgrader.utils import determine_grade

    for cell in nb.cells:
        if cells.is_check(cell):
            try:
                determine_grade(cell)
            except ValueError as exc:
                raise PartialCreditPastPoints(f"the grade cell {cells.grade_id(cell)!r} shows more points than its "
                                              f"{cells.nbgrader(cell).get('points')} (nbgrader: {exc})") from None


class SandboxedExecute(Execute):
    """nbgrader's Execute in the sandbox, for assignments of nbgrader's design (see the module)."""

    design = design.NBGRADER  # the assignments this step runs

    kernel_memory = Integer(2048 * MiB, help="Address-space limit of the student's kernel, in bytes.").tag(
        config=True)
    kernel_cpu_seconds = Integer(600, help="CPU seconds the student's kernel may use in all.").tag(config=True)
    wall_factor = Float(WALL_FACTOR, help="How many times `timeout` a cell that is still computing may run on the "
                        "clock.").tag(config=True)
    total_seconds = Float(600.0, allow_none=True, help="Seconds on the clock for all the cells of one notebook "
                          "together, a backstop whatever `timeout` says; later cells are not run.").tag(config=True)
    max_output_chars = Integer(None, allow_none=True, help="Characters of output text kept per cell as it runs; "
                               "by default InertContent.max_output_chars, the cap the notebook is held to.").tag(
        config=True)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self.launcher = launchers.chosen(self)
        self.shutdown_kernel = "immediate"
        self.store_widget_state = False  # widget state is for pages that load a widget manager: never ours

    def __call__(self, nb, resources):
        if design.of_resources(resources, self).name != self.design:
            return nb, resources
        if not self.enabled:
            self.log.warning("%s: --no-execute is not honoured for an assignment graded as nbgrader grades it (its "
                             "grades would be read from the outputs the student saved); running it",
                             type(self).__name__)
        return self.preprocess(nb, resources)

    def preprocess(self, nb, resources=None, km=None):
        self.launcher.require()  # the sandbox refuses (SandboxUnavailable) rather than run the kernel without it
        self._stopped, self._budgets, self._ran, self._decided, self._held = None, {}, set(), set(), 0
        self._watching = None
        self._marks = resources.setdefault("classroom", {}).setdefault("marks", [])
        self._caps = InertContent(parent=self)
        if self.max_output_chars is not None:
            self._caps.max_output_chars = self.max_output_chars
        self._deadline = time.monotonic() + self.clock_budget() if self.total_seconds else None
        self._token = secrets.token_hex(16)  # the student's code cannot forge nbclient's timeout reply
        self.error_on_timeout = dict(failures.error_output(failures.TIMED_OUT, ""), **{TOKEN: self._token})
        self.timeout_func = self._clock_limit
        try:
            nb, resources = super().preprocess(nb, resources, km)
            refuse_partial_credit_past_points(nb)
            return nb, resources
        except PartialCreditPastPoints:
            raise
        except Exception as exc:  # the kernel would not start, or would not stop: said in every cell not run
            self.log.error("The student's kernel failed: %r", exc)
            if not self._ran:
                self._stopped = f"the kernel could not be started ({type(exc).__name__}: {exc})"[:300]
            elif not self._stopped:
                self._stopped = f"was the last one the kernel ran ({type(exc).__name__}: {exc})"[:300]
            return nb, resources
        finally:
            self._not_run_after_stop(nb)

    def clock_budget(self):
        """Seconds on the clock for all the cells of one notebook together (total_seconds: it is on the clock)."""
        return self.total_seconds

    # ---- marks: what the grader decided about a cell, as data and as the cell's output -------------------------
    def mark(self, cell, index, kind, message):
        cell.setdefault("outputs", []).append(from_dict(failures.error_output(kind, message[:500])))
        self._marks.append({"cell": index, "grade_id": cells.grade_id(cell), "kind": kind, "message": message[:500]})

    def runs(self, cell):
        """Whether this step runs `cell` (a code cell): every one, in nbgrader's design."""
        return True

    def _not_run_after_stop(self, nb):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code" and index not in self._ran and cells.source(cell).strip() and self.runs(cell):
                cell.outputs, cell.execution_count = [], None
                why = self._stopped if not self._ran else f"an earlier cell {self._stopped}"
                self.mark(cell, index, failures.NOT_RUN, f"The grader did not run this cell: {why}.")

    @staticmethod
    def whose(cell):
        """The cell named for the student, saying whose it is: a check, a cell of the assignment's own that they
        cannot change (locked), or theirs."""
        if cells.is_check(cell):
            return "this check (it runs your code)"
        return "this cell of the assignment's own (not yours to change)" if cells.nbgrader(cell).get("locked") \
            else "this cell"

    # ---- running ---------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        with kernel_folders(self.resources.get("metadata", {}).get("path")) as (self._workdir, self._ipc_dir):
            with super().setup_kernel(cwd=self._workdir, **kwargs):
                yield

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        km.memory, km.cpu_seconds = self.kernel_memory, self.kernel_cpu_seconds
        km.launcher, km.workdir = self.launcher, self._workdir
        if self.launcher.isolated:
            km.use_ipc(self._ipc_dir)
        return km

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or self._stopped:
            return cell, resources
        if self._deadline is not None and time.monotonic() > self._deadline:
            self._stopped = f"used up the {self.total_seconds:g} s the grader gives all cells together"
            return cell, resources
        self._ran.add(index)
        self._why_interrupted, self._unanswered = None, False
        try:
            super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            if self._unanswered:
                self.mark(cell, index, failures.TIMED_OUT, f"The grader stopped {self.whose(cell)}: it "
                          f"{self._why_interrupted} and {self.unanswered}.")
                self._stopped = "did not stop when interrupted"
                return cell, resources
            self.mark(cell, index, failures.CRASHED, f"The kernel running the notebook died during {self.whose(cell)} "
                      "(os._exit, a crash, or running out of memory or CPU time).")
            self._stopped = "stopped the kernel"
        except Exception as exc:
            self.mark(cell, index, failures.CRASHED, f"The grader could not go on after {self.whose(cell)} "
                      f"({type(exc).__name__}: {exc}).")
            self._stopped = f"failed in a way the grader could not recover from ({type(exc).__name__})"
        finally:
            if self._watching is not None:
                self._watching.cancel()
                self._watching = None
        return cell, resources

    def _clock_limit(self, cell):
        """nbclient's timeout_func: how long to wait for a cell's reply before giving up on the kernel (the watch,
        `_watch`, interrupts a cell at its own limit well before)."""
        waits = [] if self._deadline is None else [max(self._deadline - time.monotonic(), 1.0)]
        if self.timeout and self.timeout > 0:
            waits.append(self.wall_factor * self.timeout)
        return min(waits) + GRACE if waits else None

    def on_cell_complete(self, **kwargs):
        """nbclient's hook once a cell is sent to the kernel: watch its time."""
        self._watching = asyncio.ensure_future(self._watch())

    async def _watch(self):
        why = await cell_limits.watch(self.km, self.timeout, self.wall_factor, self._deadline, self.total_seconds)
        self._why_interrupted = why
        await self._interrupt()

    async def _interrupt(self):
        """Interrupt the cell; a kernel that computes nothing for GRACE seconds without replying is stopped, and the
        DeadKernelError nbclient then raises is read as `_unanswered`, not as a crash."""
        await cell_limits.interrupt(self.km, GRACE, lambda: setattr(self, "_unanswered", True))

    @property
    def unanswered(self):
        """What the mark of a cell whose kernel `_interrupt` stopped says of it (after "it ... and")."""
        return cell_limits.UNANSWERED.format(GRACE)

    def on_cell_executed(self, **kwargs):
        """nbclient's hook after a cell; nbgrader's adds an error the kernel replied with but did not display."""
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None
        cell, index = kwargs["cell"], kwargs["cell_index"]
        content = kwargs["execute_reply"].get("content", {})
        if content.get(TOKEN) == self._token:  # nbclient gave up waiting: the kernel did not stop when interrupted
            self.mark(cell, index, failures.TIMED_OUT, f"The grader stopped {self.whose(cell)}: it "
                      f"{self._why_interrupted or 'ran past its time'} and did not stop when interrupted.")
            self._stopped = "did not stop when interrupted"
            return
        super().on_cell_executed(**dict(kwargs, execute_reply=dict(kwargs["execute_reply"],
                                                                   content=own_name(content))))
        if self._why_interrupted:
            self.mark(cell, index, failures.TIMED_OUT, f"The grader interrupted {self.whose(cell)}: it "
                      f"{self._why_interrupted}.")
        elif content.get("status") == "error" and cells.nbgrader(cell).get("locked") and not cells.is_grade(cell):
            self.mark(cell, index, failures.ASSIGNMENT_FAILED, "This cell is the assignment's own (you could not "
                      f"change it), and it raised {content.get('ename')}: that is not your mistake; your teacher is "
                      "told.")

    def on_comm_open_jupyter_widget(self, msg):
        """nbclient's stand-in for a front end's Output widget would collect outputs past the caps: none."""
        return None

    def output(self, outs, msg, display_id, cell_index):
        """nbclient's hook for each output: a student's error renamed if need be, every output made inert and charged
        to the cell's caps; a note says what was cut or left out, once per reason. In a grade cell the output that
        decides its score is kept whatever the caps say."""
        content = msg.get("content", {})
        if msg["msg_type"] == "error":
            content = own_name(content)
        budget = self._budgets.setdefault(cell_index, Budget(self._caps))
        output = {**content, "output_type": msg["msg_type"]}
        if self._held > self._caps.max_notebook_bytes:  # all cells together: what the notebook may hold
            budget.chars = budget.image_bytes = 0
            budget.reason(f"everything after the notebook's first {self._caps.max_notebook_bytes:,} bytes of output")
        kept = reduce_output(output, budget)
        if kept is None and decides_grade(output) and self._first_decider(cell_index):
            kept = kept_as_decided(output, self._caps)
        out = None
        if kept is not None:
            if decides_grade(kept):
                self._decided.add(cell_index)
            self._held += len(json.dumps(kept))
            kept.pop("output_type")
            out = super().output(outs, dict(msg, content=kept), display_id, cell_index)
        for note in budget.new_notes():
            if cells.is_check(self.nb.cells[cell_index]):  # an error output would be read as the check failing
                note = {"output_type": "stream", "name": "stdout", "text": f"[{note['evalue']}]\n"}
            outs.append(from_dict(note))
            self._marks.append({"cell": cell_index, "grade_id": cells.grade_id(self.nb.cells[cell_index]),
                                "kind": failures.OUTPUT_CUT,
                                "message": note.get("evalue") or note["text"].strip("[]\n")})
        return out

    def _first_decider(self, cell_index):
        """Whether no grade-deciding output of this grade cell has been kept yet."""
        return cells.is_check(self.nb.cells[cell_index]) and cell_index not in self._decided
