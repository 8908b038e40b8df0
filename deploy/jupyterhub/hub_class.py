"""The accounts, groups, course directory and exchange of a class on JupyterHub (run as root; stdlib only, but for
`demo`, which runs in the shared environment and makes the exchange as `classroom exchange` does).

    python hub_class.py check-node  # make hub: the Node.js the proxy needs (package.json's engines), or stop
    python hub_class.py demo        # make hub: groups, two instructors and two students (passwords printed), course,
                                    # exchange; stops first if the hub's port is taken
    python hub_class.py clean       # make hub-clean: remove what `demo` made (accounts, homes, groups, course,
                                    # exchange)

tests/hub/test_hub_class.py runs `make hub` and `make hub-clean` with names of its own (SQDK_DEMO, SQDK_COURSE, ...).
Every permission set here is explained in INSTRUCTORS.md, "Every permission, and why".
"""
import argparse
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hub_settings import course_id, demo_accounts, settings  # noqa: E402

REPO = HERE.parents[1]
COURSE_FILES = ("nbgrader_config.py", "source", "release")  # what the course directory starts with
ASSIGNMENT = "score_gradient"
ACCOUNTS = "demo-accounts.txt"  # in the state folder: what `clean` removes
INSTRUCTORS_UMASK = 0o002  # as the instructors' servers run (etc/jupyter/jupyter_server_config.py)


def run(*command, **kwargs):
    subprocess.run(command, check=True, **kwargs)


def node_requirement():
    """(text, minimum version) of the Node.js the proxy needs: package.json's `engines`, e.g. (">=20", (20, 0, 0)),
    which package-lock.json's packages agree with (tests/hub/test_hub_setup.py checks)."""
    text = json.loads((HERE / "package.json").read_text())["engines"]["node"]
    found = re.fullmatch(r">=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", text.strip())
    return text, tuple(int(part or 0) for part in found.groups())


def check_node(node="node"):
    """None if `node` and npm are here and new enough for the proxy; else what to do, in words."""
    text, minimum = node_requirement()
    try:
        shown = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    except FileNotFoundError:
        shown = None
    found = re.fullmatch(r"v?(\d+)\.(\d+)\.(\d+)", shown or "")
    if found and tuple(map(int, found.groups())) >= minimum and shutil.which("npm"):
        return None
    have = (f"this machine has Node.js {shown}" if found else "this machine has no Node.js") + (
        "" if shutil.which("npm") else " and no npm")
    return (f"The hub's proxy (configurable-http-proxy, deploy/jupyterhub/package-lock.json) needs Node.js {text} "
            f"with npm, and {have}. Install them (Debian 13: `apt-get install nodejs npm`; older releases: "
            "NodeSource's nodejs, which brings npm), then run `make hub` again. INSTRUCTORS.md, step 1.")


def port_taken(ip, port):
    """True if something listens on ip:port already (another hub, say)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the proxy binds: TIME_WAIT does not count
        try:
            probe.bind((ip, int(port)))
        except OSError:
            return True
    return False


def add_group(name):
    try:
        grp.getgrnam(name)
    except KeyError:
        run("groupadd", name)


def add_account(name, group):
    """A Linux account in `group` with a private home (0700) and a new random password, which is returned."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        run("useradd", "--create-home", "--shell", "/bin/bash", "--groups", group, name)
    os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
    password = secrets.token_urlsafe(12)
    run("chpasswd", input=f"{name}:{password}\n", text=True)
    return password


def as_user(name, found, *command, cwd, umask=-1):
    """Run `command` as the Linux account `name` with the shared environment first on PATH (as its server does)."""
    account = pwd.getpwnam(name)
    env = {"HOME": account.pw_dir, "USER": name, "PATH": f"{found['env']}/bin:/usr/bin:/bin",
           "SQDK_COURSE": found["course"], "SQDK_EXCHANGE": found["exchange"]}
    return subprocess.run(command, cwd=cwd, env=env, user=account.pw_uid, group=account.pw_gid,
                          extra_groups=os.getgrouplist(name, account.pw_gid), capture_output=True, text=True,
                          umask=umask)


def make_course(found, owner):
    """The course directory (group: instructors, 2770, nobody else may enter) with this repository's course files
    (folders 2775, files 0664 inside, as the instructors' umask makes them),
    owned by the instructor `owner`, who generates the assignment into the gradebook; and the exchange (1777) with
    the course's folder in it, `owner`'s, group-shared with the instructors (classroom/app/exchange.py, `classroom exchange`)."""
    course = Path(found["course"])
    course.mkdir(parents=True, exist_ok=True)
    for name in COURSE_FILES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, course / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        else:
            shutil.copy(REPO / name, course / name)
    gid = grp.getgrnam(found["instructors"]).gr_gid
    uid = pwd.getpwnam(owner).pw_uid
    for folder, dirs, files in os.walk(course):
        os.chown(folder, uid, gid)
        os.chmod(folder, 0o2775)  # setgid: what is made inside belongs to the instructors' group too
        for name in files:
            os.chown(Path(folder) / name, uid, gid)
            os.chmod(Path(folder) / name, 0o664)  # as the instructors' umask 002 makes them
    os.chown(course, 0, gid)  # the folder itself stays root's, and lets nobody else in
    os.chmod(course, 0o2770)
    from classroom.app import exchange  # the one place the exchange is made; this runs in the shared environment

    for refused in (exchange.make_exchange(found["exchange"]),
                    exchange.make_course_folder(found["exchange"], course_id(course), uid, gid, groupshared=True)):
        if refused:
            raise RuntimeError(refused)
    made = as_user(owner, found, "nbgrader", "generate_assignment", ASSIGNMENT, "--force", cwd=course,
                   umask=INSTRUCTORS_UMASK)
    if made.returncode != 0:
        raise RuntimeError(f"nbgrader generate_assignment failed:\n{made.stdout[-2000:]}\n{made.stderr[-4000:]}")
    os.chmod(course / "gradebook.db", 0o664)  # SQLite makes it 0644 whatever the umask: every instructor grades


def close_clone():
    """Take others' access away from this code clone: it holds source/ (the solutions and hidden tests) and the quiz
    authoring modules, which no student may read. The shared environment holds everything accounts run."""
    mode = REPO.stat().st_mode
    if mode & 0o077:
        os.chmod(REPO, mode & ~0o077)
        print(f"{REPO} holds the solutions and hidden tests: only its owner may enter it now (chmod go-rwx).")


def end_processes(name):
    """SIGKILL every process of the account `name` (a class's account has none left when it is removed)."""
    uid = pwd.getpwnam(name).pw_uid
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid == uid:
                os.kill(int(entry.name), signal.SIGKILL)
        except (FileNotFoundError, ProcessLookupError):
            continue


def remove_account(name):
    try:
        pwd.getpwnam(name)
    except KeyError:
        return
    end_processes(name)
    subprocess.run(["userdel", "--remove", name], capture_output=True)  # mail spool may be missing: not an error


def remove_group(name):
    subprocess.run(["groupdel", name], capture_output=True)


def remove_class(found, accounts):
    for name in accounts:
        remove_account(name)
    for group in (found["instructors"], found["students"]):
        remove_group(group)
    for folder in (found["course"], found["exchange"], found["state"]):
        shutil.rmtree(folder, ignore_errors=True)


def demo(found):
    if port_taken(found["ip"], found["port"]):
        sys.exit(f"Port {found['port']} on {found['ip']} is taken (another hub?): nothing was made. Stop what "
                 "listens there, or choose another port: make hub HUB_PORT=8123")
    close_clone()
    state = Path(found["state"])
    state.mkdir(parents=True, exist_ok=True)
    os.chmod(state, 0o700)
    accounts = demo_accounts(found)
    (state / ACCOUNTS).write_text("\n".join(n for group in accounts.values() for n in group) + "\n")
    passwords = {}
    for key, names in accounts.items():
        add_group(found[key])
        for name in names:
            passwords[name] = (key[:-1], add_account(name, found[key]))
    make_course(found, accounts["instructors"][0])
    print(f"\nThe class's JupyterHub: {found['url']}/  (log in with one of these; Ctrl-C stops the hub)")
    for name, (kind, password) in passwords.items():
        print(f"    {kind:<10} {name:<14} password {password}")
    print("Afterwards, `make hub-clean` removes these accounts, their homes, the groups, course and exchange.\n",
          flush=True)


def clean(found):
    listed = Path(found["state"]) / ACCOUNTS
    names = listed.read_text().split() if listed.exists() else [n for g in demo_accounts(found).values() for n in g]
    remove_class(found, names)
    print(f"Removed {', '.join(names)}, the groups, {found['course']}, {found['exchange']} and {found['state']}.")


def node():
    refused = check_node()
    if refused:
        sys.exit(refused)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("check-node", "demo", "clean"), help="check-node: the Node.js the proxy "
                        "needs (make hub, first); demo: make the class (make hub); clean: remove it (make hub-clean)")
    step = parser.parse_args().step
    if step == "check-node":
        node()
    elif os.geteuid() != 0:
        sys.exit("hub_class.py creates and removes Linux accounts: run it as root (sudo make hub)")
    else:
        {"demo": demo, "clean": clean}[step](settings())
