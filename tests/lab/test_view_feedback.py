"""nbgrader's "(view feedback)" in the Assignments tab runs the file browser's go-to-path command on the hand-in's
feedback folder, <assignment>/feedback/<timestamp>; the course's JupyterLab extension (lab/validate-notice) then
opens each feedback page there in JupyterLab's HTML viewer. The command is run here as that link runs it (through
the page's JupyterLab application, exposed for the test), with the path nbgrader's list gives."""
from coursekit.real_parts.browser import Server, chromium
from coursekit.parts import requires
from coursekit.real_parts.waiting import WAIT_MS

pytestmark = requires("browser")

FEEDBACK = "ps1/feedback/2026-12-03 06:00:00.123456 UTC"  # as nbgrader's list names a hand-in's feedback folder
PAGES = {"passes.html": "Feedback on passes", "quiz.html": "Feedback on the quiz"}
GO_TO = "path => window.jupyterapp.commands.execute('filebrowser:go-to-path', {path})"
TABS = "#jp-main-dock-panel .lm-TabBar-tab"


def test_view_feedback_opens_each_page_of_the_feedback_folder_and_nothing_for_another_folder(tmp_path):
    page_file = tmp_path / "notes.ipynb"
    page_file.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    with Server("lab", notebook=page_file, lab_args=["--LabApp.expose_app_in_browser=True"]) as server, \
            chromium() as page:
        for name, text in PAGES.items():
            (server.folder / FEEDBACK).mkdir(parents=True, exist_ok=True)
            (server.folder / FEEDBACK / name).write_text(f"<!DOCTYPE html><html><body><h1>{text}</h1></body></html>")
        (server.folder / "ps1" / "other").mkdir()
        (server.folder / "ps1" / "other" / "kept.html").write_text("<p>not feedback</p>")
        page.goto(server.url(), wait_until="commit", timeout=WAIT_MS)
        page.locator(TABS, has_text="notes.ipynb").wait_for(timeout=WAIT_MS)
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands.hasCommand("
                               "'filebrowser:go-to-path')", timeout=WAIT_MS)
        page.evaluate(GO_TO, "ps1/other")
        page.evaluate(GO_TO, FEEDBACK)
        for name in PAGES:
            page.locator(TABS, has_text=name).wait_for(timeout=WAIT_MS)
        page.locator(".jp-HTMLViewer iframe").nth(len(PAGES) - 1).wait_for(state="attached", timeout=WAIT_MS)
        viewers = [page.frame_locator(".jp-HTMLViewer iframe").nth(i) for i in range(len(PAGES))]
        shown = {viewer.locator("h1").text_content(timeout=WAIT_MS) for viewer in viewers}
        assert shown == set(PAGES.values())
        assert page.locator(TABS, has_text="kept.html").count() == 0
