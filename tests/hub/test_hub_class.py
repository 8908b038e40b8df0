"""A class on the JupyterHub of deploy/jupyterhub/, used as a class uses it, in Debian's Chromium (playwright).

Real Linux accounts log in through PAM (coursekit/hub.py makes and removes them): the instructor opens
Nbgrader › Formgrader inside JupyterLab (it must load there, not only by its own address) and releases the
assignment with its Release button; each student lands on lesson 01, fetches the assignment in the Assignments tab,
hands in an answer (one right, one wrong: tests/submissions/), presses Validate and Submit. The instructor, a
non-root account, collects, autogrades in the bubblewrap sandbox (`python -m classroom.autograde`, what `make
autograde` runs), and releases feedback; each student fetches and opens their feedback. Then each student, as their
own Linux account, tries to read every private path of the course and of the other student, and must be refused.
Screenshots: build/hub-screenshots/. The shared environment is built once at /opt/sqrt-dk/venv (`make hub-env`,
about 800 MB) and reused while the pins stay the same. It needs root, useradd, npm, bubblewrap and Chromium
(coursekit.parts).
"""
import json
import os
import pwd
import re
import shutil
import stat
from pathlib import Path

import pytest

from coursekit.browser import CHROMIUM, CHROMIUM_ARGS, ROOT
from coursekit.corpus import corpus, notebook
from coursekit.course import max_scores, scores
from coursekit.hub import WAIT_S, Hub, until
from coursekit.parts import requires

pytestmark = requires("hub", "browser", "sandbox")
SHOTS = ROOT / "build" / "hub-screenshots"
WAIT_MS = WAIT_S * 1000
ASSIGNMENT = "score_gradient"
ANSWERS = ("correct_matmul", "wrong_transposed")  # corpus entries: what the first and the second student hand in


@pytest.fixture(scope="module")
def hub():
    with Hub() as made:
        yield made


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SHOTS, ignore_errors=True)  # only this run's screenshots
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def home(user):
    return Path(pwd.getpwnam(user).pw_dir)


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
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.wait_for(timeout=WAIT_MS)
    assert page.url.startswith(f"http://{user}.localhost:"), f"{user}'s server is not on an origin of its own"
    return page


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


def release(hub, browser):
    page = log_in(browser, hub, hub.instructor)
    open_menu(page, "Formgrader")
    formgrader = page.frame_locator("iframe[src*='formgrader']")
    row = formgrader.locator("tr", has=formgrader.locator("td.name a", has_text=ASSIGNMENT)).first
    row.wait_for(timeout=WAIT_MS)  # the formgrader loads inside JupyterLab: no "refused to connect"
    assert formgrader.locator("#warning-exchange").count() == 0
    shot(page, "1-instructor-formgrader-in-lab")
    row.locator("td.release a").first.click()
    outbound = Path(hub.settings["exchange"]) / "sqrt-dk" / "outbound" / ASSIGNMENT
    until(lambda: (outbound / f"{ASSIGNMENT}.ipynb").exists(), "Release did not put the assignment in the exchange")
    assert not (outbound / "grade_cells.py").exists()
    row.locator("td.status", has_text="released").wait_for(timeout=WAIT_MS)
    shot(page, "1-instructor-released")
    page.context.close()
    hub.stop_server(hub.instructor)


def hand_in(hub, browser, student, answer):
    page = log_in(browser, hub, student)
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text="01-").wait_for(timeout=WAIT_MS)
    page.locator(".jp-NotebookPanel:visible .jp-Cell").first.wait_for(timeout=WAIT_MS)
    assert page.get_by_text("official Jupyter news").count() == 0
    server = page.url.split("/lab")[0]
    # asked from the page (playwright's own requests do not resolve *.localhost as Chromium does)
    for path in ("formgrader", f"formgrader/api/submission/{ASSIGNMENT}/{student}/autograde"):
        status = page.evaluate("async (url) => (await fetch(url)).status", f"{server}/{path}")
        assert status == 404, f"a student's server answers /{path} ({status})"
    shot(page, f"2-{student[-2:]}-lesson-01")
    open_menu(page, "Assignment List")
    assignments = page.locator("#nbgrader-assignment-list")
    press(page, assignments.locator("#released_assignments_list").get_by_role("button", name="Fetch"))
    fetched = home(student) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    until(fetched.exists, f"{student}: Fetch did not bring the assignment home")
    fetched.write_text(json.dumps(notebook(corpus()[answer])))  # the student's answer, saved as their own file
    os.chown(fetched, *(lambda s: (s.st_uid, s.st_gid))(fetched.parent.stat()))
    fetched_row = assignments.locator("#fetched_assignments_list")
    press(page, fetched_row.locator(".assignment-notebooks-link", has_text=ASSIGNMENT))
    press(page, fetched_row.locator(".nested_list_item", has_text=ASSIGNMENT).get_by_role("button", name="Validate"))
    message = page.locator(".jp-Dialog #validation-message")
    message.wait_for(timeout=WAIT_MS)
    verdict = message.get_attribute("class")
    shot(page, f"3-{student[-2:]}-validate")
    page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()
    press(page, fetched_row.get_by_role("button", name="Submit"))
    inbound = Path(hub.settings["exchange"]) / "sqrt-dk" / "inbound"
    until(lambda: any(p.name.startswith(f"{student}+{ASSIGNMENT}+") for p in inbound.iterdir()),
          f"{student}: Submit did not hand in")
    return page, verdict


def grade(hub):
    """As the instructor's own (non-root) account, from the course directory: what INSTRUCTORS.md says to run."""
    for command in (["nbgrader", "collect", ASSIGNMENT], ["python", "-m", "classroom.autograde", ASSIGNMENT],
                    ["nbgrader", "generate_feedback", ASSIGNMENT], ["nbgrader", "release_feedback", ASSIGNMENT]):
        done = hub.as_user(hub.instructor, *command, cwd=hub.settings["course"])
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    checks = max_scores(hub.settings["course"])  # score_gradient.ipynb's grade cells, the notebook handed in
    return {student: sum(v for k, v in grades.items() if k in checks)
            for student, grades in scores(hub.settings["course"]).items()}


def read_feedback(hub, page, student):
    """In the student's JupyterLab, still open from hand_in: Fetch Feedback, then open the feedback page."""
    press(page, page.locator("#submitted_assignments_list").get_by_role("button", name="Fetch Feedback"))
    feedback = home(student) / ASSIGNMENT / "feedback"
    until(lambda: any(feedback.glob(f"*/{ASSIGNMENT}.html")), f"{student}: no feedback fetched")
    page_path = next(feedback.glob(f"*/{ASSIGNMENT}.html")).relative_to(home(student))
    page.goto(f"{page.url.split('/lab')[0]}/files/{page_path}", timeout=WAIT_MS)
    page.get_by_text("Score", exact=False).first.wait_for(timeout=WAIT_MS)
    shot(page, f"4-{student[-2:]}-feedback")
    text = page.locator("body").inner_text()
    page.context.close()
    hub.stop_server(student)
    return text


def private_paths(hub, student, other):
    """Every path `student` must not read: the course's solutions, gradebook, hand-ins, grading and feedback, the
    exchange's inbound listing, and the other student's home and work."""
    course = Path(hub.settings["course"])
    source = course / "source" / ASSIGNMENT
    return [course, source, source / f"{ASSIGNMENT}.ipynb", source / "grade_cells.py", course / "gradebook.db",
            course / "submitted" / other / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
            course / "autograded" / other / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
            course / "feedback" / other / ASSIGNMENT / f"{ASSIGNMENT}.html",
            Path(hub.settings["exchange"]) / "sqrt-dk" / "inbound", home(other),
            home(other) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
            home(other) / "sqrt-dk-lessons"]


TRY_READ = """import json, os, sys
seen = {}
for path in json.loads(sys.argv[1]):
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        seen[path] = "read"
    except PermissionError:
        seen[path] = "refused"
    except FileNotFoundError:
        seen[path] = "not found"
print(json.dumps(seen))
"""


def test_a_class_on_the_hub(hub, browser):
    release(hub, browser)
    # each student's page stays open (and their server running) until they have read their feedback
    pages, verdicts = {}, {}
    for student, answer in zip(hub.students, ANSWERS):
        pages[student], verdicts[student] = hand_in(hub, browser, student, answer)
    assert "validation-success" in verdicts[hub.students[0]]
    assert "validation-failed" in verdicts[hub.students[1]]
    totals = grade(hub)
    assert totals[hub.students[0]] > totals[hub.students[1]], totals
    for student in hub.students:
        text = read_feedback(hub, pages[student], student)
        shown = re.search(r"Score: ([0-9.]+) / [0-9.]+ points", text)
        assert shown and float(shown.group(1)) == totals[student], f"{student}'s feedback: {text[:300]}"
        assert "BEGIN HIDDEN TESTS" not in text
    for student, other in (hub.students, hub.students[::-1]):
        paths = [str(p) for p in private_paths(hub, student, other)]
        assert all(os.path.exists(p) for p in paths), [p for p in paths if not os.path.exists(p)]
        tried = hub.as_user(student, "python", "-c", TRY_READ, json.dumps(paths))
        assert tried.returncode == 0, tried.stderr
        assert json.loads(tried.stdout) == {p: "refused" for p in paths}
        assert stat.S_IMODE(os.stat(home(student)).st_mode) == 0o700
