"""Copying a folder someone else controls (a student's hand-in) without following anything out of it: Copier, the
walk through open descriptors that classroom.intake's take_submission runs, and the flags everything of a hand-in is
opened with.

How it reads: every folder is opened with O_DIRECTORY | O_NOFOLLOW and listed through its descriptor;
every name is opened relative to that descriptor (dir_fd=) with O_NOFOLLOW | O_NONBLOCK, and what was opened is
checked with fstat *after* opening (a regular file with one link, on the submission's own file system, and, when
`owner` is given, belonging to that account: a classmate's file dropped into the folder is not the student's). So a name
swapped for a symbolic link between the check and the open cannot redirect the read, `..` is never followed, opening
a named pipe or a file under a student's write lease cannot block, and sizes are counted while reading, never taken
from stat. Only bytes are copied (and the modification time); modes, owners and links are not. Every inode read is
also asked its ctime, which the kernel sets from the server's clock at each change and nobody but root can set back:
the latest of them (Copier.changed_ns, classroom.intake's Taken.changed) is when the hand-in last changed, whatever
its files or name say.

What is not copied is recorded with its reason, in the order met (Copier.dropped); the caps (sizes, counts, depth,
names looked at) and which names come first are the caller's (classroom.intake).
"""
import errno
import fnmatch
import os
import stat

from ..units import size

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
SWAPPED = {errno.ELOOP: "changed while being read: it is now a symbolic link",
           errno.ENOTDIR: "changed while being read: it is no longer a folder"}
CHUNK = 64 * 1024


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


class Copier:
    def __init__(self, max_file_bytes, max_total_bytes, max_files, max_depth, max_entries, ignore, include):
        self.max_file_bytes, self.max_total_bytes = max_file_bytes, max_total_bytes
        self.max_files, self.max_depth, self.max_entries = max_files, max_depth, max_entries
        self.ignore, self.include = list(ignore or ()), list(include or ())
        self.dropped, self.files, self.total, self.entries, self.device, self.cut = [], 0, 0, 0, None, False
        self.first, self.first_max_bytes, self.owner, self.changed_ns = (), max_file_bytes, None, 0
        self.always = ()  # names looked at first at the top, whatever else it holds, each up to max_file_bytes

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
        if not prefix:  # the assignment's notebooks and `always` are looked at whatever else it holds
            names += [name for name in self.first + self.always if name not in names and _exists(fd, name)]
        return sorted(names, key=(lambda name: (name not in self.first + self.always, not name.endswith(".ipynb"),
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
            why = f"written by another account ({account_name(st.st_uid)!r}), not the one that handed in"
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
        first = not is_folder and (rel in self.first or rel in self.always)  # never pushed out by the others
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


def account_name(uid):
    """The name of the account `uid`, or "uid N" when the system knows no such account."""
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"
