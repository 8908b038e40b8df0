"""The explorer's picture draws exactly the state it is given, and its words say exactly that state.

Expectations are computed with plain numpy in tests/explorer/reference.py; nothing here calls the model to know the
answer the figure should give, except to hand the figure a state to draw.
"""
import io
import re

import matplotlib.text
import numpy as np
import pytest
from matplotlib.colors import to_hex
from PIL import Image

from attention_lesson.explorer.captions import measure_label, readout_html
from attention_lesson.explorer.figure import (OTHER_EXPONENT_COLOUR, UNDIVIDED_COLOUR, ExplorerFigure, bar_heights,
                                              bar_outlines, png_bytes)
from attention_lesson.explorer.model import WIDTHS, explorer_state
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import LARGEST_SLOPE, MEASURE_FORMULAS, TOP_WEIGHT, TOTAL_SLOPE
from tests.explorer.reference import expected_readouts, expected_weights


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


# ---- the picture ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("d_k, p, T, seed", [(64, 0.5, 8, 0), (1024, 0.0, 5, 2), (4, 1.0, 16, 9)])
def test_the_bars_carry_the_state(d_k, p, T, seed):
    state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
    picture = ExplorerFigure(state)
    a = expected_weights(T, seed, d_k, p)
    np.testing.assert_allclose(bar_heights(picture.weight_bars), a, rtol=1e-12, atol=1e-300)
    heights = bar_heights(picture.score_bars)
    np.testing.assert_allclose(heights / np.sqrt(d_k), state.z)
    np.testing.assert_allclose(bar_heights(picture.divided_bars), heights / d_k ** p)
    assert picture.winner_text.get_text() == f"{a.max():.2f}"
    assert picture.even_line.get_ydata()[0] == pytest.approx(1 / T)


def test_bar_outlines_stand_on_zero_centred_on_each_position():
    corners = bar_outlines([2.0, -3.0], width=0.8)
    np.testing.assert_allclose(corners[0], [[0.6, 0], [0.6, 2], [1.4, 2], [1.4, 0]])
    np.testing.assert_allclose(corners[1], [[1.6, 0], [1.6, -3], [2.4, -3], [2.4, 0]])


@pytest.mark.parametrize("p, colour", [(0.0, DIVISOR_COLOURS["1"]), (0.5, DIVISOR_COLOURS["√d_k"]),
                                       (1.0, DIVISOR_COLOURS["d_k"]), (0.3, OTHER_EXPONENT_COLOUR)])
def test_the_bars_take_the_divisor_colour(p, colour):
    picture = ExplorerFigure(explorer_state(p=p))
    for bars in (picture.divided_bars, picture.weight_bars):
        assert to_hex(bars.get_facecolor()[0]) == colour.lower()
    assert to_hex(picture.score_bars.get_facecolor()[0]) == UNDIVIDED_COLOUR.lower()


def test_the_curve_is_drawn_with_the_current_width_ringed():
    picture = ExplorerFigure(explorer_state(d_k=256, p=0.3, T=8, seed=0))
    x, y = picture.curve_line.get_data()
    np.testing.assert_array_equal(x, WIDTHS)
    np.testing.assert_allclose(y, [expected_weights(8, 0, w, 0.3).max() for w in WIDTHS])
    mx, my = picture.curve_marker.get_data()
    assert list(mx) == [256] and my[0] == pytest.approx(expected_weights(8, 0, 256, 0.3).max())


@pytest.mark.parametrize("captions", [True, False])
def test_every_axis_is_labelled_and_the_winner_weight_is_on_its_bar(captions):
    picture = ExplorerFigure(explorer_state(), captions=captions)
    for ax in (picture.score_ax, picture.weight_ax, picture.curve_ax):
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert picture.weight_ax.get_title().startswith("attention weights")
    a = expected_weights(8, 0, 64, 0.5)
    assert picture.winner_text.get_text() == f"{a.max():.2f}"
    assert picture.winner_text.get_position()[0] == np.argmax(a) + 1


def test_the_still_picture_writes_the_settings_and_readouts_as_text():
    picture = ExplorerFigure(explorer_state())
    text = picture.readout_text.get_text()
    for name, value in expected_readouts(8, 0, 64, 0.5).items():
        assert f"{name} ({MEASURE_FORMULAS[name]}): {value:.4f}" in text
    assert picture.heading_text.get_text().startswith("d_k = 64, divided by √d_k = 8 (p = 0.50), T = 8 positions")


def test_the_live_picture_leaves_the_text_to_the_page_and_keeps_the_panels():
    """Without captions the figure is shorter by their room only: the three panels keep their size in pixels."""
    live, still = ExplorerFigure(explorer_state(), captions=False), ExplorerFigure(explorer_state())
    assert live.heading_text is None and live.readout_text is None
    texts = [t.get_text() for t in live.figure.findobj(matplotlib.text.Text)]
    assert not any(f"{TOP_WEIGHT} (" in t or "seed" in t for t in texts)
    assert pixels(live.png()).shape[0] < pixels(still.png()).shape[0]
    for a, b in zip(live.figure.axes, still.figure.axes):
        np.testing.assert_allclose(a.get_window_extent().size, b.get_window_extent().size, atol=1)


@pytest.mark.parametrize("captions", [True, False])
def test_the_fast_picture_is_the_full_drawing(captions):
    picture = ExplorerFigure(explorer_state(d_k=512, p=0.0, T=6, seed=4), captions=captions)
    fast = pixels(picture.png())
    buffer = io.BytesIO()
    picture.figure.savefig(buffer, format="png", dpi=picture.dpi)
    full = pixels(buffer.getvalue())
    assert fast.shape == full.shape
    # only antialiased edges may differ, where a bar meets a grid line drawn in the other order
    assert np.mean(np.abs(fast - full).max(axis=2) > 40) < 0.005


def test_png_bytes_is_a_lossless_rgb_png():
    rgba = np.random.default_rng(0).integers(0, 256, size=(7, 11, 4), dtype=np.uint8)
    png = png_bytes(rgba)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and Image.open(io.BytesIO(png)).mode == "RGB"
    np.testing.assert_array_equal(pixels(png), rgba[..., :3])


def test_redrawing_changes_the_picture_and_drawing_the_old_state_restores_it():
    picture = ExplorerFigure(explorer_state(d_k=64))
    before = picture.png()
    after = picture.draw(explorer_state(d_k=1024, p=0.0)).png()
    assert np.abs(pixels(before) - pixels(after)).max(axis=2).astype(bool).mean() > 0.005
    assert np.array_equal(pixels(picture.draw(explorer_state(d_k=64)).png()), pixels(before))


def test_the_figure_has_three_panels_and_refuses_too_many_positions():
    fig = ExplorerFigure(explorer_state(T=3)).figure
    assert len(fig.axes) == 3
    picture = ExplorerFigure(max_positions=4)
    with pytest.raises(ValueError, match="state.T must be at most 4"):
        picture.draw(explorer_state(T=5))


# ---- the words --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("d_k, p, said", [(64, 0.0, "1"), (64, 0.5, "√d_k = 8"), (64, 1.0, "d_k = 64"),
                                          (16, 0.25, "d_k^0.25 = 2")])
def test_the_divisor_readout_says_a_divisor_named_by_its_value_once(d_k, p, said):
    page = readout_html(explorer_state(d_k=d_k, p=p))
    shown = re.search(r'data-readout="divisor"[^>]*>([^<]*)<', page).group(1)
    assert shown == said


def test_readout_html_marks_every_value_and_labels_each_measure_with_its_formula():
    page = readout_html(explorer_state())
    marked = re.findall(r'data-readout="([^"]+)"', page)
    assert marked == ["divisor", TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE, "winner", "seed"]
    for name in (TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE):
        assert f"<th style=\"text-align:left;padding-right:1em\">{measure_label(name)}</th>" in page
    assert measure_label(TOTAL_SLOPE) == "total slope (1 − Σα²)"
