"""The explorer's widgets, driven from Python, show the state their controls ask for.

Each test gets a new explorer of its own (the `explorer` fixture is function-scoped). Expectations come from plain
numpy (tests/explorer/reference.py); readouts are read back from the HTML the page shows.
"""
import base64
import io
import re

import numpy as np
import pytest
from PIL import Image

from attention_lesson.explorer import DivisorExplorer
from attention_lesson.explorer.figure import ExplorerFigure, bar_heights
from attention_lesson.explorer.widget import STAND_IN_TEXT
from attention_lesson.vocabulary import TOP_WEIGHT
from tests.explorer.reference import expected_readouts, expected_row


def shown_readouts(explorer):
    """The readouts as the page shows them: the text of every cell marked data-readout in the HTML widget."""
    return dict(re.findall(r'data-readout="([^"]+)"[^>]*>([^<]*)<', explorer.readout.value))


def assert_readouts_shown(explorer, T, seed, d_k, p):
    shown = shown_readouts(explorer)
    for name, value in expected_readouts(T, seed, d_k, p).items():
        assert shown[name] == f"{value:.4f}", f"{name}: page shows {shown[name]}, numpy says {value:.4f}"


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


@pytest.fixture
def explorer():
    """A new explorer in its opening state, for one test."""
    return DivisorExplorer()


def test_it_opens_in_the_default_state(explorer):
    assert explorer.settings() == {"d_k": 64, "p": 0.5, "T": 8, "seed": 0}
    assert explorer.divisor.value == 0.5 and explorer.divisor.label == "√d_k"
    assert_readouts_shown(explorer, 8, 0, 64, 0.5)


def test_it_opens_in_the_settings_it_is_given():
    explorer = DivisorExplorer(d_k=256, p=1.0, T=5, seed=3)
    assert explorer.settings() == {"d_k": 256, "p": 1.0, "T": 5, "seed": 3} and explorer.divisor.label == "d_k"
    assert_readouts_shown(explorer, 5, 3, 256, 1.0)


def test_moving_d_k_updates_the_readouts_and_the_picture(explorer):
    before = explorer.image.value
    explorer.d_k.value = 512
    assert explorer.state.d_k == 512
    # at p = 1/2 the attention weights do not depend on d_k; the scores panel does
    assert_readouts_shown(explorer, 8, 0, 512, 0.5)
    assert explorer.image.value != before
    explorer.divisor.value = 0.0
    assert explorer.p.value == 0.0
    assert_readouts_shown(explorer, 8, 0, 512, 0.0)
    assert float(shown_readouts(explorer)[TOP_WEIGHT]) > 0.99


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
    np.testing.assert_allclose(explorer.state.scores, np.sqrt(64) * expected_row(8, 1))
    assert_readouts_shown(explorer, 8, 1, 64, 0.5)
    first = explorer.image.value
    explorer.seed.value = 0
    explorer.seed.value = 1
    assert explorer.image.value == first


def test_changing_T_changes_the_number_of_bars(explorer):
    explorer.T.value = 12
    assert len(bar_heights(explorer.picture.weight_bars)) == 12
    assert_readouts_shown(explorer, 12, 0, 64, 0.5)


def test_the_output_carries_a_still_picture_and_a_stable_sentence(explorer):
    explorer.d_k.value = 128
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == STAND_IN_TEXT
    assert "model_id" in bundle["application/vnd.jupyter.widget-view+json"]
    # the stand-in is the captioned picture of the state on screen: same panels, plus the settings and readouts
    stand_in = base64.b64decode(bundle["image/png"])
    assert stand_in == ExplorerFigure(explorer.state).png() and explorer.state.d_k == 128
    assert pixels(stand_in).shape[2] == 3 and pixels(explorer.image.value).shape[2] == 3
    assert pixels(explorer.image.value).shape[0] < pixels(stand_in).shape[0], "the live picture has no captions"


def test_the_image_widget_knows_the_size_of_its_picture(explorer):
    """The page reserves the picture's aspect ratio from these attributes while a new picture is decoded."""
    height, width = pixels(explorer.image.value).shape[:2]
    assert (explorer.image.width, explorer.image.height) == (str(width), str(height))
    assert explorer.image.layout.max_width == f"{width}px"
