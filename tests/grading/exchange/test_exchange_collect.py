"""`nbgrader collect` from a real shared exchange, with this course's nbgrader_config.py (classroom.plugins.
exchange_collect, exchange_submit, classroom.intake).

The exchange is made as `make exchange` makes it (classroom/app/exchange.py: the course's folder is the instructor's
before any student acts). Two OS accounts are made with useradd where the machine allows it (root, useradd present;
otherwise the tests that need them skip): `victim` hands in with the real `nbgrader submit` (SafeSubmit), then
garbles their own timestamp.txt; `mallory` hands in a folder of her own holding symbolic links to the instructor's
source notebook and folder, to a root-only secret, to another student's collected notebook and to a folder above, a
hard link and a named pipe, with a forged timestamp.txt; she also hands in a folder under victim's name, folders
under the ids `c15eve,,,,21.0` and `=HYPERLINK("x")` and `zed`, and one that is a symbolic link to source/; and she
tries to change victim's hand-in and the course's folder. `bob` hands in from the instructor's own account with
`--student=bob`. Then the instructor runs the real `nbgrader collect`.
"""
import datetime
import json
import os
import secrets
import shutil
import stat
import time
from pathlib import Path

import pytest

from classroom import intake
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID, RELEASED, SUBMISSIONS
from tests.grading.exchange.exchange_class import (HANDED_IN, PYTHON, SUBMIT, TRY_WRITE, TS, Account, instructor,
                                                   shared_exchange)

pytestmark = pytest.mark.integration

LATER = "2031-01-01 00:00:00.000000 UTC"
GARBLED = "yesterday, honest"
REFUSED_IDS = ("c15eve,,,,21.0", '=HYPERLINK("x")')


def server_time(text):
    from nbgrader.utils import parse_utc

    return parse_utc(text).replace(tzinfo=datetime.timezone.utc).timestamp()


@pytest.fixture(scope="module")
def collected(tmp_path_factory, request):
    base = tmp_path_factory.mktemp("collect")
    secret = base / "secret.txt"
    secret.write_text(f"ROOT-ONLY-{secrets.token_hex(16)}\n")
    secret.chmod(0o600)
    course_path = trial_course.make_course(base / "course")
    alice_token = f"ALICE-{secrets.token_hex(16)}"
    trial_course.write_submission(course_path, "alice", trial_course.submission(f"# {alice_token}\n"))
    shared, exchange = shared_exchange(request)
    mallory, victim = Account("mallory"), Account("victim")
    request.addfinalizer(mallory.remove)
    request.addfinalizer(victim.remove)
    own = shared / "own"  # a folder of mallory's own, outside the submission
    own.mkdir()
    os.chown(own, mallory.uid, mallory.gid)
    handout = shared / "handout.ipynb"
    shutil.copy(RELEASED, handout)
    handout.chmod(0o644)
    instructor(course_path, exchange, "release_assignment", ASSIGNMENT)

    honest = json.dumps(trial_course.submission((SUBMISSIONS / "correct_einsum.py").read_text()))
    home = shared / "victim"
    (home / ASSIGNMENT).mkdir(parents=True)
    (home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").write_text(honest)
    started = time.time()
    # the real nbgrader submit with SafeSubmit, then handed to victim's account as if victim had run it (the
    # course's environment here lives under /root, where no other account may run it; the hub test submits as
    # each student's own account)
    trial_course.nbgrader("submit", ASSIGNMENT, f"--course={COURSE_ID}", f"--student={victim.name}",
                    f"--Exchange.root={exchange}", f"--Exchange.cache={home / '.cache'}", SUBMIT, cwd=home)
    inbound = exchange / COURSE_ID / "inbound"
    hand_in = next(inbound.glob(f"{victim.name}+{ASSIGNMENT}+*"))
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (hand_in, *hand_in.iterdir())}
    for path in (hand_in, *hand_in.iterdir()):
        os.chown(path, victim.uid, victim.gid)
    victim.run("sh", "-c", f"printf '%s' '{GARBLED}' > \"$F\"", F=str(hand_in / "timestamp.txt"))

    folder = f"{mallory.name}+{ASSIGNMENT}+{TS}+r"
    mallory.run("sh", "-c", HANDED_IN, INBOUND=str(inbound), FOLDER=folder, HANDOUT=str(handout), TS=TS,
                ASSIGNMENT=ASSIGNMENT, COURSE=str(course_path), SECRET=str(secret), OWN=str(own),
                ID1=REFUSED_IDS[0], ID2=REFUSED_IDS[1], VICTIM=victim.name, LATER=LATER)
    tried = json.loads(mallory.run(PYTHON, "-c", TRY_WRITE, str(hand_in), str(exchange / COURSE_ID)).stdout)

    bob_home = base / "bob"
    shutil.copytree(course_path / "release" / ASSIGNMENT, bob_home / ASSIGNMENT)
    trial_course.nbgrader("submit", ASSIGNMENT, f"--course={COURSE_ID}", "--student=bob", f"--Exchange.root={exchange}",
                    f"--Exchange.cache={bob_home / '.cache'}", SUBMIT, cwd=bob_home)
    ended = time.time()
    result = instructor(course_path, exchange, "collect", ASSIGNMENT, check=False)
    again = instructor(course_path, exchange, "collect", "--update", ASSIGNMENT, check=False)
    return dict(result=result, log=result.stdout + result.stderr, again=again, course=course_path, mallory=mallory,
                victim=victim, inbound=inbound, folder=folder, secret=secret.read_bytes().strip(),
                alice=alice_token.encode(), honest=honest.encode(), modes=modes, tried=tried, hand_in=hand_in,
                window=(started, ended),
                source=(course_path / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes())


def needs_accounts(collected):
    if not (collected["mallory"].separate and collected["victim"].separate):
        pytest.skip(collected["mallory"].why_not)


def submitted(collected, student):
    return collected["course"] / "submitted" / student / ASSIGNMENT


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


def test_collect_takes_every_honest_hand_in_and_ends_non_zero_naming_each_refusal(collected):
    assert collected["result"].returncode == 1, collected["log"][-4000:]
    assert "nbgrader collect failed" in collected["log"]
    summary = collected["log"].split("Refused ", 1)[1]
    assert summary.startswith("5 hand-ins of 'score_gradient' (not collected)"), summary[:300]
    bob = submitted(collected, "bob")
    assert json.loads((bob / f"{ASSIGNMENT}.ipynb").read_text())["cells"]
    assert "Collected 3 of 'score_gradient'" in collected["log"]
    ending = summary.split("(not collected)", 1)[1]  # after the refusals: what the instructor reads last
    assert "The class is collected but for the hand-ins refused above: collected 3 of 'score_gradient', refused 5" \
        in ending, ending[-1000:]


def test_a_hand_in_under_another_students_name_is_refused_by_name(collected):
    needs_accounts(collected)
    mallory, victim = collected["mallory"].name, collected["victim"].name
    lines = [line for line in collected["log"].splitlines() if f"'{victim}+{ASSIGNMENT}+{LATER}+x'" in line]
    assert lines and all(f"handed in by the account '{mallory}'" in line for line in lines), lines
    assert any(line.startswith("  ") for line in lines), "the summary names it"
    assert (submitted(collected, victim) / f"{ASSIGNMENT}.ipynb").read_bytes() == collected["honest"]


def test_the_hand_in_time_is_the_servers_and_the_students_claim_is_recorded(collected):
    needs_accounts(collected)
    started, ended = collected["window"]
    for student, claimed in ((collected["victim"].name, GARBLED), (collected["mallory"].name, TS)):
        folder = submitted(collected, student)
        arrived = server_time((folder / "timestamp.txt").read_text())
        assert started - 1 <= arrived <= ended + 1, (student, arrived, started, ended)
        receipt = intake.read_receipt(folder)
        assert receipt["timestamp_txt"] == claimed and receipt["time_disagrees"] is True, receipt
        assert receipt["account"] == student and server_time(receipt["arrived"]) == arrived
    assert f"{collected['victim'].name}: the hand-in's timestamp.txt says {GARBLED!r}" in collected["log"]


def test_a_collect_after_a_garbled_time_collects_again_without_stopping(collected):
    again = collected["again"]
    assert "Traceback" not in again.stdout + again.stderr
    assert "No newer submission to collect: bob" in again.stdout + again.stderr, again.stderr[-6000:]


def test_submit_leaves_a_hand_in_no_classmate_can_change_nor_read(collected):
    needs_accounts(collected)
    modes = collected["modes"]
    assert modes.pop(collected["hand_in"].name) == 0o750 and set(modes.values()) == {0o640}, modes
    assert collected["tried"] == {what: "PermissionError" for what in collected["tried"]}, collected["tried"]


def test_nothing_outside_the_students_folder_was_read(collected):
    everything = files_under(collected["course"] / "submitted")
    for path, data in everything.items():
        assert collected["secret"] not in data, f"the root-only secret reached {path}"
        assert b"BEGIN SOLUTION" not in data and data != collected["source"], f"the source notebook reached {path}"
        if "alice" not in path.parts:
            assert collected["alice"] not in data, f"alice's work reached {path}"


def test_the_regular_files_arrived_and_nothing_else(collected):
    mine = submitted(collected, collected["mallory"].name)
    assert sorted(p.name for p in mine.iterdir()) == sorted([f"{ASSIGNMENT}.ipynb", "timestamp.txt", intake.RECEIPT])
    assert (mine / f"{ASSIGNMENT}.ipynb").read_bytes() == RELEASED.read_bytes()


@pytest.mark.parametrize("name, why", [
    ("source.ipynb", "a symbolic link"), ("source_folder", "a symbolic link"), ("secret.txt", "a symbolic link"),
    ("alice.ipynb", "a symbolic link"), ("up", "a symbolic link"), ("hard.ipynb", "a hard link"),
    ("pipe.ipynb", "a named pipe")])
def test_the_instructor_is_told_what_was_dropped(collected, name, why):
    lines = [line for line in collected["log"].splitlines() if "Dropped from" in line and repr(name) in line]
    assert len(lines) == 1 and why in lines[0] and repr(collected["folder"]) in lines[0], collected["log"][-4000:]
    recorded = dict(intake.read_receipt(submitted(collected, collected["mallory"].name))["dropped"])
    assert why in recorded[name]


@pytest.mark.parametrize("student_id, why", [(REFUSED_IDS[0], "holds ','"), (REFUSED_IDS[1], "holds '\"'"),
                                             ("trudy", "is a symbolic link, not a folder"),
                                             ("zed", "handed in by the account")])
def test_a_folder_that_cannot_be_taken_is_refused_with_its_reason_and_not_collected(collected, student_id, why):
    if student_id == "zed":
        needs_accounts(collected)
    lines = [line for line in collected["log"].splitlines()
             if "Not collected" in line and repr(f"{student_id}+{ASSIGNMENT}")[:-1] in line]
    assert len(lines) == 1 and why in lines[0], collected["log"][-4000:]
    assert "ERROR" in lines[0]
    assert not (collected["course"] / "submitted" / student_id).exists()


def test_only_plain_student_ids_of_their_own_accounts_were_collected(collected):
    assert sorted(p.name for p in (collected["course"] / "submitted").iterdir()) == sorted(
        ["alice", "bob", collected["mallory"].name, collected["victim"].name])
