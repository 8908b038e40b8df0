"""A submitted folder is read as untrusted when `make autograde` grades it, whatever reached submitted/ (collect drops
links since classroom.plugins.exchange_collect, but a course may hold folders collected before, or copied in by hand):
nothing a link, a hard link or a pipe points at is copied into autograded/ or shown by the student's own cells, and the
files left out are named in the student's feedback."""
import json
import os

import pytest

from classroom.grading import result as results
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS

pytestmark = pytest.mark.integration

TOKEN = "INSTRUCTOR-ONLY-7f3a"
PRINTS_EVERYTHING = """import os
for name in sorted(os.listdir('.')):
    try:
        print(name, open(name, errors='replace').read()[:20000])
    except Exception as exc:
        print(name, type(exc).__name__)
"""


def test_links_pipes_and_hard_links_in_a_submitted_folder_are_left_out(tmp_path):
    place = trial_course.make_course(tmp_path / "course")
    secret = tmp_path / "instructor-notes.txt"
    secret.write_text(TOKEN)
    other = trial_course.write_submission(place, "bob", trial_course.submission("def score_gradient(A, G):\n    return G  # bob\n"))
    nb = trial_course.submission((SUBMISSIONS / "correct_matmul.py").read_text())
    nb["cells"].append({"cell_type": "code", "metadata": {}, "source": PRINTS_EVERYTHING, "outputs": [],
                        "execution_count": None})
    folder = trial_course.write_submission(place, "mallory", nb)
    os.symlink(place / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", folder / "source.txt")
    os.symlink(secret, folder / "notes.txt")
    os.symlink(other / f"{ASSIGNMENT}.ipynb", folder / "bob.txt")
    os.symlink(place / "source", folder / "all_of_source")
    os.link(secret, folder / "hard.txt")
    os.mkfifo(folder / "pipe.txt")
    (folder / "data.txt").write_text("my own data")

    result = trial_course.autograde(place)

    assert result.returncode == 0, result.stderr[-3000:]
    assert sum(trial_course.scores(place)["mallory"].values()) == 20.0  # her function is right: links cost her nothing
    graded = place / "autograded" / "mallory" / ASSIGNMENT
    shown = "".join(p.read_text(errors="replace") for p in graded.rglob("*") if p.is_file())
    for leaked in (TOKEN, "### BEGIN SOLUTION", "# bob"):
        assert leaked not in shown, leaked
    dropped = {"source.txt", "notes.txt", "bob.txt", "all_of_source", "hard.txt", "pipe.txt"}
    kept = {p.name for p in graded.iterdir()}
    assert "data.txt" in kept and not kept & dropped and not any(p.is_symlink() for p in graded.rglob("*"))
    assert "my own data" in json.dumps(trial_course.autograded_notebook(place, "mallory"))  # it reached her own cells
    notes = " ".join(results.read(graded, ASSIGNMENT).notes)  # what her feedback's summary says
    for name in dropped:
        assert f"`{name}`" in notes, name
