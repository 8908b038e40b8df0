"""A learner's JupyterLab and the exercise, from a fresh clone: `make lab` makes the learner's copy of the exercise
(where it is missing), so that the link at the end of lesson 03 opens it before `make exercise`; `make exercise`
opens the copy in the JupyterLab already serving the clone, and starts one on it where none runs."""
import json
import os
import re
import subprocess
import urllib.parse
import urllib.request

import pytest

from coursekit.real_parts.browser import make_lab
from coursekit.trial_course import ASSIGNMENT
from tests.self_study.learner_clone import fresh_clone

pytestmark = pytest.mark.integration

# ---- make exercise without LAB=no --------------------------------------------------------------------------------
def test_make_exercise_opens_jupyterlab_on_the_exercise(tmp_path):
    with make_lab(cwd=fresh_clone(tmp_path), make_args=("-o", ".venv/.ready", "exercise")) as (base, token):
        first_page = urllib.request.Request(f"{base}/", headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(first_page) as page:
            first = urllib.parse.urlsplit(page.url).path
    assert first == f"/lab/tree/my-work/{ASSIGNMENT}/{ASSIGNMENT}.ipynb"


LESSON_03 = "notebooks/03-a-saturated-row-stops-the-gradient.ipynb"


def linked_exercise(clone):
    """Where lesson 03's "Your turn" link to the exercise leads, relative to the clone."""
    nb = json.loads((clone / LESSON_03).read_text())
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    target, = set(re.findall(r"\]\((\.\./my-work/[^)]+\.ipynb)\)", text))
    return os.path.normpath(os.path.join("notebooks", target))


def test_the_lessons_link_opens_the_exercise_before_make_exercise_and_make_exercise_uses_the_running_lab(tmp_path):
    clone = fresh_clone(tmp_path)
    target = linked_exercise(clone)
    assert not (clone / target).exists()
    printed_by_lab = []
    with make_lab(cwd=clone, make_args=("-o", ".venv/.ready"), output=printed_by_lab) as (base, token):
        contents = urllib.request.Request(f"{base}/api/contents/{target}?content=0",
                                          headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(contents) as reply:
            assert json.load(reply)["type"] == "notebook"
        env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        # BROWSER=true: the page "opens" without a display; LAB_ARGS=--version: a second JupyterLab, if one were
        # started, would print its version and stop instead of serving
        again = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.ready", "exercise", "LAB_ARGS=--version"],
                               cwd=clone, env=dict(env, BROWSER="true"), capture_output=True, text=True)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"{base}/lab/tree/{target}?token={token}" in again.stdout, again.stdout
    assert "jupyter lab" not in again.stdout + again.stderr and "already there" in again.stdout
    assert "Your copy of the exercise is now in my-work/score_gradient/" in printed_by_lab[0]
    assert "DeprecationWarning" not in printed_by_lab[0], printed_by_lab[0]  # e.g. of ServerApp.token
