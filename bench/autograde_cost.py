"""Autograding cost per submitted notebook of the assignment, against the floor of autograding an empty notebook.

All are measured in the same run, in throw-away course directories, with this repository's nbgrader_config.py and
the real `nbgrader autograde` command line: the floor is an assignment whose notebook has one empty code cell (so
the cost is nbgrader's own work plus one kernel start-up); then N correct submissions of score_gradient.ipynb, and
N right answers to intuition_quiz.ipynb, each notebook graded on its own. Goal: each costs at most 1.5 times the
floor (our checks add at most 50 %).

    python -m bench.autograde_cost [N]        (from the repository root; N students per course, default 6)
"""
import argparse
import json
import shutil
import tempfile
from pathlib import Path

from coursekit import trial_course
from coursekit.quiz.answers import right_quiz_notebook

GOAL = 1.5  # times the floor
EMPTY = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ""}],
         "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
         "nbformat": 4, "nbformat_minor": 4}


def floor_course(path, n):
    """A course whose one assignment, `empty`, is one empty code cell, handed in by n students."""
    (path / "source" / "empty").mkdir(parents=True)
    shutil.copy(trial_course.ROOT / "nbgrader_config.py", path)
    (path / "source" / "empty" / "empty.ipynb").write_text(json.dumps(EMPTY))
    trial_course.nbgrader("generate_assignment", "empty", "--force", cwd=path)
    for i in range(n):
        trial_course.write_submission(path, f"s{i}", EMPTY, notebook="empty", assignment="empty")
    return path


def main(n=6):
    with tempfile.TemporaryDirectory(prefix="bench-autograde-") as scratch:
        base = Path(scratch)
        floor = floor_course(base / "floor", n)
        exercise = trial_course.make_course(base / "exercise")
        trial_course.correct_class(exercise, n)
        quiz = trial_course.make_course(base / "quiz")
        for i in range(n):
            trial_course.write_submission(quiz, f"s{i}", right_quiz_notebook(), notebook="intuition_quiz")
        runs = {"floor": [], "exercise": [], "quiz": []}
        for _ in range(3):  # alternate, and keep the best of three of each (the first run also warms caches)
            runs["floor"].append(trial_course.timed_autograde(floor, "empty") / n)
            runs["exercise"].append(trial_course.timed_autograde(exercise) / n)
            runs["quiz"].append(trial_course.timed_autograde(quiz) / n)
        least = min(runs["floor"])
        print(f"students per course:                        {n} (best of 3 runs each, alternated)")
        print(f"sandbox:                                    "
              f"{'bubblewrap' if trial_course.SANDBOXED else 'none (bubblewrap is not installed)'}")
        print(f"floor (empty notebook, kernel start-up):    {least:.2f} s per submitted notebook")
        for name, label in (("exercise", "score_gradient.ipynb"), ("quiz", "intuition_quiz.ipynb")):
            cost = min(runs[name])
            print(f"{label + ':':<44}{cost:.2f} s per submitted notebook = {cost / least:.2f} x the floor "
                  f"(goal: at most {GOAL:.2f} x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=6, help="students per course (default: %(default)s)")
    main(**vars(parser.parse_args()))
