"""Assignments written the way real nbgrader courses write them, for grading side by side (side_by_side.py): plain
`assert`s, `nose.tools` and `numpy.testing`; partial credit a grade cell prints; data in a sub-folder and a helper module
beside the notebook; imports and helpers in ordinary and locked cells; hidden tests; nbgrader's own `del squares`
idiom; a generator, a lambda and a matplotlib axis passed to the student's code; a later answer that redefines an
earlier one; task and hand-graded cells; a slow instructor cell; and notebooks that carry the metadata old nbgrader
versions wrote on every cell. None of them imports classroom.checks: our grading must grade them as nbgrader does.

Each assignment is {notebook: [cell]} plus its files; each hand-in is {notebook: {grade_id of an answer cell: the
student's source}} applied to the release ("blank" is the release as it is, "correct" the source notebook itself,
as nbgrader's documentation checks an assignment).
"""
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

KERNEL = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
          "language_info": {"name": "python"}}
# What nbgrader's toolbar of old versions left on every cell, as `nbgrader update` brings it to schema 3: no grade id.
OLD_METADATA = {"grade": False, "locked": False, "schema_version": 3, "solution": False}


def _meta(grade_id, *, grade=False, solution=False, locked=False, task=False, points=None):
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution,
            "task": task}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def answer(grade_id, source):
    return new_code_cell(source, metadata=_meta(grade_id, solution=True))


def check(grade_id, points, source):
    return new_code_cell(source, metadata=_meta(grade_id, grade=True, locked=True, points=points))


def locked(grade_id, source):
    """A cell of the instructor's that the student cannot edit and that is not graded."""
    return new_code_cell(source, metadata=_meta(grade_id, locked=True))


def written(grade_id, points, source):
    """A Markdown answer graded by hand."""
    return new_markdown_cell(source, metadata=_meta(grade_id, grade=True, solution=True, points=points))


def task(grade_id, points, source):
    return new_markdown_cell(source, metadata=_meta(grade_id, task=True, locked=True, points=points))


def old(cell):
    cell.metadata["nbgrader"] = dict(OLD_METADATA)
    return cell


def notebook(cells):
    return new_notebook(cells=cells, metadata=KERNEL)


PROBLEM1 = notebook([
    new_markdown_cell("# Problem 1: squares\n\nWrite the two functions below; the cells after each one check it."),
    answer("squares", 'def squares(n):\n    """The squares of the numbers 1 to n, as a list; ValueError if n < 1."""\n'
                      "    ### BEGIN SOLUTION\n    if n < 1:\n        raise ValueError(\"n must be at least 1\")\n"
                      "    return [i ** 2 for i in range(1, n + 1)]\n    ### END SOLUTION"),
    new_code_cell("squares(10)"),
    check("correct_squares", 1, '"""squares returns the right list"""\nfrom nose.tools import assert_equal\n'
                                "assert_equal(squares(1), [1])\nassert_equal(squares(2), [1, 4])\n"
                                "assert_equal(squares(10), [1, 4, 9, 16, 25, 36, 49, 64, 81, 100])"),
    check("squares_invalid_input", 1, '"""squares refuses n < 1"""\nfrom nose.tools import assert_raises\n'
                                      "assert_raises(ValueError, squares, 0)\nassert_raises(ValueError, squares, -4)"),
    new_markdown_cell("Now use `squares` to write `sum_of_squares`."),
    answer("sum_of_squares", 'def sum_of_squares(n):\n    """The sum of the squares of 1 to n."""\n'
                             "    ### BEGIN SOLUTION\n    return sum(squares(n))\n    ### END SOLUTION"),
    check("correct_sum_of_squares", 1, '"""sum_of_squares adds them up"""\nassert_equal(sum_of_squares(1), 1)\n'
                                       "assert_equal(sum_of_squares(2), 5)\n### BEGIN HIDDEN TESTS\n"
                                       "assert_equal(sum_of_squares(10), 385)\nassert_equal(sum_of_squares(11), 506)\n"
                                       "### END HIDDEN TESTS"),
    check("sum_of_squares_uses_squares", 1, '"""sum_of_squares calls squares"""\norig_squares = squares\n'
                                            "del squares\ntry:\n    assert_raises(NameError, sum_of_squares, 1)\n"
                                            "except AssertionError:\n"
                                            '    raise AssertionError("sum_of_squares does not use squares")\n'
                                            "finally:\n    squares = orig_squares"),
    written("cost_in_words", 2, "How many multiplications does `sum_of_squares(n)` do?\n\n### BEGIN SOLUTION\n"
                                "One per number: n multiplications.\n### END SOLUTION"),
    task("plot_task", 1, "**Task (graded by hand):** plot `squares(20)` in a cell of your own, with labelled axes."),
])

TEMPERATURES = "day,celsius\n" + "".join(f"{day},{c}\n" for day, c in enumerate(
    [11.5, 12.0, 14.5, 9.0, 13.0, 15.5, 12.0, 12.5]))
HELPERS = '''"""What problem 2 ships beside the notebook."""
import csv


def read_column(path, name):
    """One column of a CSV file, as floats."""
    with open(path, newline="") as handle:
        return [float(row[name]) for row in csv.DictReader(handle)]
'''
PROBLEM2 = notebook([
    new_markdown_cell("# Problem 2: a week of temperatures\n\nThe readings are in `data/temperatures.csv`."),
    new_code_cell("import numpy as np\nimport helpers"),
    locked("load_readings", "# Run this cell: it reads the week's readings and defines `close`.\n"
                            'celsius = np.array(helpers.read_column("data/temperatures.csv", "celsius"))\n\n\n'
                            "def close(a, b, tol=1e-9):\n    return abs(a - b) <= tol"),
    answer("to_fahrenheit", "def to_fahrenheit(c):\n    ### BEGIN SOLUTION\n    return c * 9 / 5 + 32\n"
                            "    ### END SOLUTION"),
    check("fahrenheit_values", 1, "np.testing.assert_allclose(to_fahrenheit(np.array([0.0, 100.0])), [32.0, 212.0])"),
    answer("weekly_summary", 'def weekly_summary(values):\n    """{"mean": ..., "max": ..., "min": ...}"""\n'
                             "    ### BEGIN SOLUTION\n"
                             '    return {"mean": float(np.mean(values)), "max": float(np.max(values)),\n'
                             '            "min": float(np.min(values))}\n    ### END SOLUTION'),
    check("summary_partial", 2, '"""One point for the mean, one for the extremes"""\n'
                                "summary = weekly_summary(celsius)\nscore = 0\n"
                                'if close(summary["mean"], celsius.mean()):\n    score += 1\n'
                                'if close(summary["max"], celsius.max()) and close(summary["min"], celsius.min()):\n'
                                "    score += 1\nscore"),
    locked("simulate_year", "# Simulating a year of readings takes a few seconds.\nimport time\n\ntime.sleep(6)\n"
                            "year = np.tile(celsius, 52)\nprint(len(year), 'readings')"),
    answer("warmest_day", "def warmest_day(values):\n    ### BEGIN SOLUTION\n    return int(np.argmax(values)) % 8\n"
                          "    ### END SOLUTION"),
    check("warmest_day_check", 1, "assert warmest_day(celsius) == 5\n### BEGIN HIDDEN TESTS\n"
                                  "assert warmest_day(year) == 5\n### END HIDDEN TESTS"),
])

FUNCTIONS = notebook([
    old(new_markdown_cell("# Lab 2: functions that take functions\n\nRun every cell in order.")),
    old(new_code_cell("%matplotlib inline\nimport matplotlib.pyplot as plt\nimport types")),
    answer("apply_twice", "def apply_twice(f, x):\n    ### BEGIN SOLUTION\n    return f(f(x))\n    ### END SOLUTION"),
    check("apply_twice_lambda", 1, 'assert apply_twice(lambda v: v + 3, 1) == 7\nassert apply_twice(str.upper, "a") == "A"'),
    answer("first_n", "def first_n(iterable, n):\n    ### BEGIN SOLUTION\n    out = []\n    for item in iterable:\n"
                      "        if len(out) == n:\n            break\n        out.append(item)\n    return out\n"
                      "    ### END SOLUTION"),
    check("first_n_generator", 1, "def naturals():\n    k = 0\n    while True:\n        yield k\n        k += 1\n\n\n"
                                  "assert first_n(naturals(), 4) == [0, 1, 2, 3]\n"
                                  'assert first_n(iter("abc"), 5) == ["a", "b", "c"]'),
    answer("running_mean", "def running_mean(values):\n    ### BEGIN SOLUTION\n    total = 0\n"
                           "    for count, value in enumerate(values, 1):\n        total += value\n"
                           "        yield total / count\n    ### END SOLUTION"),
    check("running_mean_is_lazy", 1, "means = running_mean([2, 4, 6])\n"
                                     "assert isinstance(means, types.GeneratorType)\n"
                                     "assert list(means) == [2.0, 3.0, 4.0]"),
    old(new_markdown_cell("A first `normalise`: divide by the total.")),
    answer("normalise", "def normalise(xs):\n    ### BEGIN SOLUTION\n    total = sum(xs)\n"
                        "    return [x / total for x in xs]\n    ### END SOLUTION"),
    check("normalise_sums_to_one", 1, "assert abs(sum(normalise([1, 2, 5])) - 1) < 1e-12"),
    old(new_markdown_cell("Now define `normalise` again so that it also takes an empty list.")),
    answer("normalise_again", "def normalise(xs):\n    ### BEGIN SOLUTION\n    if not xs:\n        return []\n"
                              "    total = sum(xs)\n    return [x / total for x in xs]\n    ### END SOLUTION"),
    check("normalise_empty_list", 1, "assert normalise([]) == []\nassert normalise([2, 2]) == [0.5, 0.5]"),
    answer("plot_histogram", "def plot_histogram(ax, values):\n    ### BEGIN SOLUTION\n    ax.hist(values)\n"
                             '    ax.set_xlabel("value")\n    ax.set_ylabel("count")\n    ### END SOLUTION'),
    check("histogram_axes", 1, "fig, ax = plt.subplots()\nplot_histogram(ax, [1, 2, 2, 3, 3, 3])\n"
                               'assert len(ax.patches) > 0, "no bars were drawn"\n'
                               'assert ax.get_xlabel(), "label the x axis"\nplt.close(fig)'),
])

BONUS = notebook([
    answer("double", "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
    check("double_with_bonus", 2, "points = 0\nif double(2) == 4:\n    points += 2\n"
                                  "if double(-1) == -2:\n    points += 1  # a bonus point the cell cannot hold\npoints"),
])

# assignment: ({notebook: nbformat notebook}, {file path in the assignment: text})
ASSIGNMENTS = {
    "ps1": ({"problem1": PROBLEM1, "problem2": PROBLEM2},
            {"helpers.py": HELPERS, "data/temperatures.csv": TEMPERATURES}),
    "lab2": ({"functions": FUNCTIONS}, {}),
    "bonus": ({"bonus": BONUS}, {}),
}

# assignment: {student: {notebook: {answer cell's grade id: the student's source}}}; "blank" hands in the release and
# "correct" the source notebook (see side_by_side.hand_in).
WRONG = {
    "ps1": {"problem1": {"squares": "def squares(n):\n    return [i ** 2 for i in range(n)]",
                         "sum_of_squares": "def sum_of_squares(n):\n    return sum(i * i for i in range(1, n + 1))"},
            "problem2": {"to_fahrenheit": "def to_fahrenheit(c):\n    return c * 9 / 5",
                         "weekly_summary": "def weekly_summary(values):\n"
                                           '    return {"mean": float(np.mean(values)), "max": 0.0, "min": 0.0}',
                         "warmest_day": "def warmest_day(values):\n    return int(np.argmin(values))"}},
    "lab2": {"functions": {
        "apply_twice": "def apply_twice(f, x):\n    return f(x)",
        # loops for ever when the iterable is shorter than n: the check's cell runs into its time limit
        "first_n": "def first_n(iterable, n):\n    it = iter(iterable)\n    out = []\n    while len(out) < n:\n"
                   "        try:\n            out.append(next(it))\n        except StopIteration:\n            pass\n"
                   "    return out",
        "running_mean": "def running_mean(values):\n    out, total = [], 0\n"
                        "    for count, value in enumerate(values, 1):\n        total += value\n"
                        "        out.append(total / count)\n    return out",
        "normalise": "def normalise(xs):\n    return [x / len(xs) for x in xs]",
        "normalise_again": "def normalise(xs):\n    if not xs:\n        return []\n    total = sum(xs)\n"
                           "    return [x / total for x in xs]",
        "plot_histogram": "def plot_histogram(ax, values):\n    ax.hist(values)"}},
    "bonus": {"bonus": {"double": "def double(x):\n    return x + 2"}},
}
STUDENTS = ("correct", "blank", "wrong")
