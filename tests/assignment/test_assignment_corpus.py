"""The corpus of submissions (tests/submissions/): full marks for every correct variant, no unearned marks.

All entries are graded in one session-wide `make autograde` run (the `graded_corpus` fixture); each test checks
one student's recorded score for every grade cell against tests/submissions/corpus.json.
"""
import pytest

from coursekit import corpus, trial_course
from coursekit.quiz.answers import FORMS

ENTRIES = corpus.corpus()


def test_the_corpus_covers_every_kind():
    kinds = {name.split("_")[0] for name in ENTRIES}
    assert {"correct", "wrong", "cheat", "robust"} <= kinds
    files = {p.name for p in trial_course.SUBMISSIONS.glob("*.py")}
    used = {name for entry in ENTRIES.values() if "solution" in entry for name in corpus.files(entry["solution"])}
    forms = {form for entry in ENTRIES.values() for form in entry.get("forms", {}).values()}
    assert forms <= set(FORMS), f"answer forms not in coursekit.quiz.answers.FORMS: {sorted(forms - set(FORMS))}"
    assert files == used, f"solution files not in corpus.json: {sorted(files - used)}; missing: {sorted(used - files)}"
    answers = {p.name for p in trial_course.ANSWERS.iterdir() if p.suffix in (".py", ".md")}  # .md: a written answer
    defaults = {next(trial_course.ANSWERS.glob(f"{grade_id}.*")).name for grade_id in trial_course.answer_cells()}
    used = {name for entry in ENTRIES.values() for code in entry.get("answers", {}).values() if code
            for name in corpus.files(code)} | defaults
    assert answers == used, f"answer files not used: {sorted(answers - used)}; missing: {sorted(used - answers)}"


@pytest.mark.integration
@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_recorded_scores(name, graded_corpus):
    results, maximum = graded_corpus
    entry = ENTRIES[name]
    notebook = corpus.notebook_name(entry)
    maximum = maximum[notebook]
    assert name in results, f"{name} has no recorded grade at all"
    place, grades = results[name]
    lost = set(maximum) - set(entry.get("kept", ())) if entry["lost"] == "all" else set(entry["lost"])
    named = lost | set(entry.get("kept", ()))
    assert named <= set(maximum), f"unknown grade ids in corpus.json: {sorted(named - set(maximum))}"
    expected = {grade_id: 0.0 if grade_id in lost else points for grade_id, points in maximum.items()}
    messages = trial_course.messages(place, name, notebook)
    wrong = {g: (grades.get(g), expected[g], messages.get(g)) for g in expected if grades.get(g) != expected[g]}
    assert not wrong, f"{name}: (recorded, expected, message) per grade cell: {wrong}"


@pytest.mark.integration
def test_no_wrong_or_cheating_entry_gets_full_marks(graded_corpus):
    results, maximum = graded_corpus
    for name, entry in ENTRIES.items():
        if name.startswith(("wrong", "cheat")):
            cells = maximum[corpus.notebook_name(entry)]
            assert sum(results[name][1][grade_id] for grade_id in cells) < sum(cells.values()), name


@pytest.mark.integration
def test_autograding_never_copies_the_checks_file(graded_corpus):
    """source/score_gradient/grade_cells.py (the checks' code) never reaches a student's autograded folder. Here, beside
    the other users of the graded corpus, so that `--dist loadfile` grades it once."""
    results, _ = graded_corpus
    course_path, _ = next(iter(results.values()))
    autograded = [p for p in (course_path / "autograded").rglob("*") if p.is_file()]
    assert autograded and not [p for p in autograded if p.name == "grade_cells.py"]
