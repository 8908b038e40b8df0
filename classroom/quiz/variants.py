"""Parallel variants of the graded quiz (source/score_gradient/intuition_quiz.ipynb), drawn from a seed string.

The self-check of notebooks/05-test-your-intuition.ipynb shows its five questions with instant feedback, and the
public repository holds the graded quiz's source; so the graded quiz is a *variant*: the same five topics (how large
a score is; why the root and not d_k; what a saturated row loses; why a classifier's softmax with cross-entropy does
not stall; what dividing does not change), with other numbers, other statements and the letters shuffled, drawn
from a seed. The repository ships the variant of the public seed PUBLIC_SEED; an instructor draws one of their own
from a secret seed (`make quiz-variant QUIZ_SEED=...`, classroom/app/quiz.py), keeps the seed, and never publishes
the regenerated source/.

A secret variant reuses no question's numbers from the public variant, and no number answer comes within 5 % of a
published one (the public variant's or the self-check's), so a published number is never right by accident. Its
conceptual statements are the instructor's own (classroom.quiz.statements: a file kept out of the repository), so
that nothing in the repository decides one; the public variant uses the demo statements, public like it.
"""
import functools

from attention_lesson.quiz import bank  # the one seam to the lesson's self-check questions (classroom/__init__.py)

from . import statements as statement_files
from .draws import Avoid, Draws
from .topics import TOPICS

PUBLIC_SEED = "public-demo"  # the variant committed in source/ and release/: public, like everything there


@functools.lru_cache(maxsize=1)
def self_check_answers():
    """The number answers of the self-check (recovered from its sealed bank, as anyone could)."""
    return tuple(float(bank.recover_answer(q)) for q in bank.load_bank().values() if q.kind == "number")


def _draw(seed, avoid, statements):
    draws, ideas = Draws(seed), statement_files.makers(statements)
    return tuple(topic(draws, avoid, ideas) for topic in TOPICS)


@functools.lru_cache(maxsize=1)
def published():
    """What a secret variant must avoid: the public variant's numbers and every published number answer."""
    public = draw(PUBLIC_SEED)
    return Avoid(params=frozenset((q.id, q.params) for q in public),
                 answers=(*self_check_answers(), *(q.key for q in public if q.kind == "number")))


def draw(seed, statements=None):
    """The variant of `seed` with the conceptual statements `statements` (classroom.quiz.statements.read; None: the
    demo's, public): five Questions (classroom.quiz.draws), the same for the same seed and statements on any
    machine. `classroom quiz-variant` draws a class's quiz only with the instructor's private statements."""
    statements = statement_files.demo() if statements is None else statements
    if seed == PUBLIC_SEED:
        return _draw(seed, Avoid(answers=self_check_answers()), statements)
    return _draw(seed, published(), statements)
