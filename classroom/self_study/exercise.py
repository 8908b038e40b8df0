"""`make exercise`: the learner's own copy of the exercise, my-work/<assignment>/, made from the student version.

    classroom exercise [ASSIGNMENT] [--work my-work]

Every file of release/<assignment>/ that is not in my-work/<assignment>/ yet is copied there; a file already there is
the learner's work and is left exactly as it is (the copy is made with O_EXCL, so not even a race overwrites one).
Run it again after deleting a notebook to get a fresh copy of that one only.
"""
import os
import sys

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


def exercise_command(assignment=ASSIGNMENT, work=WORK):
    """Copy the exercise into the learner's folder, saying what was copied and kept; the exit status."""
    root = os.getcwd()
    try:
        target, copied, kept = make(root, assignment, work)
    except NoExercise as exc:
        print(f"No exercise copied: {exc}.", file=sys.stderr)
        return 2
    shown = os.path.relpath(target, root)
    print(f"Your copy of the exercise is in {shown}/:")
    for name in copied:
        print(f"  {name}  (a fresh copy of the student version)")
    for name in kept:
        print(f"  {name}  (already there: kept as it is; your work is never overwritten)")
    print("Answer it in JupyterLab, save, then run `make check-exercise` to have it graded as a class's work is.")
    return 0

