"""Reading a zip that nobody vouches for (an LMS download holds whatever students uploaded, and whoever handles the
file on its way may change it), without writing or reading beyond caps.

nbgrader's zip_collect unpacks with shutil's unpack_archive: whatever the zip names and declares is written. Here
every member is judged before a byte of it is unpacked, and unpacked only with a bounded read:

  - its name: no absolute path, no drive, no `..` or `.` part, no empty part, no backslash, no control character;
  - its kind: a symbolic link (Unix mode in the member's external attributes) or any other non-regular file is
    refused; folders are skipped;
  - its size: the size the zip declares and the size actually read are both held to `max_member_bytes`, and the
    read stops one byte past the cap (a member that lies about its size cannot fill the disk or the memory);
  - its ratio: declared size over compressed size above `max_ratio` is a zip bomb, never unpacked;
  - the whole: at most `max_members` members looked at, at most `max_total_bytes` unpacked in all.

`members(zf)` yields (info, refusal): refusal is None for a member that may be read, then `read(zf, info)` gives its
bytes or a refusal. A refusal is a classroom.lms.refusals.Refusal (a kind, never prose).
"""
import re
import stat
import zipfile

from ..units import MiB, size
from .refusals import Refusal

MAX_MEMBER_BYTES = 20 * MiB  # classroom.intake's cap for one file: the course's notebooks are well under 1 MiB
MAX_TOTAL_BYTES = 500 * MiB  # a class of a few hundred students
MAX_MEMBERS = 5000
MAX_RATIO = 100              # a notebook compresses about 3 to 10 times; zip bombs, thousands of times
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def name_problem(name):
    """Why the member name `name` may not be unpacked as it is, or None."""
    if CONTROL.search(name):
        return "holds a control character"
    if "\\" in name:
        return "holds a backslash"
    if name.startswith("/"):
        return "is an absolute path"
    if re.match(r"[A-Za-z]:", name):
        return "starts with a drive letter"
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "has an empty, '.' or '..' part"
    return None


def is_folder(info):
    return info.filename.endswith("/")


def special_kind(info):
    """True if the member's Unix file type (stored by Unix zip tools) says it is not a regular file or a folder."""
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 where the tool stored no type (Windows zips, Python's writestr)
    return kind not in (0, stat.S_IFREG, stat.S_IFDIR)


class SafeZip:
    """One zip, read member by member within caps."""

    def __init__(self, zf, max_member_bytes=MAX_MEMBER_BYTES, max_total_bytes=MAX_TOTAL_BYTES,
                 max_members=MAX_MEMBERS, max_ratio=MAX_RATIO):
        self.zf, self.max_member_bytes, self.max_total_bytes = zf, max_member_bytes, max_total_bytes
        self.max_members, self.max_ratio, self.total, self.seen = max_members, max_ratio, 0, set()

    def members(self):
        """(info, refusal or None) of each member that is not a folder, in the zip's order; past `max_members`
        one refusal for the rest, and the end."""
        for count, info in enumerate(self.zf.infolist()):
            if count >= self.max_members:
                yield info, Refusal(info.filename, "too_many", limit=str(self.max_members))
                return
            if is_folder(info) and not special_kind(info) and not name_problem(info.filename):
                continue
            yield info, self.judge(info)

    def judge(self, info):
        name = info.filename
        if problem := name_problem(name):
            return Refusal(name, "unsafe_name", detail=problem)
        if special_kind(info):
            return Refusal(name, "link")
        if name in self.seen:
            return Refusal(name, "duplicate_member")
        self.seen.add(name)
        if info.file_size > self.max_ratio * max(info.compress_size, 1):
            return Refusal(name, "zip_bomb", limit=str(self.max_ratio))
        if info.file_size > self.max_member_bytes:
            return Refusal(name, "too_large", limit=size(self.max_member_bytes))
        return None

    def read(self, info):
        """(bytes, None), or (None, refusal): at most the caps are read, whatever the member declares."""
        cap = min(self.max_member_bytes, self.max_total_bytes - self.total)
        try:
            with self.zf.open(info) as member:
                data = member.read(cap + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as error:
            return None, Refusal(info.filename, "unreadable", detail=str(error)[:200])
        if len(data) > cap:
            kind, limit = (("too_large", self.max_member_bytes) if len(data) > self.max_member_bytes else
                           ("too_much", self.max_total_bytes))
            return None, Refusal(info.filename, kind, limit=size(limit))
        if len(data) > self.max_ratio * max(info.compress_size, 1):
            return None, Refusal(info.filename, "zip_bomb", limit=str(self.max_ratio))
        self.total += len(data)
        return data, None
