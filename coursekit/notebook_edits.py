"""Edits a student might make to the notebook they hand in, by name (`EDITS`): the corpus's `edit` field
(tests/submissions/corpus.json) and coursekit.trial_course.submission apply them."""
import copy

from classroom import cells

VISIBLE = "worked_example_2x2"  # the one grade cell with no hidden part
SOLUTION = "score_gradient_solution"  # the answer cell that defines score_gradient


def _graded(nb):
    return [cell for cell in nb["cells"] if cells.is_grade(cell)]


def delete_all_grade_cells(nb):
    nb["cells"] = [c for c in nb["cells"] if not cells.is_grade(c)]


def delete_hidden_grade_cells(nb):
    nb["cells"] = [c for c in nb["cells"] if not cells.is_grade(c) or cells.grade_id(c) == VISIBLE]


def blank_grade_cells(nb):
    for cell in _graded(nb):
        cell["source"] = ""


def tests_become_pass(nb):
    for cell in _graded(nb):
        cell["source"] = "pass\n"


def tamper_grade_metadata(nb):
    graded = _graded(nb)
    graded[0]["metadata"]["nbgrader"]["points"] = 100
    graded[1]["metadata"]["nbgrader"]["grade"] = False
    graded[2]["metadata"]["nbgrader"]["solution"] = True
    graded[2]["source"] = "pass\n"
    graded[3]["metadata"]["nbgrader"]["grade_id"] = "my_own_check"
    graded[4]["metadata"]["nbgrader"]["locked"] = False
    graded[4]["source"] = "pass\n"
    del graded[5]["metadata"]["nbgrader"]
    graded[5]["source"] = "pass\n"
    graded[6]["metadata"]["nbgrader"]["checksum"] = "0" * 32


def grade_cells_to_markdown(nb):
    for cell in _graded(nb):
        cell["cell_type"] = "markdown"
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def duplicate_grade_ids(nb):
    fakes = [dict(copy.deepcopy(cell), source="pass\n") for cell in _graded(nb)]
    nb["cells"] = fakes + nb["cells"]


def lone_surrogate_in_a_string(nb):
    """Half of a character in a string of the answer cell: JSON can hold it (as an escape), no UTF-8 file can."""
    cell = next(c for c in nb["cells"] if cells.grade_id(c) == SOLUTION)
    cell["source"] = cells.source(cell) + '\nLABEL = "gradient \ud83d"  # pasted from a PDF\n'


EDITS = {f.__name__: f for f in (delete_all_grade_cells, delete_hidden_grade_cells, blank_grade_cells,
                                 tests_become_pass, tamper_grade_metadata, grade_cells_to_markdown,
                                 duplicate_grade_ids, lone_surrogate_in_a_string)}
