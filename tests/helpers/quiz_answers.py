"""The quiz notebook's right answers, recovered from the sealed bank's hashes (no key is written in the tests),
and the fragments of hidden tests and reference solutions that must never reach a student."""
import json

from attention_lesson import quiz

from .course import RELEASED

QUESTIONS = list(quiz.load_bank().values())
RIGHT = {n: (set(a) if q.kind == "multi" else a) for n, q in enumerate(QUESTIONS, start=1)
         for a in [quiz.recover_answer(q)]}

# What must never reach a student: fragments of the hidden tests and of the reference solution.
SECRETS = ["BEGIN HIDDEN TESTS", "_softmax_rows", "_through_jacobians", "_diagnosis", "measures.python_loops",
           "peak_extra_bytes", "weighted_mean = np.sum(G * A", "BEGIN SOLUTION", "_right_values",
           "_given !=", "_quiz.canonical", "load_bank", "_zero_rows_only"]


def answer_cell(n, answer):
    """The source of answer cell n that sets `answer_n` to `answer` (a Python value)."""
    return f"answer_{n} = {answer!r}"


def right_quiz_notebook():
    """The released quiz notebook with every answer cell set to the right answer."""
    nb = json.loads((RELEASED.parent / "intuition_quiz.ipynb").read_text())
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id", "").startswith("answer_"):
            n = int(meta["grade_id"].split("_")[1])
            cell["source"] = answer_cell(n, RIGHT[n])
    return nb
