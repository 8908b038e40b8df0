"""The explorer's view in Chromium as the browser tests reach it: the readouts it shows (and what numpy alone says
they should be), the page of `make explore-page` written to disk, a page with the network off, and where
screenshots go (build/screenshots/, or $EXPLORER_SCREENSHOTS)."""
import contextlib
import os
from pathlib import Path

from attention_lesson.explorer.page import page_html
from coursekit.real_parts.browser import chromium
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import WAIT_MS
from tests.explorer.reference import expected_readouts

SHOTS = Path(os.environ.get("EXPLORER_SCREENSHOTS", ROOT / "build" / "screenshots"))
VIEW = ".divisor-explorer"


def expected(d_k, p, T=8, seed=0):
    """The three readouts as the page should write them, from numpy alone."""
    return {name: f"{value:.4f}" for name, value in expected_readouts(T, seed, d_k, p).items()}


def shown(page):
    """Every readout as the page shows it: {data-readout key: text}."""
    return page.eval_on_selector_all(f"{VIEW} td[data-readout]",
                                     "cells => Object.fromEntries(cells.map(c => [c.dataset.readout, c.textContent]))")


def shows(page, **texts):
    """Wait until the readouts named by `texts` (keys as in data-readout; spaces as underscores) say those texts; if
    they never do, fail saying what every view on the page shows instead, its status line included (screenshot:
    shows-never.png)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wanted = {key.replace("_", " "): text for key, text in texts.items()}
    try:
        page.wait_for_function("""([selector, wanted]) => Object.entries(wanted).every(([key, text]) => {
            const cell = document.querySelector(`${selector} td[data-readout="${key}"]`);
            return cell && cell.textContent === text;
        })""", arg=[VIEW, wanted], timeout=WAIT_MS)
    except PlaywrightTimeout:
        views = page.eval_on_selector_all(VIEW, """views => views.map(view => ({
            status: view.querySelector(".explorer-status")?.textContent,
            readouts: Object.fromEntries([...view.querySelectorAll("td[data-readout]")].map(
                cell => [cell.dataset.readout, cell.textContent]))}))""")
        page.screenshot(path=str(SHOTS / "shows-never.png"))
        raise AssertionError(f"in {WAIT_MS / 1000:g} s the view never showed {wanted}; the page's views show: "
                             f"{views}") from None


def assert_shows(page, d_k, p, T=8, seed=0, divisor=None):
    readouts = shown(page)
    assert {name: readouts[name] for name in expected(d_k, p, T, seed)} == expected(d_k, p, T, seed)
    assert readouts["seed"] == str(seed)
    if divisor is not None:
        assert readouts["divisor"] == divisor


def page_file(tmp_path, seeds):
    path = tmp_path / "divisor-explorer.html"
    path.write_text(page_html(seeds=seeds), encoding="utf-8")
    return path


@contextlib.contextmanager
def offline_page():
    """A Chromium page with the network off; every request it makes is recorded in `page.requests`."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as page:
        page.context.set_offline(True)
        page.requests = []
        page.context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                           else route.abort())
        page.on("request", lambda request: page.requests.append(request.url))
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        yield page
