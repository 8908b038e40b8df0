"""What the semester's exports, report and re-grades say when the gradebook is not what grading last saw: a backup
restored after a check was fixed, hand grading not yet finished, a student who handed nothing in, a teaching
assistant's `autograde --force`. Each test acts with the commands INSTRUCTORS.md gives (`make release`, `make
autograde`, `make lms-grades`, `make report`, `make grades`) on a copy of the semester class
(tests/grading/semester/semester_class.py) and checks the gradebook, the files and the exit status.
"""
import csv

import pytest

from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT
from tests.grading.semester import semester_class as term
from tests.grading.semester.semester_class import place, semester  # noqa: F401 (the fixtures)
from tests.lms.lms_downloads import write_csv

pytestmark = pytest.mark.integration

CHECK = '"""Every row of the result sums to zero (adding a constant to a row of logits leaves the softmax unchanged)."""'


def totals(place):
    return {who: sum(score for score, _ in row["notebooks"].values()) for who, row in term.gradebook(place).items()}


def named(run):
    """{student: "old -> new"} as the run's summary names each changed score."""
    lines = [line.split("]", 1)[1].strip() for line in run.stderr.splitlines()
             if line.startswith("[classroom.autograde]") and " -> " in line]
    return dict(line.split(": ", 1) for line in lines)


def changed(before, after):
    return {who: f"{before[who]:g} -> {after[who]:g}" for who in sorted(before) if before[who] != after.get(who)}


def test_a_restored_backup_is_not_graded_with_its_old_checks(place):
    backup = {name: (place / name).read_bytes() for name in ("gradebook.db", "decisions.json")}
    old = totals(place)
    checks = place / "source" / ASSIGNMENT / "grade_cells.py"  # a hidden check fixed, as INSTRUCTORS.md says
    checks.write_text(checks.read_text().replace(CHECK, CHECK + '\nassert False, "checked again this term"', 1))
    released = trial_course.make(place, "release")
    assert released.returncode == 0, released.stdout[-2000:] + released.stderr[-3000:]
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0, run.stderr[-3000:]
    new = totals(place)
    assert changed(old, new) and named(run) == changed(old, new), run.stderr[-3000:]
    report = trial_course.report(place)
    assert "Scores changed by their last grading" in report.stdout, report.stdout
    assert "alice: score_gradient.ipynb: its last grading changed its score from 20 to 19" in report.stdout

    for name, data in backup.items():  # the backup is restored
        (place / name).write_bytes(data)
    assert totals(place) == old
    refused = trial_course.make(place, "autograde")
    assert refused.returncode == 2, refused.stderr[-3000:]
    assert "not those of source/" in refused.stderr and "rows_sum_to_zero" in refused.stderr
    assert "`make release`" in refused.stderr and "Nothing was graded" in refused.stderr
    assert totals(place) == old and "graded now" not in refused.stderr
    assert trial_course.make(place, "release").returncode == 0
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0, run.stderr[-3000:]
    assert totals(place) == new and named(run) == changed(old, new), run.stderr[-3000:]
    assert "already up to date" in trial_course.make(place, "autograde").stderr


ROSTER = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "score_gradient (4321)"],
          ["    Points Possible", "", "", "", "", "100"]] + [
    [who.title(), str(100 + n), f"S{n}", who, "A", ""] for n, who in enumerate(("alice", "erin", "frank"))]


def _lms_file(place):
    with open(place / "lms" / f"{ASSIGNMENT}-canvas-grades.csv", newline="", encoding="utf-8") as handle:
        return {row[3]: row[5] for row in list(csv.reader(handle))[2:]}


def _csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


def test_exports_and_the_report_while_hand_grading_is_unfinished_and_someone_handed_nothing_in(place):
    trial_course.nbgrader("db", "student", "add", "frank", cwd=place)  # on the roster; never handed anything in
    write_csv(place / "lms" / "roster.csv", ROSTER)
    export = trial_course.make(place, "lms-grades")
    assert export.returncode == 0, export.stderr[-3000:]
    said = export.stdout
    for who in ("alice", "erin"):  # the written derivation waits for its grade by hand: no grade sent, and why
        assert f"no grade in the file for {who}: grading by hand is unfinished (score_gradient.ipynb derivation" \
            in said, said
    assert _lms_file(place) == {"alice": "", "erin": "", "frank": ""}
    report = trial_course.report(place)
    assert "Grading by hand unfinished" in report.stdout and "alice: score_gradient.ipynb derivation" in \
        report.stdout, report.stdout
    table = _csv(place / "report" / f"{ASSIGNMENT}-by-check.csv")
    assert "grading by hand unfinished" in table["alice"]["attention"] and table["alice"]["needs_attention"] == "yes"

    term.by_hand(place, "alice", "derivation", score=3.0)  # the formgrader's Manual Grading, for alice
    assert trial_course.make(place, "lms-grades").returncode == 0
    assert _lms_file(place) == {"alice": "100", "erin": "", "frank": ""}
    report = trial_course.report(place)
    assert "alice: score_gradient.ipynb derivation" not in report.stdout and "erin: score_gradient.ipynb " \
        "derivation" in report.stdout, report.stdout
    assert "1 handed nothing in (frank" in report.stdout, report.stdout

    # the report covers whom grades.csv covers, with the same scores
    table = _csv(place / "report" / f"{ASSIGNMENT}-by-check.csv")
    assert trial_course.make(place, "grades").returncode == 0
    grades = {who: row for who, row in _csv(place / "grades.csv").items()}
    assert set(table) == set(grades) == set(term.CLASS) | {"frank"}
    assert {who: float(row["score"]) for who, row in table.items()} == \
        {who: float(row["score"]) for who, row in grades.items()}
    assert "handed nothing in" in table["frank"]["attention"] and float(table["frank"]["score"]) == 0
    page = (place / "report" / f"{ASSIGNMENT}.html").read_text()
    assert "1 handed nothing in" in page and 'id="absent"' in page


def test_a_forced_regrade_keeps_hand_grades_and_asks_for_none_again(place):
    term.by_hand(place, "alice", "derivation", score=2.0)
    kept = term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "derivation"]
    assert kept[1:] == (2.0, None, False)
    run = trial_course.make(place, "autograde", "AUTOGRADE_ARGS=--force --student alice")  # a teaching assistant's
    assert run.returncode == 0, run.stderr[-3000:]
    assert term.gradebook(place)["alice"]["grades"][ASSIGNMENT, "derivation"] == kept
    waiting = term.gradebook(place)["erin"]["grades"][ASSIGNMENT, "derivation"]
    assert waiting[3] is True  # not graded by hand yet: still asks for it


@pytest.mark.parametrize("student", ["zoë", "ann lee", "lee,ann"])
def test_a_roster_id_that_is_not_plain_is_refused_where_it_enters(place, tmp_path, student):
    before = set(term.gradebook(place)) | set(_roster(place))
    added = trial_course.nbgrader("db", "student", "add", student, cwd=place, check=False)
    assert added.returncode == 1 and "nothing was changed: the student id" in added.stderr, added.stderr[-2000:]
    assert "only ASCII letters, digits, '_', '.' and '-'" in added.stderr and repr(student) in added.stderr
    roster = tmp_path / "students.csv"
    write_csv(roster, [["id", "last_name"], ["frank", "Fox"], [student, "Lee"]])
    imported = trial_course.nbgrader("db", "student", "import", str(roster), cwd=place, check=False)
    assert imported.returncode == 1 and repr(student) in imported.stderr, imported.stderr[-2000:]
    assert set(_roster(place)) == before  # nobody was imported, frank neither
    write_csv(roster, [["id", "last_name"], ["frank", "Fox"]])
    assert trial_course.nbgrader("db", "student", "import", str(roster), cwd=place).returncode == 0
    assert "frank" in _roster(place)


def _roster(place):
    with trial_course.gradebook(place) as gb:
        return [student.id for student in gb.students]


def test_an_unchanged_re_submission_after_the_due_date_is_named_late_in_the_runs_summary(place):
    folder = place / "submitted" / "alice" / ASSIGNMENT  # she clicks Submit again after the due date, same notebook
    (folder / "timestamp.txt").write_text(term.stamp(term.DUE + term.datetime.timedelta(hours=2)))
    run = trial_course.make(place, "autograde")
    assert run.returncode == 0 and "1 graded now" in run.stderr, run.stderr[-3000:]
    book = term.gradebook(place)["alice"]
    assert book["late"] == 7200 and all(score == penalty for score, penalty in book["notebooks"].values())
    late = [line for line in run.stderr.splitlines() if "alice: late now" in line]
    assert len(late) == 1 and "2.00 h after the due date" in late[0] and "the same work" in late[0], run.stderr

