"""nbgrader's cells, read and written in one place: their metadata, their hidden tests, their docstrings; and the
metadata every notebook of the course carries.

A notebook cell here is an nbformat cell (a dict or a NotebookNode); `SourceCell` is what the gradebook keeps of a
cell of the source notebook, which grading trusts over whatever the submission holds.
"""
import ast
import re
from dataclasses import dataclass

HIDDEN_MARKERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
HIDDEN = re.compile(r"^[ \t]*### {}.*?^[ \t]*### {}[ \t]*\n?".format(*HIDDEN_MARKERS), re.S | re.M)
SCHEMA_VERSION = 3
# What a notebook of the course carries at its top, and all it may: the kernel to run it with, and its language.
NOTEBOOK_METADATA = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                     "language_info": {"name": "python", "pygments_lexer": "ipython3"}}


def nbgrader(cell):
    """The cell's nbgrader metadata ({} if it has none or something that is not a dict)."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None  # a submission's JSON can be anything
    meta = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return meta if isinstance(meta, dict) else {}


def grade_id(cell):
    return nbgrader(cell).get("grade_id")


def is_grade(cell):
    return bool(nbgrader(cell).get("grade"))


def is_solution(cell):
    return bool(nbgrader(cell).get("solution"))


def is_locked(cell):
    return bool(nbgrader(cell).get("locked"))


def has_role(cell):
    """Whether the cell's nbgrader metadata makes it anything (graded, an answer, locked, a task): old nbgrader
    versions wrote metadata with none on every cell."""
    meta = nbgrader(cell)
    return any(meta.get(flag) for flag in ("grade", "solution", "locked", "task"))


def is_answer_code(cell):
    """A code cell the student writes in: the grader runs these, in order, before the checks (a markdown answer,
    such as a derivation, is graded by hand)."""
    return cell.get("cell_type") == "code" and is_solution(cell)


def is_check(cell):
    """A code cell of tests: graded, and not the student's answer."""
    return cell.get("cell_type") == "code" and is_grade(cell) and not is_solution(cell)


def has_hidden_tests(text):
    """Whether `text` (a cell's source) holds a marker of hidden tests."""
    return any(marker in text for marker in HIDDEN_MARKERS)


def source(cell):
    """The cell's source as one string (nbformat files may store it as a list of lines)."""
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def visible(text):
    """`text` without its hidden tests; None if the markers are unbalanced (then nothing of it can be shown)."""
    shown = HIDDEN.sub("", text)
    return None if has_hidden_tests(shown) else shown


def hidden(text):
    """The hidden tests of `text` (a cell's source), markers included ("" if none)."""
    return "".join(match.group(0) for match in HIDDEN.finditer(text))


def docstring(text):
    """The docstring opening a cell's source, on one line ("" if none): only that string literal, never any other
    text of the cell. A cell that does not parse gives its first line if that line is a string literal."""
    try:
        value = ast.get_docstring(ast.parse(text or ""), clean=True)
        if value:
            return " ".join(value.split())
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        lines = (text or "").lstrip().splitlines()
        try:
            value = ast.literal_eval(lines[0].strip()) if lines else None
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, str):
            return " ".join(value.split())
    return ""


@dataclass(frozen=True)
class SourceCell:
    """A cell of the source notebook as the gradebook records it; `points` is None for a cell that is not graded
    (a task, graded by hand, has points but is not a grade cell)."""

    name: str
    cell_type: str
    source: str
    locked: bool
    points: float = None
    is_solution: bool = False
    is_task: bool = False

    @property
    def is_check(self):
        return is_check({"cell_type": self.cell_type, "metadata": {"nbgrader": self.metadata()}})

    def metadata(self):
        """The nbgrader metadata nbgrader itself gives this cell."""
        meta = {"grade": self.points is not None and not self.is_task, "grade_id": self.name, "locked": self.locked,
                "schema_version": SCHEMA_VERSION, "solution": self.is_solution, "task": self.is_task}
        if self.points is not None:
            meta["points"] = self.points
        return meta

    def new_cell(self, outputs=()):
        """A fresh notebook cell (a NotebookNode) with this cell's type, source and metadata."""
        from nbformat import from_dict

        cell = {"cell_type": self.cell_type, "metadata": {"nbgrader": self.metadata()}, "source": self.source}
        if self.cell_type == "code":
            cell.update(outputs=list(outputs), execution_count=None)
        return from_dict(cell)


def source_cells(gradebook, notebook_id, assignment_id):
    """The gradebook's cells of one notebook of an assignment, in notebook order: [SourceCell]."""
    return source_cells_of(gradebook.find_notebook(notebook_id, assignment_id))


def source_cells_of(notebook):
    """The cells of a gradebook notebook (nbgrader.api.Notebook), in notebook order: [SourceCell]."""
    points = {cell.name: cell.max_score for cell in notebook.grade_cells}
    tasks = {cell.name: cell.max_score for cell in notebook.task_cells}
    solutions = {cell.name for cell in notebook.solution_cells}
    return [SourceCell(cell.name, cell.cell_type, cell.source or "", bool(cell.locked),
                       points.get(cell.name, tasks.get(cell.name)), cell.name in solutions, cell.name in tasks)
            for cell in notebook.source_cells]
