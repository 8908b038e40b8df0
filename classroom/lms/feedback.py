"""`make lms-feedback` (`python -m classroom.lms.feedback ASSIGNMENT`): the HTML feedback of feedback/ (`make
feedback`) as one zip for the bulk feedback upload of the LMS whose roster lies at c.LmsRoster.path, each student's
page (one per notebook) named as that LMS matches files to students:

  Canvas (the assignment's "Re-upload Submissions"): <name>_<user id>_<attachment id>_<notebook>-feedback.html,
    where <user id> and <attachment id> are those of the file the student handed in (Canvas takes the first two
    all-digit parts of the name; downloaded/<assignment>/lms-collected.json, written by `make collect-zip`, keeps
    them); each page becomes a comment on the student's submission.
  Moodle (Submissions > "Upload multiple feedback files in a zip", with the "Feedback files" feedback type):
    <Full name>_<participant id>_assignfeedback_file_<notebook>-feedback.html, the flat form every Moodle since 2.3
    reads; each page becomes a feedback file of the student's grade.

The zip is deterministic (classroom.lms.release_zip.write_zip): the same pages give the same bytes.
"""
import glob
import os
import re


from . import collect_zip, member_names
from .release_zip import write_zip
from .roster import LmsRoster

OUT = "lms/{assignment}-{lms}-feedback.zip"
UNSAFE_IN_NAME = re.compile(r"[\x00-\x1f\x7f/\\_:*?\"<>|]+")


def canvas_name(entry, notebook_stem):
    """Canvas's name for a page, from the member the student's notebook came from; None if it was not Canvas's."""
    match = member_names.CANVAS.fullmatch(entry.get("member", "")) if entry.get("lms") == "canvas" else None
    if not match:
        return None
    late = "_LATE" if match["late"] else ""
    return f"{match['name']}{late}_{match['lms_id']}_{match['attachment']}_{notebook_stem}-feedback.html"


def moodle_name(student, notebook_stem):
    full_name = UNSAFE_IN_NAME.sub(" ", student.row.get("Full name", "")).strip() or "student"
    return f"{full_name}_{student.lms_id}_assignfeedback_file_{notebook_stem}-feedback.html"


def pages(coursedir, assignment):
    """{nbgrader id: [(path, notebook stem)]} of the feedback pages in feedback/."""
    found = {}
    pattern = coursedir.format_path(coursedir.feedback_directory, "*", assignment)
    for folder in sorted(glob.glob(pattern)):
        student = os.path.basename(os.path.dirname(folder))
        for path in sorted(glob.glob(os.path.join(glob.escape(folder), "*.html"))):
            found.setdefault(student, []).append((path, os.path.splitext(os.path.basename(path))[0]))
    return found


def plan(roster, manifest, found):
    """([(page path, name in the zip)], [(student, why not)])."""
    members, missing = [], []
    students = roster.by_student()
    for student_id, student_pages in sorted(found.items()):
        student = students.get(student_id)
        if student is None:
            missing.append((student_id, f"not in the roster {roster.path}"))
            continue
        for path, stem in student_pages:
            if roster.lms == "moodle":
                members.append((path, moodle_name(student, stem)))
                continue
            entries = manifest.get(student_id, {})
            entry = entries.get(stem + ".ipynb") or next(iter(entries.values()), {})
            name = canvas_name(entry, stem)
            if name is None:
                missing.append((student_id, "no file of theirs came from a Canvas download (make collect-zip), "
                                            "so Canvas's ids for their submission are unknown"))
                break
            members.append((path, name))
    return members, missing


def feedback_command(app, assignment, roster_path=None):
    """`classroom lms-feedback`: write the zip and say what went in; the exit status. `app`: the command (its
    configuration and course directory)."""
    roster = LmsRoster(config=app.config).read(roster_path)
    collect_app = collect_zip.LmsCollectApp(config=app.config, coursedir=app.coursedir)
    app.coursedir.assignment_id = assignment
    members, missing = plan(roster, collect_zip.load_manifest(collect_app), pages(app.coursedir, assignment))
    dest = write_zip(members, OUT.format(assignment=assignment, lms=roster.lms))
    print(f"{dest}: {len(members)} feedback pages for {roster.lms}")
    for student, why in missing:
        print(f"  no feedback in the zip for {student}: {why}")
    return 0

