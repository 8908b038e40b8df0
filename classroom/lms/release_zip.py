"""`make release-zip` (`python -m classroom.lms.release_zip ASSIGNMENT`): the student version of an assignment,
release/<assignment>/, as one zip to upload to the LMS, lms/<assignment>-release.zip.

The zip is the same bytes for the same release: members sorted, each dated 1980-01-01 (the zip format's first day),
mode 0644, compressed alike; so a rebuilt zip differs only when release/ did (and `git diff` on release/ says how).
The files are those nbgrader's release would copy (CourseDirectory.ignore and .include obeyed), under one folder named
after the assignment, so a student who unzips gets score_gradient/score_gradient.ipynb and its neighbours.
"""
import os
import zipfile

from .. import atomic

EPOCH = (1980, 1, 1, 0, 0, 0)
OUT = os.path.join("lms", "{assignment}-release.zip")


def release_files(coursedir, assignment):
    """[(path on disk, name in the zip)] of the released assignment, sorted."""
    from nbgrader.utils import ignore_patterns

    root = coursedir.format_path(coursedir.release_directory, ".", assignment)
    if not os.path.isdir(root):
        raise SystemExit(f"No released assignment at {root}: run `make release` first")
    ignored = ignore_patterns(exclude=coursedir.ignore, include=coursedir.include)  # what release leaves out
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(set(dirs) - set(ignored(folder, dirs)))
        for name in sorted(set(files) - set(ignored(folder, files))):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                found.append((path, "/".join([assignment, *os.path.relpath(path, root).split(os.sep)])))
    return sorted(found, key=lambda pair: pair[1])


def write_zip(files, dest):
    """Write `files` ([(path, name)]) into the zip `dest`, deterministically; `dest`."""
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    with atomic.replacing(dest, "wb") as handle, zipfile.ZipFile(handle, "w") as zf:
        for path, name in files:
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as handle:
                zf.writestr(info, handle.read(), compresslevel=9)
    return dest


def release_command(coursedir, assignment):
    """`classroom release-zip`: write the zip and say what went in; the exit status."""
    files = release_files(coursedir, assignment)
    dest = write_zip(files, os.path.join(coursedir.root, OUT.format(assignment=assignment)))
    print(f"{dest}: {len(files)} files ({', '.join(name for _, name in files)}); upload it to the LMS")
    return 0

