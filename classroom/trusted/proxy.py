"""The trusted side of grading: a student's solution, run in a separate child process, seen through proxies.

`StudentCode(cells, launcher=...)` starts (lazily) a child that runs only those cells (classroom.trusted.child_handle,
classroom.trusted.server), with the `launcher` given (classroom.sandbox.launchers; the sandbox when none is), after
turning IPython lines into Python (classroom.trusted.ipython_cells). `code.lookup(name)` returns a `FunctionProxy`
for a function: calling it puts the arguments in files the grader reads back itself, lets the child use at most
`call_timeout` seconds of CPU time, and returns plain data rebuilt here (classroom.trusted.protocol: arrays, numbers,
strings, None, and lists, tuples, sets and dicts of them, or a `ForeignObject` that refuses every use). Nothing the
student's code defines ever runs in this process, so patched NumPy, patched builtins, lying objects and frame
inspection cannot reach the checks.

The child is kept running by a `Supervisor` (classroom.trusted.supervisor), within its time limits: CPU time of the
child's process tree read from outside it, `define_timeout` for each answer cell (one that runs past it is left out,
and only the names it would have set fail, saying by how much it was over), `call_timeout` for each call,
`max_strikes` hangs or deaths, and `total_seconds` for the whole submission. Failures of the student's code arrive
as `StudentError` (classroom.trusted.student_errors, with their kind).
"""
import numpy as np

from . import failures, protocol
from .student_errors import ReadOnlyWriteError, StudentError, WrongTypeError, raised
from .ipython_cells import as_python
from .supervisor import (CALL_SECONDS, CELL_SECONDS, CHILD_CPU_SECONDS, CHILD_MEMORY, MAX_REPLY, MAX_STRIKES,
                         WALL_FACTOR, Supervisor)
from .unanswered import not_answered
from ..checks.bindings import bound_names, cell_name


class ForeignObject:
    """Stands for a returned value that is not plain data; every use fails with an explanation."""

    __slots__ = ("_description",)

    def __init__(self, description):
        object.__setattr__(self, "_description", description)

    def _refuse(self, *args, **kwargs):
        raise WrongTypeError(f"your code produced {object.__getattribute__(self, '_description')}, which the grader "
                             f"cannot take back: it takes {protocol.PLAIN_DATA}")

    def __getattr__(self, name):
        self._refuse()

    __array__ = __bool__ = __len__ = __iter__ = __float__ = __int__ = __index__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __getitem__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __hash__ = None

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_description')}>"


def foreign(type_name):
    """A ForeignObject whose class carries the student's type name (so `type(out).__name__` reads naturally)."""
    cls = type(str(type_name)[:60] or "object", (ForeignObject,), {"__slots__": ()})
    return cls(f"a {type_name} object")


def _answer_cell(cell):
    """An answer cell named for the student: "your answer cell that defines score_gradient"."""
    return f"your answer cell {cell_name(cell)}".rstrip()


class StudentCode:
    """A student's solution cells, run on demand in grading children (one child, restarted after a hang or crash).

    `cells` is a list of code cells. One cell is run as a whole: if it raises, every lookup fails with its error.
    Several cells (answer cells, one per question) are run one by one: a cell that raises costs only the names it
    would have defined. The files and folders in `data_folder` (the assignment's files, as the kernel gets them)
    are copied into each child's working folder. `assignment_names` are the names the notebook's other cells bind
    (a helper in a locked cell): a check that needs one fails as the assignment's failure, not the student's."""

    def __init__(self, cells, call_timeout=CALL_SECONDS, define_timeout=CELL_SECONDS, max_strikes=MAX_STRIKES,
                 memory=CHILD_MEMORY, max_reply=MAX_REPLY, cpu_seconds=CHILD_CPU_SECONDS, launcher=None,
                 total_seconds=None, wall_factor=WALL_FACTOR, data_folder=None, assignment_names=()):
        if isinstance(cells, str) or not all(isinstance(cell, str) for cell in cells):
            raise TypeError("StudentCode takes a list of cell sources")
        self.assignment_names = frozenset(assignment_names)  # names only the assignment's other cells bind
        self.cells, self.notes = [], []
        for cell in cells:
            code, notes = as_python(cell)
            self.cells.append(code)
            self.notes += notes
        limits = {"memory": memory, "max_reply": max_reply, "cpu_seconds": cpu_seconds, "launcher": launcher,
                  "data_folder": data_folder}
        self.supervisor = Supervisor(self.cells, limits, call_timeout=call_timeout, define_timeout=define_timeout,
                                     max_strikes=max_strikes, total_seconds=total_seconds, wall_factor=wall_factor)

    @property
    def source(self):
        """All the student's code as one text, as the grading child runs it (what the static checks read)."""
        return "\n\n".join(self.cells)

    def place(self, line):
        """Where line `line` of `source` is, in words: "line 3 of your answer cell that defines score_gradient"."""
        start = 1
        for cell in self.cells:
            following = start + cell.count("\n") + 2  # "\n\n".join(cells)
            if line < following or cell is self.cells[-1]:
                if len(self.cells) == 1:
                    return f"line {line - start + 1} of your solution cell"
                return f"line {line - start + 1} of {_answer_cell(cell)}"
            start = following
        return f"line {line}"

    # -- the submission's time and its child (classroom.trusted.supervisor) ----------------------------------------
    def seconds_left(self):
        """The CPU seconds left to the submission (classroom.trusted.supervisor)."""
        return self.supervisor.seconds_left()

    def out_of_time(self, what="this check was not reached"):
        return self.supervisor.out_of_time(what)

    @property
    def calls(self):
        """How many calls of the student's functions have returned so far."""
        return self.supervisor.calls

    def close(self):
        self.supervisor.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- requests ---------------------------------------------------------------------------------------------
    def lookup(self, name):
        """The student's `name`: a FunctionProxy, plain data, or NameError if the solution cells do not define it."""
        header, blobs = self.supervisor.request({"op": protocol.LOOKUP, "name": name})
        if not header.get("ok"):
            raise StudentError(f"reading {name} failed: {header.get('error')}: {header.get('message')}",
                               failures.WRONG_TYPE)
        if header["kind"] == protocol.MISSING:
            raise self._not_defined(name)
        if header["kind"] == protocol.FUNCTION:
            return FunctionProxy(self, name)
        return protocol.decode(header, blobs, foreign)

    def _not_defined(self, name):
        """The NameError for a `name` the student's cells leave undefined, with the one reason that matters: the
        error of the answer cell that binds it, or an answer cell still raising NotImplementedError."""
        slow_cells = self.supervisor.slow_cells
        slow = [number for number in slow_cells if name in bound_names(self.cells[number - 1])]
        if slow:
            return StudentError(f"`{name}` is not set: {_answer_cell(self.cells[slow[0] - 1])} {slow_cells[slow[0]]}, "
                                "so the grader went on without that cell; keep slow self-tests out of answer cells",
                                failures.TIMED_OUT)
        if name in self.assignment_names and not any(name in bound_names(cell) for cell in self.cells):
            return failures.AssignmentError(
                f"`{name}` is defined by a cell of the assignment's own, which this assignment's grader does not run "
                "(it runs only your answer cells, on their own). That is not your mistake; your teacher is told.")
        if len(self.cells) == 1:
            return NameError(f"name '{name}' is not defined by your solution cell (the grader runs that cell on its "
                             "own: keep imports and helpers inside it)")
        # from the child: plain data, but whatever the student's code made of it
        errors = [(e.get("cell"), str(e.get("error")), str(e.get("message") or "")) for e in
                  self.supervisor.cell_errors if isinstance(e, dict)]
        binding = [e for e in errors if e[0] in range(1, len(self.cells) + 1) and name in bound_names(
            self.cells[e[0] - 1])]
        _, error, message = (binding or [e for e in errors if e[1] == "NotImplementedError"] or [(0, "", "")])[0]
        if error == "NotImplementedError":
            return NameError(not_answered(f"`{name}` is not set, because its answer cell", "answer", message))
        if error:
            return NameError(f"`{name}` is not set: the answer cell that sets it raised {error}"
                             + (f": {message}" if message else ""))
        return NameError(f"name '{name}' is not defined by your answer cells")

    def call(self, name, args, trace=False, memory=False):
        """Call the student's `name` on `args` (plain data, classroom.trusted.inputs.Inputs). Returns {"value",
        "after" (the inputs as the grader reads them after the call), "lines" and "tracer_kept" (with `trace`),
        "extra" (bytes the call added, with `memory`)}."""
        child = self.supervisor.child()
        specs = child.inputs.put(args)
        header = {"op": protocol.CALL, "name": name, "inputs": specs, "trace": bool(trace)}
        peak = child.start_peak() if memory else None
        reply, blobs = self.supervisor.request(header, watch=peak.watch if peak else None)
        result = {"extra": peak.extra() if peak else None}
        if not reply.get("ok"):
            if reply.get("error") == "NotImplementedError":
                raise StudentError(not_answered(f"`{name}`", message=reply.get("message")))
            raise raised(reply.get("error"), reply.get("message"), base=reply.get("base"))
        try:
            value = protocol.decode(reply, blobs, foreign)
        except (ValueError, EOFError, OSError, IndexError):
            raise StudentError("the process running your code sent back a malformed reply (did your code change "
                               "NumPy?)", failures.WRONG_TYPE) from None
        result.update(value=value, after=[child.inputs.read(s) for s in specs], lines=int(reply.get("lines", 0)),
                      tracer_kept=reply.get("tracer_kept") is True)
        return result


class FunctionProxy:
    """Calls the student's function in the child; behaves like the function for arrays in, plain data out.

    If the student's function wrote into an argument, the change is copied back into the caller's array (as it
    would have happened in the student's own kernel); read-only arguments are mapped read-only in the child.
    What classroom.checks.measures asks of a function measured elsewhere, it offers: `source` (the code that
    defines it), `line_count(*args)` and `peak_extra_bytes(*args)`.
    """

    def __init__(self, code, name):
        self.code = code
        self.name = name
        self.__name__ = name

    @property
    def source(self):
        """The student's code that defines this function, as the child runs it (for the static reading)."""
        return self.code.source

    def place(self, line):
        """Where a line of `source` is, in the student's words (see StudentCode.place)."""
        return self.code.place(line)

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"the grader calls {self.name} with positional arguments only")
        result = self.code.call(self.name, args)
        self._copy_back(args, result["after"])
        return result["value"]

    @staticmethod
    def _copy_back(args, after):
        for original, changed in zip(args, after):
            if not isinstance(original, np.ndarray):
                continue
            if np.array_equal(changed, original, equal_nan=original.dtype.kind in "fc"):
                continue
            if not original.flags.writeable:  # cannot happen: the child maps it read-only
                raise ReadOnlyWriteError("your function wrote into an input it was given as read-only")
            np.copyto(original, changed)

    def line_count(self, *args):
        """How many Python lines ran during one call (counted inside the child, which the student's code could
        tamper with: used only to spot loops the source does not show); None if the counter was switched off."""
        result = self.code.call(self.name, args, trace=True)
        return result["lines"] if result["tracer_kept"] else None

    def peak_extra_bytes(self, *args):
        """Peak memory added by one call, read by the grader (classroom.trusted.child_handle.Peak): the whole process
        tree's, files and shared memory included."""
        return self.code.call(self.name, args, memory=True)["extra"]
