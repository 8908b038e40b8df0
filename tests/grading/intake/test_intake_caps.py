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


def _as_nbgrader_copies(folder, dest, coursedir):
    """What nbgrader's exchange copy takes of `folder` with `coursedir`'s caps: the names it copies, or None when it
    refuses the folder as too big (nbgrader.exchange.default.exchange.Exchange.do_copy)."""
    from nbgrader.auth import Authenticator
    from nbgrader.exchange.default.exchange import Exchange

    try:
        Exchange(coursedir=coursedir, authenticator=Authenticator()).do_copy(str(folder), str(dest))
    except RuntimeError:
        return None
    return sorted(path.name for path in dest.iterdir())


def test_nbgraders_size_caps_count_its_kb_of_1000_bytes_as_nbgrader_does(tree):
    """CourseDirectory.max_file_size and .max_dir_size are in nbgrader's kB (units.NBGRADER_KB): a file of just over
    max_file_size is left out by nbgrader and by us, one of just under (or at) it taken by both; a folder just over
    max_dir_size is not taken whole by either. The grader's staging copy and collect read the caps this way."""
    from nbgrader.coursedir import CourseDirectory

    folder, _, dest = tree
    (folder / "timestamp.txt").unlink()
    (folder / "under.bin").write_bytes(b"x" * 1999)
    (folder / "at.bin").write_bytes(b"x" * 2000)
    (folder / "over.bin").write_bytes(b"x" * 2001)  # over 2 kB of 1000 bytes, under 2 KiB
    coursedir = CourseDirectory(max_file_size=2, max_dir_size=10)
    assert intake.nbgrader_caps(coursedir) == {"max_file_bytes": 2000, "max_total_bytes": 10_000}
    theirs = _as_nbgrader_copies(folder, folder.parent / "nbgrader", coursedir)
    assert copy_submission(folder, dest, **intake.nbgrader_caps(coursedir)) == [("over.bin", "larger than 2000 bytes")]
    assert sorted(path.name for path in dest.iterdir()) == theirs == ["at.bin", "under.bin"]

    (folder / "over.bin").unlink()
    roomy = CourseDirectory(max_file_size=100, max_dir_size=10)  # only the folder's cap counts now
    (folder / "fill.bin").write_bytes(b"x" * (10_000 - 3999))  # the folder is max_dir_size exactly: taken whole
    assert _as_nbgrader_copies(folder, folder.parent / "nbgrader-2", roomy) == ["at.bin", "fill.bin", "under.bin"]
    assert copy_submission(folder, folder.parent / "ours-2", **intake.nbgrader_caps(roomy)) == []
    (folder / "fill.bin").write_bytes(b"x" * (10_000 - 3999 + 1))  # one byte over: nbgrader refuses the folder
    assert _as_nbgrader_copies(folder, folder.parent / "nbgrader-3", roomy) is None
    assert copy_submission(folder, folder.parent / "ours-3", **intake.nbgrader_caps(roomy))  # not taken whole
