"""Validate tells the truth: nbgrader's Validator, run the way the Validate button runs it, passes
every correct submission of the corpus (tests/submissions/corpus.json); for every wrong one it either fails, or each
check the grader deducts says on a `# Only when graded:` line that Validate cannot decide it. The corpus's `lost`
lists are what the grader really deducts: tests/assignment/test_assignment_corpus.py holds them to the recorded grades."""
import json

import pytest
from nbgrader.validator import Validator

from classroom import cells
from coursekit import corpus, course

ONLY_WHEN_GRADED = "# Only when graded:"
ENTRIES = corpus.corpus()
# Submissions that are plainly right or plainly wrong; the cheats and robustness cases (hangs, floods, exits) are
# about the grader, and their Validate runs would only wait out time limits.
JUDGED = sorted(name for name, entry in ENTRIES.items() if name.startswith(("correct_", "wrong_"))
                and "edit" not in entry)


def validate(folder, name, nb):
    path = folder / name / f"{course.ASSIGNMENT}.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(nb))
    return Validator().validate(str(path))


def only_when_graded():
    """{grade_id: the `# Only when graded:` lines of its released cell}."""
    released = json.loads(course.RELEASED.read_text())
    return {cells.grade_id(c): [line for line in cells.source(c).splitlines() if line.startswith(ONLY_WHEN_GRADED)]
            for c in released["cells"] if cells.is_grade(c)}


@pytest.mark.integration
@pytest.mark.parametrize("name", JUDGED)
def test_validate_passes_the_right_and_tells_on_the_wrong(name, tmp_path):
    entry = ENTRIES[name]
    result = validate(tmp_path, name, corpus.notebook(entry))
    assert set(result) <= {"failed"}, f"{name}: Validate saw edited cells: {result}"
    if name.startswith("correct_"):
        assert not result, f"{name} is right, yet Validate fails it: {result['failed']}"
    elif not result:
        unseen = only_when_graded()
        lost = unseen if entry["lost"] == "all" else entry["lost"]
        silent = sorted(grade_id for grade_id in lost if grade_id not in entry.get("kept", ())
                        and not unseen[grade_id])
        assert not silent, f"{name} passes Validate, yet the grader deducts {silent}, which Validate fully decides"


@pytest.mark.integration
def test_an_untouched_notebook_fails_validate_saying_what_is_not_answered(tmp_path):
    nb = json.loads(course.RELEASED.read_text())
    failed = validate(tmp_path, "untouched", nb)["failed"]
    assert len(failed) == len([c for c in nb["cells"] if cells.is_grade(c)])
    written = [f for f in failed if f["source"] == "YOUR ANSWER HERE"]  # the derivation, a written answer
    assert [f["raw_error"] for f in written] == ["You did not provide a response."]  # nbgrader's own sentence
    first_check = next(f for f in failed if f not in written)
    assert "not answered" in first_check["raw_error"]
