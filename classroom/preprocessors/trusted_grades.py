"""TrustedGrades: for an assignment of the trusted design (classroom.grading.design), decides every code grade cell
outside the student's kernel, in this (trusted) process, by running the cell's code from the gradebook against the
student's answer cells in a child process (classroom.trusted.verdict) that starts, as the display run's kernel does,
in a copy of the assignment's files (the files and folders beside the notebook), and writes the verdict as the cell's
only outputs: what the check printed, then nothing if it passed or one error output whose `ename` is the failure's
kind; each verdict is also recorded as data (resources["classroom"]["verdicts"]), from which the notebook's result is
made. A grade cell without a verdict gets NOT_GRADED. Runs before SaveAutoGrades. The deciding itself may have been
started earlier, in a thread, by classroom.preprocessors.start_trusted_grades (so that it runs while the display run
runs): then this takes its verdicts. For an assignment of nbgrader's design it does nothing."""
import time
from concurrent.futures import ThreadPoolExecutor

from nbformat import from_dict
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Float, Integer

from .. import cells
from ..checks.bindings import bound_names
from ..grading import design
from ..sandbox import launchers
from ..trusted import supervisor as limits
from ..trusted.ipython_cells import as_python
from ..trusted.verdict import NOT_GRADED, decide
from .repair_grade_cells import gradebook_cells

RUNNING = "classroom_trusted_grades"  # where StartTrustedGrades leaves the Future of the verdicts, in resources


class TrustedGrades(NbGraderPreprocessor):
    """Decide every code grade cell outside the student's kernel; the cell's outputs become the verdict."""

    call_timeout = Float(limits.CALL_SECONDS, help="CPU seconds one call of the student's function may use running "
                         "its own code (user time, read from outside its process, so the machine's load does not "
                         "change it; the kernel's work for it, such as fresh memory, counts toward total_seconds)."
                         ).tag(config=True)
    define_timeout = Float(limits.CELL_SECONDS, help="CPU seconds each answer cell may use to run its own code (user "
                           "time, as call_timeout); one that runs past it is left out, and only the checks that need "
                           "what it defines fail.").tag(config=True)
    wall_factor = Float(limits.WALL_FACTOR, help="How many times its CPU seconds a call, a cell or the submission may "
                        "also wait on the clock (code that sleeps uses no CPU time; code that computes is never "
                        "stopped by the clock).").tag(config=True)
    max_strikes = Integer(limits.MAX_STRIKES, help="Hangs or crashes after which the student's function is not called "
                          "again.").tag(config=True)
    child_memory = Integer(limits.CHILD_MEMORY, help="Address-space limit of the grading child, in bytes.").tag(
        config=True)
    child_cpu_seconds = Integer(limits.CHILD_CPU_SECONDS, help="CPU seconds the grading child may use in all.").tag(
        config=True)
    max_reply = Integer(limits.MAX_REPLY, help="Bytes the grading child may send back for one call.").tag(config=True)
    total_seconds = Float(45.0, help="CPU seconds the student's code may use for all the checks of one submission "
                          "together; a check not reached within them fails as TimedOut and says so.").tag(config=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.launcher = launchers.chosen(self)  # the grading child's (c.Grader.launcher_class)

    def start(self, nb, resources):
        """Begin deciding the grade cells in a thread of this process; returns the Future of the verdicts."""
        self.launcher.require()  # the sandbox refuses (SandboxUnavailable) rather than grade without it
        known = gradebook_cells(resources)
        tests = [(cell.name, cell.source) for cell in known if cell.is_check]
        solution_ids = {cell.name for cell in known if cell.is_solution}
        # The student's cells are the solution cells the gradebook knows, as the student wrote them.
        student_cells = [cell.source for cell in nb.cells
                         if cells.is_answer_code(cell) and cells.grade_id(cell) in solution_ids]
        others = {name for cell in nb.cells if cell.cell_type == "code" and not cells.is_answer_code(cell)
                  and not cells.is_check(cell) for name in bound_names(as_python(cells.source(cell))[0])}
        one = ThreadPoolExecutor(1, thread_name_prefix="trusted-grades")
        future = one.submit(self._decide, student_cells, tests, resources["nbgrader"]["student"],
                             resources.get("metadata", {}).get("path"), others)
        one.shutdown(wait=False)  # its thread ends with the work
        return future

    def _decide(self, student_cells, tests, student, data_folder, assignment_names):
        started = time.monotonic()
        verdicts = decide(student_cells, tests, call_timeout=self.call_timeout, define_timeout=self.define_timeout,
                          max_strikes=self.max_strikes, memory=self.child_memory, max_reply=self.max_reply,
                          cpu_seconds=self.child_cpu_seconds, launcher=self.launcher,
                          total_seconds=self.total_seconds, wall_factor=self.wall_factor, data_folder=data_folder,
                          assignment_names=assignment_names)
        self.log.info("Trusted grading of %s took %.2f s", student, time.monotonic() - started)
        return verdicts

    def __call__(self, nb, resources):
        if design.of_resources(resources, self).name != design.TRUSTED:
            return nb, resources
        return super().__call__(nb, resources)

    def preprocess(self, nb, resources):
        running = resources.pop(RUNNING, None)
        verdicts = (running or self.start(nb, resources)).result()
        decided = resources.setdefault("classroom", {}).setdefault("verdicts", {})
        for cell in nb.cells:
            if cells.is_check(cell):
                verdict = verdicts.get(cells.grade_id(cell), NOT_GRADED)
                cell.outputs = [from_dict(output) for output in verdict.outputs()]
                decided[cells.grade_id(cell)] = {"kind": verdict.kind, "message": verdict.message}
        return nb, resources
