"""A class on the JupyterHub of deploy/jupyterhub/, made by `make hub` and used as a class uses it, in Debian's
Chromium (playwright); then `make hub-clean`.

Real Linux accounts log in through PAM (coursekit/real_parts/hub.py runs `make hub` with names of its own): the teacher
opens Nbgrader › Formgrader inside JupyterLab (it must load there, not only by its own address) and releases the
assignment with its Release button; each student lands on lesson 01, finds neither Formgrader nor Create Assignment
in the Nbgrader menu, fetches the assignment in the Assignments tab, hands in an answer (one right, one wrong:
tests/submissions/), presses Validate and Submit. Then the second student, from their own account, hands in under the
first's name, garbles their own timestamp.txt (the first forges theirs), and tries to change the first's hand-in and
the exchange's course folder; the first student tries to read the teacher's kernel and the second's. The teacher,
in a Jupyter terminal, runs INSTRUCTORS.md's commands as written (collect refuses the forgery by name, exits non-zero,
collects the rest with the server's times; autograde); the teaching assistant, in a terminal of their own, grades
everyone again and releases the feedback; each student fetches and opens their feedback. Every mode of
INSTRUCTORS.md's permission table is checked, each student's account is refused every private path, and a search of
everything a student can read finds no solution, hidden test or quiz key. Last, a second `make hub` starts beside
the first on other ports, one on the first's port stops saying so, and `make hub-clean` leaves nothing behind,
saying which accounts it removed and what it left (tests/hub/test_hub_routes.py: the fresh-server route).

Screenshots: build/hub-screenshots/. The shared environment is built once at /opt/sqrt-dk/venv (`make hub-env`, about
800 MB) and reused while the pins stay the same. Skipped with a reason where the machine does not allow it (not root,
no useradd, npm or Node.js 20, bubblewrap or Chromium: coursekit.parts), required in CI.
"""
import json
import os
import pwd
import re
import shutil
import time
from pathlib import Path

import pytest

from coursekit.real_parts.browser import CHROMIUM, CHROMIUM_ARGS
from coursekit.real_parts.hub import Hub, make
from coursekit.parts import requires
from coursekit.repository import ROOT
from tests.hub.class_cycle import ASSIGNMENT, doc_commands, hand_in, read_feedback, release, totals
from tests.hub.classmates import FORGED, GARBLED, LATER, classmate_tries, kernels_stay_private
from tests.hub.lab_pages import SHOTS, Terminal, log_in, shot
from tests.hub.permissions import TRY_READ, check_permission_table, nothing_secret_is_readable, private_paths

pytestmark = requires("hub", "browser", "sandbox")
GRADING_S = 600  # a terminal command that grades the class
ANSWERS = ("correct_matmul", "wrong_transposed")  # corpus entries: what the first and the second student hand in


@pytest.fixture(scope="module")
def hub():
    with Hub() as made:
        yield made
    assert not made.stopped, f"left behind after Ctrl-C: {made.stopped}"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SHOTS, ignore_errors=True)  # only this run's screenshots
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


# ---- the test ------------------------------------------------------------------------------------------------------
def test_a_class_on_the_hub(hub, browser):
    assert ROOT.stat().st_mode & 0o077 == 0, "make hub left the code clone open to other accounts"
    release(hub, browser)
    started = time.time()
    pages, verdicts = {}, {}
    for student, answer in zip(hub.students, ANSWERS):
        pages[student], verdicts[student] = hand_in(hub, browser, student, answer)
    assert "validation-success" in verdicts[hub.students[0]]
    assert "validation-failed" in verdicts[hub.students[1]]
    first, second = hub.students
    tried = classmate_tries(hub)
    assert tried == {what: "PermissionError" for what in tried}, tried
    ended = time.time()

    teacher = log_in(browser, hub, hub.instructor)
    kernels_stay_private(hub, teacher, pages)
    terminal = Terminal(teacher)
    status, out = terminal.run("pwd; command -v python nbgrader")
    lines = [line.strip() for line in out.replace("\r", "\n").splitlines()]
    assert status == 0 and {hub.settings["course"], f"{hub.settings['env']}/bin/python",
                            f"{hub.settings['env']}/bin/nbgrader"} <= set(lines), out
    collect, autograde = doc_commands("instructor")
    status, out = terminal.run(collect, GRADING_S)
    shot(teacher, "4-teacher-collect")
    assert status == 1 and f"'{first}+{ASSIGNMENT}+{LATER}+forged'" in out.split("Refused 1 hand-ins")[1], out
    assert f"handed in by the account '{second}'" in out and f"Collected 2 of '{ASSIGNMENT}'" in out, out
    for student, claimed in ((first, FORGED), (second, GARBLED)):
        collected = Path(hub.settings["course"]) / "submitted" / student / ASSIGNMENT
        arrived = deploy_time((collected / "timestamp.txt").read_text())
        assert started - 1 <= arrived <= ended + 1, (student, arrived, started, ended)
        record = json.loads((collected / ".classroom-intake.json").read_text())
        assert record["timestamp_txt"] == claimed and record["dropped"] == [], record  # all of it was readable
    status, out = terminal.run(autograde, GRADING_S)
    assert status == 0, out[-3000:]
    graded_by_teacher = totals(hub)
    assert graded_by_teacher[first] > graded_by_teacher[second], graded_by_teacher
    teacher.context.close()
    hub.stop_server(hub.instructor)

    assistant = log_in(browser, hub, hub.assistant)
    terminal = Terminal(assistant)
    for command in doc_commands("teaching assistant"):
        status, out = terminal.run(command, GRADING_S)
        assert status == 0, f"{command} as the teaching assistant:\n{out[-3000:]}"
        if "classroom.autograde" in command:
            assert "2 graded now" in out, out[-3000:]
    shot(assistant, "5-assistant-terminal")
    assert totals(hub) == graded_by_teacher
    assistant_uid = pwd.getpwnam(hub.assistant).pw_uid
    # the teacher's folders, replaced by the assistant's grading: each swap follows its gradebook transaction
    for folder in ("autograded", "feedback"):
        for student in hub.students:
            made = Path(hub.settings["course"]) / folder / student / ASSIGNMENT
            assert made.stat().st_uid == assistant_uid, f"{made} is not the assistant's"
    assistant.context.close()
    hub.stop_server(hub.assistant)

    for student in hub.students:
        text = read_feedback(hub, pages[student], student)
        shown = re.search(r"Score: ([0-9.]+) / [0-9.]+ points", text)
        assert shown and float(shown.group(1)) == graded_by_teacher[student], f"{student}'s feedback: {text[:300]}"
        assert "BEGIN HIDDEN TESTS" not in text
    check_permission_table(hub)
    for student, other in (hub.students, hub.students[::-1]):
        paths = [str(p) for p in private_paths(hub, student, other)]
        assert all(os.path.exists(p) for p in paths), [p for p in paths if not os.path.exists(p)]
        tried = hub.as_user(student, "python", "-c", TRY_READ, json.dumps(paths))
        assert tried.returncode == 0, tried.stderr
        assert json.loads(tried.stdout) == {p: "refused" for p in paths}
        nothing_secret_is_readable(hub, student)


def deploy_time(text):
    """Seconds since the epoch of a timestamp as nbgrader writes it."""
    import datetime

    from nbgrader.utils import parse_utc

    return parse_utc(text.strip()).replace(tzinfo=datetime.timezone.utc).timestamp()


def test_a_second_hub_starts_beside_the_first_and_a_taken_port_stops_make_hub(hub):
    with Hub() as second:
        assert second.port != hub.port and second.passwords
        assert second.api("GET", "/")["version"]
        assert second.proxy_pid != hub.proxy_pid  # two proxies, one per hub
        third = Hub(port=hub.port)
        taken = make("hub", f"HUB_PORT={hub.port}", env=third.env, timeout=600)
        assert taken.returncode != 0
        assert f"Port {hub.port} on 127.0.0.1 is taken" in taken.stdout + taken.stderr, taken.stderr[-2000:]
        with pytest.raises(KeyError):
            pwd.getpwnam(third.instructor)  # nothing was made
        shutil.rmtree(third.folder, ignore_errors=True)
    assert not second.stopped, f"left behind after Ctrl-C: {second.stopped}"
    accounts = ", ".join((second.instructor, second.assistant, *second.students))
    assert f"Removed the accounts {accounts} (their homes and processes)" in second.cleaned, second.cleaned
    assert f"rm -rf {second.settings['env']}" in second.cleaned.split("\nLeft:\n")[1], second.cleaned
    for account in (second.instructor, second.assistant, *second.students):
        with pytest.raises(KeyError):
            pwd.getpwnam(account)
    assert not Path(second.settings["course"]).exists() and not Path(second.settings["exchange"]).exists()
