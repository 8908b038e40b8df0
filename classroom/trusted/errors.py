"""What the student's code did, as the grader reports it: an exception carrying its kind (classroom.trusted.failures).

str() of each is the sentence for the student; `kind` is what code decides on (the verdict's error output carries it
as its `ename`). The subclasses are also the built-in exception a check would meet in the student's own kernel, so a
check written `except ValueError:` behaves the same whether the function ran there or in a grading child.
"""
from . import failures

STUDENT_KINDS = (failures.RAISED, failures.WRONG_TYPE, failures.TIMED_OUT, failures.CRASHED, failures.OUT_OF_MEMORY)


class StudentError(Exception):
    """Something the student's code did (raised, returned, hung, crashed, ran out of memory)."""

    def __init__(self, message, kind=failures.RAISED):
        if kind not in STUDENT_KINDS:
            raise ValueError(f"a StudentError is one of {', '.join(STUDENT_KINDS)}, not {kind!r}")
        super().__init__(message)
        self.kind = kind


class WrongTypeError(StudentError, TypeError):
    """The student's code returned something that is not plain data, and a check tried to use it."""

    def __init__(self, message):
        super().__init__(message, failures.WRONG_TYPE)


class ReadOnlyWriteError(StudentError, ValueError):
    """The student's function wrote into an input it was given read-only (NumPy raises ValueError there)."""

    def __init__(self, message):
        super().__init__(message, failures.RAISED)


class OutOfTime(StudentError):
    """The grading time of the whole submission ran out (classroom.trusted.proxy's budget), not one call's."""

    def __init__(self, message):
        super().__init__(message, failures.TIMED_OUT)


ALONE = ("the grader runs your solution cell on its own, so a helper, import or variable defined in another cell "
         "is missing there: move it into the solution cell")


def raised(error, message, what="your function"):
    """The StudentError for a child's reply {"error": exception name, "message": ...}: MemoryError is its own kind;
    a NameError says that the solution cell runs alone."""
    kind = failures.OUT_OF_MEMORY if error == "MemoryError" else failures.RAISED
    hint = f" ({ALONE})" if error == "NameError" else ""
    return StudentError(f"{what} raised {error}: {message}{hint}", kind)
