"""`make check-exercise`: grade the learner's my-work/<assignment>/ as a class's work is graded, and show the feedback.

    classroom check-exercise [ASSIGNMENT] [--work my-work] [--no-sandbox]

First the learner's files are looked at (each notebook there, a regular file, a notebook, and this assignment's);
whatever is wrong is said in a sentence with what to do, and nothing is graded. Then, in a private course made for
this run only (a temporary folder, removed at the end), the repository's own steps run as an instructor runs them:
`nbgrader generate_assignment` (the gradebook, from source/ read in place), the learner's notebooks handed in as
student `learner`, `python -m classroom.autograde` (the class's driver: the sandbox, every hidden part of every
check, the same messages) and `nbgrader generate_feedback` (the class's page, with the self_study template that adds
a note after full marks). The pages are written to my-work/feedback/<notebook>.html, and the score of each notebook
and each part of it (the level-2 headings of the notebook, "## Part 1: ...") is printed, with the checks not passed.
An answer a teacher grades by hand (the written derivation) is not graded here: it is named, its points are left out
of the scores and of full marks, and after full marks the learner compares it with the reference.
Every run grades the files as they are now: nothing of an earlier run is kept. This module reads the learner's files
and says what it found; the private course is classroom.self_study.private_course, the table
classroom.self_study.score_table.

Run it through make: `make check-exercise` puts the environment's bin/ first on PATH, where nbgrader finds `alembic`
to make the private gradebook.

Exit status: 0 when graded, 1 when the grader itself failed (the message says why), 2 when nothing was graded
(a file to fix, no sandbox, no such assignment).
"""
import os
import stat
import sys
import textwrap

from .. import course, intake
from ..lms.collector import released_ids, which_notebook
from ..sandbox import launch
from . import ASSIGNMENT, WORK, exercise_folder, feedback_folder, released_folder, released_notebooks
from .private_course import GraderFailed, grade
from .score_table import WIDTH, graded_here, table

PROG = "make check-exercise"
NO_SANDBOX = f"{PROG} CHECK_ARGS=--no-sandbox"
NO_BWRAP = f"""Checking your work refuses to run: bubblewrap (`bwrap`) is not installed, and the grader a class gets
runs every student's code in it (no network, nothing else of the machine visible, limits on memory and time).
{launch.INSTALL}
To grade only your own code, knowingly without a sandbox (it then runs with your rights, as in JupyterLab):
  {NO_SANDBOX}"""


# ---- the learner's files ------------------------------------------------------------------------------------------
def problems(folder, notebooks, released):
    """[sentence] for every notebook of `notebooks` that cannot be graded as it is in `folder`; `released` is the
    student version's folder (to recognise a notebook by its graded cells)."""
    shown = os.path.relpath(folder)
    if not os.path.isdir(folder):
        return [f"There is no {shown}/ yet: run `make exercise` to get your copy of the exercise, answer it in "
                f"JupyterLab, then run `{PROG}` again."]
    found, ids = [], released_ids(released)
    for name in notebooks:
        path = os.path.join(folder, f"{name}.ipynb")
        where = os.path.relpath(path)
        fresh = "move it away and run `make exercise` for a fresh copy (it keeps every notebook already there)"
        try:
            mode = os.lstat(path)
        except FileNotFoundError:
            others = sorted(n for n in os.listdir(folder) if n.endswith(".ipynb") and n[:-6] not in notebooks)
            holds = f" (the folder holds {', '.join(others)})" if others else ""
            found.append(f"{where} is not there{holds}: name your notebook {name}.ipynb, or run `make exercise` "
                         "to put a fresh copy back (it keeps every notebook already there).")
            continue
        if not stat.S_ISREG(mode.st_mode):
            found.append(f"{where} is {intake.kind(mode.st_mode)}, not a notebook file: put the notebook itself "
                         f"there, or {fresh}.")
        elif mode.st_size > intake.MAX_FILE_BYTES:
            found.append(f"{where} is {mode.st_size / 2 ** 20:.0f} MiB, more than the grader reads "
                         f"({intake.MAX_FILE_BYTES // 2 ** 20} MiB): clear its outputs in JupyterLab (Edit › Clear "
                         "Outputs of All Cells), save it, and run this again.")
        elif not readable_notebook(path):
            found.append(f"{where} is not a notebook JupyterLab can open: if it still opens, save it again from "
                         f"there; otherwise {fresh}.")
        else:
            recognised = which_notebook(path, f"{name}.ipynb", ids)
            if recognised == "":
                found.append(f"{where} is not this exercise's notebook: none of its graded cells is one of "
                             f"{name}.ipynb's (is it from another assignment or course?): {fresh}.")
            elif recognised != f"{name}.ipynb":
                found.append(f"{where} holds the cells of {recognised}, not those of {name}.ipynb: put each "
                             f"notebook under its own name, or {fresh}.")
    return found


def readable_notebook(path):
    """True if `path` is a notebook nbformat reads and validates (what grading asks of a hand-in)."""
    import nbformat

    try:
        nbformat.validate(nbformat.reads(intake.read_regular(path).decode("utf-8"), as_version=nbformat.NO_CONVERT))
    except Exception:  # not UTF-8, not JSON, not a notebook, an nbformat it cannot read
        return False
    return True


# ---- what is printed ------------------------------------------------------------------------------------------------
def report_lines(summary, parts, by_hand, pages, work, sandboxed):
    learner = summary.students[0]
    how = "in the sandbox" if sandboxed else "WITHOUT the sandbox (--no-sandbox: your code ran with your rights)"
    out = textwrap.wrap(f"Graded {work}/ with the grader a class gets, {how}, every hidden part of every check "
                        "included.", WIDTH) + [""]
    out += table(summary, parts, by_hand)
    out += ["", "The feedback pages (open them in a browser, or in JupyterLab's file browser):"]
    out += [f"  {os.path.relpath(page)}" for page in pages]
    tops = graded_here(summary, by_hand)
    full = [f"{name}.ipynb" for name, _ in summary.notebooks if learner.notebooks.get(name, 0.0) >= tops[name] > 0]
    if len(full) == len(summary.notebooks):
        out.append("Full marks. The pages now say where the reference solution is, and what to read next.")
    else:
        if full:
            out.append(f"Full marks on {' and '.join(full)}: its page now says where the reference solution is.")
        out.append(f"Each page says what its checks found. Fix your work, save it, and run `{PROG}` again.")
    return out


def check_exercise_command(assignment=ASSIGNMENT, work=WORK, sandboxed=True):
    """Check the learner's work, saying what was found or graded; the exit status (see the module)."""
    if sandboxed and launch.bwrap_path() is None:
        print(NO_BWRAP, file=sys.stderr)
        return 2
    coursedir = course.course_directory(root=os.getcwd())
    folder = exercise_folder(work, assignment)
    if not os.path.isdir(released_folder(coursedir, assignment)):
        print(f"Nothing was graded: this course has no assignment {assignment!r} (no student version in "
              f"{os.path.relpath(released_folder(coursedir, assignment))}).", file=sys.stderr)
        return 2
    found = problems(folder, released_notebooks(coursedir, assignment),
                     released_folder(coursedir, assignment))
    if found:
        print("Nothing was graded:\n" + "\n".join(textwrap.fill(f"- {problem}", WIDTH, subsequent_indent="  ")
                                                  for problem in found), file=sys.stderr)
        return 2
    print(f"Grading {folder}/ (this takes a minute) ...", flush=True)
    try:
        summary, parts, by_hand, pages = grade(coursedir, assignment, folder, feedback_folder(work),
                                               sandboxed)
    except GraderFailed as exc:
        print(f"Nothing was graded: the grader itself failed, not your work. {exc}", file=sys.stderr)
        return 1
    print("\n".join(report_lines(summary, parts, by_hand, pages, folder, sandboxed)))
    return 0

