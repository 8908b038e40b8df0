"""classroom.plugins.formgrader_autograde without a server: what the formgrader's Autograde button does, and what it
refuses. The button itself, in Chromium, is in tests/lab/test_formgrader_lab.py."""
import asyncio

import pytest

from classroom.grading import record
from classroom.plugins import formgrader_autograde
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS


@pytest.mark.integration
def test_the_button_grades_that_student_again_and_no_one_else(tmp_path):
    place = trial_course.make_course(tmp_path / "course")
    for student in ("alice", "bob"):
        trial_course.write_submission(place, student, trial_course.submission((SUBMISSIONS / "correct_matmul.py").read_text()))
    graded = place / "autograded" / "alice" / ASSIGNMENT / record.RECORD
    for attempt in ("first", "again"):  # pressed again, it grades again (as nbgrader's button does)
        answer = asyncio.run(formgrader_autograde.run(ASSIGNMENT, "alice", str(place)))
        assert answer["success"] is True and "1 graded now" in answer["log"], (attempt, answer)
        assert graded.exists() and not (place / "autograded" / "bob").exists(), attempt
    assert set(trial_course.scores(place)) == {"alice"}


def test_a_student_id_that_is_not_plain_is_refused_before_anything_runs(tmp_path):
    answer = asyncio.run(formgrader_autograde.run("score_gradient", "--force", str(tmp_path)))
    assert answer["success"] is False and "starts with '-'" in answer["error"], answer
    assert list(tmp_path.iterdir()) == []
