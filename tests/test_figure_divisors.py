"""The opening figure draws exactly the numbers it is given, labelled, and refuses bad input clearly."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from attention_lesson.figure_divisors import plot_divisor_grid


@pytest.fixture
def grid():
    widths = (4, 16)
    scores = np.array([[2.0, 0.0, -2.0], [4.0, 0.0, -4.0]])
    weights = {"none": np.array([[0.7, 0.2, 0.1], [0.9, 0.08, 0.02]]),
               "sqrt(d_k)": np.array([[0.5, 0.3, 0.2], [0.5, 0.3, 0.2]])}
    return widths, scores, weights


def bar_heights(ax):
    return [p.get_height() for p in ax.patches]


def test_bars_carry_the_numbers_passed_in(grid):
    widths, scores, weights = grid
    fig = plot_divisor_grid(widths, scores, weights)
    axes = np.array(fig.axes).reshape(3, 2)
    for col in range(2):
        np.testing.assert_allclose(bar_heights(axes[0, col]), scores[col])
        np.testing.assert_allclose(bar_heights(axes[1, col]), weights["none"][col])
        np.testing.assert_allclose(bar_heights(axes[2, col]), weights["sqrt(d_k)"][col])
    plt.close(fig)


def test_the_winner_is_written_above_each_share_out(grid):
    widths, scores, weights = grid
    fig = plot_divisor_grid(widths, scores, weights)
    axes = np.array(fig.axes).reshape(3, 2)
    assert [t.get_text() for t in axes[1, 0].texts] == ["0.70"]
    assert [t.get_text() for t in axes[1, 1].texts] == ["0.90"]
    plt.close(fig)


def test_every_axis_is_labelled(grid):
    fig = plot_divisor_grid(*grid)
    axes = np.array(fig.axes).reshape(3, 2)
    assert [ax.get_ylabel() for ax in axes[:, 0]] == ["score", "softmax weight", "softmax weight"]
    assert all(ax.get_xlabel() == "position j in the row" for ax in axes[-1])
    assert all(ax.get_title() for ax in fig.axes)
    plt.close(fig)


@pytest.mark.parametrize("change, message", [
    (lambda w, s, g: ((4,), s, g), "scores must have one row per width"),
    (lambda w, s, g: ((4, 0), s, g), r"widths\[1\] must be at least 1"),
    (lambda w, s, g: (w, s[:, :2], g), r"weights\['none'\] must have the shape of scores"),
    (lambda w, s, g: (w, s, {"half": g["none"]}), "unknown divisor name"),
    (lambda w, s, g: (w, s, {"none": g["none"] * 2}), "must be share-outs"),
    (lambda w, s, g: (w, s * np.nan, g), "scores must be finite"),
    (lambda w, s, g: (w, s, {}), "weights must map at least one divisor"),
])
def test_bad_input_is_refused_with_a_clear_message(grid, change, message):
    with pytest.raises((ValueError, TypeError), match=message):
        plot_divisor_grid(*change(*grid))
