"""Grading a class on every core and on a Dask cluster: two submissions at once give exactly what one at a
time gives, the progress shows on a terminal, a PostgreSQL gradebook works, a parallel run interrupted in any way
(Ctrl-C, SIGTERM, SIGKILL) leaves no grader running and is finished by the next plain run, which grades only what was
left, and on a Dask cluster (a `dask scheduler` and two `dask worker` processes started here on 127.0.0.1) a worker
killed while it grades loses nothing: every submission ends graded exactly once, with the serial grading's results.
One class is handed in once and copied by each test that grades it."""
import io
import json
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from classroom import autograde
from classroom.grading import progress, record
from coursekit import trial_course
from coursekit.real_parts import postgres
from coursekit import grading_runs as runs
from coursekit.trial_course import ASSIGNMENT
from coursekit.parts import requires

CLASS = {"ann": "right", "ben": "wrong", "cat": "hangs"}


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_bar_with_rate_eta_and_failures_and_a_log_gets_lines():
    said, screen = [], Terminal()
    with progress.Progress(3, said.append, stream=screen) as shown:
        shown.started("ann", "new")
        shown.finished(False)
        shown.say("ann/intuition_quiz: scored 0")
        shown.started("ben", "new")
        shown.finished(True)
    bar = screen.getvalue().split("\r")[-1]
    assert "2/3" in bar and "failed=1" in bar and "<" in bar and "submission" in bar, bar  # "<" precedes the ETA
    assert said == ["ann/intuition_quiz: scored 0"]  # the per-student lines are the bar's job on a terminal
    plain = []
    with progress.Progress(2, plain.append, stream=io.StringIO()) as shown:
        shown.started("ann", "it has not been graded")
        shown.finished(False)
    assert plain == ["1/2 ann: grading (it has not been graded)"]


def test_the_drivers_options_come_from_nbgrader_config_and_the_command_line(tmp_path, monkeypatch):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\nc.ClassroomAutogradeApp.jobs = 4\n"
                                                 "c.ClassroomAutogradeApp.scheduler = 'tcp://h:1'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", os.environ["PATH"])  # main() puts this environment's bin/ first
    configured = autograde.ClassroomAutogradeApp()
    configured.initialize([ASSIGNMENT, "--force", "--wait", "--student", "alice"])
    assert (configured.jobs, configured.scheduler, configured.wait) == (4, "tcp://h:1", True)
    assert configured.config.BaseConverter.force and configured.coursedir.student_id == "alice"
    given = autograde.ClassroomAutogradeApp()
    given.initialize([ASSIGNMENT, "--jobs", "3", "--scheduler=tcp://h:8786", "--no-sandbox"])
    assert (given.jobs, given.scheduler, given.wait, given.config.Grader.launcher_class) == \
        (3, "tcp://h:8786", False, "unsandboxed")
    for wrong in ([ASSIGNMENT, "--jobs"], [ASSIGNMENT, "--jobs", "two"], [ASSIGNMENT, "--jobs=0"],
                  [ASSIGNMENT, "--scheduler"], [ASSIGNMENT, "--studnet=alice"], [], ["a", "b"]):
        assert autograde.main(wrong) == 2, wrong
    assert not (tmp_path / "gradebook.db").exists()  # nothing started


@pytest.fixture(scope="module")
def handed_in(tmp_path_factory):
    """A course where CLASS has handed in, not graded yet (copied by each test that grades it)."""
    place = trial_course.make_course(tmp_path_factory.mktemp("handed-in") / "course", config=runs.QUICK_LIMITS)
    runs.hand_in(place, CLASS)
    return place


def copy(place, where):
    return Path(shutil.copytree(place, Path(where) / "course", symlinks=True))


def graded(place, *flags):
    result = trial_course.autograde(place, *flags)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr


@pytest.fixture(scope="module")
def serial(handed_in, tmp_path_factory):
    place = copy(handed_in, tmp_path_factory.mktemp("serial"))
    graded(place, "--jobs", "1")
    return place


@pytest.fixture(scope="module")
def parallel(handed_in, tmp_path_factory):
    place = copy(handed_in, tmp_path_factory.mktemp("parallel"))
    return place, graded(place, "--jobs", "2")


@pytest.mark.integration
def test_two_at_once_grade_exactly_as_one_at_a_time(serial, parallel):
    place, log = parallel
    assert runs.gradebook_rows(place) == runs.gradebook_rows(serial)
    for who in CLASS:
        assert trial_course.verdicts(place, who) == trial_course.verdicts(serial, who)
    assert sorted(re.findall(r"\] (\d)/3 (\w+): grading", log)) == [("1", "ann"), ("2", "ben"), ("3", "cat")]
    totals = {who: sum(v for k, v in grades.items() if not k.startswith("quiz_"))
              for who, grades in trial_course.scores(place).items()}
    full = sum(trial_course.max_scores(place).values())
    assert totals["ann"] == full and totals["ben"] < full and totals["cat"] < totals["ben"]
    assert runs.leftovers(place) == [] and set(runs.submission_count(place).values()) == {1}


@requires("postgres")
def test_a_postgresql_gradebook_gets_the_same_grades(handed_in, serial, tmp_path):
    with postgres.server() as url:
        place = copy(handed_in, tmp_path)
        shutil.rmtree(place / "submitted" / "cat")  # right and wrong work are enough to show it
        with open(place / "nbgrader_config.py", "a") as config:
            config.write(f"\nc.CourseDirectory.db_url = {url!r}\n")
        trial_course.nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=place)  # the assignment, into PostgreSQL
        graded(place, "--jobs", "2")
        rows = runs.gradebook_rows(place)
        assert rows == {key: row for key, row in runs.gradebook_rows(serial).items() if key[0] in ("ann", "ben")}
        assert runs.committed(place) == {"ann", "ben"} and runs.submission_count(place) == {"ann": 1, "ben": 1}
        with trial_course.gradebook(place) as gb:  # each record holds against PostgreSQL: the next run grades nobody
            for who, nb in rows:
                written = record.read(place / "autograded" / who / ASSIGNMENT)[nb]["grades"]
                assert written == record.grades_digest(gb, ASSIGNMENT, who, nb) is not None


def stopped(proc, how, graders):
    """Interrupt the background driver `proc` as `how` says; its log. Every grader it had must end with it (they
    are given a moment to die: a grader left behind would run on for ever)."""
    if how == "SIGINT":
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's whole process group
    else:
        os.kill(proc.pid, getattr(signal, how))
    log = runs.log_of(proc)
    for _ in range(60):
        if not runs.alive(graders):
            break
        time.sleep(0.5)
    assert runs.alive(graders) == [], f"graders left running after {how}: {runs.alive(graders)}"
    return log


@pytest.mark.integration
def test_an_interrupted_parallel_run_is_finished_by_the_next_one(handed_in, serial, tmp_path):
    place = copy(handed_in, tmp_path)
    whole = CLASS
    expected = runs.gradebook_rows(serial)
    for how in ("SIGTERM", "SIGINT", "SIGKILL", None):
        done = runs.committed(place)
        left = sorted(set(whole) - done)
        proc = runs.start_driver(place, "--jobs", "2")
        if how:  # the first run is stopped once it has committed a student, the others while they grade
            runs.wait_for(proc, lambda: (done or runs.committed(place)) and runs.sandboxed(proc.pid))
            log = stopped(proc, how, runs.descendants(proc.pid))
            assert proc.returncode == (-signal.SIGKILL if how == "SIGKILL" else 130), log[-3000:]
        else:
            log = runs.log_of(proc)
            assert proc.returncode == 0 and f"{len(left)} graded now, {len(done)} already up to date" in log, log
        started = re.findall(rf"\] \d+/{len(left)} (\w+): grading", log)
        assert started and set(started) <= set(left), log[-3000:]  # the total is what was left; nobody re-graded
        rows = runs.gradebook_rows(place)
        assert {key: row for key, row in rows.items() if row != expected[key]} == {}, how  # none half-written
    assert runs.gradebook_rows(place) == expected and runs.committed(place) == set(whole)
    assert runs.leftovers(place) == [] and set(runs.submission_count(place).values()) == {1}


def busy(workers):
    """The live workers grading a submission now (their process has children: a sandbox)."""
    return [w for w in workers if w.poll() is None and runs.descendants(w.pid)]


@requires("dask")
def test_a_dask_worker_killed_mid_run_loses_nothing_and_grades_nothing_twice(handed_in, serial, tmp_path):
    place = copy(handed_in, tmp_path)
    shutil.rmtree(place / "submitted" / "ben")  # right work and a hang: the worker killed holds the hang
    graded_here = {"ann", "cat"}
    with runs.dask_cluster(tmp_path) as (address, workers):
        proc = runs.start_driver(place, "--scheduler", address)
        # a worker in the middle of a submission (with QUICK_LIMITS the hang lasts about a second, so waiting also
        # for the first commit raced it: the run could end first)
        seen = []  # the busy workers as the wait saw them: asking again could find the sandbox just gone
        runs.wait_for(proc, lambda: seen.extend(busy(workers)) or seen, pause=0.05)
        victim = seen[0]
        victim.send_signal(signal.SIGKILL)
        log = runs.log_of(proc)
        assert victim.wait() == -signal.SIGKILL
    assert proc.returncode == 0 and "2 graded now" in log, log[-3000:]
    assert runs.gradebook_rows(place) == {k: r for k, r in runs.gradebook_rows(serial).items() if k[0] in graded_here}
    assert runs.committed(place) == graded_here and runs.submission_count(place) == {who: 1 for who in graded_here}
    for who in graded_here:  # each folder complete: both notebooks, and a record that holds for both
        folder = place / "autograded" / who / ASSIGNMENT
        assert {p.name for p in folder.glob("*.ipynb")} == {f"{ASSIGNMENT}.ipynb", "intuition_quiz.ipynb"}
        entries = json.loads((folder / record.RECORD).read_text())["notebooks"]
        assert all(entry["complete"] for entry in entries.values())
        assert trial_course.verdicts(place, who) == trial_course.verdicts(serial, who)
    assert runs.leftovers(place) == []
