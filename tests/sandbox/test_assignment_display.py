"""The display run (ExecuteForDisplay) on its own: it runs the student's cells in its launcher's kernel, leaves grade
cells empty, and marks what it did with error outputs named by their kind; a student's exception never bears a
grader's kind name."""
import contextlib
import os
import subprocess
import sys

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from classroom.trusted import failures
from classroom.preprocessors.execute_for_display import ExecuteForDisplay
from coursekit.trial_course import LAUNCHER_CLASS

pytestmark = pytest.mark.integration


def kinds(cell):
    return [out.get("ename") for out in cell.outputs if out.output_type == "error"]


# Unsandboxed too: there the interrupted kernel answers in time, and nbclient's own timeout reply is what is seen.
@pytest.mark.parametrize("launcher", sorted({LAUNCHER_CLASS, "unsandboxed"}))
def test_the_display_run_marks_what_it_cut_stopped_and_skipped(tmp_path, launcher):
    check = new_code_cell("assert False", outputs=[{"output_type": "stream", "name": "stdout", "text": "old"}])
    check.metadata["nbgrader"] = {"grade": True, "grade_id": "a_check", "points": 1, "solution": False,
                                  "locked": True}
    nb = new_notebook(cells=[
        new_code_cell("print('hello')"),
        new_code_cell("class TimedOut(Exception):\n    pass\nraise TimedOut('my own exception')"),
        new_code_cell("print('x' * 5000)\nprint('more')"),
        check,
        new_code_cell("while True:\n    pass"),
        new_code_cell("print('never')"),
    ], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    config = Config()
    config.Grader.launcher_class = launcher
    display = ExecuteForDisplay(timeout=2, max_output_chars=2000, config=config)

    nb, _ = display.preprocess(nb, {"metadata": {"path": str(tmp_path)}})

    hello, own, flood, graded, loop, after = nb.cells
    assert hello.outputs[0]["text"] == "hello\n" and kinds(hello) == []
    assert kinds(own) == ["TimedOut (raised by your code)"]
    assert kinds(flood) == [failures.OUTPUT_CUT] and "more" not in str(flood.outputs)
    assert graded.outputs == []
    assert kinds(loop)[-1] == failures.TIMED_OUT
    assert kinds(after) == [] and after.outputs[0]["text"] == "never\n"  # the interrupted kernel goes on


def test_an_answer_cell_after_one_that_loops_forever_is_still_run_and_graded(tmp_path):
    from coursekit import trial_course as tc

    path = tc.make_course(tmp_path / "course", "c.ExecuteForDisplay.timeout = 1\nc.TrustedGrades.define_timeout = 1\n")
    code = (tc.SUBMISSIONS / "correct_keepdims.py").read_text()
    tc.write_submission(path, "looper", tc.submission(code, answers={"by_hand_answer": "while True:\n    pass\n"}))
    result = tc.autograde(path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    scores, max_scores = tc.scores(path)["looper"], tc.max_scores(path)
    nb = tc.autograded_notebook(path, "looper")
    solution = next(c for c in nb["cells"] if tc.cells.grade_id(c) == tc.SOLUTION)
    loop = next(c for c in nb["cells"] if tc.cells.grade_id(c) == "by_hand_answer")
    assert kinds_of(loop)[-1] == failures.TIMED_OUT and "used more than 1 s of CPU time" in str(loop["outputs"])
    assert kinds_of(solution) == [], solution["outputs"]
    assert scores["values_match_reference"] == max_scores["values_match_reference"]
    assert tc.messages(path, "looper")["values_match_reference"] == "passed"


def kinds_of(cell):
    return [out.get("ename") for out in cell["outputs"] if out["output_type"] == "error"]


COMPUTE = "import time\nstart = time.process_time()\nwhile time.process_time() - start < {seconds}:\n    pass\nprint('{says}')"


@contextlib.contextmanager
def one_busy_core(competitors=2):
    """This process, and so the kernels it starts, on one core that `competitors` busy loops share with them: a cell
    takes about competitors + 1 times its CPU time on the clock, as on a loaded grading machine."""
    before = os.sched_getaffinity(0)
    core = {min(before)}
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(competitors)]
    try:
        for loop in loops:
            os.sched_setaffinity(loop.pid, core)
        os.sched_setaffinity(0, core)
        yield
    finally:
        os.sched_setaffinity(0, before)
        for loop in loops:
            loop.kill()
            loop.wait()


def test_the_limits_are_cpu_time_so_a_loaded_machine_shows_what_an_idle_one_shows(tmp_path):
    nb = new_notebook(cells=[new_code_cell(COMPUTE.format(seconds=0.8, says="first")),
                             new_code_cell(COMPUTE.format(seconds=0.8, says="second")),
                             new_code_cell("print('third')")],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    config = Config()
    config.Grader.launcher_class = LAUNCHER_CLASS
    display = ExecuteForDisplay(timeout=2, total_seconds=1.2, config=config)
    with one_busy_core():
        nb, resources = display.preprocess(nb, {"metadata": {"path": str(tmp_path)}})

    first, second, third = nb.cells
    # about 2.4 s on the clock, past its 2 s, but 0.8 s of CPU time: not cut short
    assert kinds(first) == [] and first.outputs[0]["text"] == "first\n"
    # 1.6 s of CPU time in all, past the 1.2 s of all cells together: interrupted, and the run stops there
    assert kinds(second)[-1] == failures.TIMED_OUT
    assert "ran into the 1.2 s of CPU time the grader gives all cells together" in str(second.outputs)
    assert kinds(third) == [failures.NOT_RUN] and "an earlier cell ran into the 1.2 s of CPU time" in str(third.outputs)
