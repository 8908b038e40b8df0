"""The explorer's figure draws exactly the state it is given, and its widgets, driven from Python, update it.

Expectations are computed here with plain numpy; readouts are read back from the HTML the page shows.
"""
import base64
import io
import re

import numpy as np
import pytest
from PIL import Image

from attention_lesson.explorer import (STAND_IN_TEXT, DivisorExplorer, ExplorerFigure, encode_png, plot_explorer,
                                      readout_html)
from attention_lesson.explorer_model import WIDTHS, explorer_state


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
    visible = [bar for bar in picture.weight_bars if bar.get_visible()]
    np.testing.assert_allclose([bar.get_height() for bar in visible], a, rtol=1e-12, atol=1e-300)
    heights = [bar.get_height() for bar in picture.score_bars if bar.get_visible()]
    np.testing.assert_allclose(np.array(heights) / np.sqrt(d_k), state.z)
    divided = [bar.get_height() for bar in picture.divided_bars if bar.get_visible()]
    np.testing.assert_allclose(divided, np.array(heights) / d_k ** p)
    assert picture.winner_text.get_text() == f"{a.max():.2f}"
    assert picture.even_line.get_ydata()[0] == pytest.approx(1 / T)


def test_the_curve_is_drawn_with_the_current_width_ringed():
    picture = ExplorerFigure(explorer_state(d_k=256, p=0.3, T=8, seed=0))
    x, y = picture.curve_line.get_data()
    np.testing.assert_array_equal(x, WIDTHS)
    np.testing.assert_allclose(y, [expected_weights(8, 0, w, 0.3).max() for w in WIDTHS])
    mx, my = picture.curve_marker.get_data()
    assert list(mx) == [256] and my[0] == pytest.approx(expected_weights(8, 0, 256, 0.3).max())


def test_every_axis_is_labelled_and_the_readouts_are_written_as_text():
    picture = ExplorerFigure(explorer_state())
    for ax in (picture.score_ax, picture.weight_ax, picture.curve_ax):
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    text = picture.readout_text.get_text()
    for name, value in expected_readouts(8, 0, 64, 0.5).items():
        assert f"{name}: {value:.4f}" in text


def test_the_fast_picture_is_the_full_drawing():
    picture = ExplorerFigure(explorer_state(d_k=512, p=0.0, T=6, seed=4))
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
    assert sum(bar.get_visible() for bar in explorer.picture.weight_bars) == 12
    assert_readouts_shown(explorer, 12, 0, 64, 0.5)


def test_the_output_carries_a_static_picture_and_a_stable_sentence(explorer):
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == STAND_IN_TEXT
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    assert base64.b64decode(bundle["image/png"]) == explorer.image.value
    assert pixels(explorer.image.value).shape[2] == 3


def test_readout_html_marks_every_value():
    marked = re.findall(r'data-readout="([^"]+)"', readout_html(explorer_state()))
    assert marked == ["divisor", "top weight", "share-out 1 − Σα²", "max α(1−α)", "winner", "seed"]
