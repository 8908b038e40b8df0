"""The explorer's self-contained page (make explore-page) and the stand-in it is made of: nothing loaded from outside,
the rows of every seed it promises, the numbers of its still picture, and a clear refusal of a bad seed count.

Chromium opens the page from disk with the network off in tests/explorer/test_browser_page.py; here the HTML
itself is read.
"""
import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest

from attention_lesson.explorer.page import main, page_html
from attention_lesson.explorer.view import stand_in_html
from attention_lesson.vocabulary import TOP_WEIGHT
from tests.explorer.reference import expected_readouts, expected_row


class Parts(HTMLParser):
    """Every tag with its attributes, and the text of every <script> and <style> element."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.scripts, self.styles, self._in = [], [], [], None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = tag if tag in ("script", "style") else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts.append((self.tags[-1][1], data))
        elif self._in == "style":
            self.styles.append(data)


@pytest.fixture(scope="module")
def page():
    return page_html(seeds=5)


def embedded(html):
    parts = Parts(html)
    [data] = [json.loads(text) for attrs, text in parts.scripts if attrs.get("type") == "application/json"]
    return data


def test_the_page_loads_nothing_from_outside(page):
    parts = Parts(page)
    assert ("html", {"lang": "en"}) in parts.tags and any(tag == "title" for tag, _ in parts.tags)
    for tag, attrs in parts.tags:
        for name in ("src", "href", "srcset", "action", "data", "poster"):
            if name in attrs:
                assert attrs[name].startswith("data:"), f"<{tag} {name}={attrs[name][:60]!r}> loads from outside"
        assert tag not in ("link", "iframe", "object", "embed", "base"), f"<{tag}> on a self-contained page"
    assert all("src" not in attrs for attrs, _ in parts.scripts)
    code = "\n".join(text for _, text in parts.scripts) + "\n".join(parts.styles)
    assert not re.search(r"\bimport\s*[(\"'{*]|@import|url\(|fetch\(|XMLHttpRequest|WebSocket", code), \
        "the page's scripts and styles must load nothing"


def test_the_page_holds_the_rows_of_its_seeds_for_every_T(page):
    model = embedded(page)["model"]
    assert model["reseed"] == "embedded" and model["seed"] == 0
    assert sorted(model["rows"], key=int) == ["0", "1", "2", "3", "4"]
    for seed in range(5):
        for T in range(2, 17):
            np.testing.assert_array_equal(model["rows"][str(seed)][str(T)], expected_row(T, seed))


def test_the_still_picture_says_its_numbers_in_text_too():
    html = stand_in_html({"d_k": 512, "p": 0.0, "T": 6, "seed": 4}, seeds=2)
    alt = re.search(r'<img [^>]*alt="([^"]*)"', html).group(1)
    value = f"{expected_readouts(6, 4, 512, 0.0)[TOP_WEIGHT]:.4f}"
    assert "d_k = 512" in alt and "T = 6" in alt and "seed 4" in alt and value in alt
    assert re.search(rf'data-readout="{TOP_WEIGHT}"[^>]*>{value}<', html)
    assert sorted(embedded(html)["model"]["rows"]) == ["4", "5"]


def test_nothing_in_the_embedded_data_can_end_its_script_early():
    html = stand_in_html()
    data = html[html.index('class="explorer-data">'):]
    assert data.index("</script>") > data.index("}</"), "the first </script> after the data must be its own"
    assert "<" not in data[len('class="explorer-data">'):data.index("</script>")]


def test_make_explore_page_writes_the_page_and_refuses_a_bad_count(tmp_path, capsys):
    out = tmp_path / "explorer.html"
    assert main(["--out", str(out), "--seeds", "3"]) == 0
    assert sorted(embedded(out.read_text())["model"]["rows"]) == ["0", "1", "2"]
    assert "seeds 0 to 2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--out", str(out), "--seeds", "0"])
    assert "--seeds: seeds must be between 1 and 1000" in capsys.readouterr().err
