"""What an instructor decided that nbgrader's gradebook has no place for, kept where every later collect and grading
reads it: `decisions.json` at the course's root (student data: git-ignored, like gradebook.db).

  extensions  {assignment: {student: due date}}: one student's own due date (UTC), later than the class's. Grading
              reads it (classroom.grading.driver: the staging gradebook's due date for that student, nbgrader's
              SubmittedAssignment.extension in the gradebook), so the late penalty, the report and grades.csv follow it,
              and nothing a student hands in or collect copies can change it.
  dropped     {student: when}: students dropped from the course for good. `make drop` removes them from the
              gradebook too; the driver never grades them again (their hand-ins stay in submitted/, untouched).
  quiz_keys   {assignment: digest}: the key of the graded quiz as it was handed out (classroom.decisions.quiz_key).

The file is written only by these commands, whole or not at all (classroom.atomic), while holding the course's lock
(classroom.bookkeeping.lock), so it never changes in the middle of a grading run:

    classroom extension ASSIGNMENT STUDENT "2026-12-18 23:59:00 -0500"   # make extension
    classroom extension ASSIGNMENT STUDENT --remove
    classroom drop STUDENT [--undo]                                       # make drop
    classroom decisions                                                   # make decisions
"""
import datetime
import json
import os

from .. import atomic, course, intake
from ..bookkeeping import lock
from ..wording import did_you_mean
from . import dates

FILE = "decisions.json"
FORMAT = 1
KINDS = ("extensions", "dropped", "quiz_keys")
STAMP = "%Y-%m-%d %H:%M:%S"


class DecisionError(ValueError):
    """A decision that cannot be recorded; str() says why and what to do."""


def path(root):
    return os.path.join(root, FILE)


def read(root):
    """The decisions of the course at `root`: {"extensions": ..., "dropped": ..., "quiz_keys": ...} (empty ones if
    there is no file yet). A file that cannot be read stops whoever reads it: grading without the instructor's
    decisions would grade wrongly."""
    found = {"format": FORMAT, **{kind: {} for kind in KINDS}}
    if not os.path.lexists(path(root)):
        return found
    try:
        raw = intake.read_regular(path(root))
        if raw is None:
            raise ValueError("it is not a regular file, or it cannot be read")
        data = json.loads(raw)
        if data.get("format") != FORMAT or not all(isinstance(data.get(key, {}), dict) for key in KINDS):
            raise ValueError(f"not a decisions file of format {FORMAT}")
    except (ValueError, AttributeError) as exc:
        raise DecisionError(f"{path(root)} cannot be read ({exc}): restore it from a backup (it holds the "
                            "extensions, dropped students and handed-out quiz keys of this course)") from None
    return {**found, **data}


def write(root, data):
    with atomic.replacing(path(root), encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
        handle.write("\n")


def extension(data, assignment, student):
    """The due date (naive UTC) of `student`'s own extension of `assignment`, or None."""
    found = data["extensions"].get(assignment, {}).get(student)
    return datetime.datetime.strptime(found, STAMP) if found else None


def due_date(data, assignment, student, class_due):
    """When `student`'s work of `assignment` is due: their extension if they have one (and the class has a due date
    it extends), else the class's due date `class_due`."""
    own = extension(data, assignment, student)
    return own if own is not None and class_due is not None else class_due


def dropped(data):
    return set(data["dropped"])


# ---- the commands -------------------------------------------------------------------------------------------------
def _class_due(coursedir, assignment):
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            return gb.find_assignment(assignment).duedate
        except MissingEntry:
            known = ", ".join(sorted(a.name for a in gb.assignments)) or "none"
            raise DecisionError(f"the gradebook has no assignment {assignment!r} (it has: {known})") from None


def _known_student(coursedir, student, otherwise=""):
    """DecisionError naming the nearest real one unless `student` is in the gradebook or has handed something in (a
    typo must not be kept while the real student gets nothing)."""
    from nbgrader.api import Gradebook

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        known = {s.id for s in gb.students}
        collected = {s for a in gb.assignments for s in course.submitted(coursedir, a.name)}
    if student not in known | collected:
        raise DecisionError(f"no student {student!r} in the gradebook or in submitted/"
                            f"{did_you_mean(student, known | collected)}" + (f"; if it is a new student, {otherwise}"
                                                                            if otherwise else ""))


def grant(coursedir, assignment, student, text):
    """Record `student`'s own due date `text` for `assignment` (None: remove it); the sentence to print."""
    intake.require_plain_id(student)
    data = read(coursedir.root)
    if text is None:
        removed = data["extensions"].get(assignment, {}).pop(student, None)
        write(coursedir.root, data)
        return (f"{student} has no extension of {assignment} any more" if removed else
                f"{student} had no extension of {assignment}") + "; the next `make autograde` grades them again."
    class_due = _class_due(coursedir, assignment)
    _known_student(coursedir, student, "`nbgrader db student add` them first, then give the extension")
    if class_due is None:
        raise DecisionError(f"{assignment} has no due date, so nothing is late and there is nothing to extend: set "
                            "one first (`nbgrader db assignment add ... --duedate=...`)")
    due = dates.parse_due(text)
    if due <= class_due:
        raise DecisionError(f"{due.strftime(STAMP)} UTC is not after the class's due date ({class_due.strftime(STAMP)} "
                            "UTC): an extension gives more time")
    data["extensions"].setdefault(assignment, {})[student] = due.strftime(STAMP)
    write(coursedir.root, data)
    return (f"{student}'s work of {assignment} is due {due.strftime(STAMP)} UTC (the class's: "
            f"{class_due.strftime(STAMP)} UTC); the next `make autograde` grades it against that date.")


def drop(coursedir, student, undo=False):
    """Drop `student` for good (or take them back with `undo`); the sentence to print."""
    from nbgrader.api import Gradebook, MissingEntry

    intake.require_plain_id(student)
    data = read(coursedir.root)
    if undo:
        if data["dropped"].pop(student, None) is None:
            raise DecisionError(f"{student} is not dropped{did_you_mean(student, data['dropped'])}")
        write(coursedir.root, data)
        return f"{student} is back in the course; the next `make autograde` grades their work."
    _known_student(coursedir, student)
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        data["dropped"][student] = datetime.datetime.now(datetime.timezone.utc).strftime(STAMP)
        write(coursedir.root, data)
        try:
            gb.remove_student(student)
        except MissingEntry:
            pass
    return (f"{student} is dropped: removed from the gradebook, and never graded again (their hand-ins stay in "
            "submitted/). `make drop STUDENT=... UNDO=yes` takes them back.")


def show(root):
    data = read(root)
    lines = [f"{student}: {assignment} due {due} UTC" for assignment, students in sorted(data["extensions"].items())
             for student, due in sorted(students.items())]
    lines += [f"{student}: dropped since {when} UTC" for student, when in sorted(data["dropped"].items())]
    lines += [f"{assignment}: quiz handed out with key {key[:12]}..." for assignment, key in
              sorted(data["quiz_keys"].items())]
    return "\n".join(lines) or "no extensions, nobody dropped, no quiz handed out yet"
