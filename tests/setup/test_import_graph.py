"""The house drawn from classroom's own imports has no circle (docs/architecture.md): each subpackage (grading/,
decisions/, sandbox/, ...) and each shared module at the top (course.py, intake.py, ...) is one room, every import
of one room's module from another's is an arrow, lazy imports inside functions included, and no arrow leads back to
where it came from. A circle means two rooms that cannot be read, tested or moved one without the other: what both
need belongs in a room below both (as the course's lock and the digest live in bookkeeping/)."""
import ast

from coursekit.repository import ROOT


def _module_name(path, top):
    parts = path.relative_to(top.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(tree, name, is_package, known):
    """The modules of `known` that the parsed module `name` imports."""
    here = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[:len(here.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)
    return {module for module in found if module in known}


def import_graph(top):
    """{room: {room it imports: [file, ...]}} of the package in the folder `top`: a room is a subpackage or a module
    directly in `top`, named by its path below `top` ("grading", "course")."""
    paths = {_module_name(path, top): path for path in top.rglob("*.py") if "__pycache__" not in path.parts}
    known = set(paths)

    def room(module):
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else None  # None: the package's own __init__, no room

    graph = {}
    for module, path in sorted(paths.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        source = room(module)
        for target in _imported(tree, module, path.name == "__init__.py", known):
            if source and room(target) and room(target) != source:
                graph.setdefault(source, {}).setdefault(room(target), set()).add(path.relative_to(top.parent)
                                                                                 .as_posix())
    return {source: {target: sorted(files) for target, files in targets.items()} for source, targets in graph.items()}


def circles(graph):
    """Every group of rooms that reach each other (strongly connected, Tarjan), each as a sorted list."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_relative_lazy_and_from_imports_and_finds_a_circle(tmp_path):
    top = tmp_path / "pkg"
    for folder in ("low", "mid", "high"):
        (top / folder).mkdir(parents=True)
        (top / folder / "__init__.py").write_text("")
    (top / "__init__.py").write_text("")
    (top / "shared.py").write_text("")
    (top / "low" / "a.py").write_text("from .. import shared\n")
    (top / "mid" / "b.py").write_text("from ..low import a\n")
    (top / "high" / "c.py").write_text("import pkg.mid.b\n\ndef later():\n    from pkg.mid import b\n")
    graph = import_graph(top)
    assert graph == {"low": {"shared": ["pkg/low/a.py"]}, "mid": {"low": ["pkg/mid/b.py"]},
                     "high": {"mid": ["pkg/high/c.py"]}}
    assert circles(graph) == []
    (top / "low" / "back.py").write_text("def f():\n    from ..high import c\n")
    assert circles(import_graph(top)) == [["high", "low", "mid"]]


def test_no_circle_between_the_modules_of_coursekit():
    """The course kit the tests and the benches share: each of its modules is a room."""
    graph = import_graph(ROOT / "coursekit")
    assert {"trial_course", "grading_runs", "parts"} <= set(graph)
    assert circles(graph) == [], {room: sorted(targets) for room, targets in graph.items()}


def test_no_circle_between_the_rooms_of_classroom():
    graph = import_graph(ROOT / "classroom")
    seen = set(graph) | {target for targets in graph.values() for target in targets}
    assert {"grading", "decisions", "sandbox", "trusted", "bookkeeping"} <= seen  # the walk sees the rooms
    found = circles(graph)
    arrows = {f"{a} -> {b}": files for group in found for a in group for b, files in graph.get(a, {}).items()
              if b in group}
    assert not found, f"these rooms of classroom/ import each other in a circle {found}; the arrows: {arrows}"
