r"""The five questions of a graded quiz variant, one function per topic of the self-check (notebooks 02 and 03).

Each function takes the seeded draws and what the variant must avoid (classroom.quiz.draws), and returns one
Question. The numbers come from the draws; every numeric claim states either the value the formula in its own
text gives or a typical slip (a variance for a standard deviation, a sign lost, $\log_{10}$ for $\ln$...).
Reading a function is reading the physics: the formula that makes each claim true is written beside it.
"""
import math

from .draws import TOLERANCE, Question, approx, fresh, idea, math_list, one_true, some_true, worked

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


def score_size(draws, avoid):
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
# false, is written to about the same length, so that its length gives nothing away.
ROOT_WIDTHS = (16, 32, 48, 96, 128, 144, 192, 256, 320, 384, 512, 768, 1024, 2048)
ROOT_IDEAS = [
    idea("undivided_rows", r"Undivided, the logits grow like $\sqrt{d_k}$, so a wide layer starts with most rows "
         r"saturated, and only its few unsaturated rows still pass gradient back to their queries.",
         r"Undivided, the logits keep standard deviation about 1 at every width, since every query and key "
         r"coordinate has standard deviation 1, so no row of a wide layer starts saturated.",
         r"False: an undivided logit is the score itself, a sum of $d_k$ products, with standard deviation "
         r"$\sqrt{d_k}$."),
    idea("dk_rate", r"Divided by $d_k$, the logits start like $1/\sqrt{d_k}$ and a step moves them by about $1/d_k$ "
         r"times their gradient, not once: the rate or the initialisation must grow with the width.",
         r"Divided by $d_k$, rows start nearly even, where the total slope is largest, so one learning rate and the "
         r"standard initialisation serve every width even better than with $\sqrt{d_k}$.",
         r"False: a step moves the logits about $d_k/c^2$ times their gradient, $1/d_k$ for $c = d_k$, so at one "
         r"rate wide layers learn ever more slowly; μP divides by $d_k$ with its own width-dependent rates."),
    idea("mean", r"The divisor has nothing to do with a drift of the mean: a score's mean is 0 at every width, and "
         r"the divisor sets the size of the logits' spread, not where they are centred.",
         r"A score's mean drifts upwards like $\sqrt{d_k}$ as the width grows, and dividing by $\sqrt{d_k}$ is what "
         r"removes that drift, which dividing by $d_k$ would overdo.",
         r"False: each product $q_m k_m$ has mean 0, so the score has mean 0; only its spread grows."),
    idea("variance", r"A score's variance grows like $d_k$, not like $\sqrt{d_k}$: dividing by $\sqrt{d_k}$ brings "
         r"its standard deviation back to 1, which is what keeps the logits' scale fixed.",
         r"A score's variance grows like $\sqrt{d_k}$, and dividing by $\sqrt{d_k}$ brings that variance back to 1, "
         r"which is what keeps the logits' scale fixed at every width.",
         r"False: a sum of $d_k$ independent products of variance 1 has variance $d_k$; it is the standard "
         r"deviation that grows like $\sqrt{d_k}$."),
]


def why_the_root(draws, avoid):
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
    return Question("q2_why_the_root", "single", prompt, one_true(draws, [*ROOT_IDEAS, step], 5), params=params)


# --- 3. What a saturated row loses ------------------------------------------------------------------------------
ROW_IDEAS = [
    idea("wq_wk", r"Through this row, $W^Q$ and $W^K$ get little gradient: it reaches them only through the row's "
         r"softmax Jacobian, whose entries are all small here.",
         r"Through this row, $W^Q$ and $W^K$ still get their full gradient, since the row's output depends on the "
         r"queries and keys whether the row is saturated or not.",
         r"False: every gradient for $W^Q$ and $W^K$ passes through the row's softmax Jacobian, and each entry of "
         r"it has a factor close to 0 when one weight is close to 1."),
    idea("wv", r"$W^V$ still gets gradient through this row: the path from the output to the values does not pass "
         r"through the softmax Jacobian.",
         r"$W^V$ gets no gradient through this row either: a saturated row blocks every path back from its output.",
         r"False: the output is $\sum_j \alpha_j \boldsymbol v_j$, so value $j$ gets $\alpha_j$ times the output's "
         r"gradient, with no softmax Jacobian on the way."),
    idea("output", r"The row's output is still a finite weighted mean of the value vectors, dominated by the top "
         r"position's value vector.",
         r"The row's output is NaN: the softmax overflows once a row is this saturated, so no output is computed.",
         r"False: these weights are ordinary numbers, and a softmax computed the usual way (largest logit "
         r"subtracted first) does not overflow; the output is $\sum_j \alpha_j \boldsymbol v_j$."),
]


def saturated_row(draws, avoid):
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
    makers = [*ROW_IDEAS,
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
CE_IDEAS = [
    idea("log_cancels", r"The cross-entropy's logarithm undoes the softmax's exponential: the gradient with respect to "
         r"the logits is $\hat{\boldsymbol y} - \boldsymbol y$, with no factor $\hat y_j(1-\hat y_j)$.",
         r"The gradient with respect to the logits keeps the softmax's factor $\hat y_c(1-\hat y_c)$; the "
         r"classifier escapes only because its logits stay small.",
         r"False: the logarithm cancels the exponential, and the gradient is $\hat{\boldsymbol y} - \boldsymbol y$, "
         r"with no such factor."),
    idea("small_when_right", r"The gradient $\hat{\boldsymbol y} - \boldsymbol y$ becomes small only once the "
         r"classifier is both confident and right.",
         r"The gradient $\hat{\boldsymbol y} - \boldsymbol y$ becomes small as soon as the classifier is confident, "
         r"right or wrong.",
         r"False: its entry for the correct class is $\hat y_c - 1$, close to $-1$ while the classifier is sure of "
         r"another class."),
    idea("no_divisor", r"The classifier needs no divisor like $\sqrt{d_k}$ on its logits: with the cross-entropy after "
         r"the softmax, large logits do not stop the gradient while the prediction is wrong.",
         r"The classifier's softmax is divided by the square root of the number of classes, as attention's is by "
         r"$\sqrt{d_k}$, and that is what keeps it learning.",
         r"False: a standard classifier's output softmax has no such divisor; the cross-entropy's logarithm is what "
         r"keeps its gradient alive."),
]


def cross_entropy(draws, avoid):
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
    makers = [*CE_IDEAS,
              worked("correct_logit", {"y_c": yc}, (yc - 1,), [(1 - yc,), (-yc * (1 - yc),), (-1 / yc,)],
                     rf"The gradient with respect to the correct class's logit, $\partial\ell/\partial z_{c}$, is "
                     "about NUM.",
                     rf"False: $\partial\ell/\partial z_c = \hat y_c - 1 = {yc} - 1 = {approx(yc - 1)}$."),
              worked("favoured_logit", {"y_t": yt}, (yt,), [(yt - 1,), (yt * (1 - yt),), (-yt * yc,)],
                     rf"The gradient with respect to the logit of class {t}, $\partial\ell/\partial z_{t}$, is "
                     "about NUM.",
                     rf"False: for a class $j \ne c$, $\partial\ell/\partial z_j = \hat y_j$, here ${yt}$."),
              worked("loss", {"y_c": yc}, (-math.log(yc),), [(-math.log10(yc),), (1 - yc,), (-math.log(yt),)],
                     "The loss on this example is about NUM.",
                     rf"False: $\ell = -\ln {yc} \approx {approx(-math.log(yc))}$.")]
    prompt = (rf"A classifier ends in a softmax over {len(y)} classes, $\hat{{\boldsymbol y}} = "
              r"\operatorname{softmax}(\boldsymbol z)$, followed by the cross-entropy $\ell = -\ln \hat y_c$ for the "
              rf"correct class $c$. On one example it gives $\hat{{\boldsymbol y}} = {math_list(y)}$: sure of class "
              rf"{t}, while the correct class is $c = {c}$. Its training does not stall on such examples the way a "
              r"saturated attention row does. Exactly one statement is true: which?")
    return Question("q4_cross_entropy", "single", prompt, one_true(draws, makers, 5), params=params)


# --- 5. What dividing does not change ---------------------------------------------------------------------------
ORDER_KEPT = (r"False: dividing by a positive constant keeps the order of the scores, and the softmax keeps the "
              r"order of its inputs.")
DIVIDE_IDEAS = [
    idea("largest_stays", r"The largest weight sits at the same position with the divisor as without it.",
         r"With the divisor, the largest weight can move to another position.", ORDER_KEPT),
    idea("order_kept", r"Whenever $e_j > e_m$, also $\alpha_j > \alpha_m$, with the divisor or without it.",
         r"With the divisor, two weights whose scores are close can change places.", ORDER_KEPT),
    idea("sum_one", r"The weights add up to 1 with the divisor as without it.",
         r"With the divisor, the weights add up to $1/\sqrt{d_k}$ instead of 1.",
         r"False: a softmax returns weights that add up to 1, whatever the scale of its inputs."),
]
SQUARES = (4, 9, 16, 25, 36, 49, 81, 100, 121, 144, 196, 256, 400)


def _top_weight(scores, divisor):
    exps = [math.exp((e - max(scores)) / divisor) for e in scores]
    return max(exps) / sum(exps)


def order_kept(draws, avoid):
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
    makers = [*DIVIDE_IDEAS,
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
