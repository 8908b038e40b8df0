"""The sweep figures draw exactly the numbers they are given, label their axes, and refuse bad input by name."""
import math

import numpy as np
import pytest

from attention_lesson.figure_sweep import plot_divisors, plot_typical_size
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import DIVISOR_MATH, TOP_WEIGHT

WIDTHS = [4, 16, 64, 256, 1024]
TYPICAL = [2.00, 3.97, 7.98, 15.90, 32.03]
SIZES = {"1": [2.0, 4.1, 7.9, 16.2, 31.8], "√d_k": [1.0, 1.02, 0.99, 1.01, 0.99],
         "d_k": [0.5, 0.26, 0.12, 0.063, 0.031]}
TOPS = {"1": [0.6, 0.8, 0.9, 0.95, 0.99], "√d_k": [0.37, 0.36, 0.36, 0.37, 0.36],
        "d_k": [0.3, 0.2, 0.15, 0.13, 0.126]}


def line(ax, gid):
    found = [l for l in ax.get_lines() if l.get_gid() == gid]
    assert len(found) == 1, f"expected one line with gid {gid!r}, found {len(found)}"
    return found[0]


def test_typical_size_draws_the_numbers_passed_in():
    fig = plot_typical_size(WIDTHS, TYPICAL)
    (ax,) = fig.axes
    measured = line(ax, "measured")
    np.testing.assert_array_equal(measured.get_xdata(), WIDTHS)
    np.testing.assert_array_equal(measured.get_ydata(), TYPICAL)


def test_typical_size_law_is_the_root_over_the_sweep():
    (ax,) = plot_typical_size(WIDTHS, TYPICAL).axes
    law = line(ax, "law")
    x, y = np.asarray(law.get_xdata()), np.asarray(law.get_ydata())
    np.testing.assert_allclose(y, np.sqrt(x))
    assert math.isclose(x.min(), 4) and math.isclose(x.max(), 1024)


def test_typical_size_axes_are_labelled_and_logarithmic():
    (ax,) = plot_typical_size(WIDTHS, TYPICAL).axes
    assert "d_k" in ax.get_xlabel()
    assert "size" in ax.get_ylabel()
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(w) for w in WIDTHS]
    assert ax.get_legend() is not None


def test_divisors_draw_the_numbers_passed_in_in_the_house_colours():
    fig = plot_divisors(WIDTHS, SIZES, TOPS, positions=8)
    left, right = fig.axes
    for ax, series in ((left, SIZES), (right, TOPS)):
        for key, values in series.items():
            drawn = line(ax, key)
            np.testing.assert_array_equal(drawn.get_xdata(), WIDTHS)
            np.testing.assert_array_equal(drawn.get_ydata(), values)
            assert drawn.get_color() == DIVISOR_COLOURS[key]
    even = line(right, "even weight")
    np.testing.assert_allclose(even.get_ydata(), [1 / 8, 1 / 8])


def test_divisors_axes_are_labelled_in_the_vocabulary():
    left, right = plot_divisors(WIDTHS, SIZES, TOPS, positions=8).axes
    for ax in (left, right):
        assert "d_k" in ax.get_xlabel()
        assert ax.get_ylabel()
        assert ax.get_legend() is not None
    assert "size" in left.get_ylabel() and TOP_WEIGHT in right.get_ylabel()
    labels = [t.get_text() for t in left.get_legend().get_texts()]
    assert labels == [DIVISOR_MATH[key] for key in SIZES]


def test_divisors_accept_a_subset_of_divisors():
    fig = plot_divisors(WIDTHS, {"√d_k": SIZES["√d_k"]}, {"d_k": TOPS["d_k"]}, positions=8)
    left, right = fig.axes
    assert [l.get_gid() for l in left.get_lines()] == ["√d_k"]


@pytest.mark.parametrize("widths, typical, name", [
    ([4, 16, 64], [2.0, 4.0], "typical"),                    # one value short
    ([4, 16, 64], [2.0, float("nan"), 8.0], "typical"),      # not finite
    ([4, 16, 64], [2.0, 0.0, 8.0], "typical"),               # cannot sit on a log axis
    ([4, 16, 64], [[2.0, 4.0, 8.0]], "typical"),             # wrong shape
    ([4, 0, 64], [2.0, 4.0, 8.0], "widths[1]"),              # a width of zero
    ([4, -16, 64], [2.0, 4.0, 8.0], "widths[1]"),            # a negative width
    ([4, 16.5, 64], [2.0, 4.0, 8.0], "widths[1]"),           # not a whole number
    ([4, float("inf"), 64], [2.0, 4.0, 8.0], "widths"),      # not finite
    ([[4, 16, 64]], [2.0, 4.0, 8.0], "widths"),              # wrong shape
    ("wide", [2.0], "widths"),                               # not numbers
])
def test_typical_size_refuses_bad_input_by_name(widths, typical, name):
    with pytest.raises((ValueError, TypeError), match=name.replace("[", r"\[").replace("]", r"\]")):
        plot_typical_size(widths, typical)


@pytest.mark.parametrize("sizes, tops, positions, name", [
    ({"1": [1.0, 2.0]}, TOPS, 8, "sizes['1']"),                       # too short
    ({"sqrt(d_k)": SIZES["1"]}, TOPS, 8, "sizes"),                       # an old spelling of a divisor
    ([1.0] * 5, TOPS, 8, "sizes"),                                          # not a mapping
    ({}, TOPS, 8, "sizes"),                                                 # empty
    (SIZES, {"1": [0.5, 0.6, 1.2, 0.9, 0.9]}, 8, "top_weights['1']"),      # a weight above 1
    (SIZES, {"1": [0.5, -0.6, 0.2, 0.9, 0.9]}, 8, "top_weights['1']"),     # a weight below 0
    ({"d_k": [0.5, 0.2, 0.0, 0.1, 0.1]}, TOPS, 8, "sizes['d_k']"),         # cannot sit on a log axis
    (SIZES, {"d_k": [0.5, 0.6, float("nan"), 0.9, 0.9]}, 8, "top_weights['d_k']"),
    (SIZES, TOPS, 0, "positions"),                                          # no positions in a row
    (SIZES, TOPS, 2.5, "positions"),
])
def test_divisors_refuse_bad_input_by_name(sizes, tops, positions, name):
    pattern = name.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)")
    with pytest.raises((ValueError, TypeError), match=pattern):
        plot_divisors(WIDTHS, sizes, tops, positions)


def test_no_text_of_either_figure_is_smaller_than_the_house_font(assert_house_font):
    for fig in (plot_typical_size(WIDTHS, TYPICAL), plot_divisors(WIDTHS, SIZES, TOPS, 8)):
        assert_house_font(fig)
