"""A course of nbgrader's own kind, graded by `nbgrader autograde` with the grading system's plugins (the course loads
classroom/plugins/nbgrader_config.py as any course would): the regressions docs/differences-from-nbgrader.md does not
allow, each beside the nbgrader test that showed it.

  - nbgrader's own autotest notebook (its tests' autotest-multi.ipynb, beside test_grade_complex_autotest): the
    instructor's reference scores 4/4;
  - nbgrader's `except ValueError` idiom grades a correct `squares` in full;
  - a data file shipped beside the notebook (answer.txt) reaches the grading;
  - `c.Execute.timeout = None` (beside test_showtraceback_exploit) grades, and the run still ends;
  - `--no-execute` (beside test_no_execute) does not make the grades those of the outputs the student saved.
None of its checks imports classroom.checks, so it is graded with nbgrader's design (classroom.grading.design).
"""
import json
import shutil

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from coursekit.trial_course import LAUNCHER_CLASS, nbgrader
from tools import nbgrader_contract

NBGRADER_FILES = nbgrader_contract.nbgrader_tests() / "files"
CONFIG = f'''from classroom.plugins import SELECTION_FOLDER

c = get_config()
load_subconfig("nbgrader_config.py", path=SELECTION_FOLDER)
c.CourseDirectory.course_id = "idioms"
c.Grader.launcher_class = "{LAUNCHER_CLASS}"
c.Execute.timeout = None  # nbgrader: no time limit
c.SandboxedExecute.total_seconds = 6
'''
SLEEPS = "import time\ntime.sleep(120)\nprint('woke up')"


def graded(grade_id, source, points=1):
    return new_code_cell(source, metadata={"nbgrader": {"grade": True, "grade_id": grade_id, "locked": True,
                                                        "points": points, "schema_version": 3, "solution": False}})


def answer(grade_id, source):
    return new_code_cell(source, metadata={"nbgrader": {"grade": False, "grade_id": grade_id, "locked": False,
                                                        "schema_version": 3, "solution": True}})


SQUARES = new_notebook(cells=[
    answer("squares", 'def squares(n):\n    ### BEGIN SOLUTION\n    if n < 1:\n        raise ValueError("n must be '
                      'greater than or equal to 1")\n    return [i ** 2 for i in range(1, n + 1)]\n'
                      '    ### END SOLUTION'),
    graded("correct_squares", "assert squares(1) == [1]\nassert squares(3) == [1, 4, 9]"),
    graded("squares_invalid_input", "try:\n    squares(0)\nexcept ValueError:\n    pass\nelse:\n"
                                    "    raise AssertionError('did not raise')"),
    answer("reads_answer", 'def answer():\n    ### BEGIN SOLUTION\n    with open("answer.txt") as file:\n'
                           '        return file.read().strip()\n    ### END SOLUTION'),
    graded("answer_is_read", 'assert answer() == "42"'),
    new_code_cell(SLEEPS),
], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


def test_no_time_limit_per_cell_is_accepted_and_all_cells_together_still_have_one():
    from traitlets.config import Config

    from classroom.preprocessors.execute_for_display import ExecuteForDisplay

    config = Config()
    config.Execute.timeout = None  # nbgrader's own section, as an nbgrader course writes it
    display = ExecuteForDisplay(config=config, total_seconds=7)
    display._spent = 2.0  # CPU seconds the cells before used
    assert display.timeout is None and display.cell_cpu_limit() == (5.0, True)  # what is left of all cells'
    display.timeout = 30
    assert display.cell_cpu_limit() == (5.0, True)
    display.timeout = 3
    assert display.cell_cpu_limit() == (3, False)  # its own
    display.timeout = 0  # nbclient's other way to say no limit
    display._spent = 0.0
    assert display.cell_cpu_limit() == (7.0, True)
    assert display.clock_budget() == display.wall_factor * 7


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The course, its reference handed in by `ref` and graded; `saved` hands in the release with made-up outputs
    claiming success, graded with --no-execute."""
    path = tmp_path_factory.mktemp("idioms")
    (path / "nbgrader_config.py").write_text(CONFIG)
    source = path / "source" / "ps1"
    source.mkdir(parents=True)
    shutil.copy(NBGRADER_FILES / "autotest-multi.ipynb", source / "autotest.ipynb")
    shutil.copy(NBGRADER_FILES / "autotests.yml", path / "autotests.yml")
    nbformat.write(SQUARES, source / "squares.ipynb")
    (source / "answer.txt").write_text("42\n")
    nbgrader("db", "assignment", "add", "ps1", cwd=path)
    nbgrader("generate_assignment", "ps1", cwd=path)
    shutil.copytree(source, path / "submitted" / "ref" / "ps1")
    saved = path / "submitted" / "saved" / "ps1"
    shutil.copytree(path / "release" / "ps1", saved)
    nb = json.loads((saved / "squares.ipynb").read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":  # what a notebook run by its student would show
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "all good\n"}]
    (saved / "squares.ipynb").write_text(json.dumps(nb))
    nbgrader("autograde", "ps1", "--student", "ref", cwd=path)
    nbgrader("autograde", "ps1", "--student", "saved", "--no-execute", cwd=path)
    return path


def score(course, student, notebook):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        found = gb.find_submission_notebook(notebook, "ps1", student)
        return found.score, found.max_score


def autograded(course, student, notebook):
    return json.loads((course / "autograded" / student / "ps1" / f"{notebook}.ipynb").read_text())


@pytest.mark.integration
def test_nbgraders_autotest_notebook_scores_the_reference_in_full(course):
    assert score(course, "ref", "autotest") == (4, 4)


@pytest.mark.integration
def test_the_value_error_idiom_and_the_data_file_grade_the_reference_in_full(course):
    assert score(course, "ref", "squares") == (3, 3)


@pytest.mark.integration
def test_with_no_time_limit_per_cell_the_run_still_stops(course):
    last = autograded(course, "ref", "squares")["cells"][-1]
    assert [output.get("ename") for output in last["outputs"]][-1] == "TimedOut"
    assert not [output for output in last["outputs"] if output["output_type"] == "stream"]  # not "woke up" 120 s later


@pytest.mark.integration
def test_no_execute_does_not_grade_the_outputs_the_student_saved(course):
    assert score(course, "saved", "squares") == (0, 3)  # the release raises NotImplementedError
    cells = autograded(course, "saved", "squares")["cells"]
    assert "all good" not in json.dumps(cells)  # every cell was run again, the checks included
    checks = [cell for cell in cells if cell["metadata"].get("nbgrader", {}).get("grade")]
    assert all(cell["outputs"][-1]["output_type"] == "error" for cell in checks)
