"""classroom.checks.measures in the student's own kernel (IPython, magics in the cell): the loop reading and the
memory peak still work on a function defined there."""
import linecache

import numpy as np

from classroom.checks.measures import peak_extra_bytes, python_loops

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


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
