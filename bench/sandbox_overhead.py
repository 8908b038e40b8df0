"""Cost of the bubblewrap sandbox: autograding per submission, sandboxed against unsandboxed, in one run.

One throw-away course with N correct submissions of score_gradient.ipynb; the real `nbgrader autograde --force`
alternates between the sandbox (the default) and `--Grader.launcher_class=unsandboxed`, best of R runs each.
Goal: under 20 %.

    python -m bench.sandbox_overhead [N] [R]      (from the repository root; default 6 students, 3 runs each)
"""
import sys
import tempfile
from pathlib import Path

from bench.arguments import students_and_runs
from coursekit import trial_course


def main(n=6, runs=3):
    if not trial_course.SANDBOXED:
        sys.exit("bubblewrap (bwrap) is not installed, so there is no sandbox to measure: apt-get install bubblewrap")
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as scratch:
        base = Path(scratch)
        place = trial_course.make_course(base / "course")
        trial_course.correct_class(place, n)
        trial_course.timed_autograde(place)  # warm caches
        plain, boxed = [], []
        for _ in range(runs):
            plain.append(trial_course.timed_autograde(place, trial_course.ASSIGNMENT, "--Grader.launcher_class=unsandboxed") / n)
            boxed.append(trial_course.timed_autograde(place) / n)
        p, b = min(plain), min(boxed)
        print(f"students: {n}, best of {runs} alternated runs each")
        print(f"unsandboxed: {p:.3f} s per submission   sandboxed: {b:.3f} s per submission   "
              f"overhead: {b - p:+.3f} s = {100 * (b - p) / p:.1f} % (goal: under 20 %)")


if __name__ == "__main__":
    main(**students_and_runs(__doc__))
