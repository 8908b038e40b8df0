"""Plain tests of the classroom package's pieces that run no student process: the wire protocol, nbgrader cells,
the static loop finder, verdicts and their outputs, the feedback's sanitizing and the display run's naming rule."""
import io
import subprocess
import sys

import numpy as np
import pytest
from nbformat.v4 import new_code_cell

from classroom import cells
from classroom.checks import measures
from classroom.trusted import failures, protocol
from classroom.trusted.student_errors import StudentError, WrongTypeError
from classroom.preprocessors.execute_for_display import own_name
from classroom.preprocessors.sanitize_feedback import SanitizeFeedback
from classroom.checks.line_count import count_lines
from classroom.trusted.verdict import NOT_GRADED, Verdict, _failure

GOOD = "import numpy as np\ndef f(A, G):\n    return A * (G - (A * G).sum(axis=1, keepdims=True))\n"


@pytest.mark.parametrize("value", [np.arange(6.0).reshape(2, 3), None, "text", [1.5, 2.0], (1, 2), 3, 2.5, True,
                                   np.float32(1.25), {"a", "b"}, ["a", 1], ("x", "y"), [[1], [2, 3]], 2 ** 80, 1 + 2j,
                                   {"a": 2, 3: [1.5, "b"], (1, 2): {"x": None}}, frozenset({1, 2}),
                                   np.array(["ab", "c"]), float("inf"), [[0.5] * 500] * 500, [[1, 2], [3]],
                                   [True, False], [1, 2.5]])
def test_what_the_child_encodes_the_grader_decodes_unchanged(value):
    header, blobs = protocol.encode(value)
    stream = io.BytesIO()
    protocol.send(stream, header, blobs)
    stream.seek(0)
    header, blobs = protocol.recv_frame(stream.read)
    back = protocol.decode(header, blobs, foreign=lambda name: pytest.fail(f"{value!r} came back foreign ({name})"))
    assert type(back) is type(value)
    assert np.array_equal(back, value) if isinstance(value, np.ndarray) else back == value
    assert repr(back) == repr(value)  # the same types inside too (an int stays an int next to floats)


def test_arrays_inside_plain_data_come_back_as_arrays():
    value = {"weights": [np.arange(3), np.float64(0.5)]}
    header, blobs = protocol.encode(value)
    back = protocol.decode(header, blobs, foreign=lambda name: pytest.fail(name))
    assert np.array_equal(back["weights"][0], np.arange(3)) and type(back["weights"][1]) is np.float64


@pytest.mark.parametrize("value, type_name", [(object(), "object"), (np.array([object()]), "ndarray of Python objects"),
                                              ("x" * (protocol.MAX_CHARS + 1), "str too long to send back"),
                                              (["x"] * (protocol.MAX_ITEMS + 1), "str too large to send back"),
                                              ([b"bytes"], "bytes")])
def test_anything_else_comes_back_as_a_named_stand_in(value, type_name):
    header, blobs = protocol.encode(value)
    assert header["kind"] == protocol.OTHER and blobs == []
    assert protocol.decode(header, blobs, foreign=lambda name: ("foreign", name)) == ("foreign", type_name)


@pytest.mark.parametrize("tree", [{"set": [{"list": [1]}]}, {"dict": [[{"list": []}, 1]]}, {"ndarray": 0},
                                  {"list": [1], "tuple": [2]}, {"numpy": ["O", 1]}, {"complex": [1, 2]}, [1, 2],
                                  {"function": "f"}])
def test_a_tree_the_child_cannot_have_written_gives_a_stand_in(tree):
    assert protocol.decode({"kind": protocol.PLAIN, "value": tree}, [], foreign=str) == "unknown"


def test_static_loop_finder_sees_loops_not_comments():
    assert measures.find_loops(GOOD + "# for every row, while we are here\n") == []
    found = [what for _, what in measures.find_loops(
        "def f(A):\n    for i in A: pass\n    while 0: pass\n    [a for a in A]\n    np.vectorize(len)\n"
        "    list(map(abs, A))\n    exec('1')\n")]
    assert len(found) == 6 and any("vectorize" in w for w in found) and any("exec" in w for w in found)


def test_the_line_counter_sees_python_work_grow_with_T():
    def rows(A, G):
        return np.stack([a * g for a, g in zip(A, G)])

    def whole(A, G):
        return A * G

    small, large = [np.ones((4, 4))] * 2, [np.ones((40, 40))] * 2
    assert count_lines(whole, *small)[1] == count_lines(whole, *large)[1]
    assert count_lines(rows, *large)[1] > count_lines(rows, *small)[1] + measures.GROWTH_ALLOWED
    value, _, kept = count_lines(whole, *small)
    assert kept
    assert np.array_equal(value, np.ones((4, 4)))


def test_cells_read_nbgrader_metadata_and_hide_the_hidden_part():
    text = '"""Checks a thing."""\nf(1)\n### BEGIN HIDDEN TESTS\nsecret = 42\n### END HIDDEN TESTS\n'
    cell = {"cell_type": "code", "metadata": {"nbgrader": {"grade": True, "grade_id": "thing", "solution": False}},
            "source": text.splitlines(keepends=True)}
    assert cells.is_check(cell) and cells.grade_id(cell) == "thing" and cells.source(cell) == text
    assert cells.visible(text) == '"""Checks a thing."""\nf(1)\n' and cells.docstring(text) == "Checks a thing."
    assert cells.visible(text.replace("### END HIDDEN TESTS", "")) is None  # unbalanced: show nothing
    assert cells.has_hidden_tests(text) and not cells.has_hidden_tests(cells.visible(text))
    assert cells.docstring('"""Broken\n   cell."""\nif :\n') == ""  # only a one-line literal survives bad syntax
    assert cells.docstring('"A broken cell"\nif :\n') == "A broken cell"
    assert not cells.is_check({"cell_type": "code", "metadata": {"nbgrader": "not a dict"}})


def test_a_source_cell_becomes_the_cell_nbgrader_would_have_written():
    check = cells.SourceCell("thing", "code", "assert True", locked=True, points=2)
    cell = check.new_cell([failures.error_output(failures.NOT_GRADED, "no")])
    assert cells.is_check(cell) and cell.metadata.nbgrader.points == 2 and cell.outputs[0].ename == failures.NOT_GRADED
    assert check.metadata() == {"grade": True, "grade_id": "thing", "locked": True, "schema_version": 3,
                                "solution": False, "task": False, "points": 2}
    answer = cells.SourceCell("answer", "code", "x = 1", locked=False, is_solution=True)
    assert not answer.is_check and "points" not in answer.metadata()
    for record in (check, answer, cells.SourceCell("prose", "markdown", "*", locked=True, points=1),
                   cells.SourceCell("plain", "code", "x", locked=False)):  # the record and its cell agree
        assert record.is_check == cells.is_check(record.new_cell()), record


def test_a_verdict_becomes_outputs_that_carry_its_kind():
    assert Verdict().passed and Verdict().outputs() == []
    failed = Verdict(failures.TIMED_OUT, "too slow", printed="hello\n")
    assert [o["output_type"] for o in failed.outputs()] == ["stream", "error"]
    assert failed.outputs()[1]["ename"] == failures.TIMED_OUT and failed.outputs()[1]["evalue"] == "too slow"
    assert NOT_GRADED.outputs()[0]["ename"] == failures.NOT_GRADED


@pytest.mark.parametrize("exc, kind", [
    (AssertionError("wrong sign"), failures.CHECK_FAILED),
    (StudentError("hung", failures.TIMED_OUT), failures.TIMED_OUT),
    (WrongTypeError("a Yes object"), failures.WRONG_TYPE),
    (NameError("name 'f' is not defined by your solution cell"), failures.CHECK_FAILED),
    (ValueError("operands could not be broadcast"), failures.CHECK_FAILED),
])
def test_every_exception_out_of_a_check_has_a_kind(exc, kind):
    assert _failure(exc)[0] == kind
    assert str(exc) in _failure(exc)[1]


def test_a_check_blames_what_the_function_returned_only_after_calling_it():
    assert _failure(TypeError("unhashable type"), called=True)[1].endswith(
        "(while checking what your function returned)")
    assert _failure(TypeError("unhashable type"), called=False)[1].endswith("(while checking your answer)")
    try:  # a check that caught the student's missing name and raised something else: the missing name is the reason
        try:
            raise NameError("name 'answer_2' is not defined by your answer cells")
        except NameError:
            raise TypeError("cannot format the answer") from None
    except TypeError as exc:
        assert _failure(exc) == (failures.CHECK_FAILED, "name 'answer_2' is not defined by your answer cells")


def test_a_student_error_has_a_student_kind():
    with pytest.raises(ValueError):
        StudentError("a check failed", failures.CHECK_FAILED)
    assert isinstance(WrongTypeError("x"), TypeError)  # so `except TypeError` in a check behaves as in a kernel


def test_a_student_exception_never_passes_for_the_grader():
    content = {"ename": "ZeroDivisionError", "evalue": "division by zero"}
    assert own_name(content) == content
    renamed = [own_name({"ename": kind, "evalue": "mine"}) for kind in failures.KINDS]
    assert all(c["ename"] not in failures.KINDS and c["evalue"] == "mine" for c in renamed)


def test_feedback_keeps_the_verdict_and_drops_hidden_code():
    cell = new_code_cell('"""Checks a thing."""\nf(1)\n### BEGIN HIDDEN TESTS\nsecret = 42\n### END HIDDEN TESTS\n')
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "check_7", "points": 2, "locked": True, "solution": False}
    cell.outputs = [{"output_type": "error", "ename": failures.CHECK_FAILED, "evalue": "wrong sign",
                     "traceback": ["File <grade cell>, line 4", "secret = 42", "CheckFailed: wrong sign"]}]
    cell, _ = SanitizeFeedback().preprocess_cell(cell, {}, 0)
    assert "secret" not in cell.source and "(2 points)" in cell.source and "f(1)" in cell.source
    assert "check_7" not in cell.source  # no grade id: the check is named by its description
    assert cell.metadata.classroom.label == "Checks a thing."
    assert cell.outputs == [failures.error_output(failures.CHECK_FAILED, "wrong sign")]


def test_feedback_names_graded_cells_for_the_student_and_says_points_in_words():
    answer = new_code_cell("def f(x):\n    return x\n")
    answer.metadata["nbgrader"] = {"grade": False, "grade_id": "f_solution", "solution": True, "locked": False}
    plain = new_code_cell("### BEGIN HIDDEN TESTS\nassert f(1) == 1\n### END HIDDEN TESTS\n")
    plain.metadata["nbgrader"] = {"grade": True, "grade_id": "f_check", "points": 1, "locked": True, "solution": False}
    sanitize = SanitizeFeedback()
    labels = [sanitize.preprocess_cell(cell, {}, n)[0].metadata.classroom for n, cell in enumerate([answer, plain])]
    assert [entry["label"] for entry in labels] == ["Your answer", "Check 2"]
    assert len({entry["anchor"] for entry in labels}) == 2
    assert plain.source.endswith("(1 point).") and "f_check" not in plain.source


def test_what_the_grade_cells_import_needs_no_grading_extra_and_loads_nothing_of_the_trusted_side():
    """classroom.checks runs in a student's kernel too (nbgrader validate), where only the lesson's dependencies are
    promised: it, and the old names released notebooks import, load without nbgrader, traitlets, IPython or the
    Jupyter clients, and load no module of the trusted side (at Validate:
    tests/assignment/test_checks_in_student_kernel.py)."""
    blocked = ("nbgrader", "traitlets", "nbformat", "nbclient", "jupyter_client", "IPython")
    probe = (f"import sys\nsys.modules.update(dict.fromkeys({blocked!r}))\n"
             "import classroom.checks.measures, classroom.checks.exercise\n"
             "import classroom.measures, classroom.exercise_checks\n"
             "print(*sorted(m for m in sys.modules if m.startswith('classroom')))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = result.stdout.split()
    assert "classroom.checks.line_count" in loaded
    assert [m for m in loaded if m.startswith(("classroom.trusted", "classroom.sandbox", "classroom.grading"))] == []
