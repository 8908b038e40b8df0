"""The rules behind a semester without surprises, decided without grading anyone: due dates read right or refused,
the course's decisions (extensions, dropped students), which files may be a misnamed notebook, when grading by hand
is cleared, files written whole or not at all, a feedback page's stamp, the quiz key, the student id rule."""
import datetime
import json
import os
import shutil

import nbformat
import pytest

from classroom import atomic
from classroom.decisions import dates, quiz_key
from classroom.decisions import store as decisions
from classroom.grading import notebook_files, record, settings
from classroom.intake import BadSubmission, check_student_id
from classroom.plugins.release_feedback import page_stamp
from coursekit.course import COURSE_ID
from coursekit.repository import ROOT

UTC = datetime.datetime


# ---- due dates ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("written, utc", [
    ("2026-12-14 23:59:00 UTC", UTC(2026, 12, 14, 23, 59)),
    ("2026-12-01 09:05:00 -0500", UTC(2026, 12, 1, 14, 5)),  # nbgrader 0.9.5: 09:13:20
    ("2026-12-01 09:05:00 -05:00", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01T09:05:00-05:00", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01 09:05:00 +0530", UTC(2026, 12, 1, 3, 35)),
    ("2026-12-01 09:05:00 Z", UTC(2026, 12, 1, 9, 5)),
    ("2026-12-01 09:05:00 GMT", UTC(2026, 12, 1, 9, 5)),
    ("2026-12-01 09:05:00 EST", UTC(2026, 12, 1, 14, 5)),
    ("2026-12-01 09:05:00 CET", UTC(2026, 12, 1, 8, 5)),
    ("2026-12-01 09:05:00 America/New_York", UTC(2026, 12, 1, 14, 5)),
    ("2026-07-01 09:05:00 America/New_York", UTC(2026, 7, 1, 13, 5)),
    ("2026-12-01 09:05:00 Europe/Berlin", UTC(2026, 12, 1, 8, 5)),
    ("2015-02-02 14:58:23.948203 America/Los_Angeles", UTC(2015, 2, 2, 22, 58, 23, 948203)),  # nbgrader's tests
    ("Sun Jan 8 2017 4:31:22 PM", UTC(2017, 1, 8, 16, 31, 22)),
    ('"2026-12-14 23:59:00"', UTC(2026, 12, 14, 23, 59)),
    ("2026-12-01T09:05 -0500", UTC(2026, 12, 1, 14, 5)),  # the formgrader: its date field, a space, its zone field
    ("2026-11-30 10:00:00.123456 UTC", UTC(2026, 11, 30, 10, 0, 0, 123456)),  # nbgrader's own timestamps
])
def test_a_due_date_is_read_as_the_time_it_names(written, utc):
    assert dates.parse_due(written) == utc
    assert dates.parse_utc(written) == utc


@pytest.mark.parametrize("written, why", [
    ("2026-12-01 09:05:00 PST", "the time zone 'PST' is unknown"),
    ("2026-12-01 09:05 PM XYZ", "the time zone 'XYZ' is unknown"),
    ("2026-12-01 09:05:00 Europe/Nowhere", "the time zone 'Europe/Nowhere' is unknown"),
    ("2026-12-01 09:05:00 UTC-5", "opposite sign"),
    ("2026-12-01 09:05:00 GMT+1", "opposite sign"),
    ("2026-03-08 02:30:00 America/New_York", "does not exist"),
    ("2026-11-01 01:30:00 America/New_York", "happens twice"),
    ("2026-12-01 09:05:00 -0500 EST", "cannot be read"),
    ("soon", "cannot be read"),
    ("", "it is empty"),
])
def test_a_due_date_that_cannot_be_read_for_sure_is_refused_saying_how_to_write_it(written, why):
    with pytest.raises(dates.DueDateError) as refused:
        dates.parse_due(written)
    assert why in str(refused.value) and "2026-12-14 23:59:00 -0500" in str(refused.value)


def test_datetimes_and_none_pass_as_nbgraders_parse_utc_passes_them():
    aware = datetime.datetime(2026, 12, 1, 9, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    assert dates.parse_utc(aware) == UTC(2026, 12, 1, 14, 5) and dates.parse_utc(None) is None


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


# ---- misnamed notebooks, and what clears grading by hand --------------------------------------------------------
def _folder(tmp_path, *names):
    for name in names:
        (tmp_path / name).write_text("{}")
    return str(tmp_path)


def test_files_that_may_be_a_notebook_not_taken_are_its_suspects(tmp_path):
    found = notebook_files.handed_in_all(_folder(tmp_path, "my_answers.ipynb", "intuition_quiz.ipynb"),
                                         ["score_gradient", "intuition_quiz"])
    assert found["score_gradient"][0] is None and found["score_gradient"][2] == ("my_answers.ipynb",)
    assert "grade it by hand" in found["score_gradient"][1] and found["intuition_quiz"][2] == ()
    copies = tmp_path / "copies"
    copies.mkdir()
    found = notebook_files.handed_in_all(_folder(copies, "Copy of score_gradient.ipynb", "score_gradient-1.ipynb"),
                                         ["score_gradient", "intuition_quiz"])
    assert found["score_gradient"][2] == ("Copy of score_gradient.ipynb", "score_gradient-1.ipynb")
    assert found["intuition_quiz"][2] == ()  # copies of another notebook are not this one's
    alone = tmp_path / "alone"
    alone.mkdir()
    found = notebook_files.handed_in_all(_folder(alone, "score_gradient.ipynb"), ["score_gradient", "intuition_quiz"])
    assert found["intuition_quiz"] == (None, found["intuition_quiz"][1], ())  # simply not handed in


def test_grading_by_hand_is_cleared_only_for_work_known_to_have_changed(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    (tmp_path / "a.ipynb").write_text(nbformat.writes(nb))
    first = record.content_digest(tmp_path, "a.ipynb")
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="ran")]
    nb.metadata["widgets"] = {"state": 1}
    (tmp_path / "b.ipynb").write_text(nbformat.writes(nb))
    assert record.content_digest(tmp_path, "b.ipynb") == first  # outputs, metadata, the file's name: same work
    nb.cells[0].source = "x = 2"
    (tmp_path / "c.ipynb").write_text(nbformat.writes(nb))
    changed = record.content_digest(tmp_path, "c.ipynb")
    assert changed != first and record.content_digest(tmp_path, None) is None
    previous = {"hw": record.entry("s", "v", "g", content=first)}
    assert not record.content_changed(previous, "hw", first) and record.content_changed(previous, "hw", changed)
    assert not record.content_changed({}, "hw", changed)  # no record (autograded/ removed): nothing known, kept
    assert not record.content_changed({"hw": record.entry("s", "v", "g")}, "hw", changed)  # an earlier grader's


# ---- files whole or not at all -----------------------------------------------------------------------------------
def test_a_file_is_replaced_whole_or_left_as_it_was(tmp_path):
    path = tmp_path / "grades.csv"
    atomic.write_text(path, "old, whole\n")
    with pytest.raises(OSError):
        with atomic.replacing(path) as handle:
            handle.write("new, half")
            raise OSError(28, "No space left on device")
    assert path.read_text() == "old, whole\n" and os.listdir(tmp_path) == ["grades.csv"]
    atomic.write_text(path, "new\n")
    assert path.read_text() == "new\n" and oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---- feedback pages, the quiz key, the configuration, student ids -------------------------------------------------
def test_a_pages_stamp_is_read_whatever_the_order_of_its_attributes(tmp_path):
    for head in ('<meta name="classroom-grading" content="0a1b">', '<meta content="0a1b" name="classroom-grading"/>'):
        (tmp_path / "p.html").write_text(f"<html><head><title>x</title>{head}</head><body></body></html>")
        assert page_stamp(tmp_path / "p.html") == "0a1b"
    (tmp_path / "p.html").write_text("<html><head><title>made before stamps</title></head></html>")
    assert page_stamp(tmp_path / "p.html") is None


def test_the_quiz_key_is_its_checks_hidden_parts_included():
    quiz = json.loads((ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb").read_text())
    checks = [(c["metadata"]["nbgrader"]["grade_id"], "".join(c["source"])) for c in quiz["cells"]
              if c["metadata"].get("nbgrader", {}).get("grade")]
    assert len(checks) == 5 and quiz_key.digest(checks) is not None
    edited = [(name, source.replace("_key = ", "_key  = ")) for name, source in checks]
    assert quiz_key.digest(edited) != quiz_key.digest(checks)
    assert quiz_key.digest([("values_match_reference", "assert True")]) is None  # not a quiz's check


def test_a_launcher_given_by_its_short_name_is_no_configuration_problem():
    from traitlets.config import Config

    import classroom.sandbox.launchers  # noqa: F401 (the driver has Grader imported when it checks)

    config = Config()
    config.Grader.launcher_class = "unsandboxed"
    assert settings.problems(config) == []
    config.Grader.launcher_class = "nosuch.Launcher"
    assert any("nosuch.Launcher" in problem for problem in settings.problems(config))


def test_a_letter_that_is_not_ascii_is_refused_saying_so():
    with pytest.raises(BadSubmission) as refused:
        check_student_id("zoë")
    assert "'ë' (a letter, but not an ASCII one)" in str(refused.value)
    assert "only ASCII letters, digits" in str(refused.value) and "Linux account name" in str(refused.value)
