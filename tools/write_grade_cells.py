"""Write the grade cells of an nbgrader source notebook from the Python file that holds their code.

    .venv/bin/python -m tools.write_grade_cells   # rewrites the grade cells of
                                                  # source/score_gradient/score_gradient.ipynb
    make release                                  # does the same, then regenerates release/; commit all three

The checks, hidden tests included, live in source/score_gradient/grade_cells.py, where a linter, pytest and a diff
reach them: one cell per `# %% <grade_id> (<points> points)` line, in notebook order (see that file's docstring).
This tool copies each one's code and points into the notebook's grade cell with that grade_id and leaves every other
cell alone; it refuses when the file and the notebook disagree on which checks exist or in which order.
tests/assignment/test_assignment_grade_cells.py fails while the notebook is not what this tool would write.
"""
import argparse
import re
import sys
from pathlib import Path

import nbformat

from classroom import cells as nbgrader_cells

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "source" / "score_gradient" / "score_gradient.ipynb"
CELL = re.compile(r"^# %% (?P<grade_id>\w+) \((?P<points>\d+(?:\.\d+)?) points?\)[ \t]*$", re.M)


def checks_file(notebook_path):
    """Where the checks of a source notebook live: grade_cells.py beside it."""
    return Path(notebook_path).with_name("grade_cells.py")


def read_checks(path):
    """[(grade_id, points, code)] in the file's order."""
    text = Path(path).read_text(encoding="utf-8")
    marks = list(CELL.finditer(text))
    if not marks:
        raise ValueError(f"{path} has no line `# %% <grade_id> (<points> points)`")
    checks = []
    for mark, following in zip(marks, marks[1:] + [None]):
        code = text[mark.end():following.start() if following else len(text)].strip("\n")
        points = float(mark["points"])
        checks.append((mark["grade_id"], int(points) if points.is_integer() else points, code))
    return checks


def build(nb, checks):
    """`nb` (an nbformat notebook, changed in place and returned) with each grade cell's source and points taken
    from `checks`, as read_checks returns them."""
    cells = [cell for cell in nb.cells if nbgrader_cells.is_check(cell)]
    in_notebook = [nbgrader_cells.grade_id(cell) for cell in cells]
    in_file = [grade_id for grade_id, _, _ in checks]
    if in_notebook != in_file:
        raise ValueError(f"the notebook's grade cells {in_notebook} are not the file's checks {in_file} in the same "
                         "order: add, remove or move the grade cell in the notebook (keep its nbgrader metadata)")
    for cell, (_, points, code) in zip(cells, checks):
        cell.source = code
        cell.metadata["nbgrader"]["points"] = points
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, nargs="?", default=NOTEBOOK)
    args = parser.parse_args(argv)
    nb = nbformat.read(args.notebook, as_version=nbformat.NO_CONVERT)
    nbformat.write(build(nb, read_checks(checks_file(args.notebook))), args.notebook)
    print(f"wrote the grade cells of {args.notebook}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
