"""Where a class on JupyterHub keeps its things, read by jupyterhub_config.py and hub_class.py (stdlib only).

Each setting has a default and an environment variable, SQDK_<NAME>, that changes it (the tests give every run its
own groups, course and exchange). INSTRUCTORS.md, "A class on JupyterHub", explains each one.
"""
import grp
import os
import pwd
import socket

DEFAULTS = {
    "env": "/opt/sqrt-dk/venv",          # the shared Python environment (make hub-env), read-only for everyone
    "course": "/srv/sqrt-dk/course",     # the nbgrader course directory: instructors' group only
    "exchange": "/srv/sqrt-dk/exchange",  # nbgrader's exchange: root's, 0755; the course's folder is made in it
    "state": "/srv/sqrt-dk/hub",         # JupyterHub's database, cookie secret and the demo's account list: root only
    "instructors": "sqrt-dk-instructors",  # Linux group of the instructors
    "students": "sqrt-dk-students",      # Linux group of the students
    "ip": "127.0.0.1",                   # where the proxy listens
    "port": "8000",                      # (the hub's own port and the proxy's API port are free ones, each start)
    # The address people type. Each user's server gets an origin of its own below it (<user>.localhost:8000), which
    # is what lets the formgrader show inside JupyterLab safely (jupyterhub_config.py).
    "url": "",
    "demo": "sqdk",  # make hub's demo accounts: <demo>-teacher, <demo>-ta (instructors), <demo>-ann, <demo>-ben
}
LESSONS = "share/sqrt-dk/lessons"  # in the shared environment: the lessons every student gets a copy of
STUDENT_CONFIG = "etc/jupyter/student"  # in the shared environment: Jupyter settings for students only


def settings(environ=os.environ):
    found = {name: environ.get(f"SQDK_{name.upper()}", default) for name, default in DEFAULTS.items()}
    found["url"] = found["url"] or f"http://localhost:{found['port']}"
    return found


def demo_accounts(found):
    """{"instructors": [...], "students": [...]}: the accounts `make hub` makes (the first instructor owns the
    course; the second, a teaching assistant, grades as well)."""
    return {"instructors": [f"{found['demo']}-teacher", f"{found['demo']}-ta"],
            "students": [f"{found['demo']}-ann", f"{found['demo']}-ben"]}


def course_id(course):
    """The course id that the course's own nbgrader_config.py sets (students need it, and cannot read that file).
    Needs traitlets: run with the shared environment's Python."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=course).load_config().CourseDirectory.course_id


def members(group):
    """The Linux accounts in `group`, as supplementary or primary group; none when the group does not exist."""
    try:
        entry = grp.getgrnam(group)
    except KeyError:
        return set()
    return set(entry.gr_mem) | {p.pw_name for p in pwd.getpwall() if p.pw_gid == entry.gr_gid}


def role(user, found):
    """"instructor", "student" or None for the account `user` (instructors first: an instructor may be in both)."""
    if user in members(found["instructors"]):
        return "instructor"
    if user in members(found["students"]):
        return "student"
    return None


def port_taken(ip, port):
    """True if something listens on ip:port already (another hub, say)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the proxy binds: TIME_WAIT does not count
        try:
            probe.bind((ip, int(port)))
        except OSError:
            return True
    return False


def port_refused(found, what):
    """The sentence both routes stop with when the proxy's port is taken (`what`: what was not done), else None."""
    if not port_taken(found["ip"], found["port"]):
        return None
    return (f"Port {found['port']} on {found['ip']} is taken (another hub?): {what}. Stop what listens there, or "
            "choose another port: make hub HUB_PORT=8123, or SQDK_PORT=8123 before jupyterhub")
