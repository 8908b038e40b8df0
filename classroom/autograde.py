"""Autograde every submission, and make sure each one ends with a recorded grade and a notebook to feed back.

    python -m classroom.autograde ASSIGNMENT [--no-sandbox] [more nbgrader autograde options, e.g. --force]

Runs `nbgrader autograde` (whose pipeline, set in nbgrader_config.py, already survives hanging, crashing and
cheating code), then checks every submission, found where nbgrader finds it (classroom.course: the course's
CourseDirectory, its db_url and folder names, as this command line and nbgrader_config.py set them). nbgrader skips a submission it could not process (a
corrupt notebook file, say) and deletes its autograded copy, which would leave no feedback and, on a re-grade, the
previous score in the gradebook. For each such submission this driver records 0 for every check (marked for manual
review), and writes an autograded notebook that says why, so `nbgrader generate_feedback` has something to send.
Exit status: 0 if every submission was graded normally, 1 if any needed this fallback (the summary says which),
2 if grading refused to start: every student's code runs in a bubblewrap sandbox (classroom.sandbox), and without
bubblewrap this driver stops with instructions unless `--no-sandbox` says, knowingly, to grade without one.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import cells, course, failures, sandbox

FALLBACK = ("The grader could not run this notebook ({why}), so every check below scored 0. "
            "Your teacher has been told and will look at your submission by hand.")


def _nbgrader(args, root):
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run([str(bin_dir / "nbgrader"), *args], cwd=root, env=env).returncode


def check_submissions(coursedir, assignment):
    """[(student, notebook, why)] for every submitted notebook without a usable autograded copy and grade."""
    from nbgrader.api import Gradebook, MissingEntry

    problems = []
    with Gradebook(coursedir.db_url) as gb:
        notebooks = [nb.name for nb in gb.find_assignment(assignment).notebooks]
        for student, folder in course.submitted(coursedir, assignment).items():
            graded_folder = course.autograded(coursedir, student, assignment)
            for name in notebooks:
                if not os.path.exists(os.path.join(folder, f"{name}.ipynb")):
                    continue  # nbgrader itself records 0 for a notebook that was not handed in
                if not os.path.exists(os.path.join(graded_folder, f"{name}.ipynb")) or \
                        coursedir.get_existing_timestamp(graded_folder) != coursedir.get_existing_timestamp(folder):
                    problems.append((student, name, "nbgrader could not process the submitted file"))
                    continue
                try:
                    grades = gb.find_submission_notebook(name, assignment, student).grades
                except MissingEntry:
                    problems.append((student, name, "the gradebook has no record of it"))
                    continue
                if any(g.auto_score is None and g.manual_score is None for g in grades):
                    problems.append((student, name, "some checks have no score"))
    return problems


def fallback_notebook(source_cells, why):
    """The autograded notebook of a submission nbgrader could not process: a note, then the source notebook's
    cells, every check failed with NOT_GRADED (nbformat as plain data)."""
    message = FALLBACK.format(why=why)
    notebook = [{"cell_type": "markdown", "metadata": {}, "source": f"**{message}**"}]
    for cell in source_cells:
        outputs = [failures.error_output(failures.NOT_GRADED, message)] if cell.is_check else []
        notebook.append(cell.new_cell(outputs))
    return {"cells": notebook, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}},
            "nbformat": 4, "nbformat_minor": 4}


def record_failure(coursedir, assignment, student, notebook, why):
    """Record 0 for every check of this notebook and write an autograded notebook that explains it."""
    from nbgrader.api import Gradebook

    with Gradebook(coursedir.db_url) as gb:
        gb.update_or_create_student(student)
        timestamp = gb.update_or_create_submission(assignment, student).timestamp
        nb = fallback_notebook(cells.source_cells(gb, notebook, assignment), why)
        for grade in gb.find_submission_notebook(notebook, assignment, student).grades:
            grade.auto_score = 0.0
            grade.needs_manual_grade = True
        gb.db.commit()
    folder = Path(course.autograded(coursedir, student, assignment))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{notebook}.ipynb"
    if target.exists():
        target.chmod(0o644)
    target.write_text(json.dumps(nb, indent=1))
    submitted = Path(coursedir.format_path(coursedir.submitted_directory, student, assignment))
    for extra in submitted.iterdir():  # timestamp.txt and submission_secret.txt, which feedback release needs
        if extra.is_file() and extra.suffix != ".ipynb":
            shutil.copy(extra, folder / extra.name)
    if not (folder / "timestamp.txt").exists() and timestamp is not None:
        (folder / "timestamp.txt").write_text(str(timestamp))


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    assignment, extra = argv[0], argv[1:]
    if "--no-sandbox" in extra:
        extra = [a for a in extra if a != "--no-sandbox"] + ["--Sandbox.enabled=False"]
        print("[classroom.autograde] --no-sandbox: grading WITHOUT the sandbox; every student's code runs with your "
              "rights", file=sys.stderr)
    elif sandbox.bwrap_path() is None:
        print(f"[classroom.autograde] {sandbox.MISSING}", file=sys.stderr)
        return 2
    coursedir = course.course_directory([assignment, *extra])
    status = _nbgrader(["autograde", assignment, *extra], Path.cwd())
    problems = check_submissions(coursedir, assignment)
    for student, notebook, why in problems:
        print(f"[classroom.autograde] {student}/{notebook}: {why}; recorded 0 for every check and wrote an "
              "explanation for the feedback", file=sys.stderr)
        record_failure(coursedir, assignment, student, notebook, why)
    if problems:
        return 1
    if status != 0:
        print(f"[classroom.autograde] nbgrader autograde exited with status {status}, yet every submission has a "
              "grade: see its log above", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
