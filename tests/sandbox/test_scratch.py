"""The grader's scratch folders: a killed run's folders are removed by the next run, a live run's are left alone."""
import os
import subprocess
import sys

from classroom.sandbox import scratch


def dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_graders_folders_go_and_a_running_ones_stay(tmp_path):
    gone = tmp_path / f"student-ipc-{dead_pid()}-abc123"
    (gone / "inner").mkdir(parents=True)
    (gone / "inner" / "kernel.json").write_text("{}")
    os.chmod(gone / "inner", 0o500)  # what a student's process may leave: a folder its owner cannot write into
    alive = tmp_path / f"student-ipc-{os.getppid()}-def456"
    alive.mkdir()
    other_kind = tmp_path / f"grading-child-{dead_pid()}-ghi789"
    other_kind.mkdir()

    made = scratch.folder("student-ipc", str(tmp_path))

    assert not gone.exists()
    assert alive.is_dir() and other_kind.is_dir()
    assert os.path.basename(made).startswith(f"student-ipc-{os.getpid()}-") and os.listdir(made) == []
