"""Placeholder until the intake branch lands: plain ids, and a copy of regular files only."""
import os
import re
import shutil
import stat

PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


class BadSubmission(ValueError):
    pass


def check_student_id(student_id):
    if not PLAIN.fullmatch(student_id) or student_id in (".", ".."):
        raise BadSubmission(f"the student id {student_id!r} is not plain")


def copy_submission(source, dest):
    dropped = []
    for name in sorted(os.listdir(source)):
        path = os.path.join(source, name)
        mode = os.lstat(path).st_mode
        if stat.S_ISREG(mode):
            shutil.copyfile(path, os.path.join(dest, name))
        else:
            dropped.append((name, "not a regular file"))
    return dropped
