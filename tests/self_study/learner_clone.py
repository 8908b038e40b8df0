"""A learner's fresh clone of this working tree, and make run in it as the learner runs it (tests/self_study)."""
import os
import shutil
import subprocess
import sys

from coursekit.repository import ROOT


def fresh_clone(dest):
    """What a clone of this working tree holds, as a git repository of its own, with .venv linked to this run's."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.exists() or source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name, follow_symlinks=False)
    git = ["git", "-c", "user.name=Learner", "-c", "user.email=learner@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "clone"]):
        subprocess.run(git + args, cwd=dest, check=True, capture_output=True)
    (dest / ".venv").symlink_to(sys.prefix)
    # The shared .venv is up to date for this clone: no file of it is newer than .venv/.ready, so no make run in the
    # clone (a recursive one too, which `make -o .venv/.ready` does not reach) rebuilds it, and so relinks this
    # environment's JupyterLab settings and extensions into the clone, to be left dangling when it is deleted.
    ready = (dest / ".venv" / ".ready").stat().st_mtime
    for name in filter(None, listed):
        path = dest / name
        if path.exists() and not path.is_symlink() and path.stat().st_mtime >= ready:
            os.utime(path, (ready - 1, ready - 1))
    return dest


def make(clone, *args):
    env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "--no-print-directory", "-o", ".venv/.ready", *args], cwd=clone, env=env,
                          capture_output=True, text=True)
