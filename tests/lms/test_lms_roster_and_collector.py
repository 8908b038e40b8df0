"""What the LMS route reads in: the roster that maps LMS ids to student ids, the notebook a member is, and the
plugins nbgrader's own zip_collect takes from the course's configuration."""
import json

import pytest

from classroom import course as coursedirs
from classroom.lms import collector
from classroom.lms.roster import Roster, RosterError
from tests.lms.lms_downloads import CANVAS_ROSTER, MOODLE_ROSTER, write_csv


def test_a_roster_maps_lms_ids_and_refuses_ids_that_are_not_plain_or_shared(tmp_path):
    rows = CANVAS_ROSTER + [["Twin, A", "106", "", "bob", "A", "", ""]]
    roster = Roster(write_csv(tmp_path / "r.csv", rows))
    assert roster.lms == "canvas" and roster.students["101"].student_id == "alice"
    assert roster.students["105"].refusal and roster.students["102"].refusal  # "bob" is given twice
    moodle = Roster(write_csv(tmp_path / "m.csv", MOODLE_ROSTER))
    assert moodle.lms == "moodle" and moodle.students["555"].student_id == "dave"
    with pytest.raises(RosterError, match="neither Canvas"):
        Roster(write_csv(tmp_path / "x.csv", [["name", "score"], ["a", "1"]]))


def test_nbgraders_own_zip_collect_uses_the_safe_plugins_of_the_course_configuration(root):
    config = coursedirs.course_app(root=root).config
    assert config.ZipCollectApp.extractor_plugin == "classroom.lms.extractor.SafeExtractor"
    assert config.ZipCollectApp.collector_plugin == "classroom.lms.collector.LmsCollector"


def test_a_notebook_is_known_by_its_graded_cells_and_only_a_bare_one_by_its_name(tmp_path):
    released = {"score_gradient.ipynb": {"a", "b"}, "intuition_quiz.ipynb": {"q"}}
    cell = lambda grade_id: {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": grade_id}}, "source": ""}
    cases = {"copy (1).ipynb": [cell("a")], "score_gradient.ipynb": [cell("q")], "hw2.ipynb": [cell("z")],
             "bare.ipynb": [], "intuition_quiz.ipynb": [cell("z")]}
    got = {}
    for name, content in cases.items():
        (tmp_path / name).write_text(json.dumps({"cells": content}))
        got[name] = collector.which_notebook(str(tmp_path / name), name, released)
    (tmp_path / "x.ipynb").write_text("not json")
    assert got == {"copy (1).ipynb": "score_gradient.ipynb", "score_gradient.ipynb": "intuition_quiz.ipynb",
                   "hw2.ipynb": "", "bare.ipynb": "", "intuition_quiz.ipynb": ""}
    assert collector.which_notebook(str(tmp_path / "x.ipynb"), "x.ipynb", released) is None
    (tmp_path / "score_gradient.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": ""}]}))
    assert collector.which_notebook(str(tmp_path / "score_gradient.ipynb"), "score_gradient.ipynb", released) == \
        "score_gradient.ipynb"
