"""The whole classroom cycle, run as instructors and students run it, in a temporary course and exchange.

generate_assignment -> release_assignment -> fetch_assignment -> submit -> collect -> autograde (through the
classroom.autograde driver) -> generate_feedback -> release_feedback -> fetch_feedback -> export, with several
students, one re-submission that must replace a score, and one corrupt file that must still end with a grade and
feedback. Every recorded score is asserted in the gradebook and in the exported CSV, and the fetched feedback is
searched for the hidden tests' source and the reference solution.
"""
import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

import corpus_tools
from corpus_tools import ASSIGNMENT, ROOT, SUBMISSIONS

COURSE_ID = "sqrt-dk"
FULL = 16.0
# What must never reach a student: fragments of the hidden tests and of the reference solution.
SECRETS = ["BEGIN HIDDEN TESTS", "_softmax_rows", "_through_jacobians", "_diagnosis", "checks.python_loops",
           "peak_extra_bytes", "weighted_mean = np.sum(G * A", "BEGIN SOLUTION", "_right_values"]

FIRST_ROUND = {"alice": "correct_einsum.py", "bob": "wrong_returns_A_times_G.py",
               "carol": "wrong_loops_over_cells.py", "dave": "cheat_exits_process.py"}
FIRST_SCORES = {"alice": FULL, "bob": 0.0, "carol": FULL - 2, "dave": 0.0}


class Cycle:
    def __init__(self, base):
        self.base = Path(base)
        self.course = corpus_tools.make_course(self.base / "course")
        self.exchange = self.base / "exchange"
        self.exchange.mkdir()

    def instructor(self, *args, check=True):
        return corpus_tools.nbgrader(*args, f"--Exchange.root={self.exchange}", cwd=self.course, check=check)

    def student(self, who, *args):
        home = self.base / "students" / who
        home.mkdir(parents=True, exist_ok=True)
        return corpus_tools.nbgrader(*args, f"--course={COURSE_ID}", f"--student={who}",
                                     f"--Exchange.root={self.exchange}", f"--Exchange.cache={home / '.cache'}",
                                     cwd=home)

    def work_on(self, who, solution_code):
        """Fetch (first time only), write the solution into the fetched notebook, and submit."""
        home = self.base / "students" / who
        path = home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        if not path.exists():
            self.student(who, "fetch_assignment", ASSIGNMENT)
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("solution"):
                cell["source"] = solution_code
        path.write_text(json.dumps(nb))
        self.student(who, "submit", ASSIGNMENT)

    def autograde(self):
        bin_dir = Path(sys.executable).parent
        return subprocess.run([sys.executable, "-m", "classroom.autograde", ASSIGNMENT], cwd=self.course,
                              env=corpus_tools.nbgrader_env(), capture_output=True, text=True)

    def feedback_html(self, who):
        found = sorted((self.base / "students" / who / ASSIGNMENT / "feedback").glob(f"*/{ASSIGNMENT}.html"))
        assert found, f"no feedback fetched for {who}"
        return found[-1].read_text()


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    cycle = Cycle(tmp_path_factory.mktemp("cycle"))
    cycle.instructor("release_assignment", ASSIGNMENT)
    for who, solution in FIRST_ROUND.items():
        cycle.work_on(who, (SUBMISSIONS / solution).read_text())
    cycle.instructor("collect", ASSIGNMENT)
    cycle.first_autograde = cycle.autograde()
    cycle.first_scores = corpus_tools.scores(cycle.course)
    # Second round: bob fixes his answer, carol breaks hers, erin hands in a corrupt file.
    cycle.work_on("bob", (SUBMISSIONS / "correct_keepdims.py").read_text())
    cycle.work_on("carol", (SUBMISSIONS / "cheat_always_equal_object.py").read_text())
    cycle.work_on("erin", (SUBMISSIONS / "correct_einsum.py").read_text())
    cycle.instructor("collect", "--update", ASSIGNMENT)
    erin = cycle.course / "submitted" / "erin" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    erin.write_text(erin.read_text()[:500])  # cut short: not a notebook any more
    cycle.second_autograde = cycle.autograde()
    cycle.final_scores = corpus_tools.scores(cycle.course)
    cycle.instructor("generate_feedback", ASSIGNMENT, "--force")
    cycle.instructor("release_feedback", ASSIGNMENT)
    for who in ("alice", "bob", "carol", "dave", "erin"):
        cycle.student(who, "fetch_feedback", ASSIGNMENT)
    cycle.instructor("export", "--to", str(cycle.base / "grades.csv"))
    return cycle


def test_first_round_scores(cycle):
    assert cycle.first_autograde.returncode == 0, cycle.first_autograde.stderr[-3000:]
    assert {who: sum(g.values()) for who, g in cycle.first_scores.items()} == FIRST_SCORES
    assert cycle.first_scores["carol"]["no_python_loop"] == 0.0


def test_regrade_replaces_every_score(cycle):
    totals = {who: sum(g.values()) for who, g in cycle.final_scores.items()}
    assert totals == {"alice": FULL, "bob": FULL, "carol": 0.0, "dave": 0.0, "erin": 0.0}


def test_a_corrupt_submission_still_gets_a_grade_and_feedback(cycle):
    assert cycle.second_autograde.returncode == 1
    assert "erin/score_gradient" in cycle.second_autograde.stderr
    assert all(score == 0.0 for score in cycle.final_scores["erin"].values())
    assert "could not run this notebook" in cycle.feedback_html("erin")


def test_exported_csv_matches_the_gradebook(cycle):
    rows = {row["student_id"]: row for row in csv.DictReader((cycle.base / "grades.csv").open())}
    assert set(rows) == set(cycle.final_scores)
    for who, grades in cycle.final_scores.items():
        assert float(rows[who]["score"]) == sum(grades.values())
        assert float(rows[who]["max_score"]) == FULL


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "dave", "erin"])
def test_feedback_never_shows_hidden_tests_or_the_reference(cycle, who):
    html = cycle.feedback_html(who)
    leaked = [s for s in SECRETS if s in html or s.replace("*", "&#42;") in html]
    assert not leaked, f"{who}'s feedback shows {leaked}"


def test_feedback_says_which_hidden_checks_failed_and_why(cycle):
    carol = cycle.feedback_html("carol")
    assert "no_python_loop" in carol and "values_match_reference" in carol
    assert "Agreeable" in carol  # the type her function returned, named in the message
    dave = cycle.feedback_html("dave")
    assert "exited with status 0" in dave  # os._exit in the solution cell, explained
