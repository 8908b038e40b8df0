"""classroom.lms.member_names: a member's name in Canvas's or Moodle's download, or under a pattern of the
instructor's, says whose file it is; a name no naming explains is unknown."""
import pytest

from classroom.lms import member_names as names


@pytest.mark.parametrize("name, lms, lms_id, file, late, revision", [
    ("smithbob_12345_67890_score_gradient.ipynb", "canvas", "12345", "score_gradient.ipynb", False, 0),
    ("smithbob_LATE_12345_67890_score_gradient.ipynb", "canvas", "12345", "score_gradient.ipynb", True, 0),
    ("smithbob_12345_67890_score_gradient-2.ipynb", "canvas", "12345", "score_gradient.ipynb", False, 2),
    ("obrienann_7_8_my_file_3_4.ipynb", "canvas", "7", "my_file_3_4.ipynb", False, 0),
    ("Ann Lee_12345_assignsubmission_file/score_gradient.ipynb", "moodle", "12345", "score_gradient.ipynb", False, 0),
    ("Ann Lee_12345_assignsubmission_file_/sub/score_gradient.ipynb", "moodle", "12345", "sub/score_gradient.ipynb",
     False, 0),
    ("Ann Lee_12345_assignsubmission_file_score_gradient.ipynb", "moodle", "12345", "score_gradient.ipynb", False, 0),
])
def test_canvas_and_moodle_names_say_whose_file_it_is(name, lms, lms_id, file, late, revision):
    got = names.parse(name)
    assert (got.lms, got.lms_id, got.file, got.late, got.revision) == (lms, lms_id, file, late, revision)


@pytest.mark.parametrize("name", ["README.ipynb", "score_gradient.ipynb", "folder/smithbob_1_2_x.ipynb",
                                  "anon_xyz_67890_score_gradient.ipynb", "Ann_12_assignsubmission_file"])
def test_names_no_naming_explains_are_unknown(name):
    assert names.parse(name) is None


def test_a_pattern_of_the_instructors_names_the_student_and_the_file():
    import re

    pattern = re.compile(r".*?_(?P<student_id>[a-z]+)_attempt_(?P<timestamp>[0-9-]+)_(?P<file_id>.+)")
    match = pattern.match("/course/downloaded/ps1/extracted/ps1_bitdiddle_attempt_2016-01-30-15-00-00_score.ipynb")
    got = names.from_pattern(match.groupdict())
    assert (got.lms, got.lms_id, got.is_student_id, got.file, got.timestamp) == (
        "pattern", "bitdiddle", True, "score.ipynb", "2016-01-30-15-00-00")
    assert names.from_pattern({"student_id": "x"}) is None and names.from_pattern({"file_id": "f"}) is None
