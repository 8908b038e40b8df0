"""The figures of notebooks/03-a-saturated-row-stops-the-gradient.ipynb draw exactly what they are given."""
import numpy as np
import pytest

from attention_lesson.figure_saturation import ROW_MEASURES, plot_saturation_by_width, plot_slope_and_sigmoid_slope
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import DIVISOR_WORDS, LARGEST_SLOPE, MEASURE_FORMULAS, TOP_WEIGHT, TOTAL_SLOPE


def curves():
    alpha = np.linspace(0, 1, 11)
    x = np.linspace(-6, 6, 13)
    sigma = 1 / (1 + np.exp(-x))
    return alpha, alpha * (1 - alpha), x, sigma * (1 - sigma)


def table():
    widths = [8, 64, 512]
    undivided = np.array([[0.670, 0.445, 0.1755], [0.880, 0.171, 0.0798], [0.953, 0.066, 0.0321]])
    divided = np.array([[0.369, 0.758, 0.2143], [0.362, 0.767, 0.2171], [0.360, 0.768, 0.2162]])
    return widths, {"1": undivided, "√d_k": divided}


def data_lines(ax):
    """The lines that carry data (reference lines drawn with axhline span the axes in x from 0 to 1)."""
    return [line for line in ax.get_lines() if line.get_linestyle() != ":"]


# --- the slope figure -------------------------------------------------------------------------------

def test_slope_figure_draws_the_curves_it_is_given():
    alpha, slope, x, sigmoid_slope = curves()
    fig = plot_slope_and_sigmoid_slope(alpha, slope, x, sigmoid_slope)
    left, right = fig.axes
    (left_line,) = data_lines(left)
    (right_line,) = data_lines(right)
    np.testing.assert_array_equal(left_line.get_xdata(), alpha)
    np.testing.assert_array_equal(left_line.get_ydata(), slope)
    np.testing.assert_array_equal(right_line.get_xdata(), x)
    np.testing.assert_array_equal(right_line.get_ydata(), sigmoid_slope)


def test_slope_figure_labels_its_axes_and_marks_the_maximum():
    fig = plot_slope_and_sigmoid_slope(*curves())
    left, right = fig.axes
    assert "alpha" in left.get_xlabel() and left.get_ylabel() == "slope"
    assert "gap" in right.get_xlabel()
    for ax in (left, right):
        assert ax.get_title()
        dotted = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
        assert [tuple(line.get_ydata()) for line in dotted] == [(0.25, 0.25)]


def test_slope_figure_uses_two_different_colours():
    fig = plot_slope_and_sigmoid_slope(*curves())
    colours = {data_lines(ax)[0].get_color() for ax in fig.axes}
    assert len(colours) == 2


@pytest.mark.parametrize("argument, position", [("alpha_slope", 1), ("sigmoid_slope", 3)])
def test_slope_figure_rejects_curves_of_different_lengths(argument, position):
    args = list(curves())
    args[position] = args[position][:-1]
    with pytest.raises(ValueError, match=argument):
        plot_slope_and_sigmoid_slope(*args)


def test_slope_figure_rejects_weights_outside_zero_to_one():
    alpha, slope, x, sigmoid_slope = curves()
    with pytest.raises(ValueError, match="alpha must lie between 0.0 and 1.0"):
        plot_slope_and_sigmoid_slope(alpha + 0.5, slope, x, sigmoid_slope)


def test_slope_figure_rejects_a_nan_naming_the_argument():
    alpha, slope, x, sigmoid_slope = curves()
    x = x.copy()
    x[3] = np.nan
    with pytest.raises(ValueError, match="^x must be finite"):
        plot_slope_and_sigmoid_slope(alpha, slope, x, sigmoid_slope)


# --- the saturation-by-width figure -----------------------------------------------------------------

def test_saturation_figure_has_one_labelled_panel_per_measure():
    fig = plot_saturation_by_width(*table())
    assert [ax.get_ylabel() for ax in fig.axes] == [TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE]
    assert [ax.get_title() for ax in fig.axes] == [MEASURE_FORMULAS[name] for name in ROW_MEASURES]
    for ax in fig.axes:
        assert "d_k" in ax.get_xlabel()
        assert [t.get_text() for t in ax.get_xticklabels()] == ["8", "64", "512"]


def test_saturation_figure_draws_the_table_it_is_given_in_the_divisor_colours():
    widths, measured = table()
    fig = plot_saturation_by_width(widths, measured)
    for column, ax in enumerate(fig.axes):
        for key, values in measured.items():
            (drawn,) = [line for line in ax.get_lines() if line.get_gid() == key]
            np.testing.assert_array_equal(drawn.get_xdata(), widths)
            np.testing.assert_array_equal(drawn.get_ydata(), values[:, column])
            assert drawn.get_color() == DIVISOR_COLOURS[key]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [DIVISOR_WORDS["1"], DIVISOR_WORDS["√d_k"]]


def test_saturation_figure_draws_a_reference_only_where_asked():
    references = {TOP_WEIGHT: (0.125, "floor 1/T"), TOTAL_SLOPE: (0.875, "ceiling 1 - 1/8")}
    fig = plot_saturation_by_width(*table(), references=references)
    dotted = {ax.get_ylabel(): [tuple(l.get_ydata()) for l in ax.get_lines() if l.get_linestyle() == ":"]
              for ax in fig.axes}
    assert dotted == {TOP_WEIGHT: [(0.125, 0.125)], TOTAL_SLOPE: [(0.875, 0.875)], LARGEST_SLOPE: []}
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["floor 1/T"]
    assert [t.get_text() for t in fig.axes[1].get_legend().get_texts()] == ["ceiling 1 - 1/8"]


def test_saturation_figure_rejects_a_table_of_the_wrong_shape():
    widths, measured = table()
    measured["√d_k"] = measured["√d_k"][:2]
    with pytest.raises(ValueError, match=r"^measured\['√d_k'\] must have one row per width"):
        plot_saturation_by_width(widths, measured)


@pytest.mark.parametrize("measured, message", [
    ({"sqrt(d_k)": np.zeros((3, 3))}, "measured has unknown divisor"),
    ({}, "measured must be a dict from divisor"),
    ({"1": np.full((3, 3), np.nan)}, r"measured\['1'\] must be finite"),
])
def test_saturation_figure_rejects_a_bad_mapping_of_divisors(measured, message):
    with pytest.raises((TypeError, ValueError), match=message):
        plot_saturation_by_width([8, 64, 512], measured)


def test_saturation_figure_rejects_a_bad_width():
    _, measured = table()
    with pytest.raises(ValueError, match=r"widths\[1\] must be at least 1"):
        plot_saturation_by_width([8, 0, 512], measured)
    with pytest.raises(ValueError, match="widths must hold at least one value"):
        plot_saturation_by_width([], measured)


def test_saturation_figure_rejects_a_reference_to_a_measure_it_does_not_plot():
    with pytest.raises(ValueError, match="references names measures that are not plotted"):
        plot_saturation_by_width(*table(), references={"entropy": (1.0, "x")})


def test_no_text_of_either_figure_is_smaller_than_the_house_font(assert_house_font):
    references = {TOP_WEIGHT: (0.125, "floor 1/T"), TOTAL_SLOPE: (0.875, "ceiling 1 - 1/8")}
    for fig in (plot_slope_and_sigmoid_slope(*curves()), plot_saturation_by_width(*table(), references=references)):
        assert_house_font(fig)
