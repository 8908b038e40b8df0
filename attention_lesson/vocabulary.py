"""Every name a student or an instructor reads for the lesson's ideas, spelled once.

Figures, tables, the explorer, the quiz and the tests import these names rather than spelling them again, so a
renamed idea changes everywhere at once.

Quantities. A score is e = q·k, before any divisor; a logit is what the softmax receives, s = e / d_k**p (undivided,
the score itself). A row of attention weights is saturated when one weight is close to 1 (never "closed").

Divisors. The lesson compares three divisors of the scores, d_k**p for p = 0, 1/2 and 1. Each is keyed by the
label a student sees after "divide by": "1", "√d_k", "d_k".

Measures of one row of attention weights α (notebook 03 defines them):
  top weight       max_j α_j, the largest weight in the row;
  total slope      1 − Σ_j α_j², the trace of the row's softmax Jacobian (the sum over j of ∂α_j/∂s_j);
                   1 − 1/T for an even row, 0 for a one-hot row;
  largest slope    max_j α_j(1 − α_j), the steepest single weight (at most 1/4).
"""

SCORE = "score"   # e = q·k
LOGIT = "logit"   # s = e / d_k**p, the softmax's input

# divide by -> the exponent p of d_k**p
DIVISOR_EXPONENTS = {"1": 0.0, "√d_k": 0.5, "d_k": 1.0}
# divide by -> how a figure labels the logits, the divided scores (matplotlib mathtext)
DIVISOR_MATH = {"1": r"$e$ (undivided)", "√d_k": r"$e\,/\sqrt{d_k}$", "d_k": r"$e\,/\,d_k$"}
# divide by -> the same in words, for legends, headings and row titles: what the softmax sees is the logits
DIVISOR_WORDS = {"1": "logits = scores (undivided)", "√d_k": "logits = scores / √d_k", "d_k": "logits = scores / d_k"}

WEIGHTS = "attention weights"
TOP_WEIGHT = "top weight"
TOTAL_SLOPE = "total slope"
LARGEST_SLOPE = "largest slope"
# The same measures with their formulas, as the explorer and the tables show them.
MEASURE_FORMULAS = {TOP_WEIGHT: "max α", TOTAL_SLOPE: "1 − Σα²", LARGEST_SLOPE: "max α(1−α)"}


def divisor_name(p, tolerance=1e-9):
    """The label ("1", "√d_k" or "d_k") of the named divisor with exponent `p`, or None if `p` names none."""
    for name, exponent in DIVISOR_EXPONENTS.items():
        if abs(float(p) - exponent) <= tolerance:
            return name
    return None
