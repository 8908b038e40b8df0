"""classroom.intake: a hand-in is read as untrusted: links, hard links, pipes, sockets and devices are dropped, never
followed; odd names, deep folders and files past the size and count caps are dropped too; the ids are plain.

Each test builds a submission folder beside a secret the instructor can read and the student must never reach, copies
it with copy_submission, and checks what arrived, what was dropped, and that no byte of the secret was read.
"""
import os
import socket
import stat

import pytest

from classroom import intake
from classroom.intake import BadSubmission, check_student_id, copy_submission

SECRET = b"instructor-only: def score_gradient(A, G): return A * (G - (A * G).sum(-1, keepdims=True))\n"


@pytest.fixture
def tree(tmp_path):
    """(submission folder, secret file outside it, destination path not yet created)."""
    secret = tmp_path / "source" / "secret.ipynb"
    secret.parent.mkdir()
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    folder = tmp_path / "inbound" / "alice+score_gradient+2024-05-01 10:00:00.000000 UTC"
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text("2024-05-01 10:00:00.000000 UTC")
    return folder, secret, tmp_path / "staged"


def everything_under(path):
    """{relative name: bytes} of every regular file under `path` (never following a link)."""
    out = {}
    for folder, _, files in os.walk(path):
        for name in files:
            full = os.path.join(folder, name)
            assert stat.S_ISREG(os.lstat(full).st_mode), f"{full} is not a regular file"
            out[os.path.relpath(full, path)] = open(full, "rb").read()
    return out


def assert_no_secret(dest):
    assert not [name for name, data in everything_under(dest).items() if SECRET[:30] in data]


# ---- student ids -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("student_id", ["alice", "Bob_2", "c.d-e", "s0", "x.y.z", "a-"])
def test_a_plain_student_id_is_accepted(student_id):
    check_student_id(student_id)


@pytest.mark.parametrize("student_id, named", [
    ("c15eve,,,,21.0", "','"), ('=HYPERLINK("x")', "'='"), ("+1", "'+'"), ("@SUM(A1)", "'@'"), ("a b", "' '"),
    ("a/b", "'/'"), ("..", "'..'"), (".", "'.'"), ("-rf", "starts with '-'"), ("", "empty"), ("a\nb", r"'\n'"),
    ("\tx", r"'\t'"), ("é", "'é'"), ("a+b", "'+'"), ("x;y", "';'"), ('a"b', "'\"'")])
def test_a_student_id_that_is_not_plain_is_refused_saying_why_and_what_to_do(student_id, named):
    with pytest.raises(BadSubmission) as refused:
        check_student_id(student_id)
    message = str(refused.value)
    assert named in message and "letters, digits" in message and "collect again" in message
    assert isinstance(refused.value, ValueError)


# ---- what is copied ----------------------------------------------------------------------------------------------
def test_regular_files_arrive_byte_identical_with_their_time_and_nothing_is_dropped(tree):
    folder, _, dest = tree
    data = bytes(range(256)) * 300
    (folder / "score_gradient.ipynb").write_bytes(data)
    (folder / "data" / "deeper").mkdir(parents=True)
    (folder / "data" / "deeper" / "notes.txt").write_bytes(b"")
    (folder / "empty").mkdir()
    os.utime(folder / "score_gradient.ipynb", ns=(1_600_000_000_000_000_000, 1_700_000_000_123_456_789))
    assert copy_submission(folder, dest) == []
    assert everything_under(dest) == everything_under(folder)
    assert (dest / "empty").is_dir()
    assert os.stat(dest / "score_gradient.ipynb").st_mtime_ns == 1_700_000_000_123_456_789


def test_symbolic_links_of_every_kind_are_dropped_and_never_followed(tree):
    folder, secret, dest = tree
    (folder / "score_gradient.ipynb").write_text("{}")
    os.symlink(secret, folder / "to_a_file.ipynb")
    os.symlink(secret.parent, folder / "to_a_folder")
    os.symlink(folder.parent / "nowhere", folder / "dangling.ipynb")
    os.symlink(os.path.join("..", "..", "source", "secret.ipynb"), folder / "relative.ipynb")
    os.symlink("..", folder / "parent")
    dropped = dict(copy_submission(folder, dest))
    assert dropped == {name: "a symbolic link" for name in
                       ("to_a_file.ipynb", "to_a_folder", "dangling.ipynb", "relative.ipynb", "parent")}
    assert set(everything_under(dest)) == {"score_gradient.ipynb", "timestamp.txt"}
    assert_no_secret(dest)


def test_a_hard_link_to_a_file_outside_is_dropped(tree):
    folder, secret, dest = tree
    os.link(secret, folder / "copy.ipynb")
    assert copy_submission(folder, dest) == [("copy.ipynb", "a hard link (the same file has 2 names)")]
    assert_no_secret(dest)


def test_a_named_pipe_is_dropped_without_blocking_and_the_rest_is_copied(tree):
    folder, _, dest = tree
    os.mkfifo(folder / "pipe.ipynb")  # no writer: a plain open() for reading would wait forever
    (folder / "z.ipynb").write_text("{}")
    assert copy_submission(folder, dest) == [("pipe.ipynb", "a named pipe (FIFO)")]
    assert set(everything_under(dest)) == {"timestamp.txt", "z.ipynb"}


def test_a_socket_and_a_device_are_dropped(tree, monkeypatch):
    folder, _, dest = tree
    monkeypatch.chdir(folder)  # a unix socket's path is limited to 108 bytes: bind it by a relative name
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind("sock")
        expected = [("sock", "a socket")]
        try:
            os.mknod("null", stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers
            expected.insert(0, ("null", "a device"))
        except PermissionError:
            pass  # only root makes device nodes; the device case is then the swap test below
        assert copy_submission(folder, dest) == expected


def test_odd_names_are_dropped(tree):
    folder, _, dest = tree
    for name in ("new\nline.ipynb", "back\\slash.ipynb", "bell\a", "del\x7f"):
        (folder / name).write_text("{}")
    dropped = copy_submission(folder, dest)
    assert sorted(name for name, _ in dropped) == sorted(["new\nline.ipynb", "back\\slash.ipynb", "bell\a", "del\x7f"])
    assert {why for _, why in dropped} == {"its name holds a control character or a backslash"}


def test_folders_deeper_than_the_limit_are_dropped(tree):
    folder, _, dest = tree
    deep = folder.joinpath(*"abcdef")
    deep.mkdir(parents=True)
    for level in range(1, 7):
        folder.joinpath(*"abcdef"[:level], "f.txt").write_text(str(level))
    assert copy_submission(folder, dest, max_depth=4) == [("a/b/c/d/e", "a folder nested more than 4 levels deep")]
    assert (dest / "a" / "b" / "c" / "d" / "f.txt").read_text() == "4"


def test_a_file_over_the_size_cap_is_dropped_and_one_at_the_cap_is_kept(tree):
    folder, _, dest = tree
    (folder / "at_cap.bin").write_bytes(b"x" * 1000)
    (folder / "over_cap.bin").write_bytes(b"x" * 1001)
    dropped = copy_submission(folder, dest, max_file_bytes=1000)
    assert dropped == [("over_cap.bin", "larger than 1000 bytes")]
    assert (dest / "at_cap.bin").stat().st_size == 1000 and not (dest / "over_cap.bin").exists()


def test_the_default_caps_are_documented_numbers(tree):
    folder, _, dest = tree
    with open(folder / "huge.ipynb", "wb") as sparse:  # 20 MiB + 1 byte of holes: no disk used
        sparse.truncate(20 * 2**20 + 1)
    assert copy_submission(folder, dest) == [("huge.ipynb", "larger than 20 MiB")]
    assert (intake.MAX_FILE_BYTES, intake.MAX_TOTAL_BYTES, intake.MAX_FILES) == (20 * 2**20, 50 * 2**20, 200)


def test_the_total_cap_drops_the_file_that_would_pass_it(tree):
    folder, _, dest = tree
    (folder / "timestamp.txt").unlink()
    for name in "abc":
        (folder / f"{name}.bin").write_bytes(b"x" * 400)
    assert copy_submission(folder, dest, max_total_bytes=1000) == [
        ("c.bin", "it would take the submission past 1000 bytes in all")]
    assert sorted(os.listdir(dest)) == ["a.bin", "b.bin"]


def test_files_beyond_the_count_cap_are_dropped(tree):
    folder, _, dest = tree
    for i in range(7):
        (folder / f"f{i}.txt").write_text(str(i))
    dropped = copy_submission(folder, dest, max_files=5)
    assert len(everything_under(dest)) == 5
    assert [why for _, why in dropped] == ["more than 5 files in the submission"] * 3


def test_a_flood_of_names_is_read_only_up_to_the_cap(tree):
    folder, secret, dest = tree
    (folder / "timestamp.txt").unlink()  # only links: whichever ten names are read first, each is dropped
    for i in range(50):
        os.symlink(secret, folder / f"link{i:02d}")
    dropped = copy_submission(folder, dest, max_entries=10)
    assert len(dropped) == 11
    assert dropped[0] == (".", "more than 10 names in the submission: the rest was not read")


def test_nbgrader_ignore_and_include_globs_are_honoured(tree):
    folder, _, dest = tree
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "x-checkpoint.ipynb").write_text("{}")
    (folder / "grade_cells.py").write_text("x")
    (folder / "kept.ipynb").write_text("{}")
    (folder / "left.csv").write_text("1")
    assert copy_submission(folder, dest, ignore=[".ipynb_checkpoints", "grade_cells.py"],
                           include=["*.ipynb", "*.txt"]) == []
    assert sorted(os.listdir(dest)) == ["kept.ipynb", "timestamp.txt"]


# ---- the assignment's notebooks first, the author, the server's time ----------------------------------------------
def test_the_assignments_notebook_is_taken_first_whatever_else_the_folder_holds(tree):
    folder, _, dest = tree
    (folder / "a_figures").mkdir()
    for i in range(12):
        (folder / "a_figures" / f"f{i:02d}.png").write_bytes(b"png")
    (folder / "score_gradient.ipynb").write_bytes(b"n" * 3000)
    dropped = copy_submission(folder, dest, max_files=5, max_total_bytes=10000, max_file_bytes=100,
                              first=("score_gradient.ipynb", "intuition_quiz.ipynb"), first_max_bytes=4000)
    assert (dest / "score_gradient.ipynb").stat().st_size == 3000 and (dest / "timestamp.txt").exists()
    assert len(dropped) == 12 + 2 - 5 and {why for _, why in dropped} == {"more than 5 files in the submission"}


def test_a_first_notebook_over_its_own_cap_is_dropped_with_the_reason(tree):
    folder, _, dest = tree
    (folder / "score_gradient.ipynb").write_bytes(b"n" * 3001)
    assert copy_submission(folder, dest, first=("score_gradient.ipynb",), first_max_bytes=3000) == [
        ("score_gradient.ipynb", "larger than 3000 bytes")]


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


def test_collects_record_is_written_and_read_back_and_a_bad_one_reads_as_none(tmp_path):
    intake.write_record(tmp_path, {"account": "ann", "dropped": [["a", "b"]]})
    assert intake.read_record(tmp_path) == {"account": "ann", "dropped": [["a", "b"]]}
    (tmp_path / intake.RECORD).write_text("[1, 2")
    assert intake.read_record(tmp_path) == {}
    assert intake.read_record(tmp_path / "missing") == {}


# ---- a swap between the check and the open -------------------------------------------------------------------------
@pytest.mark.parametrize("swap_to, why", [
    ("symlink", "changed while being read: it is now a symbolic link"),
    ("fifo", "changed while being read: now a named pipe (FIFO)"),
    ("folder", "changed while being read: now a folder"),
])
def test_a_file_swapped_after_it_was_looked_at_is_not_read(tree, monkeypatch, swap_to, why):
    """The student replaces a regular file between the grader's look (lstat) and its open."""
    folder, secret, dest = tree
    target = folder / "score_gradient.ipynb"
    target.write_text("{}")
    real_stat = os.stat

    def stat_then_swap(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if path == target.name and kwargs.get("dir_fd") is not None:
            target.unlink()
            {"symlink": lambda: os.symlink(secret, target), "fifo": lambda: os.mkfifo(target),
             "folder": lambda: target.mkdir()}[swap_to]()
        return result

    monkeypatch.setattr(os, "stat", stat_then_swap)
    assert copy_submission(folder, dest) == [("score_gradient.ipynb", why)]
    assert_no_secret(dest)


def test_a_folder_swapped_for_a_link_to_another_folder_is_not_entered(tree, monkeypatch):
    folder, secret, dest = tree
    (folder / "sub").mkdir()
    real_stat = os.stat

    def stat_then_swap(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if path == "sub" and kwargs.get("dir_fd") is not None:
            (folder / "sub").rmdir()
            os.symlink(secret.parent, folder / "sub")
        return result

    monkeypatch.setattr(os, "stat", stat_then_swap)
    assert copy_submission(folder, dest) == [("sub", "changed while being read: it is no longer a folder")]
    assert_no_secret(dest)


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


def test_a_file_that_fails_to_read_is_dropped_and_the_rest_copied(tree, monkeypatch):
    folder, _, dest = tree
    (folder / "bad.ipynb").write_text("{}")
    real_read = os.read

    def read(fd, n):
        if os.readlink(f"/proc/self/fd/{fd}").endswith("/bad.ipynb"):
            raise OSError(5, "Input/output error")
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", read)
    assert copy_submission(folder, dest) == [("bad.ipynb", "could not be read (Input/output error)")]
    assert sorted(os.listdir(dest)) == ["timestamp.txt"]


def test_the_course_configuration_collects_through_intake_on_the_command_line_and_in_the_formgrader(root):
    """`nbgrader collect` and the formgrader's Collect button both take their class from ExchangeFactory."""
    from nbgrader.exchange import ExchangeFactory
    from traitlets.config.loader import PyFileConfigLoader

    from classroom.plugins.exchange_collect import SafeCollect

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    assert ExchangeFactory(config=config).collect is SafeCollect
