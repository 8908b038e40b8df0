"""classroom.lms.safezip: a download's members are judged before any byte is read: names that could leave the
folder, links, devices, zip bombs and members past the caps are refused, and a read stops at the cap."""
import io
import os
import stat
import zipfile
from unittest import mock

import pytest

from classroom.lms import safezip
from tests.lms.lms_downloads import member


@pytest.mark.parametrize("name", ["../x.ipynb", "a/../../x.ipynb", "/etc/x.ipynb", "C:x.ipynb", "a\\b.ipynb",
                                  "a//b.ipynb", "./x.ipynb", "x\n.ipynb", "x\x00.ipynb"])
def test_member_names_that_could_leave_the_folder_are_refused(name):
    assert safezip.name_problem(name)


def zip_of(*members, **caps):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data, mode in members:
            member(zf, name, data, (2026, 1, 1, 0, 0, 0), mode)
    return safezip.SafeZip(zipfile.ZipFile(buffer), **caps)


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_links_devices_bombs_and_oversized_members_are_judged_before_any_read():
    reader = zip_of(("link.ipynb", b"/etc/passwd", stat.S_IFLNK | 0o777), ("fifo.ipynb", b"", stat.S_IFIFO | 0o644),
                    ("bomb.ipynb", b"\0" * 2 ** 20, 0o100644), ("big.ipynb", os.urandom(3000), 0o100644),
                    ("ok.ipynb", b"{}", 0o644), ("ok.ipynb", b"{}", 0o100644), max_member_bytes=2000)
    with mock.patch.object(reader.zf, "open", side_effect=AssertionError("read")):
        kinds = [(info.filename, refusal and refusal.kind) for info, refusal in reader.members()]
    assert kinds == [("link.ipynb", "link"), ("fifo.ipynb", "link"), ("bomb.ipynb", "zip_bomb"),
                     ("big.ipynb", "too_large"), ("ok.ipynb", None), ("ok.ipynb", "duplicate_member")]


def test_a_read_stops_one_byte_past_the_cap_whatever_the_member_declares():
    reader = zip_of(("a.ipynb", os.urandom(5000), 0o100644), ("b.ipynb", os.urandom(900), 0o100644),
                    ("c.ipynb", os.urandom(900), 0o100644), max_member_bytes=1000, max_total_bytes=1500)
    asked, opened = [], reader.zf.open

    def counting_open(info):
        member = opened(info)
        read = member.read
        member.read = lambda n=-1: asked.append(n) or read(n)
        return member

    with mock.patch.object(reader.zf, "open", counting_open):
        a, b, c = reader.zf.infolist()
        assert reader.read(a)[1].kind == "too_large" and asked == [1001]
        assert reader.read(b)[0] is not None and reader.read(c)[1].kind == "too_much" and asked[-1] == 601


def test_past_the_member_cap_the_rest_of_the_zip_is_not_read():
    reader = zip_of(*[(f"{i}.ipynb", b"{}", 0o100644) for i in range(5)], max_members=3)
    judged = list(reader.members())
    assert [r and r.kind for _, r in judged] == [None, None, None, "too_many"]
