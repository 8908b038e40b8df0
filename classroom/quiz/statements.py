"""The conceptual statements of the graded quiz: read from a file the instructor writes and keeps private.

Questions 2 to 5 of the graded quiz mix worked claims (a number the student computes, classroom.quiz.topics) with
conceptual statements, each written twice, true and false. A statement whose two wordings sit in a public file is
answered by lookup, so a class's statements come from the instructor's own file, kept out of the repository and of
release/, named by `c.QuizStatements.path` in nbgrader_config.py (or `make quiz-variant QUIZ_STATEMENTS=<path>`).
`demo_statements.json` beside this module is the format, and the statements of the public demo variant only: its
truths are public.
"""
import json
import os
from pathlib import Path

from traitlets import Unicode
from traitlets.config import LoggingConfigurable

from .draws import idea

DEMO = Path(__file__).with_name("demo_statements.json")
# question id -> how many statements it needs at least: its options, less the worked claims it can draw
NEEDED = {"q2_why_the_root": 4, "q3_saturated_row": 1, "q4_cross_entropy": 2, "q5_order_kept": 1}
FIELDS = ("topic", "true", "false", "why_false")


class StatementsError(ValueError):
    """The statements file cannot serve a graded quiz; the message says what to do."""


class QuizStatements(LoggingConfigurable):
    path = Unicode("", help="The instructor's file of the graded quiz's conceptual statements (the format of "
                   "classroom/quiz/demo_statements.json), kept out of the course repository and of release/. "
                   "`make quiz-variant` refuses to draw a secret variant without it.").tag(config=True)


def read(path):
    """{question id: [statement dict]} from a statements file, or StatementsError saying what is wrong with it."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StatementsError(f"the quiz's statements file {path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise StatementsError(f"the quiz's statements file {path} cannot be read as JSON ({exc})") from None
    found = {}
    for qid, needed in NEEDED.items():
        items = raw.get(qid) if isinstance(raw, dict) else None
        if not isinstance(items, list) or len(items) < needed:
            raise StatementsError(f"{path}: `{qid}` should be a list of at least {needed} statements, each with "
                                  f"{', '.join(FIELDS)} (the format of {DEMO.name})")
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict) or not all(isinstance(item.get(k), str) and item[k].strip() for k in FIELDS):
                raise StatementsError(f"{path}: statement {n} of `{qid}` needs the texts {', '.join(FIELDS)}")
        found[qid] = items
    return found


def makers(statements):
    """{question id: [claim maker]} (classroom.quiz.draws.idea) from what `read` returns."""
    return {qid: [idea(s["topic"], s["true"], s["false"], s["why_false"]) for s in items]
            for qid, items in statements.items()}


def demo():
    """The demo statements: those of the public variant, public like everything in the repository."""
    return read(DEMO)


def wordings(statements):
    """Every wording a statements file gives, true and false."""
    return {text for items in statements.values() for s in items for text in (s["true"], s["false"])}


def private(path, public_folders):
    """The statements of the instructor's file at `path`, for a secret variant; StatementsError when there is none,
    when it lies inside one of `public_folders` (the repository, the course directory with its release/: students
    may read them), or when one of its wordings is public (the demo's)."""
    if not path:
        raise StatementsError(
            "a secret quiz needs statements of your own: write a file in the format of "
            f"classroom/quiz/{DEMO.name} (a demo only: its statements and their truths are public), keep it outside "
            "this repository, and name it with c.QuizStatements.path in nbgrader_config.py or "
            "`make quiz-variant QUIZ_SEED=... QUIZ_STATEMENTS=<path>`")
    where = Path(os.path.expanduser(path)).resolve()
    for folder in (Path(f).resolve() for f in public_folders):
        if folder in where.parents:
            raise StatementsError(f"the quiz's statements file {path} lies inside {folder}, which students may read "
                                  "(the repository, the course directory and its release/): keep it outside")
    statements = read(where)
    public = sorted(wordings(statements) & wordings(demo()))
    if public:
        raise StatementsError(f"{path} reuses {len(public)} wording(s) of the public demo, such as "
                              f"{public[0][:60]!r}...: anyone can look those up; write statements of your own")
    return statements
