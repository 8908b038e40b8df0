"""A learner studying on their own, from a fresh clone, with make as they would use it: `make check-exercise` before
there is anything (a sentence, no traceback), `make exercise`, the right answers written into my-work/ and
`make check-exercise`, one answer made wrong and `make check-exercise` again, a file that is not a notebook, then
`make exercise` once more (the answers stay). The same notebooks are handed in by two students of a class made with
the suite's course kit and graded by `make autograde`'s driver: the printed scores are the class's, and the pages,
read in Chromium, are the class's pages but for the written answer a teacher grades by hand, which reads "not graded
here" with the score left without it, as the terminal prints it (plus, after full marks only, the note naming where
the reference is). The clone and make in it: tests/self_study/learner_clone.py.

The clone is what git would carry of this working tree (tracked and new files, nothing ignored), in a git repository
of its own so that `git status` there shows what the learner's runs left. It reuses the test run's virtual
environment through a symbolic link, .venv -> sys.prefix, and every make runs with `-o .venv/.ready`, so that nothing
builds or reinstalls an environment.
"""
import json
import re
import shutil
import subprocess

import pytest

from classroom import cells
from coursekit import trial_course
from coursekit.real_parts.browser import chromium
from coursekit.trial_course import ANSWERS, ASSIGNMENT, SOLUTION, SUBMISSIONS
from coursekit.parts import requires
from coursekit.quiz.answers import RIGHT, SECRETS, answer_cell
from coursekit.repository import ROOT
from tests.self_study.learner_clone import fresh_clone, make

pytestmark = pytest.mark.integration

NOTEBOOKS = (ASSIGNMENT, "intuition_quiz")
CHECK = ["check-exercise"] + ([] if trial_course.SANDBOXED else ["CHECK_ARGS=--no-sandbox"])
WRONG_BY_HAND = (ANSWERS / "by_hand_diagonal_only.py").read_text()  # Step 2 worked with the term j = m only
SCORE = re.compile(r"^( *)(\S.*?) +(\d+(?:\.\d+)?) / (\d+(?:\.\d+)?)$")
REFERENCE = f"source/{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
USES_IT = "notebooks/06-watch-a-wide-layer-stall.ipynb"


def answer(path, answers):
    """Write answers into a notebook of my-work/ as a learner does in JupyterLab: {grade_id of an answer cell:
    source}; the notebook as it now is (JSON)."""
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cells.is_solution(cell) and cells.grade_id(cell) in answers:
            cell["source"] = answers[cells.grade_id(cell)]
    path.write_text(json.dumps(nb, indent=1))
    return nb


def right_answers():
    found = {SOLUTION: (SUBMISSIONS / "correct_keepdims.py").read_text()}
    found.update({grade_id: trial_course.right_answer(grade_id) for grade_id in trial_course.answer_cells()})
    found.update({f"answer_{n}": answer_cell(n, value) for n, value in RIGHT.items()})
    return found


class Learner:
    def __init__(self, base):
        self.base = base
        self.clone = fresh_clone(base / "clone")
        self.work = self.clone / "my-work" / ASSIGNMENT
        self.runs, self.handed, self.pages = {}, {}, {}

    def checked(self, run):
        """make check-exercise; the notebooks it graded and a copy of the pages it wrote, kept under `run`."""
        self.runs[run] = make(self.clone, *CHECK)
        self.handed[run] = {name: json.loads((self.work / f"{name}.ipynb").read_text()) for name in NOTEBOOKS}
        kept = self.base / "pages" / run
        shutil.copytree(self.clone / "my-work" / "feedback", kept)
        self.pages[run] = kept


@pytest.fixture(scope="module")
def learner(tmp_path_factory):
    me = Learner(tmp_path_factory.mktemp("self-study"))
    me.runs["nothing yet"] = make(me.clone, *CHECK)
    me.runs["exercise"] = make(me.clone, "exercise", "LAB=no")
    me.copied = {name: (me.work / f"{name}.ipynb").read_bytes() for name in NOTEBOOKS if me.work.exists()}
    answers = right_answers()
    for name in NOTEBOOKS:
        answer(me.work / f"{name}.ipynb", answers)
    me.checked("right")
    answer(me.work / f"{ASSIGNMENT}.ipynb", {"by_hand_answer": WRONG_BY_HAND})
    me.checked("wrong")
    quiz = me.work / "intuition_quiz.ipynb"
    kept = quiz.read_bytes()
    quiz.write_text("my notes, saved under the wrong name")
    me.runs["not a notebook"] = make(me.clone, *CHECK)
    quiz.write_bytes(kept)
    me.before_again = {name: (me.work / f"{name}.ipynb").read_bytes() for name in NOTEBOOKS}
    me.runs["exercise again"] = make(me.clone, "exercise", "LAB=no")
    me.status = subprocess.run(["git", "status", "--porcelain", "--ignored=no"], cwd=me.clone, capture_output=True,
                               text=True, check=True).stdout
    return me


@pytest.fixture(scope="module")
def graded_class(learner, tmp_path_factory):
    """A class of two (the course kit): student `right` and student `wrong` hand in the notebooks the learner had
    graded in those runs; graded by `make autograde`'s driver, then given feedback."""
    place = trial_course.make_course(tmp_path_factory.mktemp("class") / "course")
    for run in ("right", "wrong"):
        for name in NOTEBOOKS:
            trial_course.write_submission(place, run, learner.handed[run][name], notebook=name)
    result = trial_course.autograde(place)
    assert result.returncode == 0, (place / "autograde.log").read_text()[-4000:]
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=place)
    return place


def printed(result):
    """{(indent, label): (score, out of)} of the table make check-exercise printed."""
    found = {}
    for line in result.stdout.splitlines():
        match = SCORE.match(line)
        if match:
            found[len(match.group(1)), match.group(2)] = (float(match.group(3)), float(match.group(4)))
    return found


def ran_cleanly(result):
    return "Traceback" not in result.stdout + result.stderr


def test_before_make_exercise_it_says_what_to_do(learner):
    result = learner.runs["nothing yet"]
    assert result.returncode != 0 and ran_cleanly(result)
    assert "There is no my-work/score_gradient/ yet: run `make exercise`" in result.stderr


def test_make_exercise_copies_the_student_version(learner):
    result = learner.runs["exercise"]
    assert result.returncode == 0, result.stderr
    assert "my-work/score_gradient/" in result.stdout
    assert learner.copied == {name: (ROOT / "release" / ASSIGNMENT / f"{name}.ipynb").read_bytes()
                              for name in NOTEBOOKS}


def test_make_exercise_again_keeps_the_answers(learner):
    result = learner.runs["exercise again"]
    assert result.returncode == 0 and result.stdout.count("already there") == len(NOTEBOOKS), result.stdout
    assert {name: (learner.work / f"{name}.ipynb").read_bytes() for name in NOTEBOOKS} == learner.before_again


def test_what_the_learner_makes_stays_out_of_git(learner):
    assert learner.status == ""


def test_a_file_that_is_not_a_notebook_gets_a_sentence(learner):
    result = learner.runs["not a notebook"]
    assert result.returncode != 0 and ran_cleanly(result)
    said = " ".join(result.stderr.split())
    assert "my-work/score_gradient/intuition_quiz.ipynb is not a notebook JupyterLab can open" in said, said


@pytest.mark.parametrize("run", ["right", "wrong"])
def test_the_printed_scores_are_the_class_s(learner, graded_class, run):
    result = learner.runs[run]
    assert result.returncode == 0 and ran_cleanly(result), result.stdout + result.stderr
    table = printed(result)
    scores = trial_course.scores(graded_class)[run]
    expected = {}
    for name in NOTEBOOKS:
        tops = trial_course.max_scores(graded_class, name)
        expected[0, f"{name}.ipynb"] = (sum(scores[g] for g in tops), sum(tops.values()))
    expected[0, "Total"] = tuple(map(sum, zip(*expected.values())))
    assert {key: value for key, value in table.items() if key[0] == 0} == expected
    # score_gradient.ipynb in two parts, 15 and 5 points graded here (part 1's opening announces 18: the written
    # derivation's 3 are graded by hand in a class, not here); only Step 2's answer is wrong in the second run, and
    # it is in part 1
    lost = trial_course.max_scores(graded_class)["by_hand_row"] - scores["by_hand_row"]
    parts = {label.split(":")[0]: value for (indent, label), value in table.items() if indent == 2}
    assert parts == {"Part 1": (15 - lost, 15), "Part 2": (5, 5)}
    assert lost == (2 if run == "wrong" else 0)


def test_only_the_checks_not_passed_are_listed_by_what_they_check(learner, graded_class):
    failed = [grade_id for grade_id, (kind, _) in trial_course.verdicts(graded_class, "wrong").items() if kind]
    assert failed == ["by_hand_row"]
    description = next(cells.docstring(cells.source(c)) for c in json.loads(trial_course.RELEASED.read_text())["cells"]
                       if cells.grade_id(c) == "by_hand_row")
    for run, listed in (("right", []), ("wrong", [f"not passed (0 of 2): {description}"])):
        said = " ".join(learner.runs[run].stdout.split())
        assert said.count("not passed") == len(listed) and all(line in said for line in listed), said


def test_the_full_marks_note_comes_only_after_full_marks(learner):
    assert "Full marks. The pages now say where the reference solution is" in learner.runs["right"].stdout
    assert "Full marks on intuition_quiz.ipynb" in learner.runs["wrong"].stdout
    for run, full in (("right", NOTEBOOKS), ("wrong", ("intuition_quiz",))):
        for name in NOTEBOOKS:
            page = (learner.pages[run] / f"{name}.html").read_text()
            assert ('id="full-marks"' in page) == (name in full), (run, name)
            assert (f"source/{ASSIGNMENT}/{name}.ipynb" in page) == (name in full), (run, name)


def test_the_note_names_the_reference_and_the_lesson_that_uses_it(learner):
    page = (learner.pages["right"] / f"{ASSIGNMENT}.html").read_text()
    assert REFERENCE in page and USES_IT in page
    assert "def score_gradient(A, G)" in (learner.clone / REFERENCE).read_text()  # the reference, where it is
    assert "score_gradient(A" in (learner.clone / USES_IT).read_text()


def test_neither_the_copies_nor_the_pages_hold_the_solution_or_a_hidden_test(learner):
    shown = {name: data.decode() for name, data in learner.copied.items()}
    shown.update({f"{run}/{path.name}": path.read_text() for run in ("right", "wrong")
                  for path in learner.pages[run].iterdir()})
    assert len(shown) == 3 * len(NOTEBOOKS)
    for where, text in shown.items():
        leaked = [s for s in SECRETS if s in text or s.replace("*", "&#42;") in text]
        assert not leaked, f"{where} shows {leaked}"


# ---- the pages in Chromium, beside the class's ---------------------------------------------------------------------
READ = """() => {
    const note = document.querySelector('#full-marks');
    const said = note ? note.innerText : null;
    if (note) note.remove();
    return {note: said, text: document.body.innerText};
}"""


def settled(text):
    """Page text without what changes from one grading run to the next, in a class too: the order of a printed set
    of letters, and the blank line between two pieces of one cell's output that the kernel sent apart."""
    text = re.sub(r"\{('[a-z]'(?:, '[a-z]')*)\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}",
                  text)
    return re.sub(r"\n\s*\n", "\n", text)


@pytest.fixture(scope="module")
def read_in_chromium(learner, graded_class):
    """{(who, run, notebook): what Chromium read on the page, and the requests it made}: who is `learner` (my-work
    pages) or `class` (the class's feedback for the student of that run)."""
    seen = {}
    with chromium(viewport=(1000, 800)) as first:
        context = first.context
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                      else route.abort())
        for run in ("right", "wrong"):
            for name in NOTEBOOKS:
                for who, path in (("learner", learner.pages[run] / f"{name}.html"),
                                  ("class", graded_class / "feedback" / run / ASSIGNMENT / f"{name}.html")):
                    requests, page = [], context.new_page()
                    page.on("request", lambda request: requests.append(request.url))
                    page.goto(path.as_uri(), wait_until="load")
                    seen[who, run, name] = dict(page.evaluate(READ), requests=requests)
                    page.close()
    return seen


PAGE_SCORE = re.compile(r"\(Score: (\d+(?:\.\d+)?) / (\d+(?:\.\d+)?) points?\)")
BY_HAND = re.compile(r"not graded here: (\d+(?:\.\d+)?) points?, graded by hand in a class")


def without_scores(text):
    """Page text with every score and every "not graded here" in its place as SCORE."""
    return BY_HAND.sub("SCORE", re.sub(r"Score: \d+(?:\.\d+)? / \d+(?:\.\d+)? points?", "SCORE", text))


@requires("browser")
@pytest.mark.parametrize("run", ["right", "wrong"])
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_page_reads_as_the_class_s_but_for_what_is_graded_by_hand(read_in_chromium, run, name):
    learner, taught = read_in_chromium["learner", run, name], read_in_chromium["class", run, name]
    assert taught["note"] is None
    assert settled(without_scores(learner["text"])) == settled(without_scores(taught["text"]))
    assert [url for url in learner["requests"] if not url.startswith(("file:", "data:"))] == []


@requires("browser")
def test_the_note_reads_full_marks_in_chromium(read_in_chromium):
    note = read_in_chromium["learner", "right", ASSIGNMENT]["note"]
    assert note.startswith("Full marks") and REFERENCE in note and USES_IT in note
    assert read_in_chromium["learner", "wrong", ASSIGNMENT]["note"] is None


@requires("browser")
@pytest.mark.parametrize("run", ["right", "wrong"])
def test_the_page_and_the_terminal_give_one_score(learner, read_in_chromium, run):
    table = printed(learner.runs[run])
    for name in NOTEBOOKS:
        text = read_in_chromium["learner", run, name]["text"]
        first = PAGE_SCORE.search(text)
        assert first, text[:500]
        assert (float(first.group(1)), float(first.group(2))) == table[0, f"{name}.ipynb"], (name, first.group(0))
        released = json.loads((ROOT / "release" / ASSIGNMENT / f"{name}.ipynb").read_text())["cells"]
        by_hand = [c for c in released if cells.is_solution(c) and cells.is_grade(c)]
        # the written derivation of score_gradient: named as not graded here, twice (the contents and its cell),
        # and the class's page gives it a score instead
        assert len(BY_HAND.findall(text)) == 2 * len(by_hand), name
        assert not BY_HAND.search(read_in_chromium["class", run, name]["text"])
    assert learner.runs[run].stdout.count("not graded here") == 1
