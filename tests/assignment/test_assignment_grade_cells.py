"""The checks of score_gradient.ipynb live in source/score_gradient/grade_cells.py: the notebook's grade cells are
what tools/write_grade_cells.py builds from it, the file runs as a module against the reference solution, and it never
leaves source/ (not in release/; tests/assignment/test_assignment_corpus.py checks the autograded folders)."""
import importlib
import json
import sys

import nbformat
import numpy as np
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


@pytest.fixture
def checks_module(tmp_path, monkeypatch):
    """grade_cells.py imported as a module, with `score_gradient_solution` the source notebook's answer cells."""
    answers = [c for c in nbformat.read(SOURCE, as_version=4).cells
               if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")]  # not the written answer
    (tmp_path / "score_gradient_solution.py").write_text("\n\n".join(c.source for c in answers))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(CHECKS.parent))
    try:
        yield importlib.import_module("grade_cells")
    finally:
        for name in ("grade_cells", "score_gradient_solution"):
            sys.modules.pop(name, None)


def test_the_checks_file_runs_as_a_module_against_the_reference_solution(checks_module):
    """Importing grade_cells.py runs every check in order: its imports resolve, every name it uses is defined, and the
    reference answers pass."""
    assert checks_module.__file__ == str(CHECKS)


def reference_sizes(d_k, draws=2000, T=8, seed=2017):
    """The grader's measurement of part 2, as its hidden checks describe it: every draw at once, as a stack of (T, T)
    logit matrices. Returns, undivided and divided, the mean size of the softmax's gradient and the spread (standard
    deviation) of one draw's size."""
    rng = np.random.default_rng(seed)
    Q, K, G = rng.normal(size=(draws, T, d_k)), rng.normal(size=(draws, T, d_k)), rng.normal(size=(draws, T, T))
    sizes = []
    for divisor in (1.0, np.sqrt(d_k)):
        S = Q @ K.transpose(0, 2, 1) / divisor
        A = np.exp(S - S.max(axis=2, keepdims=True))
        A /= A.sum(axis=2, keepdims=True)
        each = np.mean(np.abs(A * (G - np.sum(A * G, axis=2, keepdims=True))), axis=(1, 2))
        sizes.append((float(each.mean()), float(each.std())))
    return sizes


def test_the_graders_written_measurement_is_what_it_measures(checks_module):
    """The sizes the hidden checks of part 2 hold mean_sizes to are written in the file (measuring them costs every
    grading process 0.4 to 0.8 CPU-s): they are what the measurement they describe gives, at each width checked."""
    written = checks_module._REFERENCE_SIZES
    assert sorted(written) == [16, 64, 256]
    for d_k, sizes in written.items():
        np.testing.assert_allclose(reference_sizes(d_k), sizes, rtol=1e-9, err_msg=f"d_k = {d_k}")


@pytest.mark.integration
def test_release_never_receives_the_checks_file(released_course):
    released = released_course / "release" / ASSIGNMENT
    assert sorted(p.name for p in released.iterdir()) == sorted(p.name for p in SOURCE.parent.glob("*.ipynb"))
    assert not (ROOT / "release" / ASSIGNMENT / CHECKS.name).exists()
