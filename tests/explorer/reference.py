"""What the divisor explorer should show, worked out from scratch with plain numpy (never with the code under test).

Used by the tests beside it: test_explorer_model.py, test_explorer_figure.py, test_explorer_widget.py and, through
browser_view.py, the browser tests.
The measure names are the vocabulary's: they are what the page shows, not a computation.
"""
import numpy as np

from attention_lesson.vocabulary import LARGEST_SLOPE, TOP_WEIGHT, TOTAL_SLOPE


def expected_row(T, seed):
    """The explorer's unit-scale row: T standard normal draws from a generator seeded with `seed`, standardised."""
    z = np.random.default_rng(seed).standard_normal(T)
    return (z - z.mean()) / z.std()


def expected_weights(T, seed, d_k, p):
    """The attention weights of that row stretched by sqrt(d_k) and divided by d_k**p."""
    x = np.sqrt(d_k) * expected_row(T, seed) / d_k ** p
    w = np.exp(x - x.max())
    return w / w.sum()


def expected_readouts(T, seed, d_k, p):
    """The three measures of that row: max α, 1 − Σα² and max α(1−α)."""
    a = expected_weights(T, seed, d_k, p)
    return {TOP_WEIGHT: a.max(), TOTAL_SLOPE: 1 - np.sum(a ** 2), LARGEST_SLOPE: np.max(a * (1 - a))}
