"""`nbgrader collect` (and the formgrader's Collect button) reading each hand-in as untrusted: classroom.intake.

nbgrader's own collect copies `inbound/<student>+<assignment>+<timestamp>[+<random>]/` with shutil.copytree as the
instructor, following whatever the student put there. SafeCollect, enabled in nbgrader_config.py with
`c.ExchangeFactory.collect = "classroom.plugins.exchange_collect.SafeCollect"`, changes three things and keeps the rest (which
submission is the latest, --update, --before-duedate, the owner check, group sharing):

  - a folder whose student id is not plain (classroom.intake.check_student_id), whose name holds no readable
    timestamp, or which is not a folder at all (a symbolic link, say) is not collected: an error names the folder and
    the reason, and the other submissions are collected;
  - the copy is classroom.intake.copy_submission: regular files only, within the caps below; a warning names every
    entry dropped and why;
  - too large a submission loses the files past the cap instead of stopping the whole collect;
  - when a hand-in was refused, collect ends with an error naming them, and exits non-zero.
"""
import datetime
import os
import stat

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import parse_utc
from traitlets import Integer

from .. import intake


class SafeCollect(ExchangeCollect):
    max_file_bytes = Integer(intake.MAX_FILE_BYTES, help="Largest file collected from a submission, in bytes (also "
                             "capped by CourseDirectory.max_file_size).").tag(config=True)
    max_total_bytes = Integer(intake.MAX_TOTAL_BYTES, help="Most bytes collected from one submission (also capped "
                              "by CourseDirectory.max_dir_size).").tag(config=True)
    max_files = Integer(intake.MAX_FILES, help="Most files collected from one submission.").tag(config=True)

    def _path_to_record(self, path):
        """nbgrader's record of an inbound folder; a refused folder gets a record of its own (never the latest of a
        real student's), marked `refused`, and an error in the log."""
        folder = os.path.basename(path)
        parts = folder.rsplit("+", 3)
        try:
            if len(parts) < 3:
                raise intake.BadSubmission("its name is not <student id>+<assignment>+<timestamp>")
            intake.check_student_id(parts[0])
            timestamp = _timestamp(parts[2])
            _check_folder(path)
        except intake.BadSubmission as refusal:
            self.log.error("Not collected: %r in %s: %s", folder, os.path.dirname(path), refusal)
            return {"username": ("refused", folder), "filename": folder, "timestamp": datetime.datetime.min,
                    "refused": str(refusal)}
        return {"username": parts[0], "filename": folder, "timestamp": timestamp}

    def copy_files(self):
        refused = [record["filename"] for record in self.src_records if "refused" in record]
        self.src_records = [record for record in self.src_records if "refused" not in record]
        super().copy_files()
        if refused:  # the others are collected; the command still ends in an error (the formgrader shows it)
            self.fail(f"{len(refused)} hand-ins were not collected ({', '.join(map(repr, refused))}): see why above")

    def do_copy(self, src, dest, log=None):
        """Copy one submission with classroom.intake.copy_submission; log what was dropped."""
        folder = os.path.basename(src)
        try:
            dropped = intake.copy_submission(
                src, dest, ignore=self.coursedir.ignore, include=self.coursedir.include, max_files=self.max_files,
                max_file_bytes=min(self.max_file_bytes, 1000 * self.coursedir.max_file_size),
                max_total_bytes=min(self.max_total_bytes, 1000 * self.coursedir.max_dir_size))
        except intake.BadSubmission as refusal:
            self.log.error("Not collected: %r: %s", folder, refusal)
            return
        for name, why in dropped:
            self.log.warning("Dropped from %r (not collected): %r, %s", folder, name, why)
        if dropped:
            self.log.warning("%d entries of %r were not collected; the rest is in %s", len(dropped), folder, dest)
        if self.coursedir.groupshared:
            _share_with_group(dest)


def _timestamp(text):
    try:
        return parse_utc(text)
    except (ValueError, OverflowError) as error:
        raise intake.BadSubmission(f"its timestamp {text!r} cannot be read ({error})") from None


def _check_folder(path):
    """Refuse before anything is replaced: nbgrader deletes the collected copy before copying an update."""
    mode = os.lstat(path).st_mode
    if not stat.S_ISDIR(mode):
        raise intake.BadSubmission(f"it is {intake.kind(mode)}, not a folder: nothing was read from it")


def _share_with_group(dest):
    """What nbgrader's copy does under CourseDirectory.groupshared: folders ug+rwx and setgid, files ug+rw."""
    for folder, _, files in os.walk(dest):
        os.chmod(folder, (os.stat(folder).st_mode | 0o2770) & 0o2777)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, (os.stat(path).st_mode | 0o660) & 0o777)
