"""The committed lesson notebooks are one clean top-to-bottom run (nbval checks the outputs reproduce)."""
import re
import subprocess
from pathlib import PurePosixPath

import pytest

from coursekit.repository import LESSON_NOTEBOOKS, ROOT, load_notebook

NAME = re.compile(r"^\d\d-[a-z0-9_]+(-[a-z0-9_]+)*\.ipynb$")


def test_there_are_lesson_notebooks():
    assert len(LESSON_NOTEBOOKS) >= 3


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=lambda p: p.name)
def test_name_sorts_and_says_what_it_holds(path):
    assert NAME.match(path.name), f"{path.name}: name it NN-words-joined-by-dashes.ipynb"


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=lambda p: p.name)
def test_one_clean_run(path):
    nb = load_notebook(path)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: execution counts {counts}: run `make notebooks`"
    for i, cell in enumerate(code):
        for out in cell["outputs"]:
            assert out["output_type"] != "error", f"{path.name}, code cell {i + 1} stored an error"
            assert out.get("name") != "stderr", \
                f"{path.name}, code cell {i + 1} wrote to stderr: {''.join(out['text'])[:200]}"
        assert set(cell["metadata"]) <= {"tags", "nbgrader"}, \
            f"{path.name}, code cell {i + 1}: stray metadata {sorted(cell['metadata'])}"
    assert set(nb["metadata"]) == {"kernelspec", "language_info"}, f"{path.name}: stray notebook metadata"
    assert set(nb["metadata"]["language_info"]) <= {"name", "pygments_lexer"}, \
        f"{path.name}: machine-specific language_info"


@pytest.mark.parametrize("path", LESSON_NOTEBOOKS, ids=lambda p: p.name)
def test_starts_with_a_title_and_every_code_cell_is_short(path):
    nb = load_notebook(path)
    first = "".join(nb["cells"][0]["source"])
    assert nb["cells"][0]["cell_type"] == "markdown" and first.startswith("# "), \
        f"{path.name}: open with a '# Title' cell"
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            lines = [l for l in "".join(cell["source"]).splitlines() if l.strip()]
            assert len(lines) <= 25, \
                f"{path.name}, cell {i}: {len(lines)} lines of code; split it or move plumbing to attention_lesson"


def stray_notebooks(root):
    """Notebooks committed (or staged) in the repository at `root` that are JupyterLab's leftovers: Untitled*.ipynb,
    or a checkpoint. What a learner's own session leaves in the working tree (checkpoints in notebooks/ or my-work/,
    git-ignored) is theirs, not the repository's, and never counts."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "*.ipynb"], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    return [name for name in listed if PurePosixPath(name).name.lower().startswith("untitled")
            or ".ipynb_checkpoints" in PurePosixPath(name).parts]


def test_no_stray_notebooks_are_committed():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (a downloaded archive): what is committed cannot be read")
    stray = stray_notebooks(ROOT)
    assert not stray, f"JupyterLab's leftovers are committed: {stray} (git rm --cached them)"


def test_a_learners_checkpoints_do_not_count_but_a_committed_leftover_does(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name in ("notebooks/.ipynb_checkpoints/01-x-checkpoint.ipynb", "my-work/.ipynb_checkpoints/a-checkpoint.ipynb",
                 "notebooks/01-x.ipynb", "Untitled1.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    subprocess.run(["git", "-C", str(tmp_path), "add", "notebooks/01-x.ipynb"], check=True)
    assert stray_notebooks(tmp_path) == []
    subprocess.run(["git", "-C", str(tmp_path), "add", "-f", "Untitled1.ipynb",
                    "notebooks/.ipynb_checkpoints/01-x-checkpoint.ipynb"], check=True)
    assert sorted(stray_notebooks(tmp_path)) == ["Untitled1.ipynb", "notebooks/.ipynb_checkpoints/01-x-checkpoint.ipynb"]
