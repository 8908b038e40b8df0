"""`nbgrader export` (`make grades`) writing a grades.csv that is safe to open in a spreadsheet app.

nbgrader's CsvExportPlugin joins the fields with commas and no quoting, so a student id, name or e-mail holding a
comma shifts the columns (`c15eve,,,,21.0` reads as 21 points) and one starting with `=` becomes a live formula.
SafeCsvExport, enabled in nbgrader_config.py with
`c.ExportApp.plugin_class = "classroom.plugins.csv_export.SafeCsvExport"`, writes the same columns, rows and values
through classroom.csvsafe: quoted by the csv module, text made inert. For plain data the file is nbgrader's byte for
byte but for its line ends, CRLF (tests/report/test_grades_csv.py compares them).
"""
from collections import namedtuple

from nbgrader.api import MissingEntry
from nbgrader.plugins.export import CsvExportPlugin

from .. import csvsafe

COLUMNS = ("assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
           "late_submission_penalty", "score", "max_score")
GradesRow = namedtuple("GradesRow", COLUMNS)  # one row of grades.csv, its fields named as its columns


class SafeCsvExport(CsvExportPlugin):
    """nbgrader's grades.csv (one row per assignment and student, 0 where nothing was handed in), safely written."""

    def export(self, gradebook):
        dest = self.to or "grades.csv"
        students = [str(item) for item in self.student]
        assignments = [str(item) for item in self.assignment]
        self.log.info("Exporting grades to %s", dest)
        if assignments:
            self.log.info("Exporting only assignments: %s", assignments)
        if students:
            self.log.info("Exporting only students: %s", students)
        rows = [grades_row(gradebook, assignment, student)
                for assignment in gradebook.assignments if not assignments or assignment.name in assignments
                for student in gradebook.students if not students or student.id in students]
        csvsafe.write(dest, [COLUMNS, *rows])


def grades_row(gradebook, assignment, student):
    """The GradesRow of one student and assignment, as nbgrader's CsvExportPlugin computes it."""
    try:
        submission = gradebook.find_submission(assignment.name, student.id)
    except MissingEntry:
        timestamp, raw, penalty = None, 0.0, 0.0
    else:
        timestamp, raw, penalty = submission.timestamp, submission.score, submission.late_submission_penalty
    score = max(0.0, raw - penalty)
    return GradesRow(assignment.name, assignment.duedate, timestamp, student.id, student.last_name,
                     student.first_name, student.email, raw, penalty, score, assignment.max_score)
