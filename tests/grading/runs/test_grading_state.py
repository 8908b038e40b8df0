"""The pieces of classroom.grading that decide without grading: which file is which notebook, whether a recorded
grading still holds, and what is wrong with a configuration."""
import os

import pytest
from traitlets.config import Config

from classroom.grading import record, result, settings
from classroom.grading import notebook_files as names

NB = "score_gradient"


def folder_with(tmp_path, *files):
    for name in files:
        (tmp_path / name).write_text("{}")
    return str(tmp_path)


@pytest.mark.parametrize("copy", [f"{NB} (1).ipynb", f"{NB}-2.ipynb", f"{NB}-Copy1.ipynb", f"Copy of {NB}.ipynb",
                                  f"{NB} copy.ipynb"])
def test_one_renamed_copy_is_taken_and_said(tmp_path, copy):
    found, note = names.handed_in(folder_with(tmp_path, copy, "notes.txt"), NB, ["intuition_quiz"])
    assert found == copy and f"`{copy}`" in note and f"`{NB}.ipynb`" in note


def test_the_exact_name_wins_and_says_nothing(tmp_path):
    assert names.handed_in(folder_with(tmp_path, f"{NB}.ipynb", f"{NB} (1).ipynb"), NB) == (f"{NB}.ipynb", None)


def test_two_copies_or_none_name_what_was_expected_and_found(tmp_path):
    found, note = names.handed_in(folder_with(tmp_path, f"{NB} (1).ipynb", f"{NB}-1.ipynb"), NB)
    assert found is None and "several copies" in note and f"`{NB} (1).ipynb`" in note
    other = tmp_path / "other"
    other.mkdir()
    found, note = names.handed_in(folder_with(other, "homework.ipynb"), NB)
    assert found is None and f"Expected `{NB}.ipynb`" in note and "`homework.ipynb`" in note


def test_another_notebook_of_the_assignment_is_never_taken(tmp_path):
    found, _ = names.handed_in(folder_with(tmp_path, "intuition_quiz.ipynb"), "intuition", ["intuition_quiz"])
    assert found is None


def test_a_symlinked_notebook_is_not_a_notebook(tmp_path):
    (tmp_path / "elsewhere.ipynb").write_text("{}")
    os.symlink(tmp_path / "elsewhere.ipynb", tmp_path / f"{NB}.ipynb")
    assert names.handed_in(str(tmp_path), NB, ["elsewhere"])[0] is None


def test_a_record_holds_only_while_everything_matches(tmp_path):
    record.write(tmp_path, {NB: record.entry("s1", "v1", "g1")})
    (tmp_path / f"{NB}.ipynb").write_text("{}")
    result.write(tmp_path, result.Result("ann", NB, NB, result.GRADED))
    recorded = record.read(tmp_path)
    assert record.stale_notebooks(recorded, {NB: ("s1", "v1", "g1")}, tmp_path) == {}
    for expected, words in [(("s2", "v1", "g1"), "handed in again"), (("s1", "v2", "g1"), "assignment"),
                            (("s1", "v1", "g2"), "gradebook"), (("s1", "v1", None), "gradebook")]:
        assert words in record.stale_notebooks(recorded, {NB: expected}, tmp_path)[NB]
    (tmp_path / result.file_name(NB)).write_text('{"format": 0}')  # graded before results, or by another version
    assert "grading result is missing" in record.stale_notebooks(recorded, {NB: ("s1", "v1", "g1")}, tmp_path)[NB]
    (tmp_path / f"{NB}.ipynb").unlink()
    assert "missing" in record.stale_notebooks(recorded, {NB: ("s1", "v1", "g1")}, tmp_path)[NB]


def test_an_unfinished_or_damaged_record_never_holds(tmp_path):
    record.write(tmp_path, {NB: record.entry("s", "v", "g", complete=False, why="the grader failed")})
    assert "did not finish (the grader failed)" in record.stale_notebooks(record.read(tmp_path),
                                                                         {NB: ("s", "v", "g")}, tmp_path)[NB]
    (tmp_path / record.RECORD).write_text("{not json")
    assert record.read(tmp_path) is None
    assert "damaged" in record.stale_notebooks(None, {NB: ("s", "v", "g")}, tmp_path)[NB]
    assert record.stale_notebooks({}, {NB: ("s", "v", "g")}, tmp_path)[NB].startswith("it has not been graded")


def test_the_submission_digest_follows_the_bytes_and_the_timestamp(tmp_path):
    (tmp_path / f"{NB}.ipynb").write_text("one")
    first = record.submission_digest(tmp_path, f"{NB}.ipynb")
    (tmp_path / "timestamp.txt").write_text("2026-11-30 10:00:00")
    second = record.submission_digest(tmp_path, f"{NB}.ipynb")
    (tmp_path / f"{NB}.ipynb").write_text("two")
    assert len({first, second, record.submission_digest(tmp_path, f"{NB}.ipynb")}) == 3


def test_configuration_problems_are_named_with_the_fix():
    config = Config()
    config.AssignLatePenalties.plugin_class = "nosuch.Plugin"
    config.LateSubmisionPlugin.penalty_method = "zero"
    config.ExecuteForDisplay.timout = 3
    config.Autograde.autograde_preprocessors = ["classroom.preprocessors.execute_for_display.ExecuteForDisplay",
                                                "nbgrader.preprocessors.AssignLatePenalties", "nosuch.Step"]
    found = "\n".join(settings.problems(config))
    assert "`nosuch.Step`, which cannot be imported" in found
    assert "did you mean `timeout`" in found and "did you mean `LateSubmissionPlugin`" in found
    assert "nosuch.Plugin" in found
    wrong_value = Config()
    wrong_value.LateSubmissionPlugin.penalty_method = "half"
    assert any("half" in p for p in settings.problems(wrong_value))


def test_sections_for_other_programs_in_a_shared_configuration_stop_nothing():
    # a jupyter_config.py an instructor shares with JupyterLab and Voila: no grading class is near these names
    # (real options: where one of these classes happens to be imported, its options are checked too)
    config = Config()
    config.VoilaConfiguration.strip_sources = True
    config.IPKernelApp.matplotlib = "inline"
    config.HistoryManager.enabled = False
    config.GatewayClient.url = "http://gateway.example:8888"
    config.TerminalIPythonApp.display_banner = False
    assert settings.problems(config) == []


def test_options_of_a_class_that_shares_its_name_are_known():
    # nbgrader has an abstract Exchange without `root` and the Exchange that reads it:
    # INSTRUCTORS.md sets c.Exchange.root
    config = Config()
    config.Exchange.root = "/srv/exchange"
    config.Exchange.rot = "/srv/exchange"
    found = settings.problems(config)
    assert found == ["`c.Exchange.rot` is not an option of Exchange (did you mean `root`?)"], found


def test_the_course_configuration_has_no_problems():
    from classroom import course
    assert settings.problems(course.course_app(["score_gradient"]).config) == []


def test_a_file_name_in_a_note_carries_no_markup(tmp_path):
    """The notes go into the student's feedback as Markdown: a name the student chose shows as plain text."""
    _, note = names.handed_in(folder_with(tmp_path, "<img src=x onerror=alert(1)>.ipynb", "a`b`.ipynb"), NB)
    assert "<" not in note and "a`b`" not in note and "?img src?x onerror?alert(1)?.ipynb" in note
