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


@pytest.fixture(scope="session")
def root():
    return ROOT


def load_notebook(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))




# ---- score_gradient assignment (tests/test_assignment_*.py): graded once per session, then only read ---------------
@pytest.fixture(scope="session")
def graded_corpus(tmp_path_factory):
    """Every submission in tests/submissions/, autograded once by the real nbgrader with this course's config:
    ({student: (course path, {grade_id: score})}, {grade_id: points})."""
    from tests.helpers import corpus

    return corpus.grade_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="session")
def released_course(tmp_path_factory):
    """A course made from this repository's source/ and nbgrader_config.py, with release/ generated (not graded)."""
    from tests.helpers import course

    return course.make_course(tmp_path_factory.mktemp("released") / "course")
