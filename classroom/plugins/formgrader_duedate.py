"""The formgrader's due-date field refuses a time it cannot read with the sentence the command line gives.

nbgrader's formgrader (Manage Assignments › Edit) puts the date and time zone fields to
/formgrader/api/assignment/ASSIGNMENT, and nbgrader's handler passes them to the gradebook, which reads every due date
through classroom.decisions.dates (classroom.nbgrader_seams.read_due_dates_strictly). A time that does not
exist or happens twice at a daylight-saving change, an unknown zone or UTC-5 is refused there, and nbgrader's handler
answered HTTP 500 with a traceback in the server's log. This handler, a subclass of nbgrader's own (its login, XSRF
and course checks; everything else as nbgrader does it), answers 400 with the sentence `nbgrader db assignment add
--duedate=...` prints: "nothing was changed: ...". The formgrader_autograde server extension puts it ahead of
nbgrader's route (classroom.nbgrader_seams.serve_first).
"""
import json

ROUTE = r"/formgrader/api/assignment/([^/]+)"


def refusal(gradebook, assignment_id, data):
    """Put the formgrader's fields `data` into the gradebook as nbgrader's handler does; the sentence that says why
    nothing was changed, or None when the due date was taken."""
    from ..decisions.dates import DueDateError

    duedate, zone = data.get("duedate_notimezone"), data.get("duedate_timezone")
    try:
        gradebook.update_or_create_assignment(assignment_id.strip(),
                                              duedate=f"{duedate} {zone}" if duedate and zone else duedate)
    except DueDateError as exc:
        gradebook.db.rollback()
        return f"nothing was changed: {exc}"
    return None


def handlers():
    from nbgrader.server_extensions.formgrader.apihandlers import AssignmentHandler
    from nbgrader.server_extensions.formgrader.base import check_notebook_dir, check_xsrf
    from tornado import web

    class DueDateHandler(AssignmentHandler):
        @web.authenticated
        @check_xsrf
        @check_notebook_dir
        def put(self, assignment_id):
            said = refusal(self.gradebook, assignment_id, self.get_json_body() or {})
            if said is None:  # taken: nbgrader's own answer (it puts the same fields in again, and replies)
                return super().put(assignment_id)
            self.set_status(400)
            self.write(json.dumps({"success": False, "error": said}))

    return [(ROUTE, DueDateHandler)]
