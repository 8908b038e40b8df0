"""Find Python-level loops in a solution's source, statically (nothing is run).

Used by the `no_python_loop` check together with a dynamic count of executed lines (see classroom.checks).
The source is the student's text, parsed with `ast` in the grader: it cannot be patched by the student's code.
"""
import ast

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
    """Describe every loop-like construct in `source`, as (line, description) pairs, in order."""
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
