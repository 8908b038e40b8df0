"""Shared fixtures for the test suite."""
import json
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # figures are drawn off-screen in tests

ROOT = Path(__file__).resolve().parent.parent
LESSON_NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# nbval runs the lesson notebooks; any notebook under tests/ (a corpus of student submissions, say) is data.
collect_ignore_glob = ["**/*.ipynb", "*.ipynb"]


# The files that take longest (minutes of grading), run first: with `--dist loadfile` each file goes to one worker
# in collection order, so starting with the longest leaves no worker alone with a long file at the end.
LONGEST_FIRST = ["test_assignment_corpus.py", "test_hub_class.py", "test_grading_faults.py",
                 "test_grading_parallel.py", "test_assignment_cycle.py", "test_assignment_validate.py",
                 "test_sandbox_hostile.py", "test_notebooks_other_cpu.py", "test_class_report.py", "test_lms_route.py",
                 "test_inert_pages.py", "test_feedback_page.py", "test_self_study_learner.py", "test_browser_explorer.py",
                 "test_validate_dialog.py", "test_output_caps.py"]


def pytest_collection_modifyitems(items):
    """Running a lesson notebook (nbval) starts a real kernel: those items are integration tests too. The longest
    files go first (LONGEST_FIRST); the items of one file keep their order."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.integration)
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    order = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda item: (rank.get(item.path.name, len(rank)), order[id(item)]))


@pytest.fixture(scope="session")
def root():
    return ROOT


def load_notebook(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def stored_text(path):
    """(Markdown prose, [what each code cell printed]) of a lesson notebook, from its committed outputs.

    Reading the committed outputs is as good as running the notebook because nbval, in the same suite, re-runs every
    lesson notebook in a fresh kernel and fails if any output differs from the committed one."""
    nb = load_notebook(path)
    text = lambda cell: "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    prose = "\n".join(text(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    printed = []
    for cell in (c for c in nb["cells"] if c["cell_type"] == "code"):
        parts = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append("".join(out["text"]))
            elif "text/plain" in out.get("data", {}):
                parts.append("".join(out["data"]["text/plain"]))
        printed.append("".join(parts))
    return prose, printed




# ---- score_gradient assignment (tests/test_assignment_*.py): graded once per session, then only read ---------------
@pytest.fixture(scope="session")
def graded_corpus(tmp_path_factory):
    """Every submission in tests/submissions/, autograded once as `make autograde` does, with this course's config:
    ({student: (course path, {grade_id: score})}, {notebook: {grade_id: points}})."""
    from tests.helpers import corpus

    return corpus.grade_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="session")
def released_course(tmp_path_factory):
    """A course made from this repository's source/ and nbgrader_config.py, with release/ generated (not graded)."""
    from tests.helpers import course

    return course.make_course(tmp_path_factory.mktemp("released") / "course")
