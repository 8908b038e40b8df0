"""Validate tells the truth, and reads every answer as the grader does. nbgrader's Validator, run the way the Validate
button runs it, passes every correct submission of the corpus (tests/submissions/corpus.json, the quiz's included),
each of which the grader gives full marks; for every wrong one it either fails, or each check the grader deducts
says on a `# Only when graded:` line that Validate cannot decide it. The corpus's `lost` lists are what the grader
really deducts: tests/assignment/test_assignment_corpus.py holds them to the recorded grades. And every form of an
answer is read alike in the student's kernel and, through a real grading child, by the grader."""
import json

import numpy as np
import pytest
from nbgrader.validator import Validator

from attention_lesson.quiz.answer_form import AnswerFormatError, canonical
from classroom import cells
from classroom.checks.exercise import three_numbers
from classroom.trusted.proxy import StudentCode
from coursekit import corpus, trial_course

ONLY_WHEN_GRADED = "# Only when graded:"
ENTRIES = corpus.corpus()
# Submissions that are plainly right or plainly wrong; the cheats and robustness cases (hangs, floods, exits) are
# about the grader, and their Validate runs would only wait out time limits.
JUDGED = sorted(name for name, entry in ENTRIES.items() if name.startswith(("correct_", "wrong_"))
                and "edit" not in entry)


def validate(folder, name, nb, notebook=trial_course.ASSIGNMENT):
    path = folder / name / f"{notebook}.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(nb))
    return Validator().validate(str(path))


def only_when_graded(notebook=trial_course.ASSIGNMENT):
    """{grade_id: the `# Only when graded:` lines of its released cell}."""
    released = json.loads((trial_course.RELEASED.parent / f"{notebook}.ipynb").read_text())
    return {cells.grade_id(c): [line for line in cells.source(c).splitlines() if line.startswith(ONLY_WHEN_GRADED)]
            for c in released["cells"] if cells.is_grade(c)}


@pytest.mark.integration
@pytest.mark.parametrize("name", JUDGED)
def test_validate_passes_the_right_and_tells_on_the_wrong(name, tmp_path):
    entry = ENTRIES[name]
    result = validate(tmp_path, name, corpus.notebook(entry), corpus.notebook_name(entry))
    assert set(result) <= {"failed"}, f"{name}: Validate saw edited cells: {result}"
    if name.startswith("correct_"):
        assert entry["lost"] == [], f"{name} is right: the grader must give it full marks (corpus.json)"
        assert not result, f"{name} is right, yet Validate fails it: {result['failed']}"
    elif not result:
        unseen = only_when_graded(corpus.notebook_name(entry))
        lost = unseen if entry["lost"] == "all" else entry["lost"]
        silent = sorted(grade_id for grade_id in lost if grade_id not in entry.get("kept", ())
                        and not unseen[grade_id])
        assert not silent, f"{name} passes Validate, yet the grader deducts {silent}, which Validate fully decides"


@pytest.mark.integration
def test_an_untouched_notebook_fails_validate_saying_what_is_not_answered(tmp_path):
    nb = json.loads(trial_course.RELEASED.read_text())
    failed = validate(tmp_path, "untouched", nb)["failed"]
    assert len(failed) == len([c for c in nb["cells"] if cells.is_grade(c)])
    written = [f for f in failed if f["source"] == "YOUR ANSWER HERE"]  # the derivation, a written answer
    assert [f["raw_error"] for f in written] == ["You did not provide a response."]  # nbgrader's own sentence
    first_check = next(f for f in failed if f not in written)
    assert "not answered" in first_check["raw_error"]



# Answers as a student may write them: (how the grade cells read them, the code). Some are accepted, some refused;
# each must be read the same in the student's kernel (Validate) and by the grader, whose grading child sends the
# value back as plain data (classroom.trusted.protocol).
HAND = ("by_hand", None)
FORMS = [
    (HAND, "[Fraction(1, 2), Fraction(-5, 3), Fraction(7, 6)]"), (HAND, "np.array([1 / 2, -5 / 3, 7 / 6])"),
    (HAND, "(0.5, -5 / 3, 7 / 6)"), (HAND, "[np.float32(0.5), np.float64(-5 / 3), 7 / 6]"),
    (HAND, "np.array([Fraction(1, 2), Fraction(-5, 3), Fraction(7, 6)], dtype=object)"),
    (HAND, "[Decimal(1) / 2, Decimal(-5) / 3, Decimal(7) / 6]"), (HAND, "['0.5', '-1.6666667', '1.1666667']"),
    (HAND, "[np.int64(1), 2, 3]"), (HAND, "[1, 2]"), (HAND, "'1/2, -5/3, 7/6'"), (HAND, "{0.5, 1.0, 2.0}"),
    (HAND, "[[0.5, -5 / 3, 7 / 6]]"), (HAND, "[0.5, float('nan'), 1]"), (HAND, "None"),
    (("number", ""), "Fraction(678823, 100000)"), (("number", ""), "np.float32(6.788)"),
    (("number", ""), "np.int64(7)"), (("number", ""), "Decimal('6.788')"), (("number", ""), "7"),
    (("number", ""), "'6.788'"), (("number", ""), "True"), (("number", ""), "[6.788]"), (("number", ""), "1j"),
    (("single", "abcde"), "np.str_('a')"), (("single", "abcde"), "' A '"), (("single", "abcde"), "'a'"),
    (("single", "abcde"), "['a']"), (("single", "abcde"), "'f'"), (("single", "abcde"), "1"),
    (("multi", "abcde"), "{np.str_('a'), 'd', 'e'}"), (("multi", "abcde"), "[np.str_('a'), np.str_('d')]"),
    (("multi", "abcde"), "('a', 'd', 'e')"), (("multi", "abcde"), "frozenset('ade')"),
    (("multi", "abcde"), "np.array(['a', 'd', 'e'])"), (("multi", "abcde"), "np.array(['a', 'd'], dtype=object)"),
    (("multi", "abcde"), "'ade'"), (("multi", "abcde"), "{'a', 1}"), (("multi", "abcde"), "{' B ', 'c'}"),
]
IMPORTS = "from decimal import Decimal\nfrom fractions import Fraction\n\nimport numpy as np\n\n"


def read(how, value):
    """The grade cells' reading of an answer: ("read", what it stands for) or ("refused", None)."""
    try:
        if how is HAND:
            return "read", three_numbers(value).tolist()
        return "read", str(canonical(*how, value))
    except (AssertionError, AnswerFormatError):
        return "refused", None


@pytest.mark.integration
def test_every_form_of_an_answer_is_read_alike_by_validate_and_by_the_grader():
    in_kernel = []
    for _, code in FORMS:
        namespace = {}
        exec(IMPORTS + f"answer = {code}\n", namespace)
        in_kernel.append(namespace["answer"])
    with StudentCode([IMPORTS + f"answer_{i} = {code}\n" for i, (_, code) in enumerate(FORMS)],
                     launcher=trial_course.LAUNCHER) as student:
        by_grader = [student.lookup(f"answer_{i}") for i in range(len(FORMS))]
    disagree = [(code, read(how, mine), read(how, theirs)) for (how, code), mine, theirs in
                zip(FORMS, in_kernel, by_grader) if read(how, mine) != read(how, theirs)]
    assert not disagree, f"(form, Validate's reading, the grader's): {disagree}"
    accepted = {code for (how, code), value in zip(FORMS, in_kernel) if read(how, value)[0] == "read"}
    assert {"[Fraction(1, 2), Fraction(-5, 3), Fraction(7, 6)]", "Fraction(678823, 100000)", "np.str_('a')",
            "{np.str_('a'), 'd', 'e'}", "Decimal('6.788')"} <= accepted
    assert np.allclose(read(HAND, in_kernel[0])[1], [1 / 2, -5 / 3, 7 / 6])
