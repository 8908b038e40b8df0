"""The machine's load cannot change a grade: the grader's time limits are the CPU time of the student's processes,
read from outside them (classroom.trusted.child_handle), so a submission graded on a core that two busy processes share
gets the scores corpus.json gives it, as the corpus test records them on an ordinary run. The entries chosen sit near
the limits: 1.5 s and 4 s of CPU time in one call (3 s allowed), a 1.5 s self-test in an answer cell (5 s allowed).
"""
import os
import subprocess
import sys
import time

import pytest

from classroom import cells
from classroom.trusted.verdict import decide
from coursekit import corpus, trial_course
from tools import write_grade_cells

pytestmark = pytest.mark.integration  # grades in sandboxed children, beside busy processes

NEAR_THE_LIMITS = ["correct_keepdims", "robust_cpu_1_5_s_at_T_300", "robust_cpu_4_s_at_T_300",
                   "correct_self_test_40000_draws_in_part_two"]
BUSY = "while True:\n    pass\n"


@pytest.fixture
def a_busy_core():
    """This test, the processes it starts and two busy processes share one core for the length of the test (so
    that the rest of the suite keeps the other cores); the busy processes are stopped, each by its own pid, and
    the test's cores given back, whatever happens."""
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})  # inherited by everything started from here on
    busy = []
    try:
        busy += [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
        yield
    finally:
        for process in busy:
            process.kill()
            process.wait()
        os.sched_setaffinity(0, cores)


def slowed_down():
    """How many times longer on the clock than in CPU time one stretch of this process's work takes now."""
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() < cpu + 0.3:
        pass
    return (time.perf_counter() - wall) / (time.process_time() - cpu)


def test_a_busy_machine_grades_as_an_idle_one(a_busy_core):
    assert slowed_down() > 1.3, "the busy processes did not load the machine: this test would show nothing"
    checks = write_grade_cells.read_checks(trial_course.ROOT / "source" / trial_course.ASSIGNMENT / "grade_cells.py")
    tests = [(grade_id, code) for grade_id, _, code in checks]
    entries = corpus.corpus()
    wrong = {}
    for name in NEAR_THE_LIMITS:
        entry = entries[name]
        answers = [cells.source(c) for c in corpus.notebook(entry)["cells"] if cells.is_answer_code(c)]
        verdicts = decide(answers, tests, launcher=trial_course.LAUNCHER, total_seconds=45.0)
        lost = {grade_id for grade_id, verdict in verdicts.items() if not verdict.passed}
        if lost != set(entry["lost"]):
            wrong[name] = {g: verdicts[g].message for g in lost ^ set(entry["lost"])}
    assert not wrong, f"under load, these scores differ from corpus.json: {wrong}"
