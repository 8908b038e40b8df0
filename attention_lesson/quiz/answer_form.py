"""The form a quiz answer must take (a number, one letter, or a set of letters), and what to say when it does not.

Used by attention_lesson.quiz.bank (the self-check of notebooks/05-test-your-intuition.ipynb: "This question asks
for ...") and by the visible part of the grade cells of source/score_gradient/intuition_quiz.ipynb ("Question 2
asks for ..."), which run in the student's kernel under `nbgrader validate` and in the grader. Only the form is
judged here; whether an answer is right is not this module's business. In the grader the answer has crossed from
the student's process as plain data (classroom.trusted.protocol.plain: a str of any kind as str, any real number as
a float), and it reads the same: tests/assignment/test_assignment_validate.py hands every form to both.
"""
from numbers import Complex, Number, Real

KINDS = ("number", "single", "multi")


class AnswerFormatError(ValueError):
    """An answer given in the wrong form (a string where a set of letters was asked, say)."""


def described(answer):
    """What a student gave, in words: "the text 'abc'", "the number 3", "the set {'a'}", "a Liar object"."""
    if answer is None or isinstance(answer, bool):
        return repr(answer)
    for kind, word in ((str, "text"), (Real, "number"), (set, "set"), (frozenset, "set"), (list, "list"),
                       (tuple, "tuple")):
        if isinstance(answer, kind):
            shown = repr(answer)
            return f"the {word} {shown if len(shown) <= 80 else shown[:77] + '...'}"
    return f"a {type(answer).__name__} object"


def canonical(kind, letters, answer, subject="This question"):
    """The one string an answer stands for ("8", "2.5", "c", "ace"), or AnswerFormatError saying what form
    `subject` ("This question", "Question 3") asks for. `letters` are the option letters ("abcde"; none for a
    number)."""
    if kind == "number":
        if isinstance(answer, bool) or not (isinstance(answer, Real) or isinstance(answer, Number) and not isinstance(
                answer, Complex)):  # any real number: int, float, a NumPy number, Fraction, Decimal
            raise AnswerFormatError(f"{subject} asks for a number, such as 3 or 2.5; you gave {described(answer)}")
        value = float(answer)
        if value != value or value in (float("inf"), float("-inf")):
            raise AnswerFormatError(f"{subject} asks for a finite number; you gave {described(answer)}")
        return str(int(value)) if value.is_integer() else repr(value)
    letters = tuple(letters)
    listed = ", ".join(letters)
    if kind == "single":
        if not isinstance(answer, str) or answer.strip().lower() not in letters:
            raise AnswerFormatError(f"{subject} asks for one letter among {listed} as a string, such as "
                                    f"'{letters[0]}'; you gave {described(answer)}")
        return answer.strip().lower()
    if isinstance(answer, str) or not isinstance(answer, (set, frozenset, list, tuple)):
        raise AnswerFormatError(f"{subject} asks for a set of letters, such as {{'{letters[0]}', '{letters[1]}'}} "
                                f"(every option you think is true); you gave {described(answer)}")
    chosen = set()
    for item in answer:
        if not isinstance(item, str) or item.strip().lower() not in letters:
            raise AnswerFormatError(f"{subject}: {item!r} is not one of the option letters {listed}")
        chosen.add(item.strip().lower())
    return "".join(sorted(chosen))


def graded_form(number, kind, letters, answer):
    """`canonical` for question `number` of the graded quiz, a wrong form raised as the AssertionError that fails
    its grade cell (in the student's kernel and in the grader alike)."""
    try:
        return canonical(kind, letters, answer, subject=f"Question {number}")
    except AnswerFormatError as error:
        raise AssertionError(str(error)) from None
