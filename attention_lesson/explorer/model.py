"""Everything the divisor explorer shows, as pure functions of its four settings (no drawing, no widgets).

Used by notebooks/04-explore-the-divisor.ipynb. The explorer has four settings: the width d_k, the
exponent p of the divisor d_k**p (p = 0 divides by 1, p = 1/2 by √d_k, p = 1 by d_k), the number of
positions T in the row, and the seed of the generator that draws the row. `explorer_state` turns them
into every number on the screen; attention_lesson.explorer.figure and .widget only show what it returns.

The row follows notebook 01: T unit-scale scores z (mean exactly 0, standard deviation exactly 1) are
stretched to the size a width gives them, e = sqrt(d_k) * z (notebook 02 derives that size), and the
softmax turns e / d_k**p into the row's attention weights.
"""
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from attention_lesson.arguments import as_rows, as_width
from attention_lesson.softmax import softmax_rows
from attention_lesson.vocabulary import LARGEST_SLOPE, TOP_WEIGHT, TOTAL_SLOPE, divisor_name

# The widths the d_k slider offers: powers of two from 4 to 1024.
WIDTHS = tuple(2 ** k for k in range(2, 11))
# The fewest and the most positions the T slider offers.
POSITIONS = (2, 16)
# The state the explorer opens in (and the still picture shows).
DEFAULT_SETTINGS = {"d_k": 64, "p": 0.5, "T": 8, "seed": 0}
# The measures of a row the explorer reads out (notebook 03 defines them), in the order they are shown.
READOUTS = (TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE)
# How a divisor d_k**p without a name reads, p written to two decimals (the browser's view fills the same blank).
OTHER_DIVISOR = "d_k^{p}"


def as_exponent(p, name="p"):
    """Return the exponent `p` of the divisor d_k**p as a float between 0 and 1, or raise a clear error."""
    if isinstance(p, bool) or not isinstance(p, Real):
        raise TypeError(f"{name} must be a number between 0 and 1 (the divisor is d_k**{name}); got {p!r}")
    if not np.isfinite(p) or not 0 <= p <= 1:
        raise ValueError(f"{name} must be between 0 and 1 (0 divides by 1, 0.5 by sqrt(d_k), 1 by d_k); got {p!r}")
    return float(p)


def as_positions(T, name="T"):
    """Return the number of positions `T` as an int of at least 2 (one position leaves nothing to share)."""
    T = as_width(T, name)
    if T < 2:
        raise ValueError(f"{name} must be at least 2: a row of one position has nothing to share out; got {T}")
    return T


def as_seed(seed, name="seed"):
    """Return `seed` as a non-negative int, or raise a clear error."""
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"{name} must be a whole number, 0 or more (it seeds numpy's generator); got {seed!r}")
    return int(seed)


def unit_scores(T, seed):
    """Draw T scores from a generator seeded with `seed`, then centre and scale them to mean 0 and spread 1.

    The same (T, seed) always gives the same row, so a state of the explorer can be reproduced.
    """
    T, seed = as_positions(T), as_seed(seed)
    z = np.random.default_rng(seed).standard_normal(T)
    return (z - z.mean()) / z.std()


def divisor_value(d_k, p):
    """The number the scores are divided by: d_k**p."""
    return float(as_width(d_k)) ** as_exponent(p)


def divisor_label(p):
    """How the divisor reads on screen: a named divisor ('1', '√d_k', 'd_k'), else 'd_k^p' with p to two decimals."""
    p = as_exponent(p)
    return divisor_name(p) or OTHER_DIVISOR.format(p=f"{p:.2f}")


def attention_weights(scores, d_k, p):
    """The attention weights of the row `scores` after dividing it by d_k**p (the softmax of the divided row)."""
    scores = as_rows(scores, "scores", ndim=(1,))
    return softmax_rows(scores / divisor_value(d_k, p))


def readouts(weights):
    """The measures of one row of attention weights α, keyed by READOUTS: max α, 1 − Σα², max α(1−α).

    Notebook 03 names them: the top weight, the total slope (the trace of the row's softmax Jacobian) and
    the largest slope (its largest diagonal entry).
    """
    a = as_rows(weights, "weights", ndim=(1,))
    if np.any(a < 0) or not np.isclose(a.sum(), 1.0):
        raise ValueError("weights must be a row of attention weights: non-negative numbers that add up to 1")
    values = (a.max(), 1.0 - np.sum(a ** 2), np.max(a * (1.0 - a)))
    return {name: float(v) for name, v in zip(READOUTS, values)}


def top_weight_curve(z, p, widths=WIDTHS):
    """The top weight of the row sqrt(d_k) * z divided by d_k**p, at each width in `widths`.

    Since sqrt(d_k) * z / d_k**p = d_k**(1/2 - p) * z, the curve is flat exactly when p = 1/2.
    """
    z = as_rows(z, "z", ndim=(1,))
    widths = [as_width(w, "widths") for w in widths]
    return np.array([attention_weights(np.sqrt(w) * z, w, p).max() for w in widths])


@dataclass(frozen=True)
class ExplorerState:
    """Every number the explorer shows for one setting of its controls."""

    d_k: int
    p: float
    T: int
    seed: int
    divisor: float           # d_k**p
    label: str               # the divisor as text: '1', '√d_k', 'd_k' or 'd_k^0.30'
    z: np.ndarray            # the unit-scale scores
    scores: np.ndarray       # the undivided scores sqrt(d_k) * z
    divided: np.ndarray      # scores / divisor, what the softmax sees
    weights: np.ndarray      # the attention weights
    winner: int              # the position (from 0) with the largest weight
    readouts: dict           # READOUTS -> value
    widths: tuple            # the widths of the curve
    curve: np.ndarray        # top weight at each of `widths`, for this p and this row


def explorer_state(d_k=DEFAULT_SETTINGS["d_k"], p=DEFAULT_SETTINGS["p"], T=DEFAULT_SETTINGS["T"],
                   seed=DEFAULT_SETTINGS["seed"]):
    """Compute everything the explorer shows for width d_k, divisor d_k**p, T positions and a seed."""
    d_k, p, T, seed = as_width(d_k), as_exponent(p), as_positions(T), as_seed(seed)
    z = unit_scores(T, seed)
    scores = np.sqrt(d_k) * z
    divisor = divisor_value(d_k, p)
    weights = attention_weights(scores, d_k, p)
    return ExplorerState(d_k=d_k, p=p, T=T, seed=seed, divisor=divisor, label=divisor_label(p), z=z,
                         scores=scores, divided=scores / divisor, weights=weights,
                         winner=int(np.argmax(weights)), readouts=readouts(weights), widths=WIDTHS,
                         curve=top_weight_curve(z, p, WIDTHS))
