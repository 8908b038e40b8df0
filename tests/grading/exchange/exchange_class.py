"""The shared exchange a class hands in through in tests/grading/exchange/, made as `make exchange` makes it, the
instructor's `nbgrader` run against it, the OS accounts that hand in, and what a hostile classmate runs there."""
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from coursekit import trial_course
from coursekit.trial_course import COURSE_ID
from classroom.app import exchange as make_exchange

TS = "2024-05-01 10:00:00.000000 UTC"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # one every account may run
SUBMIT = "--ExchangeFactory.submit=classroom.plugins.exchange_submit.SafeSubmit"  # as the hub sets it for everyone
# What mallory hands in, run as her account in inbound/: a folder of links, a hard link and a pipe, folders under
# ids that are not plain, a link to source/, a folder with no time, and one under victim's name.
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
mkdir "$VICTIM+$ASSIGNMENT+$LATER+x"
cp "$HANDOUT" "$VICTIM+$ASSIGNMENT+$LATER+x/$ASSIGNMENT.ipynb"
"""
# What mallory tries against victim's hand-in and the course's folder: each must fail.
TRY_WRITE = r"""
import json, os, sys
hand_in, course = sys.argv[1], sys.argv[2]
attempts = {
    "add a file to the hand-in": lambda: open(os.path.join(hand_in, "extra.ipynb"), "x").close(),
    "replace the hand-in's notebook": lambda: os.replace(os.path.join(hand_in, "timestamp.txt"),
                                                         os.path.join(hand_in, "score_gradient.ipynb")),
    "delete the hand-in's notebook": lambda: os.remove(os.path.join(hand_in, "score_gradient.ipynb")),
    "rename the hand-in": lambda: os.rename(hand_in, hand_in + "-moved"),
    "read the hand-in": lambda: open(os.path.join(hand_in, "score_gradient.ipynb"), "rb").read(1),
    "make a folder in the course's folder": lambda: os.mkdir(os.path.join(course, "fake")),
    "release a fake assignment": lambda: os.mkdir(os.path.join(course, "outbound", "fake")),
    "rename the course's folder": lambda: os.rename(course, course + "-moved"),
}
seen = {}
for what, attempt in attempts.items():
    try:
        attempt()
        seen[what] = "done"
    except OSError as error:
        seen[what] = type(error).__name__
print(json.dumps(seen))
"""


class Account:
    """An OS account (useradd; userdel when done), or, where none can be made, the current one under a name."""

    def __init__(self, name):
        self.name, self.uid, self.gid, self.why_not = name, os.getuid(), os.getgid(), None
        if os.getuid() != 0 or not shutil.which("useradd"):
            self.why_not = "another OS account needs root and useradd"
            return
        login = f"sqdk{name[:6]}{os.getpid()}"
        made = subprocess.run(["useradd", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", login],
                              capture_output=True, text=True)
        if made.returncode != 0:
            self.why_not = f"useradd failed: {made.stderr.strip()}"
            return
        entry = pwd.getpwnam(login)
        self.name, self.uid, self.gid = login, entry.pw_uid, entry.pw_gid

    @property
    def separate(self):
        return self.why_not is None

    def run(self, *command, check=True, cwd=None, **env):
        kwargs = dict(user=self.uid, group=self.gid, extra_groups=[]) if self.separate else {}
        result = subprocess.run(command, env=trial_course.nbgrader_env(**{"HOME": "/nonexistent", **env}), cwd=cwd,
                                capture_output=True, text=True, **kwargs)
        assert not check or result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
        return result

    def remove(self):
        if self.separate:
            subprocess.run(["userdel", self.name], check=True, capture_output=True)


def shared_exchange(request):
    """(folder for the accounts, exchange root) made as `make exchange` makes them, the course's folder the
    instructor's (the current account)."""
    shared = Path(tempfile.mkdtemp(prefix="exchange-"))  # outside the instructor's private tmp
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    shared.chmod(0o755)
    exchange = shared / "exchange"
    assert make_exchange.make_exchange(str(exchange)) is None
    assert make_exchange.make_course_folder(str(exchange), COURSE_ID, os.getuid(), os.getgid()) is None
    return shared, exchange


def instructor(course_path, exchange, *args, check=True):
    return trial_course.nbgrader(*args, f"--Exchange.root={exchange}", cwd=course_path, check=check)
