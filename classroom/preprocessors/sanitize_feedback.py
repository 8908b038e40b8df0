"""SanitizeFeedback (generate_feedback): each grade cell shows its visible part, its points and its verdict (what the
check printed, and the failure's kind and message), never the hidden tests' source or a traceback through it; and the
whole notebook is made inert first (InertContent), so a notebook graded before that step was added is safe too."""
from nbformat import from_dict
from nbgrader.preprocessors import NbGraderPreprocessor

from .. import cells, failures
from ..verdict import MAX_MESSAGE, MAX_PRINTED
from .inert_content import InertContent


class SanitizeFeedback(NbGraderPreprocessor):
    """Feedback shows each grade cell's visible part, its points and its verdict; never hidden code; nothing that
    runs in a browser."""

    def preprocess(self, nb, resources):
        nb, resources = InertContent(parent=self).preprocess(nb, resources)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        if not cells.is_check(cell):
            return cell, resources
        source = cells.source(cell)
        if any(marker in source for marker in cells.HIDDEN_MARKERS):
            shown = cells.visible(source)
            if shown is None:
                shown = f'"""{cells.docstring(source)}"""\n'
            meta = cells.nbgrader(cell)
            cell.source = (shown.rstrip() + f"\n# Hidden check '{meta.get('grade_id')}' ({meta.get('points'):g} "
                           "points) ran here when your work was graded.")
        kept = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                kind = out.get("ename") if out.get("ename") in failures.KINDS else failures.CHECK_FAILED
                kept.append(failures.error_output(kind, str(out.get("evalue", ""))[:MAX_MESSAGE]))
            elif out.get("output_type") == "stream" and out.get("name") == "stdout":
                kept.append({"output_type": "stream", "name": "stdout", "text": str(out.get("text", ""))[:MAX_PRINTED]})
        cell.outputs = [from_dict(out) for out in kept]
        return cell, resources
