"""What `nbgrader collect` (SafeCollect) leaves in submitted/ may be written by the instructor alone (and, group-shared,
the instructors' group), whatever the umask: nbgrader keeps the modes the hand-in had in the exchange (its
test_permissions expects 777), which docs/differences-from-nbgrader.md names. The two steps SafeCollect runs on each
collected copy, on a copy made as under the umask 000."""
import stat

import pytest

from classroom.plugins import exchange_collect


@pytest.mark.parametrize("groupshared, folder_mode, file_mode", [(False, 0o755, 0o644), (True, 0o2775, 0o664)])
def test_the_collected_copy_is_writable_by_the_instructor_alone(tmp_path, groupshared, folder_mode, file_mode):
    copy = tmp_path / "submitted" / "alice" / "ps1"
    (copy / "data").mkdir(parents=True)
    for path in (copy / "p1.ipynb", copy / "data" / "answer.txt"):
        path.write_text("{}")
        path.chmod(0o666)
    for folder in (copy, copy / "data"):
        folder.chmod(0o777)
    exchange_collect._instructor_only(str(copy))
    if groupshared:
        exchange_collect._share_with_group(str(copy))
    modes = {p.relative_to(copy).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in [copy, *copy.rglob("*")]}
    assert modes == {".": folder_mode, "data": folder_mode, "p1.ipynb": file_mode, "data/answer.txt": file_mode}
