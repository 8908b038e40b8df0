"""The opening figure draws exactly the numbers it is given, labelled, and refuses bad input clearly."""
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex

from attention_lesson.figure_divisors import plot_divisor_grid
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import DIVISOR_MATH, WEIGHTS


@pytest.fixture
def grid():
    widths = (4, 16)
    scores = np.array([[2.0, 0.0, -2.0], [4.0, 0.0, -4.0]])
    weights = {"1": np.array([[0.7, 0.2, 0.1], [0.9, 0.08, 0.02]]),
               "√d_k": np.array([[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]])}
    return widths, scores, weights


def bar_heights(ax):
    return [p.get_height() for p in ax.patches]


def test_bars_carry_the_numbers_passed_in(grid):
    widths, scores, weights = grid
    fig = plot_divisor_grid(widths, scores, weights)
    axes = np.array(fig.axes).reshape(3, 2)
    for col in range(2):
        np.testing.assert_allclose(bar_heights(axes[0, col]), scores[col])
        np.testing.assert_allclose(bar_heights(axes[1, col]), weights["1"][col])
        np.testing.assert_allclose(bar_heights(axes[2, col]), weights["√d_k"][col])
    plt.close(fig)


def test_the_top_weight_is_written_above_each_row_of_weights(grid):
    widths, scores, weights = grid
    fig = plot_divisor_grid(widths, scores, weights)
    axes = np.array(fig.axes).reshape(3, 2)
    assert [t.get_text() for t in axes[1, 0].texts] == ["0.70"]
    assert [t.get_text() for t in axes[1, 1].texts] == ["0.90"]
    plt.close(fig)


def test_every_axis_is_labelled(grid):
    fig = plot_divisor_grid(*grid)
    axes = np.array(fig.axes).reshape(3, 2)
    assert [ax.get_ylabel() for ax in axes[:, 0]] == ["score", WEIGHTS, WEIGHTS]
    assert all(ax.get_xlabel() == "position j in the row" for ax in axes[-1])
    assert all(ax.get_title() for ax in fig.axes)
    assert [ax.get_title() for ax in axes[1:, 0]] == [f"softmax of {DIVISOR_MATH[key]}" for key in ("1", "√d_k")]
    plt.close(fig)


def test_each_divisor_has_its_house_colour_and_the_root_is_shaded(grid):
    fig = plot_divisor_grid(*grid)
    axes = np.array(fig.axes).reshape(3, 2)
    for row, key in ((1, "1"), (2, "√d_k")):
        assert to_hex(axes[row, 0].patches[0].get_facecolor()) == DIVISOR_COLOURS[key].lower()
    assert axes[2, 0].get_facecolor() != axes[1, 0].get_facecolor()
    plt.close(fig)


@pytest.mark.parametrize("change, message", [
    (lambda w, s, g: ((4,), s, g), "scores must have one row per width"),
    (lambda w, s, g: ((4, 0), s, g), r"widths\[1\] must be at least 1"),
    (lambda w, s, g: (w, s[:, :2], g), r"weights\['1'\] must have the shape of scores"),
    (lambda w, s, g: (w, s, {"none": g["1"]}), "unknown divisor"),
    (lambda w, s, g: (w, s, {"1": g["1"] * 2}), "must be attention weights"),
    (lambda w, s, g: (w, s * np.nan, g), "scores must be finite"),
    (lambda w, s, g: (w, s, {}), "weights must be a dict from divisor"),
])
def test_bad_input_is_refused_with_a_clear_message(grid, change, message):
    with pytest.raises((ValueError, TypeError), match=message):
        plot_divisor_grid(*change(*grid))


def test_no_text_is_smaller_than_the_house_font(grid, assert_house_font):
    assert_house_font(plot_divisor_grid(*grid))
