"""A pytest plugin: a failing check of a lesson notebook that differs from the committed one says so, and what to do.

JupyterLab saves a lesson a learner has run (on closing it, or by autosave every two minutes), with the learner's
execution counts and outputs. nbval and tests/lessons/ then compare that file with what they expect, and their own
messages speak to a maintainer ("run `make notebooks`"). So where such a check fails on a lesson that git sees
changed, the report gets a section naming the file and the two ways on: put the committed lesson back, or, for a
maintainer who meant the change, re-run the notebooks. A check of a lesson git sees unchanged is left as it is.

A lesson is the notebook an nbval item runs, or a `path` parameter of a test, under the repository's notebooks/.
Without git (an unpacked archive, say) nothing is added.
"""
import subprocess
from pathlib import Path

import pytest

SECTION = "this lesson is not the committed one"


def changed(path, root):
    """Whether git sees `path` (a file under `root`, a git work tree) differ from the committed version."""
    try:
        run = subprocess.run(["git", "status", "--porcelain", "--", str(path)], cwd=root, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return run.returncode == 0 and bool(run.stdout.strip())


def advice(relative):
    return (f"{relative} differs from the committed lesson: JupyterLab saves a lesson you run, with your outputs "
            f"and execution counts, and this check compares the file with the committed run.\n"
            f"  To put the committed lesson back (your runs of it are lost; your own work in my-work/ is not "
            f"touched): git checkout -- {relative}\n"
            f"  If you changed the lesson on purpose (a maintainer): make notebooks, then review git diff.")


def lesson_of(item, lessons):
    """The lesson notebook `item` checks, or None."""
    candidates = [Path(item.path)]
    params = getattr(getattr(item, "callspec", None), "params", {})
    if isinstance(params.get("path"), Path):
        candidates.append(params["path"])
    for path in candidates:
        if path.suffix == ".ipynb" and path.resolve().parent == lessons:
            return path.resolve()
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    root = Path(str(item.config.rootpath)).resolve()
    lesson = lesson_of(item, root / "notebooks")
    if lesson is not None and changed(lesson, root):
        report.sections.append((SECTION, advice(lesson.relative_to(root).as_posix())))
