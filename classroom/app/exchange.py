"""`classroom exchange` (make exchange): create nbgrader's exchange folder, at the path this course's configuration
gives it, and the course's own folder in it, owned by the instructor, before any student can take that name.

The path is `c.Exchange.root` as nbgrader itself reads it (nbgrader_config.py here, ~/.jupyter/nbgrader_config.py,
...), by default nbgrader's own /usr/local/share/nbgrader/exchange. The folder is made as nbgrader's
`release_assignment` would make it (read, write and enter for everyone: students write their hand-ins into it),
plus the sticky bit of /tmp, so that nobody but its owner can rename or delete what another account put there (a
student cannot move the instructor's course folder away). nbgrader only checks the lower nine bits, so it keeps the
sticky bit. A folder under /usr/local needs root: run as anyone else, this prints the one `sudo` command that does it.

Then `<root>/<course id>` with `outbound/`, `inbound/` and `feedback/`, owned by the instructor (the account that
ran `sudo`, or --owner) with the modes nbgrader's release gives them (group-writable and setgid under
CourseDirectory.groupshared, for an instructors' group: --group), plus the sticky bit on inbound/: a student may add
a hand-in there but never rename or delete another's. Made here, the name cannot be taken by a student before the
first Release (nbgrader would then refuse: "You don't own the directory"). INSTRUCTORS.md, "One machine".
"""
import grp
import os
import pwd
import shlex
import stat

from nbgrader.exchange.default.exchange import Exchange
from traitlets import Unicode

from .base import Command

MODE = 0o1777  # rwx for everyone (nbgrader's 0777) plus the sticky bit
CLOSED = 0o755  # the hub's: only root makes a course's folder (classroom/plugins/exchange_root.py)
# nbgrader's modes (release_assignment, release_feedback): without and with CourseDirectory.groupshared.
COURSE_FOLDERS = {"": (0o755, 0o2775), "outbound": (0o755, 0o2775), "inbound": (0o3733, 0o3773),
                  "feedback": (0o711, 0o2771)}


def make_exchange(root, mode=MODE):
    """Create `root` with `mode`, or give it `mode`; return a message for a human when that needs another account."""
    try:
        os.makedirs(root, exist_ok=True)
        if stat.S_IMODE(os.stat(root).st_mode) != mode:
            os.chmod(root, mode)
    except PermissionError:
        quoted = shlex.quote(root)
        command = (f"sudo chmod {mode:o} {quoted}" if os.path.isdir(root) else f"sudo install -d -m {mode:o} {quoted}")
        return (f"The exchange {root} needs an administrator to create it (or to set its permissions). Run:\n"
                f"    {command}\nor set c.Exchange.root in nbgrader_config.py to a folder you may create.")
    return None


def make_course_folder(root, course_id, uid, gid, groupshared=False):
    """Create `<root>/<course_id>` and its three folders owned by uid:gid with COURSE_FOLDERS' modes (setting the
    modes again where they exist); a message for a human when a folder is another account's."""
    if not course_id:
        return "No course id is set (c.CourseDirectory.course_id in nbgrader_config.py): the exchange has no course."
    course = os.path.join(root, course_id)
    for name, modes in COURSE_FOLDERS.items():
        path = os.path.join(course, name) if name else course
        try:
            os.mkdir(path, 0o700)  # nobody else may enter it until it is the owner's, with its mode
            made = True
        except FileExistsError:
            made = False
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or (st.st_uid != uid and not made):
            return (f"{path} already exists and belongs to {_name(st.st_uid)}, not to {_name(uid)}: someone took "
                    "the course's name in the exchange. Move it away (as root) and run this again.")
        if os.geteuid() == 0:
            os.chown(path, uid, gid)
        os.chmod(path, modes[bool(groupshared)])
    return None


def _name(uid):
    try:
        return repr(pwd.getpwuid(uid).pw_name)
    except KeyError:
        return f"uid {uid}"


def _owner(account):
    """(uid, gid) of the instructor: `account`, else the one who ran sudo, else the current account."""
    if account:
        entry = pwd.getpwnam(account)
        return entry.pw_uid, entry.pw_gid
    if os.geteuid() == 0 and os.environ.get("SUDO_UID"):
        return int(os.environ["SUDO_UID"]), int(os.environ["SUDO_GID"])
    return os.geteuid(), os.getegid()


class ExchangeCommand(Command):
    """`classroom exchange [--owner ACCOUNT] [--group GROUP]` (see the module): once per machine, as root where the
    exchange's folder needs it."""

    description = ("Create nbgrader's exchange at c.Exchange.root (mode 1777) and the course's folder in it, owned by "
                   "the instructor, before any student can take the name; without the rights, print the sudo command.")
    owner = Unicode("", help="The instructor who owns the course's folder (default: the account that ran sudo, or "
                    "you).").tag(config=True)
    group = Unicode("", help="The instructors' group of the course's folder (with "
                    "CourseDirectory.groupshared).").tag(config=True)
    aliases = {"owner": "ExchangeCommand.owner", "group": "ExchangeCommand.group"}

    extra_classes = (Exchange,)

    def run(self):
        root, course_id = Exchange(config=self.config).root, self.coursedir.course_id
        refused = make_exchange(root)
        if refused:
            self.say(refused, error=True)
            return 1
        uid, gid = _owner(self.owner)
        if self.group:
            gid = grp.getgrnam(self.group).gr_gid
        refused = make_course_folder(root, course_id, uid, gid, self.coursedir.groupshared)
        if refused:
            self.say(refused, error=True)
            return 1
        self.say(f"The exchange {root} is ready (mode {oct(MODE)[2:]}), with the course's folder "
                 f"{os.path.join(root, course_id)} (owner {_name(uid)}).")
        return 0
