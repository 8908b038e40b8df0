"""The corpus of student submissions (tests/submissions/), graded in throw-away courses.

Each entry of tests/submissions/corpus.json is one student: the released notebook with their solution-cell code
and, for some, an edit of the notebook (tests.helpers.course.EDITS). `grade_corpus` grades all of them
as `make autograde` does (`python -m classroom.autograde`, which runs nbgrader's pipeline on each) and returns the
gradebook's scores.
"""
import json
import subprocess
import sys
from pathlib import Path

from .course import (ANSWERS, ASSIGNMENT, AUTOGRADE_FLAGS, SUBMISSIONS, make_course, max_scores, nbgrader_env, scores, submission,
                     write_submission)


def corpus():
    entries = json.loads((SUBMISSIONS / "corpus.json").read_text())
    return {name: entry for name, entry in entries.items() if not name.startswith("_")}


def notebook(entry, edit=True):
    """The notebook a corpus entry hands in: its solution, its answers (tests/submissions/cells/), its edit."""
    answers = {grade_id: None if code is None else (ANSWERS / code).read_text()
               for grade_id, code in entry.get("answers", {}).items()}
    return submission((SUBMISSIONS / entry["solution"]).read_text(), entry.get("edit") if edit else None, answers)


def grade_corpus(base, batches=3):
    """Grade every corpus entry as `make autograde` does, split over `batches` courses run side by side (much of
    the time goes to waiting out the time limits of submissions that hang or crawl, which the batches overlap).

    Returns {student: (course path, {grade_id: score})} and the maximum score of each grade cell.
    """
    entries = corpus()
    courses = [make_course(Path(base) / f"course{i}") for i in range(batches)]
    for i, name in enumerate(sorted(entries)):
        entry = entries[name]
        write_submission(courses[i % batches], name, notebook(entry))
    running = [subprocess.Popen([sys.executable, "-m", "classroom.autograde", ASSIGNMENT, *AUTOGRADE_FLAGS],
                                cwd=course, env=nbgrader_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True) for course in courses]
    logs = [proc.communicate()[0] for proc in running]
    results = {}
    for course, log in zip(courses, logs):
        (course / "autograde.log").write_text(log)
        for student, grades in scores(course).items():
            results[student] = (course, grades)
    return results, max_scores(courses[0])
