"""Every reason a file of an LMS download is not placed in submitted/, as data (a kind and its details), and the
sentence an instructor reads for each, made once here
(classroom.lms.collect_zip prints them; the tests decide on kinds).
"""
from dataclasses import dataclass

SENTENCES = {
    # the zip itself (classroom.lms.safezip)
    "unsafe_name": "its name {detail}: a name in the zip may not leave the folder it is extracted to",
    "link": "it is a symbolic link (or another special file), not a file",
    "too_large": "it unpacks to more than {limit}",
    "zip_bomb": "it is compressed more than {limit} times (a zip bomb): not unpacked",
    "too_many": "the zip holds more than {limit} members: the rest was not read",
    "too_much": "the zip unpacks to more than {limit} in all: the rest was not read",
    "duplicate_member": "a second file with the same name and folder",
    "unreadable": "it could not be read ({detail})",
    "not_notebook": "it is not a notebook (only .ipynb files are collected: from the zips in archive/, or put "
                    "there on their own)",
    # what the file is (classroom.lms.member_names, roster, collector)
    "unknown_pattern": "its name follows neither Canvas's nor Moodle's naming, nor c.LmsCollector.named_regexp",
    "unknown_lms_id": "the {lms} id {detail} is not in the roster ({limit})",
    "bad_student_id": "the roster's student id for {lms} id {detail} cannot be used: {limit}",
    "not_json": "it is not a readable notebook (not JSON with cells)",
    "bad_timestamp": "its time {detail!r} (c.LmsCollector.named_regexp's timestamp group) is not a date and time",
    "not_this_assignment": "it is not a notebook of this assignment: none of its graded cells is one of {detail}",
    "two_files": "{detail} handed in more than one file for {limit}: none of them was placed (choose one, collect "
                 "again)",
    "superseded": "an earlier submission of {detail}: the latest ({limit}) was placed",
}


@dataclass(frozen=True)
class Refusal:
    """One file not placed: the member's name in its zip (or its path under archive/), the kind (a key of SENTENCES),
    what fills it in, and the zip it is a member of ("" for a file in archive/ on its own, or a zip itself)."""
    member: str
    kind: str
    detail: str = ""
    limit: str = ""
    lms: str = "LMS"
    archive: str = ""

    def sentence(self):
        return SENTENCES[self.kind].format(detail=self.detail, limit=self.limit, lms=self.lms)

    def __str__(self):
        where = f" in {self.archive}" if self.archive else ""
        return f"{self.member!r}{where}: {self.sentence()}"


class Refusing:
    """What LmsCollector and SafeExtractor share: `refused`, every file not placed (a Refusal), each logged."""

    def refuse(self, refusal):
        self.log.warning("Not collected: %s", refusal)
        self.refused.append(refusal)
