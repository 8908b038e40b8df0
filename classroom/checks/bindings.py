"""What the answer cells bind and use, by name, read with `ast` and `symtable` in the grader (nothing is run).

`bound_names(source)`: the names a cell binds at its top level; `cell_name(source)`: how to name a cell to a student
(the grader tells which answer cell a missing name belongs to with both, classroom.trusted.proxy). `reached(tree,
name, source)`: the statements that define `name` and, transitively, what they use, with the statements that change
those objects (the code the no-loop rule reads, classroom.checks.loops). `unresolved(source, name, available)`: the
names a cell run on its own would leave undefined for `name` (classroom.checks.measures).
"""
import ast
import symtable


def used_by(node):
    """Names the code of `node` reads."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def bound_by(statement):
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


def _names_changed(statement):
    """Names whose object a module-level statement changes without binding them: `box.f = ...`, `d[k] = ...`,
    `box.update(...)`."""
    changed = set()
    targets = []
    for node in ast.walk(statement):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets += node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        targets.append(statement.value.func)
    for target in targets:
        base = target
        while isinstance(base, (ast.Attribute, ast.Subscript)):
            base = base.value
        if base is not target and isinstance(base, ast.Name):
            changed.add(base.id)
    return changed


def _parsed(source):
    """The cell's syntax tree, or None for a cell that does not parse (nothing is read of it)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def bound_names(source):
    """The names a cell's code binds at its top level (assignments, functions, classes, imports, and names bound
    inside its loops, conditions and `with` blocks); none if it does not parse. The grader uses it to tell which
    answer cell a missing name belongs to (classroom.trusted.proxy)."""
    tree = _parsed(source)
    return set() if tree is None else set().union(*(bound_by(statement) for statement in tree.body))


def cell_name(source):
    """How to name a cell to a student: "that defines score_gradient" (its first public function), "that sets
    by_hand" (its first public name otherwise), or "" ."""
    tree = _parsed(source)
    if tree is None:
        return ""
    defined = [s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
               and not s.name.startswith("_")]
    if defined:
        return f"that defines {defined[0]}"
    names = [sorted(bound_by(s)) for s in tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))]
    public = [n for group in names for n in group if not n.startswith("_")]
    return f"that sets {public[0]}" if public else ""


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
        return used_by(statement)
    outside = [*statement.decorator_list, *getattr(statement, "bases", []), *getattr(statement, "keywords", [])]
    if not isinstance(statement, ast.ClassDef):
        outside += [*statement.args.defaults, *[d for d in statement.args.kw_defaults if d is not None]]
    names = set().union(*(used_by(node) for node in outside)) if outside else set()
    for table in tables:
        if table.get_name() == statement.name and table.get_lineno() in (statement.lineno, *(
                d.lineno for d in statement.decorator_list)):
            names |= _global_names(table)
    return names


def reached(tree, name, source):
    """The module-level statements that define `name` and, transitively, what they use, with the statements that
    change those objects; None if no statement binds `name`."""
    statements = list(tree.body)
    bound = [bound_by(s) for s in statements]
    changed = [_names_changed(s) for s in statements]
    if not any(name in b for b in bound):
        return None
    tables = symtable.symtable(source, "<cell>", "exec").get_children()
    wanted, chosen = {name}, set()
    while True:
        new = {i for i, (b, c) in enumerate(zip(bound, changed)) if (b | c) & wanted} - chosen
        if not new:
            return [statements[i] for i in sorted(chosen)]
        chosen |= new
        for i in new:
            wanted |= _uses(statements[i], tables)


def unresolved(source, name, available):
    """The names that running this cell on its own, with only `available` names defined beforehand, would leave
    undefined for `name`: those its module-level code uses before (or where) it binds `name`, and those `name` and
    what it reaches use, that the cell does not bind either. Empty if the cell does not parse or bind `name`."""
    tree = _parsed(source)
    chain = None if tree is None else reached(tree, name, source)
    if chain is None:
        return []
    tables = symtable.symtable(source, "<cell>", "exec").get_children()
    first = next(i for i, s in enumerate(tree.body) if name in bound_by(s))
    needed = set().union(*(_uses(s, tables) for s in [*tree.body[:first + 1], *chain]))
    bound = set().union(*(bound_by(s) for s in tree.body))
    return sorted(needed - bound - set(available))
