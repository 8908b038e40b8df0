"""SafeExtractor: nbgrader's zip_collect extractor seam (c.ZipCollectApp.extractor_plugin), unpacking safely.

nbgrader's ExtractorPlugin walks downloaded/<assignment>/archive/ (its subfolders too), unpacks every archive with
shutil's unpack_archive into a folder of its own named after it (and archives inside archives), and copies every other
file beside. SafeExtractor keeps that layout, so nbgrader's named_regexp patterns find the same paths: each zip
`<folder>/<name>.zip` is unpacked into extracted/<folder>/<name>/, and a notebook put in archive/ as it is (an LMS that
hands out files one by one) is copied to extracted/<folder>/. What it changes:

  - only notebooks: of a zip, the members named .ipynb; beside, the .ipynb files. Archives inside the zip, other
    archives (tar, gzip) and any other file are not unpacked: only notebooks are graded (and placed, see
    classroom.lms.collector);
  - each member judged by classroom.lms.safezip before it is read, and read within its caps (a notebook on its own
    too, opened without following a link), written with O_EXCL | O_NOFOLLOW under extracted/ and nowhere else.

Every entry not unpacked is in `refused`, with its kind and the zip it came from. `origins` tells the collector where
each unpacked file came from (an `Origin`: the zip, the member's name in it, and the member's date, read in
c.SafeExtractor.zip_timezone since a zip's dates carry no time zone; a notebook put in archive/ on its own has no
date: its file's time is when the instructor downloaded it, not when the student handed it in).
"""
import datetime
import os
import stat
import zipfile
from dataclasses import dataclass, replace

from nbgrader.plugins.zipcollect import ExtractorPlugin
from traitlets import Integer, TraitError, Unicode, validate

from ..decisions.dates import known_zone
from . import safezip
from ..units import size
from .refusals import Refusal, Refusing

NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


@dataclass(frozen=True)
class Origin:
    """Where an unpacked file came from: `archive` (its zip's path under archive/, "" for a file put there as it is),
    `member` (its name in the zip, or its path under archive/), `when` (the member's date, naive UTC, or None)."""
    archive: str
    member: str
    when: datetime.datetime = None


class SafeExtractor(Refusing, ExtractorPlugin):
    max_member_bytes = Integer(safezip.MAX_MEMBER_BYTES, help="Largest member unpacked, in bytes.").tag(config=True)
    max_total_bytes = Integer(safezip.MAX_TOTAL_BYTES, help="Most bytes unpacked from one zip.").tag(config=True)
    max_members = Integer(safezip.MAX_MEMBERS, help="Most members looked at in one zip.").tag(config=True)
    max_ratio = Integer(safezip.MAX_RATIO, help="Largest ratio of a member's size to its compressed size.").tag(
        config=True)
    zip_timezone = Unicode("UTC", help="The time zone of the dates in the LMS's zip (e.g. Europe/Berlin).").tag(
        config=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.refused, self.unpacked, self.origins = [], [], {}

    @validate("zip_timezone")
    def _a_zone_the_database_knows(self, proposal):
        if known_zone(proposal["value"]) is None:
            raise TraitError(f"c.SafeExtractor.zip_timezone = {proposal['value']!r} is not a time zone this machine "
                             "knows: write a name of the time-zone database, such as UTC or Europe/Berlin")
        return proposal["value"]

    def extract(self, archive_path, extracted_path):
        """Unpack the notebooks of every zip under `archive_path`, and copy the notebooks there, into
        `extracted_path`, in nbgrader's layout (sorted by path)."""
        found = entries(archive_path)
        if not found:
            self.log.warning("No files found in directory: %s", archive_path)
        for rel in found:
            path, name = os.path.join(archive_path, rel), os.path.basename(rel)
            if os.path.islink(path) or not os.path.isfile(path):
                self.refuse(Refusal(rel, "link"))
            elif name.lower().endswith(".zip"):
                self.log.info("Extracting notebooks from: %s", path)
                self.extract_zip(path, os.path.join(extracted_path, os.path.dirname(rel), name[:-4] or name), rel)
            elif name.lower().endswith(".ipynb"):
                data, refusal = self.read_file(path, rel)
                refusal = refusal or self.write(extracted_path, rel, data, Origin("", rel))
                if refusal is not None:
                    self.refuse(refusal)
            else:
                self.refuse(Refusal(rel, "not_notebook"))

    def extract_zip(self, path, dest, archive):
        try:
            with zipfile.ZipFile(path) as zf:
                reader = safezip.SafeZip(zf, self.max_member_bytes, self.max_total_bytes, self.max_members,
                                         self.max_ratio)
                for info, refusal in reader.members():
                    if refusal is None and not info.filename.lower().endswith(".ipynb"):
                        refusal = Refusal(info.filename, "not_notebook")
                    if refusal is None:
                        data, refusal = reader.read(info)
                    if refusal is None:
                        refusal = self.write(dest, info.filename, data,
                                             Origin(archive, info.filename, self.member_time(info)))
                    if refusal is not None:
                        self.refuse(replace(refusal, archive=archive))
        except (zipfile.BadZipFile, OSError) as error:
            self.refuse(Refusal(archive, "unreadable", detail=str(error)[:200]))

    def read_file(self, path, rel):
        """(bytes, None) of a notebook put in archive/ as it is, or (None, refusal): a regular file, read within
        the member cap."""
        try:
            fd = os.open(path, READ_FILE)
        except OSError as error:
            return None, Refusal(rel, "unreadable", detail=error.strerror or "")
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, Refusal(rel, "link")
            data = file.read(self.max_member_bytes + 1)
        if len(data) > self.max_member_bytes:
            return None, Refusal(rel, "too_large", limit=size(self.max_member_bytes))
        return data, None

    def write(self, folder, name, data, origin):
        """Write one checked file as `name` ('/'-separated, no '..', absolute or empty part) under `folder`."""
        dest = os.path.join(folder, *name.replace(os.sep, "/").split("/"))
        try:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            fd = os.open(dest, NEW_FILE, 0o644)
        except OSError as error:
            return Refusal(origin.member, "duplicate_member" if os.path.lexists(dest) else "unreadable",
                           detail=error.strerror or "")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        if origin.when is not None:
            stamp = origin.when.replace(tzinfo=datetime.timezone.utc).timestamp()
            os.utime(dest, (stamp, stamp))
        self.unpacked.append(origin.member)
        self.origins[os.path.abspath(dest)] = origin
        return None

    def member_time(self, info):
        """The member's date, read in c.SafeExtractor.zip_timezone, as naive UTC (as nbgrader keeps times)."""
        zone = known_zone(self.zip_timezone)
        moment = datetime.datetime(*info.date_time, tzinfo=zone)
        return moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)


def entries(folder):
    """Every entry under `folder` that is not a folder (links to folders included, not followed), as paths relative
    to it, sorted; [] if it is missing."""
    found = []
    for parent, folders, files in os.walk(folder):
        links = [name for name in folders if os.path.islink(os.path.join(parent, name))]
        found += [os.path.relpath(os.path.join(parent, name), folder) for name in files + links]
    return sorted(found)
