"""How long each lesson notebook takes beyond starting a kernel (goal: under 2 s each on a 2-core machine).

    .venv/bin/python -m bench.notebook_runtime [--repeats 3]      (or: make bench)

Each notebook is executed in a fresh kernel, exactly as nbval and a student's "Restart and run all" do,
alternating with an empty notebook so that both see the same machine load. It prints the median wall
time of each, and the difference: the notebook's own cost.
"""
import argparse
import statistics
import time

import nbformat
from nbclient import NotebookClient

from coursekit.repository import LESSON_NOTEBOOKS, ROOT


def execute_seconds(nb, folder):
    nb = nbformat.from_dict(nbformat.from_dict(nb))  # a private copy
    start = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each notebook (median is reported)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    folder = ROOT / "notebooks"
    empty = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("pass")])
    print(f"{'notebook':<48} {'median s':>9} {'empty s':>8} {'own cost s':>11}")
    for path in LESSON_NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        own, floor = [], []
        for _ in range(args.repeats):
            floor.append(execute_seconds(empty, folder))
            own.append(execute_seconds(nb, folder))
        m, f = statistics.median(own), statistics.median(floor)
        print(f"{path.name:<48} {m:9.2f} {f:8.2f} {m - f:11.2f}", flush=True)


if __name__ == "__main__":
    main()
