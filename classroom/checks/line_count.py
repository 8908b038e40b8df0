"""The count of the Python lines one call runs: the measured half of the no-loop rule (classroom.checks.measures).

It runs where the function runs: in the student's own kernel at Validate, and in the grading child, which is started
by path inside the sandbox with the standard library and NumPy only (classroom/trusted/server.py loads this file
from beside its package, as it loads protocol.py). So this module imports the standard library only.
"""
import sys

UNTRACED = set()  # code objects whose lines are not the call's (the grading child's audit hook adds its own)


def count_lines(function, *args, allow=None):
    """Call `function(*args)` counting the Python lines it runs: (its value, the count, whether the tracer was
    still in place at the end). `allow` is the grading child's switch that lets its own sys.settrace past the audit
    hook that refuses the student's (None where there is no such hook)."""
    counts = [0]

    def local(frame, event, arg):
        if event == "line":
            counts[0] += 1
        return local

    def start(frame, event, arg):
        return None if frame.f_code in UNTRACED else local

    previous = sys.gettrace()
    _switch(allow, start)
    try:
        value = function(*args)
    finally:
        kept = sys.gettrace() is start
        _switch(allow, previous)
    return value, counts[0], kept


def _switch(allow, tracer):
    if allow is not None:
        allow[0] = True
    try:
        sys.settrace(tracer)
    finally:
        if allow is not None:
            allow[0] = False
