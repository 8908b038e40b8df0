"""classroom.checks.loops: the static reading of the loops in the student's function and the helpers it uses, loops
in disguise included, and what is no loop over cells or rows."""
import pytest

from classroom.checks.loops import find_loops

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
