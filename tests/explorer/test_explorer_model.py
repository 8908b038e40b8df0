"""The explorer's numbers (attention_lesson.explorer.model) agree with numpy computed from scratch.

Every expectation is worked out with plain numpy (here or in tests/explorer/reference.py), never by the code under test.
"""
import numpy as np
import pytest

from attention_lesson.explorer.model import (READOUTS, WIDTHS, attention_weights, divisor_label, divisor_value,
                                             explorer_state, readouts, top_weight_curve, unit_scores)
from attention_lesson.vocabulary import DIVISOR_EXPONENTS, LARGEST_SLOPE, TOP_WEIGHT, TOTAL_SLOPE
from tests.explorer.reference import expected_readouts, expected_row, expected_weights


SETTINGS = [(4, 0.0, 8, 0), (64, 0.5, 8, 0), (1024, 1.0, 8, 3), (256, 0.25, 5, 12), (16, 0.8, 16, 7), (1024, 0.0, 2, 1)]


def test_widths_are_the_powers_of_two_from_4_to_1024():
    assert WIDTHS == (4, 8, 16, 32, 64, 128, 256, 512, 1024)


def test_the_named_divisors_are_1_the_root_and_d_k():
    assert [divisor_value(64, p) for p in DIVISOR_EXPONENTS.values()] == [1.0, 8.0, 64.0]
    assert [divisor_label(p) for p in (0, 0.5, 1, 0.3)] == ["1", "√d_k", "d_k", "d_k^0.30"]


@pytest.mark.parametrize("T, seed", [(2, 0), (8, 0), (8, 1), (16, 123)])
def test_a_row_is_unit_scale_and_reproducible(T, seed):
    z = unit_scores(T, seed)
    np.testing.assert_allclose(z, expected_row(T, seed))
    assert np.isclose(z.mean(), 0) and np.isclose(z.std(), 1)
    np.testing.assert_array_equal(unit_scores(T, seed), z)


def test_a_new_seed_draws_a_new_row():
    assert not np.allclose(unit_scores(8, 0), unit_scores(8, 1))


@pytest.mark.parametrize("d_k, p, T, seed", SETTINGS)
def test_the_state_holds_the_attention_weights_of_the_divided_scores(d_k, p, T, seed):
    state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
    z = expected_row(T, seed)
    np.testing.assert_allclose(state.scores, np.sqrt(d_k) * z)
    np.testing.assert_allclose(state.divided, np.sqrt(d_k) * z / d_k ** p)
    np.testing.assert_allclose(state.weights, expected_weights(T, seed, d_k, p), rtol=1e-12, atol=1e-300)
    assert state.divisor == pytest.approx(d_k ** p)
    assert state.winner == int(np.argmax(z))


@pytest.mark.parametrize("d_k, p, T, seed", SETTINGS)
def test_the_readouts_are_top_weight_total_slope_and_largest_slope(d_k, p, T, seed):
    state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
    assert tuple(state.readouts) == READOUTS == (TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE)
    for name, value in expected_readouts(T, seed, d_k, p).items():
        assert state.readouts[name] == pytest.approx(value, abs=1e-12), name


def test_readouts_at_the_two_extremes():
    T = 8
    even = readouts(np.full(T, 1 / T))
    assert even[TOTAL_SLOPE] == pytest.approx(1 - 1 / T)
    assert even[LARGEST_SLOPE] == pytest.approx(1 / T * (1 - 1 / T))
    one_hot = readouts(np.eye(T)[3])
    assert one_hot[TOP_WEIGHT] == 1 and one_hot[TOTAL_SLOPE] == 0 and one_hot[LARGEST_SLOPE] == 0


def test_attention_weights_divide_before_the_softmax():
    e = np.array([3.0, 1.0, -1.0])
    w = np.exp(e / 4)
    np.testing.assert_allclose(attention_weights(e, 16, 0.5), w / w.sum())


@pytest.mark.parametrize("p", [0.0, 0.25, 0.5, 0.6, 1.0])
def test_the_curve_is_the_top_weight_at_every_width(p):
    z = expected_row(8, 0)
    expected = [expected_weights(8, 0, w, p).max() for w in WIDTHS]
    np.testing.assert_allclose(top_weight_curve(z, p), expected)
    np.testing.assert_allclose(explorer_state(p=p).curve, expected)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_curve_is_flat_only_at_one_half(seed):
    z = expected_row(8, seed)
    flat = top_weight_curve(z, 0.5)
    assert np.ptp(flat) < 1e-12
    for p in (0.0, 0.3, 0.45):
        rising = top_weight_curve(z, p)
        assert np.all(np.diff(rising) > 0) and np.ptp(rising) > 1e-3, f"p = {p} should close the row as d_k grows"
    for p in (0.55, 0.7, 1.0):
        falling = top_weight_curve(z, p)
        assert np.all(np.diff(falling) < 0) and np.ptp(falling) > 1e-3, f"p = {p} should flatten the row as d_k grows"


def test_undivided_wide_rows_close_and_divided_by_d_k_flatten():
    T = 8
    undivided = explorer_state(d_k=1024, p=0.0, T=T, seed=0).readouts
    assert undivided[TOP_WEIGHT] > 0.99 and undivided[LARGEST_SLOPE] < 0.01
    by_width = explorer_state(d_k=1024, p=1.0, T=T, seed=0).readouts
    assert by_width[TOTAL_SLOPE] == pytest.approx(1 - 1 / T, abs=0.01)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_larger_divisor_never_leaves_less_total_slope(seed):
    """What notebook 04 says of dividing by d_k: the row flattens, and by the total slope it only gains."""
    for d_k in WIDTHS:
        slopes = [explorer_state(d_k=d_k, p=p, seed=seed).readouts[TOTAL_SLOPE] for p in (0.0, 0.25, 0.5, 0.75, 1.0)]
        assert np.all(np.diff(slopes) > 0), (d_k, slopes)


@pytest.mark.parametrize("call, message", [
    (lambda: explorer_state(d_k=0), "d_k must be at least 1"),
    (lambda: explorer_state(d_k=6.5), "d_k must be a positive whole number"),
    (lambda: explorer_state(p=1.5), "p must be between 0 and 1"),
    (lambda: explorer_state(p="half"), "p must be a number between 0 and 1"),
    (lambda: explorer_state(T=1), "T must be at least 2"),
    (lambda: explorer_state(seed=-1), "seed must be a whole number, 0 or more"),
    (lambda: readouts([0.5, 0.6]), "weights must be a row of attention weights"),
    (lambda: attention_weights([[1.0, 2.0]], 4, 0.5), "scores must be a 1-D array"),
])
def test_bad_settings_are_refused_with_a_clear_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
