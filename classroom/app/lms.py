"""The LMS route's subcommands (classroom.lms; INSTRUCTORS.md, "The LMS route"): release-zip, collect-zip,
lms-grades, lms-feedback. The roster is c.LmsRoster.path (--LmsRoster.path=... on the command line)."""
from traitlets import Enum, Unicode

from ..lms.roster import LmsRoster
from .base import Command
from .instructor import assignment_trait


class ReleaseZipCommand(Command):
    """`classroom release-zip ASSIGNMENT` (classroom.lms.release_zip)."""

    description = "Write release/ASSIGNMENT/ as one deterministic zip to upload to the LMS: lms/ASSIGNMENT-release.zip."
    positional = required = ("assignment",)
    assignment = assignment_trait()

    def run(self):
        from ..lms.release_zip import release_command

        return release_command(self.coursedir, self.assignment)


class CollectZipCommand(Command):
    """`classroom collect-zip ASSIGNMENT ZIP` (classroom.lms.collect_zip)."""

    description = ("Collect an LMS's bulk download of submissions (Canvas, Moodle) into submitted/, and say what was "
                   "placed and what was not.")
    positional = required = ("assignment", "zip_path")
    assignment = assignment_trait()
    zip_path = Unicode("", help="The LMS's download of submissions (make collect-zip ZIP=...).").tag(config=False)

    extra_classes = (LmsRoster,)

    def run(self):
        from ..lms.collect_zip import collect_command

        return collect_command(self.config, self.assignment, self.zip_path)


class LmsGradesCommand(Command):
    """`classroom lms-grades ASSIGNMENT [--lms canvas|moodle]` (classroom.lms.grades)."""

    description = "The grades of ASSIGNMENT in the LMS's import CSV, lms/ASSIGNMENT-<lms>-grades.csv (CSV-safe)."
    positional = required = ("assignment",)
    assignment = assignment_trait()
    lms = Enum(["", "canvas", "moodle"], "", help="Refuse a roster of the other LMS (empty: either).").tag(
        config=True)
    roster = Unicode("", help="The roster file (empty: c.LmsRoster.path).").tag(config=True)
    aliases = {"lms": "LmsGradesCommand.lms", "roster": "LmsGradesCommand.roster"}

    extra_classes = (LmsRoster,)

    def run(self):
        from ..lms.grades import grades_command

        return grades_command(self, self.assignment, self.lms or None, self.roster or None)


class LmsFeedbackCommand(Command):
    """`classroom lms-feedback ASSIGNMENT` (classroom.lms.feedback)."""

    description = ("The feedback pages of feedback/ (after `classroom feedback`) as the LMS's bulk feedback upload, "
                   "lms/ASSIGNMENT-<lms>-feedback.zip.")
    positional = required = ("assignment",)
    assignment = assignment_trait()
    roster = Unicode("", help="The roster file (empty: c.LmsRoster.path).").tag(config=True)
    aliases = {"roster": "LmsFeedbackCommand.roster"}

    extra_classes = (LmsRoster,)

    def run(self):
        from ..lms.feedback import feedback_command

        return feedback_command(self, self.assignment, self.roster or None)
