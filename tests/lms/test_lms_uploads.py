"""What the LMS route hands back to the LMS: the release zip, the feedback pages named for each LMS's bulk upload
and the grade rows on the LMS's points."""
import zipfile
from pathlib import Path

from classroom import course as coursedirs
from classroom.lms import feedback, grades, release_zip
from classroom.lms.roster import Roster
from coursekit.trial_course import ASSIGNMENT, RELEASED
from tests.lms.lms_downloads import CANVAS_ROSTER, MOODLE_ROSTER, write_csv


def test_the_release_zip_is_the_same_bytes_each_time_and_holds_release_only(root, tmp_path):
    coursedir = coursedirs.course_directory(root=root)
    files = release_zip.release_files(coursedir, ASSIGNMENT)
    first = release_zip.write_zip(files, str(tmp_path / "a.zip"))
    second = release_zip.write_zip(files, str(tmp_path / "b.zip"))
    assert Path(first).read_bytes() == Path(second).read_bytes()
    with zipfile.ZipFile(first) as zf:
        assert zf.read(f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb") == RELEASED.read_bytes()
        assert sorted(zf.namelist()) == [f"{ASSIGNMENT}/intuition_quiz.ipynb", f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"]


def test_feedback_names_follow_canvas_and_moodle_matching(tmp_path):
    roster = Roster(write_csv(tmp_path / "m.csv", MOODLE_ROSTER))
    members, missing = feedback.plan(roster, {}, {"dave": [("p.html", "score_gradient")], "zed": [("z.html", "x")]})
    assert members == [("p.html", "Dave Diaz_555_assignfeedback_file_score_gradient-feedback.html")]
    assert [student for student, _ in missing] == ["zed"]
    entry = {"lms": "canvas", "member": "smithbob_LATE_12345_67890_score_gradient-1.ipynb"}
    assert feedback.canvas_name(entry, "score_gradient") == "smithbob_LATE_12345_67890_score_gradient-feedback.html"


def test_grade_rows_put_scores_on_the_lms_points_and_leave_no_submission_empty(tmp_path):
    canvas = Roster(write_csv(tmp_path / "c.csv", CANVAS_ROSTER))
    table = grades.rows(canvas, ASSIGNMENT, {"alice": 10.5, "bob": None, "carol": 0.0}, max_score=21.0)
    assert table[1][-1] == 100 and [row[-1] for row in table[2:]] == [50.0, None, 0.0, None]
    no_points = Roster(write_csv(tmp_path / "n.csv", [CANVAS_ROSTER[0][:5] + [ASSIGNMENT]] +
                                 [row[:6] for row in CANVAS_ROSTER[2:]]))
    assert grades.rows(no_points, ASSIGNMENT, {"alice": 10.5}, max_score=21.0)[1][-1] == 21.0
    moodle = Roster(write_csv(tmp_path / "m.csv", MOODLE_ROSTER))
    assert [row[3:5] for row in grades.rows(moodle, ASSIGNMENT, {"dave": 7.0}, 21.0)[1:]] == [[3.33, 10.0],
                                                                                            [None, 10.0]]
    assert [grades.points_text(x) for x in (80.0, 7.5, 3.333, 1e6)] == ["80", "7.5", "3.33", "1000000"]
