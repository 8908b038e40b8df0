"""nbgrader's design run on its own (SandboxedExecute), in its launcher's kernel: every cell in order, checks included;
a cell that runs into its limit is interrupted and the next one runs; what the grader decided is recorded as data and
says whose cell it was; the output that decides a check's score survives the caps, and no note of the grader's can
fail a check; a kernel that dies ends the run, and every check after it scores 0, as does one that neither answers
its interrupt nor computes (in the display run too)."""
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from nbgrader.utils import determine_grade
from traitlets.config import Config

from classroom.preprocessors import sandboxed_execute
from classroom.preprocessors.execute_for_display import ExecuteForDisplay
from classroom.preprocessors.sandboxed_execute import SandboxedExecute
from classroom.trusted import failures
from coursekit.trial_course import LAUNCHER_CLASS

pytestmark = pytest.mark.integration


def meta(grade_id, grade=False, locked=False, solution=False, points=None):
    found = {"grade": grade, "grade_id": grade_id, "locked": locked, "solution": solution, "schema_version": 3}
    if points is not None:
        found["points"] = points
    return {"nbgrader": found}


def check(grade_id, source):
    return new_code_cell(source, metadata=meta(grade_id, grade=True, locked=True, points=1))


def run(cells, tmp_path, config_extra=None, step=SandboxedExecute, **options):
    config = Config()
    config.Grader.launcher_class = LAUNCHER_CLASS
    if config_extra is not None:
        config.merge(config_extra)
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                            "language": "python"}})
    resources = {"metadata": {"path": str(tmp_path)}}
    nb, resources = step(config=config, **options).preprocess(nb, resources)
    return nb, resources["classroom"]["marks"]


def kinds(cell):
    return [out.get("ename") for out in cell.outputs if out.output_type == "error"]


def test_every_cell_runs_in_order_and_a_cell_past_its_limit_costs_only_itself(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "week.csv").write_text("12.5\n")
    nb, marks = run([
        new_code_cell("value = float(open('data/week.csv').read())"),
        new_code_cell("rows = open('data/forgotten.csv').read()", metadata=meta("setup", locked=True)),
        new_code_cell("class TimedOut(Exception):\n    pass\nraise TimedOut('mine')", metadata=meta("ans", solution=True)),
        check("loops", "while True:\n    pass"),
        check("sleeps", "import time\ntime.sleep(60)"),
        check("reads", "assert value == 12.5"),
    ], tmp_path, timeout=2)
    _, setup, own, loops, sleeps, reads = nb.cells
    assert determine_grade(reads)[0] == 1  # ran after both interrupted cells, with the first cell's globals
    assert kinds(own) == ["TimedOut (raised by your code)"]  # the student's own exception, never the grader's kind
    assert kinds(loops)[-1] == failures.TIMED_OUT and determine_grade(loops)[0] == 0
    assert kinds(sleeps)[-1] == failures.TIMED_OUT and determine_grade(sleeps)[0] == 0
    said = {mark["grade_id"]: (mark["kind"], mark["message"]) for mark in marks}
    assert said["setup"][0] == failures.ASSIGNMENT_FAILED and "FileNotFoundError" in said["setup"][1]
    assert "not your mistake" in said["setup"][1]
    assert said["loops"] == (failures.TIMED_OUT, "The grader interrupted this check (it runs your code): it used "
                                                 "more than 2 s of CPU time.")
    assert said["sleeps"][1].endswith("it ran for more than 2 s.") and "ans" not in said


def test_the_output_that_decides_a_check_survives_the_caps_and_no_note_fails_one(tmp_path):
    nb, marks = run([
        check("floods_then_fails", "print('x' * 5000)\nraise AssertionError('wrong')"),
        check("floods_then_passes", "print('y' * 5000)"),
        check("floods_then_scores", "print('z' * 5000)\n0.5"),
    ], tmp_path, max_output_chars=1000)
    fails, passes, scores = nb.cells
    assert determine_grade(fails)[0] == 0 and kinds(fails) == ["AssertionError"]
    assert determine_grade(passes)[0] == 1 and kinds(passes) == []  # the note that output was cut is not an error
    assert determine_grade(scores)[0] == 0.5
    assert {mark["kind"] for mark in marks} == {failures.OUTPUT_CUT}


def test_what_all_cells_print_together_is_capped_too_and_a_late_check_still_fails(tmp_path):
    from traitlets.config import Config as Settings

    caps = Settings()
    caps.InertContent.max_notebook_bytes = 3000
    floods = [new_code_cell("print('w' * 900)") for _ in range(8)]
    nb, _ = run([*floods, check("late", "raise AssertionError('late')")], tmp_path, config_extra=caps)
    printed = sum(len(str(out.get("text", ""))) for cell in nb.cells for out in cell.outputs)
    assert printed < 3000 + 8 * 200 and determine_grade(nb.cells[-1])[0] == 0


def test_a_kernel_that_dies_ends_the_run_and_every_check_after_it_scores_zero(tmp_path):
    nb, marks = run([
        new_code_cell("import os\nos._exit(1)", metadata=meta("ans", solution=True)),
        check("after", "assert True"),
        new_code_cell("print('never')"),
    ], tmp_path)
    died, after, plain = nb.cells
    assert kinds(died) == [failures.CRASHED] and determine_grade(after)[0] == 0
    assert kinds(after) == [failures.NOT_RUN] and kinds(plain) == [failures.NOT_RUN]
    assert [mark["kind"] for mark in marks] == [failures.CRASHED, failures.NOT_RUN, failures.NOT_RUN]


@pytest.mark.parametrize("step", [SandboxedExecute, ExecuteForDisplay])
def test_a_kernel_that_neither_answers_its_interrupt_nor_computes_is_stopped_after_the_grace(tmp_path, monkeypatch,
                                                                                           step):
    """It ignores SIGINT while it sleeps: once interrupted at its 1 s it computes nothing, and is stopped GRACE seconds
    later (1 s here), not after the 100 s on the clock `wall_factor` gives a cell that is still computing."""
    monkeypatch.setattr(sandboxed_execute, "GRACE", 1.0)
    deaf = "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(3600)"
    nb, marks = run([new_code_cell(deaf, metadata=meta("ans", solution=True)), check("after", "assert True"),
                     new_code_cell("print('never')")], tmp_path, step=step, timeout=1, wall_factor=100)
    deaf, after, plain = nb.cells
    assert kinds(deaf) == [failures.TIMED_OUT]
    assert "did not answer when interrupted (it computed nothing for 1 s after it, and was stopped)" in str(marks)
    assert kinds(plain) == [failures.NOT_RUN] and "never" not in str(plain.outputs)
    if step is SandboxedExecute:
        assert kinds(after) == [failures.NOT_RUN] and determine_grade(after)[0] == 0
