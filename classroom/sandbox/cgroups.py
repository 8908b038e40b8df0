"""One control group per sandboxed process tree, where the machine lets the grader make one: it bounds the memory
of everything the tree holds (processes, tmpfs files, memfd and shared memory, pipes) and its number of processes,
and it is where the grader reads the tree's memory from (the student's code cannot see or reset it: /sys is not
mounted in the sandbox).

Found at run time, once per grading process (`support()`): cgroup v2 (one hierarchy, `memory.max`, `pids.max`,
`memory.peak`, `cpu.stat`) or v1 (a `memory` hierarchy with `memory.limit_in_bytes`, and a `pids` and a `cpuacct` one
if mounted). The group is also where the grader reads the tree's CPU time (`cpu_times`), one file instead of a
search of every process of the machine (classroom.sandbox.process_tree reads it so where it can). The new
group is made under the grader's own group or, failing that, the nearest ancestor that accepts it (root can use
any; an ordinary user only a delegated subtree, e.g. `systemd-run --user --scope -p Delegate=yes make autograde`).
A probe moves a short-lived process into a test group; if anything fails, there is no cgroup (`support()` says
why) and the per-process limits of classroom.sandbox are all that holds.

`Cgroup.create(memory, processes)` makes `classroom-<grader pid>-<n>`; the launcher in classroom.sandbox.init_process
moves itself into it before starting bubblewrap, so every process of the tree is in it from the start; `close()`
kills whatever is left in it and removes it. Groups of a grader that died (its pid gone) are removed on the next
`create`, and `close` runs at exit for any still open: none is left behind.
"""
import atexit
import itertools
import os
import signal
import subprocess
import time

import psutil

ROOT = "/sys/fs/cgroup"
V1_CONTROLLERS = ("memory", "pids", "cpuacct")  # memory is required; pids and cpuacct are used where mounted
# The file of a v1 hierarchy a probe group must have for the controller to be used.
V1_WANTED = {"memory": "memory.limit_in_bytes", "pids": "pids.max", "cpuacct": "cpuacct.stat"}
TICKS = os.sysconf("SC_CLK_TCK")  # the unit of v1's cpuacct.stat
PREFIX = "classroom-"
_numbers = itertools.count()
_open = set()
_support = {}


def _read(path, default=""):
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return default


def _write(path, value):
    with open(path, "w") as file:
        file.write(str(value))


def _own_groups():
    """{controller or "" for v2: the grader's group path}, from /proc/self/cgroup."""
    groups = {}
    for line in _read("/proc/self/cgroup").splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in (controllers.split(",") if controllers else [""]):
            groups[controller] = path
    return groups


def _candidates(mount, path):
    """The grader's own group, then each ancestor up to the root of the hierarchy mounted at `mount`."""
    parts = [p for p in path.split("/") if p]
    return [os.path.join(mount, *parts[:i]) for i in range(len(parts), -1, -1)]


def _layout():
    """[(kind, controller, parent folder candidates)] for the memory, pids and (v1) cpuacct controllers, v2 first."""
    groups = _own_groups()
    unified = ROOT if os.path.exists(os.path.join(ROOT, "cgroup.controllers")) else os.path.join(ROOT, "unified")
    found = []
    if "memory" in _read(os.path.join(unified, "cgroup.controllers")).split() and "" in groups:
        found.append(("v2", None, _candidates(unified, groups[""])))
    else:
        for controller in V1_CONTROLLERS:
            if os.path.exists(os.path.join(ROOT, controller, "cgroup.procs")) and controller in groups:
                found.append(("v1", controller, _candidates(os.path.join(ROOT, controller), groups[controller])))
    return found


def _sweep(parent):
    """Remove groups left by graders that died (their pid is gone and nothing runs in them)."""
    try:
        names = [n for n in os.listdir(parent) if n.startswith(PREFIX)]
    except OSError:
        return
    for name in names:
        pid = name[len(PREFIX):].split("-")[0]
        if pid.isdigit() and not psutil.pid_exists(int(pid)):
            _remove(os.path.join(parent, name))


def _kill_all(folder):
    if os.path.exists(os.path.join(folder, "cgroup.kill")):
        try:
            _write(os.path.join(folder, "cgroup.kill"), 1)
        except OSError:
            pass
    for pid in _read(os.path.join(folder, "cgroup.procs")).split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def _remove(folder, wait=10.0):
    """Kill every process in `folder` and remove it (retrying while the killed processes exit)."""
    deadline = time.monotonic() + wait
    while os.path.isdir(folder):
        _kill_all(folder)
        try:
            os.rmdir(folder)
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
    return True


class Cgroup:
    """A group (one folder per v1 hierarchy, or one v2 folder) holding one sandboxed process tree."""

    def __init__(self, kind, folders):
        self.kind = kind
        self.folders = folders  # {"memory": path, "pids": path, "cpuacct": path}; in v2 one folder for all
        self.memory_folder = folders["memory"]

    @classmethod
    def create(cls, memory, processes):
        """A new group limited to `memory` bytes (swap included) and `processes` tasks; None without support."""
        plan = support()
        if not plan["ok"]:
            return None
        name = f"{PREFIX}{os.getpid()}-{next(_numbers)}"
        folders = {controller: os.path.join(parent, name) for controller, parent in plan["parents"].items()}
        group = cls(plan["kind"], folders)
        _open.add(group)
        try:
            for folder in sorted(set(folders.values())):
                _sweep(os.path.dirname(folder))
                os.mkdir(folder)
            group._limit(int(memory), int(processes))
        except OSError:
            group.close()
            raise
        return group

    def _limit(self, memory, processes):
        m = self.memory_folder
        if self.kind == "v2":
            _write(os.path.join(m, "memory.max"), memory)
            for name, value in (("memory.swap.max", 0), ("memory.oom.group", 1)):
                if os.path.exists(os.path.join(m, name)):
                    _write(os.path.join(m, name), value)
        else:
            _write(os.path.join(m, "memory.limit_in_bytes"), memory)
            if os.path.exists(os.path.join(m, "memory.memsw.limit_in_bytes")):
                _write(os.path.join(m, "memory.memsw.limit_in_bytes"), memory)
        if "pids" in self.folders and os.path.exists(os.path.join(self.folders["pids"], "pids.max")):
            _write(os.path.join(self.folders["pids"], "pids.max"), processes)

    @property
    def procs_files(self):
        """The files a process writes 0 to, to move itself into this group (one per hierarchy)."""
        return [os.path.join(folder, "cgroup.procs") for folder in sorted(set(self.folders.values()))]

    def usage(self):
        """Bytes the tree holds now (memory, tmpfs files, kernel memory), as the kernel accounts them."""
        name = "memory.current" if self.kind == "v2" else "memory.usage_in_bytes"
        return int(_read(os.path.join(self.memory_folder, name), "0") or 0)

    def reset_peak(self):
        """Start a new peak from the present usage; False where the kernel cannot (v2 before Linux 6.12)."""
        name = "memory.peak" if self.kind == "v2" else "memory.max_usage_in_bytes"
        try:
            _write(os.path.join(self.memory_folder, name), 0)
            return True
        except OSError:
            return False

    def peak(self):
        name = "memory.peak" if self.kind == "v2" else "memory.max_usage_in_bytes"
        return int(_read(os.path.join(self.memory_folder, name), "0") or 0)

    def cpu_times(self):
        """(user, user and system) CPU seconds every process that was ever in the group has used, as the kernel
        accounts them; None where the group does not count them (v1 without a cpuacct hierarchy)."""
        if self.kind == "v2":
            stat = dict(line.split(" ", 1) for line in _read(os.path.join(self.memory_folder, "cpu.stat")).splitlines()
                        if " " in line)
            if "user_usec" not in stat or "usage_usec" not in stat:
                return None
            return int(stat["user_usec"]) / 1e6, int(stat["usage_usec"]) / 1e6
        if "cpuacct" not in self.folders:
            return None
        stat = dict(line.split(" ", 1) for line in _read(os.path.join(self.folders["cpuacct"], "cpuacct.stat"))
                    .splitlines() if " " in line)
        if "user" not in stat or "system" not in stat:
            return None
        user, system = int(stat["user"]) / TICKS, int(stat["system"]) / TICKS
        return user, user + system

    def oom_kills(self):
        """How many processes of the tree the kernel killed for going over the memory limit."""
        name = "memory.events" if self.kind == "v2" else "memory.oom_control"
        for line in _read(os.path.join(self.memory_folder, name)).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def close(self):
        """Kill what is left in the group and remove it."""
        for folder in set(self.folders.values()):
            _remove(folder)
        _open.discard(self)


def support():
    """{"ok": bool, "why": str, "kind": "v1"|"v2", "parents": {controller: folder}}, found once per process."""
    if _support.get("pid") == os.getpid():
        return _support
    _support.clear()
    _support.update(pid=os.getpid(), ok=False, why="no memory controller is mounted", parents={}, kind=None)
    for kind, controller, candidates in _layout():
        for parent in candidates:
            if _usable(kind, controller, parent):
                _support["kind"] = kind
                for c in ((controller,) if controller else ("memory", "pids")):
                    _support["parents"][c] = parent
                break
    if "memory" not in _support["parents"]:
        if _layout():
            _support["why"] = "this user may not create memory cgroups (no cgroup delegation)"
        return _support
    _support.update(ok=True, why="")
    return _support


def _usable(kind, controller, parent):
    """Whether a group made under `parent` gets the controller's files and accepts a process moved into it."""
    probe = os.path.join(parent, f"{PREFIX}{os.getpid()}-probe")
    wanted = "memory.max" if kind == "v2" else V1_WANTED[controller]
    if kind == "v2" and "memory" not in _read(os.path.join(parent, "cgroup.subtree_control")).split():
        try:  # possible where the parent has no process of its own (the root, or a delegated subtree's top)
            _write(os.path.join(parent, "cgroup.subtree_control"), "+memory +pids")
        except OSError:
            return False
    try:
        os.mkdir(probe)
    except OSError:
        return False
    try:
        if not os.path.exists(os.path.join(probe, wanted)):
            return False
        moved = subprocess.run(["/bin/sh", "-c", 'echo 0 > "$0"', os.path.join(probe, "cgroup.procs")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return moved.returncode == 0
    finally:
        _remove(probe)


@atexit.register
def _close_all():
    for group in list(_open):
        group.close()
