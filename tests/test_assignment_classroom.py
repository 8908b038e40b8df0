"""Plain tests of the classroom package's pieces (the grading machinery behind the score_gradient assignment)."""
import numpy as np
import pytest
from nbformat.v4 import new_code_cell

from classroom import loops
from classroom.preprocessors import SanitizeFeedback, decide
from classroom.student import ForeignObject, StudentCode, StudentError
from corpus_tools import SANDBOXED

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


def test_static_loop_finder_sees_loops_not_comments():
    assert loops.find_loops(GOOD + "# for every row, while we are here\n") == []
    found = [what for _, what in loops.find_loops(
        "def f(A):\n    for i in A: pass\n    while 0: pass\n    [a for a in A]\n    np.vectorize(len)\n"
        "    list(map(abs, A))\n    exec('1')\n")]
    assert len(found) == 6 and any("vectorize" in w for w in found) and any("exec" in w for w in found)


def test_a_call_returns_plain_data_and_copies_writes_back():
    with StudentCode("def f(A):\n    A += 1\n    return A.tolist()\n", sandboxed=SANDBOXED) as code:
        f = code.lookup("f")
        A = np.zeros(2)
        assert f(A) == [1.0, 1.0] and A.tolist() == [1.0, 1.0]
        A.setflags(write=False)
        with pytest.raises(StudentError, match="read-only"):
            f(A)


def test_a_lying_object_cannot_cross_to_the_grader():
    with StudentCode("class Yes:\n    __eq__ = lambda s, o: True\ndef f():\n    return Yes()\n", sandboxed=SANDBOXED) as code:
        out = code.lookup("f")()
        assert isinstance(out, ForeignObject) and type(out).__name__ == "Yes"
        with pytest.raises(TypeError):
            out == 1


def test_hangs_and_deaths_are_reported_and_then_stop_being_tried():
    source = "import os\ndef hang():\n    while True: pass\ndef die():\n    os._exit(7)\n"
    with StudentCode(source, call_timeout=0.5, max_strikes=2, sandboxed=SANDBOXED) as code:
        with pytest.raises(StudentError, match="did not return within 0.5 s"):
            code.lookup("hang")()
        with pytest.raises(StudentError, match="exited with status 7"):
            code.call("die", [])
        with pytest.raises(StudentError, match="stopped calling"):
            code.call("hang", [])


def test_the_solution_cell_failing_is_reported_once():
    with StudentCode("raise SystemExit(3)\n", sandboxed=SANDBOXED) as code:
        for _ in range(2):
            with pytest.raises(StudentError, match="solution cell raised SystemExit"):
                code.lookup("f")


def test_the_child_has_a_memory_limit():
    with StudentCode("import numpy as np\ndef f():\n    return np.ones(10 ** 9).sum()\n", memory=512 * 2 ** 20, sandboxed=SANDBOXED) as code:
        with pytest.raises(StudentError, match="MemoryError"):
            code.call("f", [])


def test_patching_numpy_in_the_student_code_does_not_reach_the_tests():
    cheat = "import numpy as np\nnp.allclose = lambda *a, **k: True\ndef f(A, G):\n    return A * 0\n"
    tests = [("same", "assert np.allclose(f(np.ones((2, 2)), np.ones((2, 2))), np.ones((2, 2))), 'wrong'")]
    assert decide(cheat, tests, sandboxed=SANDBOXED)["same"][:3] == (False, "AssertionError", "wrong")
    assert decide(GOOD, [("ok", "assert f(np.eye(2) / 1, np.ones((2, 2))).sum() == 0")], sandboxed=SANDBOXED)["ok"][0]


def test_feedback_keeps_the_verdict_and_drops_hidden_code():
    cell = new_code_cell('"""Checks a thing."""\nf(1)\n### BEGIN HIDDEN TESTS\nsecret = 42\n### END HIDDEN TESTS\n')
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "thing", "points": 2, "locked": True, "solution": False}
    cell.outputs = [{"output_type": "error", "ename": "AssertionError", "evalue": "wrong sign",
                     "traceback": ["File <grade cell>, line 4", "secret = 42", "AssertionError: wrong sign"]}]
    cell, _ = SanitizeFeedback().preprocess_cell(cell, {}, 0)
    assert "secret" not in cell.source and "'thing' (2 points)" in cell.source and "f(1)" in cell.source
    assert cell.outputs[0]["traceback"] == ["AssertionError: wrong sign"]
