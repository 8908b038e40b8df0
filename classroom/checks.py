"""Measurements the hidden grade cells of source/score_gradient use, in two settings with one interface.

In the student's kernel (`nbgrader validate`, or a plain notebook run) the function is an ordinary Python function
and is measured in-process (tracemalloc, sys.settrace, its cell's source). During trusted grading
(classroom.preprocessors.TrustedGrades) it is a `FunctionProxy`, and the measurements are taken from outside the
child process that runs the student's code.
"""
import inspect
import linecache
import sys
import tracemalloc

import numpy as np

from .loops import find_loops
from .student import FunctionProxy

GROWTH_ALLOWED = 10  # extra Python lines tolerated between the small and the large call


def _inputs(T, seed=0):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(T, T))
    Z = np.exp(E - E.max(axis=1, keepdims=True))
    return Z / Z.sum(axis=1, keepdims=True), rng.normal(size=(T, T))


def _cell_source(f):
    """The whole source of the cell (or file) that defined `f`, helpers included."""
    lines = linecache.getlines(f.__code__.co_filename)
    return "".join(lines) if lines else inspect.getsource(f)


def _lines_run_here(f, *args):
    counts = [0]

    def local(frame, event, arg):
        if event == "line":
            counts[0] += 1
        return local

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        f(*args)
    finally:
        sys.settrace(previous)
    return counts[0]


def python_loops(f, small=4, large=40):
    """Reasons to believe `f` loops in Python over rows or cells (an empty list when there are none)."""
    if isinstance(f, FunctionProxy):
        source, count = f.code.source, f.line_count
    else:
        source, count = _cell_source(f), (lambda *args: _lines_run_here(f, *args))
    reasons = [f"line {line} of your solution cell uses {what}" for line, what in find_loops(source)]
    n_small, n_large = count(*_inputs(small)), count(*_inputs(large))
    if n_large > n_small + GROWTH_ALLOWED:
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
