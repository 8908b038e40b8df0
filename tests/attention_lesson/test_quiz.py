"""The self-check quiz: a sealed bank judged exactly, readable questions, and widgets driven from Python.

No answer is written in this file: each test recovers the right answer the way anyone could, by trying the
whole (small) answer space against the stored hashes, and then checks how near misses are judged.
"""
import itertools
import json

import pytest

from attention_lesson.quiz import bank as quiz
from attention_lesson.quiz import widgets as quiz_widgets
from coursekit.repository import ROOT, load_notebook
from tools import quiz_bank as quiz_bank_tool


BANK = quiz.load_bank()
QUESTIONS = list(BANK.values())
right_answer = quiz.recover_answer


def test_the_bank_holds_the_five_questions_in_order():
    assert [q.kind for q in QUESTIONS] == ["number", "single", "multi", "single", "single"]
    for q in QUESTIONS:
        assert q.prompt.strip()
        assert list(q.letters) == [chr(ord("a") + i) for i in range(len(q.options))]
        assert q.kind == "number" or len(q.options) >= 2


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
def test_exactly_one_answer_is_right(q):
    if q.kind == "number":
        space = range(0, 10001)
    elif q.kind == "single":
        space = q.letters
    else:
        space = [set(c) for n in range(len(q.letters) + 1) for c in itertools.combinations(q.letters, n)]
    matches = [a for a in space if quiz.is_correct(q, a)]
    assert len(matches) == 1
    assert quiz.recover_answer(q) == matches[0]


def test_each_question_number_accepts_the_answer_recovered_for_it(monkeypatch):
    answers = {n: right_answer(q) for n, q in enumerate(QUESTIONS, start=1)}
    assert sorted(answers) == [1, 2, 3, 4, 5]
    for n, answer in answers.items():
        shown = []
        monkeypatch.setattr(quiz_widgets, "display", shown.append)
        quiz_widgets.ask(n)  # what a student sees as "Question n", and its answer box
        assert f"Question {n}" in shown[0].data and quiz.is_correct(shown[1].question, answer), (n, answer)


def test_no_answer_or_explanation_is_readable_in_the_bank():
    raw = quiz.BANK_PATH.read_text(encoding="utf-8")
    entries = json.loads(raw)["questions"]
    assert all(set(e) == {"id", "kind", "prompt", "options", "salt", "answer_hash", "feedback"} for e in entries)
    plain = quiz_bank_tool.unseal(BANK)
    for entry in plain["questions"]:
        for text in entry["explanations"].values():
            assert text not in raw and text[:40] not in raw


def test_a_number_is_marked_exactly():
    q = BANK["q1_score_size"]
    answer = right_answer(q)
    assert quiz.is_correct(q, answer) and quiz.is_correct(q, float(answer))
    assert not quiz.is_correct(q, answer + 1e-9) and not quiz.is_correct(q, answer - 1)


def test_a_multi_select_is_all_or_nothing():
    q = BANK["q3_saturated_row"]
    answer = set(right_answer(q))
    assert quiz.is_correct(q, answer) and quiz.is_correct(q, [a.upper() for a in answer])
    assert not quiz.is_correct(q, answer - {sorted(answer)[0]})
    extra = (set(q.letters) - answer).pop()
    assert not quiz.is_correct(q, answer | {extra})


@pytest.mark.parametrize("qid, answer, message", [
    ("q1_score_size", "8", "asks for a number, such as 3 or 2.5; you gave the text '8'"),
    ("q1_score_size", True, "asks for a number"),
    ("q1_score_size", float("nan"), "finite number"),
    ("q2_why_the_root", 1, "one letter among a, b, c, d, e"),
    ("q2_why_the_root", "z", "one letter among"),
    ("q2_why_the_root", {"a"}, "one letter among"),
    ("q3_saturated_row", "abc", "asks for a set of letters"),
    ("q3_saturated_row", {"a", "q"}, "'q' is not one of the option letters"),
    ("q3_saturated_row", {"a", 1}, "1 is not one of the option letters"),
])
def test_an_answer_in_the_wrong_form_gets_a_clear_message(qid, answer, message):
    with pytest.raises(quiz.AnswerFormatError, match=message) as error:
        quiz.check(BANK[qid], answer)
    assert str(error.value).startswith("This question") and qid not in str(error.value)


def test_feedback_explains_each_chosen_option_and_hints_at_a_wrong_number():
    q = BANK["q2_why_the_root"]
    wrong = next(l for l in q.letters if l != right_answer(q))
    verdict = quiz.check(q, wrong)
    assert not verdict.correct and [label for label, _ in verdict.explanations] == [wrong]
    assert verdict.explanations[0][1].startswith("False")
    number = BANK["q1_score_size"]
    hint = quiz.check(number, right_answer(number) + 1).explanations[0][1]
    full = quiz.check(number, right_answer(number)).explanations[0][1]
    assert hint.startswith("Not yet") and full.startswith("Right") and hint != full
    assert quiz.explanation(number, "hint") == hint
    with pytest.raises(KeyError):
        quiz.explanation(q, "z")  # nothing is filed under a letter that is not an option


def test_sealing_the_unsealed_bank_judges_the_same(tmp_path):
    resealed = tmp_path / "bank.json"
    resealed.write_text(json.dumps(quiz.seal(quiz_bank_tool.unseal(BANK))))
    again = quiz.load_bank(resealed)
    for q in QUESTIONS:
        assert quiz.is_correct(again[q.id], right_answer(q))
        assert again[q.id].prompt == q.prompt and again[q.id].options == q.options


class TestWidgets:
    def test_a_right_number_typed_in_the_box(self):
        q = BANK["q1_score_size"]
        box = quiz_widgets.QuestionBox(q)
        box.control.value = f" {right_answer(q)} "
        box.button.click()
        assert "Right." in box.feedback.value

    def test_text_that_is_not_a_number(self):
        box = quiz_widgets.QuestionBox(BANK["q1_score_size"])
        box.control.value = "eight"
        box.button.click()
        assert "asks for a number" in box.feedback.value

    def test_what_a_student_types_is_shown_as_text_not_markup(self):
        box = quiz_widgets.QuestionBox(BANK["q1_score_size"])
        box.control.value = "<b>8</b>"
        box.button.click()
        assert "&lt;b&gt;8&lt;/b&gt;" in box.feedback.value and "<b>8</b>" not in box.feedback.value

    @pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.id)
    def test_every_answer_box_gives_none_until_answered(self, q):
        box = quiz_widgets.QuestionBox(q)
        assert isinstance(box.control, quiz_widgets.ANSWER_BOXES[q.kind]) and box.answer() is None

    def test_nothing_chosen_yet(self):
        box = quiz_widgets.QuestionBox(BANK["q2_why_the_root"])
        box.button.click()
        assert "Give an answer first" in box.feedback.value

    def test_radio_buttons_wrong_then_right(self):
        q = BANK["q4_cross_entropy"]
        box = quiz_widgets.QuestionBox(q)
        box.control.value = next(l for l in q.letters if l != right_answer(q))
        box.button.click()
        assert "Not yet" in box.feedback.value and "False" in box.feedback.value
        box.control.value = right_answer(q)
        box.button.click()
        assert "Right." in box.feedback.value

    def test_check_boxes_are_all_or_nothing(self):
        q = BANK["q3_saturated_row"]
        box = quiz_widgets.QuestionBox(q)
        answer = set(right_answer(q))
        for check in box.control.children:
            check.value = check.description.rstrip(")") in answer
        box.button.click()
        assert "Right." in box.feedback.value
        next(c for c in box.control.children if c.value).value = False
        box.button.click()
        assert "Not yet" in box.feedback.value

    def test_without_a_kernel_the_box_reads_as_a_sentence_not_a_widget_repr(self):
        bundle = quiz_widgets.QuestionBox(BANK["q5_order_kept"])._repr_mimebundle_()
        assert bundle["text/plain"].startswith("[answer box for q5_order_kept")

    def test_ask_shows_the_question_text_then_its_box(self, monkeypatch):
        shown = []
        monkeypatch.setattr(quiz_widgets, "display", shown.append)
        assert quiz_widgets.ask(3) is None
        assert shown[0].data == quiz.question_markdown(QUESTIONS[2], heading="Question 3")
        assert isinstance(shown[1], quiz_widgets.QuestionBox) and shown[1].question == QUESTIONS[2]

    @pytest.mark.parametrize("bad", [0, 6, "1", 1.0])
    def test_ask_refuses_a_question_that_does_not_exist(self, bad):
        with pytest.raises(ValueError, match="number must be a question number from 1 to 5"):
            quiz_widgets.ask(bad)


def test_the_notebook_shows_every_question_of_the_bank_as_text():
    nb = load_notebook(ROOT / "notebooks" / "05-test-your-intuition.ipynb")
    shown = ["".join(out["data"]["text/markdown"]) for cell in nb["cells"] if cell["cell_type"] == "code"
             for out in cell["outputs"] if "text/markdown" in out.get("data", {})]
    assert shown == [quiz.question_markdown(q, heading=f"Question {i}") for i, q in enumerate(QUESTIONS, start=1)]


@pytest.mark.parametrize("qid", ["q2_why_the_root", "q4_cross_entropy"])
def test_a_why_question_gives_nothing_away_by_length(qid):
    """Questions 2 and 4 ask for a reason; their options, the right one included, are of like length."""
    lengths = [len(text) for _, text in BANK[qid].options]
    assert max(lengths) <= 1.25 * min(lengths), f"{qid}: option lengths {lengths}: write them to like length"


def test_the_position_of_an_option_gives_no_key_away():
    """Across the self-check the right options sit in different places: not always first, and a multi-select's
    right options are not the first ones of its list (issue 36)."""
    choice = [q for q in QUESTIONS if q.kind != "number"]
    positions = {q.id: sorted(q.letters.index(letter) for letter in set(right_answer(q))) for q in choice}
    assert len({tuple(p) for p in positions.values()}) > 1, positions
    assert {p[0] for p in positions.values()} != {0}, f"every question's first right option is a): {positions}"
    for q in choice:
        if q.kind == "multi":
            first = list(range(len(positions[q.id])))
            assert positions[q.id] != first, f"{q.id}: the right options are the first of the list"
    reasons = [positions[q.id][0] for q in choice if q.kind == "single" and len(q.options) > 2]
    assert len(set(reasons)) == len(reasons), f"the why-questions' keys share a position: {positions}"
