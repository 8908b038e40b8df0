"""Read one assignment's grading into a Summary: the gradebook for scores and checks; each notebook's result
(classroom.grading.result) for what its grading decided (failure kinds and messages, repairs, notes, left out or
not); the grading record (classroom.grading.record) for whether that grading still holds. No notebook is read.

Every path comes from nbgrader's CourseDirectory, configured by the course's nbgrader_config.py: the gradebook's
db URL, and submitted/ and autograded/ through `format_path`, so a course that renames them is read right. An
autograded folder without results (graded by an earlier version of the grader, or by plain nbgrader) still gives a
report: its scores, and "not graded ... run `make autograde`", which grades it again and writes them. Students dropped
from the course (classroom.decisions) are left out, and only named. The report covers the gradebook's whole roster
(`nbgrader db student import`, or everyone ever graded), as grades.csv does: a student with no submission and nothing
collected is a row scored 0, "handed nothing in", and counts in the mean and median as in grades.csv.
"""
from pathlib import Path

from .. import cells, course, intake
from ..decisions import store as decisions
from ..grading import record, result
from . import attention
from .model import Check, Handed, Student, Summary


class ReportError(Exception):
    """Bad input: the message says what to do."""


def course_directory(root):
    """nbgrader's CourseDirectory configured by the course's nbgrader_config.py (db URL, directory names)."""
    root = Path(root).resolve()
    if not (root / "nbgrader_config.py").exists():
        raise ReportError(f"there is no nbgrader_config.py in {root}: run this from the course directory "
                          "(the repository root)")
    return course.course_directory(root=root)


def _checks(gb_notebooks):
    """[Check] from the gradebook's notebooks."""
    checks = []
    for nb in gb_notebooks:
        points = {cell.name: float(cell.max_score) for cell in nb.grade_cells}
        sources = {cell.name: cell for cell in nb.source_cells}
        answers = {cell.name for cell in nb.solution_cells}
        order = [c.name for c in nb.source_cells if c.name in points] + sorted(n for n in points if n not in sources)
        for name in order:
            if name in answers:
                continue  # an autograded answer cell is graded by running it, not a check of its own
            code = (sources[name].source or "") if name in sources else ""
            hidden = any(marker in code for marker in cells.HIDDEN_MARKERS)
            checks.append(Check(nb.name, name, points[name], cells.docstring(code), hidden))
    return checks


def _handed(coursedir, assignment, student_id, notebooks, state):
    """[Handed] for each notebook of one student, from its result in autograded/; `state` is the submission's
    record.State (None when submitted/ no longer holds it)."""
    autograded = Path(coursedir.format_path(coursedir.autograded_directory, student_id, assignment))
    found = []
    for name in notebooks:
        graded = result.read(autograded, name)
        if graded is not None:
            handed_in = graded.handed_in
        else:  # no result: a file in submitted/, or (submitted/ cleared after grading) an autograded copy
            handed_in = bool(state.handed[name][0]) if state else (autograded / f"{name}.ipynb").exists()
        found.append(Handed(name, handed_in, graded, state.stale.get(name) if state else None))
    return found


def _states(coursedir, gb, assignment):
    """{student: record.State} of every collected submission (every folder in submitted/), each judged against the
    assignment as the driver grades it for that student: with their own due date where they have an extension."""
    versions, data = record.versions(gb, assignment), decisions.read(coursedir.root)
    class_due = gb.find_assignment(assignment).duedate
    states = {}
    for student, folder in course.submitted(coursedir, assignment).items():
        due = decisions.due_date(data, assignment, student, class_due)
        own = versions if due == class_due else record.versions(gb, assignment, due)
        states[student] = record.inspect(gb, own, assignment, student, folder,
                                         course.autograded(coursedir, student, assignment))
    return states


def read_summary(root, assignment):
    """The Summary of `assignment` in the course at `root` (the folder holding nbgrader_config.py)."""
    from nbgrader.api import Gradebook, MissingEntry

    coursedir = course_directory(root)
    db_path = course.sqlite_file(coursedir.db_url)
    if db_path is not None and not Path(db_path).exists():  # opening it would create an empty one
        raise ReportError(f"there is no gradebook ({db_path}): nothing has been graded in this course yet. Collect "
                          "the submissions and run `make autograde` first.")
    with Gradebook(coursedir.db_url) as gb:
        try:
            source = gb.find_assignment(assignment)
        except MissingEntry:
            known = ", ".join(sorted(a.name for a in gb.assignments)) or "none"
            raise ReportError(f"the gradebook has no assignment {assignment!r} (it has: {known}). Check the name; "
                              "an assignment enters the gradebook with `make release`.") from None
        gb_notebooks = sorted(source.notebooks, key=lambda nb: (nb.name != assignment, nb.name))
        checks = _checks(gb_notebooks)
        # A written answer (the derivation) waits for a grade by hand in every submission: the formgrader's Manual
        # Grading lists those; only a check flagged for grading by hand is a reason to look.
        answers = {cell.name for nb in gb_notebooks for cell in nb.solution_cells}
        notebooks = tuple((nb.name, float(nb.max_score)) for nb in gb_notebooks)
        max_score = float(source.max_score)
        submissions = sorted(gb.assignment_submissions(assignment), key=lambda s: s.student.id)
        states = _states(coursedir, gb, assignment)
        if not submissions:
            raise ReportError(f"nothing has been graded for {assignment!r} yet: collect the submissions "
                              f"(`nbgrader collect {assignment}`) and run `make autograde` first.")
        graded = [(sub.student.id, float(sub.score), float(sub.late_submission_penalty or 0.0), float(sub.max_score),
                   float(sub.total_seconds_late or 0.0),
                   {nb.name: float(nb.score) for nb in sub.notebooks},
                   {(nb.name, g.name): float(g.score) for nb in sub.notebooks for g in nb.grades},
                   [g.name for nb in sub.notebooks for g in nb.grades
                    if g.needs_manual_grade and g.name not in answers],
                   [f"{nb.name}.ipynb {g.name}" for nb in sub.notebooks for g in nb.grades
                    if g.needs_manual_grade and g.name in answers])
                  for sub in submissions]
        roster = {student.id for student in gb.students}
    students = []
    for student_id, raw, penalty, top, late, by_notebook, by_check, flagged, waiting in graded:
        handed = _handed(coursedir, assignment, student_id, [name for name, _ in notebooks], states.get(student_id))
        graded = [nb.result for nb in handed if nb.result is not None]
        messages = {(found.notebook, check.grade_id): attention.message(check.message) or check.kind
                    for found in graded for check in found.checks if check.kind is not None}
        students.append(Student(student_id, raw, penalty, top, by_notebook, by_check,
                                frozenset(nb.notebook for nb in handed if nb.handed_in), messages,
                                attention.reasons(handed, flagged, late, penalty, intake.read_receipt(
                                    coursedir.format_path(coursedir.submitted_directory, student_id, assignment)),
                                    waiting),
                                tuple(note for found in graded for note in found.notes)))
    known, dropped = {student.id for student in students}, decisions.dropped(decisions.read(coursedir.root))
    absent = tuple(sorted(roster - known - set(states) - dropped))  # in the gradebook's roster, nothing handed in
    students = sorted(students + [Student(who, 0.0, 0.0, max_score, {}, {}, frozenset(), {}, (attention.NOTHING,))
                                  for who in absent], key=lambda student: student.id)
    ungraded = tuple((who, "; ".join(f"{name}.ipynb: {why}" for name, why in state.stale.items()))
                     for who, state in sorted(states.items()) if who not in known | dropped)
    return Summary(assignment, coursedir.course_id, max_score, notebooks, tuple(checks), tuple(students), ungraded,
                   tuple(sorted(dropped & set(states))), absent)
