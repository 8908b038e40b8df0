"""classroom.intake: the hand-in as a whole: it must be a folder, copied into a new or empty one; the time taken
is the server's, entries another account wrote are dropped, collect's receipt reads back, and the course collects
through intake."""
import os

import pytest

from classroom import intake
from classroom.intake import BadSubmission, copy_submission


# ---- the author, the server's time, the receipt ----------------------------------------------------------------------
def test_the_time_taken_is_the_servers_last_change_not_the_files_own(tree):
    import time

    folder, _, dest = tree
    (folder / "score_gradient.ipynb").write_text("{}")
    before = time.time()
    os.utime(folder / "score_gradient.ipynb", (0, 0))  # a student may set mtime back; the ctime moves to now
    os.utime(folder, (0, 0))
    taken = intake.take_submission(folder, dest)
    assert before - 1 <= taken.changed <= time.time() + 1
    assert os.stat(dest / "score_gradient.ipynb").st_mtime == 0  # the file's own time is kept as it was


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another account needs root")
def test_an_entry_another_account_wrote_is_dropped(tree):
    folder, _, dest = tree
    (folder / "score_gradient.ipynb").write_text("{}")
    (folder / "planted.ipynb").write_text("{}")
    os.chown(folder / "planted.ipynb", 65534, 65534)
    dropped = copy_submission(folder, dest, owner=os.geteuid())
    assert len(dropped) == 1 and dropped[0][0] == "planted.ipynb" and "written by another account" in dropped[0][1]
    assert sorted(os.listdir(dest)) == ["score_gradient.ipynb", "timestamp.txt"]


def test_collects_receipt_is_written_and_read_back_and_a_bad_one_reads_as_none(tmp_path):
    intake.write_receipt(tmp_path, {"account": "ann", "dropped": [["a", "b"]]})
    assert intake.read_receipt(tmp_path) == {"account": "ann", "dropped": [["a", "b"]]}
    (tmp_path / intake.RECEIPT).write_text("[1, 2")
    assert intake.read_receipt(tmp_path) == {}
    assert intake.read_receipt(tmp_path / "missing") == {}


# ---- the folder itself -------------------------------------------------------------------------------------------
def test_a_submission_that_is_a_link_to_a_folder_is_refused_and_nothing_written(tree):
    folder, secret, dest = tree
    linked = folder.parent / "bob+score_gradient+2024-05-01 10:00:00 UTC"
    os.symlink(secret.parent, linked)
    with pytest.raises(BadSubmission, match="is a symbolic link, not a folder"):
        copy_submission(linked, dest)
    assert not dest.exists()


def test_a_submission_that_is_a_file_or_a_pipe_is_refused(tree):
    folder, _, dest = tree
    os.mkfifo(folder.parent / "pipe")
    (folder.parent / "file").write_text("{}")
    for name, what in (("pipe", "a named pipe"), ("file", "a regular file")):
        with pytest.raises(BadSubmission, match=f"is {what}"):
            copy_submission(folder.parent / name, dest)


def test_the_destination_must_be_new_or_empty(tree):
    folder, _, dest = tree
    dest.mkdir()
    assert copy_submission(folder, dest) == []  # an empty folder is fine
    with pytest.raises(FileExistsError):
        copy_submission(folder, dest)


def test_the_course_configuration_collects_through_intake_on_the_command_line_and_in_the_formgrader(root):
    """`nbgrader collect` and the formgrader's Collect button both take their class from ExchangeFactory."""
    from nbgrader.exchange import ExchangeFactory
    from traitlets.config.loader import PyFileConfigLoader

    from classroom.plugins.exchange_collect import SafeCollect

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    assert ExchangeFactory(config=config).collect is SafeCollect
