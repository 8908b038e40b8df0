"""The graded quiz's questions and right answers (the committed variant, drawn from the public seed by
classroom.quiz.variants), and the fragments of hidden tests and reference solutions that must never reach a student."""
import json
from fractions import Fraction

from classroom.quiz.variants import PUBLIC_SEED, draw
from coursekit.trial_course import RELEASED
from classroom.quiz.notebook import HIDDEN_TEST_FRAGMENTS

QUESTIONS = list(draw(PUBLIC_SEED))
RIGHT = {n: q.answer for n, q in enumerate(QUESTIONS, start=1)}

# What must never reach a student: fragments of the hidden tests and of the reference solution.
SECRETS = ["BEGIN HIDDEN TESTS", "_expected", "_through_jacobians", "_diagnosis", "_REFERENCE_SIZES", "_chained",
           "weighted_mean = np.sum(G * A", "BEGIN SOLUTION", "_right_values", "-5 / 3",
           *HIDDEN_TEST_FRAGMENTS]


def answer_cell(n, answer):
    """The source of answer cell n that sets `answer_n` to `answer` (a Python value)."""
    return f"answer_{n} = {answer!r}"


# Answers written in another form than the prompt's example, by the name corpus.json gives the form
# (tests/submissions/corpus.json, entries with "forms"): each takes the right answer and returns the cell's code.
FORMS = {
    "Fraction": lambda a: f"from fractions import Fraction\n\nANSWER = Fraction({str(Fraction(repr(a)))!r})",
    "np.float32": lambda a: f"import numpy as np\n\nANSWER = np.float32({a!r})",
    "np.str_": lambda a: f"import numpy as np\n\nANSWER = np.str_({a!r})",
    "upper case with spaces": lambda a: f"ANSWER = {f' {a.upper()} '!r}",
    "list of np.str_": lambda a: f"import numpy as np\n\nANSWER = [np.str_(letter) for letter in {sorted(a)!r}]",
    "frozenset": lambda a: f"ANSWER = frozenset({sorted(a)!r})",
}


def answer_in_form(n, answer, form):
    """The source of answer cell n that sets `answer_n` to `answer` written in the form FORMS names."""
    return FORMS[form](answer).replace("ANSWER", f"answer_{n}")


def quiz_notebook(answers, forms=None):
    """The released quiz notebook with answer cell n set to `answers[n]` (a Python value) for each n given, written
    in the form `forms` gives for its kind of question (FORMS) if any; the other answer cells stay as released."""
    nb = json.loads((RELEASED.parent / "intuition_quiz.ipynb").read_text())
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id", "").startswith("answer_"):
            n = int(meta["grade_id"].split("_")[1])
            if n in answers:
                kind = QUESTIONS[n - 1].kind
                cell["source"] = (answer_in_form(n, answers[n], forms[kind]) if forms and kind in forms
                                  else answer_cell(n, answers[n]))
    return nb


def right_quiz_notebook():
    """The released quiz notebook with every answer cell set to the right answer."""
    return quiz_notebook(RIGHT)
