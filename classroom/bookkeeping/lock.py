"""One grading run per course at a time: an exclusive lock on <course>/.grading/lock, which says who holds it.

It lives below classroom.grading and classroom.decisions, which both take it (the driver for its run, the decisions
for each change, `classroom feedback` while it makes the pages).

The lock is an advisory `flock` taken by the driver for its whole run; the kernel releases it when the process ends,
however it ends, so a killed run never leaves a stale lock behind. The file holds the holder's user, host, process
id, start time and command, which the refused run prints.

Whatever reads or changes what a grading run writes takes it too, so that it never sees half a run: `make feedback`
runs nbgrader generate_feedback under it (`classroom feedback`, which waits for a grading run to finish first), and
the course's decisions are changed under it (classroom.decisions).
"""
import contextlib
import datetime
import fcntl
import getpass
import json
import os
import socket
import sys


def work_folder(root):
    """The course's grading folder, <root>/.grading: its lock, and the driver's staging area and templates."""
    return os.path.join(root, ".grading")


class Busy(RuntimeError):
    """Another grading run holds the course's lock; str() says who and what to do."""


def _holder():
    return {"user": getpass.getuser(), "host": socket.gethostname(), "pid": os.getpid(),
            "since": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": " ".join(sys.argv)}


def _describe(path):
    try:
        with open(path) as file:
            info = json.loads(file.read() or "{}")
        return (f"{info.get('user', '?')} on {info.get('host', '?')} (process {info.get('pid', '?')}, since "
                f"{info.get('since', '?')}, running `{info.get('command', '?')}`)")
    except (OSError, ValueError, AttributeError):
        return "another process (it left no details)"


@contextlib.contextmanager
def hold(folder, wait=False, tell=print):
    """Hold the course's grading lock inside `folder` for the `with` block. If another run holds it: wait for it
    when `wait` (saying so through `tell`), else raise Busy."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)  # the umask decides: instructors sharing a course (002) share it
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _describe(path)
            if not wait:
                raise Busy(f"another grading run is working on this course: {holder}. Wait for it to finish and run "
                           "this again, or add --wait to queue behind it.") from None
            tell(f"waiting for the grading run of {holder} to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(_holder()).encode(), 0)
        yield
    finally:
        os.close(fd)
