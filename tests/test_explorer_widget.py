"""The explorer's figure draws exactly the state it is given, and its widgets, driven from Python, update it.

Expectations are computed here with plain numpy; readouts are read back from the HTML the page shows.
"""
import base64
import io
import re

import matplotlib.text
import numpy as np
import pytest
from matplotlib.colors import to_hex
from PIL import Image

from attention_lesson.explorer import (STAND_IN_TEXT, UNDIVIDED_COLOUR, DivisorExplorer, ExplorerFigure, bar_heights,
                                      bar_outlines, encode_png, plot_explorer, readout_html)
from attention_lesson.explorer_model import WIDTHS, explorer_state
from attention_lesson.style import DIVISOR_COLOURS


def expected_weights(T, seed, d_k, p):
    z = np.random.default_rng(seed).standard_normal(T)
    x = np.sqrt(d_k) * (z - z.mean()) / z.std() / d_k ** p
    w = np.exp(x - x.max())
    return w / w.sum()


def expected_readouts(T, seed, d_k, p):
    a = expected_weights(T, seed, d_k, p)
    return {"top weight": a.max(), "share-out 1 − Σα²": 1 - np.sum(a ** 2), "max α(1−α)": np.max(a * (1 - a))}


def shown_readouts(explorer):
    """The readouts as the page shows them: the text of every cell marked data-readout in the HTML widget."""
    return dict(re.findall(r'data-readout="([^"]+)"[^>]*>([^<]*)<', explorer.readout.value))


def assert_readouts_shown(explorer, T, seed, d_k, p):
    shown = shown_readouts(explorer)
    for name, value in expected_readouts(T, seed, d_k, p).items():
        assert shown[name] == f"{value:.4f}", f"{name}: page shows {shown[name]}, numpy says {value:.4f}"


def pixels(png_bytes):
    return np.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGB")).astype(int)


@pytest.fixture(scope="module")
def explorer():
    return DivisorExplorer()


@pytest.fixture(autouse=True)
def back_to_the_start(request):
    yield
    if "explorer" in request.fixturenames:
        e = request.getfixturevalue("explorer")
        e.d_k.value, e.p.value, e.T.value, e.seed.value = 64, 0.5, 8, 0


# ---- the figure -------------------------------------------------------------------------------------------------
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


def test_the_bars_take_the_divisor_colour():
    picture = ExplorerFigure(explorer_state(p=1.0))
    for bars in (picture.divided_bars, picture.weight_bars):
        assert to_hex(bars.get_facecolor()[0]) == DIVISOR_COLOURS["d_k"].lower()
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
    a = expected_weights(8, 0, 64, 0.5)
    assert picture.winner_text.get_text() == f"{a.max():.2f}"
    assert picture.winner_text.get_position()[0] == np.argmax(a) + 1


def test_the_static_picture_writes_the_settings_and_readouts_as_text():
    picture = ExplorerFigure(explorer_state())
    text = picture.readout_text.get_text()
    for name, value in expected_readouts(8, 0, 64, 0.5).items():
        assert f"{name}: {value:.4f}" in text
    assert picture.heading_text.get_text().startswith("d_k = 64, divided by √d_k = 8 (p = 0.50), T = 8 positions")


def test_the_live_picture_leaves_the_text_to_the_page_and_keeps_the_panels():
    """Without captions the figure is shorter by their room only: the three panels keep their size in pixels."""
    live, static = ExplorerFigure(explorer_state(), captions=False), ExplorerFigure(explorer_state())
    assert live.heading_text is None and live.readout_text is None
    texts = [t.get_text() for t in live.figure.findobj(matplotlib.text.Text)]
    assert not any("top weight:" in t or "seed" in t for t in texts)
    assert pixels(live.png()).shape[0] < pixels(static.png()).shape[0]
    for a, b in zip(live.figure.axes, static.figure.axes):
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


@pytest.mark.parametrize("channels", [3, 4])
def test_encode_png_is_lossless(channels):
    rgba = np.random.default_rng(0).integers(0, 256, size=(7, 11, channels), dtype=np.uint8)
    np.testing.assert_array_equal(pixels(encode_png(rgba)), rgba[..., :3])


def test_encode_png_refuses_what_is_not_a_picture():
    with pytest.raises(ValueError, match="rgba must be a"):
        encode_png(np.zeros((4, 4)))


def test_redrawing_changes_the_picture_and_drawing_the_old_state_restores_it():
    picture = ExplorerFigure(explorer_state(d_k=64))
    before = picture.png()
    after = picture.draw(explorer_state(d_k=1024, p=0.0)).png()
    assert np.abs(pixels(before) - pixels(after)).max(axis=2).astype(bool).mean() > 0.005
    assert np.array_equal(pixels(picture.draw(explorer_state(d_k=64)).png()), pixels(before))


def test_plot_explorer_returns_the_figure_and_refuses_too_many_positions():
    fig = plot_explorer(explorer_state(T=3))
    assert len(fig.axes) == 3
    picture = ExplorerFigure(max_positions=4)
    with pytest.raises(ValueError, match="state.T must be at most 4"):
        picture.draw(explorer_state(T=5))


# ---- the widget, driven from Python -----------------------------------------------------------------------------
def test_it_opens_in_the_default_state(explorer):
    assert explorer.settings() == {"d_k": 64, "p": 0.5, "T": 8, "seed": 0}
    assert explorer.divisor.value == 0.5 and explorer.divisor.label == "√d_k"
    assert_readouts_shown(explorer, 8, 0, 64, 0.5)


def test_moving_d_k_updates_the_readouts_and_the_picture(explorer):
    before = explorer.image.value
    explorer.d_k.value = 512
    assert explorer.state.d_k == 512
    # at p = 1/2 the share-out does not depend on d_k; the scores panel and the heading do
    assert_readouts_shown(explorer, 8, 0, 512, 0.5)
    assert explorer.image.value != before
    explorer.divisor.value = 0.0
    assert explorer.p.value == 0.0
    assert_readouts_shown(explorer, 8, 0, 512, 0.0)
    assert float(shown_readouts(explorer)["top weight"]) > 0.99


def test_choosing_a_divisor_moves_p_and_another_p_unselects_the_divisor(explorer):
    explorer.divisor.value = 1.0
    assert explorer.p.value == 1.0 and explorer.state.p == 1.0
    assert_readouts_shown(explorer, 8, 0, 64, 1.0)
    explorer.p.value = 0.3
    assert explorer.divisor.value is None
    assert shown_readouts(explorer)["divisor"].startswith("d_k^0.30")
    assert_readouts_shown(explorer, 8, 0, 64, 0.3)
    explorer.p.value = 0.5
    assert explorer.divisor.value == 0.5


def test_the_button_draws_a_new_reproducible_row(explorer):
    explorer.new_row.click()
    assert explorer.seed.value == 1
    z = np.random.default_rng(1).standard_normal(8)
    np.testing.assert_allclose(explorer.state.scores, np.sqrt(64) * (z - z.mean()) / z.std())
    assert_readouts_shown(explorer, 8, 1, 64, 0.5)
    first = explorer.image.value
    explorer.seed.value = 0
    explorer.seed.value = 1
    assert explorer.image.value == first


def test_changing_T_changes_the_number_of_bars(explorer):
    explorer.T.value = 12
    assert len(bar_heights(explorer.picture.weight_bars)) == 12
    assert_readouts_shown(explorer, 12, 0, 64, 0.5)


def test_the_output_carries_a_static_picture_and_a_stable_sentence(explorer):
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == STAND_IN_TEXT
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    # the stand-in is the captioned picture of the state on screen: same panels, plus the settings and readouts
    stand_in = base64.b64decode(bundle["image/png"])
    assert stand_in == ExplorerFigure(explorer.state).png()
    assert pixels(stand_in).shape[2] == 3 and pixels(explorer.image.value).shape[2] == 3
    assert pixels(explorer.image.value).shape[0] < pixels(stand_in).shape[0], "the live picture has no captions"


def test_the_image_widget_knows_the_size_of_its_picture(explorer):
    """The page reserves the picture's aspect ratio from these attributes while a new picture is decoded."""
    height, width = pixels(explorer.image.value).shape[:2]
    assert (explorer.image.width, explorer.image.height) == (str(width), str(height))
    assert explorer.image.layout.max_width == f"{width}px"


def test_readout_html_marks_every_value():
    marked = re.findall(r'data-readout="([^"]+)"', readout_html(explorer_state()))
    assert marked == ["divisor", "top weight", "share-out 1 − Σα²", "max α(1−α)", "winner", "seed"]
