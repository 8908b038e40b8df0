"""LmsCollector: nbgrader's zip_collect collector seam (c.ZipCollectApp.collector_plugin) for LMS downloads.

nbgrader's FileNameCollectorPlugin matches one regular expression the instructor writes and trusts what it gives.
LmsCollector decides once, over every file SafeExtractor unpacked, where each one goes:

  - its name, by classroom.lms.member_names (Canvas, Moodle, or c.LmsCollector.named_regexp, nbgrader's own option);
  - the student, by the roster (classroom.lms.roster): the LMS's id to an nbgrader id, checked as collect checks it;
  - the notebook, by its content: the released notebook of this assignment whose graded cells it shares (so a
    renamed copy still lands as score_gradient.ipynb, and another assignment's notebook is refused);
  - the time: the zip member's date (Moodle: when the file was uploaded). Canvas dates its members when it makes the
    zip, so a Canvas file that Canvas does not mark LATE gets at most the due date in the gradebook;
  - one file per student and notebook: of Canvas's re-uploads (-1, -2) the latest; of files a pattern dates, the
    latest; any other two files for one student and notebook are both refused, for the instructor to choose.

collect() answers nbgrader's ZipCollectApp for one file: where it goes ({student_id, file_id, timestamp}) or None;
`placed` and `refused` keep the decisions for the report (classroom.lms.collect_zip).
"""
import datetime
import glob
import json
import os
import re
from dataclasses import dataclass

from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

from .. import cells, intake
from . import member_names
from .refusals import Refusal, Refusing
from .roster import LmsRoster, RosterError

DASHED = re.compile(r"^(\d{4}-\d\d-\d\d)-(\d\d)-(\d\d)-(\d\d)$")


@dataclass
class Placed:
    member: str
    path: str
    info: member_names.Member
    student_id: str
    notebook: str
    timestamp: datetime.datetime  # naive UTC, as nbgrader keeps times


class LmsCollector(Refusing, FileNameCollectorPlugin):

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.placed, self.refused, self._plan = [], [], None

    def collect(self, submitted_file):
        if self._plan is None:
            root = collect_path(self.parent, self.parent.extracted_directory)
            self._plan = {p.path: p for p in self.decide(root)}
        placed = self._plan.get(os.path.abspath(submitted_file))
        if placed is None:
            return None
        return {"student_id": placed.student_id, "file_id": placed.notebook,
                "timestamp": placed.timestamp.strftime("%Y-%m-%d %H:%M:%S.%f UTC")}

    def decide(self, root):
        """Decide every file under `root`: self.placed (one per student and notebook) and self.refused."""
        coursedir = self.parent.coursedir
        released = released_ids(coursedir.format_path(coursedir.release_directory, ".", coursedir.assignment_id))
        roster, why_no_roster = self.roster()
        pattern = re.compile(self.named_regexp) if self.named_regexp else None
        candidates = []
        for path in unpacked(root):
            member = os.path.relpath(path, root).replace(os.sep, "/")
            found = self.candidate(member, os.path.abspath(path), pattern, roster, why_no_roster, released)
            if isinstance(found, Refusal):
                self.refuse(found)
            else:
                candidates.append(found)
        self.placed = self.latest(candidates)
        self.placed = self.canvas_times(self.placed)
        return self.placed

    def roster(self):
        try:
            return LmsRoster(parent=self).read(), ""
        except RosterError as error:
            return None, str(error)

    def candidate(self, member, path, pattern, roster, why_no_roster, released):
        info = member_names.parse(member, pattern)
        if info is None:
            return Refusal(member, "unknown_pattern")
        lms = info.lms.capitalize() if info.lms != "pattern" else "LMS"
        if info.is_student_id:
            student_id = info.lms_id
            try:
                intake.check_student_id(student_id)
            except intake.BadSubmission as error:
                return Refusal(member, "bad_student_id", detail=repr(info.lms_id), limit=str(error).split(";")[0],
                               lms=lms)
        elif roster is None or info.lms_id not in roster.students:
            return Refusal(member, "unknown_lms_id", detail=info.lms_id,
                           limit=why_no_roster or roster.path, lms=lms)
        elif roster.students[info.lms_id].refusal:
            return Refusal(member, "bad_student_id", detail=info.lms_id,
                           limit=roster.students[info.lms_id].refusal, lms=lms)
        else:
            student_id = roster.students[info.lms_id].student_id
        notebook = which_notebook(path, info.file, released)
        if notebook is None:
            return Refusal(member, "not_json")
        if not notebook:
            return Refusal(member, "not_this_assignment", detail=", ".join(sorted(released)))
        return Placed(member, path, info, student_id, notebook, file_time(path, info))

    def latest(self, candidates):
        """One candidate per student and notebook: the unique latest by (re-upload number, a pattern's time)."""
        groups = {}
        for item in candidates:
            groups.setdefault((item.student_id, item.notebook), []).append(item)
        kept = []
        for (student, notebook), items in sorted(groups.items()):
            order = sorted(items, key=_newness)
            if len(items) > 1 and _newness(order[-1]) == _newness(order[-2]):
                for item in items:
                    self.refuse(Refusal(item.member, "two_files", detail=student, limit=notebook))
                continue
            for item in order[:-1]:
                self.refuse(Refusal(item.member, "superseded", detail=student, limit=order[-1].member))
            kept.append(order[-1])
        return kept

    def canvas_times(self, placed):
        """Canvas dates zip members when it makes the zip: a file it does not call LATE gets at most the due date."""
        on_time = [p for p in placed if p.info.lms == "canvas" and not p.info.late]
        duedate = self.duedate() if on_time else None
        for item in on_time:
            if duedate is not None and item.timestamp > duedate:
                item.timestamp = duedate
        return placed

    def duedate(self):
        from nbgrader.api import Gradebook, MissingEntry

        coursedir = self.parent.coursedir
        try:
            with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
                return gb.find_assignment(coursedir.assignment_id).duedate
        except MissingEntry:
            return None


def collect_path(app, step):
    """The folder of one step of nbgrader's zip_collect (`app` a ZipCollectApp; `step` its archive_directory,
    extracted_directory, or a file name beside them): downloaded/<assignment>/<step>, as the course's
    c.ZipCollectApp.collect_directory_structure lays it out. The one place that calls nbgrader's private
    ZipCollectApp._format_collect_path, which every step of zip_collect uses: what it gives is where nbgrader looks."""
    return app._format_collect_path(step)


def _newness(placed):
    """What makes one file of a student's later than another: Canvas's re-upload number, then a pattern's time."""
    return placed.info.revision, placed.timestamp if placed.info.timestamp else datetime.datetime.min


def unpacked(root):
    """Every regular file under `root`, hidden ones too, as ZipCollectApp walks them; sorted."""
    found = []
    for folder, _, files in os.walk(root):
        found += [os.path.join(folder, name) for name in files if not os.path.islink(os.path.join(folder, name))]
    return sorted(found)


def released_ids(folder):
    """{notebook file name: set of its nbgrader cell ids} of the released assignment."""
    found = {}
    for path in sorted(glob.glob(os.path.join(glob.escape(folder), "*.ipynb"))):
        with open(path, encoding="utf-8") as handle:
            found[os.path.basename(path)] = set(grade_ids(json.load(handle)))
    return found


def grade_ids(nb):
    return [cells.grade_id(c) for c in nb.get("cells", []) if isinstance(c, dict) and cells.grade_id(c)]


def which_notebook(path, file, released):
    """The released notebook the file at `path` is a copy of: the one sharing most nbgrader cell ids with it (its
    own file name first on a tie); a notebook with no nbgrader cell left at all goes by its name (grading repairs
    it, and flags it); "" if it is neither; None if it is not a notebook at all."""
    data = intake.read_regular(path)
    try:
        nb = json.loads(data)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return None
    ids = set(grade_ids(nb))
    scores = {name: len(ids & wanted) for name, wanted in released.items()}
    best = max(scores.values(), default=0)
    named = os.path.basename(file)
    if best == 0:
        return named if not ids and named in released else ""
    return named if scores.get(named) == best else min(name for name, n in scores.items() if n == best)


def file_time(path, info):
    """The submission time of one file, naive UTC: a pattern's timestamp group (read as nbgrader reads times),
    else the file's time (the zip member's date, set by SafeExtractor)."""
    if info.timestamp:
        from nbgrader.utils import parse_utc

        text = DASHED.sub(r"\1 \2:\3:\4", info.timestamp)  # Blackboard's 2016-01-30-15-00-00
        try:
            return parse_utc(text)
        except (ValueError, OverflowError):
            pass
    return datetime.datetime.fromtimestamp(os.stat(path).st_mtime, datetime.timezone.utc).replace(tzinfo=None)
