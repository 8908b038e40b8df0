"""Fixtures shared by the test suite, the order its files run in, and the gate of the real parts (coursekit.parts).

What the tests share with the benches (a throw-away course, the corpus, the browser, the hub...) is the coursekit
package at the repository root; tests import it, never this file.
"""
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # figures are drawn off-screen in tests

# coursekit.parts: requires(part), a marker a part, skipped or required, and the closing line; coursekit.lesson_edits:
# what to do when a check fails on a lesson a learner's JupyterLab saved. pytester tests both.
pytest_plugins = ["coursekit.parts", "coursekit.lesson_edits", "pytester"]

# nbval runs the lesson notebooks; any notebook under tests/ (a corpus of student submissions, say) is data.
collect_ignore_glob = ["**/*.ipynb", "*.ipynb"]

TESTS = Path(__file__).resolve().parent
RUN_STARTED = "SQDK_TESTS_STARTED"  # the run's "now", the same in every pytest-xdist worker (semester_class.NOW)


def pytest_configure(config):
    """The controller sets the run's "now" before it starts its workers, which inherit it (each worker's configure
    keeps it): a class graded once by one worker and read by all has one due date. It also has the helpers fork their
    nbgrader and classroom commands (coursekit.forked_commands), unless SQDK_FORKED_COMMANDS is set already."""
    import datetime
    import os

    from coursekit.forked_commands import FORK

    os.environ.setdefault(RUN_STARTED, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"))
    os.environ.setdefault(FORK, "1")
# The files that take longest (minutes of grading), run first: with `--dist loadfile` each file goes to one worker
# in collection order (make test passes --no-loadscope-reorder, so pytest-xdist keeps this order rather than its own,
# the files with most tests first), so starting with the longest leaves no worker alone with a long file at the end.
LONGEST_FIRST = ["setup/test_nbgrader_contract.py", "assignment/test_assignment_corpus.py", "hub/test_hub_class.py",
                 "grading/runs/test_grading_faults.py",
                 "grading/runs/test_grading_parallel.py", "grading/semester/test_semester.py",
                 "grading/test_assignment_cycle.py", "grading/semester/test_semester_outputs.py",
                 "assignment/test_assignment_validate.py", "sandbox/test_sandbox_hostile.py",
                 "lessons/test_notebooks_other_cpu.py", "grading/runs/test_grading_result.py", "lms/test_lms_route.py",
                 "feedback/test_inert_pages.py", "feedback/test_feedback_page.py",
                 "accessibility/test_accessibility.py", "self_study/test_self_study_learner.py",
                 "explorer/test_browser_explorer.py", "explorer/test_browser_notebooks.py",
                 "explorer/test_browser_page.py",
                 "lab/test_validate_dialog.py", "feedback/test_output_caps.py"]
_moved = [name for name in LONGEST_FIRST if not (TESTS / name).exists()]
if _moved:
    raise pytest.UsageError(f"tests/conftest.py LONGEST_FIRST names files that are not there: {', '.join(_moved)}")


def pytest_collection_modifyitems(items):
    """Running a lesson notebook (nbval) starts a real kernel: those items are integration tests too. The longest
    files go first (LONGEST_FIRST); the items of one file keep their order."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.integration)
    rank = {TESTS / name: i for i, name in enumerate(LONGEST_FIRST)}
    order = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda item: (rank.get(item.path, len(rank)), order[id(item)]))


@pytest.fixture(scope="session")
def root():
    from coursekit.repository import ROOT

    return ROOT


# ---- score_gradient assignment: graded once per session, then only read -------------------------------------------
@pytest.fixture(scope="session")
def graded_corpus(tmp_path_factory):
    """Every submission in tests/submissions/, autograded once as `make autograde` does, with this course's config:
    ({student: (course path, {grade_id: score})}, {notebook: {grade_id: points}})."""
    from coursekit import corpus

    return corpus.grade_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="session")
def released_course(tmp_path_factory):
    """A course made from this repository's source/ and nbgrader_config.py, with release/ generated (not graded)."""
    from coursekit import trial_course

    return trial_course.make_course(tmp_path_factory.mktemp("released") / "course")


@pytest.fixture(scope="session")
def empty_gradebook():
    """An empty gradebook of this course (nbgrader_config.py's course id), made once (coursekit.trial_course: making
    one runs nbgrader's `alembic`). Each test copies it and never writes to it."""
    from coursekit.trial_course import empty_gradebook

    return empty_gradebook()


@pytest.fixture
def in_process():
    """`in_process(SUBCOMMAND, *ARGS)`: `classroom SUBCOMMAND ARGS` run in this process, in the current folder (so a
    monkeypatch holds); its exit status."""
    from classroom.app.main import command_class

    def run(subcommand, *args):
        app = command_class(subcommand)()
        app.subcommand_name = subcommand  # its messages name it, as `classroom` has them
        app.initialize(list(args))
        app.start()
        return app.status

    return run
