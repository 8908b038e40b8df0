"""classroom.plugins.formgrader_autograde without a server: what the formgrader's Autograde button runs, and what it refuses.
The button itself, in Chromium, is in tests/lab/test_formgrader_lab.py."""
import asyncio
import sys

from classroom.plugins import formgrader_autograde


def test_the_button_runs_make_autograde_for_one_student_again():
    assert formgrader_autograde.command("score_gradient", "alice") == [
        sys.executable, "-m", "classroom.autograde", "score_gradient", "--student=alice", "--force"]


def test_a_student_id_that_is_not_plain_is_refused_before_anything_runs(tmp_path):
    answer = asyncio.run(formgrader_autograde.run("score_gradient", "--force", str(tmp_path)))
    assert answer["success"] is False and "starts with '-'" in answer["error"], answer
    assert list(tmp_path.iterdir()) == []
