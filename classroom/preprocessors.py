"""nbgrader preprocessors for the score_gradient assignment (wired in by nbgrader_config.py).

* `RepairGradeCells` (autograde, sanitize stage): every grade cell the gradebook knows is present once, with its
  original source and metadata, whatever the student did to it (deleted, blanked, edited, re-labelled, retyped).
* `ExecuteForDisplay` (autograde): runs the student's own cells in a kernel so the feedback shows their outputs.
  Grade cells are not run there, and nothing that happens in that kernel decides a grade. Time, memory and output
  are capped; a kernel that dies or hangs stops the run, it does not stop the grading.
* `TrustedGrades` (autograde, before SaveAutoGrades): decides every grade cell in this (trusted) process by running
  the cell's code from the gradebook against the student's solution in a child process (classroom.student), and
  writes the verdict as the cell's only output: nothing if it passed, one error with a message if it failed.
* `SanitizeFeedback` (generate_feedback): grade cells show their visible part and the verdict's message only, never
  the hidden tests' source or a traceback through it.
"""
import builtins
import contextlib
import io
import os
import re
import shutil
import tempfile
import time

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellControlSignal, DeadKernelError
from nbformat.notebooknode import NotebookNode, from_dict
from traitlets import Bool, Float, Integer, Unicode
from traitlets.config import Configurable

from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

from . import sandbox
from .student import StudentCode, StudentError

MiB = 2 ** 20
HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[ \t]*\n?", re.S | re.M)


def _ids(resources):
    info = resources["nbgrader"]
    return info["notebook"], info["assignment"], info["db_url"]


def _source_cells(resources):
    """The gradebook's view of this notebook: [(name, cell_type, source, locked, points or None, is_solution)]."""
    notebook_id, assignment_id, db_url = _ids(resources)
    with Gradebook(db_url) as gb:
        notebook = gb.find_notebook(notebook_id, assignment_id)
        points = {cell.name: cell.max_score for cell in notebook.grade_cells}
        solutions = {cell.name for cell in notebook.solution_cells}
        return [(cell.name, cell.cell_type, cell.source, bool(cell.locked), points.get(cell.name),
                 cell.name in solutions) for cell in notebook.source_cells]


def _canonical_metadata(name, locked, points, is_solution):
    meta = {"grade": points is not None, "grade_id": name, "locked": locked, "schema_version": 3,
            "solution": is_solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


class RepairGradeCells(NbGraderPreprocessor):
    """Restore every known grade cell (source, type, metadata) and drop nbgrader metadata nobody issued."""

    def preprocess(self, nb, resources):
        known = {entry[0]: entry for entry in _source_cells(resources)}
        order = list(known)
        present = {}
        for index, cell in enumerate(nb.cells):
            meta = cell.metadata.get("nbgrader")
            if meta is None:
                continue
            name = meta.get("grade_id")
            if name not in known or name in present:
                self.log.warning("Dropping nbgrader metadata of a cell with unknown or repeated id %r", name)
                del cell.metadata["nbgrader"]
                continue
            present[name] = index
            self._restore(cell, known[name])
        for name in order:  # put back the grade cells that are missing, after their nearest earlier neighbour
            entry = known[name]
            if name in present or entry[4] is None:
                continue
            self.log.warning("Grade cell %r is missing from the submission: putting it back", name)
            earlier = [present[n] for n in order[:order.index(name)] if n in present]
            position = max(earlier) + 1 if earlier else len(nb.cells)
            nb.cells.insert(position, self._new_cell(entry))
            present = {n: (i + 1 if i >= position else i) for n, i in present.items()}
            present[name] = position
        return nb, resources

    @staticmethod
    def _new_cell(entry):
        name, cell_type, source, locked, points, is_solution = entry
        cell = {"cell_type": cell_type, "metadata": {}, "source": source}
        if cell_type == "code":
            cell.update(outputs=[], execution_count=None)
        cell = from_dict(cell)
        cell.metadata["nbgrader"] = from_dict(_canonical_metadata(name, locked, points, is_solution))
        return cell

    @staticmethod
    def _restore(cell, entry):
        name, cell_type, source, locked, points, is_solution = entry
        if cell.cell_type != cell_type:
            cell.cell_type = cell_type
            if cell_type == "code":
                cell.outputs, cell.execution_count = [], None
            else:
                cell.pop("outputs", None)
                cell.pop("execution_count", None)
        if locked:
            cell.source = source
        checksum = cell.metadata["nbgrader"].get("checksum")
        cell.metadata["nbgrader"] = from_dict(_canonical_metadata(name, locked, points, is_solution))
        if checksum is not None:
            cell.metadata["nbgrader"]["checksum"] = checksum


class Sandbox(Configurable):
    """The one switch for grading without bubblewrap: `--Sandbox.enabled=False` (what `classroom.autograde
    --no-sandbox` passes). Nothing else turns the sandbox off; without bwrap, grading raises SandboxUnavailable."""

    enabled = Bool(True, help="Run every student process in the bubblewrap sandbox (classroom.sandbox).").tag(
        config=True)


def _sandboxed(preprocessor):
    enabled = Sandbox(parent=preprocessor).enabled
    if enabled:
        sandbox.require()
    else:
        preprocessor.log.warning("Grading WITHOUT the sandbox (Sandbox.enabled=False): the student's code runs with "
                                 "your rights")
    return enabled


class SandboxedKernelManager(AsyncKernelManager):
    """Starts the student's kernel through classroom.sandbox (limits, and bubblewrap unless `sandboxed` is off).

    Sandboxed, the kernel has no network, so it talks ZeroMQ over IPC: the connection file and the sockets live in
    `ipc_dir`, a fresh directory that is bound into the sandbox (see classroom.sandbox)."""

    memory = Integer(2048 * MiB)
    sandboxed = Bool(True)
    workdir = Unicode(None, allow_none=True)
    ipc_dir = Unicode(None, allow_none=True)

    def use_ipc(self, ipc_dir):
        self.ipc_dir = ipc_dir
        self.transport = "ipc"
        self.connection_file = os.path.join(ipc_dir, "kernel.json")
        self.ip = os.path.join(ipc_dir, "zmq")

    def format_kernel_cmd(self, extra_arguments=None):
        argv = super().format_kernel_cmd(extra_arguments)
        if not self.sandboxed:
            return sandbox.wrap(argv, memory=self.memory, cpu_seconds=300, sandboxed=False)
        sandbox.hand_over(self.ipc_dir, self.connection_file)  # written just before this is called
        return sandbox.wrap(argv, memory=self.memory, cpu_seconds=300, home=self.workdir, ipc_dir=self.ipc_dir,
                            env=sandbox.untrusted_env(self.workdir))


class ExecuteForDisplay(Execute):
    """nbgrader's Execute, made to survive anything and to skip grade cells (TrustedGrades decides those)."""

    timeout = Integer(5, help="Seconds a single cell may run before it is interrupted.").tag(config=True)
    total_seconds = Float(20.0, help="Seconds for all the student's cells together; later cells are skipped.").tag(
        config=True)
    max_output_chars = Integer(20000, help="Characters of output kept per cell.").tag(config=True)
    kernel_memory = Integer(2048 * MiB, help="Address-space limit of the student's kernel, in bytes.").tag(
        config=True)
    note_not_run = Unicode("The grader did not run this cell: an earlier cell {why}.")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)
        super().__init__(*args, **kwargs)
        self.shutdown_kernel = "immediate"

    def create_kernel_manager(self):
        km = super().create_kernel_manager()
        km.memory = self.kernel_memory
        km.sandboxed = self._sandboxed
        km.workdir = self._workdir
        if self._sandboxed:
            km.use_ipc(self._ipc_dir)
        return km

    def output(self, outs, msg, display_id, cell_index):
        content = msg.get("content", {})
        size = len(str(content.get("text", ""))) + sum(len(str(v)) for v in content.get("data", {}).values())
        used = self._output_used.get(cell_index, 0)
        self._output_used[cell_index] = used + size
        if msg["msg_type"] != "error" and used + size > self.max_output_chars:
            if used <= self.max_output_chars:
                outs.append(from_dict({"output_type": "stream", "name": "stdout",
                                       "text": f"\n[output cut by the grader after {self.max_output_chars} "
                                               "characters]\n"}))
                self._output_used[cell_index] = self.max_output_chars + 1
            return None
        return super().output(outs, msg, display_id, cell_index)

    def preprocess(self, nb, resources=None, km=None):
        from nbclient.client import NotebookClient

        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        self._output_used = {}
        self._sandboxed = _sandboxed(self)  # refuses (SandboxUnavailable) rather than run the kernel unsandboxed
        workdir = self._workdir = tempfile.mkdtemp(prefix="student-kernel-")
        self._ipc_dir = tempfile.mkdtemp(prefix="student-ipc-")
        self._copy_data_files(resources, workdir)
        stopped = None
        deadline = time.monotonic() + self.total_seconds
        try:
            with self.setup_kernel(cwd=workdir):
                self.wait_for_reply(self.kc.kernel_info())
                for index, cell in enumerate(self.nb.cells):
                    if cell.cell_type != "code":
                        continue
                    if utils.is_grade(cell) and not utils.is_solution(cell):
                        cell.outputs, cell.execution_count = [], None
                        continue
                    if stopped:
                        cell.outputs = [self._note(self.note_not_run.format(why=stopped))]
                        cell.execution_count = None
                        continue
                    stopped = self._run_one(cell, index)
                    if stopped is None and time.monotonic() > deadline:
                        stopped = f"used up the {self.total_seconds:g} s the grader gives all cells together"
        except Exception as exc:  # the kernel would not start, or would not stop: the grades do not depend on it
            self.log.error("The student's kernel failed: %r", exc)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
            shutil.rmtree(self._ipc_dir, ignore_errors=True)
        return self.nb, resources

    def _run_one(self, cell, index):
        """Run one cell; return why the run must stop (a string) or None."""
        try:
            self.preprocess_cell(cell, self.resources, index)
        except DeadKernelError:
            cell.outputs.append(self._error("KernelDied", "the kernel running your notebook died during this cell "
                                            "(os._exit, a crash, or running out of memory)"))
            return "stopped the kernel"
        except (CellControlSignal, Exception) as exc:
            cell.outputs.append(self._error(type(exc).__name__, str(exc)[:500]))
            return f"failed in a way the grader could not recover from ({type(exc).__name__})"
        for out in cell.outputs:
            if out.get("output_type") == "error" and out.get("ename") == "CellTimeoutError":
                return f"ran for more than {self.timeout} s"
        return None

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

    @staticmethod
    def _note(text):
        return from_dict({"output_type": "stream", "name": "stdout", "text": text + "\n"})

    @staticmethod
    def _error(name, message):
        return from_dict({"output_type": "error", "ename": name, "evalue": message,
                          "traceback": [f"{name}: {message}"]})


class _TrustedNamespace(dict):
    """Globals for grade-cell code: a name neither the tests nor Python define is looked up in the student's code."""

    def __init__(self, student, **initial):
        super().__init__(**initial)
        self.student = student

    def __missing__(self, name):
        if name in builtins.__dict__ or name.startswith("__"):
            raise KeyError(name)
        value = self.student.lookup(name)
        self[name] = value
        return value


def _message(exc):
    if isinstance(exc, AssertionError):
        return "AssertionError", str(exc) or "a check failed"
    if isinstance(exc, StudentError):
        return "ErrorInYourCode", str(exc)
    return type(exc).__name__, f"{exc} (while checking what your function returned)"


def decide(student_source, tests, **limits):
    """Run each (grade_id, code) in `tests`, in order and in one namespace, against `student_source`.

    Returns {grade_id: (passed, ename, message, printed)}. This process never runs the student's code; it runs
    only the test code, with the student's names bound to proxies of a child process.
    """
    import numpy

    verdicts = {}
    with StudentCode(student_source, **limits) as student:
        namespace = _TrustedNamespace(student, __name__="__grading__", __builtins__=builtins, np=numpy)
        for grade_id, code in tests:
            printed = io.StringIO()
            try:
                compiled = compile(code, f"<grade cell {grade_id}>", "exec", dont_inherit=True, optimize=0)
                with contextlib.redirect_stdout(printed):
                    exec(compiled, namespace)
            except Exception as exc:
                ename, message = _message(exc)
                verdicts[grade_id] = (False, ename, message[:1500], printed.getvalue()[:2000])
            else:
                verdicts[grade_id] = (True, None, None, printed.getvalue()[:2000])
    return verdicts


class TrustedGrades(NbGraderPreprocessor):
    """Decide every code grade cell outside the student's kernel; the cell's outputs become the verdict."""

    call_timeout = Float(3.0, help="Seconds one call of the student's function may take.").tag(config=True)
    define_timeout = Float(5.0, help="Seconds the solution cell may take to run.").tag(config=True)
    max_strikes = Integer(3, help="Hangs or crashes after which the student's function is not called again.").tag(
        config=True)
    child_memory = Integer(2048 * MiB, help="Address-space limit of the grading child, in bytes.").tag(config=True)

    def preprocess(self, nb, resources):
        sandboxed = _sandboxed(self)  # refuses (SandboxUnavailable) rather than grade unsandboxed
        cells = _source_cells(resources)
        tests = [(name, source) for name, cell_type, source, _, points, is_solution in cells
                 if points is not None and cell_type == "code" and not is_solution]
        solution_ids = {name for name, *_, is_solution in cells if is_solution}
        solution_sources = [cell.source for cell in nb.cells
                            if cell.cell_type == "code" and utils.is_solution(cell)
                            and cell.metadata.nbgrader.get("grade_id") in solution_ids]
        # One solution cell (score_gradient) is run as it is; several answer cells (the quiz) are run one by one,
        # so that an unanswered question, still raising NotImplementedError, costs only its own points.
        student_source = solution_sources if len(solution_sources) > 1 else "\n\n".join(solution_sources)
        started = time.monotonic()
        verdicts = decide(student_source, tests, call_timeout=self.call_timeout,
                          define_timeout=self.define_timeout, max_strikes=self.max_strikes,
                          memory=self.child_memory, sandboxed=sandboxed)
        self.log.info("Trusted grading of %s took %.2f s", resources["nbgrader"]["student"],
                      time.monotonic() - started)
        for cell in nb.cells:
            if cell.cell_type != "code" or not utils.is_grade(cell) or utils.is_solution(cell):
                continue
            passed, ename, message, printed = verdicts.get(
                cell.metadata.nbgrader["grade_id"], (False, "NotGraded", "this check could not be run", ""))
            outputs = []
            if printed:
                outputs.append(from_dict({"output_type": "stream", "name": "stdout", "text": printed}))
            if not passed:
                outputs.append(from_dict({"output_type": "error", "ename": ename, "evalue": message,
                                          "traceback": [f"{ename}: {message}"]}))
            cell.outputs = outputs
        return nb, resources


def _docstring(source):
    import ast
    try:
        return ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        return ""


class SanitizeFeedback(NbGraderPreprocessor):
    """Feedback shows each grade cell's visible part, its points and its verdict; never hidden code."""

    def preprocess_cell(self, cell, resources, index):
        if not utils.is_grade(cell) or cell.cell_type != "code":
            return cell, resources
        source = cell.source
        if "BEGIN HIDDEN TESTS" in source:
            visible = HIDDEN.sub("", source)
            if "BEGIN HIDDEN TESTS" in visible or "END HIDDEN TESTS" in visible:
                visible = f'"""{_docstring(source)}"""\n'
            points = cell.metadata.nbgrader.get("points")
            cell.source = (visible.rstrip() + f"\n# Hidden check '{cell.metadata.nbgrader.get('grade_id')}' "
                           f"({points:g} points) ran here when your work was graded.")
        kept = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                message = str(out.get("evalue", ""))[:1500]
                kept.append(from_dict({"output_type": "error", "ename": out.get("ename", "Error"),
                                       "evalue": message, "traceback": [f"{out.get('ename', 'Error')}: {message}"]}))
            elif out.get("output_type") == "stream" and out.get("name") == "stdout":
                kept.append(from_dict({"output_type": "stream", "name": "stdout",
                                       "text": str(out.get("text", ""))[:2000]}))
        cell.outputs = kept
        return cell, resources
