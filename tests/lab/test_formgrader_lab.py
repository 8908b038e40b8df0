"""Nbgrader › Formgrader in the JupyterLab that `make lab` starts works on the first click, in Chromium.

On a copy of the course (nbgrader_config.py, source/, release/, notebooks/, the Makefile and tools/, .venv linked
in), with a fresh exchange configured in the copy and made by `make exchange`, and a PATH without .venv/bin (as a
newcomer's shell), the test runs `make lab`, opens Nbgrader › Formgrader once and checks, on that first load: no
"Loading, please wait..." left, score_gradient listed, no exchange banner and a Release button, and that the
assignment's name and Preview links open source/score_gradient and release/score_gradient in Lab's file browser.
Then the instructor's round in the same formgrader, with one student handing in through the exchange on the same
machine (nbgrader's command line, as that student): Generate, Release, (the student fetches and submits) Collect,
Manage Submissions › Autograde (which must be classroom.autograde's sandboxed grading, not nbgrader's in-process
one: its log and its grading record), a score changed by hand in Manual Grading (kept in the gradebook), the
written derivation read and graded by hand there (its text shown, its score saved), Generate
Feedback and Release Feedback; the student fetches the feedback, which is our page and shows that score.
Screenshots: build/formgrader.png, build/formgrader-autograde.png. The repository's own gradebook.db is never touched
(the copy gets its own).
"""
import json
import os
import shutil
import stat
import subprocess

import pytest

from coursekit import trial_course
from coursekit.real_parts.browser import chromium, make_lab
from coursekit.parts import requires
from coursekit.repository import ROOT
from coursekit.real_parts.waiting import WAIT_MS

pytestmark = requires("browser")
COURSE = ("nbgrader_config.py", "Makefile", "source", "release", "notebooks", "tools")
SHOT = ROOT / "build" / "formgrader.png"
AUTOGRADE_SHOT = ROOT / "build" / "formgrader-autograde.png"
STUDENT = "carol"
KEEP_VENV = ("-o", ".venv/.ready")  # make: the copy uses the repository's .venv as it is, never rebuilds it
DERIVATION = "derivation"  # the written answer cell, graded by hand


def copy_course(folder):
    for name in COURSE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints",
                                                                                        "__pycache__"))
        else:
            shutil.copy(ROOT / name, folder / name)
    (folder / ".venv").symlink_to(ROOT / ".venv")
    exchange = folder / "exchange"
    with open(folder / "nbgrader_config.py", "a") as config:
        config.write(f"\nc.Exchange.root = {str(exchange)!r}\n")
    return exchange


def newcomers_env(scratch):
    """The environment of a fresh shell: no .venv/bin on PATH, no user settings of Jupyter or JupyterLab."""
    venv_bin = str(ROOT / ".venv" / "bin")
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != venv_bin)
    return dict(os.environ, PATH=path, JUPYTER_CONFIG_DIR=str(scratch / "config"),
                JUPYTERLAB_SETTINGS_DIR=str(scratch / "settings"),
                JUPYTERLAB_WORKSPACES_DIR=str(scratch / "workspaces"), PYTHONUNBUFFERED="1")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("formgrader")
    folder = scratch / "course"
    folder.mkdir()
    exchange = copy_course(folder)
    env = newcomers_env(scratch)
    made = subprocess.run(["make", "--no-print-directory", *KEEP_VENV, "exchange"], cwd=folder, env=env,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    assert stat.S_IMODE(os.stat(exchange).st_mode) == 0o1777, "make exchange: not rwx for all with the sticky bit"
    return folder, env


@pytest.fixture(scope="module")
def lab(course):
    folder, env = course
    with make_lab(cwd=folder, env=env, make_args=KEEP_VENV) as (base, token):
        yield folder, base, token


def listing(page):
    """The names JupyterLab's file browser shows."""
    return page.locator(".jp-FileBrowser .jp-DirListing-itemText").all_inner_texts()


def open_in_file_browser(page, link, folder, expected):
    """Click `link` in the formgrader; Lab's file browser must show `folder` holding `expected` (and no error)."""
    link.click()
    page.wait_for_function("""([folder]) => {
        const crumbs = document.querySelector('.jp-FileBrowser .jp-BreadCrumbs');
        return crumbs && crumbs.innerText.includes(folder);
    }""", arg=[folder], timeout=WAIT_MS)
    page.wait_for_function("""([names]) => {
        const shown = [...document.querySelectorAll('.jp-FileBrowser .jp-DirListing-itemText')].map(e => e.innerText);
        return names.every(n => shown.includes(n));
    }""", arg=[sorted(expected)], timeout=WAIT_MS)
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
    return set(listing(page))


def test_the_formgrader_works_on_the_first_click(lab):
    folder, base, token = lab
    source = {p.name for p in (folder / "source" / "score_gradient").iterdir()}
    released = {p.name for p in (folder / "release" / "score_gradient").iterdir()}
    assert "grade_cells.py" in source and "grade_cells.py" not in released
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    with chromium() as page:
        page.goto(f"{base}/lab?token={token}")
        page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.click(timeout=WAIT_MS)
        page.locator(".lm-Menu-itemLabel", has_text="Formgrader").first.click()
        formgrader = page.frame_locator("iframe[src*='formgrader']")
        row = formgrader.locator("tr", has=formgrader.locator("td.name a", has_text="score_gradient")).first
        row.wait_for(timeout=WAIT_MS)
        assert formgrader.get_by_text("Loading, please wait").count() == 0
        assert formgrader.locator("#warning-exchange").count() == 0, \
            formgrader.locator("#warning-exchange").inner_text()
        assert row.locator("td.release a").count() == 1, "no Release button: the exchange is not usable"
        page.screenshot(path=str(SHOT))
        assert open_in_file_browser(page, row.locator("td.name a").first,
                                    "score_gradient", source) >= source
        shown = open_in_file_browser(page, row.locator("td.preview a").first, "release", released)
        assert "grade_cells.py" not in shown, "Preview opened source/, not release/"
    assert (folder / "gradebook.db").exists()


def modal_after(frame, click):
    """Click, then wait for the formgrader's Success or Error window and return (its id, its text)."""
    click.click()
    modal = frame.locator("#success-modal, #error-modal").first
    modal.wait_for(timeout=WAIT_MS)
    return modal.get_attribute("id"), modal.inner_text()


def close(frame):
    frame.locator(".modal.in button.close, .modal.show button.close").first.click()
    frame.locator("#success-modal, #error-modal").first.wait_for(state="detached", timeout=WAIT_MS)


def student(folder, *args):
    """nbgrader's command line as the student STUDENT runs it on this machine, from their own folder."""
    home = folder.parent / STUDENT
    home.mkdir(exist_ok=True)
    trial_course.nbgrader(*args, "--course=sqrt-dk", f"--student={STUDENT}", f"--Exchange.root={folder / 'exchange'}",
                     f"--Exchange.cache={home / '.cache'}", cwd=home)
    return home


@requires("sandbox")  # classroom.autograde refuses to grade without bubblewrap (as it should)
def test_the_instructors_round_in_the_formgrader(lab):
    folder, base, token = lab
    with chromium() as page:
        page.goto(f"{base}/formgrader?token={token}")
        row = page.locator("tr", has=page.locator("td.name a", has_text="score_gradient")).first
        for button in ("assign", "release"):  # Generate, then Release
            which, text = modal_after(page, row.locator(f"td.{button} a"))
            assert which == "success-modal", text
            close(page)
        home = student(folder, "fetch_assignment", "score_gradient")
        handed_in = trial_course.submission((trial_course.SUBMISSIONS / "correct_keepdims.py").read_text())
        (home / "score_gradient" / "score_gradient.ipynb").write_text(json.dumps(handed_in))
        student(folder, "submit", "score_gradient")
        which, text = modal_after(page, row.locator("td.collect a"))
        assert which == "success-modal" and (folder / "submitted" / STUDENT / "score_gradient").is_dir(), text
        close(page)
        page.goto(f"{base}/formgrader/manage_submissions/score_gradient")
        submission = page.locator("tr", has=page.locator("td.student-id", has_text=STUDENT)).first
        which, text = modal_after(page, submission.locator("td.autograde a"))
        page.screenshot(path=str(AUTOGRADE_SHOT))
        assert which == "success-modal", text
        assert "[classroom.autograde]" in text and "1 graded now" in text, text
        close(page)
        graded, full = trial_course.scores(folder)[STUDENT], trial_course.max_scores(folder, by_hand=True)
        automatic = {check: points for check, points in full.items() if check != DERIVATION}
        assert {check: graded.get(check) for check in automatic} == automatic, "the correct hand-in lost marks"
        assert graded[DERIVATION] == 0, "the written derivation got points before anyone read it"
        page.goto(f"{base}/formgrader/submissions/{notebook_id(folder)}")
        by_hand = page.locator(f"input.score#{trial_course.VISIBLE}[placeholder]")  # placeholder: its grade has loaded
        by_hand.wait_for(timeout=WAIT_MS)
        by_hand.fill(str(full[trial_course.VISIBLE] / 2))
        with page.expect_response(lambda r: "/formgrader/api/grade/" in r.url and r.request.method == "PUT",
                                  timeout=WAIT_MS) as saved:
            by_hand.press("Tab")
        assert saved.value.ok, saved.value.status
        assert trial_course.scores(folder)[STUDENT][trial_course.VISIBLE] == full[trial_course.VISIBLE] / 2
        # The written derivation, graded by hand as INSTRUCTORS.md's rubric says: the formgrader shows the student's
        # text (rendered) above an empty score box that needs a grade; full marks and a comment are kept.
        answer = page.locator(".cell", has=page.locator(f"input.score#{DERIVATION}")).first
        assert "averaged with the weights" in answer.inner_text(), "the formgrader does not show the written answer"
        written = page.locator(f"input.score#{DERIVATION}")
        with page.expect_response(lambda r: "/formgrader/api/grade/" in r.url and r.request.method == "PUT",
                                  timeout=WAIT_MS) as saved:
            written.fill(str(full[DERIVATION]))
            written.press("Tab")
        assert saved.value.ok, saved.value.status
        assert trial_course.scores(folder)[STUDENT][DERIVATION] == full[DERIVATION]
        page.goto(f"{base}/formgrader/manage_submissions/score_gradient")
        submission = page.locator("tr", has=page.locator("td.student-id", has_text=STUDENT)).first
        for button in ("generate-feedback", "release-feedback"):
            which, text = modal_after(page, submission.locator(f"td.{button} a"))
            assert which == "success-modal", text
            close(page)
    record = folder / "autograded" / STUDENT / "score_gradient" / ".classroom-grading.json"
    assert record.exists(), "graded by nbgrader's own Autograde, not classroom.autograde (no grading record)"
    student(folder, "fetch_feedback", "score_gradient")
    pages = list((home / "score_gradient" / "feedback").glob("*/score_gradient.html"))
    assert len(pages) == 1, pages
    page_html = pages[0].read_text()
    assert 'class="label-text"' in page_html and "<math" in page_html, "not our feedback page (classroom/templates)"
    given = sum(full.values()) - full[trial_course.VISIBLE] / 2
    assert f"Score: {full[trial_course.VISIBLE] / 2:g} / " in page_html, "the score given by hand is not in the feedback"
    assert f"{given:g} / {sum(full.values()):g}" in page_html, "the derivation's score is not in the feedback's total"


def notebook_id(folder):
    with trial_course.gradebook(folder) as gb:
        return gb.find_submission_notebook("score_gradient", "score_gradient", STUDENT).id
