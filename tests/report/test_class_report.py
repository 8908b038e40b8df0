"""The class report (classroom/report/): its data model checked against the gradebook, the page for what rendering
adds, the CSV for what it writes.

A small course is built by hand in a moment (toy.py beside this file): a gradebook, and for each graded notebook
the result a grading writes (classroom.grading.result) and the grading record. The class is chosen so that every
reason for attention, and every thing that must NOT raise one, happens to someone (WHY). The report of a class
graded by the real grader, checked against the gradebook, the feedback and the LMS grades, is in
tests/grading/runs/test_grading_result.py.
"""
import base64
import csv
import shutil
import statistics
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from classroom.grading import result
from classroom.report import attention, figure, model, read_summary, render, spreadsheet
from classroom.report.build import report_command
from classroom.trusted import failures
from coursekit.repository import ROOT
from tests.report.toy import (CLASS, FORMULA, IMG, NOT_GRADED, RENAMED, SCRIPT, TOY, handed_in, read_gradebook,
                              write_course)

WHY = {"ann": set(), "ben": set(), "cat": {"timed out", "crashed", "not handed in"},
       "dan": {"flagged for manual grading", "could not be run"},
       "eve": {"grade cells missing", "grade cells changed", "not graded", "ran out of memory"},
       SCRIPT: {"output cut"}, FORMULA: {"not handed in"}}


@pytest.fixture(scope="module")
def empty_course(tmp_path_factory):
    """The toy assignment in the gradebook, and nothing graded yet."""
    return write_course(tmp_path_factory.mktemp("toy") / "empty", [])


@pytest.fixture(scope="module")
def course(empty_course):
    return write_course(empty_course.parent / "course", CLASS, empty_course / "gradebook.db")


@pytest.fixture(scope="module")
def summary(course):
    return read_summary(course, TOY)


# ---- the data model against the gradebook ----------------------------------------------------------------------
def test_every_student_scores_as_the_gradebook_says(course, summary):
    maxima, gradebook = read_gradebook(course, TOY)
    assert [s.id for s in summary.students] == sorted(gradebook)
    assert summary.max_score == sum(maxima.values()) == 8
    for s in summary.students:
        want = gradebook[s.id]
        assert (s.raw_score, s.penalty, s.notebooks) == (want["total"], want["penalty"], want["notebooks"])
        assert {key: s.checks[key] for key in maxima} == want["checks"]
        assert s.score == max(want["total"] - want["penalty"], 0)  # as `nbgrader export` clamps it
    assert summary.students[0].id == SCRIPT and summary.students[0].score == 0 < summary.students[0].raw_score
    scores = [max(w["total"] - w["penalty"], 0) for w in gradebook.values()]
    assert summary.histogram == sorted(Counter(scores).items())
    assert (summary.mean, summary.median) == (statistics.mean(scores), statistics.median(scores))


def test_the_checks_are_the_graded_cells_that_are_not_answers(summary):
    got = [(c.notebook, c.grade_id, c.points, c.description, c.hidden) for c in summary.checks]
    assert got == [(TOY, "adds_up", 2, "The sum of two numbers is right.", False),
                   (TOY, "shows_work", 1, "It returns a number, not a string.", False),
                   (TOY, "hidden_one", 3, "Negative numbers add up too.", True),
                   ("quiz", "q_check", 1, "Question 2 is answered with a whole number.", False)]


def test_share_failing_and_messages_count_only_who_handed_the_notebook_in(course, summary):
    maxima, gradebook = read_gradebook(course, TOY)
    for r in summary.results:
        took = [who for who in CLASS if r.check.notebook in handed_in(who)]
        failed = [who for who in took if gradebook[who]["checks"][r.check.key] < maxima[r.check.key]]
        assert (r.failing, r.handed_in) == (len(failed), len(took)), r.check.grade_id
        said = Counter(CLASS[who].get("failed", {}).get(r.check.grade_id, (None, model.NO_MESSAGE))[1]
                       for who in failed)
        assert r.messages == said
    by_id = {r.check.grade_id: r for r in summary.results}
    assert by_id["hidden_one"].messages == {IMG: 2, NOT_GRADED: 1}
    assert (by_id["q_check"].failing, by_id["q_check"].handed_in) == (2, 5)  # cat and =2+3 did not hand it in


def test_who_needs_attention_and_why(summary):
    assert {s.id: {r.kind for r in s.reasons} for s in summary.students} == WHY
    reasons = {s.id: {r.kind: r for r in s.reasons} for s in summary.students}
    assert reasons["cat"]["timed out"].where == ("adds_up",)
    assert reasons["cat"]["crashed"].where == ("answer",)
    assert reasons["eve"]["grade cells missing"].where == ("hidden_one",)
    eve = next(s for s in summary.students if s.id == "eve")
    assert {r.where for r in eve.reasons if r.kind == "grade cells changed"} == {("shows_work",), ()}
    assert [s.id for s in summary.attention] == sorted(who for who, why in WHY.items() if why)
    assert {s.id: s.notes for s in summary.students if s.notes} == {"ann": (RENAMED,)}


@pytest.mark.parametrize("kind", failures.KINDS)
def test_attention_is_decided_on_the_kind_alone(kind):
    message = "timed out, crashed, ran out of memory, output cut, could not run"  # words decide nothing
    for check, cells in (((result.CheckOutcome("adds_up", 2.0, 0.0, kind, message),), ()),
                         ((), (result.CellFailure("answer", kind, message),))):
        graded = result.Result("ann", TOY, TOY, result.GRADED, checks=check, cells=cells)
        found = attention.reasons([model.Handed(TOY, True, graded)], [])
        want = failures.ATTENTION.get(kind)
        where = "adds_up" if check else "answer"
        assert [(r.kind, r.detail, r.where) for r in found] == ([(want, message, (where,))] if want else [])


def test_a_folder_graded_before_results_still_gives_a_report_and_says_to_grade_it_again(course, tmp_path):
    old = shutil.copytree(course, tmp_path / "old")
    for path in (old / "autograded" / "ann" / TOY).glob(".classroom-result-*.json"):
        path.unlink()
    ann = next(s for s in read_summary(old, TOY).students if s.id == "ann")
    assert ann.score == 8 and ann.notes == () and {r.kind for r in ann.reasons} == {"not graded"}
    assert all("grading result is missing" in r.detail and "make autograde" in r.detail for r in ann.reasons)


# ---- the CSV ----------------------------------------------------------------------------------------------------
def test_the_csv_is_named_for_what_it_holds_and_matches_the_gradebook(course, summary, tmp_path):
    maxima, gradebook = read_gradebook(course, TOY)
    path = spreadsheet.write_csv(summary, tmp_path)
    assert path.name == f"{TOY}-by-check.csv" != "grades.csv"
    rows = {row["student_id"]: row for row in csv.DictReader(path.open(newline="", encoding="utf-8"))}
    assert set(rows) == {"'" + FORMULA if who == FORMULA else who for who in gradebook}
    for who, want in gradebook.items():
        row = rows["'" + who if who == FORMULA else who]
        assert (float(row["raw_score"]), float(row["late_submission_penalty"])) == (want["total"], want["penalty"])
        assert float(row["score"]) == max(want["total"] - want["penalty"], 0)
        assert float(row["max_score"]) == sum(maxima.values())
        assert {key: float(row[key[1]]) for key in maxima if key[1] != "q_answer"} == \
            {key: score for key, score in want["checks"].items() if key[1] != "q_answer"}
        assert {n: float(row[f"{n}.ipynb"]) for n in want["notebooks"]} == want["notebooks"]
        assert row["needs_attention"] == ("yes" if WHY[who] else "no")
        assert all(kind in row["attention"] for kind in WHY[who])
        assert row["grader_notes"] == " ".join(CLASS[who].get("notes", ()))


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\")", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"])
def test_a_text_cell_a_spreadsheet_would_evaluate_is_made_inert(text):
    assert spreadsheet.cell(text) == "'" + text
    assert spreadsheet.cell("alice") == "alice" and spreadsheet.cell(-1.5) == "-1.5" and spreadsheet.cell(2.0) == "2"


# ---- the page: what rendering adds ---------------------------------------------------------------------------
class Page(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.images, self.tables = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))
        elif tag == "table":
            self.tables.append(dict(attrs).get("id"))


@pytest.fixture(scope="module")
def page(summary, tmp_path_factory):
    png = figure.draw_png(summary, tmp_path_factory.mktemp("png") / f"{TOY}.png")
    return render.page(summary, png, spreadsheet.file_name(TOY))


def test_student_text_reaches_the_page_escaped(page):
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and SCRIPT not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "<img src=x" not in page
    assert page.count("<script") == 0 and len(Page(page).images) == 1
    assert "handed in this notebook as <code>" not in page and "`toy (1).ipynb`" in page  # a note is shown as text


def test_the_figure_is_embedded_with_every_number_in_its_alt_text(course, summary, page):
    image = Page(page).images[0]
    assert base64.b64decode(image["src"].removeprefix("data:image/png;base64,"))[:8] == b"\x89PNG\r\n\x1a\n"
    assert image["alt"] == figure.alt_text(summary)
    maxima, gradebook = read_gradebook(course, TOY)
    for score, n in Counter(max(w["total"] - w["penalty"], 0) for w in gradebook.values()).items():
        assert f"{score:g} points: {n}" in image["alt"]
    for r in summary.results:
        assert f"{r.check.grade_id}: {r.failing} of {r.handed_in} ({100 * r.failing / r.handed_in:.0f}%)" in \
            image["alt"]


def test_the_page_has_its_tables_and_never_the_hidden_tests(page, course, tmp_path):
    assert Page(page).tables == ["score-distribution", "checks", "attention", "students"]
    csv_text = spreadsheet.write_csv(read_summary(course, TOY), tmp_path).read_text()
    assert not [s for s in ("secret_value", "BEGIN HIDDEN TESTS", "total(-1, -2)") if s in page + csv_text]


# ---- the command ------------------------------------------------------------------------------------------------
def test_the_command_writes_three_files_and_says_where(course, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(course)
    assert report_command(Path.cwd(), TOY, str(tmp_path / "r")) == 0
    names = {f"{TOY}.png", f"{TOY}.html", f"{TOY}-by-check.csv"}
    assert {p.name for p in (tmp_path / "r").iterdir()} == names
    said = capsys.readouterr().out
    assert all(str(tmp_path / "r" / n) in said for n in names) and "7 students, 5 needed attention" in said


def test_bad_input_is_a_clear_error_and_writes_nothing(course, empty_course, tmp_path, monkeypatch, capsys):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    monkeypatch.chdir(tmp_path)
    assert report_command(Path.cwd(), TOY, "r") != 0
    assert "there is no gradebook" in capsys.readouterr().err
    assert not (tmp_path / "gradebook.db").exists()  # asking must not create an empty one
    monkeypatch.chdir(course)
    assert report_command(Path.cwd(), "no_such_assignment", str(tmp_path / "r")) != 0
    err = capsys.readouterr().err
    assert "no assignment 'no_such_assignment'" in err and TOY in err
    monkeypatch.chdir(empty_course)
    assert report_command(Path.cwd(), TOY, str(tmp_path / "r")) != 0
    err = capsys.readouterr().err
    assert "nothing has been graded for 'toy' yet" in err and "make autograde" in err
    assert not (tmp_path / "r").exists()
