"""ps1 (assignments.py), graded side by side by plain nbgrader and by ours in the sandbox: nbgrader's documentation
style with nose.tools, its `del squares` idiom, hidden tests, a written answer and a task graded by hand; data in a
sub-folder, a helper module beside the notebook, imports in an ordinary cell, helpers in a locked cell, partial credit
a check prints, and a slow cell of the instructor's. Every cell scores as nbgrader scores it; the feedback page shows
what ran, the task included, and never the hidden tests."""
import re

import pytest

from . import side_by_side

pytestmark = pytest.mark.integration  # in the sandbox where the machine has one (coursekit.trial_course)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return side_by_side.grade("ps1", tmp_path_factory.mktemp("ps1"))


@pytest.fixture(scope="module")
def pages(graded):
    return side_by_side.feedback_pages(graded, "ps1")


def test_every_cell_scores_as_plain_nbgrader_scores_it(graded):
    assert side_by_side.differences(graded) == {}, graded.plain_log[-4000:]
    assert graded.scores["plain"][("correct", "problem2", "summary_partial")] == 2.0
    assert graded.scores["plain"][("wrong", "problem2", "summary_partial")] == 1.0  # partial credit, as printed


def test_the_run_names_the_design_it_graded_with(graded):
    assert "ps1 is graded with nbgrader's design" in graded.log and "no grade cell imports classroom.checks" in graded.log


def test_the_page_shows_the_task_and_the_slow_instructor_cell_and_what_ran_after_it(pages):
    first, second = pages[("correct", "problem1")], pages[("correct", "problem2")]
    assert "Task (graded by hand)" in first and "plot <code>squares(20)</code>" in first
    assert "416 readings" in second  # the locked cell that sleeps 6 s ran, and so did the check after it
    assert "NotRun" not in second and "TimedOut" not in second


def test_the_page_of_a_wrong_answer_says_what_failed_but_never_shows_a_hidden_test(graded, pages):
    page = pages[("wrong", "problem1")]
    assert "AssertionError" in page and "sum_of_squares does not use squares" in page
    assert "Lists differ" in page  # nose's message, not a word of ours
    # the hidden test's numbers as numbers: a page's digests are hex and may hold the digits (…b5064…)
    hidden = re.compile(r"\b(385|506)\b")
    assert re.search(r"\b385\b", side_by_side.plain_page(graded, "ps1", "wrong", "problem1"))  # plain nbgrader shows it
    assert not hidden.search(page), hidden.search(page)
