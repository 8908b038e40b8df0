"""lab2 and bonus (assignments.py), graded side by side by plain nbgrader and by ours in the sandbox. lab2: a lambda,
a generator and a matplotlib axis passed to the student's code, a generator function checked as one, a later answer
that redefines an earlier one, a wrong answer that loops for ever in a check, and notebooks whose ordinary cells carry
the metadata old nbgrader versions wrote. bonus: a check that prints more points than it is worth, which nbgrader
refuses (docs/differences-from-nbgrader.md names the one difference)."""
import pytest

from coursekit.repository import ROOT
from . import side_by_side

pytestmark = pytest.mark.integration  # in the sandbox where the machine has one (coursekit.trial_course)
DIFFERENCES = (ROOT / "docs" / "differences-from-nbgrader.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    return side_by_side.grade("lab2", tmp_path_factory.mktemp("lab2"))


@pytest.fixture(scope="module")
def bonus(tmp_path_factory):
    return side_by_side.grade("bonus", tmp_path_factory.mktemp("bonus"))


def test_every_cell_scores_as_plain_nbgrader_scores_it(lab):
    assert side_by_side.differences(lab) == {}, lab.plain_log[-4000:]
    wrong = {grade_id: score for (student, _, grade_id), score in lab.scores["ours"].items() if student == "wrong"}
    # the first normalise was wrong and the second right: each check saw the one defined before it, as in nbgrader
    assert wrong["normalise_sums_to_one"] == 0 and wrong["normalise_empty_list"] == 1
    assert wrong["first_n_generator"] == 0 and wrong["histogram_axes"] == 0  # looped for ever; no x label


def test_old_metadata_costs_no_warning_and_the_endless_loop_is_stopped_where_it_ran(lab):
    assert "Dropping nbgrader metadata" not in lab.log
    cells = side_by_side.autograded(lab, "wrong", "lab2", "functions")["cells"]
    loop = next(c for c in cells if c["metadata"].get("nbgrader", {}).get("grade_id") == "first_n_generator")
    said = [o["evalue"] for o in loop["outputs"] if o.get("ename") == "TimedOut"]
    assert said and "this check" in said[0] and "10 s of CPU time" in said[0]
    later = next(c for c in cells if c["metadata"].get("nbgrader", {}).get("grade_id") == "histogram_axes")
    assert "label the x axis" in str(later["outputs"])  # the cells after it ran, in the same kernel


def test_partial_credit_above_the_points_is_refused_as_nbgrader_refuses_it_naming_the_cell(bonus):
    assert side_by_side.differences(bonus) == {("correct", "bonus", "double_with_bonus"): (None, 0.0)}
    assert "'double_with_bonus' shows more points than its 2" in bonus.log
    assert "partial credit cannot be greater than maximum points for cell" in bonus.log  # nbgrader's own words
    assert "### Partial credit above a cell's points" in DIFFERENCES
    assert bonus.scores["ours"][("wrong", "bonus", "double_with_bonus")] == 2.0
