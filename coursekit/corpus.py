"""The corpus of student submissions (tests/submissions/), graded in a throw-away course.

Each entry of tests/submissions/corpus.json is one student: the released notebook with their solution-cell code
and, for some, an edit of the notebook (coursekit.notebook_edits.EDITS). `grade_corpus` grades all of them
as `make autograde` does (`python -m classroom.autograde`, which runs nbgrader's pipeline on each) and returns the
gradebook's scores.
"""
import json
from pathlib import Path

from coursekit.trial_course import (ANSWERS, ASSIGNMENT, SUBMISSIONS, autograde, make_course, max_scores, scores,
                              submission, write_submission)
from coursekit.quiz.answers import RIGHT, quiz_notebook


def corpus():
    entries = json.loads((SUBMISSIONS / "corpus.json").read_text())
    return {name: entry for name, entry in entries.items() if not name.startswith("_")}


def notebook_name(entry):
    """Which notebook of the assignment a corpus entry hands in: score_gradient, unless it names another."""
    return entry.get("notebook", ASSIGNMENT)


def notebook(entry, edit=True):
    """The notebook a corpus entry hands in: its solution, its answers (tests/submissions/cells/; a list of files is
    their code one after the other), its edit; for the quiz, the right answers written in the entry's `forms`
    (coursekit.quiz.answers.FORMS)."""
    if notebook_name(entry) == "intuition_quiz":
        return quiz_notebook(RIGHT, entry.get("forms"))
    answers = {grade_id: None if code is None else _code(ANSWERS, code)
               for grade_id, code in entry.get("answers", {}).items()}
    return submission(_code(SUBMISSIONS, entry["solution"]), entry.get("edit") if edit else None, answers)


def files(names):
    """The file names a corpus entry gives for one cell: one name, or a list of names whose code follows on."""
    return [names] if isinstance(names, str) else list(names)


def _code(folder, names):
    return "\n\n".join((folder / name).read_text() for name in files(names))


# The grader's limits as a course may set them in nbgrader_config.py, shortened, for the entries marked
# `"limits": "short"`: they exist to run into a limit (a loop that never ends, memory taken until there is none), and
# what they show is that the limit stops them and costs what it should, not how long the production limit is. At the
# production limits (classroom.trusted.supervisor, c.ExecuteForDisplay) the first three of them burnt about 100 of
# the corpus's 290 CPU-seconds. The display run's kernel gets the grading child's short memory: the memory hog fills
# it in every call, and fresh memory is slow on a virtual machine (page faults): 16.6 CPU-seconds at 2 GB for the
# kernel and 512 MB for the child, 4.2 at 256 MB for both. Every other entry, the slow but honest ones among them,
# is graded at the production limits.
SHORT_LIMITS = """
c.TrustedGrades.call_timeout = 1.0
c.TrustedGrades.define_timeout = 1.0
c.TrustedGrades.child_memory = 256 * 1024 ** 2
c.ExecuteForDisplay.kernel_memory = 256 * 1024 ** 2
c.ExecuteForDisplay.timeout = 1
"""


def limits(entry):
    """The configuration lines of the course an entry is graded in: "" for the production limits."""
    return SHORT_LIMITS if entry.get("limits") == "short" else ""


def grade_corpus(base, jobs=3):
    """Grade every corpus entry as `make autograde JOBS=3` does: one course per set of limits (`limits`), one driver
    each, `jobs` submissions at once (much of the time goes to waiting out the time limits of submissions that hang
    or crawl, which the graders overlap; a free grader takes the next submission, so the waits spread themselves).

    Returns {student: (course path, {grade_id: score})} and {notebook: the maximum score of each grade cell}.
    """
    entries, results, maximum = corpus(), {}, {}
    for number, config in enumerate(sorted({limits(entry) for entry in entries.values()})):
        place = make_course(Path(base) / f"course-{number}", config)
        chosen = {name: entry for name, entry in entries.items() if limits(entry) == config}
        for name, entry in sorted(chosen.items()):
            write_submission(place, name, notebook(entry), notebook=notebook_name(entry))
        autograde(place, f"--jobs={jobs}")  # its log: autograde.log in the course
        maximum.update({name: max_scores(place, name) for name in {notebook_name(e) for e in chosen.values()}})
        results.update({student: (place, grades) for student, grades in scores(place).items()})
    return results, maximum
