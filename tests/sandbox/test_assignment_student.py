"""The student's code in a grading child (classroom.trusted.proxy, classroom.trusted.child_handle,
classroom.trusted.server), seen from the grader: plain data back, every failure a StudentError of its kind, and `decide`
turning checks into verdicts."""
import numpy as np
import pytest

from classroom.trusted import failures
from classroom.trusted.student_errors import StudentError
from classroom.trusted.proxy import ForeignObject, StudentCode
from classroom.trusted.verdict import decide
from coursekit.trial_course import LAUNCHER

pytestmark = pytest.mark.integration  # each test starts sandboxed Python processes

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


def student(*cells, **limits):
    return StudentCode(list(cells), launcher=LAUNCHER, **limits)


def test_a_call_returns_plain_data_and_copies_writes_back():
    with student("def f(A):\n    A += 1\n    return A.tolist()\n") as code:
        f = code.lookup("f")
        A = np.zeros(2)
        assert f(A) == [1.0, 1.0] and A.tolist() == [1.0, 1.0]
        A.setflags(write=False)
        with pytest.raises(StudentError, match="read-only") as raised:
            f(A)
        assert raised.value.kind == failures.RAISED


def test_a_lying_object_cannot_cross_to_the_grader():
    with student("class Yes:\n    __eq__ = lambda s, o: True\ndef f():\n    return Yes()\n") as code:
        out = code.lookup("f")()
        assert isinstance(out, ForeignObject) and type(out).__name__ == "Yes"
        with pytest.raises(TypeError) as refused:
            out == 1
        assert refused.value.kind == failures.WRONG_TYPE


def test_hangs_and_deaths_are_reported_by_kind_and_then_stop_being_tried():
    source = "import os\ndef hang():\n    while True: pass\ndef die():\n    os._exit(7)\n"
    with student(source, call_timeout=0.5, max_strikes=2) as code:
        with pytest.raises(StudentError, match="used more than 0.5 s of CPU time") as hung:
            code.lookup("hang")()
        assert hung.value.kind == failures.TIMED_OUT
        with pytest.raises(StudentError, match="exited with status 7") as died:
            code.call("die", [])
        assert died.value.kind == failures.CRASHED
        with pytest.raises(StudentError, match="stopped calling") as stopped:
            code.call("hang", [])
        assert stopped.value.kind == failures.CRASHED  # the kind of the last strike


def test_the_solution_cell_failing_is_reported_once():
    with student("raise SystemExit(3)\n") as code:
        for _ in range(2):
            with pytest.raises(StudentError, match="solution cell raised SystemExit") as raised:
                code.lookup("f")
            assert raised.value.kind == failures.RAISED


def test_answer_cells_run_one_by_one():
    with student("a = 1\n", "raise NotImplementedError()\n", "c = 3\n") as code:
        assert code.lookup("a") == 1 and code.lookup("c") == 3
        with pytest.raises(NameError, match="Not answered yet: `b` is not set") as missing:
            code.lookup("b")
        assert "cell 2" not in str(missing.value)  # one short reason, not the list of every cell that failed


def test_a_missing_answer_is_blamed_on_the_cell_that_sets_it():
    with student("raise NotImplementedError()\n", "b = 1 / 0\n") as code:
        with pytest.raises(NameError, match="^`b` is not set: the answer cell that sets it raised ZeroDivisionError"):
            code.lookup("b")


def test_a_slow_answer_cell_costs_only_its_names_and_is_named():
    busy = "def spin():\n    pass\nx = 0\nwhile True:\n    x += 1\n"
    with student("a = 1\n", busy, define_timeout=0.3) as code:
        assert code.lookup("a") == 1
        with pytest.raises(StudentError, match="^`x` is not set: your answer cell that defines spin was still "
                           "running after 0.6 s of CPU time") as raised:
            code.lookup("x")
        assert raised.value.kind == failures.TIMED_OUT


def test_a_line_is_placed_in_the_answer_cell_that_holds_it():
    code = StudentCode(["def f():\n    return 1\n", "x = 2\n"])  # no child starts: nothing is run
    assert [code.place(line) for line in (2, 5)] == ["line 2 of your answer cell that defines f",
                                                     "line 1 of your answer cell that sets x"]
    assert StudentCode(["x = 2\ny = 3\n"]).place(2) == "line 2 of your solution cell"


def test_an_unwritten_function_is_not_answered_yet():
    unwritten = "def f(A, G):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
    with student(unwritten) as code, pytest.raises(StudentError, match="^Not answered yet: `f` still raises") as raised:
        code.lookup("f")(np.eye(2), np.eye(2))
    assert raised.value.kind == failures.RAISED
    with student("raise NotImplementedError()\n") as code, pytest.raises(StudentError, match="your solution cell"):
        code.lookup("f")


def test_the_child_has_a_memory_limit():
    with student("import numpy as np\ndef f():\n    return np.ones(10 ** 9).sum()\n", memory=512 * 2 ** 20) as code:
        with pytest.raises(StudentError, match="MemoryError") as raised:
            code.call("f", [])
        assert raised.value.kind == failures.OUT_OF_MEMORY


def test_a_string_is_not_a_list_of_cells():
    with pytest.raises(TypeError):
        StudentCode(GOOD)


def test_patching_numpy_in_the_student_code_does_not_reach_the_tests():
    cheat = "import numpy as np\nnp.allclose = lambda *a, **k: True\ndef f(A, G):\n    return A * 0\n"
    tests = [("same", "assert np.allclose(f(np.ones((2, 2)), np.ones((2, 2))), np.ones((2, 2))), 'wrong'")]
    verdict = decide([cheat], tests, launcher=LAUNCHER)["same"]
    assert (verdict.passed, verdict.kind, verdict.message) == (False, failures.CHECK_FAILED, "wrong")
    assert decide([GOOD], [("ok", "assert f(np.eye(2) / 1, np.ones((2, 2))).sum() == 0")],
                  launcher=LAUNCHER)["ok"].passed
