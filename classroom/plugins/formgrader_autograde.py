"""The formgrader's Autograde button grades as `make autograde` does: sandboxed, one transaction, the same record.

nbgrader's formgrader (Manage Submissions › the Autograde icon of a student) posts to
/formgrader/api/submission/ASSIGNMENT/STUDENT/autograde, and nbgrader answers by running its own Autograde in the
server's process: no sandbox check, no course lock, no grading record (classroom.autograde). This Jupyter server
extension answers that address first (its handler is put ahead of the formgrader's, whichever loads first:
classroom.nbgrader_seams.serve_first) and runs `python -m classroom.autograde ASSIGNMENT --student=STUDENT --force` in the course directory
instead, without blocking the server meanwhile. The reply has the shape the formgrader's page expects (success, log,
error), so its Success and Error windows show the driver's own lines.

The same extension serves the formgrader's due-date field (classroom.plugins.formgrader_duedate). Enabled by
lab/jupyter_server_config.d/classroom-formgrader-autograde.json, which `make lab-setup` links into an
environment's etc/jupyter/ (the `.venv` that `make` builds gets it).
"""
import asyncio
import json
import sys

from .. import intake

ROUTE = r"/formgrader/api/submission/([^/]+)/([^/]+)/autograde"
TAG = "[classroom.plugins.formgrader_autograde]"


def command(assignment, student):
    """The command the button runs: the one behind `make autograde`, for one student, re-grading (as nbgrader's
    button does)."""
    return [sys.executable, "-m", "classroom.autograde", assignment, f"--student={student}", "--force"]


async def run(assignment, student, course_root):
    """{"success", "log"[, "error"]} of grading one student's submission, as nbgrader's API answers."""
    try:
        intake.require_plain_id(student)
    except intake.BadSubmission as exc:
        return {"success": False, "log": "", "error": f"{TAG} not graded: {exc}"}
    proc = await asyncio.create_subprocess_exec(*command(assignment, student), cwd=course_root,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await proc.communicate()
    log = output.decode(errors="replace")
    if proc.returncode == 0:
        return {"success": True, "log": log}
    return {"success": False, "log": log,
            "error": f"{TAG} make autograde for {student!r} ended with status {proc.returncode}: see the log above; "
                     "the submission keeps its previous grading"}


def handlers():
    """The one handler, a subclass of the formgrader's own API handler (its login, XSRF and course checks)."""
    from nbgrader.server_extensions.formgrader.base import BaseApiHandler, check_notebook_dir, check_xsrf
    from tornado import web

    class AutogradeHandler(BaseApiHandler):
        @web.authenticated
        @check_xsrf
        @check_notebook_dir
        async def post(self, assignment_id, student_id):
            self.write(json.dumps(await run(assignment_id, student_id, self.coursedir.root)))

    return [(ROUTE, AutogradeHandler)]


def _jupyter_server_extension_points():
    return [{"module": "classroom.plugins.formgrader_autograde"}]


def _load_jupyter_server_extension(serverapp):
    from jupyter_server.utils import url_path_join

    from ..nbgrader_seams import serve_first

    from . import formgrader_duedate

    base = serverapp.web_app.settings["base_url"]
    serve_first(serverapp.web_app, ".*$", [(url_path_join(base, route), handler)
                                           for route, handler in handlers() + formgrader_duedate.handlers()])
    serverapp.log.info(f"{TAG} the formgrader's Autograde button runs classroom.autograde; its due-date field "
                       "refuses a time it cannot read with the command line's sentence (formgrader_duedate)")
