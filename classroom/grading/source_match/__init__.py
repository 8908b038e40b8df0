"""Whether the gradebook grades an assignment with the checks of source/: what `make autograde` asks before it grades.

nbgrader grades with the grade cells the gradebook holds, which `make release` (nbgrader generate_assignment) copies
from source/. The two part when the gradebook is restored from a backup taken before a check was fixed, or when a
check is edited in source/ (or in source/<assignment>/grade_cells.py) and not released: grading would then silently
score everyone with checks the instructor no longer has. So the driver compares, notebook by notebook, every grade cell
of source/ with the gradebook's: its grade id, cell type and points, and, for a check (a grade cell that is not an
answer), its source with the hidden tests (nbgrader stores the cells of source/ after ClearSolutions, which leaves a
check as it is; an answer's source is its stub there, so only its points are compared). A notebook of the gradebook
that source/ lacks is not compared (a course may keep only the gradebook). Where they differ, grading refuses (exit 2)
and says which checks differ and that `make release` puts source/'s into the gradebook.
"""
import json
import os

from ... import cells


def _of_source(path):
    """{grade id: (cell type, points, source or None)} of the grade cells of a source/ notebook."""
    with open(path, encoding="utf-8") as handle:
        nb = json.load(handle)
    return {cells.grade_id(cell): (cell.get("cell_type"), float(cells.nbgrader(cell).get("points") or 0),
                                   None if cells.is_solution(cell) else cells.source(cell))
            for cell in nb.get("cells", []) if cells.is_grade(cell)}


def _of_gradebook(gb_notebook):
    """The same, of a notebook as the gradebook holds it."""
    return {cell.name: (cell.cell_type, float(cell.points or 0), None if cell.is_solution else cell.source)
            for cell in cells.source_cells_of(gb_notebook) if cell.points is not None and not cell.is_task}


def differences(coursedir, gb, assignment):
    """[(notebook, [grade id that differs])] between source/ and the gradebook, in the gradebook's notebook order."""
    folder = coursedir.format_path(coursedir.source_directory, ".", assignment)
    found = []
    for nb in sorted(gb.find_assignment(assignment).notebooks, key=lambda nb: (nb.name != assignment, nb.name)):
        path = os.path.join(folder, f"{nb.name}.ipynb")
        if not os.path.isfile(path):
            continue
        ours, theirs = _of_source(path), _of_gradebook(nb)
        names = list(ours) + [name for name in theirs if name not in ours]
        differ = [name for name in names if ours.get(name) != theirs.get(name)]
        if differ:
            found.append((nb.name, differ))
    return found


def refusal(coursedir, gb, assignment):
    """Why grading may not start because the gradebook's checks are not source/'s, or None."""
    found = differences(coursedir, gb, assignment)
    if not found:
        return None
    which = "; ".join(f"{name}.ipynb: {', '.join(ids)}" for name, ids in found)
    return (f"the gradebook's checks of {assignment} are not those of {coursedir.source_directory}/ ({which}): the "
            "gradebook was restored from a backup, or a check was changed and not released. Nothing was graded. Run "
            "`make release` (it puts the checks of source/ into the gradebook), then `make autograde`, which grades "
            "again whoever was graded with other checks and names every score that changes")
