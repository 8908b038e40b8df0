"""Nothing a student makes big reaches autograded/ or feedback/ big: graded by the course's own commands, a
submission with a 20-million-character exception message, 20 million characters of output metadata, 20 000 empty
outputs, a 50 MiB attachment and a PNG whose header claims 50 000 x 50 000 pixels (as an attachment and as an output)
leaves an autograded notebook and a feedback page of bounded size, each cut said where it happened, and full marks.
A second student's autograded notebook is swapped, after grading, for one as big as the grader wrote before these
caps (tens of megabytes): its feedback page is bounded too.

Before the caps, the first notebook gave a 130 MB autograded notebook and a 90 MB feedback page.
"""
import html
import json
import stat
from pathlib import Path

import pytest

from classroom.trusted import failures
from coursekit import trial_course
from tests.feedback import hostile
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS

pytestmark = pytest.mark.integration

CORRECT = (SUBMISSIONS / "correct_keepdims.py").read_text()
# Bounds: a cell keeps 20 000 characters of output text and 2 MiB of images (InertContent's caps); these notebooks
# have a dozen cells the student added, and no image that passes the checks. The page adds nbconvert's style sheet.
NOTEBOOK_BOUND = 1_000_000
PAGE_BOUND = 2_000_000


def path_of(place, folder, student, suffix):
    return Path(place) / folder / student / ASSIGNMENT / f"{ASSIGNMENT}.{suffix}"


def legacy_huge(autograded):
    """The autograded notebook with outputs as big as the grader kept before the caps."""
    nb = json.loads(json.dumps(autograded))
    bomb = hostile.b64(hostile.png_claiming(hostile.BOMB_SIDE, hostile.BOMB_SIDE))
    big = "E" * hostile.HUGE_MESSAGE_CHARS
    nb["cells"].insert(1, hostile.code_cell("pass"))
    nb["cells"][1]["outputs"] = [
        {"output_type": "error", "ename": "ValueError", "evalue": big, "traceback": [big]},
        {"output_type": "display_data", "data": {"text/plain": "m"}, "metadata": {"junk": big}},
        {"output_type": "display_data", "data": {"image/png": bomb}, "metadata": {}}]
    nb["cells"].insert(2, hostile.markdown_cell("![big](attachment:big.png)", attachments=hostile.huge_attachment()))
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    place = trial_course.make_course(tmp_path_factory.mktemp("caps") / "course")
    trial_course.write_submission(place, "huge", hostile.huge_notebook(CORRECT))
    trial_course.write_submission(place, "legacy", trial_course.submission(CORRECT))
    result = trial_course.autograde(place)
    assert result.returncode == 0, (place / "autograde.log").read_text()[-4000:]
    path = path_of(place, "autograded", "legacy", "ipynb")
    path.chmod(path.stat().st_mode | stat.S_IWUSR)
    path.write_text(json.dumps(legacy_huge(json.loads(path.read_text()))))
    assert path.stat().st_size > 50_000_000
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=place)
    return place


def test_the_autograded_notebook_and_the_feedback_page_stay_small(graded):
    assert path_of(graded, "submitted", "huge", "ipynb").stat().st_size > 50_000_000
    assert path_of(graded, "autograded", "huge", "ipynb").stat().st_size < NOTEBOOK_BOUND
    for student in ("huge", "legacy"):
        assert path_of(graded, "feedback", student, "html").stat().st_size < PAGE_BOUND, student


def test_the_grade_is_unchanged(graded):
    full = trial_course.max_scores(graded)
    assert {g: trial_course.scores(graded)["huge"][g] for g in full} == full


def notes(nb, start):
    """The grader's notes in the cell whose source (as the student wrote it) holds `start`: its OUTPUT_CUT outputs'
    messages, or the paragraphs of its Markdown that say what the grader did."""
    cell = next(c for c in nb["cells"] if start in html.unescape("".join(c["source"])))
    source = "".join(cell["source"])
    return [o["evalue"] for o in cell.get("outputs", []) if o.get("ename") == failures.OUTPUT_CUT] + \
        [line for line in source.split("\n\n") if line.startswith("*The grader")]


# cell (its source's start) -> words its note must hold
CUTS = {"![big](attachment:big.png)": "left out the attachment big.png: an image of 52,428,808 bytes",
        "![bomb](attachment:bomb.png)": "left out the attachment bomb.png: an image of far more pixels",
        hostile.SIZE_CODE["huge-exception"]: "an error message after 2,000 characters",
        hostile.SIZE_CODE["png-bomb-output"]: "an image of far more pixels",
        hostile.SIZE_CODE["many-outputs"]: "everything after its first 20,000 characters"}


@pytest.mark.parametrize("cell", sorted(CUTS))
def test_every_cut_is_said_where_it_happened_in_the_notebook_and_the_page(graded, cell):
    said = notes(json.loads(path_of(graded, "autograded", "huge", "ipynb").read_text()), cell)
    assert [note for note in said if CUTS[cell] in note], said
    assert CUTS[cell] in path_of(graded, "feedback", "huge", "html").read_text()


def test_output_metadata_is_not_kept(graded):
    nb = json.loads(path_of(graded, "autograded", "huge", "ipynb").read_text())
    assert all(o.get("metadata", {}) == {} for cell in nb["cells"] for o in cell.get("outputs", []))
