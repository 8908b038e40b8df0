"""What one account on the hub tries against the others, for tests/hub/test_hub_class.py: a classmate's hand-in and
the exchange's course folder (a forged hand-in, garbled and forged times), and another account's kernel."""
import json
import os
import pwd
import threading
from pathlib import Path

from coursekit.real_parts.waiting import until
from tests.hub.class_cycle import ASSIGNMENT, exchange, hand_in_folder, home
from tests.hub.lab_pages import api

FORGED = "2020-01-01 00:00:00.000000 UTC"  # the first student's own timestamp.txt, rewritten after Submit
GARBLED = "not a time at all"  # the second student's
LATER = "2031-01-01 00:00:00.000000 UTC"  # the name of the hand-in the second student makes under the first's name


# ---- what a classmate tries ----------------------------------------------------------------------------------------
CLASSMATE = r"""
import json, os, shutil, sys
args = json.loads(sys.argv[1])
seen = {}
def attempt(what, action):
    try:
        action()
        seen[what] = "done"
    except OSError as error:
        seen[what] = type(error).__name__
victim, course = args["victim_hand_in"], args["course_folder"]
forged = os.path.join(course, "inbound", args["forged_name"])
os.mkdir(forged)  # a hand-in under the victim's name, with a later time: inbound/ lets anyone create
shutil.copy(os.path.join(args["own_hand_in"], "score_gradient.ipynb"), forged)
with open(os.path.join(forged, "timestamp.txt"), "w") as file:
    file.write(args["later"])
with open(os.path.join(args["own_hand_in"], "timestamp.txt"), "w") as file:
    file.write(args["garbled"])
attempt("add a file to the classmate's hand-in", lambda: open(os.path.join(victim, "extra.ipynb"), "x").close())
attempt("replace the classmate's notebook", lambda: os.replace(os.path.join(forged, "score_gradient.ipynb"),
                                                              os.path.join(victim, "score_gradient.ipynb")))
attempt("delete the classmate's notebook", lambda: os.remove(os.path.join(victim, "score_gradient.ipynb")))
attempt("read the classmate's notebook", lambda: open(os.path.join(victim, "score_gradient.ipynb"), "rb").read(1))
attempt("rename the classmate's hand-in", lambda: os.rename(victim, victim + "-moved"))
attempt("make a folder in the course's folder", lambda: os.mkdir(os.path.join(course, "fake")))
attempt("release a fake assignment", lambda: os.mkdir(os.path.join(course, "outbound", "fake")))
attempt("put a feedback page", lambda: open(os.path.join(course, "feedback", "x.html"), "x").close())
attempt("rename the course's folder", lambda: os.rename(course, course + "-moved"))
attempt("make a folder for another course id", lambda: os.mkdir(os.path.join(os.path.dirname(course), "other-id")))
print(json.dumps(seen))
"""


def classmate_tries(hub):
    first, second = hub.students
    tried = hub.as_user(second, "python", "-c", CLASSMATE, json.dumps({
        "victim_hand_in": str(hand_in_folder(hub, first)), "own_hand_in": str(hand_in_folder(hub, second)),
        "course_folder": str(exchange(hub)), "forged_name": f"{first}+{ASSIGNMENT}+{LATER}+forged",
        "later": LATER, "garbled": GARBLED}))
    assert tried.returncode == 0, tried.stderr
    forged = hub.as_user(first, "sh", "-c", f"printf '%s' '{FORGED}' > \"$0\"",
                         str(hand_in_folder(hub, first) / "timestamp.txt"))
    assert forged.returncode == 0, forged.stderr
    return json.loads(tried.stdout)


# ---- kernels -------------------------------------------------------------------------------------------------------
PROBE = r"""
import json, sys, time, zmq
targets = json.loads(sys.argv[1])
seen = {"messages": [], "files": {}, "tcp": {}}
for path in targets["files"]:
    try:
        open(path).read(1)
        seen["files"][path] = "read"
    except OSError as error:
        seen["files"][path] = type(error).__name__
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    for line in open(table).readlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[7] in targets["uids"]:  # listening, owned by the other accounts
            seen["tcp"].setdefault(fields[7], []).append(int(fields[1].rsplit(":", 1)[1], 16))
context = zmq.Context()
sockets = []
for url in [f"ipc://{path}" for path in targets["ipc"]] + [
        f"tcp://127.0.0.1:{port}" for ports in seen["tcp"].values() for port in ports]:
    sub = context.socket(zmq.SUB)
    sub.setsockopt(zmq.SUBSCRIBE, b"")
    sub.connect(url)
    sockets.append(sub)
poller = zmq.Poller()
for sub in sockets:
    poller.register(sub, zmq.POLLIN)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    for sub, _ in poller.poll(100):
        seen["messages"].append(repr(sub.recv_multipart()[-1][:100]))
print(json.dumps(seen))
"""


def listeners(ports):
    """{port: the command line of the process listening there} (read as root), for a failure's message."""
    wanted = {port for found in ports.values() for port in found}
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) in wanted:
                inodes[f"socket:[{fields[9]}]"] = int(fields[1].rsplit(":", 1)[1], 16)
    found = {}
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            if os.readlink(fd) in inodes:
                found[inodes[os.readlink(fd)]] = (fd.parents[1] / "cmdline").read_text().replace("\0", " ")[:200]
        except OSError:
            continue
    return found


def connection_file(user, kernel_id):
    """The connection file of `user`'s kernel (read as root, which the probe is not)."""
    return home(user) / ".jupyter-run" / f"kernel-{kernel_id}.json"


def kernels_stay_private(hub, teacher_page, student_pages):
    """A student subscribes to the teacher's kernel and a classmate's while both print; root, subscribed to the
    same sockets in the same seconds, sees what they print; the student sees nothing."""
    from jupyter_client import BlockingKernelClient

    first, second = hub.students
    kernels = {hub.instructor: api(teacher_page, "POST", "kernels")["id"],
               first: api(student_pages[first], "GET", "kernels")[0]["id"]}
    files = {user: connection_file(user, kernel) for user, kernel in kernels.items()}
    until(lambda: all(path.exists() for path in files.values()), "the kernels' connection files")
    infos = {user: json.loads(path.read_text()) for user, path in files.items()}
    for user, info in infos.items():
        assert info["transport"] == "ipc" and info["ip"].startswith(str(home(user)) + "/"), info
    mark = f"SQDK-MARK-{os.getpid()}"
    clients, heard = [], []
    for path in files.values():
        client = BlockingKernelClient(connection_file=str(path))
        client.load_connection_file()
        client.start_channels()
        client.execute(f"import time\nfor _ in range(100):\n    print({mark!r}, flush=True)\n    time.sleep(0.1)")
        clients.append(client)

    def listen():
        for client in clients:
            while True:
                try:
                    msg = client.get_iopub_msg(timeout=3)
                except Exception:
                    break
                if mark in str(msg.get("content", {}).get("text", "")):
                    heard.append(client.connection_file)
                    break

    root = threading.Thread(target=listen)
    root.start()
    probe = hub.as_user(second, "python", "-c", PROBE, json.dumps({
        "files": [str(p) for p in files.values()], "uids": [str(pwd.getpwnam(u).pw_uid) for u in files],
        "ipc": [f"{info['ip']}-{info['iopub_port']}" for info in infos.values()]}), "4")
    root.join()
    for client in clients:
        client.stop_channels()
    assert probe.returncode == 0, probe.stderr
    seen = json.loads(probe.stdout)
    assert sorted(heard) == sorted(str(p) for p in files.values()), "root heard both kernels print (the control)"
    assert seen["messages"] == [], f"{second} read another account's kernel: {seen['messages'][:3]}"
    assert set(seen["files"].values()) == {"PermissionError"}, seen["files"]
    # every TCP port the other accounts listen on was tried too (their servers' HTTP, and ipykernel's pipe for the
    # output of forked processes, which only takes messages in, each signed with a key of its own): nothing came
    assert len(seen["tcp"]) == 2, f"the probe saw no TCP listener of {list(files)}: {listeners(seen['tcp'])}"
