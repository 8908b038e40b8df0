"""The result of each graded notebook (classroom.grading.result), written once when it is staged and read by the
class report, the feedback page's summary and the LMS grades, instead of each reading decisions back out of notebooks.

Fast: the record's format and its versioning; what is read from an autograded notebook (the one place failure kinds
are read from outputs); what RepairGradeCells records; what the feedback summary and the LMS grades make of a result.
End to end (integration): one class graded by the real driver, with grade cells the grader put back, a grader's note
(a renamed notebook taken), two renamed copies (neither taken), a crash, a time-out and a file that is not a
notebook; then the report, the feedback pages and the LMS grades, each checked against nbgrader's gradebook check by
check.
"""
import ast
import csv
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Grade
from nbgrader.utils import compute_checksum

from classroom import cells, course as coursedirs
from classroom.grading import result
from classroom.lms import grades
from classroom.preprocessors import repair_grade_cells, sanitize_feedback
from classroom.report import read_summary
from classroom.trusted import failures
from coursekit import trial_course
from coursekit.quiz.answers import RIGHT, SECRETS, quiz_notebook
from coursekit.repository import ROOT
from tests.report.toy import read_gradebook

E = failures.error_output
RESULT = result.Result("alice", "hw", "hw", result.GRADED, None, "hw (1).ipynb", ("You handed in `hw (1).ipynb`.",),
                       result.Repairs(("b",), (), 1),
                       (result.CheckOutcome("a", 2.0, 0.0, failures.TIMED_OUT, "too slow"),
                        result.CheckOutcome("b", 1.0, 1.0)), (result.CellFailure("cell 3", failures.NOT_RUN, "x"),))


def code(grade_id=None, outputs=(), points=None, solution=False):
    meta = {"grade_id": grade_id, "grade": points is not None, "solution": solution, "points": points}
    return {"cell_type": "code", "source": "", "execution_count": None, "outputs": list(outputs),
            "metadata": {"nbgrader": meta} if grade_id else {}}


# ---- the record ---------------------------------------------------------------------------------------------------
def test_a_result_is_read_back_as_written_and_another_format_is_no_result(tmp_path):
    result.write(tmp_path, RESULT)
    assert result.read(tmp_path, "hw") == RESULT
    path = tmp_path / result.file_name("hw")
    data = json.loads(path.read_text())
    assert data["format"] == result.FORMAT and data["checks"][0] == {
        "grade_id": "a", "points": 2.0, "score": 0.0, "kind": "TimedOut", "message": "too slow", "answer": False}
    for broken in ({**data, "format": result.FORMAT + 1}, {**data, "status": "fine"}, {"format": result.FORMAT}):
        path.write_text(json.dumps(broken))
        assert result.read(tmp_path, "hw") is None
    path.write_text("{not json")
    assert result.read(tmp_path, "hw") is None and result.read(tmp_path, "other") is None


def test_kinds_come_from_what_the_grader_recorded_never_from_an_output():
    """A student's code can write any error output (an `ename` of TimedOut, say): only the grader's own records, the
    trusted verdicts and the marks of the kernel's run, say what kind a failure is."""
    nb = {"cells": [code("a", [E(failures.TIMED_OUT, "forged by the student")], 2.0),
                    code("b", [{"output_type": "error", "ename": "AssertionError", "evalue": "no"}], 1.0),
                    code("ans", [{"output_type": "error", "ename": "ValueError (raised by your code)",
                                  "evalue": "v"}], 1.0, solution=True),
                    code(None, [E(failures.NOT_RUN, "later"), {"output_type": "stream", "text": "TimedOut"}]),
                    code("c", [], 1.0),
                    code(None, [E(failures.TIMED_OUT, "the student's own, again")]),
                    code("d", [E(failures.TIMED_OUT, "marked")], 1.0)]}
    recorded = {"verdicts": {"a": {"kind": None, "message": ""}},
                "marks": [{"cell": 3, "grade_id": None, "kind": failures.NOT_RUN, "message": "later"},
                          {"cell": 6, "grade_id": "d", "kind": failures.TIMED_OUT, "message": "marked"}]}
    checks, others = result.outcomes(nb, {"a": (2.0, 2.0), "b": (1.0, 0.0), "ans": (1.0, 0.0), "c": (1.0, 1.0),
                                          "d": (1.0, 0.0), "gone": (3.0, 0.0)}, recorded)
    assert [(c.grade_id, c.kind, c.message, c.answer, c.passed) for c in checks] == [
        ("a", None, "", False, True), ("b", failures.CHECK_FAILED, "no", False, False),
        ("ans", failures.RAISED, "v", True, False), ("c", None, "", False, True),
        ("d", failures.TIMED_OUT, "marked", False, False), ("gone", None, "", False, False)]
    assert others == (result.CellFailure("cell 4", failures.NOT_RUN, "later"),)
    unrecorded, _ = result.outcomes(nb, {"a": (2.0, 0.0)})
    assert unrecorded[0].kind == failures.CHECK_FAILED  # an error in a check's cell fails it; it is not a time-out


def test_repair_grade_cells_records_what_it_put_back_restored_and_stripped(monkeypatch):
    known = [cells.SourceCell(name, "code", f"assert {n}\n", True, float(n)) for n, name in enumerate("abc", 1)]
    monkeypatch.setattr(repair_grade_cells, "gradebook_cells", lambda resources: known)
    edited = known[1].new_cell()
    edited.source = "pass\n"
    nb = nbformat.v4.new_notebook(cells=[known[0].new_cell(), edited, nbformat.from_dict(code("mine", points=1.0))])
    nb, resources = repair_grade_cells.RepairGradeCells().preprocess(nb, {})
    assert resources["classroom"]["repairs"] == {"missing": ["c"], "changed": ["b"], "stripped": 1, "earlier": []}
    assert [cells.grade_id(c) for c in nb.cells] == ["a", "b", "c", None] and nb.cells[1].source == "assert 2\n"
    issued = known[0].new_cell()  # as an earlier release issued it (its checksum matches): restored, and listed
    issued.source = "assert 9\n"
    issued.metadata["nbgrader"]["checksum"] = compute_checksum(issued)
    nb, resources = repair_grade_cells.RepairGradeCells().preprocess(nbformat.v4.new_notebook(cells=[issued]), {})
    assert resources["classroom"]["repairs"] == {"missing": ["b", "c"], "changed": [], "stripped": 0, "earlier": ["a"]}
    assert nb.cells[0].source == "assert 1\n"


def test_the_feedback_summary_says_each_checks_verdict_and_the_notes(tmp_path):
    result.write(tmp_path, RESULT)
    nb = nbformat.from_dict({"cells": [code("a", [E(failures.TIMED_OUT, "too slow")], 2.0), code("b", [], 1.0)],
                             "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    resources = {"nbgrader": {"notebook": "hw"}, "metadata": {"path": str(tmp_path)}}
    nb, resources = sanitize_feedback.SanitizeFeedback().preprocess(nb, resources)
    assert [c.metadata.classroom["verdict"] for c in nb.cells] == ["timed out", "passed"]
    assert resources["classroom"]["notes"] == list(RESULT.notes)


def test_the_lms_holds_back_a_placeholder_0_until_it_is_graded_by_hand(tmp_path):
    coursedir = coursedirs.course_directory(root=tmp_path)
    folder = Path(coursedirs.autograded(coursedir, "alice", "hw"))
    folder.mkdir(parents=True)
    result.write(folder, result.Result("alice", "hw", "hw", result.UNREADABLE, "not a notebook", "hw.ipynb"))
    result.write(folder, result.Result("alice", "hw", "quiz", result.NOT_HANDED_IN, "not handed in"))
    held = lambda flagged: grades.held_back(coursedir, "hw", "alice", flagged)  # noqa: E731
    assert "hw.ipynb waits for a grade by hand (not a notebook)" in held({"hw": ["a"]})
    assert held({}) is None  # graded by hand since: the gradebook's score
    assert "grading by hand is unfinished (quiz.ipynb derivation" in held({"quiz": ["derivation"]})  # not yet read


# ---- end to end: one class, every consumer against the gradebook -------------------------------------------------
QUIZ = "intuition_quiz"
# student: (solution file, notebook edit, quiz answers or None for no quiz notebook handed in)
GRADED_CLASS = {
    "alice": ("correct_einsum.py", None, RIGHT),  # handed in as `score_gradient (1).ipynb`: a grader's note
    "bob": ("wrong_returns_A_times_G.py", None, {1: RIGHT[1], 4: RIGHT[4]}),
    "carol": ("wrong_loops_over_cells.py", None, None),
    "dave": ("robust_hangs_at_T_1.py", None, RIGHT),  # a time-out
    "erin": ("correct_keepdims.py", "delete_hidden_grade_cells", RIGHT),  # grade cells the grader puts back
    "frank": ("correct_einsum.py", None, RIGHT),  # then cut short: not a notebook any more
    "gina": ("cheat_exits_process.py", None, None),  # a crash
    "hank": ("correct_einsum.py", None, None),  # two renamed copies of it: neither graded, flagged for a look
}


def handed_in(who, notebook):
    """Whether `who` handed `notebook` in (hank's two misnamed copies count, as frank's unreadable file does)."""
    return True if notebook == trial_course.ASSIGNMENT else GRADED_CLASS[who][2] is not None


CANVAS = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "score_gradient (7)"],
          ["    Points Possible", "", "", "", "", "50"]] + [[who, str(100 + i), "", who, "A", ""]
                                                           for i, who in enumerate(GRADED_CLASS)]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded by classroom.autograde, then the report, the feedback and the Canvas grades made from it."""
    assignment, course = trial_course.ASSIGNMENT, trial_course.make_course(tmp_path_factory.mktemp("class") / "course")
    for who, (solution, edit, answers) in GRADED_CLASS.items():
        folder = trial_course.write_submission(course, who, trial_course.submission(
            (trial_course.SUBMISSIONS / solution).read_text(), edit))
        if answers is not None:
            (folder / f"{QUIZ}.ipynb").write_text(json.dumps(quiz_notebook(answers)))
    alice = course / "submitted" / "alice" / assignment
    (alice / f"{assignment}.ipynb").rename(alice / f"{assignment} (1).ipynb")
    frank = course / "submitted" / "frank" / assignment / f"{assignment}.ipynb"
    frank.write_text(frank.read_text()[:500])
    hank = course / "submitted" / "hank" / assignment
    shutil.copyfile(hank / f"{assignment}.ipynb", hank / f"Copy of {assignment}.ipynb")
    (hank / f"{assignment}.ipynb").rename(hank / f"{assignment}-1.ipynb")
    run = trial_course.autograde(course, "--jobs", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    trial_course.nbgrader("generate_feedback", assignment, "--force", cwd=course)
    with trial_course.gradebook(course) as gb:  # Manual Grading finished before the exports: each derivation read, 0 given
        for grade in (g for g in gb.db.query(Grade).filter(Grade.needs_manual_grade) if g.name == "derivation"):
            grade.manual_score, grade.needs_manual_grade = 0.0, False
        gb.db.commit()
    (course / "lms").mkdir()
    with open(course / "lms" / "roster.csv", "w", newline="") as handle:
        csv.writer(handle).writerows(CANVAS)
    lms = trial_course.classroom(course, "lms-grades", assignment, "--lms", "canvas").stdout
    return course, trial_course.report(course, "--out", "report"), lms


def results(course, who, notebook):
    return result.read(course / "autograded" / who / trial_course.ASSIGNMENT, notebook)


def summary_lines(course, who, notebook):
    """[(verdict, score, points)] of the feedback page's summary, and the notes above it, as the page shows them."""
    page = (course / "feedback" / who / trial_course.ASSIGNMENT / f"{notebook}.html").read_text()
    toc = page.split('<ol id="toc">')[1].split("</ol>")[0]
    lines = [(verdict, float(score), float(points)) for verdict, score, points in re.findall(
        r'(?:<span class="verdict">\(([^)]*)\)</span> )?<span class="score">\(Score: ([\d.]+) / ([\d.]+) points?\)',
        toc)]
    notes = page.split('<ul id="grader-notes">')[1].split("</ul>")[0] if "grader-notes" in page else ""
    return lines, notes


@pytest.mark.integration
def test_the_report_the_feedback_and_the_lms_grades_agree_with_the_gradebook(graded):
    course, report_run, lms_run = graded
    maxima, gradebook = read_gradebook(course, trial_course.ASSIGNMENT)
    summary = read_summary(course, trial_course.ASSIGNMENT)
    by_id = {s.id: s for s in summary.students}
    assert set(by_id) == set(gradebook) == set(GRADED_CLASS)
    for who, want in gradebook.items():
        assert by_id[who].checks == want["checks"] and by_id[who].raw_score == want["total"]
        for notebook in (trial_course.ASSIGNMENT, QUIZ):
            found = results(course, who, notebook)
            assert {c.grade_id: (c.score, c.points) for c in found.checks} == {
                grade_id: (want["checks"][nb, grade_id], points) for (nb, grade_id), points in maxima.items()
                if nb == notebook}, (who, notebook)
            for check in found.checks:  # the report's message for a failed check is its result's
                if check.score < check.points and not check.answer:
                    said = " ".join(check.message.split()) or check.kind
                    assert by_id[who].messages.get((notebook, check.grade_id)) == said, (who, check)
            lines, notes = summary_lines(course, who, notebook)  # the feedback's summary, in the notebook's order
            assert [(score, points) for _, score, points in lines] == [
                (want["checks"][notebook, c.grade_id], maxima[notebook, c.grade_id]) for c in found.checks]
            assert [(verdict == "passed", bool(verdict)) for verdict, score, points in lines] == \
                [(score == points and not c.answer, True) for (_, score, points), c in zip(lines, found.checks)], \
                (who, notebook, lines)
            by_hand = [c.answer and c.kind is None for c in found.checks]  # the written derivation, when it was read
            assert [verdict == sanitize_feedback.BY_HAND for verdict, _, _ in lines] == by_hand, (who, notebook, lines)
            assert all(note.split("`")[1] in notes for note in found.notes) and bool(notes) == bool(found.notes)
    rows = {row[3]: row[5] for row in csv.reader(open(course / "lms" / "score_gradient-canvas-grades.csv"))}
    for who, want in gradebook.items():
        if who in ("frank", "hank"):  # 0 for a file that is not a notebook, or misnamed, waits for a grade by hand
            assert rows[who] == "" and f"no grade in the file for {who}: score_gradient.ipynb waits" in lms_run
        else:
            assert float(rows[who]) == round(max(want["total"] - want["penalty"], 0) * 50 / summary.max_score, 2)

    alice, dave, erin, gina = (results(course, who, trial_course.ASSIGNMENT) for who in ("alice", "dave", "erin", "gina"))
    assert alice.handed_as == f"{trial_course.ASSIGNMENT} (1).ipynb" and by_id["alice"].notes == alice.notes != ()
    assert "values_match_reference" in {c.grade_id for c in dave.checks if c.kind == failures.TIMED_OUT}
    timed_out = [c.grade_id for c in dave.checks].index("values_match_reference")
    assert summary_lines(course, "dave", trial_course.ASSIGNMENT)[0][timed_out][0] == "timed out"
    assert failures.CRASHED in {c.kind for c in gina.checks + gina.cells}
    hidden = {g for (nb, g) in maxima if nb == trial_course.ASSIGNMENT and g != trial_course.VISIBLE}
    assert set(erin.repairs.missing) == hidden and erin.status == result.GRADED
    assert results(course, "frank", trial_course.ASSIGNMENT).status == result.UNREADABLE
    assert results(course, "carol", QUIZ).status == result.NOT_HANDED_IN
    hank = results(course, "hank", trial_course.ASSIGNMENT)
    assert (hank.status, hank.handed_as) == (result.MISNAMED, None) and "several copies" in hank.why
    assert hank.suspects == (f"Copy of {trial_course.ASSIGNMENT}.ipynb", f"{trial_course.ASSIGNMENT}-1.ipynb")
    assert "alice" not in {s.id for s in summary.attention} and "`score_gradient (1).ipynb`" in \
        (course / "report" / "score_gradient-by-check.csv").read_text()


@pytest.mark.integration
def test_a_class_graded_by_the_real_grader_reads_right_in_the_report(graded):
    """The report of the class as `make report` writes it: every number and reason against the gradebook. It is
    copied to build/class-report/ so that it can be looked at afterwards."""
    course, run, _ = graded
    assignment = trial_course.ASSIGNMENT
    out = course / "report"
    written = [out / f"{assignment}.png", out / f"{assignment}.html", out / f"{assignment}-by-check.csv"]
    assert all(f"report/{p.name}" in run.stdout and p.stat().st_size > 0 for p in written)
    shutil.copytree(out, ROOT / "build" / "class-report", dirs_exist_ok=True)
    summary = read_summary(course, assignment)
    maxima, gradebook = read_gradebook(course, assignment)
    totals = {who: s["total"] for who, s in gradebook.items()}
    # frank: his cut-short score_gradient.ipynb scores 0, his quiz (all right) is graded all the same
    # bob's A * G: a wrong formula costs the value checks it fails first, once (test_one_mistake_once.py)
    assert totals == {"alice": 25, "bob": 16, "carol": 19, "dave": 21, "erin": 25, "frank": 5, "gina": 0, "hank": 0}
    assert {s.id: s.score for s in summary.students} == totals
    by_check = {r.check.grade_id: r for r in summary.results}
    for key, points in maxima.items():
        if key[1] not in by_check:  # the written derivation: an answer graded by hand, not a check of the report
            assert key == (assignment, "derivation"), key
            continue
        took = [who for who in GRADED_CLASS if handed_in(who, key[0])]
        failed = [who for who in took if gradebook[who]["checks"][key] < points]
        assert (by_check[key[1]].failing, by_check[key[1]].handed_in) == (len(failed), len(took)), key
    assert by_check["no_python_loop"].failing == 5  # carol, dave (loops), frank, gina, hank (bob's A * G has none)
    for notebook in (assignment, QUIZ):  # every check is described by its docstring, read here independently
        for cell in json.loads((ROOT / "source" / assignment / f"{notebook}.ipynb").read_text())["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution"):
                docstring = ast.get_docstring(ast.parse("".join(cell["source"])))
                assert by_check[meta["grade_id"]].check.description == " ".join(docstring.split())
    seen = {who: trial_course.messages(course, who) for who in GRADED_CLASS}
    for grade_id in ("values_match_reference", "no_python_loop", "inputs_left_untouched"):
        said = Counter(" ".join(m.split()) for who in GRADED_CLASS if handed_in(who, assignment)
                       for g, m in seen[who].items() if g == grade_id and m != "passed")
        assert by_check[grade_id].messages == said
    shown = "".join(p.read_text() for p in written[1:])
    assert not [s for s in SECRETS if s in shown or s.replace("*", "&#42;") in shown]

    why = {s.id: {r.kind: r for r in s.reasons} for s in summary.students}
    assert "not handed in" in why["carol"] and "grade cells missing" in why["erin"]
    hidden = [g for (nb, g) in maxima if nb == assignment and g != trial_course.VISIBLE]
    assert set(why["erin"]["grade cells missing"].where) == set(hidden)
    assert {"flagged for manual grading", "could not be run"} <= set(why["frank"])
    flagged = {who for who, s in gradebook.items() if s["manual"]}
    assert flagged == {who for who, reasons in why.items() if "flagged for manual grading" in reasons} == \
        {"frank", "hank"}
    assert "Copy of score_gradient.ipynb" in why["hank"]["misnamed"].detail
    assert "values_match_reference" in why["dave"]["timed out"].where
    assert "crashed" in why["gina"]
    assert {s.id for s in summary.attention} == {"carol", "dave", "erin", "frank", "gina", "hank"}
    assert "8 students, 6 needed attention" in run.stdout
