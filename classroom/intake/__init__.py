"""Reading a folder a student handed in, which the student controls, without reading anything outside it.

The exchange's inbound/ is writable by every student, so a hand-in may hold symbolic links (to source/, to a file
only the instructor may read, to another student's work), hard links, named pipes, devices, sockets, mount points,
odd names, huge files or thousands of them. `nbgrader collect` runs as the instructor: whatever it follows, it reads
with the instructor's rights. These functions make that safe:

  require_plain_id(student_id)        refuses an id that is not plain (it becomes a folder name and a CSV cell);
  take_submission(source, dest, ...)  copies the regular files of `source` only, and says what it dropped and why,
                                      and when the server last saw anything of it change (Taken);
  copy_submission(source, dest, ...)  the same, returning only what was dropped;
  nbgrader_caps(coursedir)            the size caps of nbgrader's CourseDirectory, in bytes (its kB is 1000 bytes).

RECEIPT is collect's receipt, the note it leaves beside a collected hand-in in submitted/ (write_receipt,
read_receipt): who handed it in, when the server saw it, what the student's timestamp.txt claimed, and what was left
out and why (not the grading record, classroom.grading.record, nor a notebook's result, classroom.grading.result). It starts
with a dot and is in CourseDirectory.ignore, so nbgrader neither takes one from a student nor copies it onwards.

How the copy reads, through descriptors and never following a link: classroom.intake.safe_copy.

Used by classroom.plugins.exchange_collect (`nbgrader collect`, the formgrader's Collect button) and by the
autograde driver (its private staging copy of submitted/<student>/<assignment>/).
"""
import errno
import json
import os
import re
import stat
from dataclasses import dataclass, field

from .safe_copy import DIR_FLAGS, FILE_FLAGS, Copier, kind
from ..units import MiB, nbgrader_bytes

MAX_FILE_BYTES = 20 * MiB   # one file; the notebooks of this course are well under 1 MiB
MAX_TOTAL_BYTES = 50 * MiB  # every file of one submission together
MAX_FILES = 200             # regular files copied
MAX_DEPTH = 4               # folders nested inside the submission
MAX_ENTRIES = 1000          # names looked at in all (files, folders, links, anything): bounds the work
RECEIPT = ".classroom-intake.json"
# Read before anything else at the top of a hand-in, whatever else it holds: nbgrader's own files and collect's receipt.
NBGRADER_FILES = ("timestamp.txt", "submission_secret.txt", RECEIPT)

PLAIN = re.compile(r"[A-Za-z0-9_.-]+")


class BadSubmission(ValueError):
    """A hand-in that cannot be taken at all (its student id, or its folder); str() says what and what to do."""


def require_plain_id(student_id):
    """Raise BadSubmission unless `student_id` is plain (`id_rule_broken`), saying what to do with the hand-in."""
    broken = id_rule_broken(student_id)
    if broken:
        raise BadSubmission(f"{broken} Ask the student to hand in again from an account with a plain name, or give "
                            "the folder a plain id and collect again.")


def id_rule_broken(student_id):
    """The sentence that says how `student_id` breaks the rule, or None if it is plain: ASCII letters, digits, '_', '.'
    and '-', not '.' or '..', not starting with '-'. The id becomes a folder name, a Linux account name (useradd's
    default rule is ASCII), a gradebook key and a cell of grades.csv: a letter such as 'ë' is refused, and the sentence
    says it is not an ASCII one."""
    text = student_id if isinstance(student_id, str) else repr(student_id)
    odd = sorted({c for c in text if not PLAIN.fullmatch(c)})
    if not text:
        problem = "is empty"
    elif odd:
        problem = "holds " + ", ".join(f"{c!r} (a letter, but not an ASCII one)" if c.isalpha() else repr(c)
                                       for c in odd)
    elif text in (".", ".."):
        problem = f"is {text!r}"
    elif text.startswith("-"):
        problem = "starts with '-'"
    else:
        return None
    return (f"the student id {text!r} {problem}; an id may hold only ASCII letters, digits, '_', '.' and '-' (a to z, "
            "A to Z, 0 to 9; not '.' or '..', not starting with '-'), since it becomes a folder name, a Linux account "
            "name on a hub and a cell of grades.csv.")


@dataclass
class Taken:
    """What take_submission did: `dropped`, [(relative name, why)] of what was not copied, in the order met;
    `changed`, the latest ctime (seconds since the epoch, the server's clock) of the folder and of everything read
    in it."""
    dropped: list = field(default_factory=list)
    changed: float = 0.0


def take_submission(source, dest, *, max_file_bytes=MAX_FILE_BYTES, max_total_bytes=MAX_TOTAL_BYTES,
                    max_files=MAX_FILES, max_depth=MAX_DEPTH, max_entries=MAX_ENTRIES, ignore=(), include=("*",),
                    first=(), first_max_bytes=None, owner=None):
    """Copy the regular files under the folder `source` into `dest`; return a Taken.

    Not copied, each with its reason: symbolic links, hard-linked files (more than one name), named pipes, devices,
    sockets, anything on another file system, anything not owned by the account `owner` (a uid; None: any owner),
    names holding a control character or a backslash or not UTF-8, files larger than `max_file_bytes`, a file that
    would take the copy past `max_total_bytes`, files beyond `max_files`, folders nested deeper than `max_depth`, and,
    past `max_entries` names looked at, the rest of the listing. Names matching a glob of `ignore`, and files matching
    none of `include` (nbgrader's CourseDirectory.ignore and .include), are skipped without a reason, as nbgrader
    does. Folders are copied (empty ones too).

    The names in `first` (the notebooks the assignment asks for), when they are regular files at the top of
    `source`, are copied before anything else, each up to `first_max_bytes` (default `max_file_bytes`) whatever the
    total: no number or size of other files can push them out. So are nbgrader's own small files (NBGRADER_FILES),
    each up to `max_file_bytes`. Then the other notebooks at the top, then the rest.

    `source` itself must be a folder, not a symbolic link to one: otherwise BadSubmission, and nothing is read or
    written. `dest` is created (with its parents) if missing and must otherwise be an empty folder.
    """
    copier = Copier(max_file_bytes, max_total_bytes, max_files, max_depth, max_entries, ignore, include)
    copier.first, copier.always, copier.owner = tuple(first), NBGRADER_FILES, owner
    copier.first_max_bytes = max_file_bytes if first_max_bytes is None else first_max_bytes
    src_fd = _open_source(source)
    try:
        st = os.fstat(src_fd)
        copier.device = st.st_dev
        os.makedirs(dest, exist_ok=True)
        dest_fd = os.open(dest, DIR_FLAGS)
        try:
            if os.listdir(dest_fd):
                raise FileExistsError(errno.EEXIST, "the destination of a submission's copy is not empty", dest)
            copier.folder(src_fd, dest_fd, "", 0)
        finally:
            os.close(dest_fd)
        copier.seen(os.fstat(src_fd))  # after reading: an entry added or removed meanwhile shows here
    finally:
        os.close(src_fd)
    return Taken(copier.dropped, copier.changed_ns / 1e9)


def nbgrader_caps(coursedir):
    """The caps nbgrader's CourseDirectory sets (max_file_size, max_dir_size, in nbgrader's kB: units.NBGRADER_KB), as
    take_submission's keywords in bytes: a file over max_file_size is left out, as nbgrader leaves it out."""
    return {"max_file_bytes": nbgrader_bytes(coursedir.max_file_size),
            "max_total_bytes": nbgrader_bytes(coursedir.max_dir_size)}


def copy_submission(source, dest, **caps):
    """take_submission(source, dest, **caps).dropped: [(relative name, why)] of what was not copied."""
    return take_submission(source, dest, **caps).dropped


def write_receipt(folder, receipt):
    """Write collect's RECEIPT (a dict of plain data) into the collected `folder`."""
    with open(os.path.join(folder, RECEIPT), "w") as file:
        json.dump(receipt, file, indent=1, sort_keys=True)


def read_receipt(folder):
    """Collect's RECEIPT of a collected folder as a dict; {} when there is none or it cannot be read."""
    try:
        found = json.loads(read_regular(os.path.join(folder, RECEIPT)) or b"{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _open_source(source):
    try:
        return os.open(source, DIR_FLAGS)
    except OSError as error:
        what = f"could not be opened ({error.strerror})"
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            try:
                what = f"is {kind(os.lstat(source).st_mode)}, not a folder"
            except OSError:
                what = "is not a folder"
        raise BadSubmission(f"{os.fspath(source)!r} {what}: nothing was read from it") from None


def read_regular(path):
    """The bytes of `path` if it is a regular file, opened without following a link (checked on the descriptor);
    None for anything else or anything that cannot be read. For the small files the grader reads in place in a
    submitted or autograded folder (timestamp.txt, a notebook to digest, the grading record)."""
    try:
        fd = os.open(path, FILE_FLAGS)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        return file.read() if stat.S_ISREG(os.fstat(fd).st_mode) else None
