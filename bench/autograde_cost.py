"""Autograding cost per submitted notebook of the assignment, against the floor of autograding an empty notebook.

All are measured in the same run, in throw-away course directories, with this repository's nbgrader_config.py and
the real `nbgrader autograde` command line: the floor is an assignment whose notebook has one empty code cell (so
the cost is nbgrader's own work plus one kernel start-up); then N correct submissions of score_gradient.ipynb, and
N right answers to intuition_quiz.ipynb, each notebook graded on its own. Goal: our checks add under 50 % to the
floor.

    python bench/autograde_cost.py [N]        (N students per course, default 6)
"""
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import corpus_tools  # noqa: E402  (the same helpers the tests use to build courses and submissions)

EMPTY = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ""}],
         "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
         "nbformat": 4, "nbformat_minor": 4}


def right_quiz_answers():
    """The released quiz notebook with every answer cell set to the right answer (recovered from the bank)."""
    from attention_lesson.quiz import bank as quiz

    nb = json.loads((corpus_tools.RELEASED.parent / "intuition_quiz.ipynb").read_text())
    answers = quiz.recover_answers(quiz.load_bank())
    for cell in nb["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id", "")
        if cell["metadata"].get("nbgrader", {}).get("solution") and grade_id.startswith("answer_"):
            n = int(grade_id.split("_")[1])
            cell["source"] = f"answer_{n} = {answers[n]!r}"
    return nb


def main(n=6):
    base = Path(tempfile.mkdtemp(prefix="bench-autograde-"))
    try:
        floor_course = base / "floor"
        (floor_course / "source" / "empty").mkdir(parents=True)
        shutil.copy(ROOT / "nbgrader_config.py", floor_course)
        (floor_course / "source" / "empty" / "empty.ipynb").write_text(json.dumps(EMPTY))
        corpus_tools.nbgrader("generate_assignment", "empty", "--force", cwd=floor_course)
        exercise = corpus_tools.make_course(base / "exercise")
        quiz_course = corpus_tools.make_course(base / "quiz")
        corpus_tools.correct_class(exercise, n)
        for i in range(n):
            folder = floor_course / "submitted" / f"s{i}" / "empty"
            folder.mkdir(parents=True)
            (folder / "empty.ipynb").write_text(json.dumps(EMPTY))
            folder = quiz_course / "submitted" / f"s{i}" / corpus_tools.ASSIGNMENT
            folder.mkdir(parents=True)
            (folder / "intuition_quiz.ipynb").write_text(json.dumps(right_quiz_answers()))
        runs = {"floor": [], "exercise": [], "quiz": []}
        for _ in range(3):  # alternate, and keep the best of three of each (the first run also warms caches)
            runs["floor"].append(corpus_tools.timed_autograde(floor_course, "empty") / n)
            runs["exercise"].append(corpus_tools.timed_autograde(exercise, corpus_tools.ASSIGNMENT) / n)
            runs["quiz"].append(corpus_tools.timed_autograde(quiz_course, corpus_tools.ASSIGNMENT) / n)
        floor = min(runs["floor"])
        print(f"students per course:                        {n} (best of 3 runs each, alternated)")
        print(f"sandbox:                                    "
              f"{'bubblewrap' if corpus_tools.SANDBOXED else 'none (bubblewrap is not installed)'}")
        print(f"floor (empty notebook, kernel start-up):    {floor:.2f} s per submitted notebook")
        for name, label in (("exercise", "score_gradient.ipynb"), ("quiz", "intuition_quiz.ipynb")):
            cost = min(runs[name])
            print(f"{label + ':':<44}{cost:.2f} s per submitted notebook, {cost - floor:+.2f} s = "
                  f"{100 * (cost - floor) / floor:.0f} % over the floor (goal: under 50 %)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
