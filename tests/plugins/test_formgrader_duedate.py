"""classroom.plugins.formgrader_duedate: the formgrader's due-date field refuses a local time that does not exist or
happens twice (a daylight-saving change) with the sentence the command line prints, not HTTP 500; the server
extension answers the formgrader's route first. The handler's refusal is called as the formgrader's PUT calls it, with
the two fields the page sends, on nbgrader's gradebook API."""
import datetime
import logging
import shutil
import sys
from types import SimpleNamespace

import pytest

from classroom.decisions import dates
from classroom import nbgrader_seams
from classroom.plugins import formgrader_autograde, formgrader_duedate
from coursekit.trial_course import COURSE_ID

FIELDS = [("2026-03-08T02:30", "America/New_York", "does not exist"),  # the clocks jump over it
          ("2026-11-01T01:30", "America/New_York", "happens twice")]   # the clocks go back over it


def command_line_sentence(written):
    """What `nbgrader db assignment add --duedate=...` prints after "[nbgrader] ERROR: " for `written`."""
    with pytest.raises(dates.DueDateError) as refused:
        dates.parse_utc(written)
    return f"nothing was changed: {refused.value}"


@pytest.fixture
def gradebook(monkeypatch, tmp_path, empty_gradebook):
    import nbgrader.utils
    from nbgrader.api import Gradebook

    monkeypatch.setattr(nbgrader.utils, "parse_utc", nbgrader.utils.parse_utc)  # put back afterwards
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    # as the course's nbgrader_config.py does in the server
    nbgrader_seams.read_due_dates_strictly(dates.parse_utc, dates.DueDateError)
    shutil.copyfile(empty_gradebook, tmp_path / "gradebook.db")
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", COURSE_ID) as gb:
        gb.add_assignment("ps1", duedate="2026-12-01 09:05:00 -0500")
        yield gb


@pytest.mark.parametrize("date, zone, why", FIELDS)
def test_a_time_the_clocks_skip_or_repeat_is_refused_with_the_command_lines_sentence(gradebook, date, zone, why):
    said = formgrader_duedate.refusal(gradebook, "ps1", {"duedate_notimezone": date, "duedate_timezone": zone})
    assert said == command_line_sentence(f"{date} {zone}") and why in said
    assert gradebook.find_assignment("ps1").duedate == datetime.datetime(2026, 12, 1, 14, 5)  # nothing changed


def test_a_time_that_exists_once_is_taken(gradebook):
    fields = {"duedate_notimezone": "2026-11-01T03:30", "duedate_timezone": "America/New_York"}
    assert formgrader_duedate.refusal(gradebook, "ps1", fields) is None
    assert gradebook.find_assignment("ps1").duedate == datetime.datetime(2026, 11, 1, 8, 30)


def test_the_formgrader_serves_the_field_at_the_route_the_extension_answers_first():
    from nbgrader.server_extensions.formgrader import apihandlers
    from tornado import httputil, web

    assert (formgrader_duedate.ROUTE, apihandlers.AssignmentHandler) in apihandlers.default_handlers
    app = web.Application([(formgrader_duedate.ROUTE, apihandlers.AssignmentHandler)], base_url="/")
    formgrader_autograde._load_jupyter_server_extension(SimpleNamespace(web_app=app, log=logging.getLogger("t")))
    request = httputil.HTTPServerRequest(method="PUT", uri="/formgrader/api/assignment/ps1",
                                         headers=httputil.HTTPHeaders(Host="localhost"))
    answering = app.find_handler(request).handler_class
    assert issubclass(answering, apihandlers.AssignmentHandler) and answering is not apihandlers.AssignmentHandler
    assert answering.__module__ == formgrader_duedate.__name__
