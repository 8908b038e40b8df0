"""Measurements the hidden grade cells of source/score_gradient use, in two settings with one interface.

In the student's kernel (`nbgrader validate`, or a plain notebook run) the function is an ordinary Python function
and is measured in-process (tracemalloc, a line-counting tracer, its cell's source). During trusted grading
(classroom.preprocessors.trusted_grades) it is a `FunctionProxy`, and the measurements are taken from outside the
child process that runs the student's code (memory by the grader, from the child's control group or /proc). Loops
are found twice: statically in the source of the function and the helpers it uses (classroom.checks.loops, parsed with
`ast` in the grader, where the student's code cannot patch it), and by counting the Python lines one call runs.
"""
import inspect
import linecache
import tracemalloc

import numpy as np

from ..trusted.ipython_cells import as_python
from ..trusted.proxy import FunctionProxy
from ..trusted.server import count_lines
from .loops import find_loops

GROWTH_ALLOWED = 10  # extra Python lines tolerated between the small and the large call


def _inputs(T, seed=0):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(T, T))
    Z = np.exp(E - E.max(axis=1, keepdims=True))
    return Z / Z.sum(axis=1, keepdims=True), rng.normal(size=(T, T))


def _cell_source(f):
    """The whole source of the cell (or file) that defined `f`, helpers included, as plain Python."""
    lines = linecache.getlines(f.__code__.co_filename)
    return as_python("".join(lines) if lines else inspect.getsource(f))[0]


def _kernel_count(f):
    def count(*args):
        _, lines, kept = count_lines(f, *args)
        return lines if kept else None
    return count


def python_loops(f, small=4, large=40):
    """Reasons to believe `f` loops in Python over rows or cells (an empty list when there are none): what the
    source of `f` and of the helpers it uses shows (read by the grader), and the growth with T of the Python lines
    one call runs (counted where the function runs)."""
    if isinstance(f, FunctionProxy):
        source, name, count = f.code.source, f.name, f.line_count
    else:
        source, name, count = _cell_source(f), f.__name__, _kernel_count(f)
    reasons = [f"line {line} of your solution cell uses {what}" for line, what in find_loops(source, name)]
    n_small, n_large = count(*_inputs(small)), count(*_inputs(large))
    if n_small is None or n_large is None:
        reasons.append("your code switched off the grader's count of the Python lines it runs")
    elif n_large > n_small + GROWTH_ALLOWED:
        reasons.append(f"{n_small} lines of Python ran for T = {small} but {n_large} for T = {large}: "
                       "the Python work grows with T")
    return reasons


def peak_extra_bytes(f, *args):
    """Peak memory, in bytes, that one call `f(*args)` takes beyond what was in use before it."""
    if isinstance(f, FunctionProxy):
        return f.peak_extra_bytes(*args)
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
