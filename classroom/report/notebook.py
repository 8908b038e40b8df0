"""Notebook files read as plain JSON for the report: cells, their nbgrader metadata, docstrings, error outputs.

Nothing here runs or imports a notebook. Of a grade cell's code only its opening docstring is ever read, so the
hidden tests' code cannot reach the report.
"""
import json
from pathlib import Path

from ..cells import grade_id, is_grade, is_solution

MESSAGE_CHARS = 600  # a grader-written message longer than this is cut in the report


def read(path):
    """The notebook at `path` as a dict, or None if it is missing or not JSON."""
    try:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return nb if isinstance(nb, dict) else None


def cells(nb):
    found = (nb or {}).get("cells", [])
    return [cell for cell in found if isinstance(cell, dict)] if isinstance(found, list) else []


def is_check(cell):
    """A grade cell that is not an answer: its output is the verdict the grader wrote."""
    return is_grade(cell) and not is_solution(cell)


def message(output):
    """The student-facing sentence of an error output, on one line."""
    return " ".join(str(output.get("evalue", "")).split())[:MESSAGE_CHARS]


def error_outputs(nb):
    """[(cell name, cell, output)] for every error output of a code cell; a cell is named by its grade id, or
    `cell N` (counting from 1) when it has none."""
    found = []
    for index, cell in enumerate(cells(nb)):
        if cell.get("cell_type") != "code" or not isinstance(cell.get("outputs"), list):
            continue
        name = grade_id(cell) or f"cell {index + 1}"
        found += [(name, cell, out) for out in cell["outputs"]
                  if isinstance(out, dict) and out.get("output_type") == "error"]
    return found


def check_messages(nb):
    """{grade_id: the message of the first error output} of every check of an autograded notebook that failed."""
    verdicts = {}
    for name, cell, output in error_outputs(nb):
        if is_check(cell):
            verdicts.setdefault(name, message(output) or str(output.get("ename", "error")))
    return verdicts
