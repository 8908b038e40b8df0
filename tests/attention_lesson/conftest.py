"""What every test of the lesson's package shares: no figure outlives its test."""
import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture
def assert_house_font():
    """A check that no text a figure draws (legends, ticks, labels, titles alike) is smaller than the house's font
    size (attention_lesson.style.RC): a notebook shows a wide figure scaled down to its column."""
    from matplotlib.text import Text

    from attention_lesson.style import RC

    def check(fig):
        fig.canvas.draw()  # lays out the ticks, so that their labels exist
        size, text = min((text.get_fontsize(), text.get_text()) for text in fig.findobj(Text)
                         if text.get_visible() and text.get_text().strip())
        assert size >= RC["font.size"], f"{text!r} is drawn at {size} pt, under the house's {RC['font.size']} pt"
    return check
