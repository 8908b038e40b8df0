"""A trial course: a throw-away nbgrader course with this repository's configuration, submissions handed in to it,
and nbgrader run on it as instructors and students run it (the real command lines, never nbgrader's Python
internals). Not classroom.course, which says where a real course keeps its files."""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from traitlets.config.loader import PyFileConfigLoader

from classroom import cells, course
from classroom.grading import environment
from classroom.sandbox.launchers import NAMES as LAUNCHERS
from coursekit import forked_commands, parts
from coursekit.notebook_edits import EDITS, SOLUTION, VISIBLE  # noqa: F401 (SOLUTION, VISIBLE: the tests' too)
from coursekit.repository import ROOT

SUBMISSIONS = ROOT / "tests" / "submissions"
ASSIGNMENT = "score_gradient"
RELEASED = ROOT / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
# the course id nbgrader_config.py gives: the exchange's folder and the gradebook's course
COURSE_ID = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config().CourseDirectory.course_id

# Grading runs every student process in the bubblewrap sandbox (classroom.sandbox). Where bubblewrap is missing (a
# newcomer's laptop), the courses made here grade WITHOUT it, explicitly, and the tests of the sandbox itself
# (`requires("sandbox")`) are skipped and named at the end of the run; CI requires them (coursekit.parts).
SANDBOXED = parts.why_missing("sandbox") is None
AUTOGRADE_FLAGS = [] if SANDBOXED else ["--no-sandbox"]  # for `python -m classroom.autograde`
LAUNCHER_CLASS = "bubblewrap" if SANDBOXED else "unsandboxed"  # c.Grader.launcher_class (classroom.sandbox.launchers)
LAUNCHER = LAUNCHERS[LAUNCHER_CLASS]()  # for StudentCode and decide


def nbgrader_env(**extra):
    env = dict(os.environ, **extra)
    env["PATH"] = environment.path(env.get("PATH", ""))  # nbgrader runs `alembic`
    return env


def nbgrader(*args, cwd, check=True):
    """Run the nbgrader command line as an instructor or student would, from `cwd`."""
    result = forked_commands.run([str(Path(sys.executable).parent / "nbgrader"), *args], cwd=cwd, env=nbgrader_env(),
                                 capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-6000:]}")
    return result


def autograde(course_path, *flags, **env):
    """Run `python -m classroom.autograde ASSIGNMENT` (what `make autograde` runs) in a course; its log is saved
    there as autograde.log. The result also has the driver's `pid` (classroom.sandbox.cgroups names its groups
    after it)."""
    proc = forked_commands.popen([sys.executable, "-m", "classroom.autograde", ASSIGNMENT, *AUTOGRADE_FLAGS, *flags],
                                 cwd=course_path, env=nbgrader_env(**env), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    result = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    result.pid = proc.pid
    (Path(course_path) / "autograde.log").write_text(out + err)
    return result


def classroom(course_path, subcommand, *args):
    """Run `classroom SUBCOMMAND ARGS` (what a make target runs) in a course; it must succeed."""
    result = forked_commands.run([sys.executable, "-m", "classroom.app", subcommand, *args], cwd=course_path,
                                 env=nbgrader_env(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    return result


def report(course_path, *flags):
    """Run `classroom report ASSIGNMENT` (what `make report` runs) in a course; it must succeed."""
    return classroom(course_path, "report", ASSIGNMENT, *flags)


def make(course_path, target, *variables, wait=True):
    """Run `make TARGET VARIABLE=VALUE ...` with this repository's Makefile in a course, as an instructor runs it in
    theirs (the course's nbgrader_config.py, this environment; `tools` importable as from the repository's root).
    Without the sandbox, AUTOGRADE_ARGS starts with --no-sandbox. The CompletedProcess, or with wait=False the Popen
    (in a session of its own, its output piped)."""
    autograde_args = [v for v in variables if v.startswith("AUTOGRADE_ARGS=")]
    others = [v for v in variables if not v.startswith("AUTOGRADE_ARGS=")]
    flags = " ".join([*AUTOGRADE_FLAGS, *(v.split("=", 1)[1] for v in autograde_args)])
    command = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), target,
               f"VENV={Path(sys.executable).parent.parent}", "READY=", f"AUTOGRADE_ARGS={flags}", *others]
    env = nbgrader_env(PYTHONPATH=str(ROOT))
    if not wait:
        return subprocess.Popen(command, cwd=course_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
    return subprocess.run(command, cwd=course_path, env=env, capture_output=True, text=True)


_GENERATED = []  # per test process: one course made with no extra configuration, copied by later calls
_EMPTY = []  # per test process: one empty gradebook of COURSE_ID, copied by later calls


def empty_gradebook():
    """The path of an empty gradebook of this course, made once per process and never written to: copy it. A new
    gradebook is stamped with nbgrader's alembic head, which nbgrader reads by running `alembic` (about a second of
    CPU time), so every course a test makes starts from a copy instead."""
    if not _EMPTY:
        from nbgrader.api import Gradebook

        folder = Path(tempfile.mkdtemp(prefix="empty-gradebook-"))
        atexit.register(shutil.rmtree, folder, True)
        path, before = folder / "gradebook.db", os.environ.get("PATH", "")
        os.environ["PATH"] = nbgrader_env()["PATH"]  # nbgrader runs `alembic` from PATH
        try:
            Gradebook(f"sqlite:///{path}", COURSE_ID).close()
        finally:
            os.environ["PATH"] = before
        _EMPTY.append(path)
    return _EMPTY[0]


def make_course(path, config=""):
    """A fresh course directory: this repository's nbgrader_config.py (plus `config` lines) and source/, and a
    generated release/ and gradebook. Without `config`, the first course this process made is copied (what
    `nbgrader generate_assignment` makes does not depend on the folder), saving a generate_assignment run."""
    path = Path(path)
    if not config and _GENERATED:
        shutil.copytree(_GENERATED[0], path, dirs_exist_ok=True)
        return path
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "nbgrader_config.py", path)
    extra = config
    if not SANDBOXED:
        extra += f'\nc.Grader.launcher_class = "{LAUNCHER_CLASS}"  # the tests\' explicit choice: no bubblewrap here\n'
    with open(path / "nbgrader_config.py", "a") as file:
        file.write("\n" + extra)
    shutil.copytree(ROOT / "source", path / "source")
    db_file = course.sqlite_file(course.course_directory(root=path).db_url)  # wherever `config` puts the gradebook
    if db_file is not None and not os.path.exists(db_file) and os.path.isdir(os.path.dirname(db_file)):
        shutil.copyfile(empty_gradebook(), db_file)
    nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=path)
    if not config:
        kept = Path(tempfile.mkdtemp(prefix="generated-course-")) / "course"
        shutil.copytree(path, kept)
        atexit.register(shutil.rmtree, kept.parent, True)
        _GENERATED.append(kept)
    return path


# ---- a student's notebook ----------------------------------------------------------------------------------------
ANSWERS = SUBMISSIONS / "cells"  # right answers for the other answer cells, one file per grade_id


def answer_cells():
    """The grade_ids of the released notebook's answer cells other than score_gradient's."""
    return [cells.grade_id(c) for c in json.loads(RELEASED.read_text())["cells"]
            if cells.is_solution(c) and cells.grade_id(c) != SOLUTION]


def right_answer(grade_id):
    """The right answer to the answer cell `grade_id`: tests/submissions/cells/<grade_id>.py (.md if written)."""
    return next(ANSWERS.glob(f"{grade_id}.*")).read_text()


def submission(solution_code, edit=None, answers=None):
    """The released notebook as a student would hand it in: their `score_gradient` code in its answer cell, right
    answers in the other answer cells (tests/submissions/cells/<grade_id>.py, or .md for a written one) unless `answers`
    maps a grade_id to other code (None leaves that cell as released), plus an edit."""
    nb = json.loads(RELEASED.read_text())
    for cell in nb["cells"]:
        if not cells.is_solution(cell):
            continue
        grade_id = cells.grade_id(cell)
        if grade_id == SOLUTION:
            cell["source"] = solution_code
        elif answers is not None and grade_id in answers:
            if answers[grade_id] is not None:
                cell["source"] = answers[grade_id]
        else:
            cell["source"] = right_answer(grade_id)
    if edit:
        EDITS[edit](nb)
    return nb


def write_submission(course_path, student, nb, notebook=ASSIGNMENT, assignment=ASSIGNMENT):
    """Hand in one notebook (nbformat as plain data) where the course's configuration puts submissions."""
    coursedir = course.course_directory(root=course_path)
    folder = Path(coursedir.format_path(coursedir.submitted_directory, student, assignment))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{notebook}.ipynb").write_text(json.dumps(nb))
    return folder


# ---- reading the results ---------------------------------------------------------------------------------------
def gradebook(course_path):
    from nbgrader.api import Gradebook

    return Gradebook(course.course_directory(root=course_path).db_url)


def scores(course_path):
    """{student: {grade_id: score}} as recorded in the course's gradebook."""
    with gradebook(course_path) as gb:
        return {sub.student.id: {g.name: g.score for nb in sub.notebooks for g in nb.grades}
                for sub in gb.assignment_submissions(ASSIGNMENT)}


def max_scores(course_path, notebook=ASSIGNMENT, *, by_hand=False):
    """{grade_id: points} of the automatic checks of one notebook of the assignment; with `by_hand`, of the written
    derivation too, which a teacher grades by hand (0 until then). The corpus is about score_gradient.ipynb; the quiz
    notebook, which corpus students do not hand in, is graded 0 by nbgrader and tested in test_assignment_quiz."""
    with gradebook(course_path) as gb:
        return {c.name: c.max_score for nb in gb.find_assignment(ASSIGNMENT).notebooks if nb.name == notebook
                for c in nb.grade_cells if by_hand or c.cell_type == "code"}


def autograded_notebook(course_path, student, notebook=ASSIGNMENT):
    coursedir = course.course_directory(root=course_path)
    path = Path(course.autograded(coursedir, student, ASSIGNMENT)) / f"{notebook}.ipynb"
    return json.loads(path.read_text()) if path.exists() else None


def verdicts(course_path, student, notebook=ASSIGNMENT):
    """{grade_id: (kind, message)} of every check in the autograded notebook; (None, "passed") for a pass. The
    written derivation is graded by hand, not checked, so it has no verdict here."""
    nb = autograded_notebook(course_path, student, notebook)
    if nb is None:
        return {"<no autograded notebook>": (None, student)}
    out = {}
    for cell in nb["cells"]:
        if cells.is_check(cell):
            errors = [(o.get("ename"), o.get("evalue")) for o in cell.get("outputs", [])
                      if o.get("output_type") == "error"]
            out[cells.grade_id(cell)] = errors[0] if errors else (None, "passed")
    return out


def messages(course_path, student, notebook=ASSIGNMENT):
    """{grade_id: the message the student sees} from the autograded notebook."""
    return {grade_id: message for grade_id, (_, message) in verdicts(course_path, student, notebook).items()}


# ---- for bench/: timing real autograde runs ------------------------------------------------------------------------
def correct_class(course_path, n, solution="correct_keepdims.py"):
    """Hand in the same correct score_gradient.ipynb for students s0 ... s{n-1}."""
    code = (SUBMISSIONS / solution).read_text()
    for i in range(n):
        write_submission(course_path, f"s{i}", submission(code))


def timed_autograde(course_path, assignment=ASSIGNMENT, *flags):
    """Wall seconds of one real `nbgrader autograde --force` of `assignment` in `course_path`."""
    start = time.perf_counter()
    nbgrader("autograde", assignment, "--force", *flags, cwd=course_path)
    return time.perf_counter() - start
