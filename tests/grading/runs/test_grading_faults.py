"""Grading state heals itself: every fault an instructor meets ends, after at most one plain `make autograde`, with
exactly the scores a clean grading gives, and grading part of a class (a student, a notebook) touches only that part.

Faults are injected into the real driver (`python -m classroom.autograde`) by a wrapper script that replaces one of
its functions with one that signals the process (SIGKILL, SIGHUP, SIGINT, SIGTERM) or raises a disk-full error at a
chosen point of the transaction; nothing in the driver knows about the tests.
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coursekit import forked_commands, trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID, SUBMISSIONS

pytestmark = pytest.mark.integration

CODE = {"right": (SUBMISSIONS / "correct_matmul.py").read_text(),
        "wrong": (SUBMISSIONS / "wrong_missing_alpha_factor.py").read_text()}
FIRST = {"alice": "right", "bob": "wrong"}
AGAIN = {"alice": "wrong", "bob": "right"}  # handed in again after the first grading

INJECT = """
import errno, os, signal, sys
from classroom.grading import {module} as target
original, calls = target.{name}, []
def faulty(*args, **kwargs):
    calls.append(1)
    if len(calls) == {nth} and {when!r} == "before":
        {action}
    result = original(*args, **kwargs)
    if len(calls) == {nth} and {when!r} == "after":
        {action}
    return result
target.{name} = faulty
from classroom.autograde import main
sys.exit(main(sys.argv[1:]))
"""
KILL = "os.kill(os.getpid(), signal.{signal}); import time; time.sleep(30)"
DISK_FULL = "raise OSError(errno.ENOSPC, 'No space left on device')"


def hand_in(place, who_codes):
    for who, code in who_codes.items():
        folder = trial_course.write_submission(place, who, trial_course.submission(CODE[code]))
        (folder / "timestamp.txt").write_text(str(datetime.datetime.now(datetime.timezone.utc)))


def driver(place, *flags, module=None, name=None, when="after", nth=1, action=None, wait=True):
    """Run the driver as `make autograde` does, optionally with one fault injected."""
    command = [sys.executable, "-m", "classroom.autograde"]
    if module:
        command = [sys.executable, "-c", INJECT.format(module=module, name=name, nth=nth, when=when, action=action)]
    proc = forked_commands.popen([*command, ASSIGNMENT, *trial_course.AUTOGRADE_FLAGS, *flags], cwd=place,
                                 env=trial_course.nbgrader_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
    if not wait:
        return proc
    out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def totals(place):
    """{student: {grade_id: score}} of score_gradient.ipynb's checks."""
    return {who: {k: v for k, v in grades.items() if not k.startswith("quiz_")}
            for who, grades in trial_course.scores(place).items()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class graded once (FIRST), to copy."""
    place = trial_course.make_course(tmp_path_factory.mktemp("graded") / "course")
    hand_in(place, FIRST)
    result = driver(place)
    assert result.returncode == 0, result.stderr[-3000:]
    return place


@pytest.fixture(scope="module")
def reference(graded):
    """{kind of work: {grade_id: score}} from the clean grading of `graded` (FIRST holds one student of each)."""
    return {FIRST[who]: scores for who, scores in totals(graded).items()}


@pytest.fixture
def copy_of(tmp_path):
    def make(place):
        target = tmp_path / "course"
        shutil.copytree(place, target, symlinks=True)
        return target
    return make


def expect(reference, state):
    return {who: reference[code] for who, code in state.items()}


def assert_clean_and_settled(place, reference, state, settled=False):
    """One plain run ends with the scores of a clean grading (and, if `settled`, a second one grades nothing)."""
    result = driver(place)
    assert result.returncode == 0, result.stderr[-3000:]
    assert totals(place) == expect(reference, state)
    if settled:
        again = driver(place)
        assert again.returncode == 0 and "0 graded now" in again.stderr, again.stderr[-2000:]


@pytest.mark.parametrize("module, name, when, nth, signal", [
    ("staging", "_autograde", "after", 2, "SIGHUP"),            # graded in staging, nothing committed
    ("commit", "_write_gradebook", "after", 1, "SIGKILL"),      # gradebook written, folder not swapped
    ("record", "write", "after", 2, "SIGINT"),                  # record written, folder not swapped
])
def test_a_regrade_killed_anywhere_is_finished_by_the_next_plain_run(graded, copy_of, reference, module, name, when,
                                                                     nth, signal):
    place = copy_of(graded)
    hand_in(place, AGAIN)
    killed = driver(place, module=module, name=name, when=when, nth=nth, action=KILL.format(signal=signal))
    assert killed.returncode != 0
    assert_clean_and_settled(place, reference, {**FIRST, **AGAIN}, settled=True)


def test_a_first_grading_killed_leaves_no_zero_behind(tmp_path, reference):
    place = trial_course.make_course(tmp_path / "course")
    hand_in(place, FIRST)
    killed = driver(place, module="commit", name="_remove", when="before", nth=2,
                    action=KILL.format(signal="SIGKILL"))  # bob's new folder swapped in, nothing cleaned up
    assert killed.returncode == -9
    assert_clean_and_settled(place, reference, FIRST)
    assert "could not" not in json.dumps(trial_course.autograded_notebook(place, "bob"))


def mount_small(small):
    """Mount a 16 MiB tmpfs at `small`; False where this machine does not allow it."""
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(small)]).returncode:
        return False
    return True


def test_a_disk_that_fills_keeps_every_grade_until_there_is_room(graded, reference, tmp_path):
    """On a real file system that is full (a small tmpfs, where this machine lets root mount one), else with the
    error a full disk raises injected where the gradebook is written."""
    small = tmp_path / "small"
    small.mkdir()
    real = mount_small(small)
    try:
        place = Path(shutil.copytree(graded, small / "course", symlinks=True))
        hand_in(place, AGAIN)
        before = totals(place)
        if real:
            with open(small / "ballast", "wb", buffering=0) as fill:
                try:
                    while True:
                        fill.write(b"\0" * 4096)
                except OSError:
                    pass
            full = driver(place)
        else:
            full = driver(place, module="commit", name="_write_gradebook", when="before", nth=1, action=DISK_FULL)
        assert full.returncode == 1 and "the disk is full" in full.stderr, full.stderr[-3000:]
        assert "could not process" not in full.stderr
        after = totals(place)
        assert after["alice"] == before["alice"]  # the old grade stays until the new work is graded, never a 0
        if real:
            assert after == before
            (small / "ballast").unlink()
        else:
            assert after["bob"] == reference["right"]  # the run went on with the others
        assert_clean_and_settled(place, reference, {**FIRST, **AGAIN})
    finally:
        if real:
            subprocess.run(["umount", "-l", str(small)])


def test_a_due_date_set_later_penalises_and_flags_late_work(graded, copy_of):
    place = copy_of(graded)
    with open(place / "nbgrader_config.py", "a") as config:
        config.write('c.LateSubmissionPlugin.penalty_method = "zero"\n')
    for who, stamp in (("alice", "2026-11-02 12:00:00 UTC"), ("bob", "2026-10-30 12:00:00 UTC")):
        (place / "submitted" / who / ASSIGNMENT / "timestamp.txt").write_text(stamp)
    trial_course.nbgrader("db", "assignment", "add", ASSIGNMENT, "--duedate=2026-11-01 12:00:00 UTC", cwd=place)
    result = driver(place)
    assert result.returncode == 0 and "2 graded now" in result.stderr, result.stderr[-3000:]
    with trial_course.gradebook(place) as gb:
        scores = {s.student.id: (s.score, s.late_submission_penalty) for s in gb.assignment_submissions(ASSIGNMENT)}
    assert scores["alice"][0] == scores["alice"][1] > 0  # penalty "zero": all of alice's points taken
    assert scores["bob"][1] == 0
    trial_course.report(place)
    page = (place / "report" / f"{ASSIGNMENT}.html").read_text()
    assert "handed in 1 d 0 h 00 min after the due date; late penalty 20 points" in page


def test_a_changed_assignment_regrades_everyone_without_accusing_them(graded, copy_of):
    place = copy_of(graded)
    source = place / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    nb = json.loads(source.read_text())
    changed = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "rows_sum_to_zero")
    changed["metadata"]["nbgrader"]["points"] = 4
    source.write_text(json.dumps(nb))
    trial_course.nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=place)
    result = driver(place)
    assert result.returncode == 0 and "2 graded now" in result.stderr, result.stderr[-3000:]
    assert totals(place)["alice"]["rows_sum_to_zero"] == 4.0
    trial_course.report(place)
    assert "grade cells changed" not in (place / "report" / f"{ASSIGNMENT}.html").read_text()


def test_a_student_removed_from_the_gradebook_is_graded_again(graded, copy_of, reference):
    place = copy_of(graded)
    trial_course.nbgrader("db", "student", "remove", "alice", "--force", cwd=place)
    assert_clean_and_settled(place, reference, FIRST)
    assert trial_course.verdicts(place, "alice")  # a real autograded notebook, not an explanation page
    assert all(kind is None for kind, _ in trial_course.verdicts(place, "alice").values())


def test_a_new_submission_whose_grades_cannot_be_written_leaves_no_row(graded, copy_of):
    """nbgrader's add_submission commits on its own: a failure after it (here, a notebook the gradebook lacks) must
    still leave no submission at all, not an empty one that the formgrader would show."""
    from classroom.grading import commit, staging

    place = copy_of(graded)
    before = trial_course.scores(place)
    job = staging.Job(str(place), COURSE_ID, ASSIGNMENT, "newcomer", "", "", ["no_such_notebook"], {}, {}, {}, {})
    values = {"timestamp": None, "notebooks": {"no_such_notebook": {"penalty": 0, "grades": {}, "comments": {}}}}
    with pytest.raises(Exception):
        commit._write_gradebook(job, values, f"sqlite:///{place / 'gradebook.db'}")
    assert trial_course.scores(place) == before


def test_a_bad_option_stops_before_any_grade_is_touched(graded, copy_of):
    place = copy_of(graded)
    before, db_bytes = totals(place), (place / "gradebook.db").read_bytes()
    result = driver(place, "--force", "--AssignLatePenalties.plugin_class=nosuch.LatePlugin")
    assert result.returncode == 2 and "nosuch.LatePlugin" in result.stderr, result.stderr[-3000:]
    typo = driver(place, "--force", "--ExecuteForDisplay.timout=3")
    assert typo.returncode == 2 and "did you mean `timeout`" in typo.stderr, typo.stderr[-3000:]
    assert totals(place) == before and (place / "gradebook.db").read_bytes() == db_bytes


def test_two_runs_at_once_never_interleave(tmp_path, reference):
    place = trial_course.make_course(tmp_path / "course")
    hand_in(place, FIRST)
    gate = tmp_path / "go-on"
    first = driver(place, module="staging", name="stage", when="before", nth=1, wait=False,
                   action=f"import pathlib, time\n        while not pathlib.Path({str(gate)!r}).exists(): "
                          "time.sleep(0.1)")
    lock = place / ".grading" / "lock"
    while not (lock.exists() and lock.read_text()):
        time.sleep(0.1)
    refused = driver(place)
    assert refused.returncode == 2 and "another grading run" in refused.stderr and str(first.pid) in refused.stderr
    waiting = driver(place, "--wait", wait=False)
    gate.write_text("")
    assert first.wait() == 0 and waiting.wait() == 0
    assert "0 graded now, 2 already up to date" in waiting.stderr.read()
    assert totals(place) == expect(reference, FIRST)


def test_grading_one_student_touches_nobody_else(tmp_path, reference):
    place = trial_course.make_course(tmp_path / "course")
    hand_in(place, FIRST)
    one = driver(place, "--student", "alice")
    assert one.returncode == 0, one.stderr[-3000:]
    assert set(totals(place)) == {"alice"}
    report = trial_course.report(place)
    assert "1 students, 1 needed attention, 1 collected but not graded" in report.stdout, report.stdout  # quiz missing
    page = (place / "report" / f"{ASSIGNMENT}.html").read_text()
    assert "<td>bob</td>" in page.split("Collected but not graded")[1] and "make autograde" in page
    assert not (place / "autograded" / "bob").exists()
    rest = driver(place)
    assert rest.returncode == 0 and "1 graded now, 1 already up to date" in rest.stderr, rest.stderr[-2000:]
    assert totals(place) == expect(reference, FIRST)
    stamp = os.stat(place / "autograded" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").st_mtime_ns
    forced = driver(place, "--student", "bob", "--force")
    assert forced.returncode == 0 and "1 graded now" in forced.stderr
    assert stamp == os.stat(place / "autograded" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").st_mtime_ns


def test_grading_one_notebook_keeps_the_others_autograded_copy(graded, copy_of):
    """A notebook left out by --notebook keeps its autograded file even when no record lists it (graded by plain
    nbgrader, e.g. the formgrader's Autograde button)."""
    place = copy_of(graded)
    folder = place / "autograded" / "alice" / ASSIGNMENT
    kept = (folder / f"{ASSIGNMENT}.ipynb").read_bytes()
    recorded = json.loads((folder / ".classroom-grading.json").read_text())
    del recorded["notebooks"][ASSIGNMENT]
    (folder / ".classroom-grading.json").chmod(0o644)
    (folder / ".classroom-grading.json").write_text(json.dumps(recorded))
    result = driver(place, "--student", "alice", "--notebook", "intuition_quiz", "--force")
    assert result.returncode == 0 and "1 graded now" in result.stderr, result.stderr[-3000:]
    assert (folder / f"{ASSIGNMENT}.ipynb").read_bytes() == kept
