"""`make exercise`: the learner's own copy of the exercise, my-work/<assignment>/, made from the student version.

    classroom exercise [ASSIGNMENT] [--work my-work]

Every file of release/<assignment>/ that is not in my-work/<assignment>/ yet is copied there; a file already there is
the learner's work and is left exactly as it is (the copy is made with O_EXCL, so not even a race overwrites one).
Run it again after deleting a notebook to get a fresh copy of that one only.

`make lab` runs it first, quietly, so that the link at the end of lesson 03 opens the copy whichever the learner does
first. `make exercise` asks it to open the copy in the JupyterLab already serving this folder, if one runs (its
address and token from Jupyter's runtime files, jupyter_server's list_running_servers); only where none runs does
make start one.
"""
import os
import sys
import urllib.parse
import webbrowser

from .. import course
from . import ASSIGNMENT, WORK, exercise_folder, released_folder


class NoExercise(Exception):
    """The course has no student version of the assignment; str() says what to do."""


def copy_missing(source, target):
    """Copy each regular file of `source` that `target` lacks: ([copied names], [kept names])."""
    os.makedirs(target, exist_ok=True)
    copied, kept = [], []
    for name in sorted(os.listdir(source)):
        path = os.path.join(source, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as file:
            data = file.read()
        try:
            with open(os.path.join(target, name), "xb") as file:
                file.write(data)
            copied.append(name)
        except FileExistsError:
            kept.append(name)
    return copied, kept


def make(root, assignment, work):
    """Copy what is missing of the student version into the learner's folder: (folder, copied, kept)."""
    coursedir = course.course_directory(root=root)
    source = released_folder(coursedir, assignment)
    if not os.path.isdir(source):
        raise NoExercise(f"this course has no student version of {assignment!r} ({os.path.relpath(source, root)} "
                         "is not there): check the name, or run `make release` if you are its instructor")
    target = exercise_folder(os.path.join(root, work), assignment)
    copied, kept = copy_missing(source, target)
    return target, copied, kept


NO_LAB = 3  # the exit status of exercise_command(in_lab=True) when no JupyterLab serves the folder: make starts one


def running_lab(root):
    """The address (with its token) of a JupyterLab (a Jupyter server) that serves the folder `root`, or None."""
    from jupyter_server.serverapp import list_running_servers

    for server in list_running_servers():
        if os.path.realpath(server.get("root_dir", "")) == os.path.realpath(root):
            token = server.get("token")
            return server["url"], (f"?{urllib.parse.urlencode({'token': token})}" if token else "")
    return None


def exercise_command(assignment=ASSIGNMENT, work=WORK, in_lab=False, quiet=False):
    """Copy the exercise into the learner's folder, saying what was copied and kept (`quiet`: only what was copied);
    with `in_lab`, open the copy in the JupyterLab serving this folder (NO_LAB where none does). The exit status."""
    root = os.getcwd()
    try:
        target, copied, kept = make(root, assignment, work)
    except NoExercise as exc:
        print(f"No exercise copied: {exc}.", file=sys.stderr)
        return 2
    shown = os.path.relpath(target, root)
    if quiet:
        if copied:
            print(f"Your copy of the exercise is now in {shown}/ (lesson 03 links to it; `make check-exercise` "
                  "grades it).")
        return 0
    print(f"Your copy of the exercise is in {shown}/:")
    for name in copied:
        print(f"  {name}  (a fresh copy of the student version)")
    for name in kept:
        print(f"  {name}  (already there: kept as it is; your work is never overwritten)")
    print("Answer it in JupyterLab, save, then run `make check-exercise` to have it graded as a class's work is.")
    if not in_lab:
        return 0
    lab = running_lab(root)
    if lab is None:
        return NO_LAB
    url = f"{lab[0]}lab/tree/{urllib.parse.quote(os.path.relpath(target, root))}/{assignment}.ipynb"
    print(f"JupyterLab is already running on this folder: your copy opens there (no second JupyterLab):\n  "
          f"{url}{lab[1]}")
    webbrowser.open(url + lab[1])
    return 0

