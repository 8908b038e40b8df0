"""A toy course for the class report's tests (test_class_report.py beside it), built by hand in a moment: a gradebook
made with nbgrader's own API (an assignment `toy` of two notebooks, seven students) and, for each graded notebook,
the result a grading writes (classroom.grading.result) and the grading record (classroom.grading.record). CLASS says
what happened to each student; the test says what the report must make of it."""
import json
import os
import shutil
from unittest import mock

from classroom.grading import record, result
from classroom.trusted import failures
from coursekit import trial_course
from coursekit.repository import ROOT

TOY = "toy"
# The gradebook's cells of each notebook: (name, cell type, grade points or None, answer cell?, source).
CELLS = {
    TOY: [("intro", "markdown", None, False, "Add the numbers."),
          ("answer", "code", None, True, "def total(a, b):\n    return a + b\n"),
          ("adds_up", "code", 2.0, False, '"""The sum of two numbers is right."""\nassert total(1, 2) == 3\n'),
          ("shows_work", "code", 1.0, False, '"""It returns a number, not a string."""\nassert total(1, 1) != "2"\n'),
          ("hidden_one", "code", 3.0, False, '"""Negative numbers add up too."""\n### BEGIN HIDDEN TESTS\n'
           'secret_value = 42\nassert total(-1, -2) == -3\n### END HIDDEN TESTS\n')],
    "quiz": [("q_answer", "code", 1.0, True, "answer = None\n"),
             ("q_check", "code", 1.0, False, '"""Question 2 is answered with a whole number."""\nassert True\n')],
}
FULL = {"adds_up": 2.0, "shows_work": 1.0, "hidden_one": 3.0, "q_answer": 1.0, "q_check": 1.0}
SCRIPT, FORMULA, IMG = "<script>alert(1)</script>", "=2+3", "<img src=x onerror=alert(1)>"
NOT_GRADED = "The grader could not run this notebook (nbgrader could not process the submitted file)."
RENAMED = "You handed in this notebook as `toy (1).ipynb`; it was graded as `toy.ipynb`."
STUDENT_CELL = "cell 6"  # a code cell of the student's own, without nbgrader metadata (the sixth cell)
# student: lost points, and what their results record: failed checks and cells {name: (kind, message)}, and more.
CLASS = {
    "ann": {"notes": (RENAMED,)},
    "ben": {"lost": {"hidden_one": 3.0, "shows_work": 1.0, "q_check": 1.0},
            "failed": {"hidden_one": (failures.CHECK_FAILED, IMG),
                       "q_check": (failures.RAISED, "your code raised NameError"),
                       "shows_work": (failures.CHECK_FAILED, "it timed out and crashed on an empty list")}},
    "cat": {"lost": {"adds_up": 2.0}, "quiz": False,
            "failed": {"adds_up": (failures.TIMED_OUT, "your function did not return in time"),
                       "answer": (failures.CRASHED, "the process running your code exited"),
                       STUDENT_CELL: (failures.NOT_RUN, "an earlier cell stopped the run")}},
    "dan": {"lost": {k: v for k, v in FULL.items() if not k.startswith("q")}, "flagged": True,
            "status": result.GRADER_FAILED,
            "failed": {name: (failures.NOT_GRADED, NOT_GRADED) for name in ("adds_up", "shows_work", "hidden_one")}},
    "eve": {"lost": {"hidden_one": 3.0}, "resubmitted": True,
            "repairs": result.Repairs(("hidden_one",), ("shows_work",), 1),
            "failed": {"hidden_one": (failures.CHECK_FAILED, IMG),
                       "answer": (failures.OUT_OF_MEMORY, "your code ran out of memory")}},
    SCRIPT: {"lost": {"q_check": 1.0}, "penalty": 10.0,
             "failed": {"answer": (failures.OUTPUT_CUT, "the output was cut at 20000 characters")}},
    FORMULA: {"quiz": False},
}


def handed_in(who):
    return [TOY] + (["quiz"] if CLASS[who].get("quiz", True) else [])


def notebook_json(name):
    cells = [{"cell_type": kind, "metadata": {"nbgrader": {"grade_id": cell, "grade": points is not None}},
              "source": code, **({"outputs": [], "execution_count": None} if kind == "code" else {})}
             for cell, kind, points, answer, code in CELLS[name]]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


GRADED = {cell for cells in CELLS.values() for cell, _, points, _, _ in cells if points is not None}


def toy_result(who, name):
    """The Result a grading of `who`'s notebook `name` writes, as CLASS says it went."""
    spec = CLASS[who]
    if name not in handed_in(who):
        return result.Result(who, TOY, name, result.NOT_HANDED_IN, f"`{name}.ipynb` was not handed in")
    failed = spec.get("failed", {})
    checks = tuple(result.CheckOutcome(cell, points, points - spec.get("lost", {}).get(cell, 0.0),
                                       *failed.get(cell, (None, "")), answer)
                   for cell, _, points, answer, _ in CELLS[name] if points is not None)
    cells = tuple(result.CellFailure(cell, *failure) for cell, failure in failed.items() if cell not in GRADED)
    return result.Result(who, TOY, name, spec.get("status", result.GRADED), None, f"{name}.ipynb",
                         spec.get("notes", ()) if name == TOY else (), spec.get("repairs", result.Repairs()),
                         checks, cells if name == TOY else ())


def write_course(course, students, gradebook=None):
    """A course of the toy assignment with `students`; its gradebook starts as a copy of `gradebook` if given (making
    one from nothing runs nbgrader's `alembic`, which takes seconds)."""
    from nbgrader.api import Gradebook

    course.mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    if gradebook:
        shutil.copy(gradebook, course / "gradebook.db")
    with mock.patch.dict(os.environ, PATH=trial_course.nbgrader_env()["PATH"]), \
            Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        if not gradebook:
            gb.add_assignment(TOY)
            for name, cells in CELLS.items():
                gb.add_notebook(name, TOY)
                for cell_name, kind, points, answer, code in cells:
                    gb.add_source_cell(cell_name, name, TOY, cell_type=kind, locked=not answer, source=code)
                    if points is not None:
                        gb.add_grade_cell(cell_name, name, TOY, max_score=points, cell_type="code")
                    if answer:
                        gb.add_solution_cell(cell_name, name, TOY)
        for who in students:
            spec = CLASS[who]
            gb.add_student(who)
            gb.add_submission(TOY, who)
            for nb in gb.find_submission(TOY, who).notebooks:
                nb.late_submission_penalty = spec.get("penalty", 0.0) if nb.name == TOY else 0.0
                for grade in nb.grades:
                    took = nb.name in handed_in(who)
                    grade.auto_score = FULL[grade.name] - spec.get("lost", {}).get(grade.name, 0.0) if took else 0.0
                    grade.needs_manual_grade = bool(spec.get("flagged")) and nb.name == TOY
            gb.db.commit()
            for step in ("submitted", "autograded"):
                folder = course / step / who / TOY
                folder.mkdir(parents=True)
                stamp = "2024-05-02 09:00:00" if step == "submitted" and spec.get("resubmitted") else "2024-05-01"
                (folder / "timestamp.txt").write_text(stamp)
                for name in handed_in(who) if step == "submitted" else CELLS:  # graded: an explanation if missing
                    (folder / f"{name}.ipynb").write_text(json.dumps(notebook_json(name)))
            for name in CELLS:
                result.write(course / "autograded" / who / TOY, toy_result(who, name))
            write_record(gb, course, who, first_submission=spec.get("resubmitted"))
    return course


def write_record(gb, course, who, first_submission=False):
    """The record the driver writes when it commits a grading (classroom.grading.record); one whose submission
    digest is an earlier one's when the student handed in again since."""
    graded = course / "autograded" / who / TOY
    state = record.inspect(gb, record.versions(gb, TOY), TOY, who, str(course / "submitted" / who / TOY), str(graded))
    record.write(graded, {name: record.entry("an earlier submission" if first_submission else digest, version,
                                             record.grades_digest(gb, TOY, who, name))
                          for name, (digest, version) in state.expected.items()})



def read_gradebook(course, assignment):
    """What the gradebook says, read with nbgrader's API and not with classroom.report."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        maxima = {(nb.name, c.name): c.max_score for nb in gb.find_assignment(assignment).notebooks
                  for c in nb.grade_cells}
        students = {sub.student.id: {
            "total": sum(g.score for nb in sub.notebooks for g in nb.grades),
            "penalty": sum(nb.late_submission_penalty or 0.0 for nb in sub.notebooks),
            "notebooks": {nb.name: sum(g.score for g in nb.grades) for nb in sub.notebooks},
            "checks": {(nb.name, g.name): g.score for nb in sub.notebooks for g in nb.grades},
            # a check waiting for a grade by hand (a written answer, Markdown, always waits until it is graded)
            "manual": any(g.needs_manual_grade for nb in sub.notebooks for g in nb.grades if g.cell_type == "code")}
            for sub in gb.assignment_submissions(assignment)}
    return maxima, students
