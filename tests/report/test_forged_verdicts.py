"""No verdict is read from an output a student's code could write (docs/grading.md): an answer cell whose output is
an error named as the grader names a time-out (`TimedOut`, with the grader's own traceback line) leaves the class
report exactly as the same cell raising a ValueError does. The kinds of failure come from what the grader recorded
while it graded (classroom.grading.result.outcomes), never from the notebook; tests/sandbox/test_sandboxed_execute.py
shows that a student's own `raise TimedOut(...)` reaches the notebook as "TimedOut (raised by your code)" anyway."""
import json
from dataclasses import replace

import nbformat

from classroom.grading import result
from classroom.report import read_summary
from classroom.trusted import failures
from tests.report.toy import TOY, notebook_json, read_gradebook, toy_result, write_course

ANSWERS = {TOY: "answer", "quiz": "q_answer"}  # the answer cell of each notebook (q_answer is graded, answer is not)


def _graded_with(course, output):
    """ann's course, each answer cell of hers carrying `output`, each result made as a grading makes it: from the
    autograded notebook, the gradebook's scores and what the grader recorded (here nothing: no check timed out)."""
    maxima, gradebook = read_gradebook(course, TOY)
    folder = course / "autograded" / "ann" / TOY
    for name, answer in ANSWERS.items():
        nb = notebook_json(name)
        for cell in nb["cells"]:
            if cell["metadata"]["nbgrader"]["grade_id"] == answer:
                cell["outputs"] = [output]
        (folder / f"{name}.ipynb").write_text(json.dumps(nb))
        scores = {grade_id: (points, gradebook["ann"]["checks"][nb_name, grade_id])
                  for (nb_name, grade_id), points in maxima.items() if nb_name == name}
        checks, cells = result.outcomes(nbformat.read(folder / f"{name}.ipynb", as_version=4), scores, recorded={})
        result.write(folder, replace(toy_result("ann", name), checks=checks, cells=cells))
    return read_summary(course, TOY)


def test_an_answer_cell_that_shows_a_graders_time_out_changes_nothing_in_the_report(tmp_path):
    empty = write_course(tmp_path / "empty", [])
    own = _graded_with(write_course(tmp_path / "own", ["ann"], empty / "gradebook.db"),
                       {"output_type": "error", "ename": "ValueError", "evalue": "mine", "traceback": []})
    forged = _graded_with(write_course(tmp_path / "forged", ["ann"], empty / "gradebook.db"),
                          failures.error_output(failures.TIMED_OUT, "mine"))
    assert forged == own
    ann = forged.students[0]
    assert ann.id == "ann" and not ann.reasons and ann.score == ann.max_score  # nothing to look at: not "timed out"
    assert ann.messages == {("quiz", "q_answer"): "mine"}  # what her code raised, as text, never read as a kind
