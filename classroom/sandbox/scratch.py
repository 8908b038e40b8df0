"""The grader's scratch folders for student processes (working copies, sockets, call inputs), removed however a
grading run ends.

Each is named `<kind>-<grader pid>-<random>`: a run removes its own when it is done with them, and a run killed
before it could (SIGKILL, a power cut) leaves folders that the next run of any grader removes, since their pid no
longer lives. A folder may hold what a sandboxed student process wrote, owned by another user: only the grader's
account (or root) removes it, and nothing in it is read.
"""
import contextlib
import os
import shutil
import tempfile

import psutil


def _dead(name, kind):
    pid = name[len(kind) + 1:].split("-", 1)[0]
    return pid.isdigit() and not psutil.pid_exists(int(pid))


def _remove(path):
    """Remove a folder, first making writable the inner folders the student's process may have locked."""
    if os.path.islink(path) or not os.path.isdir(path):
        return
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)
    for root, folders, _ in os.walk(path):  # top-down: a folder is unlocked before the walk lists it
        for name in folders:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o700)
    shutil.rmtree(path, ignore_errors=True)


def folder(kind, parent=None):
    """A new empty folder `<kind>-<pid>-XXXXXX` in `parent` (default: the temporary folder), after removing the
    folders of that kind that a grader no longer running left there."""
    parent = parent or tempfile.gettempdir()
    try:
        for name in os.listdir(parent):
            if name.startswith(f"{kind}-") and _dead(name, kind):
                _remove(os.path.join(parent, name))
    except OSError:
        pass  # a parent we cannot list holds nothing of ours to sweep
    return tempfile.mkdtemp(prefix=f"{kind}-{os.getpid()}-", dir=parent)
