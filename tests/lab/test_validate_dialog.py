"""nbgrader's Validate, pressed in JupyterLab, says which checks only grading decides (lab/validate-notice).

One JupyterLab from .venv serves two small nbgrader notebooks written here: one whose answer passes every check and
one whose answer fails them, and the first again as a fetched assignment. In Debian's Chromium (Playwright) the test
presses a notebook's Validate button and reads the "Validation Results" dialog: after success it must list, in
notebook order, each `# Only when graded:` line of a grade cell with that cell's docstring, as the notebook holds
them; after failure it must add nothing; after a Validate pressed in nbgrader's Assignments tab it must say it in
general, naming no notebook's checks. The "official Jupyter news" question must not appear (lab/overrides.json).
A screenshot of the success dialog goes to build/validate-dialog.png.
"""
import json
import shutil

import nbformat
import pytest
from nbformat.v4 import new_markdown_cell, new_notebook

from classroom import cells
from classroom.cells import SourceCell
from coursekit.real_parts.browser import Server, chromium
from coursekit.parts import requires
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import WAIT_MS

pytestmark = requires("browser")

MARKER = "# Only when graded:"
NOTICE = ".attention-lesson-validate-notice"
SCREENSHOT = ROOT / "build" / "validate-dialog.png"

ANSWERS = {"passes.ipynb": "def double(x):\n    return 2 * x\n",
           "fails.ipynb": "def double(x):\n    return x + 1\n"}
# grade cells: (grade id, source); markup in a marker line must reach the page as text
CHECKS = [
    ("small_numbers", '"""Doubles small whole numbers."""\nassert double(2) == 4\n'),
    ("unseen_inputs", '"""Doubles numbers you have not seen."""\n'
                      f"{MARKER} values on inputs you have not seen, up to 10**6.\n"
                      f"{MARKER} the time it takes, on the grader's machine.\n"
                      "assert double(3) == 6\n"),
    ("no_marker_when_indented", '"""Keeps the sign."""\n'
                                "if True:\n"
                                f"    {MARKER} indented, so not a marker line\n"
                                "    assert double(-1) == -2\n"),
    ("array_shapes", f"{MARKER} arrays with T up to 300 & shapes like <T, T>.\n"  # above the docstring
                     '"""Works on <b>arrays</b> & lists."""\n'
                     "assert double(0.5) == 1.0\n"),
]


def write_notebook(path, answer):
    nb = new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nb.cells = [new_markdown_cell("Write `double`."),
                SourceCell("answer", "code", f"{MARKER} the answer cell is not a check.\n{answer}", locked=False,
                           is_solution=True).new_cell(),
                *(SourceCell(name, "code", source, locked=True, points=1).new_cell() for name, source in CHECKS)]
    for number, cell in enumerate(nb.cells):
        cell.setdefault("id", f"cell-{number}")
    nbformat.write(nb, str(path))


def graded_only(path):
    """["description: text"] for each marker line of each grade cell of the notebook at `path`, read from the file."""
    expected = []
    for cell in json.loads(path.read_text())["cells"]:
        lines = cells.source(cell).splitlines()
        texts = [line[len(MARKER):].strip() for line in lines if line.startswith(MARKER)]
        if cells.is_grade(cell):
            # the docstring's closing full stop gives way to the colon ("... seen: values", not "... seen.: values")
            expected += [f"{cells.docstring(cells.source(cell)).rstrip('.:')}: {text}" for text in texts]
    return expected


def fetched_assignment(served, exchange):
    """In the served folder, what `nbgrader fetch` of an assignment "ps1" holding passes.ipynb leaves (with an
    exchange that released it), so that nbgrader's Assignments tab lists it with a Validate button."""
    released = exchange / "demo" / "outbound" / "ps1"
    released.mkdir(parents=True)
    (served / "ps1").mkdir()
    for folder in (released, served / "ps1"):
        shutil.copy(served / "passes.ipynb", folder)
    (served / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\nc.CourseDirectory.course_id = 'demo'\n")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("validate")
    paths = [folder / name for name in ANSWERS]
    for path in paths:
        write_notebook(path, ANSWERS[path.name])
    with Server("lab", notebook=paths[0], extra_files=paths[1:]) as server, chromium() as page:
        fetched_assignment(server.folder, folder / "exchange")
        yield server, page, folder


def open_notebook(server, page, name):
    """Open notebook `name` in JupyterLab; return its panel once its cells show."""
    page.goto(server.url(name), wait_until="commit", timeout=WAIT_MS)
    # JupyterLab may first restore the notebook opened before: wait until `name` is the tab in front
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(timeout=WAIT_MS)
    panel = page.locator(".jp-NotebookPanel:visible")
    panel.locator(".jp-Cell").first.wait_for(timeout=WAIT_MS)
    return panel


def results(page):
    """nbgrader's message in the Validation Results dialog, once it shows."""
    message = page.locator(".jp-Dialog #validation-message")
    message.wait_for(timeout=WAIT_MS)
    return message


def validate(server, page, name):
    """Open notebook `name`, press its Validate button, and return the Validation Results dialog's message."""
    open_notebook(server, page, name).locator(".validate-button").get_by_text("Validate", exact=True).click()
    return results(page)


def close(page):
    page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=WAIT_MS)


def test_success_lists_the_checks_only_grading_decides(lab):
    server, page, folder = lab
    expected = graded_only(folder / "passes.ipynb")
    assert len(expected) == 3, "the notebook should have three marker lines in grade cells"
    message = validate(server, page, "passes.ipynb")
    assert "validation-success" in message.get_attribute("class")
    notice = message.locator(NOTICE)
    assert notice.locator("p").inner_text().startswith("Validate ran the checks written in this notebook.")
    assert notice.locator("li").all_inner_texts() == expected
    assert notice.locator("b").count() == 0, "markup in the notebook must be shown as text"
    assert "Success! Your notebook passes all the tests." in message.inner_text()
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    close(page)
    # by now JupyterLab has long restored its page: the question would be up, were it asked
    assert page.get_by_text("official Jupyter news").count() == 0


def test_failure_is_left_as_nbgrader_shows_it(lab):
    server, page, _ = lab
    message = validate(server, page, "fails.ipynb")
    assert "validation-failed" in message.get_attribute("class")
    assert "The following cell failed" in message.inner_text()
    assert message.locator(NOTICE).count() == 0
    close(page)


def test_validate_in_the_assignments_tab_says_it_in_general(lab):
    """That Validate does not say which notebook it validated: the notice must not name any notebook's checks."""
    server, page, folder = lab
    open_notebook(server, page, "fails.ipynb")  # a notebook in front, not the one validated
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    page.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # The list arrives from the server after the tab opens, JupyterLab may still bring the restored notebook to the
    # front, and the list may be drawn again (collapsed): until a click on Validate lands, bring the Assignments tab
    # to the front, open ps1's notebooks and press Validate, each step given a few seconds (a loaded machine is slow).
    tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="Assignments")
    assignments = page.locator("#nbgrader-assignment-list")
    link = assignments.locator(".assignment-notebooks-link", has_text="ps1")
    button = assignments.get_by_role("button", name="Validate", exact=True)
    for _ in range(WAIT_MS // 5_000):
        try:
            tab.click(timeout=5_000)
            if not button.is_visible():
                link.click(timeout=5_000)
            button.click(timeout=5_000)
            break
        except PlaywrightTimeout:
            continue
    else:
        raise AssertionError("the Assignments tab never showed ps1's Validate button long enough to press it")
    message = results(page)
    assert "validation-success" in message.get_attribute("class")
    notice = message.locator(NOTICE).inner_text()
    assert notice.startswith("Validate ran the checks written in the notebook. Some checks are also decided only")
    assert MARKER in notice
    assert not any(line.split(":")[0] in notice for line in graded_only(folder / "passes.ipynb"))
    close(page)
