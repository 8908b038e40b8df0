"""The package installs whole: a JupyterHub's shared environment installs it from its wheel, not in editable mode, so
every file the code reads from its own folders (templates, the quiz bank, the explorer's page) must be in the wheel.
The wheel is built from pyproject.toml as pip builds it, installed into a fresh environment (its dependencies are
this environment's, hard-linked in; the package itself only from the wheel), and used from a folder outside the
repository to grade a small class and to check a learner's work on their own."""
import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from classroom import course as coursedirs
from coursekit.trial_course import AUTOGRADE_FLAGS, ASSIGNMENT, SUBMISSIONS, nbgrader_env, submission
from coursekit.repository import ROOT

pytestmark = pytest.mark.integration
PACKAGES = ("attention_lesson", "classroom")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel pip builds from a copy of the project's packaging files and packages (nothing written in the
    repository)."""
    place = tmp_path_factory.mktemp("wheel")
    project = place / "attention-lesson"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, project / package, ignore=shutil.ignore_patterns("__pycache__"))
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(place / "dist"),
                          str(project)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    return next((place / "dist").glob("*.whl"))


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh environment holding the package from the wheel only: its python."""
    env = tmp_path_factory.mktemp("env") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # The dependencies: this environment's, hard-linked in (a second of work instead of minutes of pip; the sandbox
    # binds the environment's own folders, so they must be inside it), without the editable install of this
    # repository.
    shutil.rmtree(site)
    subprocess.run(["cp", "-al", sysconfig.get_paths()["purelib"], str(site)], check=True)
    subprocess.run(["cp", "-al", str(Path(sys.prefix) / "share"), str(env / "share")], check=True)  # nbconvert's
    for editable in [*site.glob("__editable__*"), *site.glob("attention_lesson-*.dist-info")]:
        shutil.rmtree(editable) if editable.is_dir() else editable.unlink()
    run = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                          str(wheel)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    return python


def using(python, *argv, cwd):
    env = nbgrader_env()
    env.pop("PYTHONPATH", None)
    env["PATH"] = f"{python.parent}:{env['PATH']}"  # nbgrader runs `alembic` from PATH, as `make` sets it
    return subprocess.run([str(python), *argv], cwd=cwd, env=env, capture_output=True, text=True)


def test_every_file_of_the_packages_is_in_the_wheel(wheel):
    tracked = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert any(name.endswith(".j2") for name in tracked) and any(name.endswith(".json") for name in tracked)
    held = set(zipfile.ZipFile(wheel).namelist())
    assert not [name for name in tracked if name not in held], "pyproject.toml's package-data leaves these out"


def test_the_installed_package_grades_a_class_and_a_learners_own_work(installed, tmp_path):
    place = tmp_path / "course"
    place.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", place)
    for folder in ("source", "release"):
        shutil.copytree(ROOT / folder, place / folder)
    found = using(installed, "-c", "import classroom, attention_lesson; print(classroom.__file__, "
                                   "attention_lesson.__file__)", cwd=place)
    assert str(installed.parent.parent) in found.stdout and str(ROOT) not in found.stdout, found.stdout + found.stderr

    assert using(installed, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force", cwd=place).returncode == 0
    for student, solution in (("ada", "correct_einsum.py"), ("bo", "wrong_returns_A_times_G.py")):
        folder = place / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(submission((SUBMISSIONS / solution).read_text())))
    graded = using(installed, "-m", "classroom.autograde", ASSIGNMENT, *AUTOGRADE_FLAGS, cwd=place)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-3000:]
    from nbgrader.api import Gradebook

    with Gradebook(coursedirs.course_directory(root=place).db_url) as gb:
        scores = {s: gb.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, s).score for s in ("ada", "bo")}
    assert scores["ada"] == 20 and scores["bo"] < 20, scores
    made = using(installed, "-m", "nbgrader", "generate_feedback", ASSIGNMENT, cwd=place)
    assert made.returncode == 0, made.stdout[-1500:] + made.stderr[-3000:]
    assert (place / "feedback" / "ada" / ASSIGNMENT / f"{ASSIGNMENT}.html").exists()

    learner = tmp_path / "learner"
    learner.mkdir()
    for name in ("nbgrader_config.py", "source", "release"):
        (shutil.copytree if (place / name).is_dir() else shutil.copy)(place / name, learner / name)
    work = learner / "my-work" / ASSIGNMENT
    shutil.copytree(learner / "release" / ASSIGNMENT, work)
    (work / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(submission((SUBMISSIONS / "correct_einsum.py").read_text())))
    checked = using(installed.parent / "classroom", "check-exercise", ASSIGNMENT, *AUTOGRADE_FLAGS, cwd=learner)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-3000:]
    assert "Full marks" in (learner / "my-work" / "feedback" / f"{ASSIGNMENT}.html").read_text()
