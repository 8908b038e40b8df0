"""The table of scores `make check-exercise` prints: each notebook, its parts (the level-2 headings of the released
notebook, "## Part 1: ..."), the checks not passed, and the answers a teacher grades by hand, whose points are left
out of the scores and of full marks.
"""
import json
import os
import re
import textwrap

from .. import cells
from . import released_folder

WIDTH = 80
POINTS = re.compile(r"\s*\((?:\d+(?:\.\d+)?) points?\)\s*$")


def released_cells(private, assignment, name):
    """The cells of one released notebook."""
    path = os.path.join(released_folder(private, assignment), f"{name}.ipynb")
    with open(path, encoding="utf-8") as file:
        return json.load(file)["cells"]


def part_headings(private, assignment, name):
    """{grade_id: the level-2 heading above it, or None} of one released notebook ("(5 points)" left out)."""
    heading, found = None, {}
    for cell in released_cells(private, assignment, name):
        if cell.get("cell_type") == "markdown":
            for line in cells.source(cell).splitlines():
                if line.startswith("## "):
                    heading = POINTS.sub("", line[3:].strip())
        if cells.is_grade(cell):
            found[cells.grade_id(cell)] = heading
    return found


def by_hand_points(private, assignment, name):
    """{grade_id: points} of the answers a teacher grades by hand in one released notebook (nbgrader's manually
    graded answers: answer cells with points, such as the written derivation)."""
    return {cells.grade_id(cell): float(cells.nbgrader(cell).get("points", 0))
            for cell in released_cells(private, assignment, name) if cells.is_grade(cell) and cells.is_solution(cell)}


def number(x):
    return f"{x:g}"


def line(label, score, top, indent=0):
    """One line of the table: the label, then the score right-aligned at WIDTH."""
    label = " " * indent + label
    score = f"{number(score)} / {number(top)}"
    return f"{label}  {score:>{max(WIDTH - len(label) - 2, len(score))}}"


def graded_here(summary, by_hand):
    """{notebook: the points graded here}: each notebook's, less those of the answers a teacher grades by hand."""
    return {name: top - sum(by_hand[name].values()) for name, top in summary.notebooks}


def table(summary, parts, by_hand):
    """The lines printed for one graded learner: each notebook, its parts, the checks not passed, the answers graded
    by hand in a class (not here, so their points are left out), the total."""
    learner = summary.students[0]
    tops = graded_here(summary, by_hand)
    out = []
    for name, _ in summary.notebooks:
        out.append(line(f"{name}.ipynb", learner.notebooks.get(name, 0.0), tops[name]))
        checks = [check for check in summary.checks if check.notebook == name]
        groups = {}
        for check in checks:
            groups.setdefault(parts[name].get(check.grade_id), []).append(check)
        for grade_id in by_hand[name]:
            groups.setdefault(parts[name].get(grade_id), [])
        for heading, group in groups.items():
            if len(groups) > 1:
                out.append(line(heading or "Before the first part", sum(learner.checks.get(c.key, 0.0) for c in group),
                                sum(c.points for c in group), indent=2))
            for check in group:
                got = learner.checks.get(check.key, 0.0)
                if got < check.points:
                    text = f"not passed ({number(got)} of {number(check.points)}): {check.description}"
                    out += textwrap.wrap(text, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 8)
            for grade_id, points in by_hand[name].items():
                if parts[name].get(grade_id) == heading:
                    text = (f"not graded here ({number(points)} points, graded by hand in a class): your written "
                            "answer; after full marks, compare it with the reference solution")
                    out += textwrap.wrap(text, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 8)
    out.append(line("Total", learner.raw_score, sum(tops.values())))
    return out
