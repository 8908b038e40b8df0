"""The committed lesson notebooks are one clean top-to-bottom run (nbval checks the outputs reproduce)."""
import re

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


def test_no_stray_notebooks():
    stray = [p.relative_to(ROOT) for p in ROOT.rglob("*.ipynb")
             if ".venv" not in p.parts and (p.name.lower().startswith("untitled") or ".ipynb_checkpoints" in p.parts)]
    assert not stray, f"stray notebooks: {stray}"
