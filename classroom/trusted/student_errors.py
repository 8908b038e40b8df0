"""What the student's code did, as the grader reports it: an exception carrying its kind (classroom.trusted.failures).

str() of each is the sentence for the student; `kind` is what code decides on (the verdict's error output carries it
as its `ename`). Each is also the built-in exception a check would meet in the student's own kernel, so a check
written `except ValueError:` behaves the same whether the function ran there or in a grading child: what the
student's code raised arrives as a StudentError that is also that exception's nearest built-in class (a ValueError
as one named ValueError, the student's own `class Bad(KeyError)` as a KeyError), see `raised`.
"""
import builtins

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


# Built-in exceptions a student's error is never turned into: a check's own failure (AssertionError, which the grader
# reads as a wrong answer) and the ones that steer the grader's loops and generators.
NOT_MIRRORED = {"AssertionError", "StopIteration", "StopAsyncIteration", "GeneratorExit"}
_mirrors = {}


def _mirror(name):
    """StudentError's subclass that is also the built-in exception class `name` (or the nearest of its bases that
    can be one), made once; StudentError itself for a name that is no built-in Exception."""
    if name not in _mirrors:
        found = getattr(builtins, str(name), None)
        bases = found.__mro__ if isinstance(found, type) and issubclass(found, Exception) else ()
        _mirrors[name] = StudentError
        for base in bases:
            if base is Exception or base.__name__ in NOT_MIRRORED:
                break
            try:
                mirror = type(base.__name__, (StudentError, base), {"__module__": __name__,
                                                                    "__str__": BaseException.__str__})
                mirror("a test message")
            except TypeError:  # a layout or constructor StudentError cannot share (UnicodeDecodeError's)
                continue
            _mirrors[name] = mirror
            break
    return _mirrors[name]


def raised(error, message, what="your function", base=None):
    """The StudentError for a child's reply {"error": exception name, "base": its nearest built-in class, "message":
    ...}, also an instance of that built-in class: MemoryError is its own kind; a NameError says that the solution
    cell runs alone."""
    kind = failures.OUT_OF_MEMORY if error == "MemoryError" else failures.RAISED
    hint = f" ({ALONE})" if error == "NameError" else ""
    exc = _mirror(error if getattr(builtins, str(error), None) is not None else base)(
        f"{what} raised {error}: {message}{hint}")
    exc.kind = kind
    return exc
