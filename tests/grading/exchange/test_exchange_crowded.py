"""`nbgrader collect` from a real shared exchange (exchange_class.py) for a crowded class: it hands in a notebook
beside 250 figures, a 21 MiB notebook, and one over the course's CourseDirectory.max_file_size: collect takes the
first two whole and flags what it left out, and grading, feedback and the report say what happened to the third.
"""
import json

import pytest

from classroom import intake
from coursekit import trial_course
from coursekit.trial_course import ASSIGNMENT, COURSE_ID, SUBMISSIONS
from tests.grading.exchange.exchange_class import TS, instructor, shared_exchange

pytestmark = pytest.mark.integration

FIGURES = 250
BIG_MIB = 21


def big_notebook(code, mib):
    """A notebook with `code` as its answer and an output of about `mib` MiB (a picture saved with it)."""
    nb = trial_course.submission(code)
    picture = {"output_type": "display_data", "metadata": {}, "data": {"image/png": "A" * (mib * 2 ** 20)}}
    first_code = next(cell for cell in nb["cells"] if cell["cell_type"] == "code")
    first_code["outputs"] = [picture]
    return json.dumps(nb)


@pytest.fixture(scope="module")
def crowded(tmp_path_factory, request):
    base = tmp_path_factory.mktemp("crowded")
    config = "c.CourseDirectory.max_file_size = 30000  # kB: the third notebook is over it"
    course_path = trial_course.make_course(base / "course", config=config)
    _, exchange = shared_exchange(request)
    instructor(course_path, exchange, "release_assignment", ASSIGNMENT)
    inbound = exchange / COURSE_ID / "inbound"
    correct = (SUBMISSIONS / "correct_einsum.py").read_text()
    hand_ins = {"fig": json.dumps(trial_course.submission(correct)), "big": big_notebook(correct, BIG_MIB),
                "huge": big_notebook(correct, 31)}
    for student, text in hand_ins.items():
        folder = inbound / f"{student}+{ASSIGNMENT}+{TS}+r"
        folder.mkdir()
        (folder / f"{ASSIGNMENT}.ipynb").write_text(text)
        (folder / "timestamp.txt").write_text(TS)
    figures = inbound / f"fig+{ASSIGNMENT}+{TS}+r" / "figures"
    figures.mkdir()
    for n in range(FIGURES):
        (figures / f"f{n:03d}.png").write_bytes(b"\x89PNG" + bytes(60))
    result = instructor(course_path, exchange, "collect", ASSIGNMENT, check=False)
    graded = trial_course.autograde(course_path)
    trial_course.nbgrader("generate_feedback", ASSIGNMENT, "--force", cwd=course_path)
    report = trial_course.report(course_path, "--out", str(base / "report"))
    return dict(course=course_path, result=result, log=result.stdout + result.stderr, graded=graded,
                report=(base / "report" / f"{ASSIGNMENT}.html").read_text(), scores=trial_course.scores(course_path),
                report_run=report)


def test_a_notebook_beside_hundreds_of_files_is_collected_and_graded_the_rest_flagged(crowded):
    assert crowded["result"].returncode == 0, crowded["log"][-3000:]
    fig = crowded["course"] / "submitted" / "fig" / ASSIGNMENT
    assert (fig / f"{ASSIGNMENT}.ipynb").exists()
    dropped = intake.read_receipt(fig)["dropped"]
    assert len(dropped) == FIGURES + 2 - intake.MAX_FILES  # the notebook and timestamp.txt went first
    assert {why for _, why in dropped} == {f"more than {intake.MAX_FILES} files in the submission"}
    full = sum(trial_course.max_scores(crowded["course"]).values())
    assert sum(crowded["scores"]["fig"].values()) >= full, crowded["graded"].stderr[-3000:]
    assert "left out at collect" in crowded["report"]


def test_a_notebook_over_twenty_mib_is_collected_whole_and_graded(crowded):
    big = crowded["course"] / "submitted" / "big" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    assert big.stat().st_size > BIG_MIB * 2 ** 20
    assert sum(crowded["scores"]["big"].values()) >= sum(trial_course.max_scores(crowded["course"]).values()), \
        crowded["graded"].stderr[-3000:]


def test_a_notebook_over_the_courses_limit_is_refused_flagged_and_explained(crowded):
    huge = crowded["course"] / "submitted" / "huge" / ASSIGNMENT
    assert not (huge / f"{ASSIGNMENT}.ipynb").exists()
    assert dict(intake.read_receipt(huge)["dropped"]) == {f"{ASSIGNMENT}.ipynb": "larger than 28.6102 MiB"}
    assert f"Dropped from 'huge+{ASSIGNMENT}+{TS}+r' (not collected): '{ASSIGNMENT}.ipynb', larger than" in \
        crowded["log"]
    page = (crowded["course"] / "feedback" / "huge" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "could not be graded: larger than 28.6102 MiB" in page and "no notebook at all" not in page
    assert sum(crowded["scores"]["huge"].values()) == 0
    assert crowded["report"].count("left out at collect") >= 2
