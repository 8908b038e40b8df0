"""The static half of the no-loop rule: the student's source, read with `ast` in the grader (nothing is run).

`find_loops(source, name)` reads the function `name` and what it uses (the helpers, imports and values of the cell
that it reaches by name, transitively), not the rest of the cell: a self-test loop beside the function is the
student's own business. In that code it reports loops and comprehensions, calls and names that loop in Python on the
student's behalf (`map`, `itertools.starmap`, `np.vectorize`..., even when renamed: `m = map`), and recursion. In
the whole cell it reports what could switch off or fool the grader's count of executed lines
(classroom.trusted.server): tracing and frame access, `gc`, `ctypes`, code run from strings, changes to imported
modules. Without `name` (or when the cell does not define it) the whole cell is read.
"""
import ast
import symtable

LOOP_NODES = {ast.For: "a `for` loop", ast.AsyncFor: "an `async for` loop", ast.While: "a `while` loop",
              ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
              ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression"}
# Names that loop in Python on the student's behalf, called or only mentioned (an alias is a mention).
LOOPING = {"vectorize": "np.vectorize (a Python loop in disguise)",
           "frompyfunc": "np.frompyfunc (a Python loop in disguise)",
           "apply_along_axis": "np.apply_along_axis (a Python loop over rows)",
           "apply_over_axes": "np.apply_over_axes (a Python loop over axes)",
           "fromfunction": "np.fromfunction with a Python function", "fromiter": "np.fromiter (a Python loop)",
           "map": "map() (a Python loop)", "filter": "filter() (a Python loop)",
           "starmap": "itertools.starmap (a Python loop)", "reduce": "functools.reduce (a Python loop)",
           "accumulate": "itertools.accumulate (a Python loop)", "methodcaller": "operator.methodcaller"}
# What could hide work from the line count or rewrite it, anywhere in the cell.
HIDING = {"exec": "exec() (code this check cannot read)", "eval": "eval() (code this check cannot read)",
          "compile": "compile() (code this check cannot read)", "__import__": "__import__()",
          "settrace": "sys.settrace (the grader's line counter)", "setprofile": "sys.setprofile",
          "gettrace": "sys.gettrace (the grader's line counter)", "monitoring": "sys.monitoring",
          "_getframe": "sys._getframe (the grader's frames)", "currentframe": "inspect.currentframe",
          "_current_frames": "sys._current_frames", "f_back": "frame.f_back", "f_locals": "frame.f_locals",
          "f_globals": "frame.f_globals", "f_trace": "frame.f_trace", "tb_frame": "traceback frames",
          "gi_frame": "generator frames", "__code__": "__code__", "__globals__": "__globals__",
          "__closure__": "__closure__", "__builtins__": "__builtins__", "__dict__": "__dict__",
          "__subclasses__": "__subclasses__", "__getattribute__": "__getattribute__", "modules": "sys.modules",
          "getattr": "getattr()", "setattr": "setattr()", "delattr": "delattr()", "vars": "vars()",
          "globals": "globals()", "locals": "locals()", "as_strided": "as_strided (raw memory)",
          "fork": "os.fork (a process the line count does not see)", "clear_refs": "/proc clear_refs"}
HIDING_MODULES = {"gc", "ctypes", "_ctypes", "cffi", "inspect", "importlib", "pickle", "marshal", "types", "dis",
                  "builtins", "threading", "_thread", "multiprocessing", "concurrent", "subprocess", "timeit",
                  "runpy", "code", "codeop", "pdb", "trace", "cProfile", "profile", "sys.monitoring", "__main__"}


def _names_used(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _names_bound(statement):
    """Names a module-level statement binds (outside the functions and classes it may define)."""
    bound = set()
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return bound


def bound_names(source):
    """The names a cell's code binds at its top level (assignments, functions, classes, imports, and names bound
    inside its loops, conditions and `with` blocks); none if it does not parse. The grader uses it to tell which
    answer cell a missing name belongs to (classroom.trusted.proxy)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    return set().union(*(_names_bound(statement) for statement in tree.body))


def _global_names(table):
    """The module-level names a function's (or class's) code uses, its nested functions included (symtable)."""
    names = set()
    for symbol in table.get_symbols():
        if symbol.is_referenced() and (symbol.is_global() or table.get_type() == "class" and not symbol.is_local()):
            names.add(symbol.get_name())
    for child in table.get_children():
        names |= _global_names(child)
    return names


def _uses(statement, tables):
    """The module-level names a module-level statement uses: for a function or class, those its body uses (not
    its parameters or locals), plus its decorators' and defaults'."""
    if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return _names_used(statement)
    outside = [*statement.decorator_list, *getattr(statement, "bases", []), *getattr(statement, "keywords", [])]
    if not isinstance(statement, ast.ClassDef):
        outside += [*statement.args.defaults, *[d for d in statement.args.kw_defaults if d is not None]]
    names = set().union(*(_names_used(node) for node in outside)) if outside else set()
    for table in tables:
        if table.get_name() == statement.name and table.get_lineno() in (statement.lineno, *(
                d.lineno for d in statement.decorator_list)):
            names |= _global_names(table)
    return names


def reached(tree, name, source):
    """The module-level statements that define `name` and, transitively, what they use; None if none does."""
    statements = list(tree.body)
    bound = [_names_bound(s) for s in statements]
    if not any(name in b for b in bound):
        return None
    tables = symtable.symtable(source, "<cell>", "exec").get_children()
    wanted, chosen = {name}, set()
    while True:
        new = {i for i, b in enumerate(bound) if b & wanted} - chosen
        if not new:
            return [statements[i] for i in sorted(chosen)]
        chosen |= new
        for i in new:
            wanted |= _uses(statements[i], tables)


def _recursion(statements):
    """(line, function name) of each function that calls itself, directly or through others it reaches."""
    defs = {s.name: s for s in statements if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls = {n: _names_used(d) & set(defs) for n, d in defs.items()}
    found = []
    for start in defs:
        seen, todo = set(), list(calls[start])
        while todo:
            current = todo.pop()
            if current == start:
                found.append((defs[start].lineno, f"recursion ({start} calls itself: a Python loop in disguise)"))
                break
            if current not in seen:
                seen.add(current)
                todo += calls[current]
    return found


def _mentions(node):
    """(line, word) for every name, attribute, imported name and string constant in `node`."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            yield n.lineno, n.id
        elif isinstance(n, ast.Attribute):
            yield n.lineno, n.attr
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for alias in n.names:
                yield n.lineno, alias.name.split(".")[-1]
                if isinstance(n, ast.Import) or n.module:
                    yield n.lineno, "module:" + (alias.name if isinstance(n, ast.Import) else n.module)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) < 200:
            yield n.lineno, n.value.strip()


def _module_changes(tree):
    """(line, what) for each assignment to an attribute of an imported module (np.sum = ...)."""
    modules = {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
               for a in n.names}
    found = []
    for n in ast.walk(tree):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AugAssign,
                                                                                            ast.AnnAssign)) else []
        for target in targets:
            base = target
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if target is not base and isinstance(base, ast.Name) and base.id in modules:
                found.append((n.lineno, f"a change to the module {base.id} (the grader measures your code, not a "
                                        "changed library)"))
    return found


def find_loops(source, name=None):
    """Describe every loop-like or count-hiding construct, as (line, description) pairs, in order."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [(exc.lineno or 0, f"a syntax error ({exc.msg})")]
    statements = (reached(tree, name, source) if name else None) or list(tree.body)
    found = _recursion(statements)
    for statement in statements:
        for node in ast.walk(statement):
            for kind, description in LOOP_NODES.items():
                if isinstance(node, kind):
                    found.append((node.lineno, description))
        found += [(line, LOOPING[word]) for line, word in _mentions(statement) if word in LOOPING]
    for line, word in _mentions(tree):
        module = word[len("module:"):] if word.startswith("module:") else None
        if word in HIDING:
            found.append((line, HIDING[word]))
        elif module and (module in HIDING_MODULES or module.split(".")[0] in HIDING_MODULES):
            found.append((line, f"the module {module} (it can hide work from this check)"))
        elif not module and word.startswith("/proc/"):
            found.append((line, f"the file {word[:60]} (the grader's measurements)"))
    found += _module_changes(tree)
    return sorted(set(found))
