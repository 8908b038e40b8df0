"""Where a course keeps its files, as nbgrader itself sees them: one CourseDirectory, never a path written by hand.

`course_directory(argv)` reads the configuration exactly as `nbgrader autograde ARGV` does (the nbgrader_config.py
files, then the command line: `--db`, `--CourseDirectory.submitted_directory=...`, `--student`), so a course that
keeps its gradebook elsewhere, or names its folders otherwise, is obeyed. The helpers below find submissions and
their graded copies through it (format_path, db_url, get_existing_timestamp).
"""
import glob
import os
import re

SQLITE = "sqlite:///"


def course_app(argv=(), root=None):
    """nbgrader's autograde application for ARGV run in `root` (default: the current directory), configured (its
    `config`, `coursedir`, the converter's options such as --force) but not started."""
    from nbgrader.apps.autogradeapp import AutogradeApp

    class Reader(AutogradeApp):
        def init_syspath(self):
            """Only the configuration is read here: sys.path stays as it is."""

    app = Reader()
    app.initialize(list(argv), root=os.path.abspath(root) if root else "")
    return app


def course_directory(argv=(), root=None):
    """nbgrader's CourseDirectory for `nbgrader autograde ARGV` run in `root` (default: the current directory)."""
    return course_app(argv, root).coursedir


def sqlite_file(db_url):
    """The file of an SQLite gradebook's URL (sqlite:///PATH), or None when the gradebook is another database."""
    return db_url[len(SQLITE):] if db_url.startswith(SQLITE) else None


def submitted(coursedir, assignment, student=None):
    """{student id: folder} of every submission of `assignment` whose student id matches `student` (a glob; default:
    coursedir.student_id if set, else every student)."""
    folders = glob.glob(coursedir.format_path(coursedir.submitted_directory, student or coursedir.student_id or "*",
                                              assignment))
    pattern = re.compile(coursedir.format_path(coursedir.submitted_directory, "(?P<student_id>[^/]+)",
                                               re.escape(assignment), escape=True) + "$")
    found = {}
    for folder in sorted(folders):
        match = pattern.match(folder)
        if match and os.path.isdir(folder):
            found[match.group("student_id")] = folder
    return found


def autograded(coursedir, student, assignment):
    """The folder of one student's autograded copy of `assignment`."""
    return coursedir.format_path(coursedir.autograded_directory, student, assignment)
