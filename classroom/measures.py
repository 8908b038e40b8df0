"""Measurements the hidden grade cells of source/score_gradient use, in two settings with one interface.

In the student's kernel (`nbgrader validate`, or a plain notebook run) the function is an ordinary Python function
and is measured in-process (tracemalloc, a line-counting tracer, its cell's source). During trusted grading
(classroom.preprocessors.trusted_grades) it is a `FunctionProxy`, and the measurements are taken from outside the
child process that runs the student's code. Loops are found twice: statically in the source (`find_loops`, parsed
with `ast` in the grader, where the student's code cannot patch it), and by counting the Python lines one call runs.
"""
import ast
import inspect
import linecache
import tracemalloc

import numpy as np

from .runner import count_lines
from .student import FunctionProxy

GROWTH_ALLOWED = 10  # extra Python lines tolerated between the small and the large call

LOOP_NODES = {ast.For: "a `for` loop", ast.AsyncFor: "an `async for` loop", ast.While: "a `while` loop",
              ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
              ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression"}
# Calls that loop in Python on the student's behalf, or hide code from this check.
LOOPING_CALLS = {"vectorize": "np.vectorize (a Python loop in disguise)",
                 "frompyfunc": "np.frompyfunc (a Python loop in disguise)",
                 "apply_along_axis": "np.apply_along_axis (a Python loop over rows)",
                 "fromfunction": "np.fromfunction with a Python function",
                 "map": "map() (a Python loop)", "exec": "exec() (code this check cannot read)",
                 "eval": "eval() (code this check cannot read)", "compile": "compile() (code this check cannot read)",
                 "__import__": "__import__() (code this check cannot read)"}


def find_loops(source):
    """Describe every loop-like construct in `source`, as (line, description) pairs, in order (nothing is run)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [(exc.lineno or 0, f"a syntax error ({exc.msg})")]
    found = []
    for node in ast.walk(tree):
        for kind, description in LOOP_NODES.items():
            if isinstance(node, kind):
                found.append((node.lineno, description))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in LOOPING_CALLS:
                found.append((node.lineno, LOOPING_CALLS[name]))
    return sorted(found)


def _inputs(T, seed=0):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(T, T))
    Z = np.exp(E - E.max(axis=1, keepdims=True))
    return Z / Z.sum(axis=1, keepdims=True), rng.normal(size=(T, T))


def _cell_source(f):
    """The whole source of the cell (or file) that defined `f`, helpers included."""
    lines = linecache.getlines(f.__code__.co_filename)
    return "".join(lines) if lines else inspect.getsource(f)


def python_loops(f, small=4, large=40):
    """Reasons to believe `f` loops in Python over rows or cells (an empty list when there are none)."""
    if isinstance(f, FunctionProxy):
        source, count = f.code.source, f.line_count
    else:
        source, count = _cell_source(f), (lambda *args: count_lines(f, *args)[1])
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
