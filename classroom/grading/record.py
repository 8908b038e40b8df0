"""The record of a finished grading, kept beside the autograded notebooks, and the test of whether it still holds.

A grading writes RECORD (a small JSON file) into the autograded folder it commits. For every notebook it lists:
  submission  a digest of what was graded: the handed-in file's bytes and the submission's timestamp.txt;
  content     a digest of the work itself: the notebook's cells (type and source), whatever its file name, its
              outputs, its metadata or when it was handed in. Grading by hand (manual scores, extra credit, comments)
              is kept while this stays the same, and cleared (by classroom.grading.commit, which says so) only when
              a re-submission changed it; a record without it (an earlier grader's) never clears anything;
  version     a digest of what graded it: the gradebook's grade cells (points, type, source, hidden tests
              included), its other locked cells (which run before the checks in nbgrader's design) and the due date
              of this student's work (the class's, or their extension's), which decides late penalties;
  grades      a digest of the scores it wrote into the gradebook (with the submission's timestamp);
  complete    False when the grader itself failed (the record then says why), so the next run tries again.
`stale_notebooks` compares a record with the submitted folder, the gradebook and the autograded files (the notebook
and its result, classroom.grading.result), and names every notebook whose grading no longer holds, with the reason. The
file name starts with a dot and is listed in CourseDirectory.ignore (nbgrader_config.py), so nbgrader never copies it
into feedback/ nor takes one from a student.
"""
import json
import os
from dataclasses import dataclass

from .. import atomic
from ..bookkeeping.digest import digest
from ..intake import read_regular
from . import notebook_files, result

RECORD = ".classroom-grading.json"
FORMAT = 1


def submission_digest(folder, filename):
    """What was handed in for one notebook: its file (None if absent) and the submission's timestamp."""
    return digest([filename, read_regular(os.path.join(folder, filename)) if filename else None,
                    read_regular(os.path.join(folder, "timestamp.txt"))])


def content_digest(folder, filename):
    """The work handed in as `filename` in `folder` (see the module docstring), None if nothing was handed in. A file
    that is not a notebook is its bytes."""
    raw = read_regular(os.path.join(folder, filename)) if filename else None
    if raw is None:
        return None
    try:
        cells = json.loads(raw)["cells"]
        return digest([(cell.get("cell_type"), "".join(cell.get("source") or "")) for cell in cells])
    except (ValueError, KeyError, TypeError, AttributeError):
        return digest([raw])


CLASS_DUE = object()  # versions(): the assignment's own due date


def version(gb_assignment, gb_notebook, duedate=CLASS_DUE):
    """The version of one notebook of the assignment that grading depends on (see the module docstring), for work
    due at `duedate` (default: the assignment's due date)."""
    sources = {cell.name: cell for cell in gb_notebook.source_cells}
    parts = [str(gb_assignment.duedate if duedate is CLASS_DUE else duedate)]
    for cell in sorted(gb_notebook.grade_cells, key=lambda c: c.name):
        source = sources.get(cell.name)
        parts.append((cell.name, float(cell.max_score), cell.cell_type, source.source if source else None))
    graded = {cell.name for cell in gb_notebook.grade_cells}
    for name, cell in sorted(sources.items()):  # the instructor's locked cells run before the checks (nbgrader's design)
        if cell.locked and name not in graded:
            parts.append(("locked", name, cell.cell_type, cell.source))
    return digest(parts)


def versions(gb, assignment, duedate=CLASS_DUE):
    """{notebook: version} of every notebook of `assignment` in the gradebook, its own notebook first, for work due
    at `duedate` (default: the assignment's due date)."""
    found = gb.find_assignment(assignment)
    ordered = sorted(found.notebooks, key=lambda nb: (nb.name != assignment, nb.name))
    return {nb.name: version(found, nb, duedate) for nb in ordered}


def grades_digest(gb, assignment, student, notebook):
    """The automatic scores the gradebook holds for one submitted notebook, or None if it holds none or any check
    has no score at all. Answers graded by hand (a written derivation: a Markdown cell) have no automatic score and
    are left out, so a score given by hand never makes the grading look stale."""
    from nbgrader.api import MissingEntry
    try:
        submitted = gb.find_submission_notebook(notebook, assignment, student)
    except MissingEntry:
        return None
    grades = sorted((g for g in submitted.grades if g.cell_type == "code"), key=lambda g: g.name)
    if not grades or any(g.auto_score is None and g.manual_score is None for g in grades):
        return None
    return digest([str(submitted.assignment.timestamp)] + [(g.name, g.auto_score) for g in grades])


def stamp(gb, assignment, student, notebook, graded_folder):
    """A digest of the grade that a feedback page of `notebook` shows, as the course now holds it: its grading record
    and result in `graded_folder`, and every score, extra credit, comment and the late penalty in the gradebook `gb`;
    None if the gradebook holds no grading of it. A page made from other values is stale (classroom.plugins.
    release_feedback compares the stamp written into the page when it was made with this one)."""
    from nbgrader.api import MissingEntry
    try:
        submitted = gb.find_submission_notebook(notebook, assignment, student)
    except MissingEntry:
        return None
    recorded = read(graded_folder)
    return digest([json.dumps((recorded or {}).get(notebook), sort_keys=True),
                   read_regular(os.path.join(graded_folder, result.file_name(notebook))),
                   submitted.late_submission_penalty,
                   *sorted((g.name, g.auto_score, g.manual_score, g.extra_credit) for g in submitted.grades),
                   *sorted((c.name, c.auto_comment, c.manual_comment) for c in submitted.comments)])


def read(folder):
    """The record in an autograded folder: {notebook: entry}, {} if there is none, None if it is unreadable."""
    path = os.path.join(folder, RECORD)
    if not os.path.lexists(path):
        return {}
    try:
        data = json.loads(read_regular(path) or b"")
        return data["notebooks"] if data.get("format") == FORMAT and isinstance(data["notebooks"], dict) else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def write(folder, notebooks):
    """Write the record {notebook: entry} into `folder` (written whole, then renamed into place)."""
    with atomic.replacing(os.path.join(folder, RECORD)) as file:
        json.dump({"format": FORMAT, "notebooks": notebooks}, file, indent=1, sort_keys=True)


def entry(submission, version_, grades, complete=True, why=None, content=None):
    """One notebook's line in the record."""
    return {"submission": submission, "version": version_, "grades": grades, "complete": complete, "why": why,
            "content": content}


def content_changed(previous, notebook, content):
    """True only if the recorded grading of `notebook` (`previous`: a record, {} if none) is known to have been of
    other work than `content`: what decides that grading by hand is cleared."""
    known = (previous.get(notebook) or {}).get("content") if isinstance(previous.get(notebook), dict) else None
    return known is not None and known != content


def stale_notebooks(recorded, expected, graded_folder):
    """{notebook: why} for every notebook whose recorded grading no longer holds.

    recorded: read(graded_folder); expected: {notebook: (submission digest, version, grades digest or None)}.
    """
    if recorded is None:
        return {name: "its grading record is damaged" for name in expected}
    stale = {}
    for name, (submission, version_, grades) in expected.items():
        entry_ = recorded.get(name)
        if not isinstance(entry_, dict):
            stale[name] = "it has not been graded (or its grading did not finish)"
        elif not entry_.get("complete"):
            stale[name] = f"its last grading did not finish ({entry_.get('why') or 'no reason recorded'})"
        elif entry_.get("submission") != submission:
            stale[name] = "it was handed in again after it was graded"
        elif entry_.get("version") != version_:
            stale[name] = ("the assignment (its checks, points or due date, or this student's extension) changed after "
                           "it was graded")
        elif grades is None or entry_.get("grades") != grades:
            stale[name] = "the gradebook no longer holds the grades this grading wrote"
        elif not os.path.isfile(os.path.join(graded_folder, f"{name}.ipynb")):
            stale[name] = "its autograded notebook is missing"
        elif result.read(graded_folder, name) is None:
            stale[name] = ("its grading result is missing or unreadable (graded by an earlier version of the grader, "
                           "or by plain nbgrader)")
    return stale


@dataclass
class State:
    """Where one student's submission stands (see `inspect`)."""
    folder: str       # in submitted/
    graded: str       # in autograded/
    handed: dict      # {notebook: (file name or None, note or None)} (classroom.grading.notebook_files)
    expected: dict    # {notebook: (submission digest, version)}
    contents: dict    # {notebook: content digest or None}
    stale: dict       # {notebook: why its grading does not hold}, for the notebooks asked about
    previous: dict    # the record in the autograded folder ({} if none or unreadable)


def inspect(gb, versions, assignment, student, folder, graded, notebooks=None):
    """The State of one submission against the gradebook `gb` and the assignment's `versions` ({notebook: version},
    the assignment's own notebook first); `notebooks` limits which are judged (default: all)."""
    order = list(versions)
    handed = notebook_files.handed_in_all(folder, order)
    expected = {n: (submission_digest(folder, handed[n][0]), versions[n]) for n in order}
    contents = {n: content_digest(folder, handed[n][0]) for n in order}
    previous = read(graded)
    judged = {n: (*expected[n], grades_digest(gb, assignment, student, n)) for n in (notebooks or order)}
    return State(folder, graded, handed, expected, contents, stale_notebooks(previous, judged, graded),
                 previous or {})
