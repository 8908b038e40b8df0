"""`nbgrader zip_collect` with the grading system's plugins (SafeExtractor, LmsCollector) places the students nbgrader
places, beside nbgrader's test_nbgrader_zip_collect.py: the same download collected by plain nbgrader and by a
course that loads classroom/plugins/nbgrader_config.py, compared. What differs on purpose is in
docs/differences-from-nbgrader.md."""
import zipfile

import pytest
from nbformat.v4 import new_notebook, writes

from coursekit.trial_course import nbgrader
from tools import nbgrader_contract

pytestmark = pytest.mark.integration

NBGRADER_FILES = nbgrader_contract.nbgrader_tests() / "files"
# nbgrader's own example, from FileNameCollectorPlugin.named_regexp's help text
HELP_PATTERN = r".*_(?P<student_id>\w+)_attempt_(?P<timestamp>[0-9\-]+)_(?P<file_id>\w+)"
# one zip per student, named after the student, holding the notebooks as they saved them (no time in the name)
BY_ZIP = r".+/(?P<student_id>\w+)/(?P<file_id>\w+)\.ipynb"


def zip_collect(path, pattern, zips, ours, files=(), valid_ext=None):
    """Run `nbgrader zip_collect ps1` in a fresh course at `path` on `zips` ({name: {member: bytes}}) and `files`
    ({path: bytes} put in archive/ as they are), with plain nbgrader or with our plugins, the collector taking the
    file endings `valid_ext` (default nbgrader's); {student: sorted names placed in their folder}, and the run."""
    selection = 'from classroom.plugins import SELECTION_FOLDER\nload_subconfig("nbgrader_config.py", ' \
                'path=SELECTION_FOLDER)\n' if ours else ""
    endings = f"c.FileNameCollectorPlugin.valid_ext = {valid_ext!r}\n" if valid_ext else ""
    path.mkdir()
    (path / "nbgrader_config.py").write_text(f"c = get_config()\n{selection}{endings}"
                                             f"c.FileNameCollectorPlugin.named_regexp = {pattern!r}\n")
    archive = path / "downloaded" / "ps1" / "archive"
    archive.mkdir(parents=True)
    for name, members in zips.items():
        with zipfile.ZipFile(archive / name, "w") as zf:
            for member, data in members.items():
                zf.writestr(member, data)
    for name, data in dict(files).items():
        (archive / name).parent.mkdir(parents=True, exist_ok=True)
        (archive / name).write_bytes(data)
    run = nbgrader("zip_collect", "ps1", cwd=path, check=False)
    submitted = path / "submitted"
    placed = {s.name: sorted(f.name for f in (s / "ps1").iterdir()) for s in submitted.iterdir()} \
        if submitted.is_dir() else {}
    return placed, run


def both(tmp_path, pattern, zips, files=(), valid_ext=None):
    return (zip_collect(tmp_path / "nbgrader", pattern, zips, ours=False, files=files, valid_ext=valid_ext),
            zip_collect(tmp_path / "ours", pattern, zips, ours=True, files=files, valid_ext=valid_ext))


def nbgraders_zip():
    with zipfile.ZipFile(NBGRADER_FILES / "notebooks.zip") as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def test_nbgraders_help_text_pattern_places_the_same_students_at_the_right_time(tmp_path):
    (theirs, _), (ours, _) = both(tmp_path, HELP_PATTERN, {"notebooks.zip": nbgraders_zip()})
    assert set(ours) == set(theirs) == {"bitdiddle", "hacker"}
    for student in ours:
        assert ours[student] == theirs[student] == ["problem1.ipynb", "problem2.ipynb", "timestamp.txt"]
        stamp = (tmp_path / "ours" / "submitted" / student / "ps1" / "timestamp.txt").read_text()
        assert stamp.startswith("2016-01-30 15:00:00")  # nbgrader's date parser reads the dashes otherwise


def test_one_zip_per_student_and_a_notebook_on_its_own_are_collected_as_nbgrader_collects_them(tmp_path):
    notebook = writes(new_notebook()).encode()
    zips = {f"{student}.zip": {"problem1.ipynb": notebook} for student in ("alice", "bob", "carol")}
    zips["bob.zip"]["notes.txt"] = b"my notes"
    (theirs, _), (ours, run) = both(tmp_path, BY_ZIP, zips, files={"dave/problem1.ipynb": notebook})
    students = ("alice", "bob", "carol", "dave")
    assert ours == {student: ["problem1.ipynb"] for student in students}  # no timestamp group: no time written
    assert theirs == ours
    assert "'notes.txt' in bob.zip: it is not a notebook" in run.stderr  # a refused member names its zip


# ---- nbgrader's tests whose fixture notebooks are empty files (refused as not notebooks), with real notebooks -----
# nbgrader's test_collect_timestamp_file, test_collect_preserve_sub_dir and test_collect_duplicate_fail write
# `problem1.ipynb` as an empty file, which we refuse before anything else; here the same layouts with a notebook in
# it, so what docs/differences-from-nbgrader.md says we do instead is what we do.
NOTEBOOK = writes(new_notebook()).encode()
FOLDER_PATTERN = r".+ps1_(?P<student_id>\w+)\W+(?P<file_id>.+)"  # nbgrader's tests' own
ATTEMPT_PATTERN = r".+ps1_(?P<student_id>\w+)_[0-9]+\W+(?P<file_id>.+)"
WITH_TEXT = [".ipynb", ".txt"]


def test_a_timestamp_file_in_the_download_is_not_collected_and_the_notebook_beside_it_is(tmp_path):
    files = {"ps1_hacker/problem1.ipynb": NOTEBOOK, "ps1_hacker/timestamp.txt": b"foo"}
    (theirs, _), (ours, run) = both(tmp_path, FOLDER_PATTERN, {}, files=files, valid_ext=WITH_TEXT)
    assert theirs == {"hacker": ["problem1.ipynb", "timestamp.txt"]}
    assert ours == {"hacker": ["problem1.ipynb"]} and run.returncode == 0, run.stderr[-2000:]
    assert "timestamp.txt" in run.stderr  # named, with why it was not collected


def test_a_notebook_in_a_sub_folder_is_placed_at_the_top_of_the_students_folder(tmp_path):
    files = {"ps1_hacker/files/problem1.ipynb": NOTEBOOK, "ps1_hacker/timestamp.txt": b"foo"}
    (theirs, _), (ours, run) = both(tmp_path, FOLDER_PATTERN, {}, files=files, valid_ext=WITH_TEXT)
    assert theirs == {"hacker": ["files", "timestamp.txt"]}
    assert ours == {"hacker": ["problem1.ipynb"]} and run.returncode == 0, run.stderr[-2000:]


def test_two_files_for_one_notebook_with_no_time_are_both_refused_and_the_rest_collected(tmp_path):
    files = {"ps1_hacker_01/files/problem1.ipynb": NOTEBOOK, "ps1_hacker_02/files/problem1.ipynb": NOTEBOOK,
             "ps1_alyssa_01/files/problem1.ipynb": NOTEBOOK}
    (theirs, plain), (ours, run) = both(tmp_path, ATTEMPT_PATTERN, {}, files=files, valid_ext=WITH_TEXT)
    assert plain.returncode == 1 and theirs == {}  # nbgrader stops the whole run
    assert ours == {"alyssa": ["problem1.ipynb"]} and run.returncode == 0, run.stderr[-2000:]
    assert "ps1_hacker_01" in run.stderr and "ps1_hacker_02" in run.stderr  # both named, for the instructor
