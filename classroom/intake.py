"""Reading a folder a student handed in, which the student controls, without reading anything outside it.

The exchange's inbound/ is writable by every student, so a hand-in may hold symbolic links (to source/, to a file
only the instructor may read, to another student's work), hard links, named pipes, devices, sockets, mount points,
odd names, huge files or thousands of them. `nbgrader collect` runs as the instructor: whatever it follows, it reads
with the instructor's rights. Two functions make that safe:

  check_student_id(student_id)        refuses an id that is not plain (it becomes a folder name and a CSV cell);
  take_submission(source, dest, ...)  copies the regular files of `source` only, and says what it dropped and why,
                                      and when the server last saw anything of it change (Taken);
  copy_submission(source, dest, ...)  the same, returning only what was dropped.

How copy_submission reads: every folder is opened with O_DIRECTORY | O_NOFOLLOW and listed through its descriptor;
every name is opened relative to that descriptor (dir_fd=) with O_NOFOLLOW | O_NONBLOCK, and what was opened is
checked with fstat *after* opening (a regular file with one link, on the submission's own file system, and, when
`owner` is given, belonging to that account: a classmate's file dropped into the folder is not the student's). So a name
swapped for a symbolic link between the check and the open cannot redirect the read, `..` is never followed, opening
a named pipe or a file under a student's write lease cannot block, and sizes are counted while reading, never taken
from stat. Only bytes are copied (and the modification time); modes, owners and links are not. Every inode read is
also asked its ctime, which the kernel sets from the server's clock at each change and nobody but root can set back:
Taken.changed, the latest of them, is when the hand-in last changed, whatever its files or name say.

RECORD is the note collect leaves beside a collected hand-in in submitted/ (write_record, read_record): who handed
it in, when the server saw it, what the student's timestamp.txt claimed, and what was left out and why. It starts
with a dot and is in CourseDirectory.ignore, so nbgrader neither takes one from a student nor copies it onwards.

Used by classroom.plugins.exchange_collect (`nbgrader collect`, the formgrader's Collect button) and by the autograde driver (its
private staging copy of submitted/<student>/<assignment>/).
"""
import errno
import fnmatch
import json
import os
import re
import stat
from dataclasses import dataclass, field

MIB = 2 ** 20
MAX_FILE_BYTES = 20 * MIB   # one file; the notebooks of this course are well under 1 MiB
MAX_TOTAL_BYTES = 50 * MIB  # every file of one submission together
MAX_FILES = 200             # regular files copied
MAX_DEPTH = 4               # folders nested inside the submission
MAX_ENTRIES = 1000          # names looked at in all (files, folders, links, anything): bounds the work
CHUNK = 64 * 1024
RECORD = ".classroom-intake.json"
# Read before anything else at the top of a hand-in, whatever else it holds: nbgrader's own files and collect's record.
NBGRADER_FILES = ("timestamp.txt", "submission_secret.txt", RECORD)

PLAIN = re.compile(r"[A-Za-z0-9_.-]+")
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
SWAPPED = {errno.ELOOP: "changed while being read: it is now a symbolic link",
           errno.ENOTDIR: "changed while being read: it is no longer a folder"}


class BadSubmission(ValueError):
    """A hand-in that cannot be taken at all (its student id, or its folder); str() says what and what to do."""


def check_student_id(student_id):
    """Raise BadSubmission unless `student_id` is plain: ASCII letters, digits, '_', '.' and '-', not '.' or '..', not
    starting with '-'. The id becomes a folder name, a Linux account name (useradd's default rule is ASCII), a gradebook
    key and a cell of grades.csv: a letter such as 'ë' is refused, and the message says it is not an ASCII one."""
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
        return
    raise BadSubmission(
        f"the student id {text!r} {problem}; an id may hold only ASCII letters, digits, '_', '.' and '-' (a to z, A "
        "to Z, 0 to 9; not '.' or '..', not starting with '-'), since it becomes a folder name, a Linux account name "
        "on a hub and a cell of grades.csv. Ask the student to hand in again from an account with a plain name, or "
        "give the folder a plain id and collect again.")


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
    copier = _Copier(max_file_bytes, max_total_bytes, max_files, max_depth, max_entries, ignore, include)
    copier.first, copier.owner = tuple(first), owner
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


def copy_submission(source, dest, **caps):
    """take_submission(source, dest, **caps).dropped: [(relative name, why)] of what was not copied."""
    return take_submission(source, dest, **caps).dropped


def write_record(folder, record):
    """Write collect's RECORD (a dict of plain data) into the collected `folder`."""
    with open(os.path.join(folder, RECORD), "w") as file:
        json.dump(record, file, indent=1, sort_keys=True)


def read_record(folder):
    """Collect's RECORD of a collected folder as a dict; {} when there is none or it cannot be read."""
    try:
        found = json.loads(read_regular(os.path.join(folder, RECORD)) or b"{}")
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


def kind(mode):
    """What a non-regular entry is, in words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _bad_name(name):
    """Why a name cannot be copied as it is, or None."""
    if any(ord(c) < 32 or ord(c) == 127 for c in name) or "\\" in name:
        return "its name holds a control character or a backslash"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "its name is not UTF-8"
    return None


class _Copier:
    def __init__(self, max_file_bytes, max_total_bytes, max_files, max_depth, max_entries, ignore, include):
        self.max_file_bytes, self.max_total_bytes = max_file_bytes, max_total_bytes
        self.max_files, self.max_depth, self.max_entries = max_files, max_depth, max_entries
        self.ignore, self.include = list(ignore or ()), list(include or ())
        self.dropped, self.files, self.total, self.entries, self.device, self.cut = [], 0, 0, 0, None, False
        self.first, self.first_max_bytes, self.owner, self.changed_ns = (), max_file_bytes, None, 0

    def seen(self, st):
        self.changed_ns = max(self.changed_ns, st.st_ctime_ns)

    def drop(self, name, why):
        self.dropped.append((name, why))

    def skipped(self, name, is_file):
        """nbgrader's rule (nbgrader.utils.ignore_patterns): excluded names, and files matching no include glob."""
        if any(fnmatch.fnmatch(name, glob) for glob in self.ignore):
            return True
        return is_file and bool(self.include) and not any(fnmatch.fnmatch(name, glob) for glob in self.include)

    def listing(self, fd, prefix):
        """The names in the open folder `fd`, sorted, at most what is left of max_entries."""
        names = []
        with os.scandir(fd) as entries:
            for entry in entries:
                if self.entries >= self.max_entries:
                    if not self.cut:
                        self.drop(prefix.rstrip("/") or ".",
                                  f"more than {self.max_entries} names in the submission: the rest was not read")
                    self.cut = True
                    break
                self.entries += 1
                names.append(entry.name)
        if not prefix:  # the assignment's notebooks and nbgrader's files are looked at whatever else it holds
            names += [name for name in self.first + NBGRADER_FILES if name not in names and _exists(fd, name)]
        return sorted(names, key=(lambda name: (name not in self.first + NBGRADER_FILES, not name.endswith(".ipynb"),
                                                name)) if not prefix else None)

    def folder(self, src_fd, dest_fd, prefix, depth):
        for name in self.listing(src_fd, prefix):
            rel = prefix + name
            why = _bad_name(name)
            if why:
                self.drop(rel, why)
                continue
            try:
                mode = os.stat(name, dir_fd=src_fd, follow_symlinks=False).st_mode
            except OSError as error:
                self.drop(rel, f"could not be read ({error.strerror})")
                continue
            if self.skipped(name, stat.S_ISREG(mode)):
                continue
            if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
                self.take(src_fd, dest_fd, name, rel, depth + 1, stat.S_ISDIR(mode))
            else:
                self.drop(rel, kind(mode))

    def opened(self, src_fd, name, rel, flags, want):
        """A descriptor of `name` if what opens is a `want` (stat.S_ISDIR / S_ISREG) with one link (files) on the
        submission's file system, else None with the reason recorded. The check is on the opened descriptor."""
        try:
            fd = os.open(name, flags, dir_fd=src_fd)
        except OSError as error:
            self.drop(rel, SWAPPED.get(error.errno, f"could not be opened ({error.strerror})"))
            return None
        st = os.fstat(fd)
        self.seen(st)
        why = None
        if not want(st.st_mode):
            why = f"changed while being read: now {kind(st.st_mode)}"
        elif self.owner is not None and st.st_uid != self.owner:
            why = f"written by another account ({_account(st.st_uid)}), not the one that handed in"
        elif st.st_dev != self.device:
            why = "on another file system (a mount point)"
        elif stat.S_ISREG(st.st_mode) and st.st_nlink != 1:
            why = f"a hard link (the same file has {st.st_nlink} names)"
        if why:
            os.close(fd)
            self.drop(rel, why)
            return None
        return fd

    def take(self, src_fd, dest_fd, name, rel, depth, is_folder):
        """Copy the folder or regular file `name`, once opened and checked on its descriptor, unless a cap says no."""
        first = not is_folder and (rel in self.first or rel in NBGRADER_FILES)  # never pushed out by the others
        if is_folder and depth > self.max_depth:
            self.drop(rel, f"a folder nested more than {self.max_depth} levels deep")
        elif not is_folder and not first and self.files >= self.max_files:
            self.drop(rel, f"more than {self.max_files} files in the submission")
        elif (fd := self.opened(src_fd, name, rel, *((DIR_FLAGS, stat.S_ISDIR) if is_folder else
                                                     (FILE_FLAGS, stat.S_ISREG)))) is not None:
            try:
                why = (self.copy_folder(fd, dest_fd, name, rel, depth) if is_folder else
                       self.copy_bytes(fd, dest_fd, name, None if not first else
                                       self.first_max_bytes if rel in self.first else self.max_file_bytes))
            finally:
                os.close(fd)
            if why:
                self.drop(rel, why)

    def copy_folder(self, fd, dest_fd, name, rel, depth):
        os.mkdir(name, 0o777, dir_fd=dest_fd)
        out = os.open(name, DIR_FLAGS, dir_fd=dest_fd)
        try:
            self.folder(fd, out, rel + "/", depth)
        finally:
            os.close(out)

    def copy_bytes(self, fd, dest_fd, name, own_cap=None):
        """Copy the open file `fd` to `name` in `dest_fd`, counting bytes as they are read; the reason on refusal.
        `own_cap`: the file's own cap, instead of the per-file and total ones (the assignment's notebooks)."""
        max_file = self.max_file_bytes if own_cap is None else own_cap
        limit = max(min(max_file, self.max_total_bytes - self.total), 0) if own_cap is None else own_cap
        copied, why = 0, None
        with open(name, "xb", opener=lambda path, flags: os.open(path, NEW_FILE_FLAGS, 0o666, dir_fd=dest_fd)) as out:
            try:
                while chunk := os.read(fd, min(CHUNK, limit + 1 - copied)):
                    copied += len(chunk)
                    if copied > limit:
                        why = (f"larger than {size(max_file)}" if copied > max_file else
                               f"it would take the submission past {size(self.max_total_bytes)} in all")
                        break
                    out.write(chunk)
            except OSError as error:  # EIO, or EAGAIN from a file the student holds a lease on
                why = f"could not be read ({error.strerror})"
            out.flush()
            st = os.fstat(fd)
            self.seen(st)  # after reading: a write during the copy shows here
            os.utime(out.fileno(), ns=(st.st_atime_ns, st.st_mtime_ns))
        if why:
            os.unlink(name, dir_fd=dest_fd)
            return why
        self.files += 1
        self.total += copied
        return None


def _exists(fd, name):
    try:
        os.stat(name, dir_fd=fd, follow_symlinks=False)
        return True
    except OSError:
        return False


def _account(uid):
    import pwd

    try:
        return f"{pwd.getpwuid(uid).pw_name!r}"
    except KeyError:
        return f"uid {uid}"


def size(n):
    """A number of bytes as a sentence says it: "20 MiB", "512 bytes"."""
    return f"{n / MIB:g} MiB" if n >= MIB else f"{n} bytes"
