"""Graded quiz variants (classroom.quiz.variants, classroom quiz-variant): a published key is worth no more than
guessing, every key is right by arithmetic done here, and the notebook's grade cells judge answers as promised.

The grade cells are run here in plain Python, as a student's kernel runs them (an unanswered question leaves its
`answer_N` undefined); tests/assignment/test_assignment_quiz.py runs them in the real grader.
"""
import ast
import contextlib
import hashlib
import io
import math
import re
from statistics import mean, stdev

import numpy as np
import pytest

from attention_lesson.quiz import answer_form
from attention_lesson.quiz import bank as self_check
from classroom.quiz import statements as statement_files
from classroom.quiz.variants import PUBLIC_SEED, draw
from coursekit.quiz.statements import write_private
from coursekit.repository import ROOT, load_notebook
from classroom.quiz import notebook as tool

SEEDS = [f"fresh-test-seed-{i:04d}" for i in range(400)]
VARIANTS = [draw(seed) for seed in SEEDS]
SOURCE = ROOT / "source" / "score_gradient" / "intuition_quiz.ipynb"
INTERNAL = re.compile(r"q\d_\w+|_quiz|quiz_|grade_id|answer_form|_key|_why")


def solutions(nb):
    """{n: the answer written in solution cell answer_n}, read from the notebook, not from the generator."""
    found = {}
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution"):
            line = next(l for l in "".join(cell["source"]).splitlines() if l.startswith("answer_"))
            found[int(meta["grade_id"].split("_")[1])] = ast.literal_eval(line.split("=", 1)[1].strip())
    return found


def shape(nb):
    return [(c["cell_type"], "".join(c["source"]), c["metadata"]) for c in nb["cells"]]


def marked_right(q, answer):
    """This test's own marking: within 1 % for a number, the exact letter or set of letters otherwise."""
    if q.kind == "multi" and isinstance(answer, str):
        answer = {answer}  # a one-letter answer from a one-letter question, taken as its one-letter set
    if q.kind == "single" and isinstance(answer, (set, frozenset, list)) and len(answer) == 1:
        answer = next(iter(answer))
    try:
        given = answer_form.canonical(q.kind, q.letters, answer)
    except answer_form.AnswerFormatError:
        return False
    if q.kind == "number":
        return abs(float(given) - q.key) <= 0.01 * abs(q.key)
    return given == "".join(sorted(l for l, claim in q.options if claim.true))


def chance(variant):
    """What random guessing scores: 1/options for one letter, 1/(non-empty sets) for a set, 0 for a number."""
    return sum(1 / len(q.options) if q.kind == "single" else 1 / (2 ** len(q.options) - 1) if q.kind == "multi"
               else 0 for q in variant)


@pytest.mark.parametrize("who, answers", [
    ("the public key", solutions(load_notebook(SOURCE))),
    ("the self-check's answers", {n: self_check.recover_answer(q)
                                  for n, q in enumerate(self_check.load_bank().values(), start=1)}),
])
def test_a_published_key_scores_no_better_than_guessing(who, answers):
    scores = [sum(marked_right(q, answers[n]) for n, q in enumerate(variant, start=1)) for variant in VARIANTS]
    guessing = mean(chance(v) for v in VARIANTS)
    error = stdev(scores) / math.sqrt(len(scores))
    print(f"{who}: mean score {mean(scores):.3f} of 5 over {len(scores)} seeds; guessing {guessing:.3f} "
          f"(+3 standard errors {guessing + 3 * error:.3f})")
    assert mean(scores) <= guessing + 3 * error
    assert all(not marked_right(variant[0], answers[1]) for variant in VARIANTS)  # never the published number


def test_the_committed_quiz_is_the_public_variant():
    built = tool.quiz_notebook(draw(PUBLIC_SEED))
    assert shape(load_notebook(SOURCE)) == shape(built), "run `classroom quiz-variant --public`"
    assert solutions(load_notebook(SOURCE)) == {n: q.answer if q.kind != "number" else pytest.approx(q.key, rel=1e-5)
                                                for n, q in enumerate(draw(PUBLIC_SEED), start=1)}


def test_a_seed_draws_the_same_quiz_every_time_and_another_seed_another():
    assert tool.quiz_notebook(draw(SEEDS[0])) == tool.quiz_notebook(draw(SEEDS[0]))
    assert draw(SEEDS[0]) == VARIANTS[0]
    prompts = {tuple(q.prompt for q in variant) for variant in VARIANTS}
    assert len(prompts) == len(VARIANTS)


def test_no_secret_variant_reuses_the_public_numbers():
    public = draw(PUBLIC_SEED)
    published = [public[0].key, float(self_check.recover_answer(self_check.load_bank()["q1_score_size"]))]
    for variant in VARIANTS:
        assert all(q.params != p.params for q, p in zip(variant, public))
        assert all(abs(variant[0].key - x) > 0.05 * x for x in published)


# ---- every key, by arithmetic done here -------------------------------------------------------------------------
def softmax(scores):
    e = np.exp(np.asarray(scores, float) - max(scores))
    return e / e.sum()


SCORE_SIZES = {"sd": lambda s, d: s * d ** 0.5, "variance": lambda s, d: s * s * d, "sd_root": lambda s, d: s,
               "sd_dk": lambda s, d: s / d ** 0.5}
CLAIMS = {  # topic -> the numbers a true claim states, from its params
    # d_k / c^2: c = 1 over c = √d_k
    "step": lambda p: ((p["d_k"] / 1.0 ** 2) / (p["d_k"] / np.sqrt(p["d_k"]) ** 2),),
    "diagonal_top": lambda p: (p["alpha"] * (1 - p["alpha"]),),
    "diagonal_other": lambda p: (p["alpha"] * (1 - p["alpha"]),),
    "off_diagonal": lambda p: (-p["alpha_top"] * p["alpha_other"],),
    "total_slope": lambda p: (1 - sum(a * a for a in p["alphas"]),),
    "correct_logit": lambda p: (p["y_c"] - 1,),
    "favoured_logit": lambda p: (p["y_t"],),
    "loss": lambda p: (-np.log(p["y_c"]),),
    "ratio": lambda p: (np.exp((p["e_a"] - p["e_b"]) / p["d_k"] ** 0.5),),
    "top_weight": lambda p: (softmax(p["scores"]).max(), softmax(np.divide(p["scores"], p["d_k"] ** 0.5)).max()),
    "gap": lambda p: ((max(p["scores"]) - min(p["scores"])) / p["d_k"] ** 0.5,),
}


def numbers_in(text):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


def shown(value, text):
    """`value` is written in `text` (to the three significant figures a claim gives)."""
    return any(abs(x - value) <= 0.006 * abs(value) for x in numbers_in(text))


def flat(params):
    for _, value in params:
        yield from (value if isinstance(value, tuple) else [value])


@pytest.mark.parametrize("variant", [draw(PUBLIC_SEED), *VARIANTS[:60]], ids=["public", *SEEDS[:60]])
def test_every_key_is_right_by_arithmetic_done_here(variant):
    size = variant[0]
    p = dict(size.params)
    assert size.key == pytest.approx(SCORE_SIZES[p["asked"]](p["sigma_q"] * p["sigma_k"], p["d_k"]), rel=1e-12)
    assert all(shown(x, size.prompt) for x in flat(size.params) if not isinstance(x, str))
    for q in variant[1:]:
        context = dict(q.params)
        for letter, claim in q.options:
            if not claim.params:
                continue  # a conceptual claim: tested below, phrased both ways
            truth = CLAIMS[claim.topic](dict(claim.params))
            off = [abs(s - t) / abs(t) for s, t in zip(claim.stated, truth)]
            assert claim.true == (max(off) <= 0.006), (letter, claim)
            assert claim.true or max(off) > 0.1, (letter, claim)  # a false number is clearly false
            assert all(shown(s, claim.text) for s in claim.stated), claim.text
            assert all(shown(x, q.prompt + claim.text) for x in flat(claim.params)), claim
        if "alphas" in context:  # the top position is the largest weight
            assert context["alphas"][context["top"] - 1] == max(context["alphas"])
        if "y_hat" in context:
            assert context["y_hat"][context["favoured"] - 1] == max(context["y_hat"])
            assert f"t = {context['correct']}" in q.prompt
        truths = [claim.true for _, claim in q.options]
        assert sum(truths) == 1 if q.kind == "single" else sum(truths) >= 1
        assert q.key == "".join(l for l, claim in q.options if claim.true)


def test_conceptual_claims_come_true_and_false():
    seen = {(q.id, claim.topic, claim.true): claim.text for variant in VARIANTS for q in variant
            for _, claim in q.options if not claim.params}
    topics = {(qid, topic) for qid, topic, _ in seen}
    assert len(topics) >= 11
    for qid, topic in topics:
        assert seen[qid, topic, True] != seen[qid, topic, False]


# ---- the grade cells, as a student's kernel runs them ------------------------------------------------------------
def grade_cells(nb):
    return ["".join(c["source"]) for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]


def run(check, **answers):
    """Run a grade cell's code with the given answer_N variables: None if it passed, else its failure message."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(check, "<grade cell>", "exec"), dict(answers))
    except AssertionError as failure:
        return str(failure)
    return None


def wrong(q):
    if q.kind == "number":
        return q.key * 1.05
    if q.kind == "single":
        return next(l for l in q.letters if l != q.key)
    return set(q.key) ^ {q.letters[0]}


ILL_FORMED = {"number": ("abc", "the text 'abc'"), "single": (1, "the number 1"),
              "multi": ("ab", "the text 'ab'")}
ASKED_FOR = {"number": "asks for a number", "single": "asks for one letter", "multi": "asks for a set of letters"}


@pytest.mark.parametrize("seed", [PUBLIC_SEED, *SEEDS[:5]])
def test_each_grade_cell_judges_right_wrong_ill_formed_and_missing_answers(seed):
    questions = draw(seed)
    checks = grade_cells(tool.quiz_notebook(questions))
    for n, (q, check) in enumerate(zip(questions, checks), start=1):
        name = f"answer_{n}"
        visible = check.split("### BEGIN HIDDEN TESTS")[0]
        assert "# Only when graded: whether the answer is right." in visible.splitlines()
        assert run(check, **{name: q.answer}) is None
        if q.kind == "number":
            assert run(check, **{name: q.key * 1.009}) is None and run(check, **{name: round(q.key, 3)}) is None
        said = run(check, **{name: wrong(q)})
        assert said.startswith(f"Question {n} is not right") and run(visible, **{name: wrong(q)}) is None
        bad, described = ILL_FORMED[q.kind]
        for code in (check, visible):
            assert run(code, **{name: bad}) == run(check, **{name: bad})
            assert run(code).startswith(f"Question {n} is not answered")
        assert run(check, **{name: bad}).startswith(f"Question {n} {ASKED_FOR[q.kind]}")
        assert described in run(check, **{name: bad})
        for message in (said, run(check, **{name: bad}), run(check)):
            assert not INTERNAL.search(message), message
            assert not re.search(rf"Question (?!{n}\b)\d", message), message


def test_a_wrong_set_is_told_what_it_got_wrong_and_how_many_it_left_out():
    for variant in VARIANTS[:40]:
        q = variant[2]
        check = grade_cells(tool.quiz_notebook(variant))[2]
        false = [l for l, claim in q.options if not claim.true]
        if false:
            said = run(check, answer_3=set(q.key) | {false[0]})
            assert f"{false[0]}) False" in said and "leaves out" not in said
        said = run(check, answer_3=set(q.key[1:]))
        assert said is None or said.endswith("Your set leaves out 1 of the true statements.")


# ---- the command ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("environ, said", [({}, "QUIZ_SEED is not set"),
                                           ({"QUIZ_SEED": "short-seed"}, "too few to stay secret")])
def test_the_command_refuses_without_a_secret_seed(environ, said, capsys, monkeypatch, tmp_path, in_process):
    monkeypatch.delenv("QUIZ_SEED", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    status = in_process("quiz-variant", "--notebook", str(tmp_path / "quiz.ipynb"))
    err = capsys.readouterr().err
    assert status == 2 and said in err and "make quiz-variant QUIZ_SEED=" in err
    assert not (tmp_path / "quiz.ipynb").exists()


def test_the_command_writes_the_variant_and_never_the_seed(monkeypatch, tmp_path, in_process):
    seed = "an instructor's secret 7731"
    private = write_private(tmp_path)
    monkeypatch.setenv("QUIZ_SEED", seed)
    assert in_process("quiz-variant", "--statements", str(private), "--notebook", str(tmp_path / "quiz.ipynb"),
                      "--no-release") == 0
    text = (tmp_path / "quiz.ipynb").read_text()
    built = tool.quiz_notebook(draw(seed, statement_files.read(private)))
    assert shape(load_notebook(tmp_path / "quiz.ipynb")) == shape(built)
    for secret in (seed, hashlib.sha256(f"quiz-variant|{seed}".encode()).hexdigest()):
        assert secret not in text
    makefile = (ROOT / "Makefile").read_text()
    recipe = r"^quiz-variant: .*\n\t\$\(CLASSROOM\) quiz-variant .*\\\n\t .*--statements.*\n\n"
    assert re.search(recipe, makefile, re.M)  # the seed from the environment: make never prints it


def test_the_why_question_gives_nothing_away_by_length():
    """In every variant, question 2's options (the reason, and false reasons) are of like length."""
    for seed in (f"length-check-{i:03d}" for i in range(40)):
        question = next(q for q in draw(seed) if q.id == "q2_why_the_root")
        lengths = [len(claim.text) for _, claim in question.options]
        assert max(lengths) <= 1.3 * min(lengths), f"seed {seed}: option lengths {lengths}"


@pytest.mark.parametrize("qid", sorted(statement_files.NEEDED))
def test_a_statement_is_as_long_when_false_as_when_true(qid):
    """Each conceptual statement of the demo is written twice, true and false, to like length: its length never
    tells which."""
    for make in statement_files.makers(statement_files.demo())[qid]:
        true, false = make(None, True), make(None, False)
        lengths = sorted((len(true.text), len(false.text)))
        assert lengths[1] <= 1.3 * lengths[0], \
            f"{true.topic}: true {len(true.text)}, false {len(false.text)} characters"
