"""The self-check question bank (attention_lesson/quiz/bank.json): unseal, seal, and build the graded version.

    .venv/bin/python tools/quiz_bank.py unseal > /tmp/plain.json     # answers and explanations in clear
    (edit /tmp/plain.json)
    .venv/bin/python tools/quiz_bank.py seal /tmp/plain.json         # writes the sealed bank
    .venv/bin/python tools/quiz_bank.py assignment                   # rewrites the quiz notebook in source/
    make release                                                     # then regenerate release/ and commit

The plain form must never be committed: it holds the answer key. Unsealing recovers the key by trying every
possible answer against the stored hashes. The graded notebook (source/score_gradient/intuition_quiz.ipynb) is
built from the bank alone, so the questions students see there are the bank's, word for word; its hidden tests
carry the key, which nbgrader strips from release/.
"""
import argparse
import json
import sys
from pathlib import Path

import nbformat

from attention_lesson.quiz import bank as quiz

ROOT = Path(__file__).resolve().parent.parent
QUIZ_NOTEBOOK = ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb"
KERNEL = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
          "language_info": {"name": "python", "pygments_lexer": "ipython3"}}
FORMS = {
    "number": "a number, for example `answer_{n} = 12.5`",
    "single": 'one letter, as a string, for example `answer_{n} = "x"` with your letter in place of x',
    "multi": 'a set of letters, for example `answer_{n} = {{"x", "y"}}` with every letter you think is true',
}
# Pieces of the hidden checks' code that must never reach a student (release/, feedback, reports): the tests look
# for them there, and tests/test_assignment_quiz.py makes sure each one is in the hidden checks this tool writes.
HIDDEN_TEST_FRAGMENTS = ("_given !=", "_quiz.canonical", "load_bank")


def unseal(bank):
    """The bank in the plain form `quiz.seal` takes: answers and explanations in clear."""
    plain = []
    for q in bank.values():
        answer = quiz.recover_answer(q)
        if q.kind == "number":
            explanations = {"correct": quiz.explanation(q, quiz.canonical(q, answer)),
                            "hint": quiz.explanation(q, "hint")}
        else:
            explanations = {letter: quiz.explanation(q, letter) for letter in q.letters}
        entry = {"id": q.id, "kind": q.kind, "salt": q.salt, "prompt": q.prompt,
                 "answer": sorted(answer) if q.kind == "multi" else answer, "explanations": explanations}
        if q.options:
            entry["options"] = [{"letter": l, "text": t} for l, t in q.options]
        plain.append(entry)
    return {"questions": plain}


def _cell(kind, cell_id, source, nbgrader=None):
    make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    cell = make(source, id=cell_id)
    if nbgrader:
        cell.metadata["nbgrader"] = dict(nbgrader, schema_version=3, task=False)
    return cell


RULES = {"number": "marked exactly", "single": "one letter", "multi": "every true option and no other"}


def _literal(q, answer):
    """The answer as Python source, written the same way every time (a set's letters sorted)."""
    if q.kind == "multi":
        return "{" + ", ".join(json.dumps(letter) for letter in sorted(answer)) + "}"
    return json.dumps(answer)


def quiz_notebook(bank):
    """The graded quiz as an nbgrader source notebook: per question its text, an answer cell, a hidden check."""
    cells = [_cell("markdown", "quiz-intro", (
        "# Five questions on the divisor (5 points)\n\n"
        "The same five questions as the self-check in `notebooks/05-test-your-intuition.ipynb`, graded here: one "
        "point each, the number marked exactly, question 3 all or nothing. Under each question, replace the two "
        "lines `# YOUR CODE HERE` and `raise NotImplementedError()` with one line that sets the answer variable. "
        "The cell after it prints your answer; whether it is right is decided when your work is graded."))]
    for n, q in enumerate(bank.values(), start=1):
        answer = quiz.recover_answer(q)
        key = quiz.canonical(q, answer)
        title = q.id.split("_", 1)[1].replace("_", " ")
        cells.append(_cell("markdown", f"quiz-q{n}-text", quiz.question_markdown(q, heading=f"Question {n} (1 point)")
                           + f"\n\nAnswer with {FORMS[q.kind].format(n=n)}."))
        cells.append(_cell("code", f"quiz-q{n}-answer",
                           f"### BEGIN SOLUTION\nanswer_{n} = {_literal(q, answer)}\n### END SOLUTION",
                           {"grade": False, "grade_id": f"answer_{n}", "locked": False, "solution": True}))
        cells.append(_cell("code", f"quiz-q{n}-check", "\n".join([
            f'"""Question {n} ({title}): answer_{n} is right ({RULES[q.kind]})."""',
            f'print(f"answer_{n} = {{answer_{n}!r}}")',
            "### BEGIN HIDDEN TESTS",
            "from attention_lesson.quiz import bank as _quiz",
            "",
            f'_question = _quiz.load_bank()["{q.id}"]',
            "try:",
            f"    _given = _quiz.canonical(_question, answer_{n})",
            "except _quiz.AnswerFormatError as _form:",
            f'    raise AssertionError(f"answer_{n} is not in the form asked for: {{_form}}") from None',
            f'if _given != "{key}":',
            f"    _why = \" \".join(f\"{{label}}: {{text}}\" for label, text in _quiz.check(_question, answer_{n}).explanations)",
            f'    raise AssertionError(f"answer_{n} is not right. {{_why}}")',
            "### END HIDDEN TESTS",
        ]), {"grade": True, "grade_id": f"quiz_{q.id}", "locked": True, "points": 1, "solution": False}))
    nb = nbformat.v4.new_notebook(cells=cells, metadata=KERNEL)
    nbformat.validate(nb)
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("unseal", help="print the bank with answers and explanations in clear")
    seal = sub.add_parser("seal", help="seal a plain bank into attention_lesson/quiz/bank.json")
    seal.add_argument("plain", type=Path)
    sub.add_parser("assignment", help=f"rewrite {QUIZ_NOTEBOOK.relative_to(ROOT)} from the bank")
    args = parser.parse_args(argv)
    if args.command == "unseal":
        json.dump(unseal(quiz.load_bank()), sys.stdout, indent=1, ensure_ascii=False)
        print()
    elif args.command == "assignment":
        nbformat.write(quiz_notebook(quiz.load_bank()), QUIZ_NOTEBOOK)
        print(f"wrote {QUIZ_NOTEBOOK.relative_to(ROOT)}; now run `make release` and commit both")
    else:
        if not args.plain.is_file():
            parser.error(f"no such file: {args.plain}")
        sealed = quiz.seal(json.loads(args.plain.read_text(encoding="utf-8")))
        quiz.BANK_PATH.write_text(json.dumps(sealed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"sealed {len(sealed['questions'])} questions into {quiz.BANK_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
