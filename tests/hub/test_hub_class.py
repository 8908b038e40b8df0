"""A class on the JupyterHub of deploy/jupyterhub/, made by `make hub` and used as a class uses it, in Debian's
Chromium (playwright); then `make hub-clean`.

Real Linux accounts log in through PAM (coursekit/hub.py runs `make hub` with names of its own): the teacher
opens Nbgrader › Formgrader inside JupyterLab (it must load there, not only by its own address) and releases the
assignment with its Release button; each student lands on lesson 01, finds neither Formgrader nor Create Assignment
in the Nbgrader menu, fetches the assignment in the Assignments tab, hands in an answer (one right, one wrong:
tests/submissions/), presses Validate and Submit. Then the second student, from their own account, hands in under the
first's name, garbles their own timestamp.txt (the first forges theirs), and tries to change the first's hand-in and
the exchange's course folder; the first student tries to read the teacher's kernel and the second's. The teacher,
in a Jupyter terminal, runs INSTRUCTORS.md's commands as written (collect refuses the forgery by name, exits non-zero,
collects the rest with the server's times; autograde); the teaching assistant, in a terminal of their own, grades
everyone again and releases the feedback; each student fetches and opens their feedback. Every mode of
INSTRUCTORS.md's permission table is checked, each student's account is refused every private path, and a search of
everything a student can read finds no solution, hidden test or quiz key. Last, a second `make hub` starts beside
the first on other ports, one on the first's port stops saying so, and `make hub-clean` leaves nothing behind.

Screenshots: build/hub-screenshots/. The shared environment is built once at /opt/sqrt-dk/venv (`make hub-env`, about
800 MB) and reused while the pins stay the same. Skipped with a reason where the machine does not allow it (not root,
no useradd, npm or Node.js 20, bubblewrap or Chromium: coursekit.parts), required in CI.
"""
import json
import os
import pwd
import re
import shutil
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from coursekit.browser import CHROMIUM, CHROMIUM_ARGS, ROOT
from coursekit.corpus import corpus, notebook
from coursekit.course import max_scores, scores
from coursekit.hub import WAIT_S, Hub, make, until
from coursekit.parts import requires

pytestmark = requires("hub", "browser", "sandbox")
SHOTS = ROOT / "build" / "hub-screenshots"
WAIT_MS = WAIT_S * 1000
GRADING_S = 600  # a terminal command that grades the class
ASSIGNMENT = "score_gradient"
COURSE_ID = "sqrt-dk"
ANSWERS = ("correct_matmul", "wrong_transposed")  # corpus entries: what the first and the second student hand in
FORGED = "2020-01-01 00:00:00.000000 UTC"  # the first student's own timestamp.txt, rewritten after Submit
GARBLED = "not a time at all"  # the second student's
LATER = "2031-01-01 00:00:00.000000 UTC"  # the name of the hand-in the second student makes under the first's name


@pytest.fixture(scope="module")
def hub():
    with Hub() as made:
        yield made
    assert not made.stopped, f"left behind after Ctrl-C: {made.stopped}"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SHOTS, ignore_errors=True)  # only this run's screenshots
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def home(user):
    return Path(pwd.getpwnam(user).pw_dir)


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def log_in(browser, hub, user):
    """A browser context of its own for `user`, logged in through the hub's login form, once JupyterLab shows."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login", timeout=WAIT_MS)
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.wait_for(timeout=WAIT_MS)
    assert page.url.startswith(f"http://{user}.localhost:"), f"{user}'s server is not on an origin of its own"
    return page


def server_of(page):
    return page.url.split("/lab")[0]


def menu_items(page, menu):
    """The labels of the items of the menu bar's `menu`, as shown (the menu is closed again)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    labels = page.locator(".lm-Menu:visible .lm-Menu-itemLabel")
    labels.first.wait_for(timeout=WAIT_MS)
    shown = [text.strip() for text in labels.all_inner_texts()]
    shot(page, f"menu-{menu}-{page.url.split('.localhost')[0].rsplit('-', 1)[-1]}")
    page.keyboard.press("Escape")
    return shown


def open_menu(page, item):
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def press(page, button, attempts=WAIT_S // 5):
    """Click `button` in nbgrader's Assignments tab, which may be redrawn (its lists arrive from the server) and
    hidden behind another tab: until a click lands, bring the tab to the front and try again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(attempts):
        try:
            page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="Assignments").click(timeout=5_000)
            button.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"the Assignments tab never showed {button} long enough to press it")


def api(page, method, path):
    """A request to the user's own Jupyter server from their page (cookies and XSRF token as JupyterLab sends them)."""
    status, body = page.evaluate("""async ([url, method]) => {
        const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || "";
        const reply = await fetch(url, {method, headers: {"X-XSRFToken": xsrf, "Content-Type": "application/json"},
                                        body: method === "GET" ? undefined : "{}"});
        return [reply.status, await reply.text()]; }""", [f"{server_of(page)}/api/{path}", method])
    assert status < 300, f"{method} /api/{path}: {status} {body[:500]}"
    return json.loads(body)


class Terminal:
    """A Jupyter terminal opened as a person opens one (File › New › Terminal), typed into with the keyboard; what it
    prints is read through a second connection to the same terminal."""

    DONE = re.compile(r"::status (\d+) 42::")

    def __init__(self, page):
        self.page = page
        page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="New").first.hover()
        page.locator(".lm-Menu:visible .lm-Menu-itemLabel", has_text="Terminal").first.click()
        page.locator(".jp-Terminal").last.wait_for(timeout=WAIT_MS)
        name = api(page, "GET", "terminals")[-1]["name"]
        url = server_of(page).replace("http", "ws", 1) + f"/terminals/websocket/{name}"
        page.evaluate("""(url) => new Promise((ok, fail) => {
            window.sqdkOut = ""; const ws = new WebSocket(url);
            ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m[0] === "stdout") window.sqdkOut += m[1]; };
            ws.onopen = () => ok(); ws.onerror = () => fail("the terminal's websocket did not open");
            window.sqdkSocket = ws; })""", url)

    def run(self, command, seconds=WAIT_S):
        """Type `command` and Enter; (exit status, what it printed) once it has finished."""
        start = len(self.page.evaluate("window.sqdkOut"))
        self.page.locator(".jp-Terminal").last.click()
        self.page.keyboard.type(f'{command}; echo "::status $? $((6*7))::"')
        self.page.keyboard.press("Enter")
        found = {}

        def finished():
            out = self.page.evaluate("window.sqdkOut")[start:]
            found["match"], found["out"] = self.DONE.search(out), out
            return found["match"] is not None

        until(finished, f"`{command}` in the terminal", seconds)
        return int(found["match"].group(1)), re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", found["out"])


def doc_commands(who):
    """The commands INSTRUCTORS.md's "The cycle on the hub" gives `who` (the row whose first cell is `who` and whose
    second starts with File › New › Terminal), as written."""
    text = (ROOT / "INSTRUCTORS.md").read_text()
    section = text.split("### The cycle on the hub", 1)[1].split("\n### ", 1)[0]
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] == who and cells[1].startswith("File › New › Terminal"):
            return re.findall(r"`([^`]+)`", cells[2])
    raise AssertionError(f"INSTRUCTORS.md gives no terminal row for {who}")


# ---- the cycle ---------------------------------------------------------------------------------------------------
def release(hub, browser):
    page = log_in(browser, hub, hub.instructor)
    open_menu(page, "Formgrader")
    formgrader = page.frame_locator("iframe[src*='formgrader']")
    row = formgrader.locator("tr", has=formgrader.locator("td.name a", has_text=ASSIGNMENT)).first
    row.wait_for(timeout=WAIT_MS)  # the formgrader loads inside JupyterLab: no "refused to connect"
    assert formgrader.locator("#warning-exchange").count() == 0
    shot(page, "1-instructor-formgrader-in-lab")
    row.locator("td.release a").first.click()
    outbound = exchange(hub) / "outbound" / ASSIGNMENT
    until(lambda: (outbound / f"{ASSIGNMENT}.ipynb").exists(), "Release did not put the assignment in the exchange")
    assert not (outbound / "grade_cells.py").exists()
    row.locator("td.status", has_text="released").wait_for(timeout=WAIT_MS)
    shot(page, "1-instructor-released")
    page.context.close()
    hub.stop_server(hub.instructor)


def exchange(hub):
    return Path(hub.settings["exchange"]) / COURSE_ID


def hand_in_folder(hub, student):
    """The student's own hand-in (not one another account made under their name)."""
    uid = pwd.getpwnam(student).pw_uid
    return next(p for p in (exchange(hub) / "inbound").glob(f"{student}+{ASSIGNMENT}+*") if p.stat().st_uid == uid)


def hand_in(hub, browser, student, answer):
    page = log_in(browser, hub, student)
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text="01-").wait_for(timeout=WAIT_MS)
    page.locator(".jp-NotebookPanel:visible .jp-Cell").first.wait_for(timeout=WAIT_MS)
    assert page.get_by_text("official Jupyter news").count() == 0
    # asked from the page (playwright's own requests do not resolve *.localhost as Chromium does)
    for path in ("formgrader", f"formgrader/api/submission/{ASSIGNMENT}/{student}/autograde"):
        status = page.evaluate("async (url) => (await fetch(url)).status", f"{server_of(page)}/{path}")
        assert status == 404, f"a student's server answers /{path} ({status})"
    offered = menu_items(page, "Nbgrader")
    assert "Assignment List" in offered and not {"Formgrader", "Formgrader (local)", "Create Assignment"} & set(
        offered), offered
    assert page.locator("#create_assignment, .nbgrader-CreateAssignmentWidget").count() == 0
    shot(page, f"2-{student[-3:]}-lesson-01")
    open_menu(page, "Assignment List")
    assignments = page.locator("#nbgrader-assignment-list")
    press(page, assignments.locator("#released_assignments_list").get_by_role("button", name="Fetch"))
    fetched = home(student) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    until(fetched.exists, f"{student}: Fetch did not bring the assignment home")
    fetched.write_text(json.dumps(notebook(corpus()[answer])))  # the student's answer, saved as their own file
    os.chown(fetched, *(lambda s: (s.st_uid, s.st_gid))(fetched.parent.stat()))
    fetched_row = assignments.locator("#fetched_assignments_list")
    press(page, fetched_row.locator(".assignment-notebooks-link", has_text=ASSIGNMENT))
    press(page, fetched_row.locator(".nested_list_item", has_text=ASSIGNMENT).get_by_role("button", name="Validate"))
    message = page.locator(".jp-Dialog #validation-message")
    message.wait_for(timeout=WAIT_MS)
    verdict = message.get_attribute("class")
    shot(page, f"3-{student[-3:]}-validate")
    page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()
    press(page, fetched_row.get_by_role("button", name="Submit"))
    inbound = exchange(hub) / "inbound"
    until(lambda: any(p.name.startswith(f"{student}+{ASSIGNMENT}+") for p in inbound.iterdir()),
          f"{student}: Submit did not hand in")
    return page, verdict


def read_feedback(hub, page, student):
    """In the student's JupyterLab, still open from hand_in: Fetch Feedback, then open the feedback page."""
    press(page, page.locator("#submitted_assignments_list").get_by_role("button", name="Fetch Feedback"))
    feedback = home(student) / ASSIGNMENT / "feedback"
    until(lambda: any(feedback.glob(f"*/{ASSIGNMENT}.html")), f"{student}: no feedback fetched")
    page_path = next(feedback.glob(f"*/{ASSIGNMENT}.html")).relative_to(home(student))
    page.goto(f"{server_of(page)}/files/{page_path}", timeout=WAIT_MS)
    page.get_by_text("Score", exact=False).first.wait_for(timeout=WAIT_MS)
    shot(page, f"6-{student[-3:]}-feedback")
    text = page.locator("body").inner_text()
    page.context.close()
    hub.stop_server(student)
    return text


def totals(hub):
    checks = max_scores(hub.settings["course"])  # score_gradient.ipynb's grade cells, the notebook handed in
    return {student: sum(v for k, v in grades.items() if k in checks)
            for student, grades in scores(hub.settings["course"]).items()}


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


# ---- permissions and secrets ---------------------------------------------------------------------------------------
def doc_modes():
    """{path as INSTRUCTORS.md's permission table writes it: its modes (octal strings), first its own}."""
    text = (ROOT / "INSTRUCTORS.md").read_text().split("### Every permission, and why", 1)[1].split("\n## ", 1)[0]
    table = {}
    for row in text.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            table[cells[0].split("`")[1]] = re.findall(r"\b[0-7]{4}\b", cells[2])
    return table


def real_paths(hub):
    """Each path of the permission table as it is in this class: (path, a file inside to check, if the row gives a
    mode for files)."""
    first = hub.students[0]
    course, ex = Path(hub.settings["course"]), exchange(hub)
    feedback_page = next((ex / "feedback").glob("*.html"))
    return {
        "/opt/sqrt-dk/src": (ROOT, None), "/opt/sqrt-dk/venv": (Path(hub.settings["env"]),
                                                                  Path(hub.settings["env"]) / "pyvenv.cfg"),
        "/home/<user>": (home(first), None),
        "/home/<user>/.jupyter-run": (home(first) / ".jupyter-run", None),
        "/srv/sqrt-dk/course": (course, None), "/srv/sqrt-dk/course/gradebook.db": (course / "gradebook.db", None),
        "/srv/sqrt-dk/exchange": (Path(hub.settings["exchange"]), None), "/srv/sqrt-dk/exchange/sqrt-dk": (ex, None),
        "/srv/sqrt-dk/exchange/sqrt-dk/outbound": (ex / "outbound", None),
        "/srv/sqrt-dk/exchange/sqrt-dk/inbound": (ex / "inbound", None),
        "/srv/sqrt-dk/exchange/sqrt-dk/inbound/<student>+score_gradient+<time>+<random>": (
            hand_in_folder(hub, first), hand_in_folder(hub, first) / f"{ASSIGNMENT}.ipynb"),
        "/srv/sqrt-dk/exchange/sqrt-dk/feedback": (ex / "feedback", None),
        "/srv/sqrt-dk/exchange/sqrt-dk/feedback/<hash>.html": (feedback_page, None),
        "/srv/sqrt-dk/hub": (Path(hub.settings["state"]), None)}


def check_permission_table(hub):
    table, real = doc_modes(), real_paths(hub)
    assert set(table) == set(real), f"the table and the test disagree on the paths: {set(table) ^ set(real)}"
    wrong = {}
    for written, modes in table.items():
        path, inside = real[written]
        found = [f"{stat.S_IMODE(os.stat(path).st_mode):04o}"] + (
            [f"{stat.S_IMODE(os.stat(inside).st_mode):04o}"] if inside and len(modes) > 1 else [])
        if found != modes[:len(found)] or len(found) != len(modes):
            wrong[written] = (modes, found)
    assert not wrong, f"INSTRUCTORS.md's modes (written, found): {wrong}"


def private_paths(hub, student, other):
    """Every path `student` must not read: the code clone, the course's solutions, gradebook, hand-ins, grading and
    feedback, the exchange's inbound listing and another's hand-in, and the other student's home and work."""
    course = Path(hub.settings["course"])
    source = course / "source" / ASSIGNMENT
    return [ROOT, ROOT / "source", course, source, source / f"{ASSIGNMENT}.ipynb", source / "grade_cells.py",
            course / "gradebook.db", course / "submitted" / other / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
            course / "autograded" / other / ASSIGNMENT / f"{ASSIGNMENT}.ipynb",
            course / "feedback" / other / ASSIGNMENT / f"{ASSIGNMENT}.html",
            exchange(hub) / "inbound", hand_in_folder(hub, other) / f"{ASSIGNMENT}.ipynb", home(other),
            home(other) / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", home(other) / "sqrt-dk-lessons",
            Path(hub.settings["state"])]


TRY_READ = """import json, os, sys
seen = {}
for path in json.loads(sys.argv[1]):
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        seen[path] = "read"
    except PermissionError:
        seen[path] = "refused"
    except FileNotFoundError:
        seen[path] = "not found"
print(json.dumps(seen))
"""


def secrets_in_source():
    """Lines only the instructors' files hold: the reference solution and the hidden tests of the source notebook,
    and the code of the quiz key (classroom/quiz/topics.py, which pairs each statement with its truth)."""
    needles = set()
    nb = json.loads((ROOT / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        for begin, end in (("BEGIN SOLUTION", "END SOLUTION"), ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS")):
            for part in text.split(begin)[1:]:
                needles |= {line.strip() for line in part.split(end)[0].splitlines() if len(line.strip()) > 30}
    topics = (ROOT / "classroom" / "quiz" / "topics.py").read_text().splitlines()
    needles |= {line.strip() for line in topics if "lambda" in line and len(line.strip()) > 30}
    given = [path for folder in ("release", "notebooks", "attention_lesson", "classroom") for path in
             (ROOT / folder).rglob("*") if path.is_file() and "quiz" not in path.relative_to(ROOT).parts[1:2]]
    handed_out = "\n".join(path.read_text(errors="replace") for path in given)  # what students are meant to have
    return sorted(line for line in needles if line not in handed_out)


def nothing_secret_is_readable(hub, student):
    """Search, as `student`, everything of the class they might read for the instructors' lines; a file planted with
    one of them, readable by all, shows the search finds what it may read."""
    needles, planted = hub.folder / "needles.txt", hub.folder / "planted.txt"
    lines = secrets_in_source()
    needles.write_text("\n".join(lines) + "\n")
    planted.write_text(f"x\n{lines[0]}\n")
    for path in (needles, planted):
        path.chmod(0o644)
    where = [str(ROOT), hub.settings["env"], hub.settings["course"], hub.settings["exchange"],
             hub.settings["state"], *(str(home(other)) for other in hub.students if other != student), str(planted)]
    found = hub.as_user(student, "grep", "-rlsF", "-f", str(needles), *where)
    assert found.stdout.split() == [str(planted)], f"{student} can read: {found.stdout[:2000]}"
    imported = hub.as_user(student, "python", "-c", "import classroom.quiz.topics")
    assert "ModuleNotFoundError" in imported.stderr, imported.stderr
    control = subprocess.run(["grep", "-rlsF", "-f", str(needles), str(ROOT / "source"), hub.settings["course"]],
                             capture_output=True, text=True)
    assert control.stdout, "the needles are found where they are (as root): the search can find them"


# ---- the test ------------------------------------------------------------------------------------------------------
def test_a_class_on_the_hub(hub, browser):
    assert ROOT.stat().st_mode & 0o077 == 0, "make hub left the code clone open to other accounts"
    release(hub, browser)
    started = time.time()
    pages, verdicts = {}, {}
    for student, answer in zip(hub.students, ANSWERS):
        pages[student], verdicts[student] = hand_in(hub, browser, student, answer)
    assert "validation-success" in verdicts[hub.students[0]]
    assert "validation-failed" in verdicts[hub.students[1]]
    first, second = hub.students
    tried = classmate_tries(hub)
    assert tried == {what: "PermissionError" for what in tried}, tried
    ended = time.time()

    teacher = log_in(browser, hub, hub.instructor)
    kernels_stay_private(hub, teacher, pages)
    terminal = Terminal(teacher)
    status, out = terminal.run("pwd; command -v python nbgrader")
    lines = [line.strip() for line in out.replace("\r", "\n").splitlines()]
    assert status == 0 and {hub.settings["course"], f"{hub.settings['env']}/bin/python",
                            f"{hub.settings['env']}/bin/nbgrader"} <= set(lines), out
    collect, autograde = doc_commands("instructor")
    status, out = terminal.run(collect, GRADING_S)
    shot(teacher, "4-teacher-collect")
    assert status == 1 and f"'{first}+{ASSIGNMENT}+{LATER}+forged'" in out.split("Refused 1 hand-ins")[1], out
    assert f"handed in by the account '{second}'" in out and f"Collected 2 of '{ASSIGNMENT}'" in out, out
    for student, claimed in ((first, FORGED), (second, GARBLED)):
        collected = Path(hub.settings["course"]) / "submitted" / student / ASSIGNMENT
        arrived = deploy_time((collected / "timestamp.txt").read_text())
        assert started - 1 <= arrived <= ended + 1, (student, arrived, started, ended)
        record = json.loads((collected / ".classroom-intake.json").read_text())
        assert record["timestamp_txt"] == claimed and record["dropped"] == [], record  # all of it was readable
    status, out = terminal.run(autograde, GRADING_S)
    assert status == 0, out[-3000:]
    graded_by_teacher = totals(hub)
    assert graded_by_teacher[first] > graded_by_teacher[second], graded_by_teacher
    teacher.context.close()
    hub.stop_server(hub.instructor)

    assistant = log_in(browser, hub, hub.assistant)
    terminal = Terminal(assistant)
    for command in doc_commands("teaching assistant"):
        status, out = terminal.run(command, GRADING_S)
        assert status == 0, f"{command} as the teaching assistant:\n{out[-3000:]}"
        if "classroom.autograde" in command:
            assert "2 graded now" in out, out[-3000:]
    shot(assistant, "5-assistant-terminal")
    assert totals(hub) == graded_by_teacher
    assistant_uid = pwd.getpwnam(hub.assistant).pw_uid
    # the teacher's folders, replaced by the assistant's grading: each swap follows its gradebook transaction
    for folder in ("autograded", "feedback"):
        for student in hub.students:
            made = Path(hub.settings["course"]) / folder / student / ASSIGNMENT
            assert made.stat().st_uid == assistant_uid, f"{made} is not the assistant's"
    assistant.context.close()
    hub.stop_server(hub.assistant)

    for student in hub.students:
        text = read_feedback(hub, pages[student], student)
        shown = re.search(r"Score: ([0-9.]+) / [0-9.]+ points", text)
        assert shown and float(shown.group(1)) == graded_by_teacher[student], f"{student}'s feedback: {text[:300]}"
        assert "BEGIN HIDDEN TESTS" not in text
    check_permission_table(hub)
    for student, other in (hub.students, hub.students[::-1]):
        paths = [str(p) for p in private_paths(hub, student, other)]
        assert all(os.path.exists(p) for p in paths), [p for p in paths if not os.path.exists(p)]
        tried = hub.as_user(student, "python", "-c", TRY_READ, json.dumps(paths))
        assert tried.returncode == 0, tried.stderr
        assert json.loads(tried.stdout) == {p: "refused" for p in paths}
        nothing_secret_is_readable(hub, student)


def deploy_time(text):
    """Seconds since the epoch of a timestamp as nbgrader writes it."""
    import datetime

    from nbgrader.utils import parse_utc

    return parse_utc(text.strip()).replace(tzinfo=datetime.timezone.utc).timestamp()


def test_a_second_hub_starts_beside_the_first_and_a_taken_port_stops_make_hub(hub):
    with Hub() as second:
        assert second.port != hub.port and second.passwords
        assert second.api("GET", "/")["version"]
        assert second.proxy_pid != hub.proxy_pid  # two proxies, one per hub
        third = Hub(port=hub.port)
        taken = make("hub", f"HUB_PORT={hub.port}", env=third.env, timeout=600)
        assert taken.returncode != 0
        assert f"Port {hub.port} on 127.0.0.1 is taken" in taken.stdout + taken.stderr, taken.stderr[-2000:]
        with pytest.raises(KeyError):
            pwd.getpwnam(third.instructor)  # nothing was made
        shutil.rmtree(third.folder, ignore_errors=True)
    assert not second.stopped, f"left behind after Ctrl-C: {second.stopped}"
    assert "Removed" in second.cleaned, second.cleaned
    for account in (second.instructor, second.assistant, *second.students):
        with pytest.raises(KeyError):
            pwd.getpwnam(account)
    assert not Path(second.settings["course"]).exists() and not Path(second.settings["exchange"]).exists()
