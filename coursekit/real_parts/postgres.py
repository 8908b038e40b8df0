"""A throw-away PostgreSQL server for a test: Debian's `postgresql` package (initdb, pg_ctl), one cluster in a temporary
folder, listening only on a Unix socket in that folder. A test that needs it says `requires("postgres")`
(coursekit.parts: skipped where PostgreSQL is missing, required on CI). initdb refuses to run as root: run by root,
the cluster belongs to the `postgres` user (or `nobody`)."""
import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

from coursekit.real_parts.ports import free_port


def program(name):
    """A PostgreSQL program from PATH, or from Debian's versioned folder (which Debian does not put on PATH)."""
    return shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)),
                                      None)


@contextlib.contextmanager
def server(database="gradebook"):
    """Start a cluster, create `database`; yields its SQLAlchemy URL (postgresql://...); stops and removes it."""
    owner = None if os.geteuid() else pwd.getpwnam("postgres" if _has_user("postgres") else "nobody")
    folder = tempfile.mkdtemp(prefix="classroom-pg-")
    as_owner = ["runuser", "-u", owner.pw_name, "--"] if owner else []
    if owner:
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data, port, user = os.path.join(folder, "data"), free_port(), owner.pw_name if owner else pwd.getpwuid(
        os.geteuid()).pw_name
    run = lambda *argv: subprocess.run([*as_owner, *argv], check=True, capture_output=True, text=True, cwd=folder)
    try:
        run(program("initdb"), "-D", data, "-U", user, "--auth=trust", "--no-sync")
        options = f"-c listen_addresses='' -c unix_socket_directories={folder} -p {port} -c fsync=off"
        run(program("pg_ctl"), "-D", data, "-o", options, "-l", os.path.join(folder, "log"), "-w", "start")
        try:
            run(program("createdb") or "createdb", "-h", folder, "-p", str(port), "-U", user, database)
            yield f"postgresql+psycopg2://{user}@/{database}?host={folder}&port={port}"
        finally:
            run(program("pg_ctl"), "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _has_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
