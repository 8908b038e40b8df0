"""Write the graded quiz (source/score_gradient/intuition_quiz.ipynb) as the variant drawn from a seed.

    make quiz-variant QUIZ_SEED=<a secret of yours, at least 12 characters>   # then commit, privately
    .venv/bin/python -m tools.quiz_variant --public                          # the variant this repository ships

The self-check of notebooks/05-test-your-intuition.ipynb gives instant feedback on its five questions, and this
repository is public, so the graded quiz asks about the same five ideas with other numbers and other options
(classroom.quiz.variants draws them). The committed source/ and release/ hold the variant of the PUBLIC seed
"public-demo": its key is in the open, fine for trying the course out, worthless for grading. For a class, draw your
own from a secret seed: `make quiz-variant` rewrites the source notebook with it and then regenerates release/ as
`make release` does. Keep the seed to yourself (it redraws the same quiz, key included), and never publish the
regenerated source/: commit it only to a private course repository. The seed is written into no file; release/
and the feedback carry the questions and, once graded, the explanations of wrong answers, never the seed.

A secret variant's conceptual statements (each written true and false) come from the instructor's own file, kept
outside the course directory: `c.QuizStatements.path` in nbgrader_config.py, or `--statements PATH`
(`make quiz-variant QUIZ_STATEMENTS=PATH`); classroom/quiz/demo_statements.json is its format and the public
variant's statements, a demo only. Without such a file, a secret variant is refused (classroom.quiz.statements).

Each question is a Markdown cell, an answer cell (`answer_N = ...`, the key in the solution) and a 1-point grade
cell. The grade cell's visible part checks only the answer's form, so `nbgrader validate` catches a missing or
ill-formed answer and says so; its hidden part, stripped from release/, holds the key and explains a wrong answer.
"""
import argparse
import json
import os
import sys
from pathlib import Path

import nbformat

from classroom.cells import NOTEBOOK_METADATA
from classroom.quiz.draws import TOLERANCE
from classroom.quiz import statements as statement_files
from classroom.quiz.variants import PUBLIC_SEED, draw

ASSIGNMENT, NOTEBOOK = "score_gradient", "intuition_quiz"
REPOSITORY = Path(__file__).resolve().parent.parent  # students may read all of it: no private file lives here
QUIZ_NOTEBOOK = None  # where to write the quiz; None: in the source/ of the course in the current directory
MIN_SEED = 12
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
        '    _said += [f"Your set leaves out {_missed} true statement(s)."] if _missed else []',
        f'    raise AssertionError(" ".join(["Question {n} is not right.", *_said]))']


def grade_cell_source(n, q):
    letters = "".join(q.letters)
    return "\n".join([
        f'"""Question {n} ({q.title}): answer_{n} {CHECKED[q.kind]}."""',
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


def quiz_path():
    """The quiz notebook to write: QUIZ_NOTEBOOK, or the one in the source/ (as nbgrader_config.py names it) of the
    course in the current directory, which is the repository when `make quiz-variant` runs."""
    from classroom import course

    if QUIZ_NOTEBOOK is not None:
        return Path(QUIZ_NOTEBOOK)
    coursedir = course.course_directory()
    return Path(coursedir.format_path(coursedir.source_directory, ".", ASSIGNMENT)) / f"{NOTEBOOK}.ipynb"


def course_root(path):
    """The course `path` belongs to: the folder above it that holds nbgrader_config.py, or None."""
    return next((folder for folder in path.resolve().parents if (folder / "nbgrader_config.py").is_file()), None)


def private_statements(path, given):
    """The instructor's statements for a secret variant: the file `given` (--statements), else c.QuizStatements.path
    of the course `path` belongs to; StatementsError (classroom.quiz.statements) saying what to do without one."""
    from classroom import course

    root = course_root(path)
    if not given and root is not None:
        given = statement_files.QuizStatements(config=course.course_app([ASSIGNMENT], root=root).config).path
    return statement_files.private(given, [REPOSITORY, *([root] if root else [])])


def handed_out_refusal(path, quiz):
    """Why the quiz at `path` may not become `quiz` (it is handed out: classroom.decisions.quiz_key), or None. The
    course is the folder above `path` that holds nbgrader_config.py (none: nothing is handed out)."""
    from classroom import course
    from classroom.decisions import quiz_key as key_lock

    root = course_root(path)
    if root is None:
        return None
    app = course.course_app([ASSIGNMENT], root=root)
    gb = key_lock.open_gradebook(app.coursedir)
    try:
        new_key = key_lock.digest((cell.metadata.nbgrader["grade_id"], cell.source) for cell in quiz.cells
                                  if cell.metadata.get("nbgrader", {}).get("grade"))
        return key_lock.refusal(app, gb, ASSIGNMENT, new_key, "`make quiz-variant`")
    finally:
        if gb is not None:
            gb.close()


def main(argv=None, environ=None):
    environ = os.environ if environ is None else environ
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--public", action="store_true",
                        help=f"draw the variant of the public seed {PUBLIC_SEED!r}, the one this repository ships")
    parser.add_argument("--replace-handed-out", action="store_true",
                        help="write the new quiz even though the current one is handed out, knowingly (every "
                             "student must then fetch the new one): what `make quiz-variant QUIZ_REPLACE=yes` passes")
    parser.add_argument("--statements", metavar="PATH", default="",
                        help="the file of your own conceptual statements, kept outside the course (default: "
                             "c.QuizStatements.path); what `make quiz-variant QUIZ_STATEMENTS=PATH` passes")
    args = parser.parse_args(argv)
    seed = PUBLIC_SEED if args.public else environ.get("QUIZ_SEED", "")
    if not args.public and len(seed.strip()) < MIN_SEED:
        said = (f"QUIZ_SEED has {len(seed.strip())} characters, too few to stay secret" if seed
                else "QUIZ_SEED is not set")
        parser.error(f"{said}. Choose a secret of at least {MIN_SEED} characters, keep it to yourself, and run "
                     "`make quiz-variant QUIZ_SEED=<your secret>`.")
    path = quiz_path()
    try:
        statements = None if args.public else private_statements(path, args.statements)
    except statement_files.StatementsError as exc:
        print(f"quiz_variant: {exc}. Nothing was written.", file=sys.stderr)
        return 2
    quiz = quiz_notebook(draw(seed, statements))
    refused = None if args.replace_handed_out else handed_out_refusal(path, quiz)
    if refused:
        print(f"quiz_variant: {refused}", file=sys.stderr)
        return 2
    nbformat.write(quiz, path)
    print(f"wrote {os.path.relpath(path)} from the {'public' if args.public else 'secret'} seed; "
          "regenerate release/ (make release) and commit both" + ("" if args.public else
          ", to a private repository only: the source notebook holds the key"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
