"""Grading a class at scale: one class of N submissions graded one at a time, with JOBS=2 (two grader
processes on this machine) and on two Dask workers, side by side in one run: the cost per submission, the speed-ups,
and what they project for a class of 1,000.

The class: mostly right work, some wrong, and a few functions that never return (each runs into the time limits:
INSTRUCTORS.md, Limits). Every mode grades the whole class with --force, on the same course, after one warm-up run
that makes the staging gradebook (so no mode pays for it). The machine's load is printed before and after: on a
shared machine the figures move with it.

    python -m bench.autograde_scale [N] [HANGING]     (from the repository root; default 60 students, 3 hanging)
"""
import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from coursekit import trial_course
from coursekit import grading_runs as runs

STUDENTS, SERVER_CORES, MACHINES, CLASS = 60, 32, 4, 1000


def hand_in_class(place, n, hanging):
    kinds = ["hangs"] * hanging + [("wrong" if i % 4 == 3 else "right") for i in range(n - hanging)]
    runs.hand_in(place, {f"s{i:03d}": kind for i, kind in enumerate(kinds)})
    return kinds


def timed(place, *flags):
    """(wall seconds, CPU seconds of the driver and its own processes) of one `make autograde` run."""
    start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    graded = trial_course.autograde(place, *flags)
    assert graded.returncode == 0, graded.stderr[-3000:]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - start, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime


def load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main(n=STUDENTS, hanging=3):
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as scratch:
        place = trial_course.make_course(Path(scratch) / "course")
        kinds = hand_in_class(place, n, hanging)
        timed(place, "--student", "s000")  # the staging gradebook is made once, outside the timings
        print(f"class: {n} submissions ({kinds.count('right')} right, {kinds.count('wrong')} wrong, "
              f"{hanging} that never return); {os.cpu_count()} cores; before: {load()}")
        results = {"serial (--jobs 1)": timed(place, "--force", "--jobs", "1"),
                 "JOBS=2 (--jobs 2)": timed(place, "--force", "--jobs", "2")}
        with runs.dask_cluster(scratch) as (address, _):
            results["2 Dask workers"] = timed(place, "--force", "--scheduler", address)
        idle_wall, idle_cpu = timed(place)  # nothing left to grade: the driver's fixed cost
        print(f"after: {load()}")
        serial = results["serial (--jobs 1)"][0]
        for mode, (wall, _) in results.items():
            print(f"{mode:20s} {wall:7.1f} s   {wall / n:5.2f} s per submission   speed-up {serial / wall:4.2f}x")
        # On Dask the driver stages nothing: its CPU time beyond a run with nothing to grade is the commits.
        commit = max(results["2 Dask workers"][1] - idle_cpu, 0) / n
        print(f"the driver alone: {idle_wall:.1f} s for a run with nothing to grade; committing {commit:.2f} s of CPU "
              "per submission (one at a time, whatever the number of graders)")
        cost = serial / n
        # the share of each core that grading got (at most all of it: a load that changes between the modes can
        # make the speed-up look better than 2 on two cores)
        use = min(1.0, max(serial / wall for wall, _ in results.values()) / 2)
        project = lambda cores: max(CLASS * cost / (cores * use if cores > 1 else 1), CLASS * commit) + idle_wall
        print(f"Projection for {CLASS} students, from {cost:.2f} s per submission on one core, each core used as "
              f"well as here ({use:.0%}), and commits one at a time: one core {project(1) / 60:.0f} min; a "
              f"{SERVER_CORES}-core server (JOBS={SERVER_CORES}) {project(SERVER_CORES) / 60:.1f} min; a "
              f"{MACHINES}-machine Dask cluster of {SERVER_CORES}-core machines "
              f"{project(MACHINES * SERVER_CORES) / 60:.1f} min, of 2-core machines like this one "
              f"{project(MACHINES * 2) / 60:.1f} min.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=STUDENTS, help="students in the class (default: %(default)s)")
    parser.add_argument("hanging", nargs="?", type=int, default=3,
                        help="of them whose function never returns (default: %(default)s)")
    main(**vars(parser.parse_args()))
