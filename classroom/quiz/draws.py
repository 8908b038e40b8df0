"""The building blocks of a graded quiz variant (classroom.quiz.variants): seeded draws, claims, questions.

A question of a variant is either a number (right within TOLERANCE of the key) or a list of lettered claims,
one true ("single") or any non-empty set true ("multi", all or nothing). A claim is a sentence whose truth is
either worked out from numbers it states (`params` in, `stated` out, so that a test can redo the arithmetic) or
a conceptual statement drawn in its true or its false phrasing (`idea`).
"""
import hashlib
import math
import random
from dataclasses import dataclass

TOLERANCE = 0.01  # a number answer within 1 % of the key is right
CLEAR = 0.10      # every number a false claim states wrongly is at least 10 % off the true one
LETTERS = "abcdefgh"


class Draws:
    """Random draws from one seed string, made from `random.Random.random()` alone: the one stream Python promises
    to keep from version to version (its choice, shuffle and sample have changed before), so a seed gives the same
    variant on every Python."""

    def __init__(self, seed):
        self._random = random.Random(int.from_bytes(hashlib.sha256(f"quiz-variant|{seed}".encode()).digest(), "big"))

    def index(self, n):
        return min(int(self._random.random() * n), n - 1)

    def choice(self, items):
        items = list(items)
        return items[self.index(len(items))]

    def coin(self):
        return self._random.random() < 0.5

    def sample(self, items, count):
        """`count` of `items`, in a random order (a partial Fisher-Yates shuffle)."""
        items = list(items)
        for i in range(count):
            j = i + self.index(len(items) - i)
            items[i], items[j] = items[j], items[i]
        return items[:count]

    def shares(self, total, parts):
        """`parts` positive whole numbers that add up to `total` (a random composition of it)."""
        cuts = sorted(self.sample(range(1, total), parts - 1))
        return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


@dataclass(frozen=True)
class Claim:
    text: str          # Markdown
    true: bool
    why: str = ""      # for a false claim: why it is false (the graded student's feedback, after grading)
    topic: str = ""    # the kind of claim, e.g. "diagonal_entry"
    params: tuple = ()  # ((name, value), ...): the numbers the claim is about
    stated: tuple = ()  # the numbers it states (right ones if true): a test recomputes them from params


@dataclass(frozen=True)
class Question:
    id: str            # the topic's id, as in the self-check bank: "q1_score_size", ...
    kind: str          # "number", "single" or "multi"
    prompt: str        # Markdown
    options: tuple = ()  # ((letter, Claim), ...)
    params: tuple = ()   # ((name, value), ...): a number question's numbers (a test recomputes the key)
    number_key: float = None
    why: str = ""      # for a number: what a wrong answer is told (after grading)

    @property
    def letters(self):
        return tuple(letter for letter, _ in self.options)

    @property
    def key(self):
        """The right answer as the grade cell compares it: the number, a letter, or the true letters ("ace")."""
        if self.kind == "number":
            return self.number_key
        return "".join(letter for letter, claim in self.options if claim.true)

    @property
    def answer(self):
        """The right answer as a student writes it: a number, a letter, or a set of letters."""
        return set(self.key) if self.kind == "multi" else self.key

    @property
    def title(self):
        return self.id.split("_", 1)[1].replace("_", " ")


def approx(x):
    """`x` to three significant figures, never in scientific notation."""
    text = f"{x:.3g}"
    if "e" in text:
        text = f"{x:.{max(0, 2 - math.floor(math.log10(abs(x))))}f}"
    return text


def math_list(values):
    return "(" + ", ".join(str(v) for v in values) + ")"


def idea(topic, true_text, false_text, why_false):
    """A conceptual claim maker: (draws, true) -> the claim in its true or its false phrasing."""
    return lambda draws, true: Claim(true_text if true else false_text, true, "" if true else why_false, topic)


def clearly_off(truth, candidates):
    """The candidates (tuples of numbers) at least CLEAR off `truth` (a tuple) in some number."""
    return [c for c in candidates
            if any(abs(a - b) > CLEAR * max(abs(a), abs(b)) for a, b in zip(c, truth))]


def worked(topic, params, truth, mistakes, text, why):
    """A numeric claim maker: (draws, true) -> a claim stating `truth` (a tuple of numbers) or one of the slips in
    `mistakes` that is clearly off it. Each NUM of `text` is replaced by a stated number, in order; `why` says why
    a false claim is false."""
    def make(draws, true):
        stated = truth if true else draws.choice(clearly_off(truth, mistakes))
        written = text
        for value in stated:
            written = written.replace("NUM", f"${approx(value)}$", 1)
        return Claim(written, true, "" if true else why, topic, tuple(params.items()), tuple(stated))
    return make


def one_true(draws, makers, count):
    """`count` claims from `makers`, in a random order, exactly one of them true."""
    chosen = draws.sample(makers, count)
    right = draws.index(count)
    return lettered([make(draws, i == right) for i, make in enumerate(chosen)])


def some_true(draws, makers, count):
    """`count` claims from `makers`, in a random order, each true or false by a coin, at least one true."""
    chosen = draws.sample(makers, count)
    truths = [False] * count
    while not any(truths):
        truths = [draws.coin() for _ in chosen]
    return lettered([make(draws, true) for make, true in zip(chosen, truths)])


def lettered(claims):
    return tuple(zip(LETTERS, claims))


@dataclass(frozen=True)
class Avoid:
    """What a secret variant must not reuse from the published ones: each question's numbers, and number answers."""

    params: frozenset = frozenset()  # {(question id, params)}
    answers: tuple = ()              # number answers no key may come near


def fresh(draws, avoid, qid, make):
    """The numbers of question `qid`: make(draws) (None: draw again) until `avoid` does not hold them."""
    for _ in range(10000):
        params = make(draws)
        if params is not None and (qid, params) not in avoid.params:
            return params
    raise RuntimeError(f"no numbers for {qid} outside the published ones")
