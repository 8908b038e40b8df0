"""What a graded class hands back over a semester, with the commands INSTRUCTORS.md gives: feedback made while a
grading runs and released after a re-grade, misnamed notebooks, every due date the course accepts, and the files
`make grades` and `make report` write on a full disk. Checked in the gradebook, the pages and the exit status.

The class (tests/grading/semester/semester_class.py) is graded once; each test changes a copy.
"""
import csv
import datetime
import html
import json
import shutil
import subprocess
import sys

import pytest

from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID
from tests.grading.semester import semester_class as term
from tests.grading.semester.semester_class import place, semester  # noqa: F401 (the fixtures)
from tests.grading.semester.semester_class import CLASS, QUIZ

pytestmark = pytest.mark.integration



def page(place, who, notebook=ASSIGNMENT):
    return (place / "feedback" / who / ASSIGNMENT / f"{notebook}.html").read_text()


# ---- misnamed work -----------------------------------------------------------------------------------------------
def test_misnamed_work_is_flagged_for_grading_by_hand_and_named(semester):
    place, said = semester
    book = term.gradebook(place)
    for who, files in (("carol", ["my_answers.ipynb"]), ("dave", ["Copy of score_gradient.ipynb",
                                                                  "score_gradient-1.ipynb"])):
        flags = {grade_id: flagged for (notebook, grade_id), (*_, flagged) in book[who]["grades"].items()
                 if notebook == ASSIGNMENT}
        assert all(flags.values()), (who, flags)  # every check of the notebook waits for a grade by hand
        assert not any(flagged for (notebook, _), (*_, flagged) in book[who]["grades"].items() if notebook == QUIZ)
        assert all(f"`{name}`" in html.unescape(page(place, who)) for name in files), who
        assert all(name in said["autograde"].stderr for name in files)
        assert "flagged for grading by hand" in said["autograde"].stderr
    trial_course.report(place)
    table = {row["student_id"]: row for row in csv.DictReader(open(place / "report" / f"{ASSIGNMENT}-by-check.csv"))}
    assert "misnamed" in table["carol"]["attention"] and "my_answers.ipynb" in table["carol"]["attention"]
    assert "Copy of score_gradient.ipynb, score_gradient-1.ipynb" in table["dave"]["attention"]
    assert "not handed in:" not in table["carol"]["attention"] + table["dave"]["attention"]
    # erin's renamed copy (`score_gradient (1).ipynb`, nbformat 4.4) is graded, with a note
    assert book["erin"]["notebooks"][ASSIGNMENT][0] == 20.0 and "score_gradient (1).ipynb" in page(place, "erin")


# ---- feedback and a grading run ----------------------------------------------------------------------------------
HOLD = """
import sys
from classroom.bookkeeping import lock
with lock.hold(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_make_feedback_waits_for_a_grading_run(place):
    before = page(place, "alice")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(place / ".grading")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        (place / "feedback" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.html").unlink()
        feedback = trial_course.make(place, "feedback", wait=False)
        said = ""
        while "waiting for the grading run" not in said:
            line = feedback.stderr.readline()
            assert line, f"make feedback ended without waiting: {feedback.wait()} {said}"
            said += line
        assert not (place / "feedback" / "alice" / ASSIGNMENT / f"{ASSIGNMENT}.html").exists()
    finally:
        holder.communicate("")
    out, err = feedback.communicate()
    assert feedback.returncode == 0, err[-3000:]
    assert page(place, "alice") == before


def test_release_feedback_releases_the_pages_of_the_current_grades(place, tmp_path):
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    release = ("release_feedback", ASSIGNMENT, f"--Exchange.root={exchange}")
    first = trial_course.nbgrader(*release, cwd=place)  # erin handed in without timestamp.txt: nobody is stopped
    released = sorted((exchange / COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == 2 * len(CLASS), first.stderr[-3000:]

    # alice hands in changed work; it is graded; nobody runs make feedback
    folder = place / "submitted" / "alice" / ASSIGNMENT
    nb = trial_course.submission((trial_course.SUBMISSIONS / "wrong_returns_A_times_G.py").read_text())
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(nb))
    assert trial_course.make(place, "autograde").returncode == 0
    shutil.rmtree(exchange)
    exchange.mkdir()
    stale = trial_course.nbgrader(*release, cwd=place, check=False)
    assert stale.returncode == 1, stale.stderr[-3000:]
    assert "Not released: the feedback of alice on score_gradient: the page is stale" in stale.stderr
    assert "1 feedback pages were not released (alice/score_gradient)" in stale.stderr
    assert len(list((exchange / COURSE_ID / "feedback").glob("*.html"))) == 2 * len(CLASS) - 1

    made = trial_course.make(place, "feedback")
    assert made.returncode == 0, made.stderr[-3000:]
    again = trial_course.nbgrader(*release, cwd=place)
    assert again.returncode == 0
    score = term.gradebook(place)["alice"]["notebooks"][ASSIGNMENT][0]
    pages = [p.read_text() for p in (exchange / COURSE_ID / "feedback").glob("*.html")]
    full = sum(trial_course.max_scores(place, by_hand=True).values())  # the written derivation's points too
    assert any(f"(Score: {score:g} / {full:g} points)" in p and ">score_gradient<" in p for p in pages)


# ---- due dates ---------------------------------------------------------------------------------------------------
# (what is written, in db assignment add or the formgrader's two fields joined by a space, the UTC time it names)
ACCEPTED = [("2026-12-14 23:59:00 UTC", "2026-12-14 23:59:00"),
            ("2026-12-01 09:05:00 -0500", "2026-12-01 14:05:00"),
            ("2026-12-01 09:05:00 +05:30", "2026-12-01 03:35:00"),
            ("2026-12-01 09:05:00 America/New_York", "2026-12-01 14:05:00"),
            ("2026-07-01 09:05:00 America/New_York", "2026-07-01 13:05:00"),  # summer time
            ("2026-12-01T09:05 -0500", "2026-12-01 14:05:00"),  # the formgrader: date field, then zone field
            ("2026-12-14 23:59:00", "2026-12-14 23:59:00")]
REFUSED = [("2026-12-01 09:05:00 PST", "the time zone 'PST' is unknown"),
           ("2026-12-01 09:05:00 UTC-5", "opposite sign"),
           ("2026-03-08 02:30:00 America/New_York", "does not exist")]
# tests/grading/semester/test_semester_rules.py reads every other form INSTRUCTORS.md names, without nbgrader's
# command line


def test_every_due_date_the_course_accepts_is_read_right_or_refused(place):
    def due():
        with trial_course.gradebook(place) as gb:
            return gb.find_assignment(ASSIGNMENT).duedate

    for written, utc in ACCEPTED:
        trial_course.nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={written}", cwd=place)
        assert due() == datetime.datetime.fromisoformat(utc), written
    kept = due()
    for written, why in REFUSED:
        said = trial_course.nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={written}", cwd=place, check=False)
        assert said.returncode == 1 and why in said.stderr and "nothing was changed" in said.stderr, said.stderr
        assert "Traceback" not in said.stderr and due() == kept


# ---- a full disk -------------------------------------------------------------------------------------------------
FULL_DISK = """
set -e
mount -t tmpfs -o size=64m tmpfs "$1"
cp -a "$2" "$1/course"
cd "$1/course"
dd if=/dev/zero of=filler bs=64k 2>/dev/null || true
set +e
"$3/bin/python" -m classroom.app report score_gradient 1>&2; echo "report exits $?"
PATH="$3/bin:$PATH" "$3/bin/nbgrader" export --to grades.csv 1>&2; echo "grades exits $?"
rm filler
echo "==="
sha256sum grades.csv report/* | sort
echo "==="
ls -A . report
"""


def test_on_a_full_disk_every_file_is_whole_or_as_it_was(place, tmp_path):
    if shutil.which("unshare") is None or subprocess.run(["unshare", "--mount", "true"]).returncode != 0:
        pytest.skip("a private mount namespace (unshare --mount, as root) is needed to fill a disk of our own")
    assert trial_course.make(place, "grades").returncode == 0
    trial_course.report(place)
    before = subprocess.run("sha256sum grades.csv report/* | sort", shell=True, cwd=place, capture_output=True,
                            text=True).stdout
    disk = tmp_path / "disk"
    disk.mkdir()
    run = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", FULL_DISK, "sh", str(disk),
                          str(place), sys.prefix], capture_output=True, text=True, env=trial_course.nbgrader_env())
    exits, hashes, listing = run.stdout.split("===\n")
    assert exits == "report exits 1\ngrades exits 1\n", run.stdout + run.stderr[-3000:]
    assert "the report could not be written" in run.stderr and "No space left on device" in run.stderr
    assert hashes == before  # grades.csv and the report's PNG, HTML and CSV: each whole, as it was
    assert ".part" not in listing, listing  # and nothing half-written beside them


# ---- collect -----------------------------------------------------------------------------------------------------
def test_collect_exits_non_zero_after_refusing_a_hand_in(place, tmp_path):
    exchange = tmp_path / "exchange"
    inbound = exchange / COURSE_ID / "inbound"
    for who in ("zoë", "frank"):
        hand_in = inbound / f"{who}+{ASSIGNMENT}+{term.stamp(term.NOW)}+abc"
        shutil.copytree(place / "submitted" / "alice" / ASSIGNMENT, hand_in)
    said = trial_course.nbgrader("collect", ASSIGNMENT, f"--Exchange.root={exchange}", cwd=place, check=False)
    assert said.returncode != 0 and "zoë" in said.stderr and "not an ASCII one" in said.stderr, said.stderr[-3000:]
    assert (place / "submitted" / "frank" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").exists()  # the others are collected
