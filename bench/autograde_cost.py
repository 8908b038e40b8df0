"""Autograding cost per submission of score_gradient, against the floor of autograding an empty notebook.

Both are measured in the same run, in throw-away course directories, with this repository's nbgrader_config.py and
the real `nbgrader autograde` command line: the floor is an assignment whose notebook has one empty code cell (so
the cost is nbgrader's own work plus one kernel start-up), the other is score_gradient with N correct submissions.
Goal: our checks add under 50 % to the floor.

    python bench/autograde_cost.py [N]        (N students per course, default 6)
"""
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import corpus_tools  # noqa: E402  (the same helpers the tests use to build courses and submissions)

EMPTY = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ""}],
         "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
         "nbformat": 4, "nbformat_minor": 4}


def timed_autograde(course, assignment):
    start = time.perf_counter()
    corpus_tools.nbgrader("autograde", assignment, "--force", cwd=course)
    return time.perf_counter() - start


def main(n=6):
    base = Path(tempfile.mkdtemp(prefix="bench-autograde-"))
    try:
        floor_course = base / "floor"
        (floor_course / "source" / "empty").mkdir(parents=True)
        shutil.copy(ROOT / "nbgrader_config.py", floor_course)
        (floor_course / "source" / "empty" / "empty.ipynb").write_text(json.dumps(EMPTY))
        corpus_tools.nbgrader("generate_assignment", "empty", "--force", cwd=floor_course)
        ours = corpus_tools.make_course(base / "ours")
        solution = (corpus_tools.SUBMISSIONS / "correct_keepdims.py").read_text()
        for i in range(n):
            folder = floor_course / "submitted" / f"s{i}" / "empty"
            folder.mkdir(parents=True)
            (folder / "empty.ipynb").write_text(json.dumps(EMPTY))
            corpus_tools.write_submission(ours, f"s{i}", corpus_tools.submission(solution))
        floors, costs = [], []
        for _ in range(3):  # alternate, and keep the best of three of each (the first run also warms caches)
            floors.append(timed_autograde(floor_course, "empty") / n)
            costs.append(timed_autograde(ours, corpus_tools.ASSIGNMENT) / n)
        floor, cost = min(floors), min(costs)
        print(f"students per course:                        {n} (best of 3 runs each, alternated)")
        print(f"floor (empty notebook, kernel start-up):    {floor:.2f} s per submission")
        print(f"score_gradient (display run + our checks):  {cost:.2f} s per submission")
        print(f"added by the assignment:                    {cost - floor:.2f} s = {100 * (cost - floor) / floor:.0f} % "
              "of the floor (goal: under 50 %)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
