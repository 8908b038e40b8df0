"""How the browser tests wait for JupyterLab's Run All to end (coursekit.real_parts.browser), against a page that
plays back what JupyterLab showed: a run that ends, one whose last cells JupyterLab dropped on a loaded machine, and
one that never ends, which fails naming what the page showed."""
import pytest

from coursekit.real_parts import browser


class PlayedBack:
    """A stand-in for a Playwright page: each look returns the next of `states` (the last one stays), and choosing
    Run > Run All Cells is recorded. Its clock moves only when the waiter waits."""

    def __init__(self, states, clock, dialog=None):
        self.states, self.clock, self.run_all, self.dialog = list(states), clock, 0, dialog

    def evaluate(self, script):
        assert script == browser.PROMPTS
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def wait_for_timeout(self, ms):
        self.clock[0] += ms / 1000

    def locator(self, selector, has_text=""):
        page = self

        class Item:
            first = property(lambda item: item)

            def click(self):
                page.run_all += has_text == "Run All Cells"

            def all(self):  # the dialogs shown, if asked for
                return [self] if selector == ".jp-Dialog" and page.dialog else []

            def inner_text(self):
                return page.dialog
        return Item()


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(browser.time, "monotonic", lambda: now[0])
    return now


def state(prompts, status):
    return {"prompts": prompts, "status": status}


def test_a_run_that_ends_is_waited_for_and_nothing_is_run_again(clock):
    page = PlayedBack([state(["[1]:", "[*]:", "[ ]:"], "busy")] * 8 + [state(["[1]:", "[2]:", "[3]:"], "idle")], clock)
    browser.wait_for_the_run_to_end(page, 120_000)
    assert page.run_all == 0


def test_cells_left_behind_by_an_idle_kernel_are_run_once_more(clock):
    dropped = [state(["[1]:", "[ ]:", "[ ]:"], "idle")] * 30  # 7.5 s idle with two cells never started
    page = PlayedBack(dropped + [state(["[4]:", "[5]:", "[6]:"], "idle")], clock)
    browser.wait_for_the_run_to_end(page, 120_000)
    assert page.run_all == 1


def test_a_run_that_never_ends_fails_saying_what_the_page_shows(clock):
    page = PlayedBack([state(["[1]:", "[*]:"], "busy")], clock)
    with pytest.raises(AssertionError, match=r"within 120 s: prompts \['\[1\]:', '\[\*\]:'\], kernel 'busy'"):
        browser.wait_for_the_run_to_end(page, 120_000)
    assert page.run_all == 0


def test_a_dialog_in_the_way_of_run_all_fails_saying_what_it_says(clock):
    page = PlayedBack([state(["[1]:", "[ ]:"], "idle")], clock, dialog="Select Kernel\nPython 3 (ipykernel)")
    with pytest.raises(RuntimeError, match=r"dialog is in the way of Run All: 'Select Kernel\\nPython 3"):
        browser.choose_run_all(page)
    assert page.run_all == 0
