"""The LMS route (classroom/lms/, INSTRUCTORS.md "The LMS route"): an LMS's download in, grades and feedback out.

One class is graded once (the module's `journey` fixture, marked integration): a Canvas download and a Moodle download,
each made here as the LMS makes them, with an on-time, a late and a re-submitted notebook, a stray file, hostile member
names, a symbolic link, a zip bomb, an unknown id, another assignment's notebook and a student whose roster id is a
formula (tests/lms/lms_downloads.py); collected as `make collect-zip` does, graded as `make autograde` does, exported as
`make lms-grades` does, and every row of each LMS's CSV checked against nbgrader's Gradebook. The name parsing, the zip
checks, the roster and what goes back to the LMS are plain fast tests beside it (test_lms_member_names.py,
test_lms_safe_zip.py, test_lms_roster_and_collector.py, test_lms_uploads.py).
"""
import contextlib
import csv
import os
import shutil
import sys
import zipfile
from pathlib import Path
from unittest import mock

import pytest
from nbgrader.api import Grade

from classroom.lms import collect_zip, grades
from coursekit import forked_commands, trial_course
from coursekit.trial_course import ASSIGNMENT
from tests.lms.lms_downloads import CANVAS, CANVAS_ROSTER, MOODLE, MOODLE_ROSTER, make_zip, write_csv

DUE = "2026-12-14 23:59:00 UTC"


@contextlib.contextmanager
def inside(path):
    """Run nbgrader in-process as from `path` (its cwd and its sys.path entry), then put both back."""
    cwd, syspath = os.getcwd(), list(sys.path)
    os.chdir(path)
    try:
        with mock.patch.dict(os.environ, PATH=trial_course.nbgrader_env()["PATH"]):
            yield
    finally:
        os.chdir(cwd)
        sys.path[:] = syspath


def run(subcommand, *args, cwd):
    result = forked_commands.run([sys.executable, "-m", "classroom.app", subcommand, *args], cwd=cwd,
                                 env=trial_course.nbgrader_env(), capture_output=True, text=True)
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
    with mock.patch.dict(os.environ, PATH=trial_course.nbgrader_env()["PATH"]), trial_course.gradebook(path) as gb:
        gb.update_or_create_assignment(ASSIGNMENT, duedate=DUE)
    write_csv(path / "lms" / "roster.csv", CANVAS_ROSTER)
    write_csv(path / "lms" / "moodle.csv", MOODLE_ROSTER)
    with inside(path):
        canvas = collect_zip.zip_collect(ASSIGNMENT, str(make_zip(tmp / "submissions.zip", CANVAS)))
    moodle = run("collect-zip", ASSIGNMENT, str(make_zip(tmp / "moodle.zip", MOODLE)),
                 "--LmsRoster.path=lms/moodle.csv", cwd=path)
    graded = trial_course.autograde(path)
    assert graded.returncode == 0, graded.stderr[-3000:]
    # Manual Grading is finished before the grades go back: each derivation read, 0 given (scores as graded)
    with mock.patch.dict(os.environ, PATH=trial_course.nbgrader_env()["PATH"]), trial_course.gradebook(path) as gb:
        for grade in gb.db.query(Grade).filter(Grade.needs_manual_grade):
            grade.manual_score, grade.needs_manual_grade = 0.0, False
        gb.db.commit()
    run("lms-grades", ASSIGNMENT, "--lms", "canvas", cwd=path)
    run("lms-grades", ASSIGNMENT, "--roster", "lms/moodle.csv", cwd=path)
    rows = {lms: list(csv.reader(open(path / f"lms/{ASSIGNMENT}-{lms}-grades.csv", encoding="utf-8")))
            for lms in ("canvas", "moodle")}
    return path, canvas, moodle, rows


def gradebook_scores(path):
    """{student: score after the late penalty} and the assignment's max score, read with nbgrader's Gradebook."""
    with trial_course.gradebook(path) as gb:
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
    with trial_course.gradebook(path) as gb:
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
    said = run("lms-feedback", ASSIGNMENT, cwd=path)
    said += run("lms-feedback", ASSIGNMENT, "--roster", "lms/moodle.csv", cwd=path)
    with zipfile.ZipFile(path / f"lms/{ASSIGNMENT}-canvas-feedback.zip") as zf:
        assert zf.namelist() == ["amesalice_101_9001_score_gradient-feedback.html"]
        assert zf.read(zf.namelist()[0]) == b"<p>alice</p>"
    assert "dave: not in the roster" in said
    with zipfile.ZipFile(path / f"lms/{ASSIGNMENT}-moodle-feedback.zip") as zf:
        assert zf.namelist() == ["Dave Diaz_555_assignfeedback_file_score_gradient-feedback.html"]
