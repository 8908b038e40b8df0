"""`nbgrader release_feedback` (and the formgrader's Release Feedback) releasing only pages of the current grade.

nbgrader's own release copies every page in feedback/ to the exchange, whatever happened since it was made: after a
re-grade, or a score changed by hand, without `make feedback`, the student fetches the old page. And it stops at the
first hand-in without `timestamp.txt` or `submission_secret.txt` (a FileNotFoundError), so the students after it get
nothing. SafeReleaseFeedback, enabled in nbgrader_config.py with `c.ExchangeFactory.release_feedback =
"classroom.plugins.release_feedback.SafeReleaseFeedback"`, keeps nbgrader's release (the file name in the exchange,
made from the submission's secret; --student, student_id_exclude; the atomic copy) and changes this:

  - a page is released only if it shows the current grade: the stamp the page carries (written when it was made,
    classroom.grading.record.stamp) is the one the course now holds. A stale page, a page made before stamps, or the
    page of a dropped student is not released, with an error naming it and what to do;
  - a hand-in without `timestamp.txt` is released all the same; one without `submission_secret.txt` (not handed in
    with `nbgrader submit`: the LMS route, a folder put in by hand) cannot be found by the student's fetch, so it is
    not released, with an error that says so;
  - one page that cannot be released never stops the others; at the end, if any was not released, the command says
    which and exits 1 (the formgrader shows it as an error).
"""
import glob
import os
import re
import shutil

from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
from nbgrader.utils import notebook_hash

from .. import decisions
from ..grading import record

STAMP_TAG = re.compile(rb'<meta\b[^>]*\bname="classroom-grading"[^>]*>')  # the page is re-serialized after the
CONTENT = re.compile(rb'\bcontent="([0-9a-f]+)"')                           # template: attributes in any order


def page_stamp(html_file):
    """The stamp a feedback page was made with, or None (a page made before stamps, or not by this course)."""
    with open(html_file, "rb") as handle:
        tag = STAMP_TAG.search(handle.read(16384))  # it is in the page's head
    found = CONTENT.search(tag.group(0)) if tag else None
    return found.group(1).decode() if found else None


class SafeReleaseFeedback(ExchangeReleaseFeedback):

    def copy_files(self):
        from nbgrader.api import Gradebook

        exclude = set(self.coursedir.student_id_exclude.split(",")) if self.coursedir.student_id_exclude else set()
        pattern = re.compile(re.escape(os.path.sep).join([
            self.coursedir.format_path(self.coursedir.feedback_directory, "(?P<student_id>[^/]*)",
                                       self.coursedir.assignment_id, escape=True), "(?P<notebook_id>[^/]*).html"]))
        dropped = decisions.dropped(decisions.read(self.coursedir.root))
        released, held = 0, []
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            for html_file in sorted(glob.glob(os.path.join(self.src_path, "*.html"))):
                match = pattern.fullmatch(html_file)
                if match is None:
                    self.log.error("Not released: %s is not a feedback page of this course's layout", html_file)
                    held.append(html_file)
                    continue
                student, notebook = match.group("student_id"), match.group("notebook_id")
                if student in exclude:
                    continue
                why = self._why_not(gb, html_file, student, notebook, dropped)
                if why:
                    self.log.error("Not released: the feedback of %s on %s: %s", student, notebook, why)
                    held.append(f"{student}/{notebook}")
                    continue
                self._release(html_file, student, notebook)
                released += 1
        self.log.info("Released %d feedback pages", released)
        if held:
            self.fail(f"{len(held)} feedback pages were not released ({', '.join(held[:20])}"
                      f"{', ...' if len(held) > 20 else ''}): see why above; the others were released")

    def _why_not(self, gb, html_file, student, notebook, dropped):
        """Why this page may not be released, or None."""
        if student in dropped:
            return "the student was dropped from the course (`make decisions`)"
        folder = os.path.dirname(html_file)
        if not os.path.isfile(os.path.join(folder, "submission_secret.txt")):
            return ("it was not handed in with `nbgrader submit` (no submission_secret.txt), so the student's "
                    "fetch_feedback cannot find it: send the page another way (the LMS route: make lms-feedback)")
        graded = self.coursedir.format_path(self.coursedir.autograded_directory, student, self.coursedir.assignment_id)
        current = record.stamp(gb, self.coursedir.assignment_id, student, notebook, graded)
        made = page_stamp(html_file)
        if made is None or made != current:
            return ("the page is stale: it does not show the current grade (graded again, or a score changed by hand, "
                    "since it was made). Run `make feedback`, then release again")
        return None

    def _release(self, html_file, student, notebook):
        """nbgrader's copy of one page into the exchange (named from the submission's secret), atomically."""
        folder = os.path.dirname(html_file)
        try:
            with open(os.path.join(folder, "timestamp.txt")) as handle:
                timestamp = handle.read().strip()
        except OSError:
            timestamp = "no timestamp.txt"
        with open(os.path.join(folder, "submission_secret.txt")) as handle:
            secret = handle.read()
        checksum = notebook_hash(secret=secret, notebook_id=notebook)
        part, dest = (os.path.join(self.dest_path, f"{checksum}{end}") for end in ("-tmp.html", ".html"))
        self.log.info("Releasing feedback for student '%s' on assignment '%s/%s/%s' (%s)", student,
                      self.coursedir.course_id, self.coursedir.assignment_id, notebook, timestamp)
        shutil.copy(html_file, part)
        shutil.move(part, dest)
        self.log.info("Feedback released to: %s", dest)
