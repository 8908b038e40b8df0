"""What the grader decides on comes from what the student's code cannot rewrite, and ordinary notebook habits cost
nothing: the static loop reading (classroom.checks.loops), IPython lines (classroom.trusted.ipython_cells), the
memory peak and the inputs read by the grader (classroom.trusted.child), the time of a whole submission
(classroom.trusted.proxy, verdict)."""
import linecache

import numpy as np
import pytest

from classroom.trusted import failures
from classroom.trusted.ipython_cells import as_python
from classroom.checks.loops import find_loops
from classroom.checks.measures import peak_extra_bytes, python_loops
from classroom.trusted.student_errors import StudentError
from classroom.trusted.proxy import StudentCode
from classroom.trusted.verdict import decide
from coursekit.course import LAUNCHER

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


def described(source, name="f"):
    return [what for _, what in find_loops(source, name)]


def test_a_self_test_loop_beside_the_function_is_not_the_functions_loop():
    self_test = GOOD + "sizes = [1, 2]\nfor T in sizes:\n    A = np.ones((T, T))\n    print([f(A, A) for _ in sizes])\n"
    assert described(self_test) == []
    assert described(self_test, name=None)  # read as a whole, the cell has loops


@pytest.mark.parametrize("source", [
    "def f(A, G):\n    return A * (G - np.add.reduce(A * G, axis=1, keepdims=True))\n",
    "def f(A, G):\n    A, G = (np.asarray(x, float) for x in (A, G))\n    return A * G\n",
    "def f(A, G):\n    A, G = map(np.asarray, (A, G))\n    return A * G\n",
    "def f(A, G):\n    return sum(A[i] for i in range(3)) + getattr(np, 'sum')(G)\n",
    "import inspect\nimport threading\ndef f(A, G):\n    return A * G\n"
    "print(inspect.signature(f), getattr(f, 'x' * 2, 0))\n"
    "def g():\n    return threading.Thread(target=f).start()\n",
])
def test_what_is_no_loop_over_cells_or_rows_is_not_read_as_one(source):
    assert described("import numpy as np\n" + source) == []


def test_the_helpers_the_function_uses_are_read_and_the_others_not():
    source = ("import numpy as np\ndef _rows(A):\n    return np.array([a.sum() for a in A])\n"
              "def _unused(A):\n    while True: pass\n"
              "def f(A, G):\n    return A * (G - _rows(A * G)[:, None])\n")
    assert described(source) == ["a list comprehension"]


@pytest.mark.parametrize("source, word", [
    ("each = map\ndef f(A, G):\n    return list(each(len, A))\n", "map()"),
    ("from itertools import starmap as s\ndef f(A, G):\n    return list(s(len, A))\n", "starmap"),
    ("def f(A, G, i=0):\n    return [] if i == len(A) else [A[i]] + f(A, G, i + 1)\n", "recursion"),
    ("def g(A, i):\n    return h(A, i)\ndef h(A, i):\n    return g(A, i + 1) if i else 0\ndef f(A, G):\n"
     "    return g(A, 3)\n", "recursion"),
    ("import sys\ndef f(A, G):\n    sys.settrace(None)\n    return A\n", "settrace"),
    ("import numpy as np\nnp.sum = len\ndef f(A, G):\n    return np.sum(A)\n", "a change to the module np"),
    ("import gc\ndef _h(A):\n    gc.collect()\ndef f(A, G):\n    return _h(A)\n", "the module gc"),
    ("def f(A, G, name='sum'):\n    return getattr(A, name)()\n", "getattr() with a name that is not written out"),
    ("import numpy as np\ndef f(A, G):\n    return np.fromiter(map(np.dot, A, G), float)\n", "map()"),
    ("from functools import reduce\ndef f(A, G):\n    return reduce(np.add, A)\n", "functools.reduce"),
    ("from concurrent.futures import ThreadPoolExecutor as P\npool = P(2)\nclass Box:\n    pass\nbox = Box()\n"
     "box.run = pool.submit\ndef f(A, G):\n    return box.run(len, A).result()\n", "the module concurrent"),
])
def test_loops_in_disguise_and_what_could_fool_the_count_are_read(source, word):
    assert any(word in what for what in described(source)), described(source)


def test_ipython_lines_become_python_that_runs_what_they_time():
    code, notes = as_python("x = 1\n%time y = x + 1\n!ls -la\nnp.sum?\n")
    namespace = {"get_ipython": lambda: type("Shell", (), {"__getattr__": lambda s, n: (lambda *a: None)})()}
    exec(code, namespace)
    assert namespace["y"] == 2 and len(code.splitlines()) == 4
    assert len(notes) == 1 and "!ls -la" in notes[0] and "np.sum?" in notes[0]
    assert as_python("%%time\ndef f():\n    return 1\n")[0].splitlines()[1:] == ["def f():", "    return 1"]
    assert as_python(GOOD) == (GOOD, [])


def test_in_the_students_kernel_the_measures_still_work():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()  # runs the cell as the kernel does, and keeps its code in linecache
    assert shell.run_cell(GOOD + "%time f(np.ones((2, 2)), np.ones((2, 2)))\n!true\n").success
    f = shell.user_ns["f"]
    assert "get_ipython()" in "".join(linecache.getlines(f.__code__.co_filename))  # the cell as the Python it ran
    assert python_loops(f) == []
    assert shell.run_cell("def g(A, G):\n    return np.array([a * b for a, b in zip(A, G)])\n"
                          "%time g(np.ones((2, 2)), np.ones((2, 2)))\n").success
    assert "line 2 of your solution cell uses a list comprehension" in python_loops(shell.user_ns["g"])
    A = np.full((50, 50), 1 / 50)
    assert 0 < peak_extra_bytes(f, A, A) < 2 ** 20


@pytest.mark.integration
def test_the_memory_peak_is_the_calls_not_the_cells():
    cell = GOOD + "big = np.ones(2 ** 26)\ndel big\nkept = np.ones(2 ** 24)\n" \
                  "def jacobian(A, G):\n    return np.ones((A.shape[0],) * 3).sum()\n"
    A = np.full((400, 400), 1 / 400)
    with StudentCode([cell], launcher=LAUNCHER) as code:
        assert code.lookup("f").peak_extra_bytes(A, A) < 32 * 2 ** 20
        assert code.lookup("jacobian").peak_extra_bytes(A, A) > 400 * 2 ** 20


@pytest.mark.integration
def test_writes_into_inputs_are_read_by_the_grader_not_reported_by_the_child():
    cheat = ("import sys\nimport numpy as np\nnp.save = lambda *a, **k: None\n"
             "def f(A):\n    A[0] = 7.0\n")
    with StudentCode([cheat], launcher=LAUNCHER) as code:
        A = np.zeros(3)
        code.lookup("f")(A)
        assert A.tolist() == [7.0, 0.0, 0.0]
        A.setflags(write=False)
        with pytest.raises(StudentError, match="read-only"):
            code.lookup("f")(A)


@pytest.mark.integration
def test_a_helper_from_another_cell_is_named_as_such():
    verdict = decide(["def f(A, G):\n    return _helper(A)\n"], [("c", "f(np.ones(2), np.ones(2))")],
                     launcher=LAUNCHER)["c"]
    assert verdict.kind == failures.RAISED
    assert "solution cell on its own" in verdict.message and "move it into the solution cell" in verdict.message


@pytest.mark.integration
def test_the_whole_submission_has_one_time_budget_and_says_what_it_did_not_reach():
    slow = "import time\ndef f():\n    start = time.process_time()\n    while time.process_time() < start + 2:\n" \
           "        pass\n    return 1\n"
    tests = [("first", "assert f() == 1"), ("second", "assert f() == 1")]
    verdicts = decide([slow], tests, launcher=LAUNCHER, total_seconds=1.0)
    assert [verdicts[g].kind for g in ("first", "second")] == [failures.TIMED_OUT] * 2
    assert "not finished" in verdicts["first"].message and "not reached" in verdicts["second"].message
    assert "1 s of CPU time" in verdicts["second"].message


@pytest.mark.integration
def test_the_grader_notes_the_ipython_lines_it_skipped():
    verdicts = decide([GOOD + "!ls\n"], [("c", "print('ok')")], launcher=LAUNCHER)
    assert verdicts["c"].passed and verdicts["c"].printed.startswith("Note from the grader") and "!ls" in \
        verdicts["c"].printed and verdicts["c"].printed.endswith("ok\n")


@pytest.mark.integration
def test_a_slow_call_says_at_which_T_and_that_memory_was_not_measured():
    """A finite loop slow at a large T: the real child's time-out, as the checks word it (issue 36)."""
    from classroom.checks import exercise

    slow = ("import time\nimport numpy as np\ndef f(A, G):\n    start = time.process_time()\n"
            "    while A.shape[0] > 100 and time.process_time() < start + 2:\n        pass\n    return A * G\n")
    with StudentCode([slow], launcher=LAUNCHER, call_timeout=0.5) as code:
        f = code.lookup("f")
        with pytest.raises(StudentError) as failed:
            exercise.small_peak(f, 200, 1, 32 * 2 ** 20, peak_extra_bytes)
    assert failed.value.kind == failures.TIMED_OUT
    said = str(failed.value)
    assert said.startswith("at T = 200, your function used more than 0.5 s of CPU time in one call"), said
    assert said.endswith("so its memory could not be measured"), said
