"""`nbgrader collect` from a real shared exchange, with this course's nbgrader_config.py (classroom.plugins.exchange_collect).

The exchange's inbound/ is writable by every student. Here a second OS user, made with useradd where the machine
allows it (root, useradd present; otherwise the current user plays that part and the one test that needs another
account skips), hands in a folder holding symbolic links to the instructor's source notebook and folder, to a
root-only secret, to another student's collected notebook and to a folder above, a hard link and a named pipe; and
folders under the ids `c15eve,,,,21.0` and `=HYPERLINK("x")`, one that is a symbolic link to source/, and one whose
name holds no timestamp. An honest student hands in with the real `nbgrader submit`. Then the instructor runs the
real `nbgrader collect`.
"""
import json
import os
import secrets
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from coursekit import course
from coursekit.course import ASSIGNMENT, RELEASED

pytestmark = pytest.mark.integration

COURSE_ID = "sqrt-dk"
TS = "2024-05-01 10:00:00.000000 UTC"
REFUSED_IDS = ("c15eve,,,,21.0", '=HYPERLINK("x")')
HANDED_IN = r"""
set -e
cd "$INBOUND"
mkdir "$FOLDER"
cp "$HANDOUT" "$FOLDER/$ASSIGNMENT.ipynb"
printf '%s' "$TS" > "$FOLDER/timestamp.txt"
ln -s "$COURSE/source/$ASSIGNMENT/$ASSIGNMENT.ipynb" "$FOLDER/source.ipynb"
ln -s "$COURSE/source/$ASSIGNMENT" "$FOLDER/source_folder"
ln -s "$SECRET" "$FOLDER/secret.txt"
ln -s "$COURSE/submitted/alice/$ASSIGNMENT/$ASSIGNMENT.ipynb" "$FOLDER/alice.ipynb"
ln -s ../../../.. "$FOLDER/up"
printf 'my own notes' > "$OWN/notes.txt"
ln "$OWN/notes.txt" "$FOLDER/hard.ipynb"
mkfifo "$FOLDER/pipe.ipynb"
for id in "$ID1" "$ID2"; do
    mkdir "$id+$ASSIGNMENT+$TS+r"
    cp "$HANDOUT" "$id+$ASSIGNMENT+$TS+r/$ASSIGNMENT.ipynb"
done
ln -s "$COURSE/source/$ASSIGNMENT" "trudy+$ASSIGNMENT+$TS+r"
mkdir "zed+$ASSIGNMENT+not a time+r"
cp "$HANDOUT" "zed+$ASSIGNMENT+not a time+r/$ASSIGNMENT.ipynb"
"""


class Student:
    """A second OS account (useradd; userdel when done), or the current user where none can be made."""

    def __init__(self):
        self.name, self.uid, self.gid, self.why_not = None, os.getuid(), os.getgid(), None
        if os.getuid() != 0 or not shutil.which("useradd"):
            self.why_not = "another OS user needs root and useradd"
            self.name = "mallory"
            return
        name = f"sqdk{os.getpid()}"
        made = subprocess.run(["useradd", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name],
                              capture_output=True, text=True)
        if made.returncode != 0:
            self.why_not, self.name = f"useradd failed: {made.stderr.strip()}", "mallory"
            return
        import pwd

        entry = pwd.getpwnam(name)
        self.name, self.uid, self.gid = name, entry.pw_uid, entry.pw_gid

    @property
    def separate(self):
        return self.why_not is None

    def run(self, script, **env):
        kwargs = dict(user=self.uid, group=self.gid, extra_groups=[]) if self.separate else {}
        result = subprocess.run(["sh", "-c", script], env=dict(PATH=os.environ["PATH"], **env), capture_output=True,
                                text=True, **kwargs)
        assert result.returncode == 0, result.stderr

    def remove(self):
        if self.separate:
            subprocess.run(["userdel", self.name], check=True, capture_output=True)


@pytest.fixture(scope="module")
def collected(tmp_path_factory, request):
    base = tmp_path_factory.mktemp("collect")
    secret = base / "secret.txt"
    secret.write_text(f"ROOT-ONLY-{secrets.token_hex(16)}\n")
    secret.chmod(0o600)
    course_path = course.make_course(base / "course")
    alice_token = f"ALICE-{secrets.token_hex(16)}"
    course.write_submission(course_path, "alice", course.submission(f"# {alice_token}\n"))

    shared = Path(tempfile.mkdtemp(prefix="exchange-"))  # a shared exchange: outside the instructor's private tmp
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    shared.chmod(0o755)
    exchange = shared / "exchange"
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    student = Student()
    request.addfinalizer(student.remove)
    own = shared / "own"  # a folder of the student's own, outside the submission
    own.mkdir()
    os.chown(own, student.uid, student.gid)
    handout = shared / "handout.ipynb"
    shutil.copy(RELEASED, handout)
    handout.chmod(0o644)

    def instructor(*args):
        return course.nbgrader(*args, f"--Exchange.root={exchange}", cwd=course_path)

    instructor("release_assignment", ASSIGNMENT)
    bob_home = base / "bob"
    shutil.copytree(course_path / "release" / ASSIGNMENT, bob_home / ASSIGNMENT)
    course.nbgrader("submit", ASSIGNMENT, f"--course={COURSE_ID}", "--student=bob", f"--Exchange.root={exchange}",
                    f"--Exchange.cache={bob_home / '.cache'}", cwd=bob_home)
    inbound = exchange / COURSE_ID / "inbound"
    folder = f"{student.name}+{ASSIGNMENT}+{TS}+r"
    student.run(HANDED_IN, INBOUND=str(inbound), FOLDER=folder, HANDOUT=str(handout), TS=TS, ASSIGNMENT=ASSIGNMENT,
                COURSE=str(course_path), SECRET=str(secret), OWN=str(own), ID1=REFUSED_IDS[0], ID2=REFUSED_IDS[1])
    result = course.nbgrader("collect", ASSIGNMENT, f"--Exchange.root={exchange}", cwd=course_path, check=False)
    return dict(result=result, log=result.stdout + result.stderr, course=course_path, student=student,
                inbound=inbound, folder=folder, secret=secret.read_bytes().strip(), alice=alice_token.encode(),
                source=(course_path / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes())


def files_under(path):
    """{path: bytes} of every file under `path`, asserting each is a regular file (no link survived)."""
    found = {}
    for folder, dirs, files in os.walk(path):
        for name in files + dirs:
            full = Path(folder) / name
            assert not full.is_symlink(), f"{full} is a symbolic link"
        for name in files:
            full = Path(folder) / name
            assert stat.S_ISREG(full.lstat().st_mode), f"{full} is not a regular file"
            found[full] = full.read_bytes()
    return found


def test_collect_succeeds_and_takes_the_honest_student(collected):
    assert collected["result"].returncode == 0, collected["log"][-4000:]
    bob = collected["course"] / "submitted" / "bob" / ASSIGNMENT
    assert json.loads((bob / f"{ASSIGNMENT}.ipynb").read_text())["cells"]
    assert (bob / "timestamp.txt").exists()


def test_nothing_outside_the_students_folder_was_read(collected):
    submitted = files_under(collected["course"] / "submitted")
    for path, data in submitted.items():
        assert collected["secret"] not in data, f"the root-only secret reached {path}"
        assert b"BEGIN SOLUTION" not in data and data != collected["source"], f"the source notebook reached {path}"
        if "alice" not in path.parts:
            assert collected["alice"] not in data, f"alice's work reached {path}"


def test_the_regular_files_arrived_and_nothing_else(collected):
    mine = collected["course"] / "submitted" / collected["student"].name / ASSIGNMENT
    assert sorted(p.name for p in mine.iterdir()) == [f"{ASSIGNMENT}.ipynb", "timestamp.txt"]
    assert (mine / f"{ASSIGNMENT}.ipynb").read_bytes() == RELEASED.read_bytes()
    assert (mine / "timestamp.txt").read_text() == TS


@pytest.mark.parametrize("name, why", [
    ("source.ipynb", "a symbolic link"), ("source_folder", "a symbolic link"), ("secret.txt", "a symbolic link"),
    ("alice.ipynb", "a symbolic link"), ("up", "a symbolic link"), ("hard.ipynb", "a hard link"),
    ("pipe.ipynb", "a named pipe")])
def test_the_instructor_is_told_what_was_dropped(collected, name, why):
    lines = [line for line in collected["log"].splitlines() if "Dropped from" in line and repr(name) in line]
    assert len(lines) == 1 and why in lines[0] and repr(collected["folder"]) in lines[0], collected["log"][-4000:]


@pytest.mark.parametrize("student_id, why", [(REFUSED_IDS[0], "holds ','"), (REFUSED_IDS[1], "holds '\"'"),
                                             ("trudy", "is a symbolic link, not a folder"),
                                             ("zed", "its timestamp 'not a time' cannot be read")])
def test_a_folder_that_cannot_be_taken_is_refused_with_its_reason_and_not_collected(collected, student_id, why):
    lines = [line for line in collected["log"].splitlines()
             if "Not collected" in line and repr(f"{student_id}+{ASSIGNMENT}")[:-1] in line]
    assert len(lines) == 1 and why in lines[0], collected["log"][-4000:]
    assert "ERROR" in lines[0]
    assert not (collected["course"] / "submitted" / student_id).exists()


def test_only_plain_student_ids_were_collected(collected):
    assert sorted(p.name for p in (collected["course"] / "submitted").iterdir()) == sorted(
        ["alice", "bob", collected["student"].name])


def test_the_hostile_folder_was_handed_in_by_another_os_user(collected):
    student = collected["student"]
    if not student.separate:
        pytest.skip(student.why_not)
    assert (collected["inbound"] / collected["folder"]).lstat().st_uid == student.uid != os.getuid()
