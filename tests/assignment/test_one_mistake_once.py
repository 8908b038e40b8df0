"""A mistake costs its points once (issue 36): the checks of source/score_gradient/grade_cells.py, run in one
namespace as the grader runs them, against a student's code in this process (no sandbox: the checks' logic only;
tests/assignment/test_assignment_corpus.py grades the same code for real). A part-1 mistake loses part-1 points
only, the value checks that test one property do not all charge one wrong formula, and a check that depends on
another part says so."""
import numpy as np
import pytest

from coursekit.repository import ROOT
from tools import write_grade_cells

CHECKS = write_grade_cells.read_checks(ROOT / "source" / "score_gradient" / "grade_cells.py")
SUBMISSIONS = ROOT / "tests" / "submissions"
PART_TWO = ("size_follows_the_definition", "sizes_match_the_measurement")
VALUE_CHECKS = ("worked_example_2x2", "matches_finite_differences", "values_match_reference")


def student(solution, **answers):
    """The names a student's answer cells define: `solution` (a file of tests/submissions/, or a path) for
    score_gradient, the right answer (tests/submissions/cells/<grade_id>.py) for every other answer cell unless `answers` names one."""
    files = {"by_hand_answer": "by_hand_answer.py", "score_gradient_size_solution": "score_gradient_size_solution.py",
             "mean_sizes_solution": "mean_sizes_solution.py", **answers}
    namespace = {"np": np}
    for path in [SUBMISSIONS / solution] + [SUBMISSIONS / "cells" / name for name in files.values()]:
        exec(compile(path.read_text(), str(path), "exec"), namespace)  # a real file: the loop rule reads its source
    return namespace


def grade(namespace):
    """{grade_id: (points earned, what it printed or raised)}: every check in order, in one namespace."""
    import contextlib
    import io
    results = {}
    for grade_id, points, code in CHECKS:
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(code, grade_id, "exec"), namespace)
            results[grade_id] = (points, printed.getvalue())
        except AssertionError as exc:
            results[grade_id] = (0, str(exc))
    return results


def lost(results):
    return {grade_id for grade_id, (points, _) in results.items() if points == 0}


@pytest.fixture(scope="module")
def reference():
    return grade(student("correct_keepdims.py"))


def test_the_reference_keeps_every_point(reference):
    assert not lost(reference), {k: v for k, v in reference.items() if not v[0]}


def test_a_wrong_summation_axis_loses_part_one_points_only(reference):
    results = grade(student("wrong_sum_over_wrong_axis.py"))
    assert lost(results) and not lost(results) & set(PART_TWO), results
    kept_part_two = sum(results[grade_id][0] for grade_id in PART_TWO)
    assert kept_part_two == sum(reference[grade_id][0] for grade_id in PART_TWO) == 5
    assert results["sizes_match_the_measurement"][0] == 3
    assert "your score_gradient_size gives" in results["sizes_match_the_measurement"][1]


def test_writing_into_G_costs_the_inputs_rule_only():
    assert lost(grade(student("wrong_writes_into_G.py"))) == {"inputs_left_untouched"}


@pytest.mark.parametrize("solution", ["wrong_sum_over_wrong_axis.py", "wrong_one_sign_error.py",
                                      "wrong_returns_A_times_G.py", "wrong_missing_alpha_factor.py"])
def test_one_wrong_formula_costs_the_value_checks_less_than_their_six_points(solution, reference):
    results = grade(student(solution))
    charged = sum(reference[grade_id][0] - results[grade_id][0] for grade_id in VALUE_CHECKS)
    assert 0 < charged < sum(reference[grade_id][0] for grade_id in VALUE_CHECKS) == 6, results
    assert results["values_match_reference"][0] == 3
    assert "depends on matches_finite_differences" in results["values_match_reference"][1]
    assert "sizes_match_the_measurement" not in lost(results)


def test_a_mistake_of_part_two_is_still_charged_where_it_is_made():
    forgets = grade(student("correct_matmul.py", score_gradient_size_solution="size_forgets_divisor.py"))
    assert lost(forgets) == {"size_follows_the_definition"}, "its mean_sizes is right: charged once"
    divides = grade(student("correct_keepdims.py", mean_sizes_solution="mean_sizes_divides_by_d_k.py"))
    assert lost(divides) == {"sizes_match_the_measurement"}
    assert "passes the divisors 1 and sqrt(d_k)" in divides["sizes_match_the_measurement"][1]
    fitted = grade(student("correct_keepdims.py", mean_sizes_solution="mean_sizes_fitted_formula.py"))
    assert lost(fitted) == {"sizes_match_the_measurement"}


@pytest.mark.parametrize("slip, named", [
    ("A * (G - (A * G).sum(-1))", "without keepdims"),
    ("G - A * G.sum(1, keepdims=True)", "log-softmax"),
    ("A * (G - np.sum(A * G, axis=0, keepdims=True))", "axis 0"),
])
def test_a_common_slip_is_named_by_the_check_that_charges_it(slip, named, tmp_path):
    (tmp_path / "slip.py").write_text(f"import numpy as np\n\n\ndef score_gradient(A, G):\n    return {slip}\n")
    results = grade(student(tmp_path / "slip.py"))
    assert named in results["matches_finite_differences"][1], results["matches_finite_differences"]
