"""RepairGradeCells: every grade cell the gradebook knows is present once, with its original source, type and
metadata, whatever the student did to it (deleted, blanked, edited, re-labelled, retyped); nbgrader metadata nobody
issued is dropped (silently where it gives the cell no role: old nbgrader versions wrote it on every cell). Runs in autograde's sanitize stage, before nbgrader's OverwriteCells.

What it did is kept in resources["classroom"]["repairs"] ({"missing": [grade id], "changed": [grade id],
"stripped": count, "earlier": [grade id]}),
which classroom.grading.staging writes into the notebook's result (classroom.grading.result).
A grade cell exactly as some release of the assignment issued it (nbgrader's checksum of it matches) is no change of
the student's, even when the instructor changed the assignment since: it is restored too, and listed as "earlier" (a
quiz variant handed out before the quiz was replaced, which the run's summary and the report name).
"""
from nbformat import from_dict
from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.utils import compute_checksum

from .. import cells


def gradebook_cells(resources):
    """The gradebook's cells of the notebook being graded: [classroom.cells.SourceCell]."""
    info = resources["nbgrader"]
    with Gradebook(info["db_url"]) as gb:
        return cells.source_cells(gb, info["notebook"], info["assignment"])


def as_released(cell):
    """True if nbgrader's checksum of the cell matches the one a release wrote into it."""
    try:
        return cells.nbgrader(cell).get("checksum") == compute_checksum(from_dict(dict(cell,
                                                                                       source=cells.source(cell))))
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def visible(original):
    """What a release shows of a gradebook cell's source: all of it but the hidden tests, stripped."""
    return cells.HIDDEN.sub("", original.source or "").strip()


def changed(cell, original):
    """True if the student changed a grade cell or a task: its type, its grade or task flag or points, or the visible
    part of a locked cell's source (a release never shows the hidden tests)."""
    meta = cells.nbgrader(cell)
    try:
        points = float(meta.get("points"))
    except (TypeError, ValueError):
        points = None
    issued = original.metadata()
    return (cell.get("cell_type") != original.cell_type or bool(meta.get("grade")) != issued["grade"]
            or bool(meta.get("task")) != issued["task"] or points != float(original.points)
            or (original.locked and cells.source(cell).strip() != visible(original))) and not as_released(cell)


class RepairGradeCells(NbGraderPreprocessor):
    """Restore every known grade cell (source, type, metadata) and drop nbgrader metadata nobody issued."""

    def preprocess(self, nb, resources):
        known = {cell.name: cell for cell in gradebook_cells(resources)}
        order = list(known)
        present, repairs = {}, {"missing": [], "changed": [], "stripped": 0, "earlier": []}
        for index, cell in enumerate(nb.cells):
            if "nbgrader" not in cell.metadata:
                continue
            name = cells.grade_id(cell)
            if name not in known and not cells.has_role(cell):  # what old nbgrader versions left on every cell
                del cell.metadata["nbgrader"]
                continue
            if name not in known or name in present:
                self.log.warning("Dropping nbgrader metadata of a cell with unknown or repeated id %r", name)
                del cell.metadata["nbgrader"]
                repairs["stripped"] += 1
                continue
            present[name] = index
            if known[name].points is not None and changed(cell, known[name]):
                repairs["changed"].append(name)
            elif known[name].locked and cells.source(cell).strip() != visible(known[name]):
                repairs["earlier"].append(name)  # as an earlier release issued it: an old quiz variant, say
            self._restore(cell, known[name])
        for name in order:  # put back the grade cells that are missing, after their nearest earlier neighbour
            if name in present or known[name].points is None:
                continue
            self.log.warning("Grade cell %r is missing from the submission: putting it back", name)
            repairs["missing"].append(name)
            earlier = [present[n] for n in order[:order.index(name)] if n in present]
            position = max(earlier) + 1 if earlier else len(nb.cells)
            nb.cells.insert(position, known[name].new_cell())
            present = {n: (i + 1 if i >= position else i) for n, i in present.items()}
            present[name] = position
        resources.setdefault("classroom", {})["repairs"] = repairs
        return nb, resources

    @staticmethod
    def _restore(cell, original):
        if cell.cell_type != original.cell_type:
            cell.cell_type = original.cell_type
            if original.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
            else:
                cell.pop("outputs", None)
                cell.pop("execution_count", None)
        if original.locked:
            cell.source = original.source
        checksum = cells.nbgrader(cell).get("checksum")
        cell.metadata["nbgrader"] = from_dict(original.metadata())
        if checksum is not None:
            cell.metadata["nbgrader"]["checksum"] = checksum
