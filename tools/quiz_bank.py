"""The self-check question bank (attention_lesson/quiz/bank.json): unseal it, and seal it again.

    .venv/bin/python -m tools.quiz_bank unseal > /tmp/plain.json     # answers and explanations in clear
    (edit /tmp/plain.json)
    .venv/bin/python -m tools.quiz_bank seal /tmp/plain.json         # writes the sealed bank

The plain form must never be committed: it holds the answer key. Unsealing recovers the key by trying every
possible answer against the stored hashes. The bank serves the self-check of notebooks/05 only; the graded quiz
is a parallel variant with other numbers and statements (classroom/quiz/notebook.py).
"""
import argparse
import json
import sys
from pathlib import Path

from attention_lesson.quiz import bank as quiz


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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("unseal", help="print the bank with answers and explanations in clear")
    seal = sub.add_parser("seal", help="seal a plain bank into attention_lesson/quiz/bank.json")
    seal.add_argument("plain", type=Path)
    args = parser.parse_args(argv)
    if args.command == "unseal":
        json.dump(unseal(quiz.load_bank()), sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        if not args.plain.is_file():
            parser.error(f"no such file: {args.plain}")
        sealed = quiz.seal(json.loads(args.plain.read_text(encoding="utf-8")))
        quiz.BANK_PATH.write_text(json.dumps(sealed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"sealed {len(sealed['questions'])} questions into {quiz.BANK_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
