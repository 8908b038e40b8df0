"""Grade one submission in a private staging area, touching nothing of the course: the first half of the transaction.

`stage(job)` makes a safe copy of the submitted folder (classroom.intake: regular files only), puts a renamed
notebook under the name the assignment expects (classroom.grading.notebook_files), sets aside a file that is not a
readable notebook, and runs nbgrader's own Autograde converter, with the course's configuration, on that copy, into a
staging autograded folder and a staging gradebook (a copy of a template holding only the assignment, with this student's
due date when they have an extension: classroom.decisions). What nbgrader does
not grade gets an explanation notebook, so the feedback always says what happened. Each notebook graded gets its
result (classroom.grading.result) beside it, written here once: per check its points, score, failure kind and
message, the repairs of its grade cells, the grader's notes for the student, the file it was handed in as, and
whether it was graded, left out or failed in the grader.

Two kinds of failure are told apart:
  GraderFailure  the machine or the grader's set-up failed (disk full, a database error, no sandbox): nothing is
                 recorded, the submission keeps its previous state, and the run ends non-zero;
  a failure inside the pipeline on this notebook (an exception nbgrader reports while converting it): 0 is staged,
                 flagged for grading by hand, with a feedback page that blames the grader, not the student; the
                 record marks it incomplete, so every later run tries again.
"""
import copy
import errno
import os
import shutil
import tempfile
from dataclasses import dataclass, field

import nbformat

from .. import cells, intake
from ..trusted import failures
from . import notebook_files, record, result

NOT_RUN = ("The grader could not grade this notebook ({why}), so every check below scored 0 for now. Your teacher "
           "has been told and will grade it by hand.")


class GraderFailure(Exception):
    """The grader itself failed on a submission; nothing was recorded. str() says the cause."""


@dataclass
class Job:
    """One student's submission to grade: which notebooks, and what their record will say was graded."""
    root: str
    course_id: str
    assignment: str
    student: str
    submitted: str            # the student's folder in submitted/ (read through classroom.intake only)
    graded: str               # the student's folder in autograded/ (replaced whole at commit)
    notebooks: list           # the notebooks to grade now
    handed: dict              # {notebook: (file name or None, note or None)} from classroom.grading.notebook_files
    expected: dict            # {notebook: (submission digest, version)}
    fresh: dict               # {notebook: True if the graded work differs from what was graded before}
    previous: dict            # the folder's current record (kept for the notebooks not graded now)
    config: object = None     # the course's traitlets Config (nbgrader_config.py and the command line)
    contents: dict = field(default_factory=dict)  # {notebook: content digest} (classroom.grading.record)
    due: object = None        # when this student's work is due (naive UTC), if not the class's (an extension)
    assignment_version: str = None  # the whole assignment's version when the run planned it (checked at commit)


@dataclass
class Staged:
    area: str
    folder: str
    gradebook: str
    entries: dict = field(default_factory=dict)   # {notebook: record entry without the grades digest}
    incomplete: dict = field(default_factory=dict)  # {notebook: why the pipeline failed on it}
    left_out: dict = field(default_factory=dict)    # {notebook: why it was not graded (not handed in, unreadable)}
    dropped: list = field(default_factory=list)   # [(file, why)] left out of the copy
    results: dict = field(default_factory=dict)   # {notebook: classroom.grading.result.Result}
    mended: dict = field(default_factory=dict)    # {notebook: the note on text mended to be graded, or None}


def disk_full(exc):
    """True if `exc` (or what caused it) says the disk, or the user's quota, is full."""
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if "disk is full" in str(exc) or "No space left" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def grader_failure(exc, doing):
    if disk_full(exc):
        return GraderFailure(f"the disk is full ({doing}); free some space and run `make autograde` again")
    return GraderFailure(f"{doing} failed: {type(exc).__name__}: {str(exc)[:300]}")


def _autograde(job, area, gradebook, log, recorded):
    """Run nbgrader's Autograde converter on the staged submission; {notebook: error} for notebooks it failed on.
    `recorded` gets {notebook: what the preprocessors recorded}."""
    from nbgrader.converters import Autograde
    from nbgrader.converters.base import NbGraderException
    from nbgrader.coursedir import CourseDirectory

    class Recording(Autograde):
        """nbgrader's converter, remembering the exception behind a failure (nbgrader only logs it) and what the
        preprocessors recorded for each notebook (resources["classroom"]: RepairGradeCells' repairs)."""
        failure = None

        def init_assignment(self, assignment_id, student_id):
            try:
                super().init_assignment(assignment_id, student_id)
            except Exception as exc:
                Recording.failure = exc
                raise

        def convert_single_notebook(self, notebook_filename):
            try:
                super().convert_single_notebook(notebook_filename)
            except Exception as exc:
                Recording.failure = exc
                raise

        def write_single_notebook(self, output, resources):
            recorded.setdefault(resources["unique_key"], {}).update(resources.get("classroom") or {})
            super().write_single_notebook(output, resources)

    config = copy.deepcopy(job.config)
    config.CourseDirectory.update(root=job.root, submitted_directory=os.path.join(area, "submitted"),
                                  autograded_directory=os.path.join(area, "autograded"),
                                  db_url=f"sqlite:///{gradebook}", student_id=job.student,
                                  assignment_id=job.assignment, notebook_id="*")
    config.Autograde.update(force=True, create_student=True)
    converter = Recording(coursedir=CourseDirectory(config=config), config=config, log=log)
    log.addFilter(_said_elsewhere)
    try:
        converter.start()
    except NbGraderException:
        exc = Recording.failure
        if exc is None or disk_full(exc) or isinstance(exc, (OSError, MemoryError)) or \
                type(exc).__module__.startswith("sqlalchemy"):
            raise grader_failure(exc or RuntimeError("see the log above"), "grading") from exc
        return {name: f"{type(exc).__name__}: {str(exc)[:200]}" for name in job.notebooks}
    finally:
        log.removeFilter(_said_elsewhere)
    return {}


def _said_elsewhere(record):
    """Leave out nbgrader's "No submitted file: <staging path>": the driver says what was not handed in, and why."""
    return not str(record.msg).startswith("No submitted file:")


def _timestamp(staged_submission):
    """The submission's time from its timestamp.txt; one that cannot be read is removed (nbgrader would stop on it)
    and the submission counts as on time."""
    from nbgrader.utils import parse_utc

    path = os.path.join(staged_submission, "timestamp.txt")
    try:
        with open(path) as file:
            return parse_utc(file.read().strip())
    except FileNotFoundError:
        return None
    except (ValueError, OverflowError, UnicodeDecodeError, OSError):
        os.remove(path)
        return None


def _explain(folder, gb, job, name, kind_message):
    """The autograded notebook of a notebook that was not graded: the message, then the assignment's cells, every
    check failed with NOT_GRADED and the message."""
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": f"**{kind_message}**"}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 4}
    for cell in cells.source_cells(gb, name, job.assignment):
        outputs = [failures.error_output(failures.NOT_GRADED, kind_message)] if cell.is_check else []
        nb["cells"].append(cell.new_cell(outputs))
    nbformat.write(nbformat.from_dict(nb), os.path.join(folder, f"{name}.ipynb"))


def _fill_gradebook(job, gb, left_out, failed, timestamp):
    """Scores for what nbgrader did not grade: 0, flagged for a look by hand unless simply not handed in (a file
    that is not a notebook, or files that may be it under other names, are flagged)."""
    gb.update_or_create_student(job.student)
    gb.update_or_create_submission(job.assignment, job.student, timestamp=timestamp)
    for name in job.notebooks:
        if name in left_out or name in failed:
            filename, _, suspects = job.handed[name]
            by_hand = name in failed or filename is not None or bool(suspects)
            for grade in gb.find_submission_notebook(name, job.assignment, job.student).grades:
                grade.auto_score, grade.needs_manual_grade = 0.0, by_hand
    gb.db.commit()


def _extend(job, gradebook):
    """This student's due date (an extension) in their private staging gradebook, so that nbgrader's own lateness
    and late penalty follow it."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{gradebook}", job.course_id) as gb:
        gb.find_assignment(job.assignment).duedate = job.due
        gb.db.commit()


def stage(job, template, work, log):
    """Grade `job` into a fresh staging area under `work`; returns Staged. Raises GraderFailure."""
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    area = tempfile.mkdtemp(prefix=f"{job.student}-", dir=work)
    try:
        submission = os.path.join(area, "submitted", job.student, job.assignment)
        folder = os.path.join(area, "autograded", job.student, job.assignment)
        gradebook = os.path.join(area, "gradebook.db")
        os.makedirs(submission)
        staged = Staged(area, folder, gradebook)
        try:
            collected = [tuple(entry) for entry in intake.read_receipt(job.submitted).get("dropped", [])]
            staged.dropped = collected + intake.copy_submission(
                job.submitted, submission, **intake.nbgrader_caps(CourseDirectory(config=job.config)))
        except intake.BadSubmission as exc:
            raise GraderFailure(f"the submitted folder cannot be read safely ({exc}); it was not graded") from exc
        left_out = staged.left_out = notebook_files.set_aside(job, submission, dict(staged.dropped), staged.mended)
        timestamp = _timestamp(submission)
        shutil.copyfile(template, gradebook)
        if job.due is not None:
            _extend(job, gradebook)
        recorded = {}
        if set(job.notebooks) - set(left_out):
            staged.incomplete = _autograde(job, area, gradebook, log, recorded)
        os.makedirs(folder, exist_ok=True)
        for extra in ("timestamp.txt", "submission_secret.txt"):  # feedback release needs them
            if os.path.isfile(os.path.join(submission, extra)) and not os.path.exists(os.path.join(folder, extra)):
                shutil.copyfile(os.path.join(submission, extra), os.path.join(folder, extra))
        with Gradebook(f"sqlite:///{gradebook}", job.course_id) as gb:
            _fill_gradebook(job, gb, left_out, staged.incomplete, timestamp)
            for name, why in {**left_out, **staged.incomplete}.items():
                message = NOT_RUN.format(why=why) if name in staged.incomplete else why
                _explain(folder, gb, job, name, message)
            for name in job.notebooks:
                staged.results[name] = result.of_staged(job, staged, gb, name, recorded.get(name, {}))
                result.write(folder, staged.results[name])
                submission_digest, version = job.expected[name]
                staged.entries[name] = record.entry(submission_digest, version, None, complete=name not in
                                                    staged.incomplete, why=staged.incomplete.get(name),
                                                    content=job.contents.get(name))
        return staged
    except GraderFailure:
        shutil.rmtree(area, ignore_errors=True)
        raise
    except Exception as exc:
        shutil.rmtree(area, ignore_errors=True)
        raise grader_failure(exc, "staging the submission") from exc
