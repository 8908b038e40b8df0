"""The whole classroom cycle, run as instructors and students run it, in a temporary course and exchange.

generate_assignment -> release_assignment -> fetch_assignment -> submit -> collect -> autograde (through the
classroom.autograde driver) -> generate_feedback -> release_feedback -> fetch_feedback -> export, with several
students, one re-submission that must replace a score, and one corrupt file that must still end with a grade and
feedback. Every recorded score is asserted in the gradebook and in the exported CSV, and the fetched feedback is
searched for the hidden tests' source and the reference solution.
"""
import csv
import html
import json
from pathlib import Path

import pytest

from classroom import cells
from classroom.trusted import failures
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID, SUBMISSIONS
from coursekit.quiz.answers import QUESTIONS, RIGHT, SECRETS

pytestmark = pytest.mark.integration

FULL = 20.0  # score_gradient.ipynb, its automatic checks
DERIVATION = 3.0  # score_gradient.ipynb, the written derivation: graded by hand, so 0 until someone does
QUIZ = 5.0   # intuition_quiz.ipynb: one point per question
# bob's quiz: 1 and 4 right, 2 a wrong letter, 3 in the wrong form (a string, not a set), 5 left unanswered.
BOB_QUIZ = {1: repr(RIGHT[1]), 2: repr(next(l for l in QUESTIONS[1].letters if l != RIGHT[2])),
            3: repr("".join(sorted(RIGHT[3]))), 4: repr(RIGHT[4])}

FIRST_ROUND = {"alice": "correct_einsum.py", "bob": "wrong_returns_A_times_G.py",
               "carol": "wrong_loops_over_cells.py", "dave": "cheat_exits_process.py"}
# bob's A * G keeps by_hand (2), his own size by the definition (2), the four rule points (a rule check judges
# its rule, not the values), values_match_reference (3: judged once central differences agree, which charge his
# formula) and part 2's measurement (3: held to his own score_gradient_size): 14, and 2 for the quiz.
FIRST_SCORES = {"alice": FULL + QUIZ, "bob": 14.0 + 2, "carol": FULL - 1, "dave": 0.0}


class Cycle:
    def __init__(self, base):
        self.base = Path(base)
        self.course = trial_course.make_course(self.base / "course")
        self.exchange = self.base / "exchange"
        self.exchange.mkdir()

    def instructor(self, *args, check=True):
        return trial_course.nbgrader(*args, f"--Exchange.root={self.exchange}", cwd=self.course, check=check)

    def student(self, who, *args):
        home = self.base / "students" / who
        home.mkdir(parents=True, exist_ok=True)
        return trial_course.nbgrader(*args, f"--course={COURSE_ID}", f"--student={who}",
                                     f"--Exchange.root={self.exchange}", f"--Exchange.cache={home / '.cache'}",
                                     cwd=home)

    def work_on(self, who, solution_code, quiz_answers=None):
        """Fetch (first time only), write the solution (and quiz answers, {n: source}) into the fetched
        notebooks, and submit the whole assignment."""
        home = self.base / "students" / who
        path = home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        if not path.exists():
            self.student(who, "fetch_assignment", ASSIGNMENT)
        self._fill(path, lambda grade_id: solution_code if grade_id == trial_course.SOLUTION
                   else trial_course.right_answer(grade_id))  # the other answers right
        if quiz_answers:
            self._fill(home / ASSIGNMENT / "intuition_quiz.ipynb", lambda grade_id: (
                f"answer_{grade_id[7:]} = {quiz_answers[int(grade_id[7:])]}" if int(grade_id[7:]) in quiz_answers
                else None))
        self.student(who, "submit", ASSIGNMENT)

    @staticmethod
    def _fill(path, source_for):
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            if meta.get("solution") and source_for(meta["grade_id"]) is not None:
                cell["source"] = source_for(meta["grade_id"])
        path.write_text(json.dumps(nb))

    def feedback_html(self, who, notebook=ASSIGNMENT):
        found = sorted((self.base / "students" / who / ASSIGNMENT / "feedback").glob(f"*/{notebook}.html"))
        assert found, f"no feedback fetched for {who}"
        return found[-1].read_text()


@pytest.fixture(scope="module")
def cycle(tmp_path_factory):
    cycle = Cycle(tmp_path_factory.mktemp("cycle"))
    cycle.instructor("release_assignment", ASSIGNMENT)
    quiz_answers = {"alice": {n: repr(a) for n, a in RIGHT.items()}, "bob": BOB_QUIZ}
    for who, solution in FIRST_ROUND.items():
        cycle.work_on(who, (SUBMISSIONS / solution).read_text(), quiz_answers.get(who))
    cycle.instructor("collect", ASSIGNMENT)
    cycle.first_autograde = trial_course.autograde(cycle.course)
    cycle.first_scores = trial_course.scores(cycle.course)
    # Second round: bob fixes his answer, carol breaks hers, erin hands in a corrupt file.
    cycle.work_on("bob", (SUBMISSIONS / "correct_keepdims.py").read_text())
    cycle.work_on("carol", (SUBMISSIONS / "cheat_always_equal_object.py").read_text())
    cycle.work_on("erin", (SUBMISSIONS / "correct_einsum.py").read_text())
    cycle.instructor("collect", "--update", ASSIGNMENT)
    erin = cycle.course / "submitted" / "erin" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    erin.write_text(erin.read_text()[:500])  # cut short: not a notebook any more
    cycle.second_autograde = trial_course.autograde(cycle.course)
    cycle.final_scores = trial_course.scores(cycle.course)
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
    # carol's object that equals anything earns nothing of score_gradient, but her row by hand is right (2 points)
    assert totals == {"alice": FULL + QUIZ, "bob": FULL + 2, "carol": 2.0, "dave": 0.0, "erin": 0.0}


def test_a_corrupt_submission_still_gets_a_grade_and_feedback(cycle):
    assert cycle.second_autograde.returncode == 0, cycle.second_autograde.stderr[-3000:]
    assert "erin/score_gradient: scored 0: the file you handed in is not a readable notebook" in \
        cycle.second_autograde.stderr
    assert all(score == 0.0 for score in cycle.final_scores["erin"].values())
    assert "the file you handed in is not a readable notebook" in cycle.feedback_html("erin")
    assert {kind for kind, _ in trial_course.verdicts(cycle.course, "erin").values()} == {failures.NOT_GRADED}


def test_exported_csv_matches_the_gradebook(cycle):
    rows = {row["student_id"]: row for row in csv.DictReader((cycle.base / "grades.csv").open())}
    assert set(rows) == set(cycle.final_scores)
    for who, grades in cycle.final_scores.items():
        assert float(rows[who]["score"]) == sum(grades.values())
        assert float(rows[who]["max_score"]) == FULL + DERIVATION + QUIZ


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "dave", "erin"])
def test_feedback_never_shows_hidden_tests_or_the_reference(cycle, who):
    for notebook in (ASSIGNMENT, "intuition_quiz"):
        html = cycle.feedback_html(who, notebook)
        leaked = [s for s in SECRETS if s in html or s.replace("*", "&#42;") in html]
        assert not leaked, f"{who}'s feedback on {notebook} shows {leaked}"
    fetched = [p.name for p in (cycle.base / "students" / who / ASSIGNMENT / "feedback").rglob("*") if p.is_file()]
    assert fetched and "grade_cells.py" not in fetched


def test_quiz_scores_and_feedback(cycle):
    quiz_scores = {g: v for g, v in cycle.final_scores["bob"].items() if g.startswith("quiz_")}
    assert quiz_scores == {"quiz_q1_score_size": 1.0, "quiz_q2_why_the_root": 0.0, "quiz_q3_saturated_row": 0.0,
                           "quiz_q4_cross_entropy": 1.0, "quiz_q5_order_kept": 0.0}
    html = cycle.feedback_html("bob", "intuition_quiz")
    assert "Question 2 is not right." in html and ") False:" in html  # why the letter he chose is wrong
    assert "Question 3 asks for a set of letters" in html
    assert "Question 5 is not answered" in html
    assert sum(v for g, v in cycle.final_scores["alice"].items() if g.startswith("quiz_")) == QUIZ


def test_feedback_says_which_hidden_checks_failed_and_why(cycle):
    carol = cycle.feedback_html("carol")
    checks = {cells.grade_id(c): cells.docstring(cells.source(c))
              for c in trial_course.autograded_notebook(cycle.course, "carol")["cells"] if cells.is_check(c)}
    for grade_id in ("no_python_loop", "values_match_reference"):  # named by what they check, never by grade id
        assert html.escape(checks[grade_id], quote=False) in carol and grade_id not in carol
    assert "Agreeable" in carol  # the type her function returned, named in the message
    dave = cycle.feedback_html("dave")
    assert "exited with status 0" in dave  # os._exit in the solution cell, explained
    assert {kind for kind, _ in trial_course.verdicts(cycle.course, "dave").values()} == {failures.CRASHED}
    carol_kinds = {grade_id: kind for grade_id, (kind, _) in trial_course.verdicts(cycle.course, "carol").items()}
    assert carol_kinds["values_match_reference"] == failures.WRONG_TYPE  # her object refused to be compared
