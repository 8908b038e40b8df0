"""`make exchange` (tools/make_exchange.py): nbgrader's exchange folder, rwx for everyone plus the sticky bit, at the
root nbgrader reads from the course's configuration; where that needs root, the sudo command instead."""
import os
import stat

from tools import make_exchange as tool



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


def test_the_root_is_the_one_nbgrader_config_sets(tmp_path, monkeypatch):
    (tmp_path / "nbgrader_config.py").write_text(f"c = get_config()\nc.Exchange.root = {str(tmp_path / 'ex')!r}\n")
    monkeypatch.chdir(tmp_path)
    assert tool.exchange_root() == str(tmp_path / "ex")
