"""`classroom exchange` (make exchange; classroom/app/exchange.py): nbgrader's exchange folder, rwx for everyone plus
the sticky bit, at the root nbgrader reads from the course's configuration; where that needs root, the sudo command
instead. And the course's folder in it, made with nbgrader's modes before any student can take the name."""
import grp
import os
import stat

import pytest

from classroom.app import exchange as tool



def test_creates_the_folder_with_nbgraders_permissions_and_the_sticky_bit(tmp_path):
    root = tmp_path / "share" / "exchange"
    assert tool.make_exchange(str(root)) is None
    mode = stat.S_IMODE(os.stat(root).st_mode)
    assert mode & 0o777 == 0o777 and mode & stat.S_ISVTX, oct(mode)


def test_repairs_the_permissions_of_an_existing_folder(tmp_path):
    root = tmp_path / "exchange"
    root.mkdir(mode=0o755)
    assert tool.make_exchange(str(root)) is None
    assert stat.S_IMODE(os.stat(root).st_mode) == 0o1777


def test_without_the_right_to_create_it_names_the_sudo_command(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tool.os, "makedirs", refuse)
    message = tool.make_exchange(str(tmp_path / "not yet"))
    assert f"sudo install -d -m 1777 '{tmp_path / 'not yet'}'" in message


def test_the_course_folder_is_made_with_nbgraders_modes_and_a_sticky_inbound(tmp_path):
    root = tmp_path / "exchange"
    assert tool.make_exchange(str(root)) is None
    assert tool.make_course_folder(str(root), "sqrt-dk", os.geteuid(), os.getegid()) is None
    modes = {name: stat.S_IMODE(os.stat(root / "sqrt-dk" / name).st_mode)
             for name in ("", "outbound", "inbound", "feedback")}
    assert modes == {"": 0o755, "outbound": 0o755, "inbound": 0o3733, "feedback": 0o711}, modes


def test_with_groupshared_the_instructors_group_may_write_and_list(tmp_path):
    root = tmp_path / "exchange"
    assert tool.make_exchange(str(root)) is None
    assert tool.make_course_folder(str(root), "sqrt-dk", os.geteuid(), os.getegid(), groupshared=True) is None
    modes = {name: stat.S_IMODE(os.stat(root / "sqrt-dk" / name).st_mode)
             for name in ("", "outbound", "inbound", "feedback")}
    assert modes == {"": 0o2775, "outbound": 0o2775, "inbound": 0o3773, "feedback": 0o2771}, modes


def test_a_course_folder_someone_else_took_is_refused_by_name(tmp_path):
    taken = tmp_path / "exchange" / "sqrt-dk"
    taken.mkdir(parents=True)
    other = os.geteuid() + 1
    message = tool.make_course_folder(str(tmp_path / "exchange"), "sqrt-dk", other, os.getegid())
    assert f"{taken} already exists and belongs to" in message and "Move it away" in message


def test_the_command_makes_both_at_the_root_nbgrader_config_sets_and_says_where(tmp_path, monkeypatch, capsys,
                                                                                  in_process):
    (tmp_path / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(tmp_path / 'ex')!r}\nc.CourseDirectory.course_id = 'demo'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SUDO_UID", raising=False)
    assert in_process("exchange") == 0
    assert stat.S_IMODE(os.stat(tmp_path / "ex").st_mode) == 0o1777
    assert (tmp_path / "ex" / "demo" / "inbound").is_dir()
    assert f"{tmp_path / 'ex' / 'demo'}" in capsys.readouterr().out


def test_the_command_line_names_the_group_and_an_unknown_option_is_refused(tmp_path, monkeypatch, capsys, in_process):
    (tmp_path / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(tmp_path / 'ex')!r}\nc.CourseDirectory.course_id = 'demo'\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        in_process("exchange", "--gruop", "x")
    assert "did you mean 'group'?" in capsys.readouterr().err and not (tmp_path / "ex").exists()
    group = grp.getgrgid(os.getegid()).gr_name
    assert in_process("exchange", "--group", group, "--CourseDirectory.groupshared=True") == 0
    assert stat.S_IMODE(os.stat(tmp_path / "ex" / "demo").st_mode) == 0o2775


@pytest.mark.skipif(os.geteuid() != 0, reason="giving folders to another account needs root")
def test_as_root_the_course_folder_is_the_instructors(tmp_path):
    root = tmp_path / "exchange"
    assert tool.make_exchange(str(root)) is None
    assert tool.make_course_folder(str(root), "sqrt-dk", 65534, 65534, groupshared=True) is None
    owners = {(os.stat(root / "sqrt-dk" / name).st_uid, os.stat(root / "sqrt-dk" / name).st_gid)
              for name in ("", "outbound", "inbound", "feedback")}
    assert owners == {(65534, 65534)}
