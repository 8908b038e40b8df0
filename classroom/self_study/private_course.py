"""The private course of one `make check-exercise` run: the learner's notebooks graded as a class's work is.

In a temporary folder removed at the end, the repository's own steps run as an instructor runs them: `nbgrader
generate_assignment` (the gradebook, from source/ read in place), the learner's notebooks handed in as student
`learner`, `python -m classroom.autograde` and `nbgrader generate_feedback`; then the report's Summary, the parts and
the by-hand answers of each notebook (classroom.self_study.score_table) and the feedback pages are read out of it.
"""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

from .. import course, intake
from ..report import read as report
from . import STUDENT, released_notebooks
from .score_table import by_hand_points, part_headings


class GraderFailed(Exception):
    """The grader itself failed (not the learner's work); str() says what it reported."""


def run(step, argv, cwd):
    """Run one step of the course's own command line in `cwd`; GraderFailed with its output if it fails."""
    result = subprocess.run([sys.executable, "-m", *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    if result.returncode != 0:
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        raise GraderFailed(f"{step} failed (status {result.returncode}); its last lines:\n" + "\n".join(lines[-12:]))
    return result.stdout


@contextlib.contextmanager
def private_course(coursedir, assignment):
    """A course of its own for one run, in a temporary folder removed afterwards: the repository's
    nbgrader_config.py, read as it is, with source/ read where it lies (nothing of it copied), the learner's feedback
    page template, and the assignment generated into its gradebook. Yields the course's root."""
    root = tempfile.mkdtemp(prefix="check-exercise-")
    try:
        config = os.path.join(coursedir.root, "nbgrader_config.py")
        source = os.path.join(coursedir.root, coursedir.source_directory)
        with open(os.path.join(root, "nbgrader_config.py"), "w") as file:
            file.write(f"c = get_config()  # noqa: F821\nload_subconfig({config!r})  # noqa: F821\n"
                       f"c.CourseDirectory.source_directory = {source!r}\n"
                       'c.FeedbackPage.template_name = "self_study"\n')
        run("Generating the assignment", ["nbgrader", "generate_assignment", assignment, "--force"], root)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def hand_in(root, assignment, folder, notebooks):
    """Put the learner's notebooks where the private course takes submissions."""
    private = course.course_directory(root=root)
    submitted = private.format_path(private.submitted_directory, STUDENT, assignment)
    os.makedirs(submitted)
    for name in notebooks:
        with open(os.path.join(submitted, f"{name}.ipynb"), "wb") as file:
            file.write(intake.read_regular(os.path.join(folder, f"{name}.ipynb")))
    return private


def write_pages(private, assignment, notebooks, target):
    """Copy the feedback pages out of the private course, each replacing the last one whole: [their paths]."""
    pages = private.format_path(private.feedback_directory, STUDENT, assignment)
    os.makedirs(target, exist_ok=True)
    written = []
    for name in notebooks:
        page = os.path.join(target, f"{name}.html")
        handle, temporary = tempfile.mkstemp(dir=target, prefix=f".{name}-", suffix=".html")
        with os.fdopen(handle, "wb") as out, open(os.path.join(pages, f"{name}.html"), "rb") as made:
            shutil.copyfileobj(made, out)
        os.chmod(temporary, 0o644)
        os.replace(temporary, page)
        written.append(page)
    return written


def grade(coursedir, assignment, folder, target, sandboxed=True):
    """Grade the learner's `folder` in a private course: (the report's Summary, {notebook: part_headings},
    {notebook: by_hand_points}, [feedback pages written])."""
    notebooks = released_notebooks(coursedir, assignment)
    with private_course(coursedir, assignment) as root:
        private = hand_in(root, assignment, folder, notebooks)
        run("Grading", ["classroom.autograde", assignment, *([] if sandboxed else ["--no-sandbox"])], root)
        run("Writing the feedback", ["nbgrader", "generate_feedback", assignment, "--force"], root)
        summary = report.read_summary(root, assignment)
        parts = {name: part_headings(private, assignment, name) for name in notebooks}
        by_hand = {name: by_hand_points(private, assignment, name) for name in notebooks}
        return summary, parts, by_hand, write_pages(private, assignment, notebooks, target)
