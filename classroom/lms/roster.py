"""The LMS's own list of students, read from the file the LMS exports, as nbgrader student ids.

Canvas: Grades > Export > "Export Entire Gradebook" (CSV). Columns Student, ID, SIS User ID, SIS Login ID, Section
(some instances add Integration ID), then one column per assignment, "score_gradient (4321)", and totals; the row
after the header, "Points Possible", gives each assignment's points. ID is the user id in the names of Canvas's
download; the nbgrader student id is taken from c.LmsRoster.canvas_student_column ("SIS Login ID" by default).

Moodle: the assignment's Submissions > Actions > "Download grading worksheet" (needs the "Offline grading worksheet"
feedback type). Columns Identifier ("Participant 12345", the number in the names of Moodle's download), Full name,
Email address, Status, Grade, Maximum Grade, ..., Last modified (grade), ...; the nbgrader student id is taken from
c.LmsRoster.moodle_student_column ("Email address" by default: an e-mail address gives its part before the @).

Every student id is refused unless plain, as collect refuses it (classroom.intake.require_plain_id); an id that is not plain, or
that two rows of the roster share, maps no file: the collect report names it.
"""
import csv
from dataclasses import dataclass

from traitlets import Unicode
from traitlets.config import LoggingConfigurable

from .. import intake

CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section")
MOODLE_ID = "Identifier"
MOODLE_PARTICIPANT = "Participant "
MAX_ROSTER_BYTES = 20 * 2 ** 20


class RosterError(ValueError):
    """A roster that cannot be read at all; str() says why and what to do."""


@dataclass
class Student:
    lms_id: str
    student_id: str      # the nbgrader id ("" if refused)
    refusal: str         # why the id cannot be used ("" if it can)
    row: dict            # the roster's row as read


class LmsRoster(LoggingConfigurable):
    path = Unicode("lms/roster.csv", help="The LMS's export of its students: Canvas's gradebook CSV or Moodle's "
                   "grading worksheet (classroom/lms/roster.py).").tag(config=True)
    canvas_student_column = Unicode("SIS Login ID", help="The Canvas gradebook column that holds each student's "
                                    "nbgrader id.").tag(config=True)
    moodle_student_column = Unicode("Email address", help="The Moodle worksheet column that holds each student's "
                                    "nbgrader id (an e-mail address gives its part before @).").tag(config=True)

    def read(self, path=None):
        return Roster(path or self.path, self.canvas_student_column, self.moodle_student_column)


class Roster:
    """The rows of one roster file: `lms` ("canvas" or "moodle"), `header`, `rows`, `points_row` (Canvas),
    `students` {lms id: Student}."""

    def __init__(self, path, canvas_column="SIS Login ID", moodle_column="Email address"):
        self.path = str(path)
        self.header, rows = _read(self.path)
        if "SIS User ID" in self.header and "ID" in self.header:
            self.lms, column = "canvas", canvas_column
        elif MOODLE_ID in self.header:
            self.lms, column = "moodle", moodle_column
        else:
            raise RosterError(f"{self.path} is neither Canvas's gradebook export (columns Student, ID, SIS User ID, "
                              f"...) nor Moodle's grading worksheet (column Identifier); its columns: {self.header}")
        if column not in self.header:
            raise RosterError(f"{self.path} has no column {column!r}, which holds the nbgrader student ids; set "
                              f"c.LmsRoster.{self.lms}_student_column to one of {self.header}")
        self.points_row = next((row for row in rows if row.get("Student", "").strip() == "Points Possible"), None)
        self.rows = [row for row in rows if self.lms_id(row)]
        self.students = _students(self.rows, self.lms_id, column)

    def lms_id(self, row):
        """The LMS's id of the row's student: Canvas's user id, Moodle's participant number ("" if none)."""
        if self.lms == "canvas":
            value = (row.get("ID") or "").strip()
        else:
            value = (row.get(MOODLE_ID) or "").strip()
            value = value[len(MOODLE_PARTICIPANT):] if value.startswith(MOODLE_PARTICIPANT) else ""
        return value if value.isdigit() else ""

    def by_student(self):
        """{nbgrader id: Student} of the usable rows."""
        return {s.student_id: s for s in self.students.values() if not s.refusal}


def _read(path):
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            text = handle.read(MAX_ROSTER_BYTES + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise RosterError(f"the roster {path} cannot be read ({error}); export it from the LMS "
                          "(INSTRUCTORS.md, \"The LMS route\")") from None
    if len(text) > MAX_ROSTER_BYTES:
        raise RosterError(f"the roster {path} is larger than {MAX_ROSTER_BYTES // 2 ** 20} MiB")
    reader = csv.DictReader(text.splitlines())
    return list(reader.fieldnames or []), list(reader)


def _students(rows, lms_id, column):
    ids = {}
    for row in rows:
        value = (row.get(column) or "").strip()
        if "@" in value:
            value = value.split("@", 1)[0]
        ids[lms_id(row)] = (value, row)
    counts = {}
    for value, _ in ids.values():
        counts[value] = counts.get(value, 0) + 1
    students = {}
    for key, (value, row) in ids.items():
        try:
            intake.require_plain_id(value)
            refusal = f"two rows of the roster give the id {value!r}" if counts[value] > 1 else ""
        except intake.BadSubmission as error:
            refusal = str(error).split(";")[0]
        students[key] = Student(key, "" if refusal else value, refusal, row)
    return students
