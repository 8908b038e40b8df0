"""The five quiz questions as graded answer cells of the score_gradient assignment, judged by the real grader.

The graded notebook is the variant of the public seed (classroom quiz-variant --public;
tests/assignment/test_quiz_variants.py checks that and runs its grade cells in plain Python). Here its grade cells run
exactly as autograding runs them (classroom.trusted.verdict.decide: the check code in this process, the student's answer
cells in a separate child, in the sandbox), against right, wrong, ill-formed, missing and lying answers: three gradings
in all.
"""
import dataclasses

import pytest

from classroom import cells
from classroom.trusted import failures
from classroom.trusted.verdict import decide
from coursekit.trial_course import LAUNCHER
from coursekit.quiz.answers import QUESTIONS, RIGHT
from coursekit.repository import ROOT, load_notebook
from classroom.quiz import notebook as tool
from classroom.quiz.variants import PUBLIC_SEED, draw

SOURCE = ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb"
RELEASE = ROOT / "release" / "score_gradient" / "intuition_quiz.ipynb"


def nbgrader_cells(nb, **wanted):
    return [c for c in nb["cells"]
            if all(c["metadata"].get("nbgrader", {}).get(k) == v for k, v in wanted.items())]


def checks():
    return [(c["metadata"]["nbgrader"]["grade_id"], "".join(c["source"]))
            for c in nbgrader_cells(load_notebook(SOURCE), grade=True)]


def grade(answers):
    """Grade answer cells (a list of the student's cell sources) the way autograding does (in the sandbox, which
    makes each test that calls this an integration test): [Verdict] in question order."""
    verdicts = decide(answers, checks(), launcher=LAUNCHER)
    return [verdicts[grade_id] for grade_id, _ in checks()]


def test_every_question_has_its_text_an_answer_cell_and_a_one_point_check():
    nb = load_notebook(SOURCE)
    text = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for n, q in enumerate(QUESTIONS, start=1):
        assert tool.question_markdown(n, q) in text
    assert [c["metadata"]["nbgrader"]["grade_id"] for c in nbgrader_cells(nb, solution=True)] == \
        [f"answer_{n}" for n in range(1, 6)]
    assert [c["metadata"]["nbgrader"]["points"] for c in nbgrader_cells(nb, grade=True)] == [1] * 5


def test_the_release_holds_no_answer():
    text = RELEASE.read_text()
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
    assert "parallel version" in text  # students are told the self-check's answers are not this quiz's
    for n, q in enumerate(QUESTIONS, start=1):
        assert f"answer_{n} = {tool._literal(q)}" not in text and repr(q.key) not in text


def test_every_fragment_the_tests_watch_for_is_in_the_hidden_checks_and_not_in_the_release():
    hidden = [source.split("### BEGIN HIDDEN TESTS")[1] for _, source in checks()]
    released = RELEASE.read_text()
    for fragment in tool.HIDDEN_TEST_FRAGMENTS:
        assert all(fragment in part for part in hidden) and fragment not in released, fragment


@pytest.mark.integration
def test_right_answers_written_in_any_fair_way_get_every_point():
    forms = {"number": lambda a: f"{a * 1.004}", "single": lambda a: f"'{a.upper()} '",
             "multi": lambda a: repr(sorted(a, reverse=True))}
    verdicts = grade([f"answer_{n} = {forms[q.kind](RIGHT[n])}" for n, q in enumerate(QUESTIONS, start=1)])
    assert all(v.passed for v in verdicts), verdicts
    assert all(f"answer_{n} = " in v.printed for n, v in enumerate(verdicts, start=1))  # shown back to the student


@pytest.mark.integration
def test_wrong_ill_formed_and_missing_answers_get_nothing_and_say_why():
    wrong_letter = next(l for l in QUESTIONS[1].letters if l != RIGHT[2])
    answers = [f"answer_1 = {RIGHT[1] * 1.05}", f"answer_2 = {wrong_letter!r}", 'answer_3 = "abc"',
               "answer_4 = {'a'}", "# YOUR CODE HERE\nraise NotImplementedError()"]
    said = [v.message for v in grade(answers)]
    assert said[0].startswith("Question 1 is not right") and str(RIGHT[1])[:5] not in said[0]
    assert said[1].startswith(f"Question 2 is not right. {wrong_letter}) False")
    assert said[2].startswith("Question 3 asks for a set of letters") and "you gave the text 'abc'" in said[2]
    assert said[3].startswith("Question 4 asks for one letter") and "you gave the set {'a'}" in said[3]
    assert said[4].startswith("Question 5 is not answered")
    for message in said:
        assert not any(internal in message for internal in ("q1_", "q5_", "_quiz", "quiz_", "NameError")), message


@pytest.mark.integration
def test_an_object_that_claims_to_equal_everything_gets_nothing():
    liar = "class Liar:\n    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
    verdicts = grade([liar + f"answer_{n} = Liar()" for n in range(1, 6)])
    assert not any(v.passed for v in verdicts), verdicts
    assert all(v.kind == failures.CHECK_FAILED and "a Liar object" in v.message for v in verdicts), verdicts


def visible_checks(nb):
    """{grade id: the grade cell as the grading's repair step compares it}: its source without the hidden tests."""
    return {cells.grade_id(c): cells.HIDDEN.sub("", cells.source(c)).strip() for c in nb["cells"] if cells.is_grade(c)}


def test_no_two_variants_share_a_visible_check_so_an_old_one_handed_in_is_recognised():
    public = visible_checks(tool.quiz_notebook(draw(PUBLIC_SEED)))
    assert visible_checks(load_notebook(SOURCE)) == public
    for seed in (f"another-test-seed-{i:02d}" for i in range(40)):
        mine = visible_checks(tool.quiz_notebook(draw(seed)))
        assert mine.keys() == public.keys()
        assert all(mine[grade_id] != public[grade_id] for grade_id in public), seed
    # the fingerprint follows what the student reads, never the key: the same text with another key keeps it
    q = draw(PUBLIC_SEED)[0]  # a number question: its key and its feedback are hidden
    assert q.kind == "number" and tool.question_tag(1, q) in public[f"quiz_{q.id}"]
    hidden_changed = dataclasses.replace(q, number_key=2 * q.number_key, why="another explanation")
    assert tool.question_tag(1, hidden_changed) == tool.question_tag(1, q)
    assert tool.question_tag(1, dataclasses.replace(q, prompt=q.prompt + " Again.")) != tool.question_tag(1, q)
