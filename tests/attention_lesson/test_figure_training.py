"""The rate-sweep figure of notebooks/06-watch-a-wide-layer-stall.ipynb draws exactly the runs it is given."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from attention_lesson.figure_training import WIDTH_STYLES, plot_rate_sweep
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import DIVISOR_WORDS

RATES = {"1": [0.001, 0.01, 0.1], "√d_k": [0.1, 1.0, 10.0, 30.0], "d_k": [1.0, 10.0]}
WIDTHS = (16, 64, 256)


def runs():
    """Made-up final losses, one per rate, and which runs are chaotic (the last rate of every divisor)."""
    final, chaotic = {}, {}
    for divisor, rates in RATES.items():
        for index, d_k in enumerate(WIDTHS):
            final[divisor, d_k] = np.linspace(10.0, 0.01, len(rates)) * (index + 1)
            chaotic[divisor, d_k] = np.arange(len(rates)) == len(rates) - 1
    return final, chaotic


def artist(ax, gid, kind):
    found = [a for a in (ax.get_lines() if kind == "line" else ax.collections) if a.get_gid() == gid]
    assert len(found) == 1, f"expected one {kind} with gid {gid!r}, found {len(found)}"
    return found[0]


def test_one_panel_per_divisor_named_and_labelled():
    fig = plot_rate_sweep(RATES, *runs(), ylabel="loss after 200 steps")
    assert len(fig.axes) == 3
    assert [ax.get_title() for ax in fig.axes] == [DIVISOR_WORDS[d] for d in RATES]
    assert "loss after 200 steps" in fig.axes[0].get_ylabel()
    for ax in fig.axes:
        assert "learning rate" in ax.get_xlabel()
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert fig.axes[0].get_shared_y_axes().joined(fig.axes[0], fig.axes[2]), "panels share the loss axis"


def test_draws_every_run_it_is_given_in_the_divisor_colour():
    final, chaotic = runs()
    fig = plot_rate_sweep(RATES, final, chaotic)
    for ax, (divisor, rates) in zip(fig.axes, RATES.items()):
        for index, d_k in enumerate(WIDTHS):
            drawn = artist(ax, f"{divisor} {d_k}", "line")
            np.testing.assert_array_equal(drawn.get_xdata(), rates)
            np.testing.assert_array_equal(drawn.get_ydata(), final[divisor, d_k])
            assert drawn.get_color() == DIVISOR_COLOURS[divisor]
            assert drawn.get_linestyle() == plt.Line2D([], [], linestyle=WIDTH_STYLES[index]).get_linestyle()


def test_chaotic_runs_are_open_circles_and_calm_ones_filled():
    final, chaotic = runs()
    fig = plot_rate_sweep(RATES, final, chaotic)
    ax = fig.axes[1]  # divided by sqrt(d_k): rates 0.1, 1, 10 calm, 30 chaotic
    calm, wild = artist(ax, "√d_k 64 calm", "points"), artist(ax, "√d_k 64 chaotic", "points")
    np.testing.assert_array_equal(calm.get_offsets(), np.column_stack([RATES["√d_k"][:3], final["√d_k", 64][:3]]))
    np.testing.assert_array_equal(wild.get_offsets(), [[30.0, final["√d_k", 64][3]]])
    assert np.allclose(wild.get_facecolors()[0], (1, 1, 1, 1)), "a chaotic run is drawn hollow"
    assert not np.allclose(calm.get_facecolors()[0], (1, 1, 1, 1)), "a calm run is drawn filled"


def test_one_divisor_alone_gives_one_panel():
    final, chaotic = runs()
    only = {key: value for key, value in final.items() if key[0] == "d_k"}
    fig = plot_rate_sweep({"d_k": RATES["d_k"]}, only, {key: chaotic[key] for key in only})
    assert len(fig.axes) == 1
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [f"d_k = {d}" for d in WIDTHS]


def test_rejects_an_unknown_divisor_naming_the_known_ones():
    final, chaotic = runs()
    with pytest.raises(ValueError, match="rates has the divisor 'sqrt'; use divisors among"):
        plot_rate_sweep({**RATES, "sqrt": [1.0]}, final, chaotic)
    final["none", 16] = final.pop(("1", 16))
    with pytest.raises(ValueError, match=r"final has key \('none', 16\)"):
        plot_rate_sweep(RATES, final, chaotic)


def test_rejects_rates_that_are_not_increasing_or_not_positive():
    final, chaotic = runs()
    with pytest.raises(ValueError, match=r"rates\['d_k'\] must be positive and strictly increasing"):
        plot_rate_sweep({**RATES, "d_k": [10.0, 1.0]}, final, chaotic)
    with pytest.raises(ValueError, match=r"rates\['1'\] must be positive"):
        plot_rate_sweep({**RATES, "1": [0.0, 0.01, 0.1]}, final, chaotic)


def test_rejects_a_run_with_the_wrong_number_of_rates_naming_it():
    final, chaotic = runs()
    final["√d_k", 64] = final["√d_k", 64][:-1]
    with pytest.raises(ValueError, match=r"^final\[\('√d_k', 64\)\] must hold one value per rate of '√d_k' \(4\)"):
        plot_rate_sweep(RATES, final, chaotic)


def test_rejects_losses_a_log_axis_cannot_draw():
    final, chaotic = runs()
    final["d_k", 16] = np.array([1.0, 0.0])
    with pytest.raises(ValueError, match=r"final\[\('d_k', 16\)\] must be positive"):
        plot_rate_sweep(RATES, final, chaotic)
    final["d_k", 16] = np.array([1.0, np.nan])
    with pytest.raises(ValueError, match=r"final\[\('d_k', 16\)\] must be finite"):
        plot_rate_sweep(RATES, final, chaotic)


def test_rejects_chaotic_flags_for_other_runs_and_bad_containers():
    final, chaotic = runs()
    del chaotic["1", 256]
    with pytest.raises(ValueError, match="chaotic must have the same keys as final"):
        plot_rate_sweep(RATES, final, chaotic)
    with pytest.raises(TypeError, match="^rates must be a dict"):
        plot_rate_sweep([0.1, 1.0], final, chaotic)
    with pytest.raises(TypeError, match="^final must be a dict"):
        plot_rate_sweep(RATES, [1.0], chaotic)


def test_rejects_more_widths_than_line_styles():
    final, chaotic = runs()
    for d_k in range(1, len(WIDTH_STYLES) + 1):
        final["d_k", d_k], chaotic["d_k", d_k] = np.ones(2), np.zeros(2, dtype=bool)
    with pytest.raises(ValueError, match="the figure can tell at most"):
        plot_rate_sweep(RATES, final, chaotic)


def test_no_text_is_smaller_than_the_house_font(assert_house_font):
    assert_house_font(plot_rate_sweep(RATES, *runs()))
