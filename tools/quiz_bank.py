"""Seal or unseal the self-check question bank (attention_lesson/quiz_bank.json).

    .venv/bin/python tools/quiz_bank.py unseal > /tmp/plain.json     # answers and explanations in clear
    (edit /tmp/plain.json)
    .venv/bin/python tools/quiz_bank.py seal /tmp/plain.json         # writes the sealed bank

The plain form must never be committed: it holds the answer key. Unsealing recovers the key by trying
every possible answer against the stored hashes (a handful of letters, or the whole numbers up to 10,000).
"""
import argparse
import itertools
import json
import sys
from pathlib import Path

from attention_lesson import quiz


def recover_answer(q):
    if q.kind == "number":
        candidates = range(0, 10001)
    elif q.kind == "single":
        candidates = q.letters
    else:
        candidates = (set(c) for n in range(len(q.letters) + 1) for c in itertools.combinations(q.letters, n))
    for candidate in candidates:
        if quiz.is_correct(q, candidate):
            return sorted(candidate) if isinstance(candidate, set) else candidate
    raise SystemExit(f"{q.id}: no answer in the search range matches the stored hash")


def unseal(bank):
    plain = []
    for q in bank.values():
        answer = recover_answer(q)
        if q.kind == "number":
            text = quiz.canonical(q, answer)
            explanations = {"correct": quiz._explanation(q, "correct", text), "hint": quiz._explanation(q, "hint")}
        else:
            explanations = {letter: quiz._explanation(q, letter) for letter in q.letters}
        entry = {"id": q.id, "kind": q.kind, "salt": q.salt, "prompt": q.prompt, "answer": answer,
                 "explanations": explanations}
        if q.options:
            entry["options"] = [{"letter": l, "text": t} for l, t in q.options]
        plain.append(entry)
    return {"questions": plain}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("unseal", help="print the bank with answers and explanations in clear")
    seal = sub.add_parser("seal", help="seal a plain bank into attention_lesson/quiz_bank.json")
    seal.add_argument("plain", type=Path)
    args = parser.parse_args(argv)
    if args.command == "unseal":
        json.dump(unseal(quiz.load_bank()), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    if not args.plain.is_file():
        parser.error(f"no such file: {args.plain}")
    sealed = quiz.seal(json.loads(args.plain.read_text(encoding="utf-8")))
    quiz.BANK_PATH.write_text(json.dumps(sealed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"sealed {len(sealed['questions'])} questions into {quiz.BANK_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
