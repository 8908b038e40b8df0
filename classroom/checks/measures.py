"""Measurements the hidden grade cells of source/score_gradient use, in two settings with one interface.

In the student's kernel (`nbgrader validate`, or a plain notebook run) the function is an ordinary Python function
and is measured in-process (tracemalloc, the line counter of classroom.checks.line_count, its cell's source). During
trusted grading the function runs in another process and is measured from outside it; what stands for it here
offers the measurements itself, and this module asks for them by name, not by class: `peak_extra_bytes(*args)`,
`line_count(*args)` and `source` (classroom.trusted.proxy's FunctionProxy offers all three). Loops are found twice:
statically in the source of the function and the helpers it uses (classroom.checks.loops, parsed with `ast` where
the measurement is taken: in the grader, out of the student's code's reach), and by counting the Python lines one
call runs.

This module, like all of classroom.checks, imports nothing of the trusted side: the student's kernel at Validate
loads only the standard library, NumPy and the lesson's softmax (tests/assignment/test_checks_in_student_kernel.py).
"""
import builtins
import inspect
import linecache
import tracemalloc

import numpy as np

from .bindings import bound_names, unresolved
from .exercise import softmax_rows
from .line_count import count_lines
from .loops import enclosing_function, find_loops

GROWTH_ALLOWED = 10  # extra Python lines tolerated between the small and the large call
# What an answer cell finds defined when the grader runs it on its own: Python's builtins (not those IPython adds,
# such as display) and what the grading child provides (classroom.trusted.server: np, get_ipython).
GRADER_PROVIDES = ({name for name in vars(builtins) if not name.startswith("__IPYTHON")} - {"display", "dreload"}
                   | {"np", "get_ipython", "__name__", "__builtins__"})


def _inputs(T, seed=0):
    rng = np.random.default_rng(seed)
    return softmax_rows(rng.normal(size=(T, T))), rng.normal(size=(T, T))


def _cell_source(f):
    """The whole source of the cell (or file) that defined `f`, helpers included: IPython keeps a cell's code in
    linecache as the Python it ran (magics and shell lines already turned into calls)."""
    lines = linecache.getlines(f.__code__.co_filename)
    return "".join(lines) if lines else inspect.getsource(f)


def _kernel_count(f):
    def count(*args):
        _, lines, kept = count_lines(f, *args)
        return lines if kept else None
    return count


def runs_alone(f, *before):
    """In the student's kernel: AssertionError if the answer cell that defines `f` could not define it when run on
    its own after the answer cells of the functions `before` (as the grader runs answer cells), because it uses a
    name that only another cell of the notebook sets (such as `rng` of a try-it cell). In the grader, where the
    cells do run on their own, `f` is measured elsewhere and this says nothing."""
    if not hasattr(f, "__code__") or any(not hasattr(g, "__code__") for g in before):
        return
    available = set(GRADER_PROVIDES).union(*(bound_names(_cell_source(g)) for g in before))
    missing = unresolved(_cell_source(f), f.__name__, available)
    assert not missing, (
        f"the answer cell that defines {f.__name__} uses {', '.join(f'`{n}`' for n in missing)}, which no answer "
        "cell sets: the grader runs each answer cell on its own, after the answer cells above it and none of the "
        "other cells, so set what it needs in that cell")


def _where(source, line, place):
    """Where a line is, in words, naming the function that holds it when the code defines more than one (a cell
    is named by its first function, which need not be the one with the loop)."""
    function, functions = enclosing_function(source, line)
    return f"{place(line)}, in {function}," if function and functions > 1 else place(line)


def python_loops(f, small=4, large=40):
    """Reasons to believe `f` loops over rows or cells (an empty list when there are none): what the source of `f`
    and of the helpers it uses shows (classroom.checks.loops: loops whose length the source does not fix, what
    loops in C, what the rule refuses), and the growth with T of the Python lines one call runs (counted where the
    function runs). Where it is measured elsewhere, `f.place(line)` says where a line of its source is."""
    count = getattr(f, "line_count", None)
    if count is not None:  # measured where it runs: it says its own source
        source = f.source
    else:
        source, count = _cell_source(f), _kernel_count(f)
    place = getattr(f, "place", None) or (lambda line: f"line {line} of your solution cell")
    reasons = [f"{_where(source, line, place)} uses {what}" for line, what in find_loops(source, f.__name__)]
    n_small, n_large = count(*_inputs(small)), count(*_inputs(large))
    if n_small is None or n_large is None:
        reasons.append("your code switched off the grader's count of the Python lines it runs")
    elif n_large > n_small + GROWTH_ALLOWED:
        reasons.append(f"{n_small} lines of Python ran for T = {small} but {n_large} for T = {large}: "
                       "the Python work grows with T")
    return reasons


def peak_extra_bytes(f, *args):
    """Peak memory, in bytes, that one call `f(*args)` takes beyond what was in use before it."""
    measured = getattr(f, "peak_extra_bytes", None)
    if measured is not None:  # measured where it runs, from outside
        return measured(*args)
    already = tracemalloc.is_tracing()
    if not already:
        tracemalloc.start()
    tracemalloc.reset_peak()
    start = tracemalloc.get_traced_memory()[0]
    try:
        f(*args)
        return max(tracemalloc.get_traced_memory()[1] - start, 0)
    finally:
        if not already:
            tracemalloc.stop()
