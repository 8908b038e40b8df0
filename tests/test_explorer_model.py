"""The explorer's numbers (attention_lesson.explorer_model) agree with numpy computed here from scratch.

Every expectation is worked out in this file with plain numpy, never by calling the code under test.
"""
import numpy as np
import pytest

from attention_lesson.explorer_model import (DIVISORS, READOUT_NAMES, WIDTHS, divisor_label, divisor_value,
                                             explorer_state, readouts, share_out, top_weight_curve, unit_scores)


def expected_row(T, seed):
    z = np.random.default_rng(seed).standard_normal(T)
    return (z - z.mean()) / z.std()


def expected_weights(T, seed, d_k, p):
    x = np.sqrt(d_k) * expected_row(T, seed) / d_k ** p
    w = np.exp(x - x.max())
    return w / w.sum()


SETTINGS = [(4, 0.0, 8, 0), (64, 0.5, 8, 0), (1024, 1.0, 8, 3), (256, 0.25, 5, 12), (16, 0.8, 16, 7), (1024, 0.0, 2, 1)]


def test_widths_are_the_powers_of_two_from_4_to_1024():
    assert WIDTHS == (4, 8, 16, 32, 64, 128, 256, 512, 1024)


def test_the_named_divisors_are_1_the_root_and_d_k():
    assert [divisor_value(64, p) for p in DIVISORS.values()] == [1.0, 8.0, 64.0]
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
def test_the_state_holds_the_share_out_of_the_divided_scores(d_k, p, T, seed):
    state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
    z = expected_row(T, seed)
    np.testing.assert_allclose(state.scores, np.sqrt(d_k) * z)
    np.testing.assert_allclose(state.divided, np.sqrt(d_k) * z / d_k ** p)
    np.testing.assert_allclose(state.weights, expected_weights(T, seed, d_k, p), rtol=1e-12, atol=1e-300)
    assert state.divisor == pytest.approx(d_k ** p)
    assert state.winner == int(np.argmax(z))


@pytest.mark.parametrize("d_k, p, T, seed", SETTINGS)
def test_the_readouts_are_top_weight_share_out_and_steepest_slope(d_k, p, T, seed):
    a = expected_weights(T, seed, d_k, p)
    state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
    assert tuple(state.readouts) == READOUT_NAMES
    assert state.readouts["top weight"] == pytest.approx(a.max())
    assert state.readouts["share-out 1 − Σα²"] == pytest.approx(1 - np.sum(a ** 2), abs=1e-12)
    assert state.readouts["max α(1−α)"] == pytest.approx(np.max(a * (1 - a)), abs=1e-12)


def test_readouts_at_the_two_extremes():
    T = 8
    even = readouts(np.full(T, 1 / T))
    assert even["share-out 1 − Σα²"] == pytest.approx(1 - 1 / T)
    assert even["max α(1−α)"] == pytest.approx(1 / T * (1 - 1 / T))
    one_hot = readouts(np.eye(T)[3])
    assert one_hot["top weight"] == 1 and one_hot["share-out 1 − Σα²"] == 0 and one_hot["max α(1−α)"] == 0


def test_share_out_divides_before_the_softmax():
    e = np.array([3.0, 1.0, -1.0])
    w = np.exp(e / 4)
    np.testing.assert_allclose(share_out(e, 16, 0.5), w / w.sum())


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
    assert undivided["top weight"] > 0.99 and undivided["max α(1−α)"] < 0.01
    by_width = explorer_state(d_k=1024, p=1.0, T=T, seed=0).readouts
    assert by_width["share-out 1 − Σα²"] == pytest.approx(1 - 1 / T, abs=0.01)


@pytest.mark.parametrize("call, message", [
    (lambda: explorer_state(d_k=0), "d_k must be at least 1"),
    (lambda: explorer_state(d_k=6.5), "d_k must be a positive whole number"),
    (lambda: explorer_state(p=1.5), "p must be between 0 and 1"),
    (lambda: explorer_state(p="half"), "p must be a number between 0 and 1"),
    (lambda: explorer_state(T=1), "T must be at least 2"),
    (lambda: explorer_state(seed=-1), "seed must be a whole number, 0 or more"),
    (lambda: readouts([0.5, 0.6]), "weights must be a share-out"),
    (lambda: share_out([[1.0, 2.0]], 4, 0.5), "scores must be a 1-D array"),
])
def test_bad_settings_are_refused_with_a_clear_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
