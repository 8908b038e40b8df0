"""The fresh-server route of INSTRUCTORS.md ("From a fresh server to a graded class") as an instructor runs it, with
names of this run: `make hub-class` (step 5), the hub's start command (step 8) on a port held open, students added
after set-up by hand (`useradd`) and by `make hub-student`, each private from the moment the account exists, and
`make hub-clean`, the tear-down of both routes, which removes what the route made and names what it left.
tests/hub/test_hub_class.py does the same for `make hub`'s route."""
import grp
import json
import os
import pwd
import socket
import subprocess
from pathlib import Path

import pytest

from coursekit.real_parts.hub import DEPLOY, Hub, make
from coursekit.parts import requires
from tests.hub.permissions import TRY_READ

pytestmark = requires("hub")


@pytest.fixture
def route():
    made = Hub()  # names and folders of its own; its `make hub` is never run
    yield made
    made.__exit__()  # make hub-clean again, then whatever is left of the accounts, groups and folders


def start_on(route, port):
    """INSTRUCTORS.md's step 8, the hub's start command, with the proxy's port `port`."""
    return subprocess.run([f"{route.settings['env']}/bin/jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py")],
                          env=dict(os.environ, **route.env, SQDK_PORT=str(port)), cwd=route.folder,
                          capture_output=True, text=True, timeout=300)


def test_the_fresh_server_route_stops_on_a_taken_port_keeps_late_students_private_and_comes_down(route):
    teacher, student = route.instructor, route.students[0]
    prefix = route.env["SQDK_DEMO"]
    there, by_hand, added = f"{prefix}-there", f"{prefix}-hand", f"{prefix}-late"
    route.late = [there, by_hand, added]
    subprocess.run(["useradd", "--create-home", there], check=True)  # an account the set-up finds, and keeps
    made = make("hub-class", f"INSTRUCTORS={teacher}", f"STUDENTS={student} {there}", env=route.env, timeout=600)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    assert f"{there:<14} (an account already: its password is unchanged)" in made.stdout, made.stdout
    assert there in grp.getgrnam(route.settings["students"]).gr_mem
    assert ["HOME_MODE", "0700"] in [line.split() for line in Path("/etc/login.defs").read_text().splitlines()]
    assert {pwd.getpwnam(teacher).pw_name, pwd.getpwnam(student).pw_name} == {teacher, student}
    exchange = Path(route.settings["exchange"])
    assert oct(exchange.stat().st_mode & 0o7777) == "0o755" and exchange.stat().st_uid == 0

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        started = start_on(route, port)
    said = started.stdout + started.stderr
    assert started.returncode != 0, said[-3000:]
    assert f"Port {port} on 127.0.0.1 is taken (another hub?): JupyterHub was not started." in said, said[-3000:]
    assert "JupyterHub is now running" not in said and not (Path(route.settings["state"]) / "proxy.pid").exists()

    subprocess.run(["useradd", "--create-home", "--groups", route.settings["students"], by_hand], check=True)
    late = make("hub-student", f"STUDENT={added}", env=route.env)
    assert late.returncode == 0 and f"{added}" in late.stdout, late.stdout + late.stderr
    for name in (by_hand, added):
        home = Path(pwd.getpwnam(name).pw_dir)
        assert home.stat().st_mode & 0o777 == 0o700, f"{name}'s home is {home.stat().st_mode & 0o777:o}"
        wrote = route.as_user(name, "sh", "-c", "mkdir -p ~/score_gradient && echo mine > ~/score_gradient/a.ipynb")
        assert wrote.returncode == 0, wrote.stderr
        paths = [str(home), str(home / "score_gradient"), str(home / "score_gradient" / "a.ipynb")]
        tried = route.as_user(student, "python", "-c", TRY_READ, json.dumps(paths))
        assert json.loads(tried.stdout) == {path: "refused" for path in paths}, (name, tried.stdout, tried.stderr)
    other = route.as_user(student, "python", "-c", "import os, sys; os.mkdir(sys.argv[1])",
                          str(exchange / "another-course"))
    assert "PermissionError" in other.stderr and not (exchange / "another-course").exists(), other.stderr

    cleaned = make("hub-clean", env=route.env)
    out = cleaned.stdout
    assert cleaned.returncode == 0, out + cleaned.stderr
    removed, left = out.split("\nLeft:\n")
    assert f"Removed the accounts {teacher}, {student}, {added} (their homes and processes)" in removed, out
    for kept in (there, by_hand):
        assert kept not in removed and f"the account {kept}, which the set-up did not make: userdel --remove " \
            f"{kept}" in left, out
        assert pwd.getpwnam(kept), "an account the set-up did not make is left, as the tear-down says"
    assert f"rm -rf {route.settings['env']}" in left and "HOME_MODE 0700 in /etc/login.defs" in left, out
    for name in (teacher, student, added):
        with pytest.raises(KeyError):
            pwd.getpwnam(name)
    for key in ("course", "exchange", "state"):
        assert not Path(route.settings[key]).exists(), f"make hub-clean left {route.settings[key]}"
    again = make("hub-clean", env=route.env).stdout
    assert "\nRemoved no account" in again and teacher not in again, again
