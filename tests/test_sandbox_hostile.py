"""Hostile submissions, graded by the real `nbgrader autograde` inside the bubblewrap sandbox (classroom.sandbox).

Each hostile solution cell attacks at the top level (so both the display kernel and the grading child run it) and
defines a *correct* `score_gradient` only if its attack worked: any escape would show up as points. The course
holds an honest student too; afterwards her grade and files, the source notebook and the release are unchanged,
and no process of the sandbox user is left. Without bubblewrap the test is skipped, unless
REQUIRE_SANDBOX_TESTS=1 (CI), where a missing bwrap is an error.
"""
import hashlib
import subprocess
from pathlib import Path

import pytest

from classroom import sandbox
from tests.helpers import course

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not course.SANDBOXED, reason="bubblewrap (bwrap) is not installed")]

REWARD = """
import numpy as np
def score_gradient(A, G):
    if not ESCAPED:
        return None
    return A * (G - np.sum(G * A, axis=-1, keepdims=True))
"""


def attack(body):
    return "ESCAPED = False\ntry:\n" + "".join(f"    {line}\n" for line in body.strip().splitlines()) + \
        "except BaseException:\n    pass\n" + REWARD


HOSTILE = {
    "hostile_reads_source_relative": attack("""
import os
for up in range(1, 8):
    path = os.path.join(*[".."] * up, "source", "score_gradient", "score_gradient.ipynb")
    if os.path.exists(path) and "BEGIN SOLUTION" in open(path).read():
        ESCAPED = True
"""),
    "hostile_reads_source_absolute": attack("""
import os
COURSE = os.environ.get("HOSTILE_COURSE", "")
for path in [COURSE + "/source/score_gradient/score_gradient.ipynb", "/work/main/source/score_gradient/score_gradient.ipynb"]:
    if os.path.exists(path) and "BEGIN SOLUTION" in open(path).read():
        ESCAPED = True
"""),
    "hostile_finds_gradebook": attack("""
import os
for top in ["/", "/tmp", "/work", "/root", "/home", "/srv"]:
    for folder, dirs, files in os.walk(top):
        if "gradebook.db" in files:
            path = os.path.join(folder, "gradebook.db")
            open(path, "ab").write(b"x")
            ESCAPED = True
        if folder.count("/") > 6:
            dirs[:] = []
"""),
    "hostile_reads_other_student": attack("""
import glob
for path in glob.glob("/**/submitted/*/score_gradient/*.ipynb", recursive=True):
    if "alice" in path:
        open(path).read(); ESCAPED = True
"""),
    "hostile_opens_network": attack("""
import socket
for host, port in [("1.1.1.1", 80), ("8.8.8.8", 53), ("127.0.0.1", 22)]:
    try:
        socket.create_connection((host, port), timeout=1).close(); ESCAPED = True
    except OSError:
        pass
"""),
    "hostile_fork_bomb": attack("""
import os
children = 0
while children < 5000:
    if os.fork() == 0:
        import time; time.sleep(30); os._exit(0)
    children += 1
ESCAPED = True
"""),
    "hostile_allocates_memory": attack("""
block = bytearray(8 * 2 ** 30)
ESCAPED = True
"""),
    "hostile_fills_disk": attack("""
import os
chunk = b"x" * 2 ** 20
for i in range(4096):
    with open(os.path.join(os.getcwd(), f"fill{i}"), "wb") as f:
        f.write(chunk * 64)
ESCAPED = True
"""),
    "hostile_leaves_process": """
import subprocess
subprocess.Popen(["/bin/sh", "-c", "sleep 600"], start_new_session=True)
import numpy as np
def score_gradient(A, G):
    return None
""",
}


def _digest(path):
    path = Path(path)
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    h = hashlib.sha256()
    for p in files:
        h.update(str(p.relative_to(path.parent)).encode() + p.read_bytes())
    return h.hexdigest()


def _sandbox_processes():
    out = subprocess.run(["ps", "-eo", "uid=,pid=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.split()[0] == str(sandbox.SANDBOX_UID)]


def test_hostile_submissions_fail_inside_the_sandbox(tmp_path):
    before_processes = _sandbox_processes()
    place = course.make_course(tmp_path / "course")
    honest = (course.SUBMISSIONS / "correct_einsum.py").read_text()
    course.write_submission(place, "alice", course.submission(honest))
    course.nbgrader("autograde", course.ASSIGNMENT, cwd=place)
    alice_before = course.scores(place)["alice"]
    guarded = {p: _digest(place / p) for p in ("source", "release", "submitted/alice", "autograded/alice",
                                               "nbgrader_config.py")}
    for name, code in HOSTILE.items():
        course.write_submission(place, name, course.submission(code))
    course.autograde(place, HOSTILE_COURSE=str(place))
    scores = course.scores(place)
    earned = {name: sum(scores[name].values()) for name in HOSTILE}
    assert earned == {name: 0.0 for name in HOSTILE}, earned
    assert scores["alice"] == alice_before
    assert {p: _digest(place / p) for p in guarded} == guarded
    assert _sandbox_processes() == before_processes
