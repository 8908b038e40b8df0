"""The class report (classroom/report/): its data model checked against the gradebook, the page for what rendering
adds, the CSV for what it writes.

The unit tests build a small course by hand in a moment: a gradebook made with nbgrader's own API (an assignment
`toy` of two notebooks, seven students) and autograded notebooks whose failures carry their kinds as
classroom.trusted.failures.error_output writes them. The class is chosen so that every reason for attention, and every
thing that must NOT raise one, happens to someone.

The integration test (marked `integration`) grades seven students with the real nbgrader, sandboxed, as
`make autograde` does, then runs `python -m classroom.report` as `make report` does.
"""
import ast
import base64
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock

import pytest

from classroom.trusted import failures
from classroom.cells import HIDDEN, SourceCell
from classroom.grading import record
from classroom.report import attention, collect, figure, model, render, spreadsheet
from classroom.report.__main__ import main
from coursekit.repository import ROOT
from coursekit import course as grading
from coursekit.quiz_answers import RIGHT, SECRETS, quiz_notebook

TOY = "toy"
# The gradebook's cells of each notebook: (name, cell type, grade points or None, answer cell?, source).
CELLS = {
    TOY: [("intro", "markdown", None, False, "Add the numbers."),
          ("answer", "code", None, True, "def total(a, b):\n    return a + b\n"),
          ("adds_up", "code", 2.0, False, '"""The sum of two numbers is right."""\nassert total(1, 2) == 3\n'),
          ("shows_work", "code", 1.0, False, '"""It returns a number, not a string."""\nassert total(1, 1) != "2"\n'),
          ("hidden_one", "code", 3.0, False, '"""Negative numbers add up too."""\n### BEGIN HIDDEN TESTS\n'
           'secret_value = 42\nassert total(-1, -2) == -3\n### END HIDDEN TESTS\n')],
    "quiz": [("q_answer", "code", 1.0, True, "answer = None\n"),
             ("q_check", "code", 1.0, False, '"""Question 2 is answered with a whole number."""\nassert True\n')],
}
FULL = {"adds_up": 2.0, "shows_work": 1.0, "hidden_one": 3.0, "q_answer": 1.0, "q_check": 1.0}
SCRIPT, FORMULA, IMG = "<script>alert(1)</script>", "=2+3", "<img src=x onerror=alert(1)>"
NOT_GRADED = "The grader could not run this notebook (nbgrader could not process the submitted file)."
E = failures.error_output
STUDENT_CELL = "cell 6"  # a code cell of the student's own, without nbgrader metadata (the sixth cell)
# student: lost points, outputs per cell of the autograded notebooks, and what else happened.
CLASS = {
    "ann": {},
    "ben": {"lost": {"hidden_one": 3.0, "shows_work": 1.0, "q_check": 1.0},
            "outputs": {"hidden_one": [E(failures.CHECK_FAILED, IMG)],
                        "shows_work": [E(failures.CHECK_FAILED, "it timed out and crashed on an empty list")],
                        "answer": [{"output_type": "error", "ename": "ValueError", "evalue": "ran out of memory",
                                    "traceback": []}],
                        STUDENT_CELL: [{"output_type": "error", "ename": "KernelDied", "evalue": "died",
                                        "traceback": []},
                                       {"output_type": "stream", "name": "stdout",
                                        "text": "[output cut by the grader after 20000 characters]"}],
                        "q_check": [E(failures.RAISED, "your code raised NameError")]}},
    "cat": {"lost": {"adds_up": 2.0}, "quiz": False,
            "outputs": {"adds_up": [E(failures.TIMED_OUT, "your function did not return in time")],
                        "answer": [E(failures.CRASHED, "the process running your code exited")],
                        STUDENT_CELL: [E(failures.NOT_RUN, "an earlier cell stopped the run")]}},
    "dan": {"lost": {k: v for k, v in FULL.items() if not k.startswith("q")}, "flagged": True,
            "outputs": {"adds_up": [E(failures.NOT_GRADED, NOT_GRADED)], "shows_work": [E(failures.NOT_GRADED,
                        NOT_GRADED)], "hidden_one": [E(failures.NOT_GRADED, NOT_GRADED)]}},
    "eve": {"lost": {"hidden_one": 3.0}, "resubmitted": True, "edit": True,
            "outputs": {"hidden_one": [E(failures.CHECK_FAILED, IMG)],
                        "answer": [E(failures.OUT_OF_MEMORY, "your code ran out of memory")]}},
    SCRIPT: {"lost": {"q_check": 1.0}, "penalty": 10.0,
             "outputs": {"answer": [E(failures.OUTPUT_CUT, "the output was cut at 20000 characters")]}},
    FORMULA: {"quiz": False},
}
WHY = {"ann": set(), "ben": set(), "cat": {"timed out", "crashed", "not handed in"},
       "dan": {"flagged for manual grading", "could not be run"},
       "eve": {"grade cells missing", "grade cells changed", "not graded", "ran out of memory"},
       SCRIPT: {"output cut"}, FORMULA: {"not handed in"}}


def handed_in(who):
    return [TOY] + (["quiz"] if CLASS[who].get("quiz", True) else [])


def notebook_json(name, outputs=None, submitted=False, edit=False):
    cells = []
    for cell_name, kind, points, answer, code in CELLS[name]:
        if submitted:
            code = HIDDEN.sub("", code)
        meta = {"grade_id": cell_name, "grade": points is not None, "solution": answer, "locked": not answer}
        if points is not None:
            meta["points"] = points
        cell = {"cell_type": kind, "metadata": {"nbgrader": meta}, "source": code}
        if kind == "code":
            cell.update(execution_count=None, outputs=(outputs or {}).get(cell_name, []))
        cells.append(cell)
    if name == TOY:
        cells.append({"cell_type": "code", "metadata": {}, "source": "print(total(2, 2))", "execution_count": None,
                      "outputs": (outputs or {}).get(STUDENT_CELL, [])})
    if edit and name == TOY:  # the student deleted the hidden check and edited a visible one
        cells = [c for c in cells if c["metadata"].get("nbgrader", {}).get("grade_id") != "hidden_one"]
        cells[3]["source"] = "pass"
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def write_course(course, students, gradebook=None):
    """A course of the toy assignment with `students`; its gradebook starts as a copy of `gradebook` if given (making
    one from nothing runs nbgrader's `alembic`, which takes seconds)."""
    from nbgrader.api import Gradebook

    course.mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    if gradebook:
        shutil.copy(gradebook, course / "gradebook.db")
    with mock.patch.dict(os.environ, PATH=grading.nbgrader_env()["PATH"]), \
            Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        if not gradebook:
            gb.add_assignment(TOY)
            for name, cells in CELLS.items():
                gb.add_notebook(name, TOY)
                for cell_name, kind, points, answer, code in cells:
                    gb.add_source_cell(cell_name, name, TOY, cell_type=kind, locked=not answer, source=code)
                    if points is not None:
                        gb.add_grade_cell(cell_name, name, TOY, max_score=points, cell_type="code")
                    if answer:
                        gb.add_solution_cell(cell_name, name, TOY)
        for who in students:
            spec = CLASS[who]
            gb.add_student(who)
            gb.add_submission(TOY, who)
            for nb in gb.find_submission(TOY, who).notebooks:
                nb.late_submission_penalty = spec.get("penalty", 0.0) if nb.name == TOY else 0.0
                for grade in nb.grades:
                    took = nb.name in handed_in(who)
                    grade.auto_score = FULL[grade.name] - spec.get("lost", {}).get(grade.name, 0.0) if took else 0.0
                    grade.needs_manual_grade = bool(spec.get("flagged")) and nb.name == TOY
            gb.db.commit()
            for step in ("submitted", "autograded"):
                folder = course / step / who / TOY
                folder.mkdir(parents=True)
                stamp = "2024-05-02 09:00:00" if step == "submitted" and spec.get("resubmitted") else "2024-05-01"
                (folder / "timestamp.txt").write_text(stamp)
                for name in handed_in(who):
                    nb = notebook_json(name, spec.get("outputs") if step == "autograded" else None,
                                       submitted=step == "submitted", edit=spec.get("edit") and step == "submitted")
                    (folder / f"{name}.ipynb").write_text(json.dumps(nb))
            write_record(gb, course, who, first_submission=spec.get("resubmitted"))
    return course


def write_record(gb, course, who, first_submission=False):
    """The record the driver writes when it commits a grading (classroom.grading.record); one whose submission
    digest is an earlier one's when the student handed in again since."""
    graded = course / "autograded" / who / TOY
    state = record.inspect(gb, record.versions(gb, TOY), TOY, who, str(course / "submitted" / who / TOY), str(graded))
    record.write(graded, {name: record.entry("an earlier submission" if first_submission else digest, version,
                                             record.grades_digest(gb, TOY, who, name))
                          for name, (digest, version) in state.expected.items()})


@pytest.fixture(scope="module")
def empty_course(tmp_path_factory):
    """The toy assignment in the gradebook, and nothing graded yet."""
    return write_course(tmp_path_factory.mktemp("toy") / "empty", [])


@pytest.fixture(scope="module")
def course(empty_course):
    return write_course(empty_course.parent / "course", CLASS, empty_course / "gradebook.db")


@pytest.fixture(scope="module")
def summary(course):
    return collect(course, TOY)


def read_gradebook(course, assignment):
    """What the gradebook says, read with nbgrader's API and not with classroom.report."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        maxima = {(nb.name, c.name): c.max_score for nb in gb.find_assignment(assignment).notebooks
                  for c in nb.grade_cells}
        students = {sub.student.id: {
            "total": sum(g.score for nb in sub.notebooks for g in nb.grades),
            "penalty": sum(nb.late_submission_penalty or 0.0 for nb in sub.notebooks),
            "notebooks": {nb.name: sum(g.score for g in nb.grades) for nb in sub.notebooks},
            "checks": {(nb.name, g.name): g.score for nb in sub.notebooks for g in nb.grades},
            "manual": any(g.needs_manual_grade for nb in sub.notebooks for g in nb.grades)}
            for sub in gb.assignment_submissions(assignment)}
    return maxima, students


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
        said = Counter(CLASS[who]["outputs"][r.check.grade_id][0]["evalue"] if r.check.grade_id in
                       CLASS[who].get("outputs", {}) else model.NO_MESSAGE for who in failed)
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
    assert reasons["eve"]["grade cells changed"].where == ("shows_work",)
    assert [s.id for s in summary.attention] == sorted(who for who, why in WHY.items() if why)


@pytest.mark.parametrize("kind", failures.KINDS)
def test_attention_is_decided_on_the_kind_alone(kind):
    message = "timed out, crashed, ran out of memory, output cut, could not run"  # words decide nothing
    graded = notebook_json(TOY, {"answer": [E(kind, message)]})
    handed = model.Handed(TOY, True, notebook_json(TOY, submitted=True), False, graded)
    cells = [SourceCell(n, t, s, not a) for n, t, p, a, s in CELLS[TOY]]
    found = attention.reasons([handed], [], {TOY: (cells, {n: p for n, _, p, _, _ in CELLS[TOY] if p})})
    want = failures.ATTENTION.get(kind)
    assert [(r.kind, r.detail, r.where) for r in found] == ([(want, message, ("answer",))] if want else [])


def test_kind_is_the_ename_of_an_error_output_and_nothing_else():
    assert [attention.kind(E(k, "m")) for k in failures.KINDS] == list(failures.KINDS)
    assert attention.kind({"output_type": "error", "ename": "KernelDied", "evalue": "timed out"}) is None
    assert attention.kind({"output_type": "stream", "name": "stdout", "text": "TimedOut"}) is None
    assert attention.kind({"output_type": "display_data", "ename": "TimedOut"}) is None


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
    csv_text = spreadsheet.write_csv(collect(course, TOY), tmp_path).read_text()
    assert not [s for s in ("secret_value", "BEGIN HIDDEN TESTS", "total(-1, -2)") if s in page + csv_text]


# ---- the command ------------------------------------------------------------------------------------------------
def test_the_command_writes_three_files_and_says_where(course, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(course)
    assert main([TOY, "--out", str(tmp_path / "r")]) == 0
    names = {f"{TOY}.png", f"{TOY}.html", f"{TOY}-by-check.csv"}
    assert {p.name for p in (tmp_path / "r").iterdir()} == names
    said = capsys.readouterr().out
    assert all(str(tmp_path / "r" / n) in said for n in names) and "7 students, 5 needed attention" in said


def test_bad_input_is_a_clear_error_and_writes_nothing(course, empty_course, tmp_path, monkeypatch, capsys):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    monkeypatch.chdir(tmp_path)
    assert main([TOY, "--out", "r"]) != 0
    assert "there is no gradebook" in capsys.readouterr().err
    assert not (tmp_path / "gradebook.db").exists()  # asking must not create an empty one
    monkeypatch.chdir(course)
    assert main(["no_such_assignment", "--out", str(tmp_path / "r")]) != 0
    err = capsys.readouterr().err
    assert "no assignment 'no_such_assignment'" in err and TOY in err
    monkeypatch.chdir(empty_course)
    assert main([TOY, "--out", str(tmp_path / "r")]) != 0
    err = capsys.readouterr().err
    assert "nothing has been graded for 'toy' yet" in err and "make autograde" in err
    assert not (tmp_path / "r").exists()


# ---- end to end: the real grader --------------------------------------------------------------------------------
QUIZ = "intuition_quiz"
# student: (solution file, notebook edit, quiz answers or None for no quiz notebook handed in)
GRADED_CLASS = {
    "alice": ("correct_einsum.py", None, RIGHT),
    "bob": ("wrong_returns_A_times_G.py", None, {1: RIGHT[1], 4: RIGHT[4]}),
    "carol": ("wrong_loops_over_cells.py", None, None),
    "dave": ("robust_hangs_at_T_1.py", None, RIGHT),
    "erin": ("correct_keepdims.py", "delete_hidden_grade_cells", RIGHT),
    "frank": ("correct_einsum.py", None, RIGHT),  # then cut short: not a notebook any more
    "gina": ("cheat_exits_process.py", None, None),
}


@pytest.mark.integration
def test_a_class_graded_by_the_real_grader(tmp_path):
    """Seven students graded by classroom.autograde, then the report as `make report` runs it. The report goes to
    build/class-report/ (or $CLASS_REPORT_OUT) so that it can be looked at afterwards."""
    assignment, course = grading.ASSIGNMENT, grading.make_course(tmp_path / "course")
    for who, (solution, edit, answers) in GRADED_CLASS.items():
        folder = grading.write_submission(course, who, grading.submission(
            (grading.SUBMISSIONS / solution).read_text(), edit))
        if answers is not None:
            (folder / f"{QUIZ}.ipynb").write_text(json.dumps(quiz_notebook(answers)))
    frank = course / "submitted" / "frank" / assignment / f"{assignment}.ipynb"
    frank.write_text(frank.read_text()[:500])
    graded = subprocess.run([sys.executable, "-m", "classroom.autograde", assignment, *grading.AUTOGRADE_FLAGS],
                            cwd=course, env=grading.nbgrader_env(), capture_output=True, text=True)
    (course / "autograde.log").write_text(graded.stdout + graded.stderr)
    out = Path(os.environ.get("CLASS_REPORT_OUT", ROOT / "build" / "class-report"))
    shutil.rmtree(out, ignore_errors=True)
    run = grading.report(course, "--out", str(out))
    written = [out / f"{assignment}.png", out / f"{assignment}.html", out / f"{assignment}-by-check.csv"]
    assert all(str(p) in run.stdout and p.stat().st_size > 0 for p in written)

    summary = collect(course, assignment)
    maxima, gradebook = read_gradebook(course, assignment)
    totals = {who: s["total"] for who, s in gradebook.items()}
    # frank: his cut-short score_gradient.ipynb scores 0, his quiz (all right) is graded all the same
    assert totals == {"alice": 25, "bob": 6, "carol": 19, "dave": 21, "erin": 25, "frank": 5, "gina": 0}
    assert {s.id: s.score for s in summary.students} == totals
    results = {r.check.grade_id: r for r in summary.results}
    assert {r.check.key for r in summary.results} == set(maxima)
    for key, points in maxima.items():
        took = [who for who in GRADED_CLASS if key[0] == assignment or GRADED_CLASS[who][2] is not None]
        failed = [who for who in took if gradebook[who]["checks"][key] < points]
        assert (results[key[1]].failing, results[key[1]].handed_in) == (len(failed), len(took)), key
    assert results["no_python_loop"].failing == 5  # bob (wrong values), carol, dave (loops), frank, gina
    for notebook in (assignment, QUIZ):  # every check is described by its docstring, read here independently
        for cell in json.loads((ROOT / "source" / assignment / f"{notebook}.ipynb").read_text())["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                docstring = ast.get_docstring(ast.parse("".join(cell["source"])))
                assert results[meta["grade_id"]].check.description == " ".join(docstring.split())
    seen = {who: grading.messages(course, who) for who in GRADED_CLASS}
    for grade_id in ("values_match_reference", "no_python_loop", "inputs_left_untouched"):
        said = Counter(" ".join(m.split()) for who in GRADED_CLASS for g, m in seen[who].items()
                       if g == grade_id and m != "passed")
        assert results[grade_id].messages == said
    shown = "".join(p.read_text() for p in written[1:])
    assert not [s for s in SECRETS if s in shown or s.replace("*", "&#42;") in shown]

    why = {s.id: {r.kind: r for r in s.reasons} for s in summary.students}
    assert "not handed in" in why["carol"] and "grade cells missing" in why["erin"]
    hidden = [g for (nb, g) in maxima if nb == assignment and g != grading.VISIBLE]
    assert set(why["erin"]["grade cells missing"].where) == set(hidden)
    assert {"flagged for manual grading", "could not be run"} <= set(why["frank"])
    flagged = {who for who, s in gradebook.items() if s["manual"]}
    assert flagged == {who for who, reasons in why.items() if "flagged for manual grading" in reasons} == {"frank"}
    assert "values_match_reference" in why["dave"]["timed out"].where
    assert "crashed" in why["gina"]
    assert {s.id for s in summary.attention} == {"carol", "dave", "erin", "frank", "gina"}
    assert "7 students, 5 needed attention" in run.stdout
