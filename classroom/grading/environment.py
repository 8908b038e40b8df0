"""What a process needs before it runs nbgrader for the course: this environment's programs first on PATH, and
nbgrader's own SQLAlchemy warnings kept off the instructor's screen.

nbgrader runs `alembic` from PATH whenever it creates a gradebook (the staging gradebooks too, and the formgrader's
first page): the one to run is the one installed beside this Python, whatever PATH the instructor's shell has. The
driver (classroom.autograde) and every grader process (classroom.grading.pool) call `prepare()`; a test or a tool
that starts nbgrader in a subprocess gives it `path()`.
"""
import os
import sys
import warnings


def path(current=None):
    """A PATH (from `current`, default this process's) with this environment's bin/ first, once."""
    current = os.environ.get("PATH", "") if current is None else current
    bin_dir = os.path.dirname(sys.executable)
    rest = [entry for entry in current.split(os.pathsep) if entry and entry != bin_dir]
    return os.pathsep.join([bin_dir, *rest])


def prepare():
    """Set this process up to run nbgrader: PATH as `path()` gives it; SQLAlchemy's SAWarning, which nbgrader's
    own use of it raises (not ours to fix), silenced."""
    from sqlalchemy.exc import SAWarning

    os.environ["PATH"] = path()
    warnings.filterwarnings("ignore", category=SAWarning)
