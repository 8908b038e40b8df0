"""The five quiz questions as graded answer cells of the score_gradient assignment.

The graded notebook is built from the same sealed bank as the self-check (tools/quiz_bank.py assignment), and its
hidden checks are run here exactly as autograding runs them (classroom.verdict.decide: the check code in this
process, the student's answer cells in a separate child), against right, wrong, malformed and missing answers.
No answer is written in this file: the right ones are recovered from the bank's hashes.
"""
import json

import pytest

from attention_lesson.quiz import bank as quiz
from classroom import failures
from classroom.verdict import decide
from conftest import ROOT, load_notebook
from tests.helpers.tools import load_tool
from tests.helpers.course import SANDBOXED

SOURCE = ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb"
RELEASE = ROOT / "release" / "score_gradient" / "intuition_quiz.ipynb"
BANK = quiz.load_bank()
QUESTIONS = list(BANK.values())

quiz_bank_tool = load_tool("quiz_bank")


def nbgrader_cells(nb, **wanted):
    return [c for c in nb["cells"]
            if all(c["metadata"].get("nbgrader", {}).get(k) == v for k, v in wanted.items())]


def checks():
    return [(c["metadata"]["nbgrader"]["grade_id"], "".join(c["source"]))
            for c in nbgrader_cells(load_notebook(SOURCE), grade=True)]


right = quiz.recover_answer


def grade(answers):
    """Grade answer cells (a list of the student's cell sources) the way autograding does (in the sandbox, which
    makes each test that calls this an integration test): {grade_id: Verdict}."""
    return decide(answers, checks(), sandboxed=SANDBOXED)


def test_the_graded_notebook_is_built_from_the_bank():
    built = json.loads(json.dumps(quiz_bank_tool.quiz_notebook(BANK)))
    committed = load_notebook(SOURCE)
    shape = lambda nb: [(c["cell_type"], "".join(c["source"]), c["metadata"]) for c in nb["cells"]]
    assert shape(committed) == shape(built), "run `tools/quiz_bank.py assignment`, then `make release`"


def test_every_question_has_its_text_an_answer_cell_and_a_one_point_check():
    nb = load_notebook(SOURCE)
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for n, q in enumerate(QUESTIONS, start=1):
        assert quiz.question_markdown(q, heading=f"Question {n} (1 point)") in text
    assert [c["metadata"]["nbgrader"]["grade_id"] for c in nbgrader_cells(nb, solution=True)] == \
        [f"answer_{n}" for n in range(1, 6)]
    assert [c["metadata"]["nbgrader"]["points"] for c in nbgrader_cells(nb, grade=True)] == [1] * 5


def test_the_release_holds_no_answer():
    text = RELEASE.read_text()
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
    for n, q in enumerate(QUESTIONS, start=1):
        assert f"answer_{n} = {quiz_bank_tool._literal(q, quiz.recover_answer(q))}" not in text
        assert quiz.canonical(q, right(q)) not in [line.strip().strip('"') for line in text.splitlines()]


def test_every_fragment_the_tests_watch_for_is_in_the_hidden_checks_and_not_in_the_release():
    hidden = [source.split("### BEGIN HIDDEN TESTS")[1] for _, source in checks()]
    released = RELEASE.read_text()
    for fragment in quiz_bank_tool.HIDDEN_TEST_FRAGMENTS:
        assert all(fragment in part for part in hidden) and fragment not in released, fragment


@pytest.mark.integration
def test_right_answers_get_every_point():
    answers = [f"answer_{n} = {right(q)!r}" for n, q in enumerate(QUESTIONS, start=1)]
    verdicts = grade(answers)
    assert all(v.passed for v in verdicts.values()), verdicts


@pytest.mark.integration
def test_right_answers_written_differently_still_count():
    forms = {"number": lambda a: f"{float(a)}", "single": lambda a: f"'{a.upper()} '",
             "multi": lambda a: repr(sorted(a, reverse=True))}
    answers = [f"answer_{n} = {forms[q.kind](right(q))}" for n, q in enumerate(QUESTIONS, start=1)]
    assert all(v.passed for v in grade(answers).values())


@pytest.mark.integration
def test_wrong_answers_get_nothing_and_an_explanation():
    wrong = []
    for n, q in enumerate(QUESTIONS, start=1):
        if q.kind == "number":
            wrong.append(f"answer_{n} = {right(q) + 1}")
        elif q.kind == "single":
            wrong.append(f"answer_{n} = {next(l for l in q.letters if l != right(q))!r}")
        else:  # all or nothing: one true option left out
            wrong.append(f"answer_{n} = {set(sorted(right(q))[1:])!r}")
    verdicts = grade(wrong)
    for grade_id, verdict in verdicts.items():
        assert verdict.kind == failures.CHECK_FAILED and "is not right." in verdict.message, (grade_id, verdict)
        assert "answer_" in verdict.printed  # the student's own answer is shown back
    q1 = verdicts["quiz_q1_score_size"].message
    assert "Not yet" in q1 and str(right(QUESTIONS[0])) not in q1.replace(str(right(QUESTIONS[0]) + 1), "")


@pytest.mark.integration
@pytest.mark.parametrize("n, given, message", [
    (1, '"8"', "asks for a number"),
    (2, "1", "asks for one letter"),
    (3, '"abc"', "asks for a set of letters"),
    (3, "{'a', 7}", "7 is not one of the option letters"),
    (4, "{'a'}", "asks for one letter"),
    (5, "['b']", "asks for one letter"),
])
def test_an_answer_in_the_wrong_form_is_told_what_form_to_use(n, given, message):
    answers = [f"answer_{i} = {right(q)!r}" for i, q in enumerate(QUESTIONS, start=1)]
    answers[n - 1] = f"answer_{n} = {given}"
    verdicts = grade(answers)
    verdict = verdicts[f"quiz_{QUESTIONS[n - 1].id}"]
    assert not verdict.passed and "is not in the form asked for" in verdict.message, verdict
    assert message in verdict.message, verdict
    assert sum(v.passed for v in verdicts.values()) == 4


@pytest.mark.integration
def test_an_unanswered_question_costs_only_its_own_point():
    answers = [f"answer_{n} = {right(q)!r}" for n, q in enumerate(QUESTIONS, start=1)]
    answers[1] = "# YOUR CODE HERE\nraise NotImplementedError()"
    verdicts = grade(answers)
    verdict = verdicts["quiz_q2_why_the_root"]
    assert not verdict.passed and "answer_2" in verdict.message and "NotImplementedError" in verdict.message, verdict
    assert sum(v.passed for v in verdicts.values()) == 4


@pytest.mark.integration
def test_an_object_that_claims_to_equal_everything_gets_nothing():
    liar = "class Liar:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
    answers = [liar + f"answer_{n} = Liar()" for n in range(1, 6)]
    verdicts = grade(answers)
    assert not any(v.passed for v in verdicts.values()), verdicts
