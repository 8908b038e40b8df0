"""What a check can pass to and get from a student's function in the grading child (INSTRUCTORS.md, "Writing
checks"), against the real child (in the sandbox where bubblewrap is installed): nbgrader's idioms grade a correct
answer in full, plain data (a generator's values too) crosses both ways without pickle, what cannot cross is named and
blamed on whom it belongs to, and the assignment's files and folders are there."""
import pytest

from classroom.trusted import failures
from classroom.trusted.student_errors import StudentError, raised
from classroom.trusted.verdict import decide
from coursekit.trial_course import LAUNCHER

# nbgrader's own example problem (its docs' ps1 and its tests' test.ipynb), as a correct student writes it
SQUARES = '''def squares(n):
    """Compute the squares of numbers from 1 to n."""
    if n < 1:
        raise ValueError("n must be greater than or equal to 1")
    return [i ** 2 for i in range(1, n + 1)]
'''
VALUE_ERROR_IDIOM = '''"""Check that squares raises an error for invalid inputs"""
try:
    squares(0)
except ValueError:
    pass
else:
    raise AssertionError("did not raise")
'''


def grade(cells, tests, **limits):
    return decide(cells, list(tests.items()), launcher=LAUNCHER, **limits)


def test_a_student_error_is_also_the_builtin_exception_it_is_or_derives_from():
    assert isinstance(raised("ValueError", "bad n"), ValueError) and isinstance(raised("ValueError", "x"), StudentError)
    own = raised("Bad", "no key", base="KeyError")
    assert isinstance(own, KeyError) and str(own) == "your function raised Bad: no key"
    memory = raised("MemoryError", "")
    assert memory.kind == failures.OUT_OF_MEMORY and isinstance(memory, MemoryError)
    for name in ("AssertionError", "SystemExit", "KeyboardInterrupt", "StopIteration", "NoSuchError"):
        assert type(raised(name, "x", base=name)) is StudentError, name  # never a check's failure, nor an exit


@pytest.mark.integration
def test_nbgraders_value_error_idiom_grades_the_reference_in_full_and_a_wrong_answer_not():
    right = grade([SQUARES], {"squares_invalid_input": VALUE_ERROR_IDIOM, "correct": "assert squares(3) == [1, 4, 9]"})
    assert all(verdict.passed for verdict in right.values()), right
    silent = SQUARES.replace('raise ValueError("n must be greater than or equal to 1")', "return []")
    wrong = grade([silent], {"squares_invalid_input": VALUE_ERROR_IDIOM})["squares_invalid_input"]
    assert wrong.kind == failures.CHECK_FAILED and "did not raise" in wrong.message


@pytest.mark.integration
def test_a_students_own_exception_class_is_caught_as_its_builtin_base_and_an_unexpected_one_is_theirs():
    code = "class Missing(KeyError):\n    pass\ndef lookup(key):\n    raise Missing(key)\n"
    verdicts = grade([code], {
        "caught": "try:\n    lookup('a')\nexcept KeyError as error:\n    assert 'Missing' in str(error)\n"
                  "else:\n    raise AssertionError('no error')\n",
        "unexpected": "assert lookup('a') == 1\n"})
    assert verdicts["caught"].passed, verdicts["caught"]
    assert verdicts["unexpected"].kind == failures.RAISED and "raised Missing" in verdicts["unexpected"].message


@pytest.mark.integration
def test_strings_lists_tuples_sets_and_dicts_reach_the_function_and_come_back_with_their_types():
    code = ('def letter_counts(text):\n    counts = {}\n    for letter in text:\n'
            '        counts[letter] = counts.get(letter, 0) + 1\n    return counts\n'
            'def echo(value):\n    return value\n'
            'def shout(words):\n    return [word.upper() for word in words]\n'
            'def add_one(items):\n    items.append(1)\n    return len(items)\n')
    verdicts = grade([code], {
        "counts": 'assert letter_counts("aab") == {"a": 2, "b": 1}\n',
        "nested": 'value = {"k": [1, 2.5, ("t", None)], 3: {"x", "y"}, (1, 2): frozenset({2 ** 70})}\n'
                  'back = echo(value)\nassert back == value and type(back[(1, 2)]) is frozenset\n'
                  'assert type(back["k"][0]) is int and type(back["k"][2]) is tuple\n',
        "words": 'assert shout(["a", "b"]) == ["A", "B"]\n',
        "copies": 'items = []\nassert add_one(items) == 1 and items == []  # a list reaches the function as a copy\n',
        "array_inside": 'import numpy as np\nback = echo([np.arange(3), np.float32(0.5)])\n'
                        'assert (back[0] == np.arange(3)).all() and type(back[1]) is np.float32\n'})
    assert {name: verdict.kind for name, verdict in verdicts.items()} == dict.fromkeys(verdicts), verdicts


@pytest.mark.integration
def test_what_plain_data_cannot_carry_is_refused_by_name_and_blamed_on_whom_it_belongs_to():
    """An object the student's code returns is theirs (WrongType); a function or an object a check passes, or a name
    only a cell of the assignment's own defines, is the assignment's (AssignmentFailed, which asks for a look)."""
    code = "class Point:\n    pass\ndef make():\n    return Point()\ndef echo(value):\n    return value\n"
    verdicts = grade([code], {"returned": "assert make().x == 1\n", "passed": "echo(object())\n",
                              "lambda": "echo(lambda v: v)\n", "endless": "import itertools\necho(itertools.count())\n",
                              "helper": "assert echo(close(1, 1))\n"}, assignment_names={"close"})
    assert verdicts["returned"].kind == failures.WRONG_TYPE and "Point" in verdicts["returned"].message
    for name in ("passed", "lambda", "endless"):
        assert verdicts[name].kind == failures.ASSIGNMENT_FAILED and "plain data" in verdicts[name].message, name
        assert "not your mistake" in verdicts[name].message
    assert "function" in verdicts["lambda"].message and "generator of more than" in verdicts["endless"].message
    assert verdicts["helper"].kind == failures.ASSIGNMENT_FAILED and "`close`" in verdicts["helper"].message


@pytest.mark.integration
def test_a_generators_values_cross_both_ways():
    code = ("def evens(n):\n    for k in range(n):\n        yield 2 * k\n"
            "def first(items, n):\n    return [next(items) for _ in range(n)]\n")
    verdicts = grade([code], {
        "returned": "gen = evens(4)\nassert next(gen) == 0 and list(gen) == [2, 4, 6]\n",
        "passed": "assert first((k * k for k in range(5)), 3) == [0, 1, 4]\n"})
    assert all(verdict.passed for verdict in verdicts.values()), verdicts


@pytest.mark.integration
def test_the_assignments_data_files_are_in_the_grading_childs_folder_and_its_notebooks_are_not(tmp_path):
    (tmp_path / "answer.txt").write_text("42\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "rows.csv").write_text("3\n4\n")
    (tmp_path / "helpers.py").write_text("def total(path):\n    return sum(int(x) for x in open(path))\n")
    (tmp_path / "p1.ipynb").write_text("{}")  # the notebooks hold the tests: never given to the student's code
    code = ('import os\nimport helpers\ndef answer():\n    with open("answer.txt") as file:\n        return int(file.read())\n'
            'def notebooks():\n    return sorted(name for name in os.listdir(".") if name.endswith(".ipynb"))\n'
            'def rows():\n    return helpers.total("data/rows.csv")\n')
    verdicts = grade([code], {"reads": "assert answer() == 42\n", "no_notebook": "assert notebooks() == []\n",
                              "sub_folder_and_module": "assert rows() == 7\n"}, data_folder=str(tmp_path))
    assert all(verdict.passed for verdict in verdicts.values()), verdicts
    missing = grade([code.replace("import helpers\n", "")], {"reads": "assert answer() == 42\n"})["reads"]
    assert missing.kind == failures.RAISED and "FileNotFoundError" in missing.message
