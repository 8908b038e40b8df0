"""What `nbgrader collect` (SafeCollect) leaves in submitted/ may be written by the instructor alone (and, group-shared,
the instructors' group), whatever the instructor's umask and the modes the hand-in had in the exchange: nbgrader keeps
those (its test_permissions expects 777), which docs/differences-from-nbgrader.md names."""
import os
import stat

import pytest
from nbgrader.coursedir import CourseDirectory

from classroom.plugins.exchange_collect import SafeCollect


@pytest.mark.parametrize("groupshared, folder_mode, file_mode", [(False, 0o755, 0o644), (True, 0o2775, 0o664)])
def test_the_collected_copy_is_writable_by_the_instructor_alone(tmp_path, groupshared, folder_mode, file_mode):
    handed_in = tmp_path / "inbound" / "alice+ps1+2024-05-01 10:00:00 UTC"
    (handed_in / "data").mkdir(parents=True)
    for path in (handed_in / "p1.ipynb", handed_in / "data" / "answer.txt"):
        path.write_text("{}")
        path.chmod(0o666)
    for folder in (handed_in, handed_in / "data"):
        folder.chmod(0o777)
    collect = SafeCollect(coursedir=CourseDirectory(root=str(tmp_path), groupshared=groupshared), authenticator=None)
    old = os.umask(0)  # nothing of the instructor's umask helps
    try:
        collect.do_copy(str(handed_in), str(tmp_path / "submitted" / "alice" / "ps1"))
    finally:
        os.umask(old)
    copy = tmp_path / "submitted" / "alice" / "ps1"
    modes = {p.relative_to(copy).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in [copy, *copy.rglob("*")]}
    assert modes == {".": folder_mode, "data": folder_mode, "p1.ipynb": file_mode, "data/answer.txt": file_mode}
