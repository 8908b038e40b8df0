"""One structured result per graded notebook, written once when it is staged (`of_staged`) and read by every consumer.

As Otter-Grader's GradingResults does for a submission, a Result says what the grading of one notebook decided, as
data: per check its grade id, points, score and failure kind (classroom.trusted.failures) with the sentence the
student reads; the grade cells RepairGradeCells put back, restored or stripped; the notes the grader added for the
student; the file the notebook was handed in as; and whether it was graded, left out (not handed in, not a readable
notebook, or misnamed: files that may be it, its `suspects`, were handed in under names the grader cannot take) or
failed in the grader (the `why` says it); and the grading by hand that a re-submission of changed work cleared
(`cleared`, written when the grading is committed, classroom.grading.commit), and the notebook's score before and
after this grading when it changed (`rescored`, written then too). The class report (classroom.report), the
feedback page's summary (classroom.preprocessors.sanitize_feedback) and the LMS grades (classroom.lms.grades) read it,
and none of them reads a decision back out of a notebook's outputs.

The file is `.classroom-result-<notebook>.json` in the autograded folder, beside the grading record
(classroom.grading.record), and listed in CourseDirectory.ignore (nbgrader_config.py) like it. Its `format` is
FORMAT: a reader given another format, or a damaged file, gets None, the grading record then says the notebook's
grading does not hold, and the next `make autograde` grades it again. Example:

    {"format": 1, "student": "alice", "assignment": "score_gradient", "notebook": "score_gradient",
     "status": "graded", "why": null, "handed_as": "score_gradient (1).ipynb",
     "notes": ["You handed in this notebook as `score_gradient (1).ipynb`; it was graded as ..."],
     "repairs": {"missing": ["no_python_loop"], "changed": [], "stripped": 0},
     "checks": [{"grade_id": "values_match_reference", "points": 3.0, "score": 0.0, "answer": false,
                 "kind": "TimedOut", "message": "score_gradient did not return within 3 s ..."}, ...],
     "cells": [{"cell": "cell 12", "kind": "NotRun", "message": "The grader did not run this cell: ..."}]}
"""
import json
import os
from dataclasses import asdict, dataclass, field, replace

import nbformat

from .. import atomic, cells as cell_meta
from ..intake import read_regular
from ..trusted import failures
from .notebook_files import shown

FORMAT = 1
GRADED, NOT_HANDED_IN, UNREADABLE, GRADER_FAILED = "graded", "not_handed_in", "unreadable", "grader_failed"
MISNAMED = "misnamed"
STATUSES = (GRADED, NOT_HANDED_IN, UNREADABLE, GRADER_FAILED, MISNAMED)
BY_HAND = (UNREADABLE, GRADER_FAILED, MISNAMED)  # scored 0 for now, flagged for grading by hand


@dataclass(frozen=True)
class CheckOutcome:
    """One grade cell: its points and score as graded, and the failure's kind and message (None and "" if none)."""
    grade_id: str
    points: float
    score: float
    kind: str = None
    message: str = ""
    answer: bool = False  # an answer cell with points (graded by hand, as the written derivation), not a check

    @property
    def passed(self):
        return self.kind is None and self.score >= self.points


@dataclass(frozen=True)
class CellFailure:
    """A failure the grader recorded in a cell that is not graded (a cell named `cell N` when it has no grade id)."""
    cell: str
    kind: str
    message: str


@dataclass(frozen=True)
class Repairs:
    """What RepairGradeCells did: grade cells put back or restored (grade ids), and cells whose nbgrader metadata
    nobody issued (an unknown or repeated grade id) made plain cells."""
    missing: tuple = ()
    changed: tuple = ()
    stripped: int = 0
    earlier: tuple = ()  # grade cells as an earlier release issued them (another version of the assignment)

    def __bool__(self):
        return bool(self.missing or self.changed or self.stripped)


@dataclass(frozen=True)
class Result:
    student: str
    assignment: str
    notebook: str
    status: str
    why: str = None        # why it was left out, or why the grader failed on it
    handed_as: str = None  # the file taken for the notebook, None if none
    notes: tuple = ()      # the grader's notes for the student (Markdown; file names made plain)
    repairs: Repairs = field(default_factory=Repairs)
    checks: tuple = ()     # (CheckOutcome, ...) in notebook order
    cells: tuple = ()      # (CellFailure, ...)
    suspects: tuple = ()   # MISNAMED: the files that may be this notebook (as handed in)
    cleared: tuple = ()    # grading by hand cleared because the work changed: ("by_hand_row: manual score 2", ...)
    rescored: tuple = None  # (score before, score after) when this grading changed the notebook's score

    @property
    def handed_in(self):
        return self.status != NOT_HANDED_IN

    def to_dict(self):
        return {"format": FORMAT, **asdict(self)}

    @classmethod
    def from_dict(cls, data):
        """The Result a to_dict() made; ValueError (or TypeError, KeyError) for anything else."""
        if data.get("format") != FORMAT or data.get("status") not in STATUSES:
            raise ValueError(f"not a grading result of format {FORMAT}")
        fields = {key: data[key] for key in ("student", "assignment", "notebook", "status", "why", "handed_as")}
        return cls(**fields, notes=tuple(str(note) for note in data["notes"]),
                   repairs=Repairs(tuple(data["repairs"]["missing"]), tuple(data["repairs"]["changed"]),
                                   int(data["repairs"]["stripped"]), tuple(data["repairs"].get("earlier", ()))),
                   checks=tuple(CheckOutcome(**check) for check in data["checks"]),
                   cells=tuple(CellFailure(**failure) for failure in data["cells"]),
                   suspects=tuple(str(name) for name in data.get("suspects", ())),
                   cleared=tuple(str(what) for what in data.get("cleared", ())),
                   rescored=tuple(float(x) for x in data["rescored"]) if data.get("rescored") else None)


def file_name(notebook):
    """The result's file name in the autograded folder."""
    return f".classroom-result-{notebook}.json"


def write(folder, result):
    """Write `result` into the autograded `folder` (whole, then renamed into place)."""
    with atomic.replacing(os.path.join(folder, file_name(result.notebook)), encoding="utf-8") as file:
        json.dump(result.to_dict(), file, indent=1, sort_keys=True)


def read(folder, notebook):
    """The Result of `notebook` in an autograded folder; None if there is none, or it is damaged or of another
    format (the grading record then takes the notebook's grading for out of date)."""
    try:
        return Result.from_dict(json.loads(read_regular(os.path.join(folder, file_name(notebook))) or b""))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


STOPPED = (failures.TIMED_OUT, failures.NOT_RUN, failures.CRASHED, failures.NOT_GRADED)  # a grade cell's own end


def first_error(cell):
    """The message of the first error output of a code cell ("" if none): what the student's code or a check raised,
    as text (never read as a kind)."""
    for output in cell.get("outputs") or ():
        if isinstance(output, dict) and output.get("output_type") == "error":
            return str(output.get("evalue", ""))
    return None


def outcomes(nb, scores, recorded=None):
    """((CheckOutcome, ...), (CellFailure, ...)) of an autograded notebook (nbformat JSON) whose grade cells the
    gradebook scored `scores` ({grade_id: (points, score)}). Every failure's kind comes from what the grader recorded
    while it graded (`recorded`: the pipeline's resources["classroom"]: "verdicts" {grade_id: {"kind", "message"}}
    of TrustedGrades, "marks" [{"cell", "grade_id", "kind", "message"}] of the kernel's run), never from an output,
    which the student's code could have written: a check otherwise failed by an error in its cell is CHECK_FAILED,
    an answer cell that raised is RAISED. A mark names its cell by grade id, else by its place when it was made."""
    recorded = recorded or {}
    verdicts = recorded.get("verdicts") or {}
    marks = list(recorded.get("marks") or ())
    checks = []
    for cell in nb.get("cells", []):
        grade_id = cell_meta.grade_id(cell)
        if grade_id not in scores:
            continue
        answer = cell_meta.is_solution(cell)
        ended = next((m for m in marks if m["grade_id"] == grade_id and m["kind"] in STOPPED), None)
        if cell.get("cell_type") != "code":  # a written answer or a task, graded by hand: nothing ran
            kind, message = None, ""
        elif grade_id in verdicts:
            kind, message = verdicts[grade_id]["kind"], verdicts[grade_id]["message"]
        elif ended is not None:
            kind, message = ended["kind"], ended["message"]
            marks.remove(ended)
        elif first_error(cell) is not None:
            kind, message = failures.RAISED if answer else failures.CHECK_FAILED, first_error(cell)
        else:
            kind, message = None, ""
        checks.append(CheckOutcome(grade_id, *scores[grade_id], kind, message, answer))
    seen = {check.grade_id for check in checks}
    checks += [CheckOutcome(grade_id, *scored) for grade_id, scored in scores.items() if grade_id not in seen]
    others = [CellFailure(m["grade_id"] or f"cell {m['cell'] + 1}", m["kind"], m["message"]) for m in marks]
    return tuple(checks), tuple(others)


def of_staged(job, staged, gb, name, recorded):
    """The Result of one notebook of `job` graded now, from its staged autograded notebook (`staged`, the
    classroom.grading.staging.Staged of `job`), what the pipeline recorded on it (`recorded`, see `outcomes`) and
    the scores the staged gradebook `gb` holds for it."""
    repairs = recorded.get("repairs", {})
    filename, note, suspects = job.handed[name]
    notes = [note] if note and name not in staged.left_out else []
    notes += [staged.mended[name]] if staged.mended.get(name) and name not in staged.left_out else []
    if staged.dropped and name == job.notebooks[0]:
        notes.append("These files of your submission were left out: " + "; ".join(
            f"`{shown(file)}` ({why})" for file, why in staged.dropped[:10]) + ".")
    if name in staged.incomplete:
        status, why = GRADER_FAILED, staged.incomplete[name]
    elif name in staged.left_out:
        status = UNREADABLE if filename else MISNAMED if suspects else NOT_HANDED_IN
        why = staged.left_out[name]
    else:
        status, why = GRADED, None
    scores = {grade.name: (float(grade.max_score), float(grade.score))
              for grade in gb.find_submission_notebook(name, job.assignment, job.student).grades}
    checks, cells_failed = outcomes(nbformat.read(os.path.join(staged.folder, f"{name}.ipynb"), as_version=4), scores,
                                    recorded)
    if status != GRADED:  # nothing of it ran: every grade cell is not graded, for the reason given
        checks = tuple(replace(check, kind=failures.NOT_GRADED, message=why) for check in checks)
    return Result(job.student, job.assignment, name, status, why, filename, tuple(notes),
                  Repairs(tuple(repairs.get("missing", ())), tuple(repairs.get("changed", ())),
                          repairs.get("stripped", 0), tuple(repairs.get("earlier", ()))), checks, cells_failed,
                  suspects=tuple(shown(f) for f in suspects) if status == MISNAMED else ())
