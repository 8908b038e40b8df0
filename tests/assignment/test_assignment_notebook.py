"""The score_gradient assignment as an instructor ships it: validated both ways, release/ regenerated identically,
and every grade cell shaped the way nbgrader's cell rhythm asks (docstring, grade_id, points, raises on failure)."""
import ast
import json
import re

import pytest

from classroom import cells
from coursekit.repository import ROOT, load_notebook
from coursekit import trial_course
from coursekit.quiz.answers import SECRETS

SOURCE = ROOT / "source" / "score_gradient" / "score_gradient.ipynb"
RELEASE = ROOT / "release" / "score_gradient" / "score_gradient.ipynb"
ONLY_WHEN_GRADED = "# Only when graded:"


def grade_cells(nb):
    return [c for c in nb["cells"] if cells.is_check(c)]  # the written derivation is graded by hand


NOTEBOOKS = sorted(p.name for p in SOURCE.parent.glob("*.ipynb"))  # the exercise and the quiz


@pytest.mark.integration
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_source_passes_nbgrader_validate(name):
    result = trial_course.nbgrader("validate", str(SOURCE.parent / name), cwd=ROOT)
    assert "Success! Your notebook passes all the tests." in result.stdout, result.stdout + result.stderr


@pytest.mark.integration
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_release_fails_every_grade_cell_under_validate_invert(name):
    result = trial_course.nbgrader("validate", "--invert", str(RELEASE.parent / name), cwd=ROOT)
    assert "Success! The notebook does not pass any tests." in result.stdout, result.stdout + result.stderr


@pytest.mark.integration
def test_release_is_what_generate_assignment_makes(released_course):
    assert sorted(p.name for p in (released_course / "release" / "score_gradient").iterdir()) == \
        sorted(p.name for p in RELEASE.parent.iterdir())
    for committed in sorted(RELEASE.parent.glob("*.ipynb")):
        fresh = json.loads((released_course / "release" / "score_gradient" / committed.name).read_text())
        assert fresh == json.loads(committed.read_text()), f"release/ is stale ({committed.name}): run `make release`"


@pytest.mark.parametrize("cell", grade_cells(load_notebook(SOURCE)),
                         ids=lambda c: c["metadata"]["nbgrader"]["grade_id"])
def test_each_grade_cell_checks_one_named_behaviour_and_raises_on_failure(cell):
    meta = cell["metadata"]["nbgrader"]
    source = "".join(cell["source"])
    tree = ast.parse(source)
    assert ast.get_docstring(tree), "open the grade cell with a one-line docstring saying what it checks"
    assert meta["points"] > 0 and meta["locked"] and len(meta["grade_id"]) > 8
    last = tree.body[-1]
    # a last value (a comparison, a number) would be read by nbgrader as partial credit; calls here return None
    assert not (isinstance(last, ast.Expr) and not isinstance(last.value, ast.Call)), "end by raising, not a value"
    visible = cells.visible(source)
    answers = {name for c in load_notebook(SOURCE)["cells"] if cells.is_solution(c)
               for name in re.findall(r"^(?:def )?(\w+)", "".join(c["source"]), re.M)} - {"import", "def"}
    assert any(re.search(rf"\b{name}\b", visible) for name in answers), \
        "the visible part must use the student's answer, so that the released notebook fails it"
    hidden = visible != source
    assert (ONLY_WHEN_GRADED in visible) == hidden, \
        "a check with a hidden part says on a `# Only when graded:` line what only the grader decides, and only it"


def test_the_prompt_gives_the_two_cases_and_never_the_result():
    text = "".join("".join(c["source"]) for c in load_notebook(RELEASE)["cells"] if c["cell_type"] == "markdown")
    for needle in (r"\alpha_{ij}\,(1 - \alpha_{ij})", r"-\,\alpha_{ij}\,\alpha_{im}", "No Jacobian",
                   "Whole-array operations", "Leave `A` and `G` alone"):
        assert needle in text
    for result in (r"\alpha_{im}\Big(g_{im} - \sum", "weighted by row $i$ of $A$", "<details>"):
        assert result not in text, "the student derives the result: the release must not give it, not even in a hint"


def test_the_written_derivation_is_graded_by_hand_and_released_empty():
    source = [c for c in load_notebook(SOURCE)["cells"] if cells.grade_id(c) == "derivation"]
    released = [c for c in load_notebook(RELEASE)["cells"] if cells.grade_id(c) == "derivation"]
    assert len(source) == len(released) == 1
    meta = source[0]["metadata"]["nbgrader"]
    assert source[0]["cell_type"] == "markdown" and meta["grade"] and meta["solution"] and meta["points"] > 0, \
        "a manually graded answer: a Markdown cell marked both solution and grade, with points"
    assert r"\alpha_{im}\Big(g_{im} - \sum" in "".join(source[0]["source"])
    assert "".join(released[0]["source"]).strip() == "YOUR ANSWER HERE"


def test_the_row_worked_by_hand_is_not_printed_for_the_student():
    code = "".join("".join(c["source"]) for c in load_notebook(RELEASE)["cells"]
                   if c["cell_type"] == "code" and not cells.nbgrader(c))
    assert "[1 / 2, 1 / 3, 1 / 6]" not in code and "6.0, 0.0, 12.0" not in code


def test_release_holds_no_solution_and_no_hidden_test():
    text = RELEASE.read_text()
    for secret in (*SECRETS, "HIDDEN TESTS", "weighted_mean"):  # the last two: any marker, any use of the name
        assert secret not in text, secret
