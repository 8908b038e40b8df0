"""classroom.autograde finds a course's files where nbgrader_config.py puts them: a gradebook kept elsewhere
(CourseDirectory.db_url) and a renamed submissions folder are obeyed, also for a file that is not a notebook, whose
zeros must be recorded in that gradebook and its explanation written where feedback will look."""
import pytest
from nbgrader.api import Gradebook

from classroom.trusted import failures
from coursekit import trial_course

pytestmark = pytest.mark.integration


def test_autograde_uses_the_gradebook_and_folders_the_course_configures(tmp_path):
    elsewhere = tmp_path / "records" / "marks.sqlite"
    elsewhere.parent.mkdir()
    place = trial_course.make_course(tmp_path / "course", config=(f'c.CourseDirectory.db_url = "sqlite:///{elsewhere}"\n'
                                                            'c.CourseDirectory.submitted_directory = "handed_in"\n'))
    folder = trial_course.write_submission(place, "erin", trial_course.submission("def score_gradient(A, G):\n    pass\n"))
    assert folder.parent.parent.name == "handed_in"
    (folder / f"{trial_course.ASSIGNMENT}.ipynb").write_text('{"cells": [')  # cut short: not a notebook any more

    result = trial_course.autograde(place)

    assert result.returncode == 0, result.stderr[-3000:]
    assert "erin/score_gradient: scored 0: the file you handed in is not a readable notebook" in result.stderr
    assert elsewhere.exists() and not (place / "gradebook.db").exists()
    with Gradebook(f"sqlite:///{elsewhere}") as gb:
        grades = gb.find_submission_notebook(trial_course.ASSIGNMENT, trial_course.ASSIGNMENT, "erin").grades
        assert grades and all(g.auto_score == 0.0 and g.needs_manual_grade for g in grades)
    kinds = {kind for kind, _ in trial_course.verdicts(place, "erin").values()}
    assert kinds == {failures.NOT_GRADED}
