"""What the set-up of a class on JupyterHub made, and the one tear-down of both routes (run as root; stdlib only).

`hub_class.py class`, `student` and `demo` (make hub-class, make hub-student, make hub) record each account, group
and folder they make in the state folder's made.json, and only when it was not there before. `hub_class.py clean`
(make hub-clean) removes exactly those, says what it removed, and names what it leaves with the command that removes
it: accounts in the class's groups that the set-up did not make, the shared environment, the code clone and the
HOME_MODE line of /etc/login.defs (INSTRUCTORS.md, "Taking a class down").
"""
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hub_settings import members  # noqa: E402

MADE = "made.json"  # in the state folder
LOGIN_DEFS = Path("/etc/login.defs")
HOME_MODE = "HOME_MODE\t0700"


class Record:
    """What the set-up made: accounts, groups and the outermost folders it created."""

    def __init__(self, found):
        self.path = Path(found["state"]) / MADE
        self.made = json.loads(self.path.read_text()) if self.path.exists() else {}
        for key in ("accounts", "groups", "folders"):
            self.made.setdefault(key, [])

    def add(self, key, value):
        if value not in self.made[key]:
            self.made[key].append(value)
            self.path.write_text(json.dumps(self.made, indent=1) + "\n")


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
    """True if the account was there and is removed, with its home and processes."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    end_processes(name)
    subprocess.run(["userdel", "--remove", name], capture_output=True)  # mail spool may be missing: not an error
    return True


def remove_group(name):
    return subprocess.run(["groupdel", name], capture_output=True).returncode == 0


def remove_class(found, accounts):
    """Remove `accounts`, the class's groups and folders whoever made them (the tests' last resort)."""
    for name in accounts:
        remove_account(name)
    for group in (found["instructors"], found["students"]):
        remove_group(group)
    for folder in (found["course"], found["exchange"], found["state"]):
        shutil.rmtree(folder, ignore_errors=True)


def clean(found, repo):
    """Remove what the record says the set-up made; return what to print: what was removed, and what is left with
    how to remove it."""
    record = Record(found)
    made = record.made
    others = sorted(set().union(*(members(found[key]) for key in ("instructors", "students"))) - set(made["accounts"]))
    removed = [name for name in made["accounts"] if remove_account(name)]
    groups = [name for name in made["groups"] if remove_group(name)]
    folders = [folder for folder in made["folders"] if os.path.lexists(folder)]
    for folder in reversed(folders):
        shutil.rmtree(folder, ignore_errors=True)
    if record.path.exists():
        record.path.unlink()
    said = [f"Removed the accounts {', '.join(removed)} (their homes and processes)" if removed else
            "Removed no account (the set-up made none, or they are gone)"]
    said += [f"Removed the groups {', '.join(groups)}"] if groups else []
    said += [f"Removed {', '.join(folders)}"] if folders else []
    left = [f"the account {name}, which the set-up did not make: userdel --remove {name}" for name in others]
    left += [f"the group {found[key]}, which the set-up did not make: groupdel {found[key]}"
             for key in ("instructors", "students") if found[key] not in made["groups"] and _group(found[key])]
    left += [f"{folder}, which the set-up did not make: rm -rf {folder}" for key in ("course", "exchange", "state")
             if os.path.lexists(folder := found[key])]
    if os.path.isdir(found["env"]):
        left.append(f"the shared environment {found['env']}, which every class on this machine runs (make hub-env "
                    f"builds it again): rm -rf {found['env']}")
    left.append(f"the code clone {repo} (you made it; it holds the solutions): rm -rf {repo}")
    if LOGIN_DEFS.exists() and HOME_MODE.split() in [line.split() for line in LOGIN_DEFS.read_text().splitlines()]:
        left.append(f"{HOME_MODE.expandtabs(1)} in {LOGIN_DEFS}, which keeps every new home private: delete it and "
                    "the '# sqrt-dk' line above it")
    return "\n".join(said) + ".\nLeft:\n" + "\n".join(f"  - {line}" for line in left)


def _group(name):
    import grp

    try:
        return grp.getgrnam(name)
    except KeyError:
        return None
