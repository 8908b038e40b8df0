"""The rules behind a semester without surprises, decided without grading anyone: which files may be a misnamed
notebook, when grading by hand is cleared, files written whole or not at all, a feedback page's stamp, the
configuration, the student id rule. The instructor's decisions and due dates are tested in tests/decisions/."""
import os

import nbformat
import pytest

from classroom import atomic
from classroom.grading import notebook_files, record, settings
from classroom.intake import BadSubmission, require_plain_id
from classroom.plugins.release_feedback import page_stamp

# ---- misnamed notebooks, and what clears grading by hand --------------------------------------------------------
def _folder(tmp_path, *names):
    for name in names:
        (tmp_path / name).write_text("{}")
    return str(tmp_path)


def test_files_that_may_be_a_notebook_not_taken_are_its_suspects(tmp_path):
    found = notebook_files.handed_in_all(_folder(tmp_path, "my_answers.ipynb", "intuition_quiz.ipynb"),
                                         ["score_gradient", "intuition_quiz"])
    assert found["score_gradient"][0] is None and found["score_gradient"][2] == ("my_answers.ipynb",)
    assert "grade it by hand" in found["score_gradient"][1] and found["intuition_quiz"][2] == ()
    copies = tmp_path / "copies"
    copies.mkdir()
    found = notebook_files.handed_in_all(_folder(copies, "Copy of score_gradient.ipynb", "score_gradient-1.ipynb"),
                                         ["score_gradient", "intuition_quiz"])
    assert found["score_gradient"][2] == ("Copy of score_gradient.ipynb", "score_gradient-1.ipynb")
    assert found["intuition_quiz"][2] == ()  # copies of another notebook are not this one's
    alone = tmp_path / "alone"
    alone.mkdir()
    found = notebook_files.handed_in_all(_folder(alone, "score_gradient.ipynb"), ["score_gradient", "intuition_quiz"])
    assert found["intuition_quiz"] == (None, found["intuition_quiz"][1], ())  # simply not handed in


def test_grading_by_hand_is_cleared_only_for_work_known_to_have_changed(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    (tmp_path / "a.ipynb").write_text(nbformat.writes(nb))
    first = record.content_digest(tmp_path, "a.ipynb")
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="ran")]
    nb.metadata["widgets"] = {"state": 1}
    (tmp_path / "b.ipynb").write_text(nbformat.writes(nb))
    assert record.content_digest(tmp_path, "b.ipynb") == first  # outputs, metadata, the file's name: same work
    nb.cells[0].source = "x = 2"
    (tmp_path / "c.ipynb").write_text(nbformat.writes(nb))
    changed = record.content_digest(tmp_path, "c.ipynb")
    assert changed != first and record.content_digest(tmp_path, None) is None
    previous = {"hw": record.entry("s", "v", "g", content=first)}
    assert not record.content_changed(previous, "hw", first) and record.content_changed(previous, "hw", changed)
    assert not record.content_changed({}, "hw", changed)  # no record (autograded/ removed): nothing known, kept
    assert not record.content_changed({"hw": record.entry("s", "v", "g")}, "hw", changed)  # an earlier grader's


# ---- files whole or not at all -----------------------------------------------------------------------------------
def test_a_file_is_replaced_whole_or_left_as_it_was(tmp_path):
    path = tmp_path / "grades.csv"
    atomic.write_text(path, "old, whole\n")
    with pytest.raises(OSError):
        with atomic.replacing(path) as handle:
            handle.write("new, half")
            raise OSError(28, "No space left on device")
    assert path.read_text() == "old, whole\n" and os.listdir(tmp_path) == ["grades.csv"]
    atomic.write_text(path, "new\n")
    assert path.read_text() == "new\n" and oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---- feedback pages, the configuration, student ids --------------------------------------------------------------
def test_a_pages_stamp_is_read_whatever_the_order_of_its_attributes(tmp_path):
    for head in ('<meta name="classroom-grading" content="0a1b">', '<meta content="0a1b" name="classroom-grading"/>'):
        (tmp_path / "p.html").write_text(f"<html><head><title>x</title>{head}</head><body></body></html>")
        assert page_stamp(tmp_path / "p.html") == "0a1b"
    (tmp_path / "p.html").write_text("<html><head><title>made before stamps</title></head></html>")
    assert page_stamp(tmp_path / "p.html") is None


def test_a_launcher_given_by_its_short_name_is_no_configuration_problem():
    from traitlets.config import Config

    import classroom.sandbox.launchers  # noqa: F401 (the driver has Grader imported when it checks)

    config = Config()
    config.Grader.launcher_class = "unsandboxed"
    assert settings.problems(config) == []
    config.Grader.launcher_class = "nosuch.Launcher"
    assert any("nosuch.Launcher" in problem for problem in settings.problems(config))


def test_a_letter_that_is_not_ascii_is_refused_saying_so():
    with pytest.raises(BadSubmission) as refused:
        require_plain_id("zoë")
    assert "'ë' (a letter, but not an ASCII one)" in str(refused.value)
    assert "only ASCII letters, digits" in str(refused.value) and "Linux account name" in str(refused.value)
