"""Once a graded quiz is handed out, the key it is graded with is the key of the quiz the students fetched.

A variant's questions and its key come together from one seed (`classroom quiz-variant`): a new variant written after
students fetched the old one would grade their answers against questions they never saw. So the quiz's key (a digest
of its grade cells, `quiz_*`, hidden tests included) is fixed when the quiz is handed out, in the course's decisions
(classroom.decisions, `quiz_keys`), and every command that would change it refuses, saying why and how to do it
knowingly:

  make quiz-variant   `classroom quiz-variant` refuses to rewrite the quiz (`refusal`);
  make release        this module's command refuses to put a changed quiz into the gradebook (`classroom
                      quiz-key ASSIGNMENT`, before nbgrader generate_assignment);
  make autograde      the driver refuses to grade with a key other than the handed-out one (the formgrader's
                      Generate button, or plain `nbgrader generate_assignment`, may have changed the gradebook), and
                      records the key at its first grading (`recorded_or_refused`).

The quiz counts as handed out once any of these holds: its key is recorded; the exchange's outbound/ holds the
assignment (nbgrader release_assignment, the formgrader's Release); the LMS release zip exists (make release-zip); a
submission is collected in submitted/ or graded in the gradebook. Knowingly (every student then gets the new quiz's
questions and is graded with its key): `make quiz-variant QUIZ_SEED=... QUIZ_REPLACE=yes`, or after editing the quiz
by hand `make release QUIZ_REPLACE=yes`, which records the new key (`--accept`).
"""
import glob
import json
import os

from .. import cells, course
from ..bookkeeping import digest as key_digest
from ..bookkeeping import lock
from . import store as decisions

PREFIX = "quiz_"  # the grade ids of a quiz's checks (classroom/quiz/notebook.py: quiz_<question id>)
KNOWINGLY = ("To hand out another quiz knowingly (every student must then fetch it, and is graded with its key): "
             "`make quiz-variant QUIZ_SEED=<seed> QUIZ_REPLACE=yes`, or after an edit by hand `make release "
             "QUIZ_REPLACE=yes`.")


def digest(checks):
    """The key of a quiz: a digest of its checks [(grade id, source)], None if there are none."""
    found = sorted((name, source) for name, source in checks if name.startswith(PREFIX))
    return key_digest.digest(found) if found else None


def gradebook_key(gb, assignment):
    """The key of the quiz the gradebook grades `assignment` with (None: it has no quiz)."""
    found = gb.find_assignment(assignment)
    return digest((cell.name, cell.source or "") for nb in found.notebooks for cell in nb.source_cells
                  if cell.name in {grade.name for grade in nb.grade_cells})


def source_key(coursedir, assignment):
    """The key of the quiz in source/ (what the next nbgrader generate_assignment puts into the gradebook)."""
    folder = coursedir.format_path(coursedir.source_directory, ".", assignment)
    checks = []
    for path in sorted(glob.glob(os.path.join(folder, "*.ipynb"))):
        with open(path, encoding="utf-8") as handle:
            nb = json.load(handle)
        checks += [(cells.grade_id(cell), cells.source(cell)) for cell in nb.get("cells", []) if cells.is_grade(cell)]
    return digest(checks)


def _exchange_outbound(config, coursedir, assignment):
    from nbgrader.exchange.default.exchange import Exchange

    return os.path.join(Exchange(config=config, coursedir=coursedir).root, coursedir.course_id, "outbound", assignment)


def handed_out(app, gb, assignment):
    """[why the quiz of `assignment` counts as handed out], empty if it does not; `app` is nbgrader's application
    reading the course (classroom.course.course_app), `gb` its gradebook or None if it has none yet."""
    coursedir, evidence = app.coursedir, []
    if decisions.read(coursedir.root)["quiz_keys"].get(assignment):
        evidence.append(f"its key was recorded when it was first graded ({decisions.FILE})")
    outbound = _exchange_outbound(app.config, coursedir, assignment)
    if os.path.isdir(outbound):
        evidence.append(f"the exchange holds it ({outbound})")
    release_zip = os.path.join(coursedir.root, "lms", f"{assignment}-release.zip")
    if os.path.isfile(release_zip):
        evidence.append(f"the LMS release zip exists ({os.path.relpath(release_zip, coursedir.root)})")
    collected = course.submitted(coursedir, assignment)
    if collected:
        evidence.append(f"{len(collected)} submissions are collected in {coursedir.submitted_directory}/")
    if gb is not None and gb.assignment_submissions(assignment):
        evidence.append(f"{len(gb.assignment_submissions(assignment))} submissions are graded in the gradebook")
    return evidence


def handed_out_key(app, gb, assignment):
    """The key students fetched: the recorded one, else (handed out but not yet graded) the gradebook's."""
    recorded = decisions.read(app.coursedir.root)["quiz_keys"].get(assignment)
    if recorded:
        return recorded
    try:
        return gradebook_key(gb, assignment) if gb is not None else None
    except Exception:  # no such assignment in the gradebook yet: nothing was handed out from it
        return None


def refusal(app, gb, assignment, new_key, doing):
    """Why `doing` (which would make `new_key` the quiz's key) may not run, or None."""
    evidence = handed_out(app, gb, assignment)
    fetched = handed_out_key(app, gb, assignment) if evidence else None
    if not evidence or fetched is None or new_key == fetched:
        return None
    return (f"{doing} would change the key of the graded quiz of {assignment}, which is handed out ("
            + "; ".join(evidence) + "): students answered the quiz they fetched, and would be graded with another "
            "quiz's key. Nothing was changed. " + KNOWINGLY)


def recorded_or_refused(coursedir, gb, assignment):
    """For the autograde driver (holding the course's lock): None once the gradebook's quiz key is the handed-out one
    (recorded here at the first grading); else why grading may not start."""
    key = gradebook_key(gb, assignment)
    if key is None:
        return None
    data = decisions.read(coursedir.root)
    recorded = data["quiz_keys"].get(assignment)
    if recorded is None:
        data["quiz_keys"][assignment] = key
        decisions.write(coursedir.root, data)
        return None
    if recorded == key:
        return None
    return (f"the graded quiz of {assignment} in the gradebook is not the one handed out (its key changed since it "
            "was first graded: `make quiz-variant`, an edit of the quiz, then nbgrader generate_assignment or the "
            "formgrader's Generate): nobody was graded. Put the handed-out quiz back (`git checkout` the quiz "
            "notebook in source/, then `make release`). " + KNOWINGLY)


def open_gradebook(coursedir):
    """nbgrader's Gradebook of the course, or None where it has none yet (opening one would create it)."""
    from nbgrader.api import Gradebook

    path = course.sqlite_file(coursedir.db_url)
    if path is not None and not os.path.exists(path):
        return None
    return Gradebook(coursedir.db_url, coursedir.course_id)
