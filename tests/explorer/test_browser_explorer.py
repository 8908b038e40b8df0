"""The explorer in a real browser (Debian's Chromium through Playwright), as a student uses it.

* Every number the view draws, over a grid of settings (every width, p in steps of 0.05, every T, three seeds), is
  the Python model's: each weight and each point of the curve to 1e-12, each readout and each entry of the table of
  numbers to the digits printed.
* The page of `make explore-page`, opened from disk with the network off: every control is reached with Tab, named
  for a screen reader and worked with keys; the readouts sit in a polite live region; reseeding goes round the rows
  the page holds; the picture changes.
* In JupyterLab, the stored output shows the still stand-in before anything runs; then, with the kernel process
  stopped in its last cell, the view still moves and waits only for a new seed's row, which comes once it goes on.
* As a Voilà app, and as notebook 04 exported by nbconvert and opened from disk: the live explorer.

Expected readouts come from numpy alone (tests/explorer/reference.py) wherever the model is not the thing compared with.
Screenshots go to build/screenshots/ (or $EXPLORER_SCREENSHOTS). Without Chromium or playwright the tests are skipped
(coursekit.parts), unless REQUIRE_BROWSER_TESTS=1 (CI).
"""
import contextlib
import os
import re
import signal
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbconvert import HTMLExporter

from attention_lesson.explorer.captions import readout_texts
from attention_lesson.explorer.model import WIDTHS, explorer_state
from attention_lesson.explorer.page import page_html
from attention_lesson.vocabulary import DIVISOR_EXPONENTS
from coursekit.browser import EXPLORER, ROOT, Server, chromium, focus, run_all_cells
from coursekit.parts import requires
from tests.explorer.reference import expected_readouts

pytestmark = requires("browser")

SHOTS = Path(os.environ.get("EXPLORER_SCREENSHOTS", ROOT / "build" / "screenshots"))
WAIT_MS = 60_000
VIEW = ".divisor-explorer"
GRID_SEEDS = (0, 1, 2)

# Runs in the page: for one seed, sets every T, p step and width through the view's own inputs (as a key press
# does) and reads back what the view shows: the weights and the curve (full precision, from the marks' data
# attributes), the readouts and the table of numbers (their text).
GRID = """([seed, Ts, pSteps, widthCount]) => {
    const root = document.querySelector('.divisor-explorer');
    const set = (selector, value) => {
        const input = root.querySelector(selector);
        input.value = value;
        input.dispatchEvent(new Event('input', {bubbles: true}));
    };
    const shown = [];
    set('.explorer-seed input', seed);
    for (const T of Ts) {
        set('.explorer-t input', T);
        for (let k = 0; k <= pSteps; k += 1) {
            set('.explorer-p input', k);
            for (let i = 0; i < widthCount; i += 1) {
                set('.explorer-d-k input', i);
                shown.push({
                    T, k, i,
                    weights: [...root.querySelectorAll('.explorer-weight-bar[data-weight]')]
                             .map(r => Number(r.dataset.weight)),
                    curve: [...root.querySelectorAll('.explorer-curve-dot')].map(c => Number(c.dataset.topWeight)),
                    readouts: Object.fromEntries([...root.querySelectorAll('td[data-readout]')]
                                                 .map(td => [td.dataset.readout, td.textContent])),
                    numbers: [...root.querySelectorAll('.explorer-numbers tbody tr')]
                             .map(tr => [...tr.cells].map(cell => cell.textContent)),
                });
            }
        }
    }
    return shown;
}"""


def expected(d_k, p, T=8, seed=0):
    """The three readouts as the page should write them, from numpy alone."""
    return {name: f"{value:.4f}" for name, value in expected_readouts(T, seed, d_k, p).items()}


def shown(page):
    """Every readout as the page shows it: {data-readout key: text}."""
    return page.eval_on_selector_all(f"{VIEW} td[data-readout]",
                                     "cells => Object.fromEntries(cells.map(c => [c.dataset.readout, c.textContent]))")


def shows(page, **texts):
    """Wait until the readouts named by `texts` (keys as in data-readout; spaces as underscores) say those texts."""
    wanted = {key.replace("_", " "): text for key, text in texts.items()}
    page.wait_for_function("""([selector, wanted]) => Object.entries(wanted).every(([key, text]) => {
        const cell = document.querySelector(`${selector} td[data-readout="${key}"]`);
        return cell && cell.textContent === text;
    })""", arg=[VIEW, wanted], timeout=WAIT_MS)


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


def picture(page):
    return page.locator(f"{VIEW} svg.explorer-picture").screenshot()


@pytest.fixture
def page():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as page:
        yield page


# ---- the numbers -------------------------------------------------------------------------------------------------
def test_every_number_the_view_shows_is_the_python_models(tmp_path):
    path = page_file(tmp_path, seeds=len(GRID_SEEDS))
    Ts = list(range(2, 17))
    wrong, compared = [], 0
    with offline_page() as page:
        page.goto(path.as_uri())
        page.wait_for_selector(VIEW)
        for seed in GRID_SEEDS:
            for seen in page.evaluate(GRID, [seed, Ts, 20, len(WIDTHS)]):
                T, p, d_k = seen["T"], seen["k"] / 20, WIDTHS[seen["i"]]
                state = explorer_state(d_k=d_k, p=p, T=T, seed=seed)
                where = f"d_k={d_k}, p={p:.2f}, T={T}, seed={seed}"
                if len(seen["weights"]) != T or np.max(np.abs(np.subtract(seen["weights"], state.weights))) > 1e-12:
                    wrong.append(f"{where}: weights {seen['weights']} != {state.weights.tolist()}")
                if np.max(np.abs(np.subtract(seen["curve"], state.curve))) > 1e-12:
                    wrong.append(f"{where}: curve {seen['curve']} != {state.curve.tolist()}")
                if seen["readouts"] != readout_texts(state):
                    wrong.append(f"{where}: readouts {seen['readouts']} != {readout_texts(state)}")
                numbers = [[str(j + 1), f"{e:.3f}", f"{d:.3f}", f"{a:.4f}"]
                           for j, (e, d, a) in enumerate(zip(state.scores, state.divided, state.weights))]
                if seen["numbers"] != numbers:
                    wrong.append(f"{where}: table {seen['numbers']} != {numbers}")
                compared += 1
        assert page.errors == []
    assert compared == len(GRID_SEEDS) * 15 * 21 * len(WIDTHS)
    assert not wrong, f"{len(wrong)} of {compared} states differ, the first ones:\n" + "\n".join(wrong[:10])


# ---- the page, from disk, by keyboard ----------------------------------------------------------------------------
def test_the_page_opens_from_disk_offline_and_works_by_keyboard(tmp_path):
    path = page_file(tmp_path, seeds=3)
    with offline_page() as page:
        page.goto(path.as_uri())
        view = page.locator(VIEW)
        view.wait_for()
        assert page.locator(".explorer-still").is_hidden(), "the still picture gives way to the live view"
        assert_shows(page, 64, 0.5, divisor="√d_k = 8")
        before = picture(page)

        # every control in turn with Tab, each named for a screen reader
        controls = [page.get_by_role("slider", name="d_k", exact=True),
                    *[page.get_by_role("button", name=name, exact=True) for name in DIVISOR_EXPONENTS],
                    page.get_by_role("slider", name="p in d_k^p", exact=True),
                    page.get_by_role("slider", name="T", exact=True),
                    page.get_by_role("spinbutton", name="seed", exact=True),
                    page.get_by_role("button", name="new row of scores", exact=True)]
        assert page.get_by_role("group", name="divide by").count() == 1
        page.locator("h1").click()
        for control in controls:
            page.keyboard.press("Tab")
            assert control.evaluate("node => node === document.activeElement"), f"Tab skipped {control}"

        focus(page, f"{VIEW} .explorer-d-k input")
        page.keyboard.press("ArrowRight")
        assert_shows(page, 128, 0.5, divisor="√d_k = 11.31")
        assert controls[0].get_attribute("aria-valuetext") == "128"
        page.keyboard.press("End")
        assert_shows(page, 1024, 0.5, divisor="√d_k = 32")

        focus(page, f"{VIEW} .explorer-p input")
        page.keyboard.press("ArrowLeft")
        assert_shows(page, 1024, 0.45)
        assert shown(page)["divisor"].startswith("d_k^0.45 = ")
        assert [b.get_attribute("aria-pressed") for b in controls[1:4]] == ["false"] * 3

        controls[3].focus()  # the button "d_k"
        page.keyboard.press("Space")
        assert_shows(page, 1024, 1.0, divisor="d_k = 1024")
        assert controls[3].get_attribute("aria-pressed") == "true"

        focus(page, f"{VIEW} .explorer-t input")
        page.keyboard.press("ArrowRight")
        assert_shows(page, 1024, 1.0, T=9)
        assert page.locator(f"{VIEW} .explorer-weight-bar[data-weight]").count() == 9

        controls[-1].focus()  # new row of scores: round the three seeds the page holds
        for seed in (1, 2, 0, 1):
            page.keyboard.press("Enter")
            assert_shows(page, 1024, 1.0, T=9, seed=seed)
        assert page.locator(f"{VIEW} .explorer-seed input").input_value() == "1"

        assert page.locator(f"{VIEW} .explorer-readout").get_attribute("aria-live") == "polite"
        assert page.locator(f"{VIEW} .explorer-readout td[data-readout]").count() == 6
        assert page.locator(f"{VIEW} svg.explorer-picture").get_attribute("role") == "img"
        after = picture(page)
        view.screenshot(path=str(SHOTS / "page-after.png"))
        assert before != after
        assert page.errors == []
    assert page.requests and all(url.startswith("file:") for url in page.requests), page.requests


# ---- JupyterLab, Voilà, nbconvert --------------------------------------------------------------------------------
def stopping_copy(folder):
    """Notebook 04 with a last cell in which the kernel stops itself (SIGSTOP) until it is sent SIGCONT: a kernel that
    answers nothing at all, not even on another thread (JupyterLab may send widget messages to a kernel subshell)."""
    nb = nbformat.read(EXPLORER, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import os\nimport signal\n\nos.kill(os.getpid(), signal.SIGSTOP)"))
    path = Path(folder) / EXPLORER.name
    nbformat.write(nb, path)
    return path


def test_the_explorer_in_jupyterlab_moves_while_the_kernel_answers_nothing(page, tmp_path):
    with Server("lab", notebook=stopping_copy(tmp_path)) as server:
        page.goto(server.url(), wait_until="commit", timeout=WAIT_MS)
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=WAIT_MS)
        # before anything runs, the stored output shows the still picture, not a broken widget
        stand_in = page.locator(".jp-OutputArea-output img").first
        stand_in.wait_for(state="attached", timeout=WAIT_MS)
        assert stand_in.get_attribute("src").startswith("data:image/")
        assert page.locator("text=Error displaying widget").count() == 0

        run_all_cells(page, wait_for_end=False)
        page.wait_for_selector(f"{VIEW} svg.explorer-picture", state="attached", timeout=WAIT_MS)
        page.locator(VIEW).scroll_into_view_if_needed()
        [(pid, _)] = server.kernels()
        wait_until_stopped(pid)
        try:
            assert_shows(page, 64, 0.5)
            focus(page, f"{VIEW} .explorer-d-k input")
            page.keyboard.press("ArrowRight")
            assert_shows(page, 128, 0.5, divisor="√d_k = 11.31")
            page.locator(VIEW).get_by_role("button", name="d_k", exact=True).click()
            assert_shows(page, 128, 1.0, divisor="d_k = 128")

            # a new seed needs the kernel: the view says it waits, and keeps the row it has
            page.locator(VIEW).get_by_role("button", name="new row of scores").click()
            assert "seed 1" in page.locator(f"{VIEW} .explorer-status").inner_text()
            assert_shows(page, 128, 1.0, seed=0)
            page.locator(VIEW).screenshot(path=str(SHOTS / "lab-kernel-stopped.png"))
        finally:
            os.kill(pid, signal.SIGCONT)
        shows(page, seed="1")
        assert_shows(page, 128, 1.0, seed=1)
        assert page.locator(f"{VIEW} .explorer-status").inner_text() == ""
        page.locator(VIEW).screenshot(path=str(SHOTS / "lab-after.png"))
        kernels = server.stop()
    assert len(kernels) == 1, f"expected the notebook's one kernel, found {kernels}"


def wait_until_stopped(pid, seconds=60):
    """Wait until the process `pid` is stopped (state T in /proc/PID/stat)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "T":
            return
        time.sleep(0.1)
    raise AssertionError(f"the kernel (process {pid}) did not stop within {seconds} s")


def test_the_explorer_as_a_voila_app(page):
    following = sorted(EXPLORER.parent.glob("05-*.ipynb"))
    with Server("voila", extra_files=following) as server:
        page.goto(server.url(), wait_until="commit", timeout=WAIT_MS)
        page.wait_for_selector(f"{VIEW} svg.explorer-picture", state="attached", timeout=WAIT_MS)
        page.locator(VIEW).scroll_into_view_if_needed()
        assert_shows(page, 64, 0.5, divisor="√d_k = 8")
        focus(page, f"{VIEW} .explorer-d-k input")
        page.keyboard.press("ArrowRight")
        assert_shows(page, 128, 0.5, divisor="√d_k = 11.31")
        page.locator(VIEW).get_by_role("button", name="new row of scores").click()
        shows(page, seed="1")
        assert_shows(page, 128, 0.5, seed=1)
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


def test_notebook_04_exported_by_nbconvert_is_live_from_disk(tmp_path):
    body, _ = HTMLExporter().from_filename(str(EXPLORER))
    path = tmp_path / "04-explore-the-divisor.html"
    path.write_text(body, encoding="utf-8")
    with offline_page() as page:
        page.goto(path.as_uri())
        page.wait_for_selector(f"{VIEW} svg.explorer-picture", timeout=WAIT_MS)
        assert page.locator(".explorer-still").is_hidden()
        assert_shows(page, 64, 0.5, divisor="√d_k = 8")
        focus(page, f"{VIEW} .explorer-d-k input")
        page.keyboard.press("ArrowLeft")
        assert_shows(page, 32, 0.5, divisor="√d_k = 5.657")
        page.locator(VIEW).get_by_role("button", name="new row of scores").click()
        assert_shows(page, 32, 0.5, seed=1)
        page.locator(VIEW).screenshot(path=str(SHOTS / "exported-after.png"))
        assert page.errors == []
