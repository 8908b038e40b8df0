"""A small class graded as an instructor grades it over a semester, for tests/grading/semester/test_semester*.py: five
students, a due date two days ago written with a numeric offset, late work penalised "zero", and the hand-ins an
instructor meets (on time, late, misnamed, two renamed copies, a notebook of nbformat 4.4 renamed by the browser, one
without timestamp.txt). The class is graded once per test run, whichever pytest-xdist worker gets there first (the others
wait for it and take copies): each test file imports the fixtures `semester` (its own copy of the graded class) and
`place` (a copy of that for one test) from here."""
import datetime
import json
import os
import shutil
import subprocess

import pytest

from classroom import course as coursedirs
from classroom.bookkeeping import lock
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS
from coursekit.quiz.answers import RIGHT, quiz_notebook

QUIZ = "intuition_quiz"
# the test run's start, the same in every pytest-xdist worker (tests/conftest.py), as naive UTC
NOW = datetime.datetime.strptime(os.environ["SQDK_TESTS_STARTED"], "%Y-%m-%d %H:%M:%S")
DUE = NOW - datetime.timedelta(days=2)  # UTC
OFFSET = datetime.timedelta(hours=-5)


def as_offset(when, offset=OFFSET):
    """A UTC time written as an instructor five hours west of UTC writes it: "2026-12-01 09:05:00 -0500"."""
    hours, rest = divmod(int(offset.total_seconds()), 3600)
    return f"{when + offset:%Y-%m-%d %H:%M:%S} {'-' if hours < 0 else '+'}{abs(hours):02d}{abs(rest) // 60:02d}"


def stamp(when):
    """nbgrader's timestamp.txt for a hand-in at `when` (UTC)."""
    return f"{when:%Y-%m-%d %H:%M:%S.%f} UTC"


# student: (solution, file name of score_gradient.ipynb, hand-in time (None: no timestamp.txt), nbformat 4.4)
CLASS = {
    "alice": ("correct_einsum.py", f"{ASSIGNMENT}.ipynb", DUE - datetime.timedelta(hours=3), False),
    "bob": ("wrong_returns_A_times_G.py", f"{ASSIGNMENT}.ipynb", DUE + datetime.timedelta(hours=1), False),
    "carol": ("correct_keepdims.py", "my_answers.ipynb", DUE - datetime.timedelta(hours=1), False),
    "dave": ("correct_matmul.py", ("Copy of score_gradient.ipynb", "score_gradient-1.ipynb"),
             DUE - datetime.timedelta(hours=1), False),
    "erin": ("correct_einsum.py", f"{ASSIGNMENT} (1).ipynb", None, True),
}
FULL = 25.0  # 20 for score_gradient.ipynb, 5 for the quiz
NOISE = ("No submitted file", "Notebook JSON is invalid", "was unexpected", "display_data_priority")


def notebook(solution, old_format=False):
    nb = trial_course.submission((SUBMISSIONS / solution).read_text())
    if old_format:  # as JupyterLab 3 saved it: nbformat 4.4, cells without ids
        nb["nbformat_minor"] = 4
        for cell in nb["cells"]:
            cell.pop("id", None)
    return nb


def hand_in(place, who, solution, names, when, old_format=False):
    folder = trial_course.write_submission(place, who, notebook(solution, old_format))
    written, names = folder / f"{ASSIGNMENT}.ipynb", [names] if isinstance(names, str) else names
    for name in names:
        if name != written.name:
            shutil.copyfile(written, folder / name)
    if written.name not in names:
        written.unlink()
    (folder / f"{QUIZ}.ipynb").write_text(json.dumps(quiz_notebook(RIGHT)))
    (folder / "submission_secret.txt").write_text(f"secret of {who}")  # what nbgrader submit writes
    if when is not None:
        (folder / "timestamp.txt").write_text(stamp(when))
    return folder


def graded_class(place):
    """The class, graded by `make autograde` and given its feedback by `make feedback`: (course path, {what each
    command printed})."""
    place = trial_course.make_course(place, config='c.LateSubmissionPlugin.penalty_method = "zero"\n')
    said = {"duedate": trial_course.nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={as_offset(DUE)}",
                                       cwd=place)}
    for who, (solution, names, when, old_format) in CLASS.items():
        hand_in(place, who, solution, names, when, old_format)
    for target in ("autograde", "feedback"):
        said[target] = trial_course.make(place, target, "JOBS=2")
        assert said[target].returncode == 0, said[target].stdout[-2000:] + said[target].stderr[-3000:]
    return place, said


def copy_of(place, where):
    """A copy of the graded course `place` at `where`, to change."""
    shutil.copytree(place, where, symlinks=True)
    return where


def autograded(place, who):
    coursedir = coursedirs.course_directory(root=place)
    return coursedirs.autograded(coursedir, who, ASSIGNMENT)


def gradebook(place):
    """{student: {"notebooks": {notebook: (score, penalty)}, "grades": {(notebook, grade id): (auto, manual, extra
    credit, flagged)}, "late": seconds late, "due": the due date with its extension}} read with nbgrader's API."""
    with trial_course.gradebook(place) as gb:
        return {sub.student.id: {
            "notebooks": {nb.name: (nb.score, nb.late_submission_penalty) for nb in sub.notebooks},
            "grades": {(nb.name, g.name): (g.auto_score, g.manual_score, g.extra_credit, g.needs_manual_grade)
                       for nb in sub.notebooks for g in nb.grades},
            "late": sub.total_seconds_late, "due": sub.duedate}
            for sub in gb.assignment_submissions(ASSIGNMENT)}


def by_hand(place, who, grade_id, notebook=ASSIGNMENT, score=None, extra=None, comment=None):
    """What the formgrader's Manual Grading writes: a manual score, extra credit, a comment on a cell."""
    with trial_course.gradebook(place) as gb:
        if score is not None or extra is not None:
            grade = gb.find_grade(grade_id, notebook, ASSIGNMENT, who)
            grade.manual_score = grade.manual_score if score is None else score
            grade.extra_credit = grade.extra_credit if extra is None else extra
            grade.needs_manual_grade = False
        if comment is not None:
            gb.find_comment(grade_id, notebook, ASSIGNMENT, who).manual_comment = comment
        gb.db.commit()


def graded_once(shared):
    """The class graded in the folder `shared` by the first process to ask (the others wait on its lock), and what
    the commands printed: (course path, {command: CompletedProcess}). Nobody changes it: users take copies."""
    said_file = shared / "said.json"
    with lock.hold(str(shared), wait=True, tell=lambda _: None):
        if not said_file.exists():
            shutil.rmtree(shared / "course", ignore_errors=True)  # what a failed attempt left
            _, said = graded_class(shared / "course")
            said_file.write_text(json.dumps({command: [run.args, run.returncode, run.stdout, run.stderr]
                                             for command, run in said.items()}))
    said = {command: subprocess.CompletedProcess(*run) for command, run in json.loads(said_file.read_text()).items()}
    return shared / "course", said


@pytest.fixture(scope="module")
def semester(tmp_path_factory, worker_id):
    """(a copy of the graded class for this test file, {what `nbgrader db assignment add`, `make autograde` and
    `make feedback` printed}). Under pytest-xdist the workers' temporary folders share a parent made for this run."""
    base = tmp_path_factory.getbasetemp()
    place, said = graded_once(base.parent / "semester-class" if worker_id != "master" else base / "semester-class")
    return copy_of(place, tmp_path_factory.mktemp("semester") / "course"), said


@pytest.fixture
def place(semester, tmp_path):
    """A copy of the graded class, to change."""
    return copy_of(semester[0], tmp_path / "course")
