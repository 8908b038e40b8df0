"""classroom.intake: deep folders and files past the size and count caps are dropped, nbgrader's ignore and include
globs are honoured, and the assignment's notebooks are taken first, under a cap of their own."""
import os

from classroom import intake
from classroom.intake import copy_submission
from tests.grading.intake.submission_tree import everything_under


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


# ---- the assignment's notebooks first --------------------------------------------------------------------------------
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
