"""What the grader decides on comes from what the student's code cannot rewrite, and ordinary notebook habits cost
nothing: IPython lines (classroom.trusted.ipython_cells), the memory peak and the inputs read by the grader
(classroom.trusted.child_handle), the time of a whole submission (classroom.trusted.proxy, verdict). The static loop
reading and the measures in the student's kernel (classroom.checks) are tested in tests/checks/."""
import numpy as np
import pytest

from classroom.trusted import failures
from classroom.trusted.ipython_cells import as_python
from classroom.trusted.student_errors import StudentError
from classroom.trusted.proxy import StudentCode
from classroom.trusted.verdict import decide
from coursekit.trial_course import LAUNCHER

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


def test_ipython_lines_become_python_that_runs_what_they_time():
    code, notes = as_python("x = 1\n%time y = x + 1\n!ls -la\nnp.sum?\n")
    namespace = {"get_ipython": lambda: type("Shell", (), {"__getattr__": lambda s, n: (lambda *a: None)})()}
    exec(code, namespace)
    assert namespace["y"] == 2 and len(code.splitlines()) == 4
    assert len(notes) == 1 and "!ls -la" in notes[0] and "np.sum?" in notes[0]
    assert as_python("%%time\ndef f():\n    return 1\n")[0].splitlines()[1:] == ["def f():", "    return 1"]
    assert as_python(GOOD) == (GOOD, [])


@pytest.mark.integration
def test_the_memory_peak_is_the_calls_not_the_cells():
    cell = GOOD + "big = np.ones(2 ** 26)\ndel big\nkept = np.ones(2 ** 24)\n" \
                  "def jacobian(A, G):\n    return np.ones((A.shape[0],) * 3).sum()\n"
    A = np.full((400, 400), 1 / 400)
    with StudentCode([cell], launcher=LAUNCHER) as code:
        assert code.lookup("f").peak_extra_bytes(A, A) < 32 * 2 ** 20
        assert code.lookup("jacobian").peak_extra_bytes(A, A) > 400 * 2 ** 20


@pytest.mark.integration
def test_writes_into_inputs_are_read_by_the_grader_not_reported_by_the_child():
    cheat = ("import sys\nimport numpy as np\nnp.save = lambda *a, **k: None\n"
             "def f(A):\n    A[0] = 7.0\n")
    with StudentCode([cheat], launcher=LAUNCHER) as code:
        A = np.zeros(3)
        code.lookup("f")(A)
        assert A.tolist() == [7.0, 0.0, 0.0]
        A.setflags(write=False)
        with pytest.raises(StudentError, match="read-only"):
            code.lookup("f")(A)


@pytest.mark.integration
def test_a_helper_from_another_cell_is_named_as_such():
    verdict = decide(["def f(A, G):\n    return _helper(A)\n"], [("c", "f(np.ones(2), np.ones(2))")],
                     launcher=LAUNCHER)["c"]
    assert verdict.kind == failures.RAISED
    assert "solution cell on its own" in verdict.message and "move it into the solution cell" in verdict.message


@pytest.mark.integration
def test_the_whole_submission_has_one_time_budget_and_says_what_it_did_not_reach():
    slow = "import time\ndef f():\n    start = time.process_time()\n    while time.process_time() < start + 2:\n" \
           "        pass\n    return 1\n"
    tests = [("first", "assert f() == 1"), ("second", "assert f() == 1")]
    verdicts = decide([slow], tests, launcher=LAUNCHER, total_seconds=1.0)
    assert [verdicts[g].kind for g in ("first", "second")] == [failures.TIMED_OUT] * 2
    assert "not finished" in verdicts["first"].message and "not reached" in verdicts["second"].message
    assert "1 s of CPU time" in verdicts["second"].message


@pytest.mark.integration
def test_the_grader_notes_the_ipython_lines_it_skipped():
    verdicts = decide([GOOD + "!ls\n"], [("c", "print('ok')")], launcher=LAUNCHER)
    assert verdicts["c"].passed and verdicts["c"].printed.startswith("Note from the grader") and "!ls" in \
        verdicts["c"].printed and verdicts["c"].printed.endswith("ok\n")


@pytest.mark.integration
def test_a_slow_call_says_at_which_T_and_that_memory_was_not_measured():
    """A finite loop slow at a large T: the real child's time-out, as the checks word it (issue 36)."""
    from classroom.checks import exercise
    from classroom.checks.measures import peak_extra_bytes

    slow = ("import time\nimport numpy as np\ndef f(A, G):\n    start = time.process_time()\n"
            "    while A.shape[0] > 100 and time.process_time() < start + 2:\n        pass\n    return A * G\n")
    with StudentCode([slow], launcher=LAUNCHER, call_timeout=0.5) as code:
        f = code.lookup("f")
        with pytest.raises(StudentError) as failed:
            exercise.small_peak(f, 200, 1, 32 * 2 ** 20, peak_extra_bytes)
    assert failed.value.kind == failures.TIMED_OUT
    said = str(failed.value)
    assert said.startswith("at T = 200, your function used more than 0.5 s of CPU time in one call"), said
    assert said.endswith("so its memory could not be measured"), said


# Work the kernel does for the student's code: filling a buffer from /dev/zero, as it fills fresh memory with zeros
# (what a large allocation costs, and what varies tenfold with the state of a virtual machine's host).
KERNEL_WORK = ("import os, time\ndef f(seconds):\n    buf = bytearray(2 ** 24)\n"
               "    with open('/dev/zero', 'rb', buffering=0) as zero:\n        start = time.process_time()\n"
               "        while time.process_time() < start + seconds:\n            zero.readinto(buf)\n"
               "    return os.times().system\n")


@pytest.mark.integration
def test_one_calls_limit_counts_its_own_code_and_the_submissions_the_kernels_work_too():
    """A call's limit is the time its code runs (user time): the kernel's work for it, the cost of fresh memory
    above all, is charged to the whole submission's time, which it cannot escape (classroom.sandbox.process_tree)."""
    with StudentCode([KERNEL_WORK], launcher=LAUNCHER, call_timeout=0.5, total_seconds=30) as code:
        assert code.lookup("f")(1.5) > 1.0  # 1.5 s of CPU time, nearly all the kernel's: the call returns
        assert code.supervisor.cpu_used > 1.4
    with StudentCode([KERNEL_WORK], launcher=LAUNCHER, call_timeout=0.5, total_seconds=1.0) as code:
        with pytest.raises(StudentError, match="not finished") as failed:
            code.lookup("f")(60)
    assert failed.value.kind == failures.TIMED_OUT
    with StudentCode([KERNEL_WORK.replace("zero.readinto(buf)", "pass")], launcher=LAUNCHER,
                     call_timeout=0.5) as code:
        with pytest.raises(StudentError, match="more than 0.5 s of CPU time in one call"):
            code.lookup("f")(1.5)  # the same time spent in its own code
