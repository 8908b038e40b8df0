"""Every file the course writes for instructors is written whole or not at all: the one helper for that.

`replacing(path)` opens a new file beside `path` (same folder, so the same file system) for the block to write;
when the block ends, the new file is flushed to disk and renamed over `path` in one step. If the block raises (the
disk is full, the quota is reached, the process is interrupted), the new file is removed and `path` is as it was: an
earlier grades.csv, report or LMS file stays whole, and a reader never meets a half-written one.

Used for grades.csv (classroom.plugins.csv_export, through classroom.csvsafe), the class report's PNG, HTML and CSV
(classroom.report), the LMS files (classroom.lms), the grading record and results (classroom.grading.record, .result)
and the course's decisions (classroom.decisions).
"""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def replacing(path, mode="w", **open_args):
    """Yield a file object opened with `mode` ("w" or "wb") and `open_args` on a new file beside `path`; it replaces
    `path` when the block ends without an exception, and is removed otherwise."""
    path = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(path))
    fd, part = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(part, 0o666 & ~_umask())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(part)
        raise


def write_text(path, text, encoding="utf-8"):
    """Write `text` to `path` whole or not at all; returns `path`."""
    with replacing(path, "w", encoding=encoding) as handle:
        handle.write(text)
    return path


def _umask():
    """The process's umask (mkstemp makes files 0600; the course's files get the mode `open` would give them)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
