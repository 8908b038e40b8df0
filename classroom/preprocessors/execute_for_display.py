"""ExecuteForDisplay: nbgrader's Execute, made to survive anything and to skip grade cells (TrustedGrades decides
those). It runs the student's own cells once, in a sandboxed kernel (classroom.kernel), so the feedback shows their
outputs; nothing that happens in that kernel decides a grade. Time, memory and output are capped; a kernel that dies
or hangs stops the run, it does not stop the grading.

What the grader writes into a cell is an error output whose `ename` is its kind (classroom.failures): TIMED_OUT
(the cell was interrupted), CRASHED (the kernel died, or the run could not go on), OUTPUT_CUT (the rest of the
cell's output was dropped), NOT_RUN (an earlier cell stopped the run). A student's own exception whose name is one of
those kinds is renamed, so such an `ename` in a cell always comes from the grader.

Built on the public hooks of nbconvert's ExecutePreprocessor and nbclient's NotebookClient: `setup_kernel`,
`create_kernel_manager`, `preprocess_cell`, `output` and `on_cell_executed`.
"""
import contextlib
import os
import secrets
import shutil
import tempfile
import time

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import from_dict
from nbgrader.preprocessors import Execute
from traitlets import Float, Integer

from .. import cells, config, failures
from ..kernel import SandboxedKernelManager
from ..sandbox import MiB

TOKEN = "classroom_timeout"  # a key of nbclient's own reply for an interrupted cell (see error_on_timeout)


def own_name(ename):
    """The `ename` under which a student's exception is shown: never one of the grader's kinds."""
    return f"{ename} (raised by your code)" if ename in failures.KINDS else ename


class ExecuteForDisplay(Execute):
    """Run the student's cells for the feedback only; grade cells are left empty for TrustedGrades."""

    timeout = Integer(5, help="Seconds a single cell may run before it is interrupted.").tag(config=True)
    total_seconds = Float(20.0, help="Seconds for all the student's cells together; later cells are skipped.").tag(
        config=True)
    max_output_chars = Integer(20000, help="Characters of output kept per cell.").tag(config=True)
    kernel_memory = Integer(2048 * MiB, help="Address-space limit of the student's kernel, in bytes.").tag(
        config=True)
    kernel_cpu_seconds = Integer(300, help="CPU seconds the student's kernel may use in all.").tag(config=True)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self.shutdown_kernel = "immediate"

    # -- one run --------------------------------------------------------------------------------------------------
    def preprocess(self, nb, resources=None, km=None):
        self._sandboxed = config.sandboxed(self)  # refuses (SandboxUnavailable) rather than run the kernel unsandboxed
        self._stopped = None
        self._output_used = {}
        self._deadline = time.monotonic() + self.total_seconds
        self._token = secrets.token_hex(16)  # the student's code cannot forge nbclient's timeout reply
        self.error_on_timeout = dict(self._timed_out_output(), **{TOKEN: self._token})
        try:
            return super().preprocess(nb, resources, km)
        except Exception as exc:  # the kernel would not start, or would not stop: the grades do not depend on it
            self.log.error("The student's kernel failed: %r", exc)
            return nb, resources

    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        self._workdir = tempfile.mkdtemp(prefix="student-kernel-")
        self._ipc_dir = tempfile.mkdtemp(prefix="student-ipc-")
        try:
            self._copy_data_files(self.resources, self._workdir)
            with super().setup_kernel(cwd=self._workdir, **kwargs):
                yield
        finally:
            shutil.rmtree(self._workdir, ignore_errors=True)
            shutil.rmtree(self._ipc_dir, ignore_errors=True)

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        km.memory = self.kernel_memory
        km.cpu_seconds = self.kernel_cpu_seconds
        km.sandboxed = self._sandboxed
        km.workdir = self._workdir
        if self._sandboxed:
            km.use_ipc(self._ipc_dir)
        return km

    # -- one cell -------------------------------------------------------------------------------------------------
    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        if cells.is_check(cell) or self._stopped:
            cell.execution_count = None
            cell.outputs = [] if cells.is_check(cell) else [from_dict(failures.error_output(
                failures.NOT_RUN, f"The grader did not run this cell: an earlier cell {self._stopped}."))]
            return cell, resources
        self._stopped = self._run(cell, resources, index)
        if self._stopped is None and time.monotonic() > self._deadline:
            self._stopped = f"used up the {self.total_seconds:g} s the grader gives all cells together"
        return cell, resources

    def _run(self, cell, resources, index):
        """Run one cell; return why the run must stop (words that end "an earlier cell ...") or None."""
        self._interrupted = False
        try:
            super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._mark(cell, failures.CRASHED, "the kernel running your notebook died during this cell (os._exit, "
                                               "a crash, or running out of memory)")
            return "stopped the kernel"
        except CellTimeoutError as exc:
            self._mark(cell, failures.TIMED_OUT, f"the grader stopped waiting for this cell's output ({exc})"[:500])
            return "stopped sending its output"
        except Exception as exc:
            self._mark(cell, failures.CRASHED, f"the grader could not go on after this cell ({type(exc).__name__}: "
                                               f"{exc})"[:500])
            return f"failed in a way the grader could not recover from ({type(exc).__name__})"
        return f"ran for more than {self.timeout} s" if self._interrupted else None

    @staticmethod
    def _mark(cell, kind, message):
        cell.setdefault("outputs", []).append(from_dict(failures.error_output(kind, message)))

    def _timed_out_output(self):
        return failures.error_output(failures.TIMED_OUT, f"the grader interrupted this cell after {self.timeout} s")

    # -- hooks of nbclient ----------------------------------------------------------------------------------------
    def on_cell_executed(self, **kwargs):
        reply = kwargs["execute_reply"]
        content = reply.get("content", {})
        if content.get(TOKEN) == self._token:  # nbclient interrupted the cell: the reply is our error_on_timeout
            self._interrupted = True
            kwargs["cell"].outputs.append(from_dict(self._timed_out_output()))
            return
        if content.get("status") == "error":
            reply = dict(reply, content=dict(content, ename=own_name(content.get("ename"))))
        super().on_cell_executed(**dict(kwargs, execute_reply=reply))

    def output(self, outs, msg, display_id, cell_index):
        content = msg.get("content", {})
        if msg["msg_type"] == "error":
            msg = dict(msg, content=dict(content, ename=own_name(content.get("ename"))))
            return super().output(outs, msg, display_id, cell_index)
        size = len(str(content.get("text", ""))) + sum(len(str(v)) for v in content.get("data", {}).values())
        used = self._output_used.get(cell_index, 0)
        self._output_used[cell_index] = used + size
        if used + size > self.max_output_chars:
            if used <= self.max_output_chars:
                outs.append(from_dict(failures.error_output(
                    failures.OUTPUT_CUT, f"the grader cut this cell's output after {self.max_output_chars} characters")))
                self._output_used[cell_index] = self.max_output_chars + 1
            return None
        return super().output(outs, msg, display_id, cell_index)

    @staticmethod
    def _copy_data_files(resources, workdir):
        """Give the kernel the assignment's data files but not the notebook itself (which holds the tests)."""
        path = (resources or {}).get("metadata", {}).get("path")
        if not path or not os.path.isdir(path):
            return
        for name in os.listdir(path):
            full = os.path.join(path, name)
            if os.path.isfile(full) and not name.endswith(".ipynb"):
                shutil.copy(full, workdir)
