"""The page of `make explore-page` in a real browser (Debian's Chromium through Playwright), opened from disk with the
network off: every control is reached with Tab, named for a screen reader and worked with keys; the readouts sit in a
polite live region; reseeding goes round the rows the page holds; the picture changes.

Expected readouts come from numpy alone (tests/explorer/reference.py). Without Chromium or playwright the test is
skipped (coursekit.parts), unless REQUIRE_BROWSER_TESTS=1 (CI).
"""
from attention_lesson.vocabulary import DIVISOR_EXPONENTS
from coursekit.real_parts.browser import focus
from coursekit.parts import requires
from tests.explorer.browser_view import SHOTS, VIEW, assert_shows, offline_page, page_file, shown

pytestmark = requires("browser")


def picture(page):
    return page.locator(f"{VIEW} svg.explorer-picture").screenshot()


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
