"""ExecuteForDisplay: nbgrader's Execute, made to survive anything and to skip grade cells (TrustedGrades decides
those). It runs the student's own cells once, in a kernel started by the configured launcher
(classroom.sandbox.kernel, classroom.sandbox.launchers: the sandbox by default), so the feedback shows their
outputs; nothing there decides a grade. Time, memory and output are capped; a kernel that dies or hangs stops the
run, not the grading. A cell may run `timeout` seconds (nbgrader's c.Execute.timeout; None: no limit of its own), and
all cells together `total_seconds`, which holds whatever `timeout` says: with no time limit at all one submission
could hold up the grading of the whole class. What the grader writes into a cell is an error output named by its kind
(classroom.trusted.failures): TIMED_OUT, CRASHED, OUTPUT_CUT, or NOT_RUN for a cell after the one that stopped the
run; a student's exception bearing one of those names is renamed. Each output is made inert and charged to its
cell's caps as it arrives (classroom.feedback.inert_outputs, with InertContent's caps), so nothing big is held;
widget state is not kept. Built on public hooks of nbconvert's ExecutePreprocessor and nbclient.
"""
import contextlib
import secrets
import time

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import from_dict
from nbgrader.preprocessors import Execute
from traitlets import Float, Integer

from .. import cells
from ..feedback.inert_outputs import Budget, reduce_output
from ..sandbox import launchers
from ..sandbox.kernel import SandboxedKernelManager, kernel_folders
from ..trusted import failures
from ..units import MiB
from .inert_content import InertContent

TOKEN = "classroom_timeout"  # a key of nbclient's own reply for an interrupted cell (see error_on_timeout)


def own_name(content):
    """A kernel message's content, its `ename` made to never be one of the grader's kinds."""
    ename = content.get("ename")
    return dict(content, ename=f"{ename} (raised by your code)") if ename in failures.KINDS else content


def _mark(cell, kind, message):
    cell.setdefault("outputs", []).append(from_dict(failures.error_output(kind, message[:500])))


class ExecuteForDisplay(Execute):
    """Run the student's cells for the feedback only; grade cells are left empty for TrustedGrades."""

    timeout = Integer(5, allow_none=True, help="Seconds a single cell may run before it is interrupted; None: no "
                      "limit of its own (all cells together still stop at total_seconds).").tag(config=True)
    total_seconds = Float(20.0, help="Seconds for all the student's cells together; later cells are skipped.").tag(
        config=True)
    max_output_chars = Integer(None, allow_none=True, help="Characters of output text kept per cell as it runs; "
                               "by default InertContent.max_output_chars, the cap the notebook is held to.").tag(
        config=True)
    kernel_memory = Integer(2048 * MiB, help="Address-space limit of the student's kernel, in bytes.").tag(
        config=True)
    kernel_cpu_seconds = Integer(300, help="CPU seconds the student's kernel may use in all.").tag(config=True)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self.launcher = launchers.chosen(self)
        self.shutdown_kernel = "immediate"
        self.store_widget_state = False  # widget state is for pages that load a widget manager: never ours

    def preprocess(self, nb, resources=None, km=None):
        self.launcher.check()  # the sandbox refuses (SandboxUnavailable) rather than run the kernel without it
        self._stopped, self._budgets = None, {}
        self._caps = InertContent(parent=self)
        if self.max_output_chars is not None:
            self._caps.max_output_chars = self.max_output_chars
        self._deadline = time.monotonic() + self.total_seconds
        self.timeout_func, self._limit = self._cell_limit, None
        self._token = secrets.token_hex(16)  # the student's code cannot forge nbclient's timeout reply
        self.error_on_timeout = dict(failures.error_output(failures.TIMED_OUT, ""), **{TOKEN: self._token})
        try:
            return super().preprocess(nb, resources, km)
        except Exception as exc:  # the kernel would not start, or would not stop: the grades do not depend on it
            self.log.error("The student's kernel failed: %r", exc)
            return nb, resources

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
        if cell.cell_type != "code":
            return cell, resources
        if cells.is_check(cell) or self._stopped:
            cell.outputs, cell.execution_count = [], None
            if not cells.is_check(cell):
                _mark(cell, failures.NOT_RUN, f"The grader did not run this cell: an earlier cell {self._stopped}.")
            return cell, resources
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
        seconds, whole_run = self._limit or (self.timeout, False)
        return f"the {self.total_seconds:g} s the grader gives all cells together" if whole_run else f"{seconds:g} s"

    def _run(self, cell, resources, index):
        """Run one cell; return why the run must stop (words that end "an earlier cell ...") or None."""
        self._interrupted = False
        try:
            super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            _mark(cell, failures.CRASHED, "the kernel running your notebook died during this cell (os._exit, a "
                                          "crash, or running out of memory)")
            return "stopped the kernel"
        except CellTimeoutError as exc:
            _mark(cell, failures.TIMED_OUT, f"the grader stopped waiting for this cell's output ({exc})")
            return "stopped sending its output"
        except Exception as exc:
            _mark(cell, failures.CRASHED, f"the grader could not go on after this cell ({type(exc).__name__}: {exc})")
            return f"failed in a way the grader could not recover from ({type(exc).__name__})"
        return f"ran past {self._overran()}" if self._interrupted else None

    def on_comm_open_jupyter_widget(self, msg):
        """nbclient's stand-in for a front end's Output widget would collect outputs past the caps: none."""
        return None

    def on_cell_executed(self, **kwargs):
        """nbclient's hook after a cell; nbgrader's adds an error the kernel replied with but did not display."""
        content = kwargs["execute_reply"].get("content", {})
        if content.get(TOKEN) == self._token:  # nbclient interrupted the cell: the reply is our error_on_timeout
            self._interrupted = True
            _mark(kwargs["cell"], failures.TIMED_OUT, f"the grader interrupted this cell after {self._overran()}")
            return
        reply = dict(kwargs["execute_reply"], content=own_name(content))
        super().on_cell_executed(**dict(kwargs, execute_reply=reply))

    def output(self, outs, msg, display_id, cell_index):
        """nbclient's hook for each output: a student's error renamed if need be, every output made inert and charged
        to the cell's caps; a note says what was cut or left out, once per reason."""
        content = msg.get("content", {})
        if msg["msg_type"] == "error":
            content = own_name(content)
        budget = self._budgets.setdefault(cell_index, Budget(self._caps))
        kept = reduce_output({**content, "output_type": msg["msg_type"]}, budget)
        out = None
        if kept is not None:
            kept.pop("output_type")
            out = super().output(outs, dict(msg, content=kept), display_id, cell_index)
        outs.extend(from_dict(note) for note in budget.new_notes())
        return out
