"""The second half of the transaction: what one staged grading changes in the course, in an order that a kill at any
point leaves either the previous complete state or one the next run sees as unfinished.

  1. the gradebook: the submission's timestamp, every score, comment and late penalty of the graded notebooks, in
     one database transaction (a new student's and a new submission's rows are made in it too, so no empty
     submission is ever left). Grading by hand (manual scores, extra credit, manual comments) is kept, unless the
     grading record shows that the work itself changed (classroom.grading.record.content_changed): then it is
     cleared, and what was cleared is written into the notebook's result and returned for the run's summary; a kept
     manual score leaves its cell no longer waiting for grading by hand (a teaching assistant's --force). The
     late penalty is computed here, as nbgrader's AssignLatePenalties computes it, on the whole score the gradebook
     then holds (classroom.decisions.penalty), with the student's extension (classroom.decisions) mirrored into
     nbgrader's SubmittedAssignment.extension. If the assignment changed since the run planned this grading
     (`make release` during the run), nothing is written: AssignmentChanged;
  2. the record (classroom.grading.record) written into the staged folder, beside the results staging wrote
     (classroom.grading.result), with a digest of the scores of step 1;
  3. the staged folder swapped in for the student's autograded folder (rename the old one aside, rename the new one
     in, delete the old one).
A kill between 1 and 3 leaves the old folder, whose record no longer matches the gradebook: the next run re-grades.
Also here: the template gradebook a staging starts from, and removing what killed runs left behind.
"""
import contextlib
import dataclasses
import glob
import os
import shutil

from .. import course
from ..bookkeeping.digest import digest
from ..decisions import penalty
from . import record, result

ASIDE = ".replaced-"    # an autograded folder set aside during a swap
INCOMING = ".incoming-"  # a staged folder moved next to its place, not yet renamed into it


def _snapshot(db_url, part):
    """Copy an SQLite gradebook (a consistent snapshot, through SQLite's backup API); False for other databases."""
    import sqlite3

    path = course.sqlite_file(db_url)
    if path is None:
        return False
    source, target = sqlite3.connect(path), sqlite3.connect(part)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return True


def make_template(db_url, course_id, assignment, path):
    """An SQLite gradebook at `path` holding the assignment only: notebooks, cells, points, sources, due date. Made
    beside `path` and renamed into place, so a kill never leaves half a template; older templates are removed.
    From an SQLite gradebook it is a snapshot with every student and every other assignment removed (nbgrader
    makes a new gradebook file by running `alembic`, seconds each time); from any other database, it is built."""
    from nbgrader.api import Gradebook

    for old in glob.glob(os.path.join(os.path.dirname(path), f"template-{assignment}-*.db")):
        os.remove(old)
    part = f"{path}.part"
    if os.path.exists(part):
        os.remove(part)
    if _snapshot(db_url, part):
        with Gradebook(f"sqlite:///{part}", course_id) as template:
            for student in list(template.students):
                template.remove_student(student.id)
            for other in [a.name for a in template.assignments if a.name != assignment]:
                template.remove_assignment(other)
    else:
        with Gradebook(db_url, course_id) as main, Gradebook(f"sqlite:///{part}", course_id) as template:
            _copy_assignment(main, template, assignment)
    os.replace(part, path)


def _copy_assignment(main, template, assignment):
    found = main.find_assignment(assignment)
    template.add_assignment(found.name, duedate=found.duedate)
    for nb in found.notebooks:
        template.add_notebook(nb.name, found.name, kernelspec=nb.kernelspec)
        where = (nb.name, found.name)
        for cell in nb.grade_cells:
            template.add_grade_cell(cell.name, *where, max_score=cell.max_score, cell_type=cell.cell_type)
        for cell in nb.solution_cells:
            template.add_solution_cell(cell.name, *where)
        for cell in nb.task_cells:
            template.add_task_cell(cell.name, *where, max_score=cell.max_score, cell_type=cell.cell_type)
        for cell in nb.source_cells:
            template.add_source_cell(cell.name, *where, cell_type=cell.cell_type, locked=cell.locked,
                                     source=cell.source, checksum=cell.checksum)


class AssignmentChanged(RuntimeError):
    """The gradebook's assignment is not the version this grading was staged with; nothing was written."""


def _staged_values(job, staged):
    """Everything the staged gradebook holds for the graded notebooks, as plain values."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{staged.gradebook}", job.course_id) as gb:
        submission = gb.find_submission(job.assignment, job.student)
        values = {"timestamp": submission.timestamp, "notebooks": {}}
        for name in job.notebooks:
            nb = gb.find_submission_notebook(name, job.assignment, job.student)
            values["notebooks"][name] = {
                "grades": {g.name: (g.auto_score, g.needs_manual_grade) for g in nb.grades},
                "comments": {c.name: c.auto_comment for c in nb.comments}}
    return values


@contextlib.contextmanager
def one_transaction(gb):
    """Every write of nbgrader's Gradebook `gb` inside the block in one database transaction, committed when the
    block ends and rolled back if it raises. nbgrader's add_student and add_submission commit as they go; here the
    Gradebook's session (its public `db`) is one of ours for the block, on a connection whose transaction is ours,
    joined in SQLAlchemy's "rollback_only" mode (its documented way of running code that commits inside an outer
    transaction): their commit() ends only the session's own part. So a run stopped before the end leaves no new
    row, not even an empty submission."""
    from sqlalchemy.orm import scoped_session, sessionmaker

    own, connection = gb.db, gb.engine.connect()
    transaction = connection.begin()
    gb.db = scoped_session(sessionmaker(bind=connection, autoflush=True, join_transaction_mode="rollback_only"))
    try:
        yield
        gb.db.flush()
        transaction.commit()
    finally:
        if transaction.is_active:
            transaction.rollback()
        gb.db.remove()
        gb.db = own
        connection.close()


def _by_hand(grade, comment):
    """What was given by hand on one grade cell (and its comment), in words: [] if nothing."""
    said = []
    if grade is not None and grade.manual_score is not None:
        said.append(f"manual score {grade.manual_score:g}")
    if grade is not None and grade.extra_credit:
        said.append(f"extra credit {grade.extra_credit:g}")
    if comment is not None and comment.manual_comment:
        said.append("a comment")
    return said


def _write_gradebook(job, values, db_url):
    """Step 1, one transaction; returns ({notebook: grades digest} as the gradebook now holds them, {notebook:
    [what was cleared, in words]}, {notebook: (score before, score after)} for each score this grading changed)."""
    from nbgrader.api import Gradebook, MissingEntry

    cleared, rescored = {}, {}
    with Gradebook(db_url, job.course_id) as gb:
        with one_transaction(gb):
            if job.assignment_version is not None and \
                    digest(sorted(record.versions(gb, job.assignment).items())) != job.assignment_version:
                raise AssignmentChanged(f"the assignment {job.assignment} changed in the gradebook while this run "
                                        "graded (`make release`, or the formgrader's Generate)")
            try:
                gb.find_student(job.student)
            except MissingEntry:
                gb.add_student(job.student)
            try:
                submission = gb.find_submission(job.assignment, job.student)
                before = {nb.name: float(nb.score) for nb in submission.notebooks}
            except MissingEntry:
                submission = gb.add_submission(job.assignment, job.student, timestamp=values["timestamp"])
                before = {}
            submission.timestamp = values["timestamp"]
            submission.extension = penalty.extension(submission.assignment.duedate, job.due)
            for name in job.notebooks:
                staged, fresh = values["notebooks"][name], job.fresh.get(name, True)
                nb = gb.find_submission_notebook(name, job.assignment, job.student)
                comments = {comment.name: comment for comment in nb.comments}
                for grade in nb.grades:
                    grade.auto_score, grade.needs_manual_grade = staged["grades"].get(grade.name, (0.0, True))
                    if fresh:
                        said = _by_hand(grade, comments.pop(grade.name, None))
                        if said:
                            cleared.setdefault(name, []).append(f"{grade.name}: {', '.join(said)}")
                        grade.manual_score = grade.extra_credit = None
                    elif grade.manual_score is not None:  # graded by hand and kept: it asks for nothing more
                        grade.needs_manual_grade = False
                for comment in nb.comments:
                    comment.auto_comment = staged["comments"].get(comment.name)
                    if fresh:
                        if comment.name in comments and _by_hand(None, comment):
                            cleared.setdefault(name, []).append(f"{comment.name}: a comment")
                        comment.manual_comment = None
                gb.db.flush()
                gb.db.refresh(nb)  # its score, as the gradebook now computes it
                if name in before and float(nb.score) != before[name]:
                    rescored[name] = (before[name], float(nb.score))
                nb.late_submission_penalty = penalty.late_penalty(job.config, job.student, nb,
                                                                  submission.total_seconds_late)
        digests = {name: record.grades_digest(gb, job.assignment, job.student, name) for name in job.notebooks}
    return digests, cleared, rescored


def _swap(staged_folder, graded_folder):
    """Step 3: the staged folder takes the place of the student's autograded folder."""
    parent = os.path.dirname(graded_folder)
    os.makedirs(parent, exist_ok=True)
    incoming = os.path.join(parent, f"{INCOMING}{os.path.basename(graded_folder)}-{os.getpid()}")
    try:
        os.rename(staged_folder, incoming)
    except OSError:  # another file system: copy next to the target first, so the final step is still a rename
        shutil.copytree(staged_folder, incoming)
    aside = os.path.join(parent, f"{ASIDE}{os.path.basename(graded_folder)}-{os.getpid()}")
    if os.path.lexists(graded_folder):
        os.rename(graded_folder, aside)
    os.rename(incoming, graded_folder)
    _remove(aside)


def _remove(path):
    from nbgrader.utils import rmtree  # nbgrader's rmtree makes read-only folders writable first

    if os.path.isdir(path) and not os.path.islink(path):
        rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def commit(job, staged, db_url):
    """Make the staged grading the course's: gradebook, record, autograded folder (in that order). The results in
    `staged.results` say, after it, what grading by hand was cleared (Result.cleared) and how each notebook's score
    changed (Result.rescored)."""
    values = _staged_values(job, staged)
    digests, cleared, rescored = _write_gradebook(job, values, db_url)
    entries = {name: entry for name, entry in (job.previous or {}).items() if name not in job.notebooks}
    for name in job.notebooks:
        entries[name] = dict(staged.entries[name], grades=digests[name])
    for name in set(cleared) | set(rescored):
        staged.results[name] = dataclasses.replace(staged.results[name], cleared=tuple(cleared.get(name, ())),
                                                   rescored=rescored.get(name))
        result.write(staged.folder, staged.results[name])
    for name in set(job.handed) - set(job.notebooks):  # not graded now: its autograded copy and result stay
        for kept in (f"{name}.ipynb", result.file_name(name)):
            if os.path.isfile(os.path.join(job.graded, kept)):
                shutil.copyfile(os.path.join(job.graded, kept), os.path.join(staged.folder, kept))
    record.write(staged.folder, entries)
    _swap(staged.folder, job.graded)
    shutil.rmtree(staged.area, ignore_errors=True)


def clean_leftovers(work, autograded_pattern):
    """Remove what killed runs left: staging areas under `work`, and folders set aside or half moved in a swap
    (`autograded_pattern` is the glob of one assignment's autograded folders, e.g. autograded/*/score_gradient)."""
    if os.path.isdir(work):
        for entry in os.listdir(work):
            _remove(os.path.join(work, entry))
    parent, name = os.path.split(autograded_pattern)
    for prefix in (ASIDE, INCOMING):
        for left in glob.glob(os.path.join(parent, f"{prefix}{name}-*")):
            _remove(left)
