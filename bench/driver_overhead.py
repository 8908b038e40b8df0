"""Cost of grading through `make autograde` (classroom.autograde: staging copy, transaction, record, lock, config
check) against plain `nbgrader autograde`, per submission, in one run.

One throw-away course with N correct submissions; best of R alternated runs of each, both with --force (every
submission graded). Also the driver's cost when nothing needs grading (the check that every grading still holds).

    python -m bench.driver_overhead [N] [R]      (from the repository root; default 6 students, 3 runs each)
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.arguments import students_and_runs
from coursekit import trial_course


def timed_driver(place, *flags):
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "classroom.autograde", trial_course.ASSIGNMENT, *trial_course.AUTOGRADE_FLAGS, *flags],
                   cwd=place, env=trial_course.nbgrader_env(), capture_output=True, check=True)
    return time.perf_counter() - start


def main(n=6, runs=3):
    with tempfile.TemporaryDirectory(prefix="bench-driver-") as scratch:
        place = trial_course.make_course(Path(scratch) / "course")
        trial_course.correct_class(place, n)
        timed_driver(place)  # warm caches, and the staging template made once
        plain, driver, idle = [], [], []
        for _ in range(runs):
            plain.append(trial_course.timed_autograde(place) / n)
            driver.append(timed_driver(place, "--force") / n)
            idle.append(timed_driver(place))
        p, d = min(plain), min(driver)
        print(f"students: {n}, best of {runs} alternated runs each")
        print(f"nbgrader autograde: {p:.3f} s per submission   make autograde: {d:.3f} s per submission   "
              f"ratio: {d / p:.2f}")
        print(f"make autograde with nothing to grade: {min(idle):.2f} s for the class")


if __name__ == "__main__":
    main(**students_and_runs(__doc__))
