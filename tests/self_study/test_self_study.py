"""Studying on your own, the parts that need no grading run: `make exercise` never overwrites work, and
`make check-exercise` says in a sentence what is wrong with the learner's files (and what to do) before grading, or what
to install when there is no sandbox. test_self_study_learner.py beside it runs the whole path from a fresh clone.
"""
import json
import os
import re

import pytest

from classroom import cells
from classroom.self_study import exercise, grade_exercise, score_table
from classroom.sandbox import launch
from coursekit.trial_course import ASSIGNMENT, RELEASED
from coursekit.repository import ROOT

RELEASE = RELEASED.parent
NOTEBOOKS = [ASSIGNMENT, "intuition_quiz"]


def released(name):
    return json.loads((RELEASE / f"{name}.ipynb").read_text())


@pytest.fixture
def work(tmp_path):
    """A learner's folder holding both released notebooks as they were handed out."""
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    for name in NOTEBOOKS:
        (folder / f"{name}.ipynb").write_bytes((RELEASE / f"{name}.ipynb").read_bytes())
    return folder


def sparse(path, size):
    with open(path, "wb") as file:
        file.truncate(size)


def problems(folder):
    return grade_exercise.problems(str(folder), NOTEBOOKS, str(RELEASE))


def test_exercise_copies_what_is_missing_and_keeps_what_is_there(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / f"{ASSIGNMENT}.ipynb").write_text("my answers")
    copied, kept = exercise.copy_missing(str(RELEASE), str(target))
    assert (copied, kept) == (["intuition_quiz.ipynb"], [f"{ASSIGNMENT}.ipynb"])
    assert (target / f"{ASSIGNMENT}.ipynb").read_text() == "my answers"
    assert (target / "intuition_quiz.ipynb").read_bytes() == (RELEASE / "intuition_quiz.ipynb").read_bytes()


def test_the_notebooks_as_handed_out_can_be_graded(work):
    assert problems(work) == []


def test_a_notebook_without_any_graded_cell_is_graded_as_a_class_s_would_be(work):
    """The grader puts deleted grade cells back (RepairGradeCells), so such a notebook is graded, not refused."""
    nb = released(ASSIGNMENT)
    nb["cells"] = [cell for cell in nb["cells"] if not cells.nbgrader(cell)]
    (work / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb))
    assert problems(work) == []


def test_no_folder_yet_says_to_run_make_exercise(tmp_path):
    [said] = problems(tmp_path / ASSIGNMENT)
    assert "is no" in said and "run `make exercise`" in said


def test_a_missing_notebook_is_named_with_what_the_folder_holds(work):
    (work / "intuition_quiz.ipynb").rename(work / "intuition_quiz (1).ipynb")
    [said] = problems(work)
    assert said.startswith(f"{os.path.relpath(work / 'intuition_quiz.ipynb')} is not there")
    assert "intuition_quiz (1).ipynb" in said and "make exercise" in said


@pytest.mark.parametrize("replace, words", [
    (lambda path: path.write_bytes(b"\x89PNG\r\n\x1a\n not a notebook"), "is not a notebook JupyterLab can open"),
    (lambda path: path.write_text('{"cells": [], "say": "JSON, but no notebook"}'),
     "is not a notebook JupyterLab can open"),
    (lambda path: path.symlink_to(RELEASE / f"{ASSIGNMENT}.ipynb"), "is a symbolic link, not a notebook file"),
    (lambda path: path.mkdir(), "is a folder, not a notebook file"),
    (lambda path: sparse(path, 21 * 2 ** 20), "is 21 MiB, more than the grader reads"),
    (lambda path: path.write_text(json.dumps(released("intuition_quiz"))),
     "holds the cells of intuition_quiz.ipynb, not those of score_gradient.ipynb"),
])
def test_a_file_that_cannot_be_graded_gets_a_sentence_saying_what_to_do(work, replace, words):
    path = work / f"{ASSIGNMENT}.ipynb"
    path.unlink()
    replace(path)
    [said] = problems(work)
    assert said.startswith(os.path.relpath(path)) and words in said, said
    assert "make exercise" in said or "save it" in said


def test_a_notebook_of_another_assignment_is_refused(work):
    nb = released(ASSIGNMENT)
    for cell in nb["cells"]:
        if cells.grade_id(cell):
            cell["metadata"]["nbgrader"]["grade_id"] = "problem1_" + cells.grade_id(cell)
    (work / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb))
    [said] = problems(work)
    assert "is not this exercise's notebook" in said and "another assignment" in said


def test_every_graded_cell_lies_in_the_part_the_notebook_announces():
    """The parts printed are the notebook's level-2 headings: the points of their checks add up to what the
    notebook's opening cell announces for each part ("**Part 1 (15 points):**")."""
    from nbgrader.coursedir import CourseDirectory

    headings = score_table.part_headings(CourseDirectory(root=str(ROOT)), ASSIGNMENT, ASSIGNMENT)
    nb = released(ASSIGNMENT)
    announced = {f"Part {n}": float(points) for n, points in
                 re.findall(r"\*\*Part (\d+) \((\d+) points\)", cells.source(nb["cells"][0]))}
    totals = {}
    for cell in nb["cells"]:
        if cells.is_grade(cell):
            part = headings[cells.grade_id(cell)].split(":")[0]
            totals[part] = totals.get(part, 0.0) + cells.nbgrader(cell)["points"]
    assert announced and totals == announced


def test_the_written_derivation_is_the_one_answer_left_to_a_teacher():
    """What a teacher grades by hand (nbgrader's manually graded answers) is left out of the scores printed here, and
    of full marks: in the exercise, the written derivation and only it; nothing in the quiz."""
    from nbgrader.coursedir import CourseDirectory

    coursedir = CourseDirectory(root=str(ROOT))
    assert score_table.by_hand_points(coursedir, ASSIGNMENT, ASSIGNMENT) == {"derivation": 3.0}
    assert score_table.by_hand_points(coursedir, ASSIGNMENT, "intuition_quiz") == {}


def test_without_bubblewrap_it_says_what_to_install_and_offers_the_unsandboxed_route(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(launch, "bwrap_path", lambda: None)
    monkeypatch.chdir(tmp_path)
    assert grade_exercise.check_exercise_command() == 2
    said = capsys.readouterr().err
    assert "bubblewrap (`bwrap`) is not installed" in said and "sudo apt-get install bubblewrap" in said
    assert "make check-exercise CHECK_ARGS=--no-sandbox" in said
    assert list(tmp_path.iterdir()) == []  # nothing made, nothing graded


def test_an_unknown_assignment_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert grade_exercise.check_exercise_command("problem_set_9", str(tmp_path), sandboxed=False) == 2
    assert "this course has no assignment 'problem_set_9'" in capsys.readouterr().err
