"""The report's CSV, `<assignment>-by-check.csv`: one row per student, one column per notebook and per check.

It is not nbgrader's grades.csv (`make grades`, one row per student and assignment): it adds, per student, whether
the submission needed attention and why, the grader's notes, and the score of every notebook and of every check.

Text cells (student ids, reasons, column names) are made inert and quoted as every CSV we write is
(classroom.csvsafe); numbers are written as numbers, as the report writes them (16, 2.5).
"""
from pathlib import Path

from .. import csvsafe
from .model import number

COLUMNS = ("ASSIGNMENT-by-check.csv: one row per student: student_id, raw_score, late_submission_penalty, score "
           "(raw_score - late_submission_penalty, at least 0) and max_score as in `nbgrader export`, then "
           "needs_attention (yes/no), attention (the reasons, '; '-separated) and grader_notes (the grader's notes "
           "for the student, such as a renamed notebook taken), then one column per notebook (its "
           "score), then one column per check (its grade_id, or notebook.ipynb:grade_id where two notebooks share "
           "one: the score of that check).")


def file_name(assignment):
    return f"{assignment}-by-check.csv"


def cell(value):
    """One CSV field: a number as the report writes numbers, any text made inert for spreadsheet apps."""
    return csvsafe.field(value, number)


def check_labels(checks):
    """The column name of each check: its grade id, prefixed by its notebook where the id is not unique."""
    counts = {}
    for check in checks:
        counts[check.grade_id] = counts.get(check.grade_id, 0) + 1
    return [check.grade_id if counts[check.grade_id] == 1 else f"{check.notebook}.ipynb:{check.grade_id}"
            for check in checks]


def rows(summary):
    """The header and one row per student, as values (not yet CSV fields)."""
    names = [name for name, _ in summary.notebooks]
    yield ["student_id", "raw_score", "late_submission_penalty", "score", "max_score", "needs_attention",
           "attention", "grader_notes", *[f"{name}.ipynb" for name in names], *check_labels(summary.checks)]
    for s in summary.students:
        yield [s.id, s.raw_score, s.penalty, s.score, s.max_score, "yes" if s.reasons else "no",
               "; ".join(r.text() for r in s.reasons), " ".join(s.notes),
               *[s.notebooks.get(name, 0.0) for name in names],
               *[s.checks.get(check.key, 0.0) for check in summary.checks]]


def write_csv(summary, folder):
    """Write `<assignment>-by-check.csv` into `folder`; return its path."""
    return csvsafe.write(Path(folder) / file_name(summary.assignment), rows(summary), number)
