"""What a member of an LMS's bulk download of submissions is, from its name alone (nothing is opened here).

Canvas (Assignments > Download Submissions) puts every file at the top of the zip, named
    <name>[_LATE]_<user id>_<attachment id>_<file name as uploaded>
e.g. `smithbob_LATE_12345_67890_score_gradient.ipynb`: <name> is the student's sortable name, lower case, without
punctuation; LATE when Canvas counts the submission late; <user id> is the "ID" column of Canvas's gradebook export.
A file uploaded again under the same name is renamed by Canvas with a suffix, `score_gradient-1.ipynb`,
`score_gradient-2.ipynb`: a larger suffix is a later upload. (Anonymous grading names files `anon_<id>`, which no
roster maps: those are reported as unknown.)

Moodle (Submissions > Download all submissions) names each student's files after
    <Full Name>_<participant id>_assignsubmission_file
either as a folder holding the files as uploaded (Moodle 3.1 onwards, the default; `..._file_/` before 4.1) or, with
"Download submissions in folders" off, as a prefix of each file name, `Ann Lee_12345_assignsubmission_file_x.ipynb`.
<participant id> is the number in the "Identifier" column ("Participant 12345") of Moodle's grading worksheet.

Any other LMS: c.LmsCollector.named_regexp in nbgrader_config.py, nbgrader's own option, with the groups
(?P<lms_id>...) or (?P<student_id>...) and (?P<file_id>...), optionally (?P<timestamp>...): matched as nbgrader matches
it, at the start of each file's path (classroom.lms.collector), its groups read by `from_pattern`.
"""
import re
from dataclasses import dataclass

CANVAS = re.compile(r"(?P<name>[^/]+?)(?P<late>_LATE)?_(?P<lms_id>\d+)_(?P<attachment>\d+)_(?P<file>[^/]+)")
MOODLE_PREFIX = re.compile(r"(?P<name>[^/_]+)_(?P<lms_id>\d+)_assignsubmission_(?P<plugin>[a-z]+)")
MOODLE = re.compile(MOODLE_PREFIX.pattern + r"(?:_?/(?P<path>.+)|_(?P<file>[^/]+))")
REVISION = re.compile(r"(?P<stem>.+?)-(?P<revision>\d+)(?P<ext>\.[^.]*)")


@dataclass(frozen=True)
class Member:
    """A member of the download, as its name says: whose (the LMS's id), which file, and what the LMS noted."""
    lms: str             # "canvas", "moodle" or "pattern"
    lms_id: str          # the LMS's id of the student (or, for a pattern with student_id, the nbgrader id)
    file: str            # the file name as the student uploaded it (a path inside a Moodle folder)
    student_name: str = ""
    late: bool = False   # Canvas's LATE mark
    revision: int = 0    # Canvas's -1, -2 suffix: a later upload of the same name
    attachment: str = ""  # Canvas's attachment id: its re-upload of feedback names it
    timestamp: str = ""  # from a pattern's timestamp group
    is_student_id: bool = False  # a pattern's student_id group: the nbgrader id itself, no roster needed


def revision(file):
    """(file name without Canvas's -N suffix, N), or (file, 0)."""
    match = REVISION.fullmatch(file)
    if not match:
        return file, 0
    return match["stem"] + match["ext"], int(match["revision"])


def from_pattern(groups):
    """The Member a match of c.LmsCollector.named_regexp gives (its groupdict), or None without a student or a
    file."""
    who = groups.get("lms_id") or groups.get("student_id")
    if not who or not groups.get("file_id"):
        return None
    return Member("pattern", who, groups["file_id"], timestamp=groups.get("timestamp") or "",
                  is_student_id=not groups.get("lms_id"))


def parse(member):
    """The Member that the zip member name `member` ('/'-separated, as stored in the zip) names by Canvas's or
    Moodle's naming, or None."""
    if match := MOODLE.fullmatch(member):
        return Member("moodle", match["lms_id"], match["path"] or match["file"], student_name=match["name"])
    if "/" not in member and (match := CANVAS.fullmatch(member)):
        file, number = revision(match["file"])
        return Member("canvas", match["lms_id"], file, student_name=match["name"], late=bool(match["late"]),
                      revision=number, attachment=match["attachment"])
    return None
