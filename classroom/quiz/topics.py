r"""The five questions of a graded quiz variant, one function per topic of the self-check (notebooks 02 and 03).

Each function takes the seeded draws, what the variant must avoid (classroom.quiz.draws) and the conceptual
statements (classroom.quiz.statements: {question id: claim makers}, from the instructor's private file), and returns
one Question. The numbers come from the draws; every numeric claim states either the value the formula in its own
text gives or a typical slip (a variance for a standard deviation, a sign lost, $\log_{10}$ for $\ln$...).
Reading a function is reading the physics: the formula that makes each claim true is written beside it. No
conceptual statement is written here: its true and false wordings side by side would give its answer away.
"""
import math

from .draws import TOLERANCE, Question, approx, fresh, math_list, one_true, some_true, worked

VEC_Q, VEC_K = r"\boldsymbol q", r"\boldsymbol k"
SCORE = rf"${VEC_Q}\cdot{VEC_K}$"

# --- 1. How large a score is ------------------------------------------------------------------------------------
# asked -> (words, its value from s = sigma_q * sigma_k and d = d_k): a score is a sum of d independent products
# of variance s^2, so its variance is d s^2; dividing by c divides the standard deviation by c.
ASKED = {
    "sd": (f"the standard deviation of an undivided score {SCORE}", lambda s, d: s * math.sqrt(d)),
    "variance": (f"the variance of an undivided score {SCORE}", lambda s, d: s * s * d),
    "sd_root": (rf"the standard deviation of the logit ${VEC_Q}\cdot{VEC_K}/\sqrt{{d_k}}$, the score divided by "
                r"$\sqrt{d_k}$", lambda s, d: s),
    "sd_dk": (rf"the standard deviation of the logit ${VEC_Q}\cdot{VEC_K}/d_k$, the score divided by $d_k$",
              lambda s, d: s / math.sqrt(d)),
}
WIDTHS = (16, 24, 32, 48, 80, 96, 128, 144, 192, 256, 320, 384, 512, 768, 1024)  # never the self-check's 64
SPREADS = (0.25, 0.5, 0.6, 0.8, 1, 1.2, 1.5, 2, 2.5, 3)


def _near(a, b, share=0.05):
    return abs(a - b) <= share * max(abs(a), abs(b))


def score_size(draws, avoid, ideas=None):
    def make(draws):
        d, sq, sk, asked = (draws.choice(WIDTHS), draws.choice(SPREADS), draws.choice(SPREADS),
                            draws.choice(sorted(ASKED)))
        key = ASKED[asked][1](sq * sk, d)
        others = [f(sq * sk, d) for name, (_, f) in ASKED.items() if name != asked]
        if any(_near(key, other) for other in [*others, 1.0, *avoid.answers]):
            return None  # a slip, the guess "1" or a published answer would be right
        return (("d_k", d), ("sigma_q", sq), ("sigma_k", sk), ("asked", asked))
    params = fresh(draws, avoid, "q1_score_size", make)
    d, sq, sk, asked = (value for _, value in params)
    prompt = (f"At initialisation, the query coordinates of a layer are centred and independent, each of standard "
              f"deviation $\\sigma_q = {sq}$; the key coordinates likewise, of standard deviation $\\sigma_k = {sk}$. "
              f"Queries are independent of keys, and each has $d_k = {d}$ coordinates. What is {ASKED[asked][0]}? "
              f"Give a number: any answer within {TOLERANCE * 100:g} % of the right value is marked right.")
    why = (r"A score is a sum of $d_k$ independent products $q_m k_m$, each of mean 0 and variance "
           r"$\sigma_q^2\sigma_k^2$, so its variance is $d_k\sigma_q^2\sigma_k^2$; dividing a score by a constant "
           r"$c$ divides its standard deviation by $c$ and its variance by $c^2$.")
    return Question("q1_score_size", "number", prompt, params=params, number_key=ASKED[asked][1](sq * sk, d),
                    why=why)


# --- 2. Why the root, and not d_k or 1 ---------------------------------------------------------------------------
# The reason is the rate and the initialisation (notebook 03 §7, 06 §4): at initialisation, to first order, under
# plain gradient descent, a step moves the logits about d_k / c^2 times their gradient. Every statement, true or
# false, is written to about the same length, so that its length gives nothing away (the instructor's statements
# file holds the conceptual ones).
ROOT_WIDTHS = (16, 32, 48, 96, 128, 144, 192, 256, 320, 384, 512, 768, 1024, 2048)


def why_the_root(draws, avoid, ideas):
    params = fresh(draws, avoid, "q2_why_the_root", lambda draws: (("d_k", draws.choice(ROOT_WIDTHS)),))
    d = params[0][1]
    step = worked("step", {"d_k": d}, (d,), [(math.sqrt(d),), (1.0,), (d * d,)],
                  f"With $d_k = {d}$, a gradient step moves an undivided layer's logits by about NUM times their "
                  r"gradient, and those divided by $\sqrt{d_k}$ by once theirs: no one rate suits both.",
                  rf"False: at initialisation and to first order, under plain gradient descent, a step moves the "
                  rf"logits by about $d_k/c^2$ times their gradient: ${d}$ times for $c = 1$, once for "
                  r"$c = \sqrt{d_k}$.")
    prompt = (r"At initialisation, queries and keys have centred, independent coordinates of standard deviation 1, "
              r"and the layer is trained by plain gradient descent. Transformers divide the scores by $\sqrt{d_k}$, "
              r"not by $d_k$, and not by nothing. Exactly one statement is true: which?")
    options = one_true(draws, [*ideas["q2_why_the_root"], step], 5)
    return Question("q2_why_the_root", "single", prompt, options, params=params)


# --- 3. What a saturated row loses ------------------------------------------------------------------------------


def saturated_row(draws, avoid, ideas):
    def make(draws):
        t = draws.choice((4, 5, 6, 8))
        top = draws.choice(range(950, 991))  # thousandths: saturated enough for every entry to be small
        rest = draws.shares(1000 - top, t - 1)
        p = draws.index(t)
        alphas = tuple(x / 1000 for x in [*rest[:p], top, *rest[p:]])
        return (("alphas", alphas), ("top", p + 1), ("other", draws.choice([j for j in range(1, t + 1) if j != p + 1])))
    params = fresh(draws, avoid, "q3_saturated_row", make)
    alphas, p, m = (value for _, value in params)
    a, b = alphas[p - 1], alphas[m - 1]
    slope = 1 - sum(x * x for x in alphas)
    prompt = (rf"One row of attention weights over $T = {len(alphas)}$ positions is nearly saturated: "
              rf"$\boldsymbol\alpha = {math_list(alphas)}$, its largest weight at position {p}. With $s_j$ the "
              r"row's logits, its softmax Jacobian has the entries $\partial\alpha_j/\partial s_m$. "
              r"Which statements are true?")
    makers = [*ideas["q3_saturated_row"],
              worked("diagonal_top", {"alpha": a}, (a * (1 - a),), [(1 - a,), (a,), (0.25,), (a * a,)],
                     rf"The diagonal entry at the top position, $\alpha_{p}(1-\alpha_{p})$, is about NUM.",
                     rf"False: $\alpha_{p}(1-\alpha_{p}) = {a} \times {approx(1 - a)} \approx {approx(a * (1 - a))}$."),
              worked("diagonal_other", {"alpha": b}, (b * (1 - b),), [(1 - b,), (b * b,), (0.25,)],
                     rf"The diagonal entry at position {m}, $\alpha_{m}(1-\alpha_{m})$, is about NUM.",
                     rf"False: $\alpha_{m}(1-\alpha_{m}) = {b} \times {approx(1 - b)} \approx {approx(b * (1 - b))}$."),
              worked("off_diagonal", {"alpha_top": a, "alpha_other": b}, (-a * b,),
                     [(a * b,), (-b * b,), (-a * (1 - a),)],
                     rf"The off-diagonal entry $\partial\alpha_{p}/\partial s_{m} = -\alpha_{p}\alpha_{m}$ is "
                     "about NUM.",
                     rf"False: $-\alpha_{p}\alpha_{m} = -{a} \times {b} \approx {approx(-a * b)}$."),
              worked("total_slope", {"alphas": alphas}, (slope,),
                     [(1 - slope,), (a * (1 - a),), (1 - a,), (1 - 1 / len(alphas),)],
                     r"The row's total slope $1 - \sum_j \alpha_j^2$ is about NUM.",
                     rf"False: $1 - \sum_j \alpha_j^2 \approx {approx(slope)}$.")]
    return Question("q3_saturated_row", "multi", prompt, some_true(draws, makers, 5), params=params)


# --- 4. Why a classifier's softmax with cross-entropy does not stall --------------------------------------------


def cross_entropy(draws, avoid, ideas):
    def make(draws):
        k = draws.choice((3, 4, 5))
        favoured, correct = draws.sample(range(1, k + 1), 2)
        top = draws.choice(range(800, 971))  # thousandths, the favoured class's
        rest = draws.shares(1000 - top, k - 1)  # the correct class takes the first share
        others = iter(rest[1:])
        y = tuple((top if j == favoured else rest[0] if j == correct else next(others)) / 1000 for j in range(1, k + 1))
        return (("y_hat", y), ("favoured", favoured), ("correct", correct))
    params = fresh(draws, avoid, "q4_cross_entropy", make)
    y, t, c = (value for _, value in params)
    yc, yt = y[c - 1], y[t - 1]
    makers = [*ideas["q4_cross_entropy"],
              worked("correct_logit", {"y_c": yc}, (yc - 1,), [(1 - yc,), (-yc * (1 - yc),), (-1 / yc,)],
                     rf"The gradient with respect to the correct class's logit, $\partial\ell/\partial z_{c}$, is "
                     "about NUM.",
                     rf"False: $\partial\ell/\partial z_t = \hat y_t - 1 = {yc} - 1 = {approx(yc - 1)}$."),
              worked("favoured_logit", {"y_t": yt}, (yt,), [(yt - 1,), (yt * (1 - yt),), (-yt * yc,)],
                     rf"The gradient with respect to the logit of class {t}, $\partial\ell/\partial z_{t}$, is "
                     "about NUM.",
                     rf"False: for a class $j \ne c$, $\partial\ell/\partial z_j = \hat y_j$, here ${yt}$."),
              worked("loss", {"y_c": yc}, (-math.log(yc),), [(-math.log10(yc),), (1 - yc,), (-math.log(yt),)],
                     "The loss on this example is about NUM.",
                     rf"False: $\ell = -\ln {yc} \approx {approx(-math.log(yc))}$.")]
    prompt = (rf"A classifier ends in a softmax over {len(y)} classes, $\hat{{\boldsymbol y}} = "
              r"\operatorname{softmax}(\boldsymbol z)$, followed by the cross-entropy $\ell = -\ln \hat y_t$ for the "
              rf"correct class $t$. On one example it gives $\hat{{\boldsymbol y}} = {math_list(y)}$: sure of class "
              rf"{t}, while the correct class is $t = {c}$. Its training does not stall on such examples the way a "
              r"saturated attention row does. Exactly one statement is true: which?")
    return Question("q4_cross_entropy", "single", prompt, one_true(draws, makers, 5), params=params)


# --- 5. What dividing does not change ---------------------------------------------------------------------------
SQUARES = (4, 9, 16, 25, 36, 49, 81, 100, 121, 144, 196, 256, 400)


def _top_weight(scores, divisor):
    exps = [math.exp((e - max(scores)) / divisor) for e in scores]
    return max(exps) / sum(exps)


def order_kept(draws, avoid, ideas):
    def make(draws):
        d = draws.choice(SQUARES)
        scores = tuple(draws.sample(range(-3, 9), draws.choice((3, 4, 5))))
        before, after = _top_weight(scores, 1), _top_weight(scores, math.sqrt(d))
        return (("scores", scores), ("d_k", d)) if not _near(before, after, 0.15) else None
    params = fresh(draws, avoid, "q5_order_kept", make)
    scores, d = (value for _, value in params)
    r = math.isqrt(d)
    i = scores.index(max(scores)) + 1
    j = draws.choice([n for n in range(1, len(scores) + 1) if n != i])
    gap, top = max(scores) - min(scores), (_top_weight(scores, 1), _top_weight(scores, r))
    ea, eb = scores[i - 1], scores[j - 1]
    ratio = math.exp((ea - eb) / r)
    makers = [*ideas["q5_order_kept"],
              worked("ratio", {"e_a": ea, "e_b": eb, "d_k": d}, (ratio,),
                     [(math.exp(ea - eb),), (math.exp((ea - eb) / d),)],  # undivided; divided by d_k
                     rf"With the divisor, $\alpha_{i}/\alpha_{j} = \exp\big((e_{i} - e_{j})/\sqrt{{d_k}}\big)$ is "
                     "about NUM.",
                     rf"False: it is $\exp\big(({ea} - ({eb}))/{r}\big) \approx {approx(ratio)}$."),
              worked("top_weight", {"scores": scores, "d_k": d}, top, [top[::-1], (top[0], _top_weight(scores, d))],
                     "The divisor changes the row's top weight from about NUM to about NUM.",
                     rf"False: the top weight is about ${approx(top[0])}$ without the divisor and ${approx(top[1])}$ "
                     r"with it: dividing by a constant above 1 makes a row more even."),
              worked("gap", {"scores": scores, "d_k": d}, (gap / r,), [(gap / d,)],
                     f"The divisor shrinks the gap between the row's largest and smallest logit from ${gap}$ to "
                     "about NUM.",
                     rf"False: dividing every score by ${r}$ divides every gap by ${r}$: "
                     rf"${gap}/{r} \approx {approx(gap / r)}$.")]
    prompt = (rf"One row's scores are $\boldsymbol e = {math_list(scores)}$, in a head with $d_k = {d}$, so "
              rf"$\sqrt{{d_k}} = {r}$. Compare the row's weights $\boldsymbol\alpha = \operatorname{{softmax}}"
              r"(\boldsymbol e)$ without the divisor with $\operatorname{softmax}(\boldsymbol e/\sqrt{d_k})$ with it. "
              r"Which statements are true?")
    return Question("q5_order_kept", "multi", prompt, some_true(draws, makers, 4), params=params)


TOPICS = (score_size, why_the_root, saturated_row, cross_entropy, order_kept)
