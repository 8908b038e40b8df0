"""The LMS route (classroom/lms/, INSTRUCTORS.md "The LMS route"): an LMS's download in, grades and feedback out.

One class is graded once (the module's `journey` fixture, marked integration): a Canvas download and a Moodle download,
each made here as the LMS makes them, with an on-time, a late and a re-submitted notebook, a stray file, hostile
member names, a symbolic link, a zip bomb, an unknown id, another assignment's notebook and a student whose roster id
is a formula; collected as `make collect-zip` does, graded as `make autograde` does, exported as `make lms-grades`
does, and every row of each LMS's CSV checked against nbgrader's Gradebook. The name parsing, the zip checks, the
roster and the release zip are plain fast tests below it.
"""
import csv
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
import contextlib
from pathlib import Path
from unittest import mock

import pytest

from classroom import course as coursedirs
from classroom.lms import collect_zip as collect, collector, feedback, grades, release_zip, safezip
from classroom.lms import member_names as names
from classroom.lms.roster import Roster, RosterError
from coursekit import course
from coursekit.course import ASSIGNMENT, RELEASED, SUBMISSIONS

DUE = "2026-12-14 23:59:00 UTC"
RIGHT = (SUBMISSIONS / "correct_keepdims.py").read_text()
WRONG = (SUBMISSIONS / "wrong_transposed.py").read_text()
CANVAS_ROSTER = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "score_gradient (4321)", "Current Score"],
    ["    Points Possible", "", "", "", "", "100", "(read only)"],
    ['=HYPERLINK("http://x.example","Ames")', "101", "S101", "alice", "A", "", ""],
    ["Brown, Bob", "102", "S102", "bob", "A", "", ""],
    ["Cole, Carol", "103", "S103", "carol", "B", "", ""],
    ["Mal, Lory", "105", "S105", "=cmd|' /C calc'!A0", "B", "", ""],
]
MOODLE_ROSTER = [
    ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade", "Grade can be changed",
     "Last modified (submission)", "Last modified (grade)", "Feedback comments"],
    ["Participant 555", "Dave Diaz", "dave@uni.example", "Submitted", "", "10.00", "Yes", "-", "-", ""],
    ["Participant 556", "Erin Eve", "erin@uni.example", "Submitted", "", "10.00", "Yes", "-", "-", ""],
]


def notebook(code):
    return json.dumps(course.submission(code)).encode()


def member(zf, name, data, when, mode=0o100644):
    info = zipfile.ZipInfo(name, when)
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


OTHER_HOMEWORK = json.dumps({"cells": [{"cell_type": "code", "source": "", "metadata": {"nbgrader": {
    "grade_id": "hw2_q1", "grade": True, "solution": True, "points": 1}}, "outputs": [], "execution_count": None}],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
# Canvas's download: (member, bytes, date, Unix mode), and what becomes of each (None: placed)
CANVAS = [
    ("amesalice_101_9001_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 16, 10, 0, 0), None),  # zipped late
    ("amesalice_101_9006_notes.txt", b"my notes", (2026, 12, 16, 10, 0, 0), "not_notebook"),
    ("brownbob_LATE_102_9002_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 15, 9, 0, 0), None),
    ("colecarol_103_9004_score_gradient.ipynb", notebook(WRONG), (2026, 12, 10, 8, 0, 0), "superseded"),
    ("colecarol_103_9005_score_gradient-1.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), None),
    ("mallory_105_9009_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "bad_student_id"),
    ("stranger_999_9007_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "unknown_lms_id"),
    ("colecarol_103_9008_hw2.ipynb", OTHER_HOMEWORK, (2026, 12, 11, 8, 0, 0), "not_this_assignment"),
    ("README.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "unknown_pattern"),
    ("../../amesalice_101_9010_score_gradient.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("/tmp/amesalice_101_9011_score_gradient.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("..\\..\\evil_101_9012_x.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("brownbob_102_9013_score_gradient.ipynb", b"../../../../etc/passwd", (2026, 12, 11, 8, 0, 0), "link"),
    ("brownbob_102_9014_bomb.ipynb", b"\0" * (8 * 2 ** 20), (2026, 12, 11, 8, 0, 0), "zip_bomb"),
]
MOODLE = [
    ("Dave Diaz_555_assignsubmission_file/score_gradient.ipynb", notebook(RIGHT), (2026, 12, 13, 12, 0, 0), None),
    ("Dave Diaz_555_assignsubmission_onlinetext_/onlinetext.html", b"<p>hi</p>", (2026, 12, 13, 12, 0, 0),
     "not_notebook"),
    ("Erin Eve_556_assignsubmission_file_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 12, 9, 0, 0),
     "two_files"),
    ("Erin Eve_556_assignsubmission_file_score_gradient (1).ipynb", notebook(WRONG), (2026, 12, 12, 9, 5, 0),
     "two_files"),
]


def make_zip(path, members):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data, when, fate in members:
            member(zf, name, data, when, mode=0o120777 if fate == "link" else 0o100644)
    return path


def write_csv(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


@contextlib.contextmanager
def inside(path):
    """Run nbgrader in-process as from `path` (its cwd and its sys.path entry), then put both back."""
    cwd, syspath = os.getcwd(), list(sys.path)
    os.chdir(path)
    try:
        with mock.patch.dict(os.environ, PATH=course.nbgrader_env()["PATH"]):
            yield
    finally:
        os.chdir(cwd)
        sys.path[:] = syspath


def run(module, *args, cwd):
    result = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=course.nbgrader_env(),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return result.stdout


@pytest.fixture(scope="module")
def journey(tmp_path_factory, released_course):
    """Both downloads collected (Canvas in this process, for its decisions; Moodle as `make collect-zip` runs it),
    one autograde, both LMS CSVs (Canvas's as `make lms-grades` runs it): (course path, Canvas app, Moodle report
    text, {lms: CSV rows})."""
    tmp = tmp_path_factory.mktemp("lms")
    path = tmp / "course"
    shutil.copytree(released_course, path)  # a course made by course.make_course, release/ generated
    with open(path / "nbgrader_config.py", "a") as config:
        config.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with mock.patch.dict(os.environ, PATH=course.nbgrader_env()["PATH"]), course.gradebook(path) as gb:
        gb.update_or_create_assignment(ASSIGNMENT, duedate=DUE)
    write_csv(path / "lms" / "roster.csv", CANVAS_ROSTER)
    write_csv(path / "lms" / "moodle.csv", MOODLE_ROSTER)
    with inside(path):
        canvas = collect.collect(ASSIGNMENT, str(make_zip(tmp / "submissions.zip", CANVAS)))
    moodle = run("classroom.lms.collect_zip", ASSIGNMENT, str(make_zip(tmp / "moodle.zip", MOODLE)),
                 "--LmsRoster.path=lms/moodle.csv", cwd=path)
    graded = course.autograde(path)
    assert graded.returncode == 0, graded.stderr[-3000:]
    run("classroom.lms.grades", ASSIGNMENT, "--lms", "canvas", cwd=path)
    with inside(path):
        grades.main([ASSIGNMENT, "--roster", "lms/moodle.csv"])
    rows = {lms: list(csv.reader(open(path / f"lms/{ASSIGNMENT}-{lms}-grades.csv", encoding="utf-8")))
            for lms in ("canvas", "moodle")}
    return path, canvas, moodle, rows


def gradebook_scores(path):
    """{student: score after the late penalty} and the assignment's max score, read with nbgrader's Gradebook."""
    with course.gradebook(path) as gb:
        found = {s.student.id: max(0.0, s.score - s.late_submission_penalty) for s in gb.assignment_submissions(
            ASSIGNMENT)}
        return found, gb.find_assignment(ASSIGNMENT).max_score


@pytest.mark.integration
def test_each_canvas_file_is_placed_or_refused_for_its_reason(journey):
    path, app, _, _ = journey
    refused = {r.member: r.kind for r in app.extractor_plugin_inst.refused + app.collector_plugin_inst.refused}
    assert refused == {name: fate for name, _, _, fate in CANVAS if fate}
    placed = {p.member: p.student_id for p in app.collector_plugin_inst.placed}
    assert placed == {CANVAS[0][0]: "alice", CANVAS[2][0]: "bob", CANVAS[4][0]: "carol"}
    assert (path / "submitted/carol" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes() == CANVAS[4][1]
    outside = {p.name for p in path.parent.rglob("*") if path not in p.parents and p != path}
    assert outside == {"submissions.zip", "moodle.zip"}
    extracted = path / "downloaded" / ASSIGNMENT / "extracted"
    assert {p.name for p in extracted.rglob("*") if p.is_file()} <= {  # what Moodle's collect left
        Path(name).name for name, _, _, fate in MOODLE if fate != "not_notebook"}


@pytest.mark.integration
def test_submission_times_come_from_the_zip_and_canvas_on_time_is_never_late(journey):
    path = journey[0]
    stamp = lambda student: (path / "submitted" / student / ASSIGNMENT / "timestamp.txt").read_text()
    assert stamp("alice").startswith("2026-12-14 23:59:00")  # zipped after the due date, not marked LATE
    assert stamp("bob").startswith("2026-12-15 09:00:00")
    assert stamp("carol").startswith("2026-12-11 08:00:00")  # the re-submission's
    assert stamp("dave").startswith("2026-12-13 12:00:00")
    with course.gradebook(path) as gb:
        bob = gb.find_submission(ASSIGNMENT, "bob")
        assert bob.score > 0 and bob.late_submission_penalty == bob.score  # penalty_method "zero"
        assert gb.find_submission(ASSIGNMENT, "alice").late_submission_penalty == 0


@pytest.mark.integration
def test_the_moodle_download_is_placed_by_participant_and_its_refusals_reported(journey):
    path, _, report, _ = journey
    assert (path / "submitted/dave" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes() == MOODLE[0][1]
    assert not (path / "submitted/erin").exists()
    placed, not_placed = report.split("Not placed:")
    for name, _, _, fate in MOODLE:
        assert (repr(name) in not_placed, repr(name) in placed) == (bool(fate), not fate), report


@pytest.mark.integration
def test_canvas_csv_rows_are_the_gradebooks_scores_on_canvas_points(journey):
    path, _, _, rows = journey
    scores, max_score = gradebook_scores(path)
    table = rows["canvas"]
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "score_gradient (4321)"]
    assert table[1] == ["    Points Possible", "", "", "", "", "100"]
    got = {row[3]: row[5] for row in table[2:]}
    assert set(got) == {"alice", "bob", "carol", "'=cmd|' /C calc'!A0"}
    for student in ("alice", "bob", "carol"):
        assert float(got[student]) == pytest.approx(round(scores[student] * 100 / max_score, 2))
    assert float(got["alice"]) > 0 and float(got["bob"]) == 0 and got["'=cmd|' /C calc'!A0"] == ""
    assert table[2][0].startswith("'=HYPERLINK")  # the name, made inert


@pytest.mark.integration
def test_moodle_csv_rows_are_the_gradebooks_scores_on_the_worksheets_maximum(journey):
    path, _, _, rows = journey
    scores, max_score = gradebook_scores(path)
    header, *body = rows["moodle"]
    assert header == list(grades.MOODLE_COLUMNS)
    got = {row[0]: row for row in body}
    assert float(got["Participant 555"][3]) == pytest.approx(round(scores["dave"] * 10 / max_score, 2))
    assert got["Participant 556"][3] == "" and got["Participant 555"][2] == "dave@uni.example"


@pytest.mark.integration
def test_feedback_pages_are_named_for_each_lms_bulk_upload(journey):
    path = journey[0]
    for student in ("alice", "dave"):
        page = path / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<p>{student}</p>")
    out = io.StringIO()
    with inside(path), contextlib.redirect_stdout(out):
        feedback.main([ASSIGNMENT])
        feedback.main([ASSIGNMENT, "--roster", "lms/moodle.csv"])
    with zipfile.ZipFile(path / f"lms/{ASSIGNMENT}-canvas-feedback.zip") as zf:
        assert zf.namelist() == ["amesalice_101_9001_score_gradient-feedback.html"]
        assert zf.read(zf.namelist()[0]) == b"<p>alice</p>"
    assert "dave: not in the roster" in out.getvalue()
    with zipfile.ZipFile(path / f"lms/{ASSIGNMENT}-moodle-feedback.zip") as zf:
        assert zf.namelist() == ["Dave Diaz_555_assignfeedback_file_score_gradient-feedback.html"]


# ---- fast: names, zip checks, roster, release zip ------------------------------------------------------------------
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


def test_a_pattern_of_the_instructors_is_tried_first():
    import re

    pattern = re.compile(r".*?_(?P<student_id>[a-z]+)_attempt_(?P<timestamp>[0-9-]+)_(?P<file_id>.+)")
    got = names.parse("ps1_bitdiddle_attempt_2016-01-30-15-00-00_score_gradient.ipynb", pattern)
    assert (got.lms, got.lms_id, got.is_student_id, got.file) == ("pattern", "bitdiddle", True,
                                                                   "score_gradient.ipynb")


@pytest.mark.parametrize("name", ["../x.ipynb", "a/../../x.ipynb", "/etc/x.ipynb", "C:x.ipynb", "a\\b.ipynb",
                                  "a//b.ipynb", "./x.ipynb", "x\n.ipynb", "x\x00.ipynb"])
def test_member_names_that_could_leave_the_folder_are_refused(name):
    assert safezip.name_problem(name)


def zip_of(*members, **caps):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data, mode in members:
            member(zf, name, data, (2026, 1, 1, 0, 0, 0), mode)
    return safezip.SafeZip(zipfile.ZipFile(buffer), **caps)


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_links_devices_bombs_and_oversized_members_are_judged_before_any_read():
    reader = zip_of(("link.ipynb", b"/etc/passwd", stat.S_IFLNK | 0o777), ("fifo.ipynb", b"", stat.S_IFIFO | 0o644),
                    ("bomb.ipynb", b"\0" * 2 ** 20, 0o100644), ("big.ipynb", os.urandom(3000), 0o100644),
                    ("ok.ipynb", b"{}", 0o644), ("ok.ipynb", b"{}", 0o100644), max_member_bytes=2000)
    with mock.patch.object(reader.zf, "open", side_effect=AssertionError("read")):
        kinds = [(info.filename, refusal and refusal.kind) for info, refusal in reader.members()]
    assert kinds == [("link.ipynb", "link"), ("fifo.ipynb", "link"), ("bomb.ipynb", "zip_bomb"),
                     ("big.ipynb", "too_large"), ("ok.ipynb", None), ("ok.ipynb", "duplicate_member")]


def test_a_read_stops_one_byte_past_the_cap_whatever_the_member_declares():
    reader = zip_of(("a.ipynb", os.urandom(5000), 0o100644), ("b.ipynb", os.urandom(900), 0o100644),
                    ("c.ipynb", os.urandom(900), 0o100644), max_member_bytes=1000, max_total_bytes=1500)
    asked, opened = [], reader.zf.open

    def counting_open(info):
        member = opened(info)
        read = member.read
        member.read = lambda n=-1: asked.append(n) or read(n)
        return member

    with mock.patch.object(reader.zf, "open", counting_open):
        a, b, c = reader.zf.infolist()
        assert reader.read(a)[1].kind == "too_large" and asked == [1001]
        assert reader.read(b)[0] is not None and reader.read(c)[1].kind == "too_much" and asked[-1] == 601


def test_past_the_member_cap_the_rest_of_the_zip_is_not_read():
    reader = zip_of(*[(f"{i}.ipynb", b"{}", 0o100644) for i in range(5)], max_members=3)
    judged = list(reader.members())
    assert [r and r.kind for _, r in judged] == [None, None, None, "too_many"]


def test_a_roster_maps_lms_ids_and_refuses_ids_that_are_not_plain_or_shared(tmp_path):
    rows = CANVAS_ROSTER + [["Twin, A", "106", "", "bob", "A", "", ""]]
    roster = Roster(write_csv(tmp_path / "r.csv", rows))
    assert roster.lms == "canvas" and roster.students["101"].student_id == "alice"
    assert roster.students["105"].refusal and roster.students["102"].refusal  # "bob" is given twice
    moodle = Roster(write_csv(tmp_path / "m.csv", MOODLE_ROSTER))
    assert moodle.lms == "moodle" and moodle.students["555"].student_id == "dave"
    with pytest.raises(RosterError, match="neither Canvas"):
        Roster(write_csv(tmp_path / "x.csv", [["name", "score"], ["a", "1"]]))


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


def test_nbgraders_own_zip_collect_uses_the_safe_plugins_of_the_course_configuration(root):
    config = coursedirs.course_app(root=root).config
    assert config.ZipCollectApp.extractor_plugin == "classroom.lms.extractor.SafeExtractor"
    assert config.ZipCollectApp.collector_plugin == "classroom.lms.collector.LmsCollector"


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
