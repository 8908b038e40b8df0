"""The accounts, groups, course directory and exchange of a class on JupyterHub (run as root; stdlib only, but for
`demo`, which runs in the shared environment and makes the exchange as `classroom exchange` does).

    python hub_class.py check-node  # make hub: the Node.js the proxy needs (package.json's engines), or stop
    python hub_class.py class --instructors T [TA] --students S ...
                                    # make hub-class: groups, accounts (new passwords printed), course, exchange and
                                    # the hub's state folder; new homes private from then on (/etc/login.defs)
    python hub_class.py student S ...  # make hub-student: a student added later, as `class` adds them
    python hub_class.py demo        # make hub: `class` with two instructors and two students of SQDK_DEMO's names;
                                    # stops first if the hub's port is taken
    python hub_class.py clean       # make hub-clean: remove what `class`, `student` and `demo` made (their record in
                                    # the state folder), and say what is left and how to remove it

tests/hub/test_hub_class.py runs `make hub`, `make hub-class`, `make hub-student` and `make hub-clean` with names of
its own (SQDK_DEMO, SQDK_COURSE, ...). Every permission set here is explained in INSTRUCTORS.md, "Every permission,
and why".
"""
import argparse
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from hub_settings import course_id, demo_accounts, port_refused, settings  # noqa: E402
from hub_teardown import HOME_MODE, LOGIN_DEFS, Record, clean  # noqa: E402

REPO = HERE.parents[1]
COURSE_FILES = ("nbgrader_config.py", "source", "release")  # what the course directory starts with
ASSIGNMENT = "score_gradient"
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


def private_new_homes(path=LOGIN_DEFS):
    """Make useradd give every new home 0700 (HOME_MODE in login.defs, which useradd and newusers read; Debian's
    adduser reads DIR_MODE in /etc/adduser.conf, 0700 by default): an account added by hand later is private from
    the moment it exists. True if the file was changed."""
    lines = path.read_text().splitlines() if path.exists() else []
    if HOME_MODE.split() in [line.split() for line in lines]:
        return False
    lines = [f"#{line}" if line.split()[:1] == ["HOME_MODE"] else line for line in lines]
    path.write_text("\n".join(lines + ["# sqrt-dk (deploy/jupyterhub/hub_class.py): every new home is private",
                                       HOME_MODE]) + "\n")
    return True


def make_folder(path, record):
    """mkdir -p `path`, recording the outermost folder it made."""
    path = Path(path)
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    path.mkdir(parents=True, exist_ok=True)
    if missing:
        record.add("folders", str(missing[-1]))


def add_group(name, record):
    try:
        grp.getgrnam(name)
    except KeyError:
        run("groupadd", name)
        record.add("groups", name)


def add_account(name, group, record):
    """A Linux account in `group` with a private home (0700) and a new random password, which is returned; an account
    that was there before the set-up is only added to the group (None: its password stays)."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        run("useradd", "--create-home", "--shell", "/bin/bash", "--groups", group, name)
        record.add("accounts", name)
    os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
    if name not in record.made["accounts"]:
        run("usermod", "--append", "--groups", group, name)
        return None
    password = secrets.token_urlsafe(12)  # again at each run of the set-up, for the accounts it made
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


def make_course(found, owner, record):
    """The course directory (group: instructors, 2770, nobody else may enter) with this repository's course files
    (folders 2775, files 0664 inside, as the instructors' umask makes them),
    owned by the instructor `owner`, who generates the assignment into the gradebook; and the exchange (root's,
    0755: nobody else makes anything in it) with the course's folder in it, `owner`'s, group-shared with the
    instructors (classroom/app/exchange.py, what `classroom exchange` runs)."""
    course = Path(found["course"])
    make_folder(course, record)
    make_folder(found["exchange"], record)
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

    for refused in (exchange.make_exchange(found["exchange"], exchange.CLOSED),
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


def make_class(found, instructors, students):
    """The class: its state folder (root only), groups, accounts, course and exchange, and private new homes from now
    on; everything made is recorded for `clean`. Returns {account: (role, new password or None)}."""
    close_clone()
    record = Record(found)
    make_folder(found["state"], record)
    os.chmod(found["state"], 0o700)
    if private_new_homes():
        print(f"{LOGIN_DEFS}: {HOME_MODE.expandtabs(1)}, so that every home useradd makes from now on is private.")
    passwords = {}
    for key, names in (("instructors", instructors), ("students", students)):
        add_group(found[key], record)
        for name in names:
            passwords[name] = (key[:-1], add_account(name, found[key], record))
    make_course(found, instructors[0], record)
    return passwords


def add_students(found, names):
    """Students added after set-up, as the set-up adds them (recorded, private home, a new password)."""
    if not Path(found["state"]).is_dir():
        sys.exit(f"No class here ({found['state']} is missing): make hub-class first")
    record = Record(found)
    private_new_homes()
    return {name: ("student", add_account(name, found["students"], record)) for name in names}


def show(passwords):
    for name, (kind, password) in passwords.items():
        print(f"    {kind:<10} {name:<14} " + (f"password {password}" if password else
                                                  "(an account already: its password is unchanged)"))


def demo(found):
    refused = port_refused(found, "nothing was made")
    if refused:
        sys.exit(refused)
    accounts = demo_accounts(found)
    passwords = make_class(found, accounts["instructors"], accounts["students"])
    print(f"\nThe class's JupyterHub: {found['url']}/  (log in with one of these; Ctrl-C stops the hub)")
    show(passwords)
    print("Afterwards, `make hub-clean` removes these accounts, their homes, the groups, course and exchange.\n",
          flush=True)


def node():
    refused = check_node()
    if refused:
        sys.exit(refused)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    steps.add_parser("check-node", help="the Node.js the proxy needs (make hub, first)")
    made = steps.add_parser("class", help="make the class: groups, accounts, course, exchange (make hub-class)")
    made.add_argument("--instructors", nargs="+", required=True, help="the first owns the course")
    made.add_argument("--students", nargs="*", default=[])
    steps.add_parser("student", help="add students later (make hub-student)").add_argument("names", nargs="+")
    steps.add_parser("demo", help="make the demo class (make hub)")
    steps.add_parser("clean", help="remove what the set-up made, say what is left (make hub-clean)")
    args = parser.parse_args()
    if args.step == "check-node":
        return node()
    if os.geteuid() != 0:
        sys.exit("hub_class.py creates and removes Linux accounts: run it as root (sudo make hub)")
    found = settings()
    if args.step == "class":
        show(make_class(found, args.instructors, args.students))
        print("Start the hub (INSTRUCTORS.md, step 8); `make hub-clean` removes what was made.", flush=True)
    elif args.step == "student":
        show(add_students(found, args.names))
    elif args.step == "demo":
        demo(found)
    else:
        print(clean(found, REPO))


if __name__ == "__main__":
    main()
