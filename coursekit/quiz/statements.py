"""An instructor's private statements file for the graded quiz, as the tests write one: outside the repository, and
worded afresh each time (a random word in every statement), so that no file of the repository holds a wording."""
import json
import secrets

from classroom.quiz.statements import NEEDED


def write_private(folder, per_question=4):
    """Write a statements file (the format of classroom/quiz/demo_statements.json) into `folder`, which must lie
    outside the repository, and return its path."""
    word = secrets.token_hex(6)
    statements = {"_about": "written by coursekit.quiz.statements for a test"}
    for qid in NEEDED:
        statements[qid] = [{"topic": f"private_{n}",
                            "true": f"Statement {n} of {word}, in the wording that holds, about {qid}.",
                            "false": f"Statement {n} of {word}, in the wording that fails, about {qid}.",
                            "why_false": f"False: statement {n} of {word} fails."} for n in range(per_question)]
    path = folder / f"quiz-statements-{word}.json"
    path.write_text(json.dumps(statements, indent=1), encoding="utf-8")
    return path
