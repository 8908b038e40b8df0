"""Decide grade cells: each check's code runs here, in the trusted process, against the student's cells in a child.

`decide(cells, tests)` returns a `Verdict` per grade id; a verdict becomes the grade cell's outputs (what it printed,
then one error output whose `ename` is the failure's kind, or nothing if it passed), which is all nbgrader reads.
This process never runs the student's code; it runs only the test code, with the student's names bound to proxies
of a child process (classroom.trusted.proxy).
"""
import builtins
import functools
import io
from dataclasses import dataclass, replace

from . import failures
from .student_errors import StudentError
from .proxy import StudentCode

MAX_MESSAGE = 1500
MAX_PRINTED = 2000


@dataclass(frozen=True)
class Verdict:
    """One grade cell's result: `kind` is None when it passed, else a kind of classroom.trusted.failures with
    `message`."""

    kind: str = None
    message: str = ""
    printed: str = ""

    @property
    def passed(self):
        return self.kind is None

    def outputs(self):
        """The grade cell's outputs (plain nbformat dicts): what the check printed, then its failure if any."""
        outputs = [{"output_type": "stream", "name": "stdout", "text": self.printed}] if self.printed else []
        if not self.passed:
            outputs.append(failures.error_output(self.kind, self.message))
        return outputs


NOT_GRADED = Verdict(failures.NOT_GRADED, "this check could not be run")


def _behind(exc):
    """The student's failure or missing name a check's exception stands for (a check that caught a NameError or a
    StudentError and raised another exception), else `exc` itself."""
    seen = exc
    for _ in range(10):  # a chain of causes, never a loop
        if isinstance(seen, (StudentError, NameError, failures.AssignmentError)):
            return seen
        seen = seen.__cause__ or seen.__context__
        if seen is None:
            return exc
    return exc


def _failure(exc, called=True):
    """(kind, message) for an exception out of a check's code; `called`: whether the check had called the student's
    function before it (else nothing the function returned is to blame)."""
    if isinstance(exc, AssertionError):
        return failures.CHECK_FAILED, str(exc) or "a check failed"
    exc = _behind(exc)
    if isinstance(exc, StudentError):
        return exc.kind, str(exc)
    if isinstance(exc, failures.AssignmentError):
        return failures.ASSIGNMENT_FAILED, str(exc)
    if isinstance(exc, NameError):  # a name the student's cells do not define: its message says so
        return failures.CHECK_FAILED, str(exc)
    checked = "what your function returned" if called else "your answer"
    return failures.CHECK_FAILED, f"{type(exc).__name__}: {exc} (while checking {checked})"


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


def decide(cells, tests, **limits):
    """Run each (grade_id, code) of `tests`, in order and in one namespace, against the student's `cells` (a list
    of code cells, see StudentCode; `limits` are StudentCode's, `total_seconds` the time for all of it: a check
    not reached within it fails as TIMED_OUT and says so). Returns {grade_id: Verdict}; the first one's printed
    text starts with the grader's notes on the cells (IPython lines it skipped)."""
    import numpy

    verdicts = {}
    with StudentCode(cells, **limits) as student:
        namespace = _TrustedNamespace(student, __name__="__grading__", __builtins__=builtins, np=numpy)
        for grade_id, code in tests:
            if student.seconds_left() <= 0:
                verdicts[grade_id] = Verdict(failures.TIMED_OUT, str(student.out_of_time())[:MAX_MESSAGE])
                continue
            printed, calls = io.StringIO(), student.calls
            namespace["print"] = functools.partial(print, file=printed)  # this thread's, not sys.stdout for all
            try:
                compiled = compile(code, "<check>", "exec", dont_inherit=True, optimize=0)  # no grade id in messages
                exec(compiled, namespace)
            except Exception as exc:
                kind, message = _failure(exc, called=student.calls > calls)
                verdicts[grade_id] = Verdict(kind, message[:MAX_MESSAGE], printed.getvalue()[:MAX_PRINTED])
            else:
                verdicts[grade_id] = Verdict(printed=printed.getvalue()[:MAX_PRINTED])
        if student.notes and verdicts:
            first = next(iter(verdicts))
            note = "".join(f"Note from the grader: {note}\n" for note in student.notes)
            verdicts[first] = replace(verdicts[first], printed=(note + verdicts[first].printed)[:MAX_PRINTED])
    return verdicts
