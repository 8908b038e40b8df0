"""classroom.checks.exercise: the plumbing of the exercise's visible checks, which runs in the student's kernel and
in the grader. Each helper must pass a right answer and stop a wrong one with a message saying what it saw."""
import io
import sys

import numpy as np
import pytest

import classroom.checks.exercise as checks


def right(A, G):
    """dl/de by the explicit Jacobian of each row (diag(a) - a a^T), the slow way: independent of the helpers."""
    return np.stack([(np.diag(a) - np.outer(a, a)) @ g for a, g in zip(A, G)])


def test_central_differences_agree_with_the_jacobian():
    rng = np.random.default_rng(1)
    E, G = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    assert np.allclose(checks.nudged_gradient(E, G), right(checks.softmax_rows(E), G), atol=1e-8)


def test_cases_are_rows_of_weights_and_the_same_for_the_same_seed():
    A, G = checks.case(6, 3)
    assert np.allclose(A.sum(axis=1), 1) and (A > 0).all() and G.shape == (6, 6)
    assert all(np.array_equal(x, y) for x, y in zip(checks.case(6, 3), (A, G)))
    assert checks.case(6, 3, np.float32)[0].dtype == np.float32
    Q, K, G = checks.draw(8, 16, 5)
    assert Q.shape == K.shape == (8, 16) and G.shape == (8, 8)


@pytest.mark.parametrize("out, said", [(np.zeros((3, 3)), "shape (3, 3)"), (np.array([["a"] * 2] * 2), "dtype")])
def test_a_result_of_the_wrong_shape_or_kind_is_named(out, said):
    with pytest.raises(AssertionError, match=said.replace("(", r"\(").replace(")", r"\)")):
        checks.as_matrix(out, 2)


def test_zero_rows_must_be_exactly_the_given_ones():
    got = np.ones((3, 3))
    got[1] = 0
    checks.zero_rows_only(got, [1], lambda off: f"off by {off}")
    with pytest.raises(AssertionError, match="off by 1"):
        checks.zero_rows_only(got, [0, 1], lambda off: f"off by {off:g}")
    with pytest.raises(AssertionError, match="ordinary rows too"):
        checks.zero_rows_only(np.zeros((3, 3)), [1], lambda off: "")


@pytest.mark.parametrize("answer", ["0.5, -1, 2", [0.5, -1], [[0.5, -1, 2]], [0.5, float("nan"), 1], None])
def test_the_row_by_hand_must_be_three_finite_numbers(answer):
    with pytest.raises(AssertionError, match="three finite numbers"):
        checks.three_numbers(answer)


def test_the_row_by_hand_may_use_fractions_and_integers():
    assert checks.three_numbers([1 / 2, -5 / 3, 1]).tolist() == [0.5, -5 / 3, 1.0]


def test_writing_into_the_inputs_is_caught_and_a_clean_function_passes():
    checks.leaves_inputs_alone(right, 4)

    def writes(A, G):
        G -= (A * G).sum(axis=1, keepdims=True)
        return A * G
    with pytest.raises(AssertionError, match="changed A or G"):
        checks.leaves_inputs_alone(writes, 4)


def test_the_size_follows_the_students_own_function():
    Q, K, G = checks.draw(5, 4, 2)
    A = checks.softmax_rows(Q @ K.T / 2.0)
    assert checks.size_by_definition(right, Q, K, G, 2.0) == pytest.approx(np.abs(right(A, G)).mean())
    assert checks.size_by_definition(lambda A, G: 2 * right(A, G), Q, K, G, 2.0) == pytest.approx(
        2 * np.abs(right(A, G)).mean())


@pytest.mark.parametrize("returned, said", [(0.5, "two numbers"), ((0.1, -0.2), "positive"), (("a", 1), "two numbers")])
def test_the_measurement_must_be_two_positive_numbers(returned, said):
    with pytest.raises(AssertionError, match=said):
        checks.two_sizes(lambda d_k, draws, seed: returned, 8, 10, 0)
    assert checks.two_sizes(lambda d_k, draws, seed: (0.05, 0.08), 8, 10, 0) == (0.05, 0.08)


def test_the_peak_is_compared_with_the_limit():
    checks.small_peak(right, 4, 0, 100, lambda f, A, G: 99)
    with pytest.raises(AssertionError, match="avoid building the Jacobian"):
        checks.small_peak(right, 4, 0, 100, lambda f, A, G: 100)


def test_stderr_shows_as_output_under_validate_only(monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.delenv("NBGRADER_VALIDATING", raising=False)
    checks.stderr_as_output()
    assert sys.stderr is err
    monkeypatch.setenv("NBGRADER_VALIDATING", "1")
    checks.stderr_as_output()
    assert sys.stderr is out


# ---- what the grader tells a student (issue 36) -----------------------------------------------------------------
class _TimedOut(Exception):
    """Stands for the grading child's StudentError of kind TimedOut (classroom.trusted), by duck typing."""

    def __init__(self, message, kind=checks.TIMED_OUT):
        super().__init__(message)
        self.kind = kind


def test_the_kind_of_a_call_out_of_time_is_the_trusted_sides():
    from classroom.trusted import failures

    assert checks.TIMED_OUT == failures.TIMED_OUT


def test_a_call_out_of_time_says_at_which_T_and_what_was_not_measured():
    def slow(A, G):
        raise _TimedOut("your function used more than 3 s of CPU time in one call (an infinite loop?)")

    with pytest.raises(_TimedOut) as failed:
        checks.small_peak(slow, 40, 1, 2 ** 20, lambda f, *args: f(*args))
    assert str(failed.value).startswith("at T = 40, your function used more than 3 s")
    assert str(failed.value).endswith("so its memory could not be measured") and failed.value.kind == checks.TIMED_OUT
    with pytest.raises(ValueError, match="^no T here$"):
        with checks.at_size(300):
            raise ValueError("no T here")


def test_the_memory_message_says_the_limit():
    with pytest.raises(AssertionError, match=r"took \d+ MiB beyond its inputs, and the limit is 1 MiB"):
        checks.small_peak(right, 50, 1, 2 ** 20, lambda f, *args: 5 * 2 ** 20)


def test_a_loop_is_placed_in_the_function_that_holds_it_not_the_cells_first(tmp_path):
    from classroom.checks.measures import python_loops

    cell = ("import numpy as np\n\n\ndef softmax_grad(A, G):\n    return A * G\n\n\n"
            "def score_gradient(A, G):\n    out = np.empty_like(A)\n    for i in range(len(A)):\n"
            "        out[i] = A[i] * (G[i] - A[i] @ G[i])\n    return out\n")
    path = tmp_path / "cell.py"
    path.write_text(cell)
    namespace = {}
    exec(compile(cell, str(path), "exec"), namespace)
    reasons = python_loops(namespace["score_gradient"])
    assert any(r.startswith("line 10 of your solution cell, in score_gradient, uses") for r in reasons), reasons
