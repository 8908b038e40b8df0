"""What a student's account may read on the hub, for tests/hub/test_hub_class.py: INSTRUCTORS.md's permission table
against the modes found, every private path refused, and no solution, hidden test or quiz key anywhere readable."""
import json
import os
import re
import stat
import subprocess
from pathlib import Path

from coursekit.repository import ROOT
from tests.hub.class_cycle import ASSIGNMENT, exchange, hand_in_folder, home


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
    and the code of the quiz key (classroom/quiz/topics.py, which computes each worked claim's truth)."""
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
