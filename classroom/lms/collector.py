"""LmsCollector: nbgrader's zip_collect collector seam (c.ZipCollectApp.collector_plugin) for LMS downloads.

nbgrader's FileNameCollectorPlugin matches one regular expression the instructor writes and trusts what it gives.
LmsCollector decides once, over every file SafeExtractor unpacked, where each one goes:

  - its name: c.LmsCollector.named_regexp (nbgrader's own option) first, matched as nbgrader matches it, at the start
    of the file's path (nbgrader's own `_match`), so a pattern written for nbgrader places the same students; else
    Canvas's or Moodle's naming of the member in its zip (classroom.lms.member_names);
  - the student, by the roster (classroom.lms.roster): the LMS's id to an nbgrader id, checked as collect checks it;
  - the notebook, by its content: the released notebook of this assignment whose graded cells it shares (so a
    renamed copy still lands as score_gradient.ipynb, and another assignment's notebook is refused); with no released
    notebook to compare with, by its name, as nbgrader does;
  - the time: a pattern's timestamp group (none without it, as with nbgrader); Canvas's and Moodle's, the zip
    member's date (Moodle: when the file was uploaded; Canvas dates its members when it makes the zip, so a Canvas
    file that Canvas does not mark LATE gets at most the due date in the gradebook); a notebook put in archive/ on
    its own, none;
  - one file per student and notebook: of Canvas's re-uploads (-1, -2) the latest; of files a pattern dates, the
    latest; any other two files for one student and notebook are both refused, for the instructor to choose.

collect() answers nbgrader's ZipCollectApp for one file: where it goes ({student_id, file_id[, timestamp]}) or None;
`placed` and `refused` keep the decisions for the report (classroom.lms.collect_zip).
"""
import datetime
import glob
import json
import os
import re
from dataclasses import dataclass, replace

from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

from .. import cells, intake
from ..nbgrader_seams import collect_path, match_at_start
from . import member_names
from .extractor import Origin
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
    timestamp: datetime.datetime  # naive UTC, as nbgrader keeps times; None when nothing says when
    archive: str = ""  # the zip the file came from ("" for a notebook put in archive/ on its own)


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
        found = {"student_id": placed.student_id, "file_id": placed.notebook}
        if placed.timestamp is not None:
            found["timestamp"] = placed.timestamp.strftime("%Y-%m-%d %H:%M:%S.%f UTC")
        return found

    def decide(self, root):
        """Decide every file under `root`: self.placed (one per student and notebook) and self.refused."""
        if problem := pattern_problem(self.named_regexp, matched=False):
            self.parent.fail(problem)
        coursedir = self.parent.coursedir
        release = coursedir.format_path(coursedir.release_directory, ".", coursedir.assignment_id)
        released = released_ids(release)
        if not released:
            self.log.warning("No released notebooks of %s in %s: each notebook is placed under its own name, as "
                             "nbgrader does", coursedir.assignment_id, release)
        roster, why_no_roster = self.roster()
        origins = getattr(getattr(self.parent, "extractor_plugin_inst", None), "origins", {})
        candidates = []
        for path in unpacked(root):
            path = os.path.abspath(path)
            origin = origins.get(path) or Origin("", os.path.relpath(path, root).replace(os.sep, "/"))
            found = self.candidate(origin, path, roster, why_no_roster, released)
            if isinstance(found, Refusal):
                self.refuse(replace(found, archive=origin.archive))
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

    def candidate(self, origin, path, roster, why_no_roster, released):
        member = origin.member
        groups = match_at_start(self, path) if self.named_regexp else None  # nbgrader's own matching
        if groups and (problem := pattern_problem(self.named_regexp, matched=True)):
            self.parent.fail(problem)  # nbgrader too stops when its pattern matched but names no student
        info = (member_names.from_pattern(groups) if groups else None) or member_names.parse(member)
        if info is None:
            return Refusal(member, "unknown_pattern")
        lms = info.lms.capitalize() if info.lms != "pattern" else "LMS"
        if info.is_student_id:
            student_id = info.lms_id
            try:
                intake.require_plain_id(student_id)
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
        try:
            when = file_time(origin, info)
        except ValueError:
            return Refusal(member, "bad_timestamp", detail=info.timestamp)
        return Placed(member, path, info, student_id, notebook, when, origin.archive)

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
                # nbgrader's own log line for the same case (zipcollectapp), which its users and tests look for
                self.log.warning("Replacing previously collected submission file with one that has a newer timestamp")
            kept.append(order[-1])
        return kept

    def canvas_times(self, placed):
        """Canvas dates zip members when it makes the zip: a file it does not call LATE gets at most the due date."""
        on_time = [p for p in placed if p.info.lms == "canvas" and not p.info.late and p.timestamp is not None]
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


def _newness(placed):
    """What makes one file of a student's later than another: Canvas's re-upload number, then a pattern's time."""
    return placed.info.revision, placed.timestamp if placed.info.timestamp else datetime.datetime.min


def pattern_problem(named_regexp, matched):
    """Why c.LmsCollector.named_regexp cannot place a file, or None (also when there is none): it is not a regular
    expression; or, once it `matched` a file's path, it lacks a group that says whose file it is and which."""
    if not named_regexp:
        return None
    where = f"c.LmsCollector.named_regexp (nbgrader's FileNameCollectorPlugin.named_regexp) {named_regexp!r}"
    try:
        groups = re.compile(named_regexp).groupindex
    except re.error as error:
        return f"{where} is not a regular expression: {error}"
    if matched and ("file_id" not in groups or not {"student_id", "lms_id"} & set(groups)):
        return (f"{where} needs a (?P<student_id>...) group (or (?P<lms_id>...), an id of the roster's) and a "
                "(?P<file_id>...) group")
    return None


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
    it, and flags it), and so does any notebook when nothing is released to compare with; "" if it is neither; None
    if it is not a notebook at all. Its name is `file`'s with the notebook's extension (a pattern's file_id may have
    none, as in nbgrader)."""
    data = intake.read_regular(path)
    try:
        nb = json.loads(data)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return None
    named = os.path.splitext(os.path.basename(file))[0] + ".ipynb"
    if not released:
        return named
    ids = set(grade_ids(nb))
    scores = {name: len(ids & wanted) for name, wanted in released.items()}
    best = max(scores.values(), default=0)
    if best == 0:
        return named if not ids and named in released else ""
    return named if scores.get(named) == best else min(name for name, n in scores.items() if n == best)


def file_time(origin, info):
    """The submission time of one file, naive UTC, or None: a pattern's timestamp group, read as nbgrader reads
    times (and Blackboard's 2016-01-30-15-00-00, which nbgrader misreads), ValueError if it is no time; no time for
    a pattern without that group, as with nbgrader; else the zip member's date (SafeExtractor's `origin`)."""
    if info.timestamp:
        from nbgrader.utils import parse_utc

        try:
            return parse_utc(DASHED.sub(r"\1 \2:\3:\4", info.timestamp))
        except OverflowError:
            raise ValueError(info.timestamp) from None
    return None if info.lms == "pattern" else origin.when
