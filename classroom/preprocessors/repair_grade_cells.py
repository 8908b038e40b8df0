"""RepairGradeCells: every grade cell the gradebook knows is present once, with its original source, type and
metadata, whatever the student did to it (deleted, blanked, edited, re-labelled, retyped); nbgrader metadata nobody
issued is dropped. Runs in autograde's sanitize stage, before nbgrader's OverwriteCells."""
from nbformat import from_dict
from nbgrader.api import Gradebook
from nbgrader.preprocessors import NbGraderPreprocessor

from .. import cells


def gradebook_cells(resources):
    """The gradebook's cells of the notebook being graded: [classroom.cells.SourceCell]."""
    info = resources["nbgrader"]
    with Gradebook(info["db_url"]) as gb:
        return cells.source_cells(gb, info["notebook"], info["assignment"])


class RepairGradeCells(NbGraderPreprocessor):
    """Restore every known grade cell (source, type, metadata) and drop nbgrader metadata nobody issued."""

    def preprocess(self, nb, resources):
        known = {cell.name: cell for cell in gradebook_cells(resources)}
        order = list(known)
        present = {}
        for index, cell in enumerate(nb.cells):
            if "nbgrader" not in cell.metadata:
                continue
            name = cells.grade_id(cell)
            if name not in known or name in present:
                self.log.warning("Dropping nbgrader metadata of a cell with unknown or repeated id %r", name)
                del cell.metadata["nbgrader"]
                continue
            present[name] = index
            self._restore(cell, known[name])
        for name in order:  # put back the grade cells that are missing, after their nearest earlier neighbour
            if name in present or known[name].points is None:
                continue
            self.log.warning("Grade cell %r is missing from the submission: putting it back", name)
            earlier = [present[n] for n in order[:order.index(name)] if n in present]
            position = max(earlier) + 1 if earlier else len(nb.cells)
            nb.cells.insert(position, known[name].new_cell())
            present = {n: (i + 1 if i >= position else i) for n, i in present.items()}
            present[name] = position
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
