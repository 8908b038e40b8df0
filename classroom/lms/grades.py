"""`make lms-grades` (`python -m classroom.lms.grades ASSIGNMENT`): the gradebook's scores in the import format of
the LMS whose roster lies at c.LmsRoster.path, keyed by the LMS's own ids, CSV-safe (classroom.csvsafe).

Canvas (Grades > Import): the identity columns of its gradebook export as they are in the roster (Student, ID, SIS
User ID, SIS Login ID, [Integration ID], Section), then the assignment's column under the roster's own header
("score_gradient (4321)": Canvas matches the id in parentheses), and the "Points Possible" row after the header.
Moodle (the assignment's Submissions > "Upload grading worksheet"): its worksheet's Identifier, Full name, Email
address, Grade, Maximum Grade and Last modified (grade) columns, as Moodle reads them; the e-mail column also lets
Grades > Import > CSV file match students by e-mail.

The score is the one `make grades` exports (after the late penalty, classroom.plugins.csv_export.grades_row), scaled to
the points the LMS gives the assignment (Canvas's Points Possible, Moodle's Maximum Grade; nbgrader's own when the
roster has none), rounded to 2 decimals. A student with no submission in the gradebook gets an empty cell, which
neither LMS imports as a grade: what they are given is left to the instructor. So does a student whose score is not
a grade yet: a notebook's result (classroom.grading.result) says the grader failed on it, or that the file handed in
is not a readable notebook, and the gradebook still waits for its grade by hand (its 0 is a placeholder); or grading
by hand is unfinished (the written derivation, after `make autograde` and before Manual Grading: its 0 is not a
grade). The command names each one, with the cells and what to do.
"""
import re
import sys

from nbgrader.api import Gradebook, MissingEntry

from .. import course, csvsafe
from ..grading import result
from ..plugins.csv_export import grades_row
from .roster import CANVAS_IDENTITY, LmsRoster

PLACEHOLDER = result.BY_HAND  # a result whose 0 waits for a grade by hand
MOODLE_COLUMNS = ("Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Last modified (grade)")
OUT = "lms/{assignment}-{lms}-grades.csv"


def canvas_column(roster, assignment):
    """The roster's header of the assignment's column: "score_gradient (4321)", else the assignment's name."""
    pattern = re.compile(re.escape(assignment) + r" \(\d+\)")
    return next((h for h in roster.header if pattern.fullmatch(h.strip())), assignment)


def lms_points(roster, row, column):
    """What the LMS gives the assignment, from the roster, or None."""
    text = (roster.points_row or {}).get(column) if roster.lms == "canvas" else row.get("Maximum Grade")
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def held_back(coursedir, assignment, student, flagged):
    """Why the gradebook's score of `student` is not a grade yet, or None. `flagged`: {notebook: [grade ids the
    gradebook flags for grading by hand]}. A notebook whose result is a placeholder (PLACEHOLDER) says why it is; any
    other flagged cell (the written derivation before it is graded by hand) is named, cell by cell."""
    folder = course.autograded(coursedir, student, assignment)
    for name in flagged:
        found = result.read(folder, name)
        if found is not None and found.status in PLACEHOLDER:
            return (f"{name}.ipynb waits for a grade by hand ({found.why}): grade it in the formgrader, or run "
                    "`make autograde` again, then export again")
    waiting = [f"{name}.ipynb {grade_id}" for name, ids in flagged.items() for grade_id in ids]
    if waiting:
        return (f"grading by hand is unfinished ({', '.join(waiting)}: its points count 0 until then): grade it in "
                "the formgrader's Manual Grading, then export again")
    return None


def scores(coursedir, assignment):
    """({nbgrader id: score or None}, max score, {nbgrader id: why held back}) from the gradebook and the results."""
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            found = gb.find_assignment(assignment)
        except MissingEntry:
            raise SystemExit(f"The gradebook has no assignment {assignment}: grade first (make autograde)") from None
        by_student, held = {}, {}
        for student in gb.students:
            try:
                submission = gb.find_submission(assignment, student.id)
            except MissingEntry:
                by_student[student.id] = None
                continue
            flagged = {nb.name: [g.name for g in nb.grades if g.needs_manual_grade] for nb in submission.notebooks}
            flagged = {name: ids for name, ids in flagged.items() if ids}
            why = held_back(coursedir, assignment, student.id, flagged)
            if why:
                by_student[student.id], held[student.id] = None, why
            else:
                by_student[student.id] = grades_row(gb, found, student).score
        return by_student, found.max_score, held


def rows(roster, assignment, by_student, max_score):
    """The rows of the import file, header first."""
    column = canvas_column(roster, assignment) if roster.lms == "canvas" else "Grade"
    if roster.lms == "canvas":
        identity = [h for h in CANVAS_IDENTITY if h in roster.header]
        points = lms_points(roster, {}, column) or max_score
        out = [identity + [column], ["    Points Possible"] + [""] * (len(identity) - 1) + [points]]
    else:
        out = [list(MOODLE_COLUMNS)]
    for row in roster.rows:
        student = roster.students[roster.lms_id(row)]
        score = by_student.get(student.student_id) if not student.refusal else None
        points = lms_points(roster, row, column) or max_score
        value = None if score is None else (round(score * points / max_score, 2) if max_score else 0.0)
        if roster.lms == "canvas":
            out.append([row.get(h, "") for h in identity] + [value])
        else:
            out.append([row.get("Identifier", ""), row.get("Full name", ""), row.get("Email address", ""), value,
                        points, row.get("Last modified (grade)", "")])
    return out


def points_text(value):
    """A number as the LMS reads it: at most 2 decimals, no exponent, no trailing zeros (80, 7.5, 0.33)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def grades_command(app, assignment, lms=None, roster_path=None):
    """`classroom lms-grades`: write the LMS's import CSV and say what it holds; the exit status. `app`: the command
    (its configuration and course directory)."""
    roster = LmsRoster(config=app.config).read(roster_path)
    if lms and lms != roster.lms:
        print(f"classroom lms-grades: LMS={lms}, but {roster.path} is a {roster.lms} roster: nothing was written",
              file=sys.stderr)
        return 2
    by_student, max_score, held = scores(app.coursedir, assignment)
    table = rows(roster, assignment, by_student, max_score)
    dest = csvsafe.write(OUT.format(assignment=assignment, lms=roster.lms), table, number=points_text)
    graded = {s for s, v in by_student.items() if v is not None}
    missing = sorted(graded - set(roster.by_student()))
    print(f"{dest}: {len(table) - (2 if roster.lms == 'canvas' else 1)} students of {roster.path}, "
          f"{len(graded & set(roster.by_student()))} with a grade")
    for student in missing:
        print(f"  graded but not in the roster (not in the file): {student}")
    for student, why in sorted(held.items()):
        print(f"  no grade in the file for {student}: {why}")
    return 0

