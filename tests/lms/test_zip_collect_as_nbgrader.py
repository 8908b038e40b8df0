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


def zip_collect(path, pattern, zips, ours, files=()):
    """Run `nbgrader zip_collect ps1` in a fresh course at `path` on `zips` ({name: {member: bytes}}) and `files`
    ({path: bytes} put in archive/ as they are), with plain nbgrader or with our plugins; {student: sorted files
    placed}, and the run's log."""
    selection = 'from classroom.plugins import SELECTION_FOLDER\nload_subconfig("nbgrader_config.py", ' \
                'path=SELECTION_FOLDER)\n' if ours else ""
    path.mkdir()
    (path / "nbgrader_config.py").write_text(f"c = get_config()\n{selection}"
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
    log = nbgrader("zip_collect", "ps1", cwd=path).stderr
    submitted = path / "submitted"
    placed = {s.name: sorted(f.name for f in (s / "ps1").iterdir()) for s in submitted.iterdir()} \
        if submitted.is_dir() else {}
    return placed, log


def both(tmp_path, pattern, zips, files=()):
    return (zip_collect(tmp_path / "nbgrader", pattern, zips, ours=False, files=files),
            zip_collect(tmp_path / "ours", pattern, zips, ours=True, files=files))


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
    (theirs, _), (ours, log) = both(tmp_path, BY_ZIP, zips, files={"dave/problem1.ipynb": notebook})
    students = ("alice", "bob", "carol", "dave")
    assert ours == {student: ["problem1.ipynb"] for student in students}  # no timestamp group: no time written
    assert theirs == ours
    assert "'notes.txt' in bob.zip: it is not a notebook" in log  # a refused member names its zip
