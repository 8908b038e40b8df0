"""The graded quiz as an nbgrader source notebook (source/score_gradient/intuition_quiz.ipynb), written from a drawn
variant (classroom.quiz.variants) by `classroom quiz-variant` (classroom/app/quiz.py; make quiz-variant).

The self-check of notebooks/05-test-your-intuition.ipynb gives instant feedback on its five questions, and this
repository is public, so the graded quiz asks about the same five ideas with other numbers and other options. The
committed source/ and release/ hold the variant of the PUBLIC seed "public-demo": its key is in the open, fine for
trying the course out, worthless for grading; a class's quiz is drawn from the instructor's secret seed.

Each question is a Markdown cell, an answer cell (`answer_N = ...`, the key in the solution) and a 1-point grade
cell. The grade cell's visible part checks only the answer's form, so `nbgrader validate` catches a missing or
ill-formed answer and says so; its hidden part, stripped from release/, holds the key and explains a wrong answer.
Its visible part also names the question it checks by a fingerprint of the question's text (`question_tag`), so that
two variants never share a grade cell: a quiz handed out before a replacement is then recognised when it is graded
(classroom.preprocessors.repair_grade_cells lists it as "earlier"; the run's summary and the report name it).
"""
import hashlib
import json

import nbformat

from ..cells import NOTEBOOK_METADATA
from .draws import TOLERANCE

ASSIGNMENT, NOTEBOOK = "score_gradient", "intuition_quiz"
PERCENT = f"{TOLERANCE * 100:g} %"
FORMS = {
    "number": "a number, for example `answer_{n} = 12.5`",
    "single": 'one letter, as a string, for example `answer_{n} = "x"` with your letter in place of x',
    "multi": 'a set of letters, for example `answer_{n} = {{"x", "y"}}` with every letter you think is true',
}
CHECKED = {"number": f"is within {PERCENT} of the right number", "single": "is the letter of the one true statement",
           "multi": "is the set of every true statement, and no other"}
# Pieces of every hidden part, which must never reach a student (release/, feedback, reports): the tests look for
# them there, and tests/assignment/test_assignment_quiz.py makes sure each one is in every hidden part this tool writes.
HIDDEN_TEST_FRAGMENTS = ("_key = ", "_why = ")
INTRO = (
    "# Five questions on the divisor (5 points)\n\n"
    "A parallel version of the self-check in `notebooks/05-test-your-intuition.ipynb`: the same five ideas, with "
    f"other numbers and other options. One point each; a number is right within {PERCENT} of the right value, "
    "and questions 3 and 5 are all or nothing. Under each question, replace the two lines `# YOUR CODE HERE` and "
    "`raise NotImplementedError()` with one line that sets the answer variable. The cell after it checks only the "
    "form of your answer; whether it is right is decided when your work is graded.")


def _cell(kind, cell_id, source, nbgrader=None):
    make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    cell = make(source, id=cell_id)
    if nbgrader:
        cell.metadata["nbgrader"] = dict(nbgrader, schema_version=3, task=False)
    return cell


def question_markdown(n, q):
    parts = [f"**Question {n} (1 point)**", q.prompt]
    if q.kind == "multi":
        parts.append("*Select every true statement: all or nothing, no partial credit.*")
    if q.options:
        parts.append("\n".join(f"- **{letter})** {claim.text}" for letter, claim in q.options))
    parts.append(f"Answer with {FORMS[q.kind].format(n=n)}.")
    return "\n\n".join(parts)


def _literal(q):
    """The right answer as Python source (a set's letters sorted, a number to six significant figures)."""
    if q.kind == "multi":
        return "{" + ", ".join(json.dumps(letter) for letter in sorted(q.key)) + "}"
    return repr(float(f"{q.key:.6g}")) if q.kind == "number" else json.dumps(q.key)


def _hidden(n, q):
    """The hidden part: the key, and why a wrong answer is wrong (never another question's key)."""
    if q.kind == "number":
        return [f"_key = {q.key!r}", f"_why = {q.why!r}",
                f"if abs(float(_given) - _key) > {TOLERANCE!r} * abs(_key):",
                f'    raise AssertionError(f"Question {n} is not right: {{_given}} is more than {PERCENT} away. "',
                '                         + _why)']
    why = {letter: claim.why for letter, claim in q.options if not claim.true}
    lines = [f"_key = {q.key!r}", f"_why = {why!r}", "if _given != _key:"]
    if q.kind == "single":
        return lines + [f'    raise AssertionError(f"Question {n} is not right. {{_given}}) {{_why[_given]}}")']
    return lines + [
        "    _missed = len(set(_key) - set(_given))",
        f'    _said = [f"{{letter}}) {{_why[letter]}}" for letter in _given if letter in _why]',
        '    _said += [f"Your set leaves out {_missed} of the true statements."] if _missed else []',
        f'    raise AssertionError(" ".join(["Question {n} is not right.", *_said]))']


def question_tag(n, q):
    """A fingerprint of question n's text as the student reads it: the same for the same variant, another for another
    (it tells nothing that the question itself does not show)."""
    return hashlib.sha256(question_markdown(n, q).encode()).hexdigest()[:12]


def grade_cell_source(n, q):
    letters = "".join(q.letters)
    return "\n".join([
        f'"""Question {n} ({q.title}): answer_{n} {CHECKED[q.kind]}."""',
        f"# Checks the question as handed out (its text's fingerprint: {question_tag(n, q)}).",
        "# Only when graded: whether the answer is right.",
        "from attention_lesson.quiz.answer_form import graded_form",
        "",
        "try:",
        f"    _given = graded_form({n}, {json.dumps(q.kind)}, {json.dumps(letters)}, answer_{n})",
        "except NameError:",
        f'    raise AssertionError("Question {n} is not answered: set answer_{n} in the cell above.") from None',
        f'print(f"answer_{n} = {{answer_{n}!r}}")',
        "### BEGIN HIDDEN TESTS",
        *_hidden(n, q),
        "### END HIDDEN TESTS",
    ])


def quiz_notebook(questions):
    """The graded quiz as an nbgrader source notebook: per question its text, an answer cell and a grade cell."""
    cells = [_cell("markdown", "quiz-intro", INTRO)]
    for n, q in enumerate(questions, start=1):
        cells.append(_cell("markdown", f"quiz-q{n}-text", question_markdown(n, q)))
        solution = f"### BEGIN SOLUTION\nanswer_{n} = {_literal(q)}\n### END SOLUTION"
        cells.append(_cell("code", f"quiz-q{n}-answer", solution,
                           {"grade": False, "grade_id": f"answer_{n}", "locked": False, "solution": True}))
        cells.append(_cell("code", f"quiz-q{n}-check", grade_cell_source(n, q),
                           {"grade": True, "grade_id": f"quiz_{q.id}", "locked": True, "points": 1, "solution": False}))
    nb = nbformat.v4.new_notebook(cells=cells, metadata=NOTEBOOK_METADATA)
    nbformat.validate(nb)
    return nb
