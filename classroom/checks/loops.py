"""The static half of the no-loop rule: the student's source, read with `ast` in the grader (nothing is run).

The rule is "no loop over cells or rows". `find_loops(source, name)` reads the function `name` and what it uses
(the helpers, imports and values of the answer cells that it reaches by name, transitively, and the statements that
change them: classroom.checks.bindings), not the rest of the cells: a self-test loop, a thread pool or `inspect`
beside the function is the student's own business. In that code it reports:
  * loops whose length the source does not fix: `for` loops and comprehensions over anything but a literal (a
    tuple, list or set written out, a string, `range` of a number), `while` loops, recursion;
  * what loops in C on the student's behalf, where no Python line runs per item for the measured half to count:
    `map`, `filter`, `itertools.starmap`, `functools.reduce`, `np.vectorize`, ... (called on a literal, they are
    fine; renamed, `m = map`, or passed along, they count). Methods of NumPy's ufuncs (`np.add.reduce`) are
    whole-array operations, not these;
  * REFUSED: what could stop the grader from counting the Python lines a call runs (classroom.checks.line_count):
    frames and tracing, the garbage collector, ctypes, code run from strings, threads and processes, and names
    reached by a string (`getattr(x, name)` with a name that is not written out, `globals()`, `vars()`, ...).
And anywhere in the cells, a change to an imported module (`np.sum = ...`): it would change what every function
calls. The prompt of the exercise lists the same (source/score_gradient/score_gradient.ipynb, "Three rules").
Without `name` (or when no cell defines it) the whole source is read.
"""
import ast

from .bindings import bound_by, reached, used_by

LOOP_NODES = {ast.For: "a `for` loop", ast.AsyncFor: "an `async for` loop", ast.While: "a `while` loop",
              ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
              ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression"}
# What loops in C over its arguments, by qualified name (a bare name is a builtin unless the cells import it).
LOOPING = {"builtins.map": "map() (a loop over its arguments)", "builtins.filter": "filter() (a loop)",
           "itertools.starmap": "itertools.starmap (a loop)", "itertools.accumulate": "itertools.accumulate (a loop)",
           "functools.reduce": "functools.reduce (a loop)", "operator.methodcaller": "operator.methodcaller",
           "numpy.vectorize": "np.vectorize (a loop in disguise)", "numpy.frompyfunc": "np.frompyfunc (a loop)",
           "numpy.apply_along_axis": "np.apply_along_axis (a loop over rows)",
           "numpy.apply_over_axes": "np.apply_over_axes (a loop over axes)",
           "numpy.fromfunction": "np.fromfunction (a Python function called per cell)",
           "numpy.fromiter": "np.fromiter (a loop)"}
# Refused in the function and what it reaches: each could keep work from the count of Python lines. By qualified
# name (a bare name is a builtin unless the cells bind it), by prefix for modules, and attributes by their own name.
REFUSED = {"builtins.exec": "exec()", "builtins.eval": "eval()", "builtins.compile": "compile()",
           "builtins.__import__": "__import__()", "builtins.vars": "vars()", "builtins.globals": "globals()",
           "builtins.locals": "locals()", "sys.settrace": "sys.settrace", "sys.setprofile": "sys.setprofile",
           "sys.gettrace": "sys.gettrace", "sys._getframe": "sys._getframe", "sys._current_frames":
           "sys._current_frames", "sys.modules": "sys.modules", "os.fork": "os.fork (another process)",
           "os.forkpty": "os.forkpty (another process)", "os.system": "os.system (another process)",
           "os.popen": "os.popen (another process)", "numpy.lib.stride_tricks.as_strided": "as_strided (raw memory)"}
REFUSED_PREFIXES = {"os.spawn": "os.spawn* (another process)", "os.posix_spawn": "os.posix_spawn (another process)",
                    "os.exec": "os.exec* (another program)"}
REFUSED_MODULES = {"gc": "the garbage collector", "ctypes": "raw memory", "_ctypes": "raw memory",
                   "cffi": "raw memory", "inspect": "frames", "importlib": "modules loaded by name",
                   "builtins": "Python's builtins", "__main__": "the grading process's main module",
                   "pickle": "code run from data", "marshal": "code run from data", "threading": "another thread",
                   "_thread": "another thread", "concurrent": "other threads or processes",
                   "multiprocessing": "other processes", "subprocess": "other processes", "pty": "other processes"}
REFUSED_ATTRIBUTES = {"f_back": "frame.f_back", "f_locals": "frame.f_locals", "f_globals": "frame.f_globals",
                      "f_trace": "frame.f_trace", "tb_frame": "traceback frames", "gi_frame": "generator frames",
                      "cr_frame": "coroutine frames", "__code__": "__code__", "__globals__": "__globals__",
                      "__closure__": "__closure__", "__builtins__": "__builtins__", "__dict__": "__dict__",
                      "__subclasses__": "__subclasses__", "__getattribute__": "__getattribute__",
                      "as_strided": "as_strided (raw memory)", "currentframe": "inspect.currentframe"}
BY_NAME = {"getattr", "setattr", "delattr"}  # refused unless the attribute's name is written out
REFUSED_WHY = "it could keep work from the grader's count of Python lines"


def _recursion(statements):
    """(line, description) of each function that calls itself, directly or through others it reaches."""
    defs = {s.name: s for s in statements if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls = {n: used_by(d) & set(defs) for n, d in defs.items()}
    found = []
    for start in defs:
        seen, todo = set(), list(calls[start])
        while todo:
            current = todo.pop()
            if current == start:
                found.append((defs[start].lineno, f"recursion ({start} calls itself: a loop in disguise)"))
                break
            if current not in seen:
                seen.add(current)
                todo += calls[current]
    return found


def _fixed(node):
    """Whether an iterable's length is written in the source: a literal tuple, list, set or string, `range` of
    numbers, or zip/enumerate/reversed of such."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return not any(isinstance(item, ast.Starred) for item in node.elts)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id == "range":
            return all(isinstance(a, ast.Constant) and isinstance(a.value, int) for a in node.args)
        if node.func.id in ("zip", "enumerate", "reversed"):
            return bool(node.args) and _fixed(node.args[0]) if node.func.id != "zip" else all(map(_fixed, node.args))
    return False


def _imports(tree):
    """{name bound by an import: the qualified name it stands for}, e.g. np -> numpy, rowwise -> itertools.starmap;
    `np` is NumPy even unimported (the notebook imports it above the answer cells, and the grader provides it)."""
    found = {"np": "numpy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def _qualified(node, imports, bound):
    """The qualified name an expression written as a name or a chain of attributes stands for, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    if node.id in imports:
        head = imports[node.id]
    elif node.id in bound:
        return None  # the cells' own name
    else:
        head = f"builtins.{node.id}"
    return ".".join([head, *reversed(parts)])


def _looping(statements, imports, bound):
    """(line, description) for each mention of what loops in C, unless it is called on literals only."""
    found, called = [], set()
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Call):
                what = _qualified(node.func, imports, bound)
                if what in LOOPING:
                    called.add(id(node.func))
                    iterables = node.args[1:] if what not in ("numpy.fromiter",) else node.args[:1]
                    if what.startswith("numpy.") and what != "numpy.fromiter" or not iterables or not all(
                            map(_fixed, iterables)):
                        found.append((node.lineno, LOOPING[what]))
        for node in ast.walk(statement):
            if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in called:
                what = _qualified(node, imports, bound)
                if what in LOOPING:
                    found.append((node.lineno, LOOPING[what] + ", under another name or passed along"))
    return found


def _refusal(what, imported=True):
    """Why the qualified name `what` is refused, or None; a module only if `what` was imported (not a builtin)."""
    if what in REFUSED:
        return REFUSED[what]
    for prefix, why in REFUSED_PREFIXES.items():
        if what.startswith(prefix):
            return why
    module = imported and next((m for m in REFUSED_MODULES if what == m or what.startswith(m + ".")), None)
    return f"the module {module} ({REFUSED_MODULES[module]})" if module else None


def _refused(statements, imports, bound):
    """(line, description) for each refused construct in `statements`."""
    found = []
    for statement in statements:
        for node in ast.walk(statement):
            why = None
            if isinstance(node, (ast.Name, ast.Attribute)):
                base = node
                while isinstance(base, ast.Attribute):
                    base = base.value
                why = _refusal(_qualified(node, imports, bound) or "", getattr(base, "id", None) in imports)
                if why is None and isinstance(node, ast.Attribute):
                    why = REFUSED_ATTRIBUTES.get(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    full = alias.name if isinstance(node, ast.Import) else f"{node.module}.{alias.name}"
                    why = why or _refusal(full)
            elif isinstance(node, ast.Call) and _qualified(node.func, imports, bound) in {
                    f"builtins.{name}" for name in BY_NAME}:
                name = node.args[1] if len(node.args) > 1 else None
                if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or \
                        name.value in REFUSED_ATTRIBUTES or name.value.startswith("__"):
                    why = f"{node.func.id}() with a name that is not written out"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("/proc/"):
                why = f"the file {node.value[:60]} (the grader's measurements)"
            if why:
                found.append((node.lineno, f"{why}, refused here: {REFUSED_WHY}"))
    return found


def _module_changes(tree, imports):
    """(line, what) for each assignment to an attribute of an imported module (np.sum = ...)."""
    found = []
    for n in ast.walk(tree):
        targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target] if isinstance(
            n, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            base = target
            while isinstance(base, ast.Attribute):
                base = base.value
            if target is not base and isinstance(base, ast.Name) and base.id in imports:
                found.append((n.lineno, f"a change to the module {base.id} (the grader measures your code, not a "
                                        "changed library)"))
    return found


def _python_loops(statements):
    found = []
    for statement in statements:
        for node in ast.walk(statement):
            for kind, description in LOOP_NODES.items():
                if not isinstance(node, kind):
                    continue
                if isinstance(node, (ast.For, ast.AsyncFor)) and _fixed(node.iter):
                    continue
                if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and all(
                        _fixed(g.iter) for g in node.generators):
                    continue
                found.append((node.lineno, description))
    return found


def enclosing_function(source, line):
    """The name of the innermost function of `source` whose lines hold `line`, and how many functions `source`
    defines: (None, n) when the line is in none, or the source does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None, 0
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    holding = [n for n in functions if n.lineno <= line <= (n.end_lineno or n.lineno)]
    return (max(holding, key=lambda n: n.lineno).name if holding else None), len(functions)


def find_loops(source, name=None):
    """Describe every loop over a length the source does not fix, every construct that loops in C, and every
    refused construct, as (line, description) pairs, in order."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [(exc.lineno or 0, f"a syntax error ({exc.msg})")]
    statements = (reached(tree, name, source) if name else None) or list(tree.body)
    imports = _imports(tree)
    bound = set().union(*(bound_by(s) for s in tree.body)) - set(imports)
    found = _recursion(statements) + _python_loops(statements) + _looping(statements, imports, bound)
    found += _refused(statements, imports, bound) + _module_changes(tree, imports)
    return sorted(set(found))
