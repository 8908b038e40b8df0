"""The accounts, groups, course directory and exchange of a class on JupyterHub (run as root; stdlib only).

    python hub_class.py demo   # make hub: groups, an instructor and two students (passwords printed), course, exchange
    python hub_class.py clean  # make hub-clean: remove what `demo` made (accounts, homes, groups, course, exchange)

tests/hub/test_hub_class.py uses the same functions with names of its own. Every permission set here is explained in
INSTRUCTORS.md, "A class on JupyterHub".
"""
import argparse
import grp
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hub_settings import settings  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
COURSE_FILES = ("nbgrader_config.py", "source", "release")  # what the course directory starts with
ASSIGNMENT = "score_gradient"
DEMO = {"instructors": ["sqdk-teacher"], "students": ["sqdk-ann", "sqdk-ben"]}
ACCOUNTS = "demo-accounts.txt"  # in the state folder: what `clean` removes


def run(*command, **kwargs):
    subprocess.run(command, check=True, **kwargs)


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


def as_user(name, found, *command, cwd):
    """Run `command` as the Linux account `name` with the shared environment first on PATH (as its server does)."""
    account = pwd.getpwnam(name)
    env = {"HOME": account.pw_dir, "USER": name, "PATH": f"{found['env']}/bin:/usr/bin:/bin",
           "SQDK_COURSE": found["course"], "SQDK_EXCHANGE": found["exchange"]}
    return subprocess.run(command, cwd=cwd, env=env, user=account.pw_uid, group=account.pw_gid,
                          extra_groups=os.getgrouplist(name, account.pw_gid), capture_output=True, text=True)


def make_course(found, owner):
    """The course directory (group: instructors, 2770, nobody else may enter) with this repository's course files,
    owned by the instructor `owner`, who generates the assignment into the gradebook; and the exchange (1777)."""
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
        os.chmod(folder, 0o2770)  # setgid: what is made inside belongs to the instructors' group too
        for name in files:
            os.chown(Path(folder) / name, uid, gid)
            os.chmod(Path(folder) / name, 0o660)
    os.chown(course, 0, gid)  # the folder itself stays root's: an instructor cannot open it to others
    Path(found["exchange"]).mkdir(parents=True, exist_ok=True)
    os.chmod(found["exchange"], 0o1777)  # nbgrader's 0777, plus the sticky bit (tools/make_exchange.py)
    made = as_user(owner, found, "nbgrader", "generate_assignment", ASSIGNMENT, "--force", cwd=course)
    if made.returncode != 0:
        raise RuntimeError(f"nbgrader generate_assignment failed:\n{made.stdout[-2000:]}\n{made.stderr[-4000:]}")


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
    state = Path(found["state"])
    state.mkdir(parents=True, exist_ok=True)
    os.chmod(state, 0o700)
    names = [n for group in DEMO.values() for n in group]
    (state / ACCOUNTS).write_text("\n".join(names) + "\n")
    passwords = {}
    for key, group_names in DEMO.items():
        add_group(found[key])
        for name in group_names:
            passwords[name] = (key[:-1], add_account(name, found[key]))
    make_course(found, DEMO["instructors"][0])
    print(f"\nThe class's JupyterHub: {found['url']}/  (log in with one of these; Ctrl-C stops the hub)")
    for name, (kind, password) in passwords.items():
        print(f"    {kind:<10} {name:<14} password {password}")
    print("Afterwards, `make hub-clean` removes these accounts, their homes, the groups, course and exchange.\n")


def clean(found):
    listed = Path(found["state"]) / ACCOUNTS
    names = listed.read_text().split() if listed.exists() else [n for g in DEMO.values() for n in g]
    remove_class(found, names)
    print(f"Removed {', '.join(names)}, the groups, {found['course']}, {found['exchange']} and {found['state']}.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("demo", "clean"), help="demo: make the class (make hub); clean: remove it "
                        "(make hub-clean)")
    step = parser.parse_args().step
    if os.geteuid() != 0:
        sys.exit("hub_class.py creates and removes Linux accounts: run it as root (sudo make hub)")
    {"demo": demo, "clean": clean}[step](settings())
