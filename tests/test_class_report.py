"""The class report (classroom/report.py), checked number by number against the gradebook.

Seven students are graded once by the real `nbgrader autograde` (through classroom.autograde, as `make autograde`
does) in a temporary course, chosen so that every part of the report has something in it:

  alice  correct, quiz all right                      bob    A * G without the row sum, quiz 1 and 4 only
  carol  loops over cells, no quiz handed in          dave   hangs at T = 1 (a timeout), quiz all right
  erin   correct but deleted the hidden grade cells   frank  a corrupt notebook file (flagged for manual grading)
  gina   os._exit in the solution cell (a crash), no quiz

Then `python -m classroom.report` runs as the Make target runs it, and its HTML tables, the PNG's alt text and
grades.csv are compared with the gradebook and the autograded notebooks, read here independently. The report is
written to build/class-report/ (or $CLASS_REPORT_OUT) so that it can be looked at after the test.
"""
import ast
import contextlib
import csv
import io
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

import corpus_tools
from attention_lesson.quiz import bank as quiz
from classroom import report
from corpus_tools import ASSIGNMENT, ROOT, SUBMISSIONS

QUIZ = "intuition_quiz"
QUESTIONS = list(quiz.load_bank().values())
RIGHT = quiz.recover_answers(quiz.load_bank())  # recovered from the bank's hashes: no key is written here
# student: (solution file, notebook edit, quiz answers or None for no quiz notebook handed in)
CLASS = {
    "alice": ("correct_einsum.py", None, RIGHT),
    "bob": ("wrong_returns_A_times_G.py", None, {1: RIGHT[1], 4: RIGHT[4]}),
    "carol": ("wrong_loops_over_cells.py", None, None),
    "dave": ("robust_hangs_at_T_1.py", None, RIGHT),
    "erin": ("correct_keepdims.py", "delete_hidden_grade_cells", RIGHT),
    "frank": ("correct_einsum.py", None, RIGHT),  # then cut short: not a notebook any more
    "gina": ("cheat_exits_process.py", None, None),
}
OUT = Path(os.environ.get("CLASS_REPORT_OUT", ROOT / "build" / "class-report"))
SECRETS = corpus_tools.SECRETS  # what must never reach the report


def quiz_notebook(answers):
    nb = json.loads((ROOT / "release" / ASSIGNMENT / f"{QUIZ}.ipynb").read_text())
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution"):
            n = int(meta["grade_id"].split("_")[1])
            if n in answers:
                cell["source"] = f"answer_{n} = {answers[n]!r}"
    return nb


class Tables(HTMLParser):
    """Every <table id=...> of a page as a list of rows of cell texts (list items joined by newlines)."""

    def __init__(self, page):
        super().__init__()
        self.tables, self.images, self._table, self._cell = {}, [], None, None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "li" and self._cell is not None and self._cell:
            self._cell.append("\n")
        elif tag == "img":
            self.images.append(attrs)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def rows(self, table_id):
        head, *body = self.tables[table_id]
        return [dict(zip(head, row)) for row in body]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    course = corpus_tools.make_course(base / "course")
    # Before anything is graded (the gradebook knows the assignment, but no submission), the report must refuse.
    empty, here = io.StringIO(), Path.cwd()
    try:
        os.chdir(course)
        with contextlib.redirect_stderr(empty):
            empty_status = report.main([ASSIGNMENT, "--out", str(base / "empty")])
    finally:
        os.chdir(here)
    empty = (empty_status, empty.getvalue(), (base / "empty").exists())
    for who, (solution, edit, answers) in CLASS.items():
        folder = corpus_tools.write_submission(course, who, corpus_tools.submission(
            (SUBMISSIONS / solution).read_text(), edit))
        if answers is not None:
            (folder / f"{QUIZ}.ipynb").write_text(json.dumps(quiz_notebook(answers)))
    frank = course / "submitted" / "frank" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    frank.write_text(frank.read_text()[:500])
    autograde = subprocess.run([sys.executable, "-m", "classroom.autograde", ASSIGNMENT, *corpus_tools.AUTOGRADE_FLAGS], cwd=course,
                               env=corpus_tools.nbgrader_env(), capture_output=True, text=True)
    (course / "autograde.log").write_text(autograde.stdout + autograde.stderr)
    out = OUT
    shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run([sys.executable, "-m", "classroom.report", ASSIGNMENT, "--out", str(out)], cwd=course,
                         env=corpus_tools.nbgrader_env(), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    page = (out / f"{ASSIGNMENT}.html").read_text()
    return {"course": course, "out": out, "run": run, "empty": empty, "autograde": autograde, "page": page,
            "html": Tables(page), "gradebook": gradebook(course)}


def gradebook(course):
    """What the gradebook says, read without classroom.report: scores, maxima and manual-grading flags."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        maxima = {c.name: (nb.name, c.max_score) for nb in gb.find_assignment(ASSIGNMENT).notebooks
                  for c in nb.grade_cells}
        students = {}
        for sub in gb.assignment_submissions(ASSIGNMENT):
            students[sub.student.id] = {
                "total": sum(g.score for nb in sub.notebooks for g in nb.grades),
                "notebooks": {nb.name: nb.score for nb in sub.notebooks},
                "checks": {g.name: g.score for nb in sub.notebooks for g in nb.grades},
                "manual": any(g.needs_manual_grade for nb in sub.notebooks for g in nb.grades)}
    return {"maxima": maxima, "students": students}


def handed_in(who, notebook):
    return notebook == ASSIGNMENT or CLASS[who][2] is not None


def test_the_command_writes_three_files_and_says_where(graded):
    out, run = graded["out"], graded["run"]
    for name in (f"{ASSIGNMENT}.png", f"{ASSIGNMENT}.html", "grades.csv"):
        assert (out / name).stat().st_size > 0
        assert str(out / name) in run.stdout
    assert (out / f"{ASSIGNMENT}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "7 students, 5 needed attention" in run.stdout
    # every section has something in it: the class was chosen for that
    totals = {who: s["total"] for who, s in graded["gradebook"]["students"].items()}
    assert totals == {"alice": 21, "bob": 2, "carol": 14, "dave": 16, "erin": 21, "frank": 0, "gina": 0}


def test_the_histogram_counts_match_the_gradebook(graded):
    want = Counter(s["total"] for s in graded["gradebook"]["students"].values())
    got = {float(row["total score"]): int(row["students"]) for row in graded["html"].rows("score-distribution")}
    assert got == want
    alt = graded["html"].images[0]["alt"]
    assert f"for {len(graded['gradebook']['students'])} students" in alt
    for score, n in want.items():
        assert f"{score:g} points: {n};" in alt or f"{score:g} points: {n}." in alt
    assert graded["html"].images[0]["src"].startswith("data:image/png;base64,")


def test_the_share_failing_each_check_matches_the_gradebook(graded):
    students, maxima = graded["gradebook"]["students"], graded["gradebook"]["maxima"]
    rows = {row["check"]: row for row in graded["html"].rows("checks")}
    assert set(rows) == set(maxima)
    alt = graded["html"].images[0]["alt"]
    for grade_id, (notebook, points) in maxima.items():
        took = [who for who in students if handed_in(who, notebook)]
        failing = [who for who in took if students[who]["checks"][grade_id] < points]
        row = rows[grade_id]
        assert (int(row["failing"]), int(row["handed in"]), float(row["points"])) == (len(failing), len(took), points)
        assert row["share failing"] == f"{100 * len(failing) / len(took):.0f}%"
        assert f"{grade_id}: {len(failing)} of {len(took)} ({row['share failing']})" in alt
    assert rows["no_python_loop"]["failing"] == "5"  # bob (wrong values), carol, dave (loops), frank, gina


def test_each_check_is_named_by_its_docstring_and_counts_the_messages_students_saw(graded):
    course = graded["course"]
    rows = {row["check"]: row for row in graded["html"].rows("checks")}
    for notebook in (ASSIGNMENT, QUIZ):
        nb = json.loads((ROOT / "source" / ASSIGNMENT / f"{notebook}.ipynb").read_text())
        for cell in nb["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                docstring = ast.get_docstring(ast.parse("".join(cell["source"])))
                assert rows[meta["grade_id"]]["what it checks (a failure is the mistake that breaks this)"] == \
                    " ".join(docstring.split())
    seen = {who: corpus_tools.messages(course, who) for who in CLASS}  # score_gradient.ipynb's verdicts
    for grade_id in ("values_match_reference", "no_python_loop", "inputs_left_untouched"):
        listed = rows[grade_id]["most common failure messages"].split("\n")
        counts = Counter(" ".join(m.split()) for who in CLASS for g, m in seen[who].items()
                         if g == grade_id and m != "passed")
        assert sum(counts.values()) == int(rows[grade_id]["failing"])
        for message, n in counts.most_common(report.MESSAGES_SHOWN):
            assert f"{n} × {message}" in listed, (grade_id, message, listed)
    assert any("did not return within 3 s" in line for line in rows["values_match_reference"]
               ["most common failure messages"].split("\n"))


def test_the_report_never_shows_hidden_tests_or_the_reference(graded):
    page = graded["page"] + (graded["out"] / "grades.csv").read_text()
    leaked = [s for s in SECRETS if s in page or s.replace("*", "&#42;") in page]
    assert not leaked


def test_the_submissions_that_needed_attention_and_why(graded):
    rows = {row["student"]: row for row in graded["html"].rows("attention")}
    assert set(rows) == {"carol", "dave", "erin", "frank", "gina"}
    why = {who: row["why it needed attention"] for who, row in rows.items()}
    assert "not handed in: intuition_quiz.ipynb" in why["carol"]
    assert "timed out: your function did not return within 3 s" in why["dave"]
    assert "values_match_reference" in why["dave"]
    assert "grade cells missing: score_gradient.ipynb" in why["erin"]
    hidden = [g for g, (nb, _) in graded["gradebook"]["maxima"].items()
              if nb == ASSIGNMENT and g != corpus_tools.VISIBLE]
    assert all(g in why["erin"] for g in hidden) and corpus_tools.VISIBLE not in why["erin"]
    assert "flagged for manual grading" in why["frank"] and "could not run this notebook" in why["frank"]
    assert "crashed" in why["gina"] and "exited with status 0" in why["gina"]
    flagged = {who for who, s in graded["gradebook"]["students"].items() if s["manual"]}
    assert flagged == {who for who, text in why.items() if "flagged for manual grading" in text} == {"frank"}
    for who, row in rows.items():
        assert float(row["score"]) == graded["gradebook"]["students"][who]["total"]


def test_the_grade_csv_matches_the_gradebook(graded):
    students, maxima = graded["gradebook"]["students"], graded["gradebook"]["maxima"]
    rows = {row["student_id"]: row for row in csv.DictReader((graded["out"] / "grades.csv").open())}
    assert set(rows) == set(students)
    for who, s in students.items():
        row = rows[who]
        assert float(row["score"]) == float(row["raw_score"]) == s["total"]
        assert float(row["max_score"]) == sum(points for _, points in maxima.values()) == 21
        assert {n: float(row[f"{n}.ipynb"]) for n in s["notebooks"]} == s["notebooks"]
        assert {g: float(row[g]) for g in maxima} == s["checks"]
        assert row["needs_attention"] == ("yes" if who in {"carol", "dave", "erin", "frank", "gina"} else "no")


def test_nothing_graded_yet_is_a_clear_error(graded):
    status, err, wrote = graded["empty"]
    assert status != 0 and not wrote
    assert "nothing has been graded for 'score_gradient' yet" in err and "make autograde" in err


def test_no_gradebook_or_an_unknown_assignment_is_a_clear_error(graded, tmp_path, monkeypatch, capsys):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    monkeypatch.chdir(tmp_path)
    assert report.main([ASSIGNMENT]) != 0
    assert "there is no gradebook" in capsys.readouterr().err
    assert not (tmp_path / "gradebook.db").exists()  # asking must not create an empty one
    monkeypatch.chdir(graded["course"])
    assert report.main(["no_such_assignment", "--out", str(tmp_path / "r")]) != 0
    err = capsys.readouterr().err
    assert "no assignment 'no_such_assignment'" in err and ASSIGNMENT in err
    assert not (tmp_path / "r").exists()
