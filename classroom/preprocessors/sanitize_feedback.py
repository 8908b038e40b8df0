"""SanitizeFeedback (generate_feedback): each grade cell shows its visible part, its points and its verdict (what the
check printed, and the failure's kind and message), never the hidden tests' source or a traceback through it; and the
whole notebook is made inert first (InertContent), so a notebook graded before that step was added is safe too.

It also names each graded cell for the student, in the cell's metadata `classroom` = {"label", "anchor"} that the
feedback template (classroom/feedback/templates/feedback) prints in the summary and in the cell's heading: a check by
the docstring that opens it (what it checks), an answer cell as "Your answer"; never by its grade id. From the
notebook's result (classroom.grading.result, beside it in autograded/) it adds each graded cell's verdict in a few words
(`classroom.verdict`: "passed", or what the failure's kind says) and puts the grader's notes for the student
(a renamed notebook taken, files left out) in resources["classroom"]["notes"], which the summary lists first; and
the stamp of the grade the page shows (resources["classroom"]["stamp"], classroom.grading.record.stamp), which the
template writes into the page's head so that release_feedback can tell a page of the current grade from a stale one.
"""
from nbformat import from_dict
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import List

from .. import cells
from ..feedback.inert_outputs import as_text
from ..feedback.page import points
from ..grading import design, record, result
from ..trusted import failures
from ..trusted.verdict import MAX_MESSAGE, MAX_PRINTED
from .inert_content import InertContent

HIDDEN_RAN = "This check's hidden part ran when your work was graded"
PASSED = "passed"
BY_HAND = "graded by hand"  # an answer with points (the written derivation): the score is the teacher's
SAID = {  # a failure's kind as the summary says it to the student, beside the check's name
    failures.CHECK_FAILED: "not met", failures.RAISED: "your code raised an error",
    failures.WRONG_TYPE: "your code returned the wrong type", failures.TIMED_OUT: "timed out",
    failures.CRASHED: "your code crashed", failures.OUT_OF_MEMORY: "ran out of memory",
    failures.OUTPUT_CUT: "output cut", failures.NOT_RUN: "not run", failures.NOT_GRADED: "not graded",
    failures.ASSIGNMENT_FAILED: "a cell of the assignment's own failed"}


def verdict(check):
    """What the summary says of one graded cell's result (a result.CheckOutcome), or "" when it says nothing."""
    if check.kind is not None:
        return SAID[check.kind]
    if check.answer:
        return BY_HAND
    return PASSED if check.passed else ""


def label(cell, number, answers=None):
    """What the student sees as the name of a graded cell (Markdown): a check's description, else its role; the
    `number` of the cell among the graded ones, and of the answer cell among `answers` of them, if several."""
    meta = cells.nbgrader(cell)
    if cells.is_check(cell):
        return cells.docstring(cells.source(cell)) or f"Check {number}"
    if meta.get("solution"):
        return ("Your answer" if cell.get("cell_type") == "code" else "Your written answer") + (
            f" {answers}" if answers else "")
    return "Task" if meta.get("task") else f"Graded part {number}"


def _stamp(resources):
    """The grade this page shows (classroom.grading.record.stamp), which the template writes into the page's head
    for release_feedback to compare (classroom.plugins.release_feedback); None outside a course's gradebook."""
    from nbgrader.api import Gradebook

    found = resources.get("nbgrader") or {}
    folder = (resources.get("metadata") or {}).get("path")
    if not (found.get("db_url") and found.get("student") and found.get("notebook") and folder):
        return None
    with Gradebook(found["db_url"]) as gb:
        return record.stamp(gb, found["assignment"], found["student"], found["notebook"], folder)


class SanitizeFeedback(NbGraderPreprocessor):
    """Feedback shows each grade cell's visible part, its points and its verdict; never hidden code; nothing that
    runs in a browser; no grade id."""

    # nbgrader's preprocessors redeclare NbConvertBase's display_data_priority without config=True, and the feedback
    # exporter (an HTMLExporter) configures it: declared configurable here, as nbgrader's GetGrades does, so that
    # traitlets does not warn "Config option `display_data_priority` not recognized" on every generate_feedback.
    display_data_priority = List(NbGraderPreprocessor.display_data_priority.default_value).tag(config=True)

    _graded = _answers = 0  # graded and answer cells so far: "Check N" for a check without a docstring, and so on
    _numbered = False  # whether answer cells are numbered (there are several)
    _verdicts = {}  # {grade_id: the verdict's words} from the notebook's result ({} without one)
    _outputs = None  # how a check's outputs are shown: shown_as_decided (trusted design) or shown_as_run

    def preprocess(self, nb, resources):
        nb, resources = InertContent(parent=self).preprocess(nb, resources)
        notebook = (resources.get("nbgrader") or {}).get("notebook")
        found = result.read((resources.get("metadata") or {}).get("path") or "", notebook) if notebook else None
        self._verdicts = {check.grade_id: verdict(check) for check in found.checks} if found else {}
        resources["classroom"] = {"notes": list(found.notes) if found else [], "stamp": _stamp(resources)}
        self._graded = self._answers = 0
        self._numbered = sum(cells.is_solution(cell) for cell in nb.cells) > 1
        known = (resources.get("nbgrader") or {}).get("db_url") and (resources.get("nbgrader") or {}).get("assignment")
        self._outputs = shown_as_run if known and design.of_resources(resources, self).name == design.NBGRADER \
            else shown_as_decided
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        meta = cells.nbgrader(cell)
        if meta.get("grade") or meta.get("solution") or meta.get("task"):
            self._graded += 1
            self._answers += bool(meta.get("solution"))
            name = label(cell, self._graded, self._answers if self._numbered else None)
            cell.metadata["classroom"] = {"label": name, "anchor": f"graded-{index + 1}",
                                          "verdict": self._verdicts.get(cells.grade_id(cell), "")}
        if not cells.is_check(cell):
            return cell, resources
        source = cells.source(cell)
        if any(marker in source for marker in cells.HIDDEN_MARKERS):
            shown = cells.visible(source)
            if shown is None:
                shown = f'"""{cells.docstring(source)}"""\n'
            worth = f" ({points(meta['points'])})" if isinstance(meta.get("points"), (int, float)) else ""
            cell.source = shown.rstrip() + f"\n# {HIDDEN_RAN}{worth}."
        shown = self._outputs or shown_as_decided
        cell.outputs = [from_dict(out) for out in shown(cell.get("outputs", []), source)]
        return cell, resources


def shown_as_decided(outputs, source):
    """A check's outputs on the page, trusted design: the verdict (what the check printed, and its failure's kind and
    message). The grader wrote them; a traceback through the check is never kept."""
    kept = []
    for out in outputs:
        if out.get("output_type") == "error":
            kind = out.get("ename") if out.get("ename") in failures.KINDS else failures.CHECK_FAILED
            kept.append(failures.error_output(kind, str(out.get("evalue", ""))[:MAX_MESSAGE]))
        elif out.get("output_type") == "stream" and out.get("name") == "stdout":
            kept.append({"output_type": "stream", "name": "stdout", "text": str(out.get("text", ""))[:MAX_PRINTED]})
    return kept


def without_hidden(text, source):
    """`text` without any line that shows a line of the check's hidden tests (a warning that quotes its source)."""
    hidden = {line.strip() for line in cells.hidden(source).splitlines() if len(line.strip()) >= 8}
    return "".join(line for line in as_text(text).splitlines(keepends=True) if not any(h in line for h in hidden))


def shown_as_run(outputs, source):
    """A check's outputs on the page, nbgrader's design: what the cell showed when it ran, as nbgrader's page shows it
    (printed text, standard error, its result, its error by name and message), but never a traceback, whose frames
    would show the hidden tests' lines."""
    kept = []
    for out in outputs:
        kind = out.get("output_type")
        if kind == "error":
            ename, evalue = str(out.get("ename"))[:200], without_hidden(out.get("evalue", ""), source)[:MAX_MESSAGE]
            kept.append({"output_type": "error", "ename": ename, "evalue": evalue, "traceback": [f"{ename}: {evalue}"]})
        elif kind == "stream":
            name = "stderr" if out.get("name") == "stderr" else "stdout"
            kept.append({"output_type": "stream", "name": name,
                         "text": without_hidden(out.get("text", ""), source)[:MAX_PRINTED]})
        elif kind in ("execute_result", "display_data") and "text/plain" in (out.get("data") or {}):
            text = without_hidden(out["data"]["text/plain"], source)[:MAX_PRINTED]
            shown = {"output_type": kind, "data": {"text/plain": text}, "metadata": {}}
            kept.append(dict(shown, execution_count=None) if kind == "execute_result" else shown)
    return kept
