"""The class's cycle on the hub, for tests/hub/test_hub_class.py: where its files are (homes, the exchange, a
student's own hand-in), the teacher's Release in the formgrader, a student's hand-in and feedback in JupyterLab, the
commands INSTRUCTORS.md gives, and the totals the gradebook holds."""
import json
import os
import pwd
import re
from pathlib import Path

from coursekit.corpus import corpus, notebook
from coursekit.trial_course import ASSIGNMENT, COURSE_ID, max_scores, scores
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import until
from tests.hub.lab_pages import WAIT_MS, log_in, menu_items, open_menu, press, server_of, shot



def home(user):
    return Path(pwd.getpwnam(user).pw_dir)


def doc_commands(who):
    """The commands INSTRUCTORS.md's "The cycle on the hub" gives `who` (the row whose first cell is `who` and whose
    second starts with File › New › Terminal), as written."""
    text = (ROOT / "INSTRUCTORS.md").read_text()
    section = text.split("### The cycle on the hub", 1)[1].split("\n### ", 1)[0]
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] == who and cells[1].startswith("File › New › Terminal"):
            return re.findall(r"`([^`]+)`", cells[2])
    raise AssertionError(f"INSTRUCTORS.md gives no terminal row for {who}")


# ---- the cycle ---------------------------------------------------------------------------------------------------
def release(hub, browser):
    page = log_in(browser, hub, hub.instructor)
    open_menu(page, "Formgrader")
    formgrader = page.frame_locator("iframe[src*='formgrader']")
    row = formgrader.locator("tr", has=formgrader.locator("td.name a", has_text=ASSIGNMENT)).first
    row.wait_for(timeout=WAIT_MS)  # the formgrader loads inside JupyterLab: no "refused to connect"
    assert formgrader.locator("#warning-exchange").count() == 0
    shot(page, "1-instructor-formgrader-in-lab")
    row.locator("td.release a").first.click()
    outbound = exchange(hub) / "outbound" / ASSIGNMENT
    until(lambda: (outbound / f"{ASSIGNMENT}.ipynb").exists(), "Release did not put the assignment in the exchange")
    assert not (outbound / "grade_cells.py").exists()
    row.locator("td.status", has_text="released").wait_for(timeout=WAIT_MS)
    shot(page, "1-instructor-released")
    page.context.close()
    hub.stop_server(hub.instructor)


def exchange(hub):
    return Path(hub.settings["exchange"]) / COURSE_ID


def hand_in_folder(hub, student):
    """The student's own hand-in (not one another account made under their name)."""
    uid = pwd.getpwnam(student).pw_uid
    return next(p for p in (exchange(hub) / "inbound").glob(f"{student}+{ASSIGNMENT}+*") if p.stat().st_uid == uid)


def hand_in(hub, browser, student, answer):
    page = log_in(browser, hub, student)
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text="01-").wait_for(timeout=WAIT_MS)
    page.locator(".jp-NotebookPanel:visible .jp-Cell").first.wait_for(timeout=WAIT_MS)
    assert page.get_by_text("official Jupyter news").count() == 0
    # asked from the page (playwright's own requests do not resolve *.localhost as Chromium does)
    for path in ("formgrader", f"formgrader/api/submission/{ASSIGNMENT}/{student}/autograde"):
        status = page.evaluate("async (url) => (await fetch(url)).status", f"{server_of(page)}/{path}")
        assert status == 404, f"a student's server answers /{path} ({status})"
    offered = menu_items(page, "Nbgrader")
    assert "Assignment List" in offered and not {"Formgrader", "Formgrader (local)", "Create Assignment"} & set(
        offered), offered
    assert page.locator("#create_assignment, .nbgrader-CreateAssignmentWidget").count() == 0
    shot(page, f"2-{student[-3:]}-lesson-01")
    open_menu(page, "Assignment List")
    assignments = page.locator("#nbgrader-assignment-list")
    press(page, assignments.locator("#released_assignments_list").get_by_role("button", name="Fetch"))
    fetched = home(student) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    fetched_row = assignments.locator("#fetched_assignments_list")
    # the list shows the assignment once Fetch has returned: the file exists as soon as its copy begins, and an
    # answer written before the copy ends was overwritten by the release's blank notebook
    fetched_row.locator(".assignment-notebooks-link", has_text=ASSIGNMENT).wait_for(timeout=WAIT_MS)
    until(fetched.exists, f"{student}: Fetch did not bring the assignment home")
    fetched.write_text(json.dumps(notebook(corpus()[answer])))  # the student's answer, saved as their own file
    os.chown(fetched, *(lambda s: (s.st_uid, s.st_gid))(fetched.parent.stat()))
    press(page, fetched_row.locator(".assignment-notebooks-link", has_text=ASSIGNMENT))
    press(page, fetched_row.locator(".nested_list_item", has_text=ASSIGNMENT).get_by_role("button", name="Validate"))
    message = page.locator(".jp-Dialog #validation-message")
    message.wait_for(timeout=WAIT_MS)
    verdict = message.get_attribute("class")
    shot(page, f"3-{student[-3:]}-validate")
    page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()
    press(page, fetched_row.get_by_role("button", name="Submit"))
    inbound = exchange(hub) / "inbound"
    until(lambda: any(p.name.startswith(f"{student}+{ASSIGNMENT}+") for p in inbound.iterdir()),
          f"{student}: Submit did not hand in")
    return page, verdict


def read_feedback(hub, page, student):
    """In the student's JupyterLab, still open from hand_in: Fetch Feedback, then open the feedback page."""
    press(page, page.locator("#submitted_assignments_list").get_by_role("button", name="Fetch Feedback"))
    feedback = home(student) / ASSIGNMENT / "feedback"
    until(lambda: any(feedback.glob(f"*/{ASSIGNMENT}.html")), f"{student}: no feedback fetched")
    page_path = next(feedback.glob(f"*/{ASSIGNMENT}.html")).relative_to(home(student))
    page.goto(f"{server_of(page)}/files/{page_path}", timeout=WAIT_MS)
    page.get_by_text("Score", exact=False).first.wait_for(timeout=WAIT_MS)
    shot(page, f"6-{student[-3:]}-feedback")
    text = page.locator("body").inner_text()
    page.context.close()
    hub.stop_server(student)
    return text


def totals(hub):
    checks = max_scores(hub.settings["course"])  # score_gradient.ipynb's grade cells, the notebook handed in
    return {student: sum(v for k, v in grades.items() if k in checks)
            for student, grades in scores(hub.settings["course"]).items()}
