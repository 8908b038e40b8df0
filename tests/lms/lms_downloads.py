"""What an LMS hands an instructor, made here as Canvas and Moodle make them, for the tests of tests/lms/: their
rosters (gradebook CSVs), the members of their submission downloads and the zips that hold them."""
import csv
import json
import zipfile

from coursekit import trial_course
from coursekit.trial_course import SUBMISSIONS

RIGHT = (SUBMISSIONS / "correct_keepdims.py").read_text()
WRONG = (SUBMISSIONS / "wrong_transposed.py").read_text()
CANVAS_ROSTER = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "score_gradient (4321)", "Current Score"],
    ["    Points Possible", "", "", "", "", "100", "(read only)"],
    ['=HYPERLINK("http://x.example","Ames")', "101", "S101", "alice", "A", "", ""],
    ["Brown, Bob", "102", "S102", "bob", "A", "", ""],
    ["Cole, Carol", "103", "S103", "carol", "B", "", ""],
    ["Mal, Lory", "105", "S105", "=cmd|' /C calc'!A0", "B", "", ""],
]
MOODLE_ROSTER = [
    ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade", "Grade can be changed",
     "Last modified (submission)", "Last modified (grade)", "Feedback comments"],
    ["Participant 555", "Dave Diaz", "dave@uni.example", "Submitted", "", "10.00", "Yes", "-", "-", ""],
    ["Participant 556", "Erin Eve", "erin@uni.example", "Submitted", "", "10.00", "Yes", "-", "-", ""],
]


def notebook(code):
    return json.dumps(trial_course.submission(code)).encode()


def member(zf, name, data, when, mode=0o100644):
    info = zipfile.ZipInfo(name, when)
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


OTHER_HOMEWORK = json.dumps({"cells": [{"cell_type": "code", "source": "", "metadata": {"nbgrader": {
    "grade_id": "hw2_q1", "grade": True, "solution": True, "points": 1}}, "outputs": [], "execution_count": None}],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
# Canvas's download: (member, bytes, date, Unix mode), and what becomes of each (None: placed)
CANVAS = [
    ("amesalice_101_9001_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 16, 10, 0, 0), None),  # zipped late
    ("amesalice_101_9006_notes.txt", b"my notes", (2026, 12, 16, 10, 0, 0), "not_notebook"),
    ("brownbob_LATE_102_9002_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 15, 9, 0, 0), None),
    ("colecarol_103_9004_score_gradient.ipynb", notebook(WRONG), (2026, 12, 10, 8, 0, 0), "superseded"),
    ("colecarol_103_9005_score_gradient-1.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), None),
    ("mallory_105_9009_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "bad_student_id"),
    ("stranger_999_9007_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "unknown_lms_id"),
    ("colecarol_103_9008_hw2.ipynb", OTHER_HOMEWORK, (2026, 12, 11, 8, 0, 0), "not_this_assignment"),
    ("README.ipynb", notebook(RIGHT), (2026, 12, 11, 8, 0, 0), "unknown_pattern"),
    ("../../amesalice_101_9010_score_gradient.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("/tmp/amesalice_101_9011_score_gradient.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("..\\..\\evil_101_9012_x.ipynb", notebook(WRONG), (2026, 12, 11, 8, 0, 0), "unsafe_name"),
    ("brownbob_102_9013_score_gradient.ipynb", b"../../../../etc/passwd", (2026, 12, 11, 8, 0, 0), "link"),
    ("brownbob_102_9014_bomb.ipynb", b"\0" * (8 * 2 ** 20), (2026, 12, 11, 8, 0, 0), "zip_bomb"),
]
MOODLE = [
    ("Dave Diaz_555_assignsubmission_file/score_gradient.ipynb", notebook(RIGHT), (2026, 12, 13, 12, 0, 0), None),
    ("Dave Diaz_555_assignsubmission_onlinetext_/onlinetext.html", b"<p>hi</p>", (2026, 12, 13, 12, 0, 0),
     "not_notebook"),
    ("Erin Eve_556_assignsubmission_file_score_gradient.ipynb", notebook(RIGHT), (2026, 12, 12, 9, 0, 0),
     "two_files"),
    ("Erin Eve_556_assignsubmission_file_score_gradient (1).ipynb", notebook(WRONG), (2026, 12, 12, 9, 5, 0),
     "two_files"),
]


def make_zip(path, members):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data, when, fate in members:
            member(zf, name, data, when, mode=0o120777 if fate == "link" else 0o100644)
    return path


def write_csv(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path
