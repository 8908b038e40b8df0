"""A person at JupyterLab on the hub, in Chromium (playwright), for tests/hub/test_hub_class.py: logging in through
the hub's form, the menus, nbgrader's Assignments tab, the user's own Jupyter server asked from their page, a terminal
typed into; a screenshot of each step in build/hub-screenshots/."""
import json
import re

from coursekit.repository import ROOT
from coursekit.real_parts.waiting import WAIT_MS, WAIT_S, until

SHOTS = ROOT / "build" / "hub-screenshots"


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def log_in(browser, hub, user):
    """A browser context of its own for `user`, logged in through the hub's login form, once JupyterLab shows."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login", timeout=WAIT_MS)
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    try:
        page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.wait_for(timeout=WAIT_MS)
    except Exception as exc:  # playwright's TimeoutError: say where the page is and what it shows
        shot(page, f"login-{user}-failed")
        raise AssertionError(f"{user}: JupyterLab did not show within {WAIT_S} s of logging in; the page is at "
                             f"{page.url} and shows: {page.locator('body').inner_text()[:1500]!r}") from exc
    assert page.url.startswith(f"http://{user}.localhost:"), f"{user}'s server is not on an origin of its own"
    return page


def server_of(page):
    return page.url.split("/lab")[0]


def menu_items(page, menu):
    """The labels of the items of the menu bar's `menu`, as shown (the menu is closed again)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    labels = page.locator(".lm-Menu:visible .lm-Menu-itemLabel")
    labels.first.wait_for(timeout=WAIT_MS)
    shown = [text.strip() for text in labels.all_inner_texts()]
    shot(page, f"menu-{menu}-{page.url.split('.localhost')[0].rsplit('-', 1)[-1]}")
    page.keyboard.press("Escape")
    return shown


def open_menu(page, item):
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def press(page, button, attempts=WAIT_S // 5):
    """Click `button` in nbgrader's Assignments tab, which may be redrawn (its lists arrive from the server) and
    hidden behind another tab: until a click lands, bring the tab to the front and try again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(attempts):
        try:
            page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="Assignments").click(timeout=5_000)
            button.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"the Assignments tab never showed {button} long enough to press it")


def api(page, method, path):
    """A request to the user's own Jupyter server from their page (cookies and XSRF token as JupyterLab sends them)."""
    status, body = page.evaluate("""async ([url, method]) => {
        const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || "";
        const reply = await fetch(url, {method, headers: {"X-XSRFToken": xsrf, "Content-Type": "application/json"},
                                        body: method === "GET" ? undefined : "{}"});
        return [reply.status, await reply.text()]; }""", [f"{server_of(page)}/api/{path}", method])
    assert status < 300, f"{method} /api/{path}: {status} {body[:500]}"
    return json.loads(body)


class Terminal:
    """A Jupyter terminal opened as a person opens one (File › New › Terminal), typed into with the keyboard; what
    it prints is read through a second connection to the same terminal."""

    DONE = re.compile(r"::status (\d+) 42::")

    def __init__(self, page):
        self.page = page
        page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="New").first.hover()
        page.locator(".lm-Menu:visible .lm-Menu-itemLabel", has_text="Terminal").first.click()
        page.locator(".jp-Terminal").last.wait_for(timeout=WAIT_MS)
        name = api(page, "GET", "terminals")[-1]["name"]
        url = server_of(page).replace("http", "ws", 1) + f"/terminals/websocket/{name}"
        page.evaluate("""(url) => new Promise((ok, fail) => {
            window.sqdkOut = ""; const ws = new WebSocket(url);
            ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m[0] === "stdout") window.sqdkOut += m[1]; };
            ws.onopen = () => ok(); ws.onerror = () => fail("the terminal's websocket did not open");
            window.sqdkSocket = ws; })""", url)

    def run(self, command, seconds=WAIT_S):
        """Type `command` and Enter; (exit status, what it printed) once it has finished."""
        start = len(self.page.evaluate("window.sqdkOut"))
        self.page.locator(".jp-Terminal").last.click()
        self.page.keyboard.type(f'{command}; echo "::status $? $((6*7))::"')
        self.page.keyboard.press("Enter")
        found = {}

        def finished():
            out = self.page.evaluate("window.sqdkOut")[start:]
            found["match"], found["out"] = self.DONE.search(out), out
            return found["match"] is not None

        until(finished, f"`{command}` in the terminal", seconds)
        return int(found["match"].group(1)), re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", found["out"])
