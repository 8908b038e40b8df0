"""What the grade cells import stays light: the released notebook, answered correctly, is validated as a student
validates it (`nbgrader validate`), and the student's kernel, after every grade cell has run, holds no module of the
trusted side of grading (classroom.trusted, classroom.sandbox, classroom.grading) nor nbgrader."""
import json
import sys
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell

from coursekit import corpus, forked_commands

TRUSTED_SIDE = ("classroom.trusted", "classroom.sandbox", "classroom.grading", "nbgrader")
LISTED = "kernel-modules.txt"


def kernel_modules(folder, entry):
    """sys.modules of the kernel in which `nbgrader validate` ran the corpus entry's notebook, listed by a last
    cell appended to it (after every grade cell)."""
    nb = corpus.notebook(entry)
    listing = folder / LISTED
    nb["cells"].append(new_code_cell(f"import sys\nopen({str(listing)!r}, 'w').write('\\n'.join(sorted(sys.modules)))"))
    path = folder / "score_gradient.ipynb"
    path.write_text(json.dumps(nb))
    validate = forked_commands.run([str(Path(sys.executable).parent / "nbgrader"), "validate", str(path)], cwd=folder,
                                   capture_output=True, text=True)
    assert "Success! Your notebook passes all the tests." in validate.stdout, validate.stdout[-3000:]
    return listing.read_text().split()


@pytest.mark.integration
def test_the_grade_cells_at_validate_import_nothing_of_the_trusted_side(tmp_path):
    modules = kernel_modules(tmp_path, corpus.corpus()["correct_keepdims"])
    assert {"classroom.checks.exercise", "classroom.checks.measures"} <= set(modules)  # the grade cells did run
    assert [m for m in modules if m.startswith(TRUSTED_SIDE)] == []
