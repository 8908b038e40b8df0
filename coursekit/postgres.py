"""A throw-away PostgreSQL server for a test: Debian's `postgresql` package (initdb, pg_ctl), one cluster in a temporary
folder, listening only on a Unix socket in that folder. Where PostgreSQL is missing the tests that need it are
skipped with the reason; CI installs it (.ci/run) and sets REQUIRE_POSTGRES_TESTS=1, which makes a missing server an
error. initdb refuses to run as root: run by root, the cluster belongs to the `postgres` user (or `nobody`)."""
import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

import pytest

from tests.helpers.browser import free_port

REQUIRED = os.environ.get("REQUIRE_POSTGRES_TESTS") == "1"


def _program(name):
    """A PostgreSQL program from PATH, or from Debian's versioned folder (which Debian does not put on PATH)."""
    return shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)),
                                      None)


def missing():
    """Why no server can be started here, or None."""
    absent = [name for name in ("initdb", "pg_ctl") if _program(name) is None]
    if absent:
        return f"PostgreSQL is not installed ({', '.join(absent)} not found): apt-get install postgresql"
    return None


def require():
    """Skip the calling test (or fail it under REQUIRE_POSTGRES_TESTS=1) where PostgreSQL is missing."""
    why = missing()
    if why and REQUIRED:
        pytest.fail(f"REQUIRE_POSTGRES_TESTS=1 but {why}")
    if why:
        pytest.skip(why)


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
        run(_program("initdb"), "-D", data, "-U", user, "--auth=trust", "--no-sync")
        options = f"-c listen_addresses='' -c unix_socket_directories={folder} -p {port} -c fsync=off"
        run(_program("pg_ctl"), "-D", data, "-o", options, "-l", os.path.join(folder, "log"), "-w", "start")
        try:
            run(_program("createdb") or "createdb", "-h", folder, "-p", str(port), "-U", user, database)
            yield f"postgresql+psycopg2://{user}@/{database}?host={folder}&port={port}"
        finally:
            run(_program("pg_ctl"), "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _has_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
