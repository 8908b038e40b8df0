"""What a grading run and a decision say about the students they touch: a run names every student whose score it
changed, from what to what; an extension for a student nobody knows is refused naming the nearest real one (the
semester class of tests/grading/semester/semester_class.py, changed by the commands INSTRUCTORS.md gives)."""
import json

import pytest

from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT
from tests.grading.semester import semester_class as term
from tests.grading.semester.semester_class import DUE, place, semester  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.integration


def summary(result):
    return [line for line in result.stderr.splitlines() if line.startswith("[classroom.autograde]")]


def test_a_run_that_changes_scores_names_every_student_from_what_to_what(place):
    before = term.gradebook(place)
    folder = place / "submitted" / "alice" / ASSIGNMENT  # alice hands in again, on time, with a wrong answer
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(trial_course.submission(
        (trial_course.SUBMISSIONS / "wrong_returns_A_times_G.py").read_text())))
    (folder / "timestamp.txt").write_text(term.stamp(DUE - term.datetime.timedelta(hours=2)))
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0, run.stderr[-3000:]
    old = sum(score for score, _ in before["alice"]["notebooks"].values())
    new = sum(score for score, _ in term.gradebook(place)["alice"]["notebooks"].values())
    assert new < old
    lines = summary(run)
    named = [line for line in lines if " -> " in line]
    assert any("1 score changed by this run" in line for line in lines), lines
    assert [line.split("]", 1)[1].strip() for line in named] == [f"alice: {old:g} -> {new:g}"], lines
    again = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--force")  # the same work graded again: nobody named
    assert again.returncode == 0 and not [line for line in summary(again) if "changed by this run" in line]


def test_an_extension_for_a_student_nobody_knows_is_refused_naming_the_nearest(place):
    kept = (place / "decisions.json").read_text() if (place / "decisions.json").exists() else None
    typo = trial_course.make(place, "extension", "STUDENT=alcie", "DUEDATE=2030-01-01 12:00:00 UTC")
    assert typo.returncode == 2, typo.stdout + typo.stderr[-2000:]
    assert "no student 'alcie'" in typo.stderr and "(did you mean 'alice'?)" in typo.stderr
    assert ((place / "decisions.json").read_text() if (place / "decisions.json").exists() else None) == kept
    real = trial_course.make(place, "extension", "STUDENT=alice", "DUEDATE=2030-01-01 12:00:00 UTC")
    assert real.returncode == 0 and "alice's work" in real.stdout, real.stderr[-2000:]


def test_the_report_judges_a_student_with_an_extension_by_their_own_due_date(place):
    from classroom.report import read_summary

    given = trial_course.make(place, "extension", "STUDENT=alice", "DUEDATE=2030-01-01 12:00:00 UTC")
    assert given.returncode == 0, given.stderr[-2000:]
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "1 graded now" in run.stderr, run.stderr[-3000:]
    assert "already up to date" in trial_course.make(place, "autograde").stderr
    summary = read_summary(place, ASSIGNMENT)
    alice = next(student for student in summary.students if student.id == "alice")
    assert "alice" not in {who for who, _ in summary.ungraded}
    assert not [reason for reason in alice.reasons if "out of date" in str(reason)], alice.reasons
