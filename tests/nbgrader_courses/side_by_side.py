"""One assignment of assignments.py graded twice, side by side, as an instructor who adopts our grading system would
compare them: by plain nbgrader (`nbgrader autograde`, a course that loads none of our plugins) and by ours (the same
course with the plugin selection loaded first in its nbgrader_config.py, graded by `python -m classroom.autograde`, in
the sandbox where this machine has one). Both courses are one course before grading: generated once by plain nbgrader,
the hand-ins placed in submitted/ with the files the student fetched, then copied.

`grade(assignment, folder)` returns a Graded: each course's folder and every grade cell's score in each gradebook.
"""
import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from classroom import cells
from coursekit import forked_commands
from coursekit.trial_course import AUTOGRADE_FLAGS, LAUNCHER_CLASS, nbgrader, nbgrader_env
from . import assignments

COURSE_ID = "other-course"
# Both courses: nbgrader's own limit per cell (a course may set it); the wrong hand-in of lab2 loops for ever in one cell.
# After interrupting a cell at its limit, plain nbgrader waits nbclient's iopub_timeout (4 s by default) for the
# kernel to say the cell ended, and past it fails the student's whole notebook: on a loaded machine (a busy CI) that
# made plain nbgrader's result a coin toss, so both courses wait longer, as a course may set.
LIMITS = "c.Execute.timeout = 10\nc.Execute.iopub_timeout = 120\n"
PLAIN = f'c = get_config()\nc.CourseDirectory.course_id = "{COURSE_ID}"\n{LIMITS}'
OURS = f'''from classroom.plugins import SELECTION_FOLDER

c = get_config()
load_subconfig("nbgrader_config.py", path=SELECTION_FOLDER)
c.CourseDirectory.course_id = "{COURSE_ID}"
{LIMITS}c.Grader.launcher_class = "{LAUNCHER_CLASS}"
'''
WHEN = "2026-11-30 10:00:00.000000 UTC"


@dataclass
class Graded:
    plain: Path    # the course graded by plain nbgrader
    ours: Path     # the course graded by classroom.autograde
    scores: dict   # {"plain" | "ours": {(student, notebook, grade_id): auto score or None}}
    log: str       # classroom.autograde's output
    plain_log: str  # plain nbgrader's output (where a difference comes from nbgrader failing a notebook)


def write_source(course, assignment):
    notebooks, files = assignments.ASSIGNMENTS[assignment]
    source = course / "source" / assignment
    for name, nb in notebooks.items():
        source.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, source / f"{name}.ipynb")
    for relative, text in files.items():
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_text(text)


def answered(released, edits):
    """The released notebook with the student's source in the answer cells `edits` names."""
    nb = json.loads(released.read_text())
    for cell in nb["cells"]:
        if cells.grade_id(cell) in edits:
            cell["source"] = edits[cells.grade_id(cell)]
    return nb


def hand_in(course, assignment, student):
    """Place `student`'s hand-in in submitted/: what they fetched (the release's files), their notebooks."""
    release, source = course / "release" / assignment, course / "source" / assignment
    folder = course / "submitted" / student / assignment
    shutil.copytree(release, folder)
    for name in assignments.ASSIGNMENTS[assignment][0]:
        target = folder / f"{name}.ipynb"
        if student == "correct":
            shutil.copyfile(source / f"{name}.ipynb", target)
        elif student == "wrong":
            edits = assignments.WRONG[assignment].get(name, {})
            target.write_text(json.dumps(answered(release / f"{name}.ipynb", edits)))
    (folder / "timestamp.txt").write_text(WHEN)


def scores(course, assignment):
    """{(student, notebook, grade_id): auto score} of every grade cell in the course's gradebook (None: not scored
    automatically, or nbgrader did not grade it)."""
    from nbgrader.api import Gradebook

    found = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE_ID) as gb:
        for student in assignments.STUDENTS:
            for name in assignments.ASSIGNMENTS[assignment][0]:
                try:
                    notebook = gb.find_submission_notebook(name, assignment, student)
                except Exception:  # nbgrader failed on this student's assignment: nothing recorded
                    continue
                for grade in notebook.grades:
                    found[(student, name, grade.name)] = grade.auto_score
    return found


def grade(assignment, folder):
    """Generate `assignment`, hand in each of assignments.STUDENTS, and grade it both ways (see the module)."""
    plain = Path(folder) / "plain"
    plain.mkdir(parents=True)
    (plain / "nbgrader_config.py").write_text(PLAIN)
    write_source(plain, assignment)
    nbgrader("generate_assignment", assignment, cwd=plain)
    for student in assignments.STUDENTS:
        hand_in(plain, assignment, student)
    ours = Path(folder) / "ours"
    shutil.copytree(plain, ours)
    (ours / "nbgrader_config.py").write_text(OURS)
    # plain nbgrader fails a student's whole assignment on some hand-ins (the bonus point): that is its result
    plain_run = nbgrader("autograde", assignment, cwd=plain, check=False)
    run = forked_commands.run([sys.executable, "-m", "classroom.autograde", assignment, "--jobs", "2",
                               *AUTOGRADE_FLAGS], cwd=ours, env=nbgrader_env(), capture_output=True, text=True)
    return Graded(plain, ours, {"plain": scores(plain, assignment), "ours": scores(ours, assignment)},
                  run.stdout + run.stderr, plain_run.stdout + plain_run.stderr)


def differences(graded):
    """{(student, notebook, grade_id): (plain nbgrader's score, ours)} where they differ."""
    keys = set(graded.scores["plain"]) | set(graded.scores["ours"])
    return {key: (graded.scores["plain"].get(key), graded.scores["ours"].get(key)) for key in sorted(keys)
            if graded.scores["plain"].get(key) != graded.scores["ours"].get(key)}


def feedback_pages(graded, assignment):
    """`nbgrader generate_feedback` in our course, as `make feedback` runs it: {(student, notebook): the page}."""
    nbgrader("generate_feedback", assignment, cwd=graded.ours)
    return {(student, name): (graded.ours / "feedback" / student / assignment / f"{name}.html").read_text()
            for student in assignments.STUDENTS for name in assignments.ASSIGNMENTS[assignment][0]}


def plain_page(graded, assignment, student, notebook):
    """The feedback page plain nbgrader makes of one notebook."""
    nbgrader("generate_feedback", assignment, "--student", student, cwd=graded.plain)
    return (graded.plain / "feedback" / student / assignment / f"{notebook}.html").read_text()


def autograded(graded, student, assignment, notebook):
    """Our autograded notebook, as JSON."""
    return json.loads((graded.ours / "autograded" / student / assignment / f"{notebook}.ipynb").read_text())

