"""Hostile submissions, graded by the real `nbgrader autograde` inside the bubblewrap sandbox (classroom.sandbox).

Each hostile solution cell attacks at the top level (so both the display kernel and the grading child run it) and
defines a *correct* `score_gradient` only if its attack worked: any escape would show up as points. The course
holds an honest student too; afterwards her grade and files, the source notebook and the release are unchanged,
no process of the sandbox user is left and no control group of the grader's.

The memory attacks hold more than a sandboxed tree may hold in all (classroom.sandbox.launch.tree_memory: its memory
limit plus its tmpfs files) in places the address-space limit does not see; they count as escapes only where the
machine gives the grader a memory cgroup (classroom.sandbox.cgroups), which is what bounds them. The hostile run
gives the kernel and the grading child less memory than the production 2 GiB (KERNEL_MEMORY, CHILD_MEMORY: options
a course may set), so that the attacks need write only that much: what they show is that the limit holds, not how
large it is, and writing fresh memory is slow where the machine is a virtual one that hands memory back to its host.
"""
import glob
import hashlib
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from classroom.sandbox import cgroups
from classroom.sandbox import launch as sandbox
from classroom.trusted import failures
from classroom.trusted.student_errors import StudentError
from classroom.trusted.proxy import StudentCode
from coursekit import trial_course
from coursekit.parts import requires
from coursekit.repository import ROOT

pytestmark = requires("sandbox")

# Where the attacks look for the instructor's files: this clone's own source notebook, and the top folder it lies in.
REPOSITORY_SOURCE = str(ROOT / "source" / "score_gradient" / "score_gradient.ipynb")
REPOSITORY_TOP = str(Path(*ROOT.parts[:2]))

# The hostile run's memory limits (c.SandboxedExecute.kernel_memory, c.TrustedGrades.child_memory) and the most a tree
# of either may hold in all: the memory attacks write past it.
KERNEL_MEMORY, CHILD_MEMORY = 1024 * sandbox.MiB, 512 * sandbox.MiB
TREE_MIB = sandbox.tree_memory(max(KERNEL_MEMORY, CHILD_MEMORY)) // sandbox.MiB
LIMITS = [f"--SandboxedExecute.kernel_memory={KERNEL_MEMORY}", f"--TrustedGrades.child_memory={CHILD_MEMORY}"]

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
for path in [COURSE + "/source/score_gradient/score_gradient.ipynb", REPOSITORY_SOURCE]:
    if os.path.exists(path) and "BEGIN SOLUTION" in open(path).read():
        ESCAPED = True
""".replace("REPOSITORY_SOURCE", repr(REPOSITORY_SOURCE))),
    "hostile_finds_gradebook": attack("""
import os
for top in ["/", "/tmp", REPOSITORY_TOP, "/root", "/home", "/srv"]:
    for folder, dirs, files in os.walk(top):
        if "gradebook.db" in files:
            path = os.path.join(folder, "gradebook.db")
            open(path, "ab").write(b"x")
            ESCAPED = True
        if folder.count("/") > 6:
            dirs[:] = []
""".replace("REPOSITORY_TOP", repr(REPOSITORY_TOP))),
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
    "hostile_memfd_beyond_limits": attack("""
import os
held = []
for i in range(TREE_MIB // 64 + 2):  # 64 MiB at a time past what the tree may hold, none of it in the address space
    fd = os.memfd_create(f"hoard{i}")
    os.write(fd, b"x" * 64 * 2 ** 20)
    held.append(fd)
ESCAPED = len(held) * 64 > TREE_MIB
""".replace("TREE_MIB", str(TREE_MIB))),
    "hostile_user_namespace_tmpfs": attack("""
import subprocess
script = "mount -t tmpfs none /tmp && for i in 1 2 3 4 5 6 7; do head -c 60000000 /dev/zero > /tmp/f$i || exit 1; done"
ESCAPED = subprocess.run(["unshare", "-rm", "sh", "-c", script]).returncode == 0
"""),
    "hostile_fills_dev_shm": attack("""
written = 0
for i in range(16):
    with open(f"/dev/shm/fill{i}", "wb") as f:
        for _ in range(16):
            f.write(b"x" * 2 ** 20)
            written += 2 ** 20
ESCAPED = written >= 128 * 2 ** 20
"""),
    "hostile_deleted_file_held_open": attack("""
import os
held, written = open("/tmp/hidden", "wb"), 0
os.unlink("/tmp/hidden")
for _ in range(160):
    held.write(b"x" * 2 ** 20)
    held.flush()
    written += 2 ** 20
ESCAPED = written >= 128 * 2 ** 20
"""),
    "hostile_shared_anonymous_memory": attack("""
import mmap
maps, touched = [], 0
for _ in range(TREE_MIB // 256 + 2):  # 256 MiB at a time, shared and anonymous, every page written
    block = mmap.mmap(-1, 256 * 2 ** 20, flags=mmap.MAP_SHARED)
    for offset in range(0, len(block), 4096):
        block[offset] = 1
    maps.append(block)
    touched += len(block)
ESCAPED = touched > TREE_MIB * 2 ** 20
""".replace("TREE_MIB", str(TREE_MIB))),
    "hostile_writes_to_the_graders_terminal": attack("""
import fcntl, os, termios
for fd in (0, 1, 2):
    try:
        os.write(fd, b"\\x1b]0;TERMINAL-TAKEN\\x07TERMINAL-TAKEN\\n")
    except OSError:
        pass
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"x")
        ESCAPED = True
    except OSError:
        pass
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


def _sandbox_processes(inside):
    """Processes of the sandbox user whose working folder is under `inside` (the grader's TMPDIR, where every
    sandbox of this test's run has its home), as "pid args"."""
    out = subprocess.run(["ps", "-eo", "uid=,pid=,args="], capture_output=True, text=True).stdout
    found = []
    for uid, pid, args in (line.split(None, 2) for line in out.splitlines() if len(line.split(None, 2)) == 3):
        try:
            ours = uid == str(sandbox.SANDBOX_UID) and os.readlink(f"/proc/{pid}/cwd").startswith(str(inside))
        except OSError:  # it ended meanwhile
            continue
        if ours:
            found.append(f"{pid} {args}")
    return found


def _grader_cgroups(grader_pid):
    """Every control group of the grader `grader_pid` (classroom.sandbox.cgroups names them after it), in every
    hierarchy."""
    return sorted(glob.glob(f"{cgroups.ROOT}/**/{cgroups.PREFIX}{grader_pid}-*", recursive=True))


def _gone(condition, polls=120):
    """Whether `condition()` holds within `polls` half-second looks: a killed sandbox's processes and control groups
    take a moment to go on a loaded machine; what the grader leaves behind never goes."""
    for _ in range(polls):
        if condition():
            return True
        time.sleep(0.5)
    return False


def test_hostile_submissions_fail_inside_the_sandbox(tmp_path):
    place = trial_course.make_course(tmp_path / "course")
    honest = (trial_course.SUBMISSIONS / "correct_einsum.py").read_text()
    trial_course.write_submission(place, "alice", trial_course.submission(honest))
    trial_course.autograde(place)  # graded first, so the class's run below finds her up to date and leaves her alone
    alice_before = trial_course.scores(place)["alice"]
    guarded = {p: _digest(place / p) for p in ("source", "release", "submitted/alice", "autograded/alice",
                                               "nbgrader_config.py")}
    unanswered = {grade_id: None for grade_id in trial_course.answer_cells()}  # only their code: nothing else to earn
    for name, code in HOSTILE.items():
        trial_course.write_submission(place, name, trial_course.submission(code, answers=unanswered))
    scratch = tmp_path / "tmp"  # the grader's TMPDIR: every sandbox home of the run is made in it
    scratch.mkdir()
    graded = trial_course.autograde(place, *LIMITS, HOSTILE_COURSE=str(place), TMPDIR=str(scratch))
    scores = trial_course.scores(place)
    earned = {name: sum(scores[name].values()) for name in HOSTILE}
    assert earned == {name: 0.0 for name in HOSTILE}, earned
    assert scores["alice"] == alice_before
    assert {p: _digest(place / p) for p in guarded} == guarded
    assert "TERMINAL-TAKEN" not in (place / "autograde.log").read_text(), "a student wrote into the grader's output"
    # nothing of this run's is left (graders and sandboxes of other tests may run beside it: they are not counted)
    assert _gone(lambda: not _sandbox_processes(scratch)), _sandbox_processes(scratch)
    assert _gone(lambda: not _grader_cgroups(graded.pid)), _grader_cgroups(graded.pid)


def test_one_tree_holds_no_more_than_its_limit_in_memfd_files():
    """Files in memory that no address space maps (memfd) count against the tree's control group."""
    if not cgroups.support()["ok"]:
        pytest.skip(f"no memory cgroup here: {cgroups.support()['why']}")
    hoard = ("import os\nheld = []\nfor i in range(48):\n    fd = os.memfd_create('m')\n"
             "    os.write(fd, b'x' * 64 * 2 ** 20)\n    held.append(fd)\ndef held_mib():\n    return len(held) * 64\n")
    with StudentCode([hoard], define_timeout=60, launcher=trial_course.LAUNCHER, memory=CHILD_MEMORY) as code:
        with pytest.raises(StudentError) as stopped:
            code.lookup("held_mib")
    assert stopped.value.kind == failures.OUT_OF_MEMORY, str(stopped.value)
    assert str(sandbox.tree_memory(CHILD_MEMORY) // sandbox.MiB) in str(stopped.value)


def test_the_sandbox_is_a_session_of_its_own():
    """No controlling terminal to send keystrokes to: the session's leader is inside the sandbox (outside it, the
    sandbox's PID namespace would see the session as 0)."""
    with StudentCode(["import os\nsession = os.getsid(0)\n"], launcher=trial_course.LAUNCHER) as code:
        assert code.lookup("session") != 0


def test_no_user_namespace_inside_the_sandbox():
    if not sandbox.mode()["no_userns"]:
        pytest.skip("this machine allows no unprivileged user namespaces, so bubblewrap cannot forbid them")
    probe = "import subprocess\ncode = subprocess.run(['unshare', '-rm', 'true']).returncode\n"
    with StudentCode([probe], launcher=trial_course.LAUNCHER) as code:
        assert code.lookup("code") != 0


def test_a_fork_bomb_within_its_limit_does_not_starve_another_student():
    """Each tree counts its own processes: one holding all it may does not stop another from starting."""
    bomb = ("import os, time\nchildren = 0\nwhile children < 200:\n    try:\n        pid = os.fork()\n"
            "    except OSError:\n        break\n    if pid == 0:\n        time.sleep(60)\n        os._exit(0)\n"
            "    children += 1\n")
    honest = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"
    with StudentCode([bomb], launcher=trial_course.LAUNCHER) as greedy, \
            StudentCode([honest], launcher=trial_course.LAUNCHER) as other:
        assert 0 < greedy.lookup("children") < 200
        A = np.full((3, 3), 1 / 3)
        assert np.allclose(other.lookup("f")(A, np.eye(3)).sum(axis=1), 0)
