"""classroom.decisions: the course's decisions (one student's extension, students dropped for good, a damaged
decisions file) and the graded quiz's key."""
import datetime
import json
import os
import shutil

import pytest

from classroom.decisions import quiz_key
from classroom.decisions import store as decisions
from coursekit.trial_course import COURSE_ID
from coursekit.repository import ROOT

UTC = datetime.datetime


# ---- the course's decisions --------------------------------------------------------------------------------------
class Course:
    """The little of nbgrader's CourseDirectory the decisions read: root, gradebook, course id, folders."""

    def __init__(self, root, gradebook, due):
        from nbgrader.api import Gradebook

        self.root, self.course_id, self.db_url = str(root), COURSE_ID, f"sqlite:///{root / 'gradebook.db'}"
        self.submitted_directory, self.student_id = "submitted", ""
        shutil.copyfile(gradebook, root / "gradebook.db")
        with Gradebook(self.db_url, self.course_id) as gb:
            gb.add_assignment("hw", duedate=due)
            gb.add_student("alice")

    def format_path(self, nbgrader_step, student_id, assignment_id, escape=False):
        return os.path.join(self.root, nbgrader_step, student_id, assignment_id)


def test_an_extension_is_one_students_later_due_date(tmp_path, empty_gradebook):
    place = Course(tmp_path, empty_gradebook, UTC(2026, 12, 1, 14, 5))
    said = decisions.grant(place, "hw", "alice", "2026-12-03 09:05:00 -0500")
    assert "2026-12-03 14:05:00 UTC" in said
    data = decisions.read(place.root)
    assert decisions.due_date(data, "hw", "alice", UTC(2026, 12, 1, 14, 5)) == UTC(2026, 12, 3, 14, 5)
    assert decisions.due_date(data, "hw", "bob", UTC(2026, 12, 1, 14, 5)) == UTC(2026, 12, 1, 14, 5)
    with pytest.raises(decisions.DecisionError, match="an extension gives more time"):
        decisions.grant(place, "hw", "alice", "2026-11-30 09:05:00 -0500")
    with pytest.raises(decisions.DecisionError, match="no assignment 'hx'"):
        decisions.grant(place, "hx", "alice", "2026-12-03 09:05:00 -0500")
    assert "no extension of hw any more" in decisions.grant(place, "hw", "alice", None)
    assert decisions.extension(decisions.read(place.root), "hw", "alice") is None


def test_dropping_removes_from_the_gradebook_and_is_kept(tmp_path, empty_gradebook):
    from nbgrader.api import Gradebook

    place = Course(tmp_path, empty_gradebook, None)
    with pytest.raises(decisions.DecisionError, match="did you mean 'alice'"):
        decisions.drop(place, "alcie")
    decisions.drop(place, "alice")
    assert decisions.dropped(decisions.read(place.root)) == {"alice"}
    with Gradebook(place.db_url, place.course_id) as gb:
        assert [s.id for s in gb.students] == []
    decisions.drop(place, "alice", undo=True)
    assert decisions.dropped(decisions.read(place.root)) == set()


def test_a_damaged_decisions_file_stops_whoever_reads_it(tmp_path):
    (tmp_path / decisions.FILE).write_text("{not json")
    with pytest.raises(decisions.DecisionError, match="restore it from a backup"):
        decisions.read(tmp_path)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert decisions.read(fresh) == {"format": 1, "extensions": {}, "dropped": {}, "quiz_keys": {}}


# ---- the quiz key ------------------------------------------------------------------------------------------------
def test_the_quiz_key_is_its_checks_hidden_parts_included():
    quiz = json.loads((ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb").read_text())
    checks = [(c["metadata"]["nbgrader"]["grade_id"], "".join(c["source"])) for c in quiz["cells"]
              if c["metadata"].get("nbgrader", {}).get("grade")]
    assert len(checks) == 5 and quiz_key.digest(checks) is not None
    edited = [(name, source.replace("_key = ", "_key  = ")) for name, source in checks]
    assert quiz_key.digest(edited) != quiz_key.digest(checks)
    assert quiz_key.digest([("values_match_reference", "assert True")]) is None  # not a quiz's check
