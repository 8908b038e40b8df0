"""The explorer's widget, driven from Python: what it hands the view in the browser, and what it leaves in a notebook.

The view (attention_lesson/explorer/browser/view.js) computes every number itself from the rows the widget sends;
tests/explorer/test_browser_explorer.py checks those numbers in Chromium. Here: the rows are the lesson's rows (numpy,
from tests/explorer/reference.py), a new seed sends its rows, bad settings are refused with a clear message, the
words and colours come from the vocabulary and the palette, and the stored output carries the stand-in. Each test
gets a new explorer.
"""
import base64
import io
import re

import numpy as np
import pytest
import traitlets
from PIL import Image

from attention_lesson.explorer import DivisorExplorer
from attention_lesson.explorer.captions import measure_label
from attention_lesson.explorer.figure import ExplorerFigure
from attention_lesson.explorer.widget import STAND_IN_TEXT
from attention_lesson.style import DIVISOR_COLOURS
from attention_lesson.vocabulary import DIVISOR_EXPONENTS, LARGEST_SLOPE, TOP_WEIGHT, TOTAL_SLOPE
from tests.explorer.reference import expected_readouts, expected_row

ALL_T = range(2, 17)


def pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


@pytest.fixture
def explorer():
    """A new explorer in its opening state, for one test."""
    return DivisorExplorer()


def assert_rows_are_the_lessons(rows, seed):
    assert list(rows) == [str(seed)]
    assert sorted(rows[str(seed)], key=int) == [str(T) for T in ALL_T]
    for T in ALL_T:
        z = rows[str(seed)][str(T)]
        assert isinstance(z, list) and all(type(v) is float for v in z), "the view is sent plain JSON numbers"
        np.testing.assert_array_equal(z, expected_row(T, seed))


def test_it_opens_in_the_default_state_with_the_rows_of_seed_0(explorer):
    assert explorer.settings() == {"d_k": 64, "p": 0.5, "T": 8, "seed": 0}
    assert explorer.reseed == "kernel"
    assert_rows_are_the_lessons(explorer.rows, 0)
    for name, value in expected_readouts(8, 0, 64, 0.5).items():
        assert explorer.state.readouts[name] == pytest.approx(value, rel=1e-12)


def test_it_opens_in_the_settings_it_is_given():
    explorer = DivisorExplorer(d_k=256, p=1.0, T=5, seed=3)
    assert explorer.settings() == {"d_k": 256, "p": 1.0, "T": 5, "seed": 3}
    assert_rows_are_the_lessons(explorer.rows, 3)


def test_a_new_seed_sends_its_rows_and_nothing_else_asks_the_kernel(explorer):
    sent = []
    explorer.observe(lambda change: sent.append(change["new"]), names="rows")
    explorer.d_k, explorer.p, explorer.T = 1024, 0.3, 12  # what the view does alone
    assert sent == []
    explorer.seed = 7
    assert len(sent) == 1
    assert_rows_are_the_lessons(explorer.rows, 7)
    assert explorer.state.readouts[TOP_WEIGHT] == pytest.approx(expected_readouts(12, 7, 1024, 0.3)[TOP_WEIGHT])


def test_the_views_ask_for_a_seed_takes_it_and_sends_its_rows_again(explorer, monkeypatch):
    sent = []
    monkeypatch.setattr(explorer, "send_state", lambda key=None: sent.append(key))
    explorer._handle_custom_msg({"seed": 3}, [])  # the view asking for seed 3
    assert explorer.seed == 3 and sent[-1] == ["seed", "rows"]  # after the changes' own sends
    assert_rows_are_the_lessons(explorer.rows, 3)
    before = len(sent)
    explorer._handle_custom_msg({"seed": 3}, [])  # asked again: the answer went missing
    assert explorer.seed == 3 and sent[before:] == [["seed", "rows"]]


@pytest.mark.parametrize("content", [{"seed": -1}, {"seed": 2 ** 31}, {"seed": "1"}, {"d_k": 128}, ["seed", 1]])
def test_an_ask_the_view_never_sends_changes_nothing(explorer, monkeypatch, content):
    sent = []
    monkeypatch.setattr(explorer, "send_state", lambda key=None: sent.append(key))
    before = explorer.settings()
    explorer._handle_custom_msg(content, [])
    assert explorer.settings() == before and sent == []


@pytest.mark.parametrize("name, value, message", [
    ("d_k", 100, "d_k must be one of the widths the slider offers"),
    ("p", 1.5, "p must be between 0 and 1"),
    ("T", 1, "T must be at least 2"),
    ("T", 17, "T must be at most 16"),
    ("seed", -1, "seed must be a whole number, 0 or more"),
    ("seed", 2 ** 31, "seed must be at most 2147483647"),
])
def test_a_setting_out_of_range_is_refused_and_the_old_one_kept(explorer, name, value, message):
    before = explorer.settings()
    with pytest.raises(traitlets.TraitError, match=message):
        setattr(explorer, name, value)
    assert explorer.settings() == before


def test_the_view_takes_its_words_and_colours_from_the_vocabulary_and_the_palette(explorer):
    look = explorer.look
    assert [label for _, label in look["readouts"]] == ["divisor", measure_label(TOP_WEIGHT),
                                                        measure_label(TOTAL_SLOPE), measure_label(LARGEST_SLOPE),
                                                        "winner", "seed"]
    assert [key for key, in look["measures"]] == [TOP_WEIGHT, TOTAL_SLOPE, LARGEST_SLOPE]
    assert dict(look["divisors"]) == DIVISOR_EXPONENTS
    assert look["colours"]["divisors"] == DIVISOR_COLOURS
    assert look["panels"][2]["ylabel"] == TOP_WEIGHT and TOP_WEIGHT in look["panels"][2]["title"]


def test_the_view_draws_on_the_still_pictures_panels_and_scales(explorer):
    """The panels' boxes and ticks are read off the matplotlib figure: a view of the same size lays them out alike."""
    figure = ExplorerFigure(captions=False)
    width, height = figure.figure.canvas.get_width_height()
    assert explorer.look["size"] == [width, height]
    for panel, ax in zip(explorer.look["panels"], (figure.score_ax, figure.weight_ax, figure.curve_ax)):
        extent = ax.get_window_extent()
        np.testing.assert_allclose(panel["box"], [extent.x0, height - extent.y1, extent.x1, height - extent.y0])
        assert panel["ylim"] == list(ax.get_ylim())
    scores = explorer.look["panels"][0]
    assert scores["yscale"]["kind"] == "symlog"
    assert [label for _, label in scores["yticks"]] == ["−100", "−10", "−1", "0", "1", "10", "100"]


def test_the_output_carries_a_stand_in_and_a_stable_sentence(explorer):
    explorer.d_k, explorer.seed = 128, 2
    data, _ = explorer._repr_mimebundle_()
    assert data["text/plain"] == STAND_IN_TEXT
    assert "model_id" in data["application/vnd.jupyter.widget-view+json"]
    # for readers of images only: the captioned still picture of the state on screen
    assert base64.b64decode(data["image/png"]) == ExplorerFigure(explorer.state).png()
    html = data["text/html"]
    readouts = dict(re.findall(r'data-readout="([^"]+)"[^>]*>([^<]*)<', html))
    assert readouts[TOP_WEIGHT] == f"{expected_readouts(8, 2, 128, 0.5)[TOP_WEIGHT]:.4f}" and readouts["seed"] == "2"
    assert 'type="module"' in html and "bootStandIns();" in html
    # the same on every run, so that nbval can compare it
    again = DivisorExplorer(d_k=128, seed=2)._repr_mimebundle_()[0]["text/html"]
    assert again == html
