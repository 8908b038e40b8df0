"""classroom.intake: a hand-in is read as untrusted: links, hard links, pipes, sockets and devices are dropped, never
followed, also when one is swapped in between the look and the open; odd names are dropped too.

Each test builds a submission folder beside a secret the instructor can read and the student must never reach, copies
it with copy_submission, and checks what arrived, what was dropped, and that no byte of the secret was read.
"""
import os
import socket
import stat

import pytest

from classroom.intake import copy_submission
from tests.grading.intake.submission_tree import assert_no_secret, everything_under


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
