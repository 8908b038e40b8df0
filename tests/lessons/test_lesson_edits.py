"""A check that fails on a lesson a learner's JupyterLab saved says which file it is and what to do
(coursekit.lesson_edits), in a pytest of its own on a small repository written here: one lesson the learner's
session saved with other outputs, one left as committed. nbval checks the first, a plain test with a `path`
parameter fails on both, and only the saved one gets the advice."""
import subprocess

import nbformat
import pytest

from coursekit.lesson_edits import SECTION
from coursekit.repository import ROOT

pytestmark = pytest.mark.integration  # nbval starts a kernel

SUITE = '''
from pathlib import Path

import pytest

LESSONS = sorted((Path(__file__).parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_counts(path):
    assert False, f"{path.name}: execution counts [2, 1]: run `make notebooks`"
'''


def lesson(path, printed):
    cell = nbformat.v4.new_code_cell("print(1)", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{printed}\n")]
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nbformat.write(nb, path)


def git(folder, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=folder, check=True,
                   capture_output=True)


def test_only_the_lesson_a_session_saved_gets_the_way_back(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(test_suite=SUITE)
    lessons = pytester.path / "notebooks"
    lessons.mkdir()
    lesson(lessons / "01-saved.ipynb", 1)
    lesson(lessons / "02-untouched.ipynb", 1)
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", ".")
    git(pytester.path, "commit", "-q", "-m", "lessons")
    lesson(lessons / "01-saved.ipynb", 2)  # what the learner's session saved

    result = pytester.runpytest_subprocess("-p", "coursekit.lesson_edits", "-p", "no:cacheprovider", "--nbval",
                                           "--nbval-current-env", "test_suite.py", "notebooks/01-saved.ipynb")
    text = result.stdout.str()
    result.assert_outcomes(failed=3)
    # nbval's failure of the saved lesson, and the plain test's, each say what the file is and the way back
    assert text.count(SECTION) == 2, text
    assert text.count("git checkout -- notebooks/01-saved.ipynb") == 2, text
    assert "notebooks/02-untouched.ipynb differs" not in text and "git checkout -- notebooks/02" not in text, text
