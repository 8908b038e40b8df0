"""The training figure of notebooks/06-watch-a-wide-layer-stall.ipynb draws exactly the curves it is given."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from attention_lesson.figure_training import ROW_TITLES, TRAINING_MEASURES, plot_training_curves
from attention_lesson.style import DIVISOR_COLOURS

STEPS = np.arange(21)
WIDTHS = (16, 64, 256)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def curves():
    """Made-up curves: for each run a (steps, 4) array, with a band of +-0.1 around it."""
    mean = {}
    for divisor in ("none", "sqrt(d_k)"):
        for index, d_k in enumerate(WIDTHS):
            fall = np.exp(-STEPS / (3.0 + index))[:, None]
            mean[divisor, d_k] = np.hstack([10 * fall, 1 - 0.9 * fall, 0.7 * fall, 3 * fall]) + 0.2 + 0.01 * index
    low = {key: values - 0.1 for key, values in mean.items()}
    high = {key: values + 0.1 for key, values in mean.items()}
    return mean, low, high


def line(ax, gid):
    found = [l for l in ax.get_lines() if l.get_gid() == gid]
    assert len(found) == 1, f"expected one line with gid {gid!r}, found {len(found)}"
    return found[0]


def band(ax, gid):
    found = [c for c in ax.collections if c.get_gid() == gid]
    assert len(found) == 1, f"expected one band with gid {gid!r}, found {len(found)}"
    return found[0]


def test_one_row_per_divisor_and_one_panel_per_measure():
    fig = plot_training_curves(STEPS, *curves())
    assert len(fig.axes) == 2 * len(TRAINING_MEASURES)
    top, bottom = fig.axes[:4], fig.axes[4:]
    assert [ax.get_title() for ax in top] == list(TRAINING_MEASURES)
    for row, (axes, divisor) in enumerate(((top, "none"), (bottom, "sqrt(d_k)"))):
        assert ROW_TITLES[divisor] in axes[0].get_ylabel(), "the first panel of a row names its divisor"
        for ax, name in zip(axes, TRAINING_MEASURES):
            assert name in ax.get_ylabel()
    for ax in bottom:
        assert "step" in ax.get_xlabel()
        assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "5", "10"]


def test_draws_every_curve_it_is_given_in_the_divisor_colour():
    mean, low, high = curves()
    fig = plot_training_curves(STEPS, mean, low, high)
    for row, divisor in enumerate(("none", "sqrt(d_k)")):
        for column in range(len(TRAINING_MEASURES)):
            ax = fig.axes[4 * row + column]
            for d_k in WIDTHS:
                drawn = line(ax, f"{divisor} {d_k}")
                np.testing.assert_array_equal(drawn.get_xdata(), STEPS)
                np.testing.assert_array_equal(drawn.get_ydata(), mean[divisor, d_k][:, column])
                assert drawn.get_color() == DIVISOR_COLOURS[divisor]


def test_bands_run_from_low_to_high():
    mean, low, high = curves()
    fig = plot_training_curves(STEPS, mean, low, high)
    ax = fig.axes[4 + 2]  # divided, share-out
    outline = band(ax, "sqrt(d_k) 64 band").get_paths()[0].vertices
    ys = outline[:, 1]
    assert np.isclose(ys.min(), low["sqrt(d_k)", 64][:, 2].min())
    assert np.isclose(ys.max(), high["sqrt(d_k)", 64][:, 2].max())


def test_no_bands_unless_asked_and_widths_told_apart_in_the_legend():
    mean, _, _ = curves()
    fig = plot_training_curves(STEPS, mean)
    assert all(not ax.collections for ax in fig.axes)
    for ax in (fig.axes[0], fig.axes[4]):
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"d_k = {d}" for d in WIDTHS]
    styles = {line(fig.axes[0], f"none {d}").get_linestyle() for d in WIDTHS}
    assert len(styles) == len(WIDTHS), "each width needs its own line style"


def test_columns_share_one_scale_from_zero():
    mean, low, high = curves()
    fig = plot_training_curves(STEPS, mean, low, high)
    for column in range(4):
        top, bottom = fig.axes[column], fig.axes[4 + column]
        assert top.get_ylim() == bottom.get_ylim()
        assert top.get_ylim()[0] == 0
        highest = max(values[:, column].max() for values in high.values())
        assert top.get_ylim()[1] >= highest


def test_one_divisor_alone_gives_one_row():
    mean, _, _ = curves()
    only = {key: values for key, values in mean.items() if key[0] == "sqrt(d_k)"}
    fig = plot_training_curves(STEPS, only)
    assert len(fig.axes) == 4
    assert ROW_TITLES["sqrt(d_k)"] in fig.axes[0].get_ylabel()


def test_rejects_curves_of_the_wrong_length_naming_the_run():
    mean, _, _ = curves()
    mean["none", 64] = mean["none", 64][:-1]
    with pytest.raises(ValueError, match=r"^mean\[\('none', 64\)\] must have one row per step"):
        plot_training_curves(STEPS, mean)


def test_rejects_an_unknown_divisor():
    mean, _, _ = curves()
    mean["d_k", 16] = mean.pop(("none", 16))
    with pytest.raises(ValueError, match="use \\(divisor, d_k\\) with divisor among"):
        plot_training_curves(STEPS, mean)


def test_rejects_a_bad_width():
    mean, _, _ = curves()
    mean["none", 0] = mean.pop(("none", 16))
    with pytest.raises(ValueError, match="must be at least 1"):
        plot_training_curves(STEPS, mean)


def test_rejects_a_band_given_by_half_or_upside_down():
    mean, low, high = curves()
    with pytest.raises(ValueError, match="low and high must be given together"):
        plot_training_curves(STEPS, mean, low=low)
    with pytest.raises(ValueError, match=r"low\[\('none', 16\)\] must not be above high"):
        plot_training_curves(STEPS, mean, high, low)
    del low["none", 16]
    with pytest.raises(ValueError, match="low must have the same keys as mean"):
        plot_training_curves(STEPS, mean, low, high)


def test_rejects_steps_that_do_not_increase():
    mean, _, _ = curves()
    with pytest.raises(ValueError, match="^steps must hold at least two step numbers"):
        plot_training_curves(STEPS[::-1], mean)


def test_rejects_negative_or_missing_values_by_name():
    mean, _, _ = curves()
    mean["sqrt(d_k)", 256] = -mean["sqrt(d_k)", 256]
    with pytest.raises(ValueError, match=r"must not be negative"):
        plot_training_curves(STEPS, mean)
    mean, _, _ = curves()
    mean["sqrt(d_k)", 256] = mean["sqrt(d_k)", 256].copy()
    mean["sqrt(d_k)", 256][3, 1] = np.nan
    with pytest.raises(ValueError, match=r"^mean\[\('sqrt\(d_k\)', 256\)\] must be finite"):
        plot_training_curves(STEPS, mean)


def test_rejects_a_mean_that_is_not_a_dict():
    with pytest.raises(TypeError, match="^mean must be a dict"):
        plot_training_curves(STEPS, [np.zeros((21, 4))])
