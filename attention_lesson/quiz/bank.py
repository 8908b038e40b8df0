"""The self-check's question bank: loading it, judging an answer, explaining it, and sealing a plain bank.

Used by notebooks/05-test-your-intuition.ipynb (through attention_lesson.quiz.widgets) and by tools/quiz_bank.py.
In the bank, `bank.json` beside this file, the right answer of each question is stored as a salted SHA-256 hash and
each explanation scrambled with a key derived from the answer it explains ("sealed"). That keeps the answers out of
sight, not secret: a learner who opens the file reads the questions and options but cannot see at a glance which
option is right, nor read the explanations before answering; the salt is stored beside the hash, so anyone can
recover an answer by trying each option (recover_answer does exactly that), and nothing is graded on it. Checking
an answer (here, or in the widget) shows the explanation of what was chosen, as a self-check should. The graded quiz
is not these questions: it is a parallel variant drawn by classroom.quiz.variants, whose key never reaches the
learner's notebook.
"""
import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from . import answer_form
from .answer_form import KINDS, AnswerFormatError  # noqa: F401 (AnswerFormatError: what callers catch)

BANK_PATH = Path(__file__).with_name("bank.json")


@dataclass(frozen=True)
class Question:
    id: str
    kind: str            # "number", "single" (one letter) or "multi" (a set of letters, all or nothing)
    prompt: str          # Markdown
    options: tuple       # ((letter, text), ...); empty for a number
    salt: str
    answer_hash: str
    sealed_feedback: dict  # canonical answer hash -> scrambled explanation

    @property
    def letters(self):
        return tuple(letter for letter, _ in self.options)


@dataclass(frozen=True)
class Verdict:
    correct: bool
    explanations: tuple  # ((label, explanation), ...) for what the answer chose


def load_bank(path=BANK_PATH):
    """Read the question bank: a dict from question id to Question, in the bank's order."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    bank = {}
    for entry in raw["questions"]:
        q = Question(id=entry["id"], kind=entry["kind"], prompt=entry["prompt"],
                     options=tuple((o["letter"], o["text"]) for o in entry.get("options", [])),
                     salt=entry["salt"], answer_hash=entry["answer_hash"], sealed_feedback=dict(entry["feedback"]))
        if q.kind not in KINDS:
            raise ValueError(f"{path}: question {q.id} has unknown kind {q.kind!r}; use one of {KINDS}")
        bank[q.id] = q
    return bank


def canonical(question, answer):
    """The one string an answer stands for, or AnswerFormatError saying what form "this question" asks for."""
    return answer_form.canonical(question.kind, question.letters, answer)


def digest(question, canonical_answer):
    """The salted hash under which an answer is filed."""
    return hashlib.sha256(f"{question.salt}|{question.id}|{canonical_answer}".encode()).hexdigest()


def _keystream(key, n):
    return hashlib.shake_256(f"feedback|{key}".encode()).digest(n)


def scramble(key, text):
    raw = text.encode()
    return base64.b64encode(bytes(a ^ b for a, b in zip(raw, _keystream(key, len(raw))))).decode()


def unscramble(key, blob):
    raw = base64.b64decode(blob)
    return bytes(a ^ b for a, b in zip(raw, _keystream(key, len(raw)))).decode()


def is_correct(question, answer):
    """True when `answer` is right: exact for a number, all or nothing for a set of letters."""
    return digest(question, canonical(question, answer)) == question.answer_hash


def recover_answer(question, largest_number=10000):
    """The right answer, found the way anyone could: by trying every answer in the (small) answer space.

    Whole numbers from 0 to `largest_number` for a number; each letter for one choice; every subset of the
    letters for a multi-select (returned as a set). Used by tools/quiz_bank.py, by classroom.quiz.variants (so
    that no graded variant's number is the self-check's) and by the tests, so that no answer is written anywhere.
    """
    if question.kind == "number":
        candidates = range(largest_number + 1)
    elif question.kind == "single":
        candidates = question.letters
    else:
        letters = question.letters
        candidates = ({l for i, l in enumerate(letters) if mask >> i & 1} for mask in range(2 ** len(letters)))
    for candidate in candidates:
        if is_correct(question, candidate):
            return candidate
    raise ValueError(f"{question.id}: no answer in the search range matches the stored hash")


def check(question, answer):
    """Judge an answer and explain it: the verdict and the explanation of each option chosen.

    A number gets the full explanation only when it is right (the explanation would give the number
    away); a wrong number gets a hint.
    """
    answer_text = canonical(question, answer)
    correct = digest(question, answer_text) == question.answer_hash
    if question.kind == "number":
        return Verdict(correct, ((answer_text, explanation(question, answer_text if correct else "hint")),))
    return Verdict(correct, tuple((letter, explanation(question, letter)) for letter in answer_text))


def explanation(question, key):
    """The explanation filed under `key`: an option's letter; for a number, the right answer (as `canonical`
    writes it) for the full explanation, or "hint". A key with nothing filed under it raises KeyError."""
    lookup = digest(question, f"explain:{key}")
    return unscramble(f"{question.salt}|{key}", question.sealed_feedback[lookup])


def seal(plain):
    """Turn a plain bank (answers and explanations in clear) into the hashed form stored in the package.

    `plain` is {"questions": [{id, kind, prompt, options, salt, answer, explanations}]}, where for a number
    `explanations` is {"correct": ..., "hint": ...} and otherwise {letter: explanation}. Used by
    tools/quiz_bank.py; the plain form is never committed.
    """
    sealed = []
    for entry in plain["questions"]:
        q = Question(entry["id"], entry["kind"], entry["prompt"],
                     tuple((o["letter"], o["text"]) for o in entry.get("options", [])), entry["salt"], "", {})
        answer_text = canonical(q, entry["answer"] if q.kind != "multi" else set(entry["answer"]))
        feedback = {}
        for label, text in entry["explanations"].items():
            key = answer_text if label == "correct" else label
            feedback[digest(q, f"explain:{key}")] = scramble(f"{q.salt}|{key}", text)
        sealed.append({"id": q.id, "kind": q.kind, "prompt": q.prompt,
                       "options": [{"letter": l, "text": t} for l, t in q.options],
                       "salt": q.salt, "answer_hash": digest(q, answer_text), "feedback": feedback})
    return {"questions": sealed}


def question_markdown(question, heading=None):
    """The question as readable Markdown (prompt, then the lettered options): the one text both uses show."""
    parts = [f"**{heading}**"] if heading else []
    parts.append(question.prompt.strip())
    if question.kind == "multi":
        parts.append("*Select every true option: all or nothing, no partial credit.*")
    if question.options:
        parts.append("\n".join(f"- **{letter})** {text}" for letter, text in question.options))
    return "\n\n".join(parts)
