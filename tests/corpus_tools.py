"""Build the corpus of student submissions (tests/submissions/) and grade it in a throw-away course.

Each entry of tests/submissions/corpus.json is one student: the released notebook with their solution-cell code
and, for some, an edit of the notebook (the recipes below). `grade_course` runs the real `nbgrader autograde` on
all of them at once and returns the gradebook's scores.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from classroom import sandbox
from conftest import load_tool
from nbgrader.api import Gradebook

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
RELEASED = ROOT / "release" / "score_gradient" / "score_gradient.ipynb"
ASSIGNMENT = "score_gradient"
VISIBLE = "worked_example_2x2"
# What must never reach a student or a report: fragments of the hidden tests (the exercise's, then the quiz's, as
# tools/quiz_bank.py writes them) and of the reference solution.
SECRETS = ("BEGIN HIDDEN TESTS", "_softmax_rows", "_through_jacobians", "_diagnosis", "checks.python_loops",
           "peak_extra_bytes", "weighted_mean = np.sum(G * A", "BEGIN SOLUTION", "_right_values",
           *load_tool("quiz_bank").HIDDEN_TEST_FRAGMENTS)


def corpus():
    entries = json.loads((SUBMISSIONS / "corpus.json").read_text())
    return {name: entry for name, entry in entries.items() if not name.startswith("_")}


def nbgrader_env():
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # nbgrader runs `alembic`
    return env


def nbgrader(*args, cwd, check=True):
    """Run the nbgrader command line as an instructor or student would, from `cwd`."""
    result = subprocess.run([str(Path(sys.executable).parent / "nbgrader"), *args], cwd=cwd, env=nbgrader_env(),
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-6000:]}")
    return result


# Grading runs every student process in the bubblewrap sandbox (classroom.sandbox). Where bubblewrap is missing (a
# newcomer's laptop), the assignment tests grade WITHOUT it, explicitly, and the hostile-submission tests skip; CI
# installs bubblewrap and sets REQUIRE_SANDBOX_TESTS=1, so there a missing sandbox is an error, never a fallback.
SANDBOXED = sandbox.bwrap_path() is not None
if not SANDBOXED and os.environ.get("REQUIRE_SANDBOX_TESTS") == "1":
    raise RuntimeError("REQUIRE_SANDBOX_TESTS=1 but bubblewrap is not installed: apt-get install bubblewrap")
AUTOGRADE_FLAGS = [] if SANDBOXED else ["--no-sandbox"]  # for `python -m classroom.autograde`


def make_course(path):
    """A fresh course directory: this repository's nbgrader_config.py and source/, and a generated release/."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "nbgrader_config.py", path)
    if not SANDBOXED:
        with open(path / "nbgrader_config.py", "a") as config:
            config.write("\nc.Sandbox.enabled = False  # the tests' explicit choice on a machine without bubblewrap\n")
    shutil.copytree(ROOT / "source", path / "source")
    nbgrader("generate_assignment", ASSIGNMENT, "--force", cwd=path)
    return path


def _is_grade(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade", False)


def _grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


# ---- notebook edits a student might make -----------------------------------------------------------------------
def delete_all_grade_cells(nb):
    nb["cells"] = [c for c in nb["cells"] if not _is_grade(c)]


def delete_hidden_grade_cells(nb):
    nb["cells"] = [c for c in nb["cells"] if not _is_grade(c) or _grade_id(c) == VISIBLE]


def blank_grade_cells(nb):
    for cell in nb["cells"]:
        if _is_grade(cell):
            cell["source"] = ""


def tests_become_pass(nb):
    for cell in nb["cells"]:
        if _is_grade(cell):
            cell["source"] = "pass\n"


def tamper_grade_metadata(nb):
    graded = [c for c in nb["cells"] if _is_grade(c)]
    graded[0]["metadata"]["nbgrader"]["points"] = 100
    graded[1]["metadata"]["nbgrader"]["grade"] = False
    graded[2]["metadata"]["nbgrader"]["solution"] = True
    graded[2]["source"] = "pass\n"
    graded[3]["metadata"]["nbgrader"]["grade_id"] = "my_own_check"
    graded[4]["metadata"]["nbgrader"]["locked"] = False
    graded[4]["source"] = "pass\n"
    del graded[5]["metadata"]["nbgrader"]
    graded[5]["source"] = "pass\n"
    graded[6]["metadata"]["nbgrader"]["checksum"] = "0" * 32


def grade_cells_to_markdown(nb):
    for cell in nb["cells"]:
        if _is_grade(cell):
            cell["cell_type"] = "markdown"
            cell.pop("outputs", None)
            cell.pop("execution_count", None)


def duplicate_grade_ids(nb):
    fakes = []
    for cell in nb["cells"]:
        if _is_grade(cell):
            fake = copy.deepcopy(cell)
            fake["source"] = "pass\n"
            fakes.append(fake)
    nb["cells"] = fakes + nb["cells"]


EDITS = {f.__name__: f for f in (delete_all_grade_cells, delete_hidden_grade_cells, blank_grade_cells,
                                 tests_become_pass, tamper_grade_metadata, grade_cells_to_markdown,
                                 duplicate_grade_ids)}


def submission(solution_code, edit=None):
    """The released notebook as a student would hand it in: their code in the solution cell, plus an edit."""
    nb = json.loads(RELEASED.read_text())
    for cell in nb["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            cell["source"] = solution_code
    if edit:
        EDITS[edit](nb)
    return nb


def write_submission(course, student, nb):
    folder = Path(course) / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb))
    return folder


def scores(course):
    """{student: {grade_id: score}} as recorded in the course's gradebook."""
    with Gradebook(f"sqlite:///{Path(course) / 'gradebook.db'}") as gb:
        out = {}
        for sub in gb.assignment_submissions(ASSIGNMENT):
            out[sub.student.id] = {g.name: g.score for nb in sub.notebooks for g in nb.grades}
        return out


def max_scores(course, notebook=ASSIGNMENT):
    """{grade_id: points} of one notebook of the assignment (the corpus is about score_gradient.ipynb; the quiz
    notebook, which corpus students do not hand in, is graded 0 by nbgrader and tested in test_assignment_quiz)."""
    with Gradebook(f"sqlite:///{Path(course) / 'gradebook.db'}") as gb:
        return {c.name: c.max_score for nb in gb.find_assignment(ASSIGNMENT).notebooks if nb.name == notebook
                for c in nb.grade_cells}


def messages(course, student):
    """{grade_id: the message the student sees} from the autograded notebook."""
    path = Path(course) / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    if not path.exists():
        return {"<no autograded notebook>": str(path)}
    out = {}
    for cell in json.loads(path.read_text())["cells"]:
        if _is_grade(cell):
            errors = [o.get("evalue") for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            out[_grade_id(cell)] = errors[0] if errors else "passed"
    return out


def grade_corpus(base, batches=2):
    """Grade every corpus entry with the real `nbgrader autograde`, split over `batches` courses run side by side.

    Returns {student: (course path, {grade_id: score})} and the maximum score of each grade cell.
    """
    entries = corpus()
    names = sorted(entries)
    courses = [make_course(Path(base) / f"course{i}") for i in range(batches)]
    for i, name in enumerate(names):
        entry = entries[name]
        nb = submission((SUBMISSIONS / entry["solution"]).read_text(), entry.get("edit"))
        write_submission(courses[i % batches], name, nb)
    running = [subprocess.Popen([str(Path(sys.executable).parent / "nbgrader"), "autograde", ASSIGNMENT],
                                cwd=course, env=nbgrader_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True) for course in courses]
    logs = [proc.communicate()[0] for proc in running]
    for course, log in zip(courses, logs):
        (course / "autograde.log").write_text(log)
    results = {}
    for course in courses:
        for student, grades in scores(course).items():
            results[student] = (course, grades)
    return results, max_scores(courses[0])


# ---- for bench/: timing real autograde runs ------------------------------------------------------------------------
def correct_class(course, n, solution="correct_keepdims.py"):
    """Hand in the same correct score_gradient.ipynb for students s0 ... s{n-1}."""
    code = (SUBMISSIONS / solution).read_text()
    for i in range(n):
        write_submission(course, f"s{i}", submission(code))


def timed_autograde(course, assignment=ASSIGNMENT, *flags):
    """Wall seconds of one real `nbgrader autograde --force` of `assignment` in `course`."""
    import time

    start = time.perf_counter()
    nbgrader("autograde", assignment, "--force", *flags, cwd=course)
    return time.perf_counter() - start
