"""What the grader says of work not done yet: code that still raises the NotImplementedError the assignment was
handed out with (`raise NotImplementedError()` under `# YOUR CODE HERE`), in a student's words; and which names a
cell's code would bind, to tell which answer cell a missing name belongs to (classroom.trusted.proxy)."""
import ast


def not_answered(what, kind="code", message=""):
    """The sentence for code still raising the NotImplementedError the assignment was handed out with."""
    said = f" ({message})" if message else ""
    return (f"Not answered yet: {what} still raises NotImplementedError{said}; replace `raise NotImplementedError()` "
            f"with your {kind}.")


def defined_names(source):
    """The names a cell's code binds at its top level or anywhere inside (assignments, functions, classes, imports);
    none if it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names
