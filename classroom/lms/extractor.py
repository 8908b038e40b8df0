"""SafeExtractor: nbgrader's zip_collect extractor seam (c.ZipCollectApp.extractor_plugin), unpacking safely.

nbgrader's ExtractorPlugin unpacks every archive in downloaded/<assignment>/archive/ with shutil's unpack_archive
(and archives inside archives), and copies any other file there. SafeExtractor unpacks only the notebooks of each
zip, each member judged by classroom.lms.safezip before it is read and read within its caps, written with
O_EXCL | O_NOFOLLOW under downloaded/<assignment>/extracted/ and nowhere else, with the member's date as the file's
modification time (the zip's dates carry no time zone: c.SafeExtractor.zip_timezone says which, UTC by default).
Archives inside the zip and any other file are not unpacked. Every member not unpacked is in `refused`, with its kind.
"""
import datetime
import os
import zipfile

from dateutil import tz
from nbgrader.plugins.zipcollect import ExtractorPlugin
from traitlets import Integer, Unicode

from . import safezip
from .refusals import Refusal, Refusing

NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


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
        self.refused, self.unpacked = [], []

    def extract(self, archive_path, extracted_path):
        """Unpack the notebooks of every zip in `archive_path` (sorted by name) into `extracted_path`."""
        names = sorted(os.listdir(archive_path)) if os.path.isdir(archive_path) else []
        if not names:
            self.log.warning("No files found in directory: %s", archive_path)
        for name in names:
            path = os.path.join(archive_path, name)
            if not name.lower().endswith(".zip") or not os.path.isfile(path) or os.path.islink(path):
                self.refuse(Refusal(name, "not_notebook"))
                continue
            self.log.info("Extracting notebooks from: %s", path)
            try:
                with zipfile.ZipFile(path) as zf:
                    self.extract_zip(zf, extracted_path)
            except (zipfile.BadZipFile, OSError) as error:
                self.refuse(Refusal(name, "unreadable", detail=str(error)[:200]))

    def extract_zip(self, zf, extracted_path):
        reader = safezip.SafeZip(zf, self.max_member_bytes, self.max_total_bytes, self.max_members, self.max_ratio)
        for info, refusal in reader.members():
            if refusal is None and not info.filename.lower().endswith(".ipynb"):
                refusal = Refusal(info.filename, "not_notebook")
            if refusal is None:
                data, refusal = reader.read(info)
            if refusal is None:
                refusal = self.write(extracted_path, info, data)
            if refusal is not None:
                self.refuse(refusal)

    def write(self, extracted_path, info, data):
        """Write one checked member under `extracted_path` (its name has no '..', absolute or empty part)."""
        dest = os.path.join(extracted_path, *info.filename.split("/"))
        try:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            fd = os.open(dest, NEW_FILE, 0o644)
        except OSError as error:
            return Refusal(info.filename, "duplicate_member" if os.path.lexists(dest) else "unreadable",
                           detail=error.strerror or "")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        stamp = self.member_time(info)
        os.utime(dest, (stamp, stamp))
        self.unpacked.append(info.filename)
        return None

    def member_time(self, info):
        """The member's date as seconds since the epoch, read in c.SafeExtractor.zip_timezone."""
        zone = tz.gettz(self.zip_timezone) or tz.UTC
        return datetime.datetime(*info.date_time, tzinfo=zone).timestamp()
