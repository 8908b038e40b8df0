"""The explorer works in a real browser, as a student uses it: in JupyterLab and as the Voilà app.

Each test serves a copy of notebooks/04-explore-the-divisor.ipynb, opens it in Debian's Chromium through
Playwright, moves the d_k slider with the keyboard, switches the divisor with a click, and checks that
the picture really changed and that the readouts on the page are the numbers numpy gives (tests/explorer/reference.py).
As a Voilà app it also follows the notebook's links. It saves a screenshot before and after (into
build/screenshots/, or $EXPLORER_SCREENSHOTS) and stops every process it started.
"""
import base64
import io
import os
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from coursekit.browser import EXPLORER, ROOT, Server, chromium, focus, run_all_cells
from coursekit.parts import requires
from tests.explorer.reference import expected_readouts

pytestmark = requires("browser")

SHOTS = Path(os.environ.get("EXPLORER_SCREENSHOTS", ROOT / "build" / "screenshots"))
WAIT_MS = 60_000


def expected(d_k, p, T=8, seed=0):
    """The three readouts as the page should write them, from numpy alone."""
    return {name: f"{value:.4f}" for name, value in expected_readouts(T, seed, d_k, p).items()}


def shown(page):
    """The divisor and the readouts as the page shows them."""
    names = ("divisor", *expected(64, 0.5))
    return {name: page.locator(f'td[data-readout="{name}"]').inner_text() for name in names}


def picture(page):
    """The pixels of the explorer's picture as the page holds it (the PNG behind the <img>)."""
    encoded = page.evaluate("""async () => {
        const reply = await fetch(document.querySelector('.divisor-explorer img.explorer-image').src);
        const bytes = new Uint8Array(await reply.arrayBuffer());
        let text = '';
        for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(text);
    }""")
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(encoded))).convert("RGB")).astype(int)


def wait_for_a_new_state(page, old_src, old_divisor):
    """Wait until both the picture and the divisor readout have changed on the page."""
    page.wait_for_function(
        """([src, divisor]) => {
            const img = document.querySelector('.divisor-explorer img.explorer-image');
            const cell = document.querySelector('td[data-readout="divisor"]');
            return img && cell && img.src !== src && cell.innerText !== divisor;
        }""", arg=[old_src, old_divisor], timeout=WAIT_MS)


def src(page):
    return page.locator(".divisor-explorer img.explorer-image").get_attribute("src")


def drive_the_explorer(page, prefix):
    """Arrow key on d_k (64 -> 128), then the divisor d_k; check readouts and picture at each step."""
    explorer = page.locator(".divisor-explorer")
    page.wait_for_selector('.divisor-explorer td[data-readout="top weight"]', timeout=WAIT_MS)
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=str(SHOTS / f"{prefix}-before.png"))
    assert shown(page) == {"divisor": "√d_k = 8", **expected(64, 0.5)}
    before = picture(page)

    focus(page, ".divisor-explorer .explorer-d-k .noUi-handle")
    old_src, old_divisor = src(page), shown(page)["divisor"]
    page.keyboard.press("ArrowRight")
    wait_for_a_new_state(page, old_src, old_divisor)
    assert shown(page) == {"divisor": "√d_k = 11.31", **expected(128, 0.5)}
    assert page.locator(".explorer-d-k .widget-readout").inner_text().strip() == "128"

    old_src, old_divisor = src(page), shown(page)["divisor"]
    explorer.get_by_role("button", name="d_k", exact=True).click()
    wait_for_a_new_state(page, old_src, old_divisor)
    assert shown(page) == {"divisor": "d_k = 128", **expected(128, 1.0)}
    assert page.locator(".explorer-p .widget-readout").inner_text().strip() == "1.00"
    explorer.screenshot(path=str(SHOTS / f"{prefix}-after.png"))
    after = picture(page)

    assert before.shape == after.shape
    changed = np.abs(before - after).max(axis=2) > 40
    assert changed.mean() > 0.01, f"the picture hardly changed: {changed.mean():.2%} of its pixels"
    return before, after


def assert_stopped(server):
    with pytest.raises(ProcessLookupError):
        os.killpg(server.proc.pid, 0)


@pytest.fixture
def page():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as page:
        yield page


def test_the_explorer_in_jupyterlab(page):
    with Server("lab") as server:
        page.goto(server.url(), wait_until="commit", timeout=60_000)
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=WAIT_MS)
        # before anything runs, the stored output shows the static picture, not a broken widget
        stand_in = page.locator(".jp-OutputArea-output img").first
        stand_in.wait_for(state="attached", timeout=WAIT_MS)
        assert stand_in.get_attribute("src").startswith("data:image/png")
        assert page.locator("text=Error displaying widget").count() == 0
        run_all_cells(page)
        page.wait_for_selector(".divisor-explorer img.explorer-image", timeout=WAIT_MS)
        page.screenshot(path=str(SHOTS / "lab-page-before.png"))
        drive_the_explorer(page, "lab")
        page.screenshot(path=str(SHOTS / "lab-page-after.png"))
        kernels = server.stop()
    assert len(kernels) == 1, f"expected the notebook's one kernel, found {kernels}"
    assert_stopped(server)


def test_the_explorer_as_a_voila_app(page):
    following = sorted(EXPLORER.parent.glob("05-*.ipynb"))
    with Server("voila", extra_files=following) as server:
        page.goto(server.url(), wait_until="commit", timeout=60_000)
        drive_the_explorer(page, "voila")
        page.screenshot(path=str(SHOTS / "voila-page-after.png"), full_page=True)
        assert page.locator(".jp-InputArea-editor").count() == 0, "the app should show no code"
        assert "import numpy" not in page.inner_text("body")
        # every link to a notebook leads somewhere: to the next notebook, rendered without code as well
        links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        notebooks = [link for link in links if re.search(r"\.ipynb($|[?#])", link)]
        assert any(f"/voila/render/{path.name}" in link for link in notebooks for path in following), notebooks
        for link in notebooks:
            reply = page.request.get(link, timeout=WAIT_MS)
            assert reply.status == 200, f"{link} answers {reply.status}"
        server.stop()
    assert_stopped(server)
