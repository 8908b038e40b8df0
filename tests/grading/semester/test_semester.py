"""A semester without surprises: what an instructor does to a graded class over a term, with the commands
INSTRUCTORS.md gives (`make autograde`, `make extension`, `make drop`, `make quiz-variant`, nbgrader's own), each
ending in the grade the instructor meant or in a refusal that says why, checked in the gradebook, the feedback and
the exit status.

The class (tests/grading/semester/semester_class.py) is graded once; each test changes a copy.
"""
import json
import os
import shutil
import signal
import sys
import time

import pytest

from classroom.bookkeeping import lock
from classroom.grading import record
from classroom.report import read_summary
from coursekit import forked_commands, grading_runs, trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID
from coursekit.quiz.statements import write_private
from coursekit.repository import ROOT
from tests.grading.semester import semester_class as term
from tests.grading.semester.semester_class import place, semester  # noqa: F401 (the fixtures)
from tests.grading.semester.semester_class import CLASS, DUE, NOW, QUIZ, as_offset

pytestmark = pytest.mark.integration



def summary(result):
    return [line for line in result.stderr.splitlines() if line.startswith("[classroom.autograde]")]


# ---- the class as graded -----------------------------------------------------------------------------------------
def test_a_due_date_with_an_offset_is_that_time_and_on_time_work_keeps_its_points(semester):
    place, said = semester
    book = term.gradebook(place)
    assert {who: row["due"] for who, row in book.items()} == {who: DUE for who in CLASS}
    assert book["alice"]["late"] == 0 and book["alice"]["notebooks"] == {ASSIGNMENT: (20.0, None), QUIZ: (5.0, None)}
    # late work under penalty "zero": the whole score goes, notebook by notebook
    assert book["bob"]["late"] == 3600 and all(score == penalty > 0
                                               for score, penalty in book["bob"]["notebooks"].values())
    rows = {row["student_id"]: row for row in _grades_csv(place)}
    assert float(rows["alice"]["score"]) == term.FULL and float(rows["bob"]["score"]) == 0.0


def test_grading_and_feedback_print_no_noise(semester):
    _, said = semester
    for command in ("autograde", "feedback"):
        shown = said[command].stdout + said[command].stderr
        assert not [noise for noise in term.NOISE if noise in shown], shown[-3000:]


def _grades_csv(place):
    import csv

    made = trial_course.make(place, "grades")
    assert made.returncode == 0, made.stderr[-2000:]
    with open(place / "grades.csv", newline="") as handle:
        return list(csv.DictReader(handle))


# ---- grading by hand ---------------------------------------------------------------------------------------------
def test_grading_by_hand_survives_everything_but_changed_work_and_its_clearing_is_named(place):
    term.by_hand(place, "alice", "by_hand_row", score=1.5, extra=1.0)
    term.by_hand(place, "alice", "score_gradient_solution", comment="neat use of keepdims")
    kept = term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "by_hand_row"]
    folder = place / "submitted" / "alice" / ASSIGNMENT

    # she clicks Submit again with the same notebook: a new timestamp, the same work
    (folder / "timestamp.txt").write_text(term.stamp(DUE - term.datetime.timedelta(hours=2)))
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "1 graded now" in run.stderr, run.stderr[-3000:]
    assert term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "by_hand_row"] == kept
    # her autograded folder is gone
    shutil.rmtree(term.autograded(place, "alice"))
    assert trial_course.make(place, "autograde").returncode == 0
    assert term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "by_hand_row"] == kept
    # one plain nbgrader autograde, then make autograde
    trial_course.nbgrader("autograde", ASSIGNMENT, "--student", "alice", "--force", *_plain_flags(), cwd=place)
    assert trial_course.make(place, "autograde").returncode == 0
    assert term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "by_hand_row"] == kept
    with trial_course.gradebook(place) as gb:
        assert gb.find_comment("score_gradient_solution", ASSIGNMENT, ASSIGNMENT, "alice").manual_comment == \
            "neat use of keepdims"

    # a real re-submission of changed work clears it, and says so by name in the run and in the report
    nb = json.loads((folder / f"{ASSIGNMENT}.ipynb").read_text())
    nb["cells"][-1]["source"] = "# one more thought\n"
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb))
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0, run.stderr[-3000:]
    cleared = [line for line in summary(run) if "was cleared" in line]
    assert len(cleared) == 1 and "alice/score_gradient" in cleared[0] and "by_hand_row: manual score 1.5, extra " \
        "credit 1" in cleared[0] and "score_gradient_solution: a comment" in cleared[0], summary(run)
    assert term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "by_hand_row"] == (2.0, None, None, False)
    report = trial_course.report(place)
    table = (place / "report" / f"{ASSIGNMENT}-by-check.csv").read_text()
    assert "grading by hand cleared" in table and "by_hand_row: manual score 1.5" in table, report.stdout


def _plain_flags():
    return [] if trial_course.SANDBOXED else ["--Grader.launcher_class=unsandboxed"]


def test_a_late_penalty_zero_takes_manual_and_extra_credit_points_too(place):
    automatic, _ = term.gradebook(place)["bob"]["notebooks"][ASSIGNMENT]
    assert automatic > 0, "bob's work should earn some automatic points, or this test shows nothing"
    term.by_hand(place, "bob", "matches_finite_differences", score=2.0, extra=2.0)
    run = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--force --student bob")
    assert run.returncode == 0, run.stderr[-3000:]
    score, penalty = term.gradebook(place)["bob"]["notebooks"][ASSIGNMENT]
    # matches_finite_differences is one of the checks bob's work failed (0 points), so the 2 by hand are all new
    assert score == automatic + 2.0 + 2.0 == penalty
    assert {row["student_id"]: float(row["score"]) for row in _grades_csv(place)}["bob"] == 0.0


# ---- extensions and dropping -------------------------------------------------------------------------------------
def test_an_extension_is_graded_against_and_survives_collect_and_grade(place, tmp_path):
    term.by_hand(place, "bob", "values_match_reference", score=3.0)
    later = NOW + term.datetime.timedelta(days=1)
    made = trial_course.make(place, "extension", "STUDENT=bob", f"DUEDATE={as_offset(later)}")
    assert made.returncode == 0 and f"{later:%Y-%m-%d %H:%M:%S} UTC" in made.stdout, made.stderr
    assert "bob: score_gradient due" in trial_course.make(place, "decisions").stdout
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "1 graded now, 4 already up to date" in run.stderr, run.stderr[-3000:]
    book = term.gradebook(place)["bob"]
    assert book["due"] == later and book["late"] == 0 and not any(p for _, p in book["notebooks"].values())
    assert book["grades"][ASSIGNMENT, "values_match_reference"][1] == 3.0  # his work did not change: kept

    # he hands in again through the exchange; collect --update takes it; grading keeps his due date
    exchange = tmp_path / "exchange"
    inbound = exchange / COURSE_ID / "inbound"
    taken = NOW.strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    hand_in = inbound / f"bob+{ASSIGNMENT}+{taken}+abc123"
    shutil.copytree(place / "submitted" / "bob" / ASSIGNMENT, hand_in)
    (hand_in / "timestamp.txt").write_text(taken)
    collected = trial_course.nbgrader("collect", "--update", ASSIGNMENT, f"--Exchange.root={exchange}", cwd=place)
    assert "bob" in collected.stdout + collected.stderr
    for flags in ("", "--force --student bob"):
        run = trial_course.make(place, "autograde", f"AUTOGRADE_ARGS={flags}")
        assert run.returncode == 0, run.stderr[-3000:]
        book = term.gradebook(place)["bob"]
        assert book["due"] == later and book["late"] == 0, book
        assert not any(p for _, p in book["notebooks"].values())
    assert book["grades"][ASSIGNMENT, "values_match_reference"][1] == 3.0


def test_a_dropped_student_stays_dropped(place):
    made = trial_course.make(place, "drop", "STUDENT=dave")
    assert made.returncode == 0 and "dave is dropped" in made.stdout, made.stderr
    assert "dave" not in term.gradebook(place)
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "1 dropped and not graded (dave" in run.stderr, run.stderr[-3000:]
    assert "dave" not in term.gradebook(place)
    asked = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--student dave --force")
    assert asked.returncode != 0 and "dave was dropped" in asked.stderr and "UNDO=yes" in asked.stderr
    assert "dave" not in {row["student_id"] for row in _grades_csv(place)}
    trial_course.report(place)
    assert "dave" not in (place / "report" / f"{ASSIGNMENT}-by-check.csv").read_text()
    summary = read_summary(place, ASSIGNMENT)
    assert summary.dropped == ("dave",) and "dave" not in {who for who, _ in summary.ungraded}
    fed = trial_course.make(place, "feedback")  # their autograded/ folder is still there; they get no page
    assert fed.returncode == 0 and "Traceback" not in fed.stderr and "dropped: dave" in fed.stdout, fed.stderr[-3000:]
    assert (place / "feedback" / "alice").is_dir()
    back = trial_course.make(place, "drop", "STUDENT=dave", "UNDO=yes")
    assert back.returncode == 0 and trial_course.make(place, "autograde").returncode == 0
    assert "dave" in term.gradebook(place)


# ---- names that select nothing -----------------------------------------------------------------------------------
@pytest.mark.parametrize("args, named", [("--student=alcie", "(did you mean 'alice'?)"),
                                         ("--notebook=score_gradient.ipynb --force",
                                          "(did you mean 'score_gradient'?)"),
                                         ("--studnet=alice", "there is no option --studnet (did you mean 'student'?)"),
                                         ("--forse", "there is no option --forse (did you mean 'force'?)")])
def test_a_name_that_selects_nothing_is_an_error_naming_the_nearest(semester, args, named):
    place = semester[0]
    before = (place / "gradebook.db").read_bytes()
    run = trial_course.make(place, "autograde", f"AUTOGRADE_ARGS={args}")
    assert run.returncode != 0 and named in run.stderr and "nothing was graded" in run.stderr, run.stderr[-2000:]
    assert "graded now" not in run.stderr and (place / "gradebook.db").read_bytes() == before


# ---- the quiz once handed out ------------------------------------------------------------------------------------
def test_a_handed_out_quiz_keeps_its_key(place):
    quiz = place / "source" / ASSIGNMENT / f"{QUIZ}.ipynb"
    handed_out, before = quiz.read_bytes(), term.gradebook(place)
    page = (place / "feedback" / "alice" / ASSIGNMENT / f"{QUIZ}.html").read_bytes()
    private = write_private(place.parent)  # the instructor's own statements, outside the course
    drawn = trial_course.make(place, "quiz-variant", "QUIZ_SEED=a second secret of ours", f"QUIZ_STATEMENTS={private}")
    assert drawn.returncode != 0 and "handed out" in drawn.stderr and "QUIZ_REPLACE=yes" in drawn.stderr
    assert quiz.read_bytes() == handed_out

    # the quiz is edited anyway (here: another variant written knowingly), then put into the gradebook
    env = trial_course.nbgrader_env(PYTHONPATH=str(ROOT), QUIZ_SEED="a second secret of ours")
    forked_commands.run([sys.executable, "-m", "classroom.app", "quiz-variant", "--replace-handed-out", "--no-release",
                         "--statements", str(private)], cwd=place, env=env, check=True, capture_output=True)
    refused = forked_commands.run([sys.executable, "-m", "classroom.app", "quiz-key", ASSIGNMENT], cwd=place, env=env,
                                  capture_output=True, text=True)  # what `make release` runs before generate_assignment
    assert refused.returncode == 2 and "Nothing was changed" in refused.stderr
    trial_course.nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=place)  # the formgrader's Generate button
    run = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--force")
    assert run.returncode != 0 and "not the one handed out" in run.stderr and "nobody was graded" in run.stderr
    assert term.gradebook(place) == before
    assert (place / "feedback" / "alice" / ASSIGNMENT / f"{QUIZ}.html").read_bytes() == page

    # knowingly: the new key is recorded, and grading goes on with it
    accepted = forked_commands.run([sys.executable, "-m", "classroom.app", "quiz-key", ASSIGNMENT, "--accept"],
                                   cwd=place, env=env, capture_output=True, text=True)
    assert accepted.returncode == 0, accepted.stderr
    run = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--student alice")
    assert run.returncode == 0 and "1 graded now" in run.stderr, run.stderr[-3000:]
    # alice answered the quiz handed out before the replacement: graded with the new key, and named for a look
    assert f"alice/{QUIZ}: handed in with other quiz questions than the gradebook grades" in run.stderr, \
        run.stderr[-3000:]
    report = trial_course.report(place)
    table = (place / "report" / f"{ASSIGNMENT}-by-check.csv").read_text()
    shown = report.stdout.split("Quizzes of another variant than the gradebook grades", 1)
    assert len(shown) == 2 and shown[1].splitlines()[1].startswith("  alice: quiz_q1"), report.stdout
    assert [row for row in table.splitlines() if row.startswith("alice,") and "other quiz variant" in row], table
    assert not [row for row in table.splitlines() if row.startswith("bob,") and "other quiz variant" in row], table


# ---- a grading run and the rest of the world ---------------------------------------------------------------------
def test_killing_make_stops_the_grading_it_started(place):
    since = time.time()
    started = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--force", "JOBS=1", wait=False)
    driver = None
    try:
        while driver is None or not grading_runs.sandboxed(driver):
            assert started.poll() is None, started.stderr.read()[-3000:]
            driver = next((pid for pid in grading_runs.descendants(started.pid) if _is_driver(pid)), None)
            time.sleep(0.2)
        os.kill(started.pid, signal.SIGTERM)  # `kill` of make alone, not of its process group
        started.wait()
        while grading_runs.alive([driver]):
            time.sleep(0.2)
    finally:  # whatever happened, nothing of this run is left behind (its session is its process group)
        try:
            os.killpg(started.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        started.wait()
    with lock.hold(str(place / ".grading")):  # free: the driver ended with its make
        pass
    assert _committed(place, since) < len(CLASS)  # it stopped there, not after grading the class on its own
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0, run.stderr[-3000:]
    assert not grading_runs.leftovers(place)


def _is_driver(pid):
    try:
        words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        return b"classroom.autograde" in words or any(w.endswith(b"/classroom") for w in words) and b"autograde" in words
    except OSError:
        return False


def test_a_release_during_a_grading_run_is_noticed_and_said(place):
    since = time.time()
    started = grading_runs.start_driver(place, "--force")
    try:
        grading_runs.wait_for(started, lambda: _committed(place, since) > 0)
        os.killpg(started.pid, signal.SIGSTOP)  # the run holds still while the instructor runs make release
        check = place / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        nb = json.loads(check.read_text())
        cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "rows_sum_to_zero")
        cell["source"] = "".join(cell["source"]) + "\n# checked again this term\n"
        check.write_text(json.dumps(nb))
        trial_course.nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=place)
    finally:
        os.killpg(started.pid, signal.SIGCONT)
    said = grading_runs.log_of(started)
    assert started.returncode == 1 and "changed in the gradebook while this run graded" in said, said[-3000:]
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "already up to date" in run.stderr, run.stderr[-3000:]
    with trial_course.gradebook(place) as gb:
        versions = record.versions(gb, ASSIGNMENT)
    for who in CLASS:
        entries = record.read(term.autograded(place, who))
        assert {name: entry["version"] for name, entry in entries.items()} == \
            {name: version for name, version in versions.items() if name in entries}, who


def _committed(place, since):
    """How many students' gradings were committed after `since` (their record was written since then)."""
    records = [os.path.join(term.autograded(place, who), record.RECORD) for who in CLASS]
    return sum(os.path.getmtime(path) > since for path in records if os.path.exists(path))

