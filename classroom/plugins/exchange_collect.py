"""`nbgrader collect` (and the formgrader's Collect button) taking each hand-in as the server knows it, never as the
student wrote it: classroom.intake reads it.

nbgrader's own collect believes the folder's name (`inbound/<student>+<assignment>+<timestamp>[+<random>]/`) and
the student's `timestamp.txt`, copies the folder with shutil.copytree as the instructor, following whatever the
student put there, and stops the whole collect on the first hand-in it cannot read. SafeCollect, enabled in
nbgrader_config.py with `c.ExchangeFactory.collect = "classroom.plugins.exchange_collect.SafeCollect"`, keeps the
rest of nbgrader's collect (the latest hand-in per student, --update, --before-duedate, --student, group sharing)
and changes this:

  - who: on a server with accounts, the account that owns the hand-in folder is the proof of who handed it in. A
    folder is collected only when that account's student id (its name, or `c.SafeCollect.account_ids[name]`) is the
    id the folder's name claims; a folder of the collecting account itself is its own act and is taken too. Inside
    a hand-in, an entry another account wrote is left out. nbgrader's `c.ExchangeCollect.check_owner = False` turns
    this off, for one account shared by everyone, where the exchange can prove nothing of who handed in;
  - when: the hand-in's time is the server's, the latest ctime of the folder and of everything read in it (the
    kernel's clock at each change, which nobody but root can set back), written into submitted/…/timestamp.txt. The
    student's own timestamp.txt and the name's time are kept in the record below, and flagged when they disagree;
  - how: the copy is classroom.intake's (regular files only, within the caps below, the assignment's notebooks
    first); every entry left out is a warning with its reason;
  - what is left for the instructor: classroom.intake.RECEIPT beside each collected hand-in (who, when, what the
    student claimed, what was left out and why), read by the grader and the report;
  - the copy is writable by the instructor alone (and the instructors' group when group-shared), whatever the umask;
  - one hand-in never stops the others: a folder that cannot be taken (another's name, an id that is not plain, not
    a folder, unreadable) is refused with an error naming it and the reason, the others are collected, and collect
    ends saying the class is collected but for those, with a non-zero exit status (and in the formgrader's window).
"""
import datetime
import glob
import os
import shutil
import stat

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import check_mode, parse_utc
from traitlets import Dict, Float, Integer, Unicode

from .. import intake
from ..intake.safe_copy import account_name


class SafeCollect(ExchangeCollect):
    max_file_bytes = Integer(intake.MAX_FILE_BYTES, help="Largest file collected from a submission, in bytes (also "
                             "capped by CourseDirectory.max_file_size), except the assignment's own notebooks, which "
                             "CourseDirectory.max_file_size alone caps.").tag(config=True)
    max_total_bytes = Integer(intake.MAX_TOTAL_BYTES, help="Most bytes collected from one submission besides the "
                              "assignment's notebooks (also capped by CourseDirectory.max_dir_size).").tag(config=True)
    max_files = Integer(intake.MAX_FILES, help="Most files collected from one submission.").tag(config=True)
    account_ids = Dict(value_trait=Unicode(), key_trait=Unicode(), help="{account name: nbgrader student id} for "
                       "the accounts whose student id is not their name (by default a student's id is the name of "
                       "the account they hand in from, as `nbgrader submit` writes it).").tag(config=True)
    clock_tolerance = Float(120.0, help="Seconds by which the time a student's timestamp.txt claims may differ from "
                            "the server's before collect flags the difference.").tag(config=True)

    # -- which folders -------------------------------------------------------------------------------------------
    def init_src(self):
        """nbgrader's init_src (an exchange class's step, made to be overridden), each inbound folder read by
        `_hand_in`: a folder that cannot be taken is kept in `self.refused`, never among a student's hand-ins."""
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        wanted = f"{self.coursedir.student_id or '*'}+{self.coursedir.assignment_id}+*"
        students, self.refused = {}, []
        for path in glob.glob(os.path.join(self.inbound_path, wanted)):
            record = self._hand_in(path)
            if "refused" in record:
                self.refused.append(record)
            else:
                students.setdefault(record["username"], []).append(record)
        self.duedate, self.notebooks = _from_gradebook(self.coursedir)
        self.src_records = [self._chosen(records) for records in students.values()]

    def _chosen(self, records):
        """The one of a student's hand-ins nbgrader collects: the latest (--before-duedate: before the due date)."""
        latest_first = sorted(records, key=lambda record: record["timestamp"], reverse=True)
        if self.duedate is not None and self.before_duedate:
            return next((record for record in latest_first if record["timestamp"] <= self.duedate), latest_first[0])
        return latest_first[0]

    def _hand_in(self, path):
        """The record of an inbound folder (nbgrader's keys, with the server's time), or one marked `refused` with the
        reason when the folder cannot be taken."""
        folder = os.path.basename(path)
        parts = folder.rsplit("+", 3)
        try:
            if len(parts) < 3:
                raise intake.BadSubmission("its name is not <student id>+<assignment>+<timestamp>")
            intake.require_plain_id(parts[0])
            st = _folder_stat(path)
            account = self._account_check(parts[0], st.st_uid)
        except intake.BadSubmission as refusal:
            self.log.error("Not collected: %r in %s: %s", folder, os.path.dirname(path), refusal)
            return {"filename": folder, "refused": str(refusal)}
        return {"username": parts[0], "filename": folder, "timestamp": _utc(_last_change(path)),
                "account": account, "uid": st.st_uid, "named": parts[2]}

    def _account_check(self, student_id, uid):
        """The name of the account that owns the folder; BadSubmission if that account may not hand in as
        `student_id`."""
        account = account_name(uid)
        if not self.check_owner or uid == os.geteuid():
            return account
        owner_id = self.account_ids.get(account, account)
        if owner_id != student_id:
            raise intake.BadSubmission(
                f"it was handed in by the account {account!r}, whose student id is {owner_id!r}, not {student_id!r}: "
                "nobody may hand in under another student's name. If that account is really this student's, map it "
                "in nbgrader_config.py (c.SafeCollect.account_ids) and collect again")
        return account

    # -- collecting ----------------------------------------------------------------------------------------------
    def copy_files(self):
        refused, records = self.refused, self.src_records
        what = f"{self.coursedir.assignment_id!r} for course {self.coursedir.course_id!r}"
        if records:
            self.log.info("Processing %d submissions of %s", len(records), what)
        elif not refused:
            self.log.warning("No submissions of %s to collect", what)
        collected, failed = [], []
        for record in records:
            try:
                done = self._collect(record)
            except (OSError, intake.BadSubmission) as error:
                self.log.error("Not collected: %r: %s", record["filename"], error)
                failed.append((record["filename"], str(error)))
                continue
            if done:
                collected.append(done)
        self._summary(collected, refused, failed)

    def _collect(self, record):
        """Collect one hand-in unless nbgrader's rules keep the one already collected; its line for the summary."""
        student = record["username"]
        dest = self.coursedir.format_path(self.coursedir.submitted_directory, student, self.coursedir.assignment_id)
        parent = os.path.dirname(dest)
        os.makedirs(parent, exist_ok=True)
        if os.path.isdir(dest):
            existing = self._existing_time(dest)
            newer = existing is None or record["timestamp"] > existing
            if not ((self.update and newer) or (self.before_duedate and existing != record["timestamp"])):
                self.log.info("%s: %s %s", "No newer submission to collect" if self.update else
                              "Submission already exists, use --update to update", student,
                              self.coursedir.assignment_id)
                return None
            self.log.info("Updating submission: %s %s", student, self.coursedir.assignment_id)
        else:
            self.log.info("Collecting submission: %s %s", student, self.coursedir.assignment_id)
        incoming = os.path.join(parent, f".collecting-{self.coursedir.assignment_id}-{os.getpid()}")
        shutil.rmtree(incoming, ignore_errors=True)  # left by a collect that was killed
        os.mkdir(incoming)
        try:
            note = self._take(record, incoming)
            if os.path.isdir(dest):
                shutil.rmtree(dest)
            os.rename(incoming, dest)
        finally:
            shutil.rmtree(incoming, ignore_errors=True)
        _instructor_only(dest)
        if self.coursedir.groupshared:
            _share_with_group(dest)
        return note

    def _take(self, record, dest):
        """Copy the hand-in into `dest`, write the server's time and the record; the summary's line for it."""
        src = os.path.join(self.inbound_path, record["filename"])
        caps = intake.nbgrader_caps(self.coursedir)  # in bytes, from nbgrader's kB
        taken = intake.take_submission(
            src, dest, ignore=self.coursedir.ignore, include=self.coursedir.include, max_files=self.max_files,
            max_file_bytes=min(self.max_file_bytes, caps["max_file_bytes"]),
            max_total_bytes=min(self.max_total_bytes, caps["max_total_bytes"]),
            first=self.notebooks, first_max_bytes=caps["max_file_bytes"],
            owner=record["uid"] if self.check_owner else None)
        arrived = _utc(max(taken.changed, _last_change(src)))
        claimed = (intake.read_regular(os.path.join(dest, "timestamp.txt")) or b"")[:200].decode(errors="replace")
        with open(os.path.join(dest, "timestamp.txt"), "w") as file:
            file.write(_format(arrived, self.timestamp_format))
        folder, student = record["filename"], record["username"]
        disagrees = self._disagreement(claimed, arrived)
        for name, why in taken.dropped:
            self.log.warning("Dropped from %r (not collected): %r, %s", folder, name, why)
        if taken.dropped:
            self.log.warning("%d entries of %r were not collected; the rest is in %s", len(taken.dropped), folder,
                             self.coursedir.format_path(self.coursedir.submitted_directory, student,
                                                        self.coursedir.assignment_id))
        if disagrees:
            self.log.warning("%s: the hand-in's timestamp.txt says %r, but the server saw it last change at %s: "
                             "the server's time is the one recorded", student, claimed,
                             _format(arrived, self.timestamp_format))
        intake.write_receipt(dest, {
            "inbound": folder, "account": record["account"], "arrived": _format(arrived, self.timestamp_format),
            "timestamp_txt": claimed or None, "named": record["named"], "time_disagrees": disagrees,
            "dropped": [list(entry) for entry in taken.dropped]})
        words = [f"arrived {_format(arrived, self.timestamp_format)}"]
        if record["account"] != student:
            words.append(f"from the account {record['account']!r}")
        if disagrees:
            words.append(f"its timestamp.txt said {claimed!r}")
        if taken.dropped:
            words.append(f"{len(taken.dropped)} entries left out")
        return f"{student} ({'; '.join(words)})"

    def _disagreement(self, claimed, arrived):
        try:
            return abs((parse_utc(claimed.strip()) - arrived).total_seconds()) > self.clock_tolerance
        except (ValueError, OverflowError, TypeError):
            return True  # empty, garbled or impossible: not a time at all

    def _existing_time(self, dest):
        """The time of the collected copy (written by collect); None if it cannot be read (collected again)."""
        text = (intake.read_regular(os.path.join(dest, "timestamp.txt")) or b"").decode(errors="replace").strip()
        try:
            return parse_utc(text) if text else None
        except (ValueError, OverflowError):
            self.log.warning("The collected %s has an unreadable timestamp.txt (%r): collecting it again", dest,
                             text[:100])
            return None

    def _summary(self, collected, refused, failed):
        assignment = self.coursedir.assignment_id
        if collected:
            self.log.info("Collected %d of %r: %s", len(collected), assignment, "; ".join(collected))
        if refused or failed:
            lines = [f"{record['filename']!r}: {record['refused']}" for record in refused] + [
                f"{folder!r}: {why}" for folder, why in failed]
            self.log.error("Refused %d hand-ins of %r (not collected):\n  %s", len(lines), assignment,
                           "\n  ".join(lines))
            self.fail(f"The class is collected but for the hand-ins refused above: collected {len(collected)} of "
                      f"{assignment!r}, refused {len(lines)} (not collected; the exit status says so)")


def _from_gradebook(coursedir):
    """(due date or None, the file names of the notebooks) of the assignment: the gradebook's, else release/'s."""
    from nbgrader.api import Gradebook, MissingEntry

    try:
        with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
            found = gb.find_assignment(coursedir.assignment_id)
            return found.duedate, tuple(f"{nb.name}.ipynb" for nb in found.notebooks)
    except MissingEntry:
        release = coursedir.format_path(coursedir.release_directory, ".", coursedir.assignment_id)
        names = sorted(os.listdir(release)) if os.path.isdir(release) else []
        return None, tuple(name for name in names if name.endswith(".ipynb"))


def _folder_stat(path):
    """The folder's own stat; BadSubmission if it is anything but a folder (checked before anything is replaced:
    an update deletes the collected copy)."""
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise intake.BadSubmission(f"it is {intake.kind(st.st_mode)}, not a folder: nothing was read from it")
    return st


def _last_change(path):
    """The latest ctime of the folder and what lies in it (never following a link), looking at no more names than a
    copy would: when the server last saw the hand-in change."""
    latest, seen = os.lstat(path).st_ctime, 0
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            seen += 1
            if seen > intake.MAX_ENTRIES:
                return latest
            try:
                latest = max(latest, os.lstat(os.path.join(folder, name)).st_ctime)
            except OSError:
                continue
    return latest


def _utc(seconds):
    """Seconds since the epoch as nbgrader keeps times: a naive datetime in UTC."""
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).replace(tzinfo=None)


def _format(when, timestamp_format):
    return when.replace(tzinfo=datetime.timezone.utc).strftime(timestamp_format)


def _instructor_only(dest):
    """The collected copy is writable by the instructor alone, whatever the umask (group sharing then adds the
    instructors' group): nbgrader keeps the modes the hand-in had in the exchange (its own test expects 777), and a
    folder others may write lets them replace a student's work before it is graded
    (docs/differences-from-nbgrader.md)."""
    for folder, _, files in os.walk(dest):
        for path in [folder, *(os.path.join(folder, name) for name in files)]:
            os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) & ~(stat.S_IWGRP | stat.S_IWOTH))


def _share_with_group(dest):
    """What nbgrader's copy does under CourseDirectory.groupshared: folders ug+rwx and setgid, files ug+rw."""
    for folder, _, files in os.walk(dest):
        os.chmod(folder, (os.stat(folder).st_mode | 0o2770) & 0o2777)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, (os.stat(path).st_mode | 0o660) & 0o777)
