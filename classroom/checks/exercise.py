"""Plumbing of the visible checks of source/score_gradient/score_gradient.ipynb (its grade_cells.py imports this as
`_checks`): inputs drawn from seeds, a softmax by rows, the result read as a float matrix, central differences, the
assertion that exactly some rows are zero, what every rule check asks first (a function that computes its result
from A and G), measurements that come from the seed, and a per-process memory for what the grader measures for
itself. The same code runs in the student's kernel (Validate) and in the grader
(classroom.preprocessors.trusted_grades), where the student's function is a proxy that behaves like it for arrays
in, plain data out; nothing here knows the answer: the reference lives only in the hidden parts of the checks, in
source/."""
import contextlib
import os
import sys
import weakref

import numpy as np

# The one place classroom.checks reaches the lesson's package: the checks draw their weights with the softmax the
# lesson defines (attention_lesson.softmax, NumPy only), and re-export it for the grade cells and measures.
from attention_lesson.softmax import softmax_rows

from ..units import MiB


TIMED_OUT = "TimedOut"  # the kind of a call that ran out of time (classroom.trusted.failures.TIMED_OUT, by value)


@contextlib.contextmanager
def at_size(T, after=""):
    """Calls of the student's function at size T: a call that runs out of its time says at which T, then `after`
    (what the check could not measure), keeping its kind (the grader's report decides on it)."""
    try:
        yield
    except Exception as exc:
        if getattr(exc, "kind", None) == TIMED_OUT and type(exc).__name__ != "OutOfTime" and len(exc.args) == 1:
            exc.args = (f"at T = {T}, {exc.args[0]}{after}",)
        raise


def stderr_as_output():
    """Under nbgrader's Validate (NBGRADER_VALIDATING=1 in its kernel), show what the student's code writes to stderr
    as ordinary output: Validate fails a check on any stderr, and the grader does not."""
    if os.environ.get("NBGRADER_VALIDATING") == "1":
        sys.stderr = sys.stdout


def case(T, seed, dtype=np.float64):
    """Weights of T rows (from logits of spread 2) and a gradient G reaching them."""
    rng = np.random.default_rng(seed)
    A = softmax_rows(rng.normal(scale=2.0, size=(T, T)))
    return A.astype(dtype), rng.normal(size=(T, T)).astype(dtype)


def draw(T, d_k, seed):
    """Queries and keys of T rows of d_k standard normal coordinates, and a gradient G of shape (T, T)."""
    rng = np.random.default_rng(seed)
    return rng.normal(size=(T, d_k)), rng.normal(size=(T, d_k)), rng.normal(size=(T, T))


def as_matrix(out, T):
    """The student's result as a (T, T) float64 array, or AssertionError saying what it is instead."""
    got = np.asarray(out)
    assert got.shape == (T, T), (f"for ({T}, {T}) inputs your function returned shape {got.shape}: "
                                 "the result has one entry per logit, so it has the shape of A")
    assert got.dtype.kind in "biuf", f"your function returned values of dtype {got.dtype}, not real numbers"
    return got.astype(np.float64)


def nudged_gradient(S, G, h=1e-6):
    """dl/dS of l(S) = sum(G * softmax_rows(S)) by central differences: slow and plain, one logit at a time."""
    numeric = np.zeros_like(S)
    for index in np.ndindex(*S.shape):
        step = np.zeros_like(S)
        step[index] = h
        numeric[index] = (np.sum(G * softmax_rows(S + step)) - np.sum(G * softmax_rows(S - step))) / (2 * h)
    return numeric


def nudging_gap(score_gradient, seed, T=5):
    """The largest gap between score_gradient(softmax_rows(S), G) and central differences of sum(G * softmax(S)), on
    a (T, T) draw from `seed`: under 1e-6 when the values are right."""
    rng = np.random.default_rng(seed)
    S, G = rng.normal(size=(T, T)), rng.normal(size=(T, T))
    numeric = nudged_gradient(S, G)
    return float(np.max(np.abs(as_matrix(score_gradient(softmax_rows(S), G.copy()), T) - numeric)))


def zero_at_T_1(score_gradient):
    """With T = 1 the only weight is 1 whatever its logit, so its gradient is 0 (else AssertionError)."""
    one = as_matrix(score_gradient(np.ones((1, 1)), np.full((1, 1), 2.5)), 1)
    assert abs(one[0, 0]) < 1e-12, (f"with T = 1 the only weight is 1 whatever its logit, so its gradient is 0; "
                                    f"your function returned {one[0, 0]:.3g}")


def zero_rows_only(got, rows, why):
    """The given rows of the result are zero (else AssertionError with why(how far off they are)), the others not."""
    off = np.abs(got[rows]).max()
    assert off < 1e-12, why(off)
    others = [i for i in range(got.shape[0]) if i not in rows]
    assert np.abs(got[others]).max() > 1e-6, "your result is zero on ordinary rows too"


def small_peak(f, T, seed, limit, measure):
    """One call f(A, G) at size T takes less than `limit` bytes beyond its inputs, as `measure`
    (classroom.checks.measures.peak_extra_bytes) finds; else AssertionError comparing with a (T, T, T) Jacobian."""
    with at_size(T, "; so its memory could not be measured"):
        extra = measure(f, *case(T, seed))
    assert extra < limit, (f"at T = {T} one call took {extra / MiB:.0f} MiB beyond its inputs, and the limit is "
                           f"{limit / MiB:.0f} MiB (a (T, T, T) array of floats is {T ** 3 * 8 / MiB:.0f} MiB; a "
                           f"(T, T) one is {T * T * 8 / MiB:.1f} MiB): avoid building the Jacobian")


def size_by_definition(score_gradient, Q, K, G, divisor):
    """The mean of |score_gradient(A, G)| with A the row softmax of Q K^T / divisor, with the student's own
    score_gradient: a mistake in part 1 is not counted again in part 2."""
    A = softmax_rows(Q @ K.T / divisor)
    return float(np.mean(np.abs(as_matrix(score_gradient(A, G), len(Q)))))


def own_sizes(score_gradient_size, d_k, draws, seed, T=8):
    """What the student's own score_gradient_size gives, averaged over `draws` draws made here from `seed`: for the
    divisors 1 and sqrt(d_k), the mean size and the spread (standard deviation) of one draw's size. Part 2's
    measurement is compared with this, so that a mistake in part 1 or in score_gradient_size is not counted again
    (one that writes into G included: both divisors are given the same G, as the reference's mean_sizes does)."""
    rng = np.random.default_rng(seed)
    sizes = np.empty((draws, 2))
    for n in range(draws):
        Q, K, G = rng.normal(size=(T, d_k)), rng.normal(size=(T, d_k)), rng.normal(size=(T, T))
        for column, divisor in enumerate((1.0, float(np.sqrt(d_k)))):
            got = score_gradient_size(Q.copy(), K.copy(), G, divisor)  # one G for both, as the reference does
            assert np.ndim(got) == 0 and np.isreal(got), f"score_gradient_size should return one number, not {got!r}"
            sizes[n, column] = float(got)
    return [(float(sizes[:, k].mean()), float(sizes[:, k].std())) for k in (0, 1)]


def two_sizes(mean_sizes, d_k, draws, seed):
    """mean_sizes(d_k, draws, seed) as two positive numbers (undivided, divided), or AssertionError saying what it
    returned instead."""
    got = mean_sizes(d_k, draws, seed)
    try:
        undivided, divided = (float(x) for x in got)
    except (TypeError, ValueError):
        raise AssertionError(f"mean_sizes should return two numbers (undivided, divided); got {got!r}") from None
    assert undivided > 0 and divided > 0 and np.isfinite([undivided, divided]).all(), (
        f"mean_sizes({d_k}, {draws}, {seed}) returned {got!r}: sizes of a gradient are positive numbers")
    return undivided, divided


def sizes_agree(got, want, within, d_k, whose):
    """AssertionError unless the sizes `got` (undivided, divided) of mean_sizes are within the shares `within` of the
    means in `want` (as own_sizes returns them), measured by `whose`."""
    for name, size, (mean, _), share in zip(("undivided", "divided"), got, want, within):
        assert abs(size / mean - 1) < share, (
            f"at d_k = {d_k}, {name}, mean_sizes gives {size:.3g}, but {whose} gives {mean:.3g}: check that "
            "mean_sizes passes the divisors 1 and sqrt(d_k) and draws new Q, K and G for every draw")


def spread_as_draws_do(averages, spread, draws):
    """AssertionError unless `averages` (of `draws` draws each, over several seeds) spread about as averages of
    draws of one-draw spread `spread` do: a ratio between 0.1 and 3, missed by averages of draws once in 10^5 or
    less (for 8 seeds)."""
    ratio = np.std(averages, ddof=1) / (spread / np.sqrt(draws))
    assert 0.1 < ratio < 3, (
        f"over {len(averages)} seeds, your divided averages of {draws} draws spread {ratio:.2g} times as much as "
        f"averages of {draws} random draws do: the sizes should be measured on draws made from the seed, not "
        "computed from a formula")


def held_to_one(measurements, test):
    """`test(want, whose)` passes for one of `measurements` ((want, whose), made only as needed), else the
    AssertionError of the last: part 2 is held to the grader's measurement or to the student's own part 1."""
    for want, whose in measurements:
        try:
            return test(want, whose)
        except AssertionError as exc:
            failed = exc
    raise failed


def three_numbers(by_hand):
    """The row worked by hand as a float array of three finite numbers, or AssertionError saying what form it has."""
    try:
        hand = np.asarray(by_hand, dtype=float)
    except (TypeError, ValueError):
        hand = None
    assert hand is not None and hand.shape == (3,) and np.all(np.isfinite(hand)), (
        f"by_hand should be a list of three finite numbers, one per position of the row, such as [0.5, -1, 2/3]; got "
        f"{by_hand!r}")
    return hand


def computes_from_both(score_gradient, T=8, seed=62):
    """What every rule check asks first: score_gradient answers with a (T, T) array of real numbers that it computes
    from both A and G (another A, or another G, changes it); else AssertionError saying what it does instead. A rule
    is judged on a function that does the job, whatever its values: those are judged by the value checks. Asked
    once per function (the rule checks share the answer)."""
    if score_gradient not in _COMPUTES:
        _COMPUTES[score_gradient] = _computes_from_both(score_gradient, T, seed)
    if _COMPUTES[score_gradient]:
        raise AssertionError(_COMPUTES[score_gradient])


_COMPUTES = weakref.WeakKeyDictionary()  # {function: None, or why it is not judged}


def _computes_from_both(score_gradient, T, seed):
    (A, G), (other_A, other_G) = case(T, seed), case(T, seed + 1)
    try:
        got = as_matrix(score_gradient(A.copy(), G.copy()), T)
        for changed, again in (("G", (A.copy(), other_G)), ("A", (other_A, G.copy()))):
            if np.array_equal(as_matrix(score_gradient(*again), T), got):
                return (f"with another {changed} your function returned the same result: this rule is judged on a "
                        "function that computes the gradient from both A and G")
    except AssertionError as exc:
        return str(exc)
    return None


def drawn_from_the_seed(mean_sizes, d_k, draws, seeds):
    """mean_sizes gives the same sizes for the same seed and others for another seed (else AssertionError)."""
    first, again, other = (two_sizes(mean_sizes, d_k, draws, seed) for seed in (seeds[0], seeds[0], seeds[1]))
    assert first == again, (f"mean_sizes({d_k}, {draws}, {seeds[0]}) returned {first} and then {again}: draw with "
                            "np.random.default_rng(seed), so that the same seed gives the same draws")
    assert first != other, (f"mean_sizes gave {first} for the seeds {seeds[0]} and {seeds[1]} alike: the sizes "
                            "should be measured on draws made from the seed")


def leaves_inputs_alone(score_gradient, seed, T=8):
    """score_gradient(A, G) leaves A and G as they were and accepts read-only ones (else AssertionError saying
    which); returns (A, G, the result)."""
    A, G = case(T, seed)
    A_before, G_before = A.copy(), G.copy()
    first = as_matrix(score_gradient(A, G), T)
    assert np.array_equal(A, A_before) and np.array_equal(G, G_before), (
        "your function changed A or G: build the result in a new array (A * (...) makes one) instead of writing "
        "into them with A *= ..., G -= ... or out=A")
    A.setflags(write=False)
    G.setflags(write=False)
    try:
        again = as_matrix(score_gradient(A, G), T)
    except ValueError as exc:
        raise AssertionError(f"with read-only inputs your function failed ({exc}): it writes into A or G") from None
    assert np.allclose(first, again), "with read-only inputs your function returned other values"
    return A, G, first
