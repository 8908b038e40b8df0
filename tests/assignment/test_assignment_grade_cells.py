"""The checks of score_gradient.ipynb live in source/score_gradient/grade_cells.py: the notebook's grade cells are
what tools/write_grade_cells.py builds from it, the file runs as a module against the reference solution, and it never
leaves source/ (not in release/; tests/assignment/test_assignment_corpus.py checks the autograded folders)."""
import importlib
import json
import sys

import nbformat
import pytest

from coursekit.trial_course import ASSIGNMENT
from coursekit.repository import ROOT
from tools import write_grade_cells

SOURCE = ROOT / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
CHECKS = write_grade_cells.checks_file(SOURCE)


def test_the_notebook_holds_what_the_tool_builds():
    committed = nbformat.read(SOURCE, as_version=nbformat.NO_CONVERT)
    built = write_grade_cells.build(nbformat.read(SOURCE, as_version=nbformat.NO_CONVERT),
                                   write_grade_cells.read_checks(CHECKS))
    assert json.loads(nbformat.writes(built)) == json.loads(nbformat.writes(committed)), \
        "run `make release` (it runs tools/write_grade_cells.py first)"


def test_the_tool_refuses_a_file_and_a_notebook_that_disagree():
    checks = write_grade_cells.read_checks(CHECKS)
    with pytest.raises(ValueError, match="same order"):
        write_grade_cells.build(nbformat.read(SOURCE, as_version=nbformat.NO_CONVERT), checks[::-1])
    with pytest.raises(ValueError, match="same order"):
        write_grade_cells.build(nbformat.read(SOURCE, as_version=nbformat.NO_CONVERT), checks[:-1])


def test_the_checks_file_runs_as_a_module_against_the_reference_solution(tmp_path, monkeypatch):
    """Importing grade_cells.py runs every check in order, with `score_gradient_solution` the source notebook's
    answer cells: its imports resolve, every name it uses is defined, and the reference answers pass."""
    answers = [c for c in nbformat.read(SOURCE, as_version=4).cells
               if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")]  # not the written answer
    (tmp_path / "score_gradient_solution.py").write_text("\n\n".join(c.source for c in answers))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(CHECKS.parent))
    try:
        module = importlib.import_module("grade_cells")
        assert module.__file__ == str(CHECKS)
    finally:
        for name in ("grade_cells", "score_gradient_solution"):
            sys.modules.pop(name, None)


@pytest.mark.integration
def test_release_never_receives_the_checks_file(released_course):
    released = released_course / "release" / ASSIGNMENT
    assert sorted(p.name for p in released.iterdir()) == sorted(p.name for p in SOURCE.parent.glob("*.ipynb"))
    assert not (ROOT / "release" / ASSIGNMENT / CHECKS.name).exists()
