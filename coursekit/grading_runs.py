"""Watching real grading runs from a test or a bench: what the gradebook and the autograded folders hold, whose
processes are still alive, a driver run in the background that the test interrupts, and a Dask cluster on
127.0.0.1."""
import contextlib
import subprocess
import sys
from pathlib import Path

from classroom import course
from classroom.grading import record
from coursekit import forked_commands, trial_course
from coursekit.trial_course import ASSIGNMENT, SUBMISSIONS
from coursekit.parts import DASK
from coursekit.real_parts.ports import free_port
from coursekit.real_parts.waiting import until

# A small class: work that is right, wrong, and one that hits a limit (a function that never returns).
CODE = {"right": (SUBMISSIONS / "correct_matmul.py").read_text(),
        "wrong": (SUBMISSIONS / "wrong_missing_alpha_factor.py").read_text(),
        "hangs": (SUBMISSIONS / "cheat_infinite_loop.py").read_text()}
# Limits low enough that the hanging one costs a second or two, not fifteen (INSTRUCTORS.md, Limits).
QUICK_LIMITS = "c.TrustedGrades.call_timeout = 1\nc.TrustedGrades.max_strikes = 1\nc.ExecuteForDisplay.timeout = 2\n"


def hand_in(place, who_codes):
    for who, kind in who_codes.items():
        trial_course.write_submission(place, who, trial_course.submission(CODE[kind]))


def gradebook_rows(place):
    """{(student, notebook): everything the gradebook holds about its grading}."""
    with trial_course.gradebook(place) as gb:
        return {(sub.student.id, nb.name): {
            "grades": sorted((g.name, g.auto_score, g.manual_score, g.needs_manual_grade) for g in nb.grades),
            "comments": sorted((c.name, c.auto_comment, c.manual_comment) for c in nb.comments),
            "flagged": nb.flagged, "penalty": nb.late_submission_penalty}
            for sub in gb.assignment_submissions(ASSIGNMENT) for nb in sub.notebooks}


def submission_count(place):
    """{student: number of submission rows} in the gradebook."""
    with trial_course.gradebook(place) as gb:
        counts = {}
        for sub in gb.assignment_submissions(ASSIGNMENT):
            counts[sub.student.id] = counts.get(sub.student.id, 0) + 1
        return counts


def committed(place):
    """The students whose autograded folder holds a record: their grading was committed."""
    coursedir = course.course_directory(root=place)
    folder = Path(course.autograded(coursedir, "*", ASSIGNMENT))
    return {p.parent.parent.name for p in folder.parent.parent.glob(f"*/{ASSIGNMENT}/{record.RECORD}")}


def leftovers(place):
    """What a finished run must not leave: staging areas, folders set aside or half swapped in."""
    staging = Path(place) / ".grading" / "staging"
    return sorted(str(p) for p in [*staging.glob("*"), *Path(place).glob("autograded/*/.*-*")])


def descendants(pid):
    """The process ids of every live descendant of `pid` (from /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def sandboxed(pid):
    """True once a grader process of the driver `pid` runs a student's code (the grader has children of its own)."""
    return any(descendants(child) for child in descendants(pid) if _parent(child) == pid)


def _parent(pid):
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def alive(pids):
    """Those of `pids` that are still running (not zombies)."""
    running = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.append(pid)
    return running


def start_driver(place, *flags):
    """`python -m classroom.autograde` in the background, in a session of its own (so that a test can send it the
    Ctrl-C a terminal sends to a whole process group)."""
    command = [sys.executable, "-m", "classroom.autograde", ASSIGNMENT, *trial_course.AUTOGRADE_FLAGS, *flags]
    return forked_commands.popen(command, cwd=place, env=trial_course.nbgrader_env(), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)


def log_of(proc):
    """What a background driver printed, once it has ended."""
    return proc.communicate()[1]


def wait_for(proc, condition, pause=0.2):
    """Poll `condition` while the background driver `proc` runs; it failing first (it ended) fails the test."""
    until(condition, "the driver was to be interrupted", float("inf"), pause, process=proc,
          log=lambda: log_of(proc)[-3000:])


@contextlib.contextmanager
def dask_cluster(folder, workers=2):
    """A `dask scheduler` and `workers` single-threaded `dask worker` processes on 127.0.0.1, started in `folder`
    (their log: dask.log there), each with no nanny, so a killed worker stays dead. Yields the scheduler's address
    and the workers' processes; stops them all."""
    address = f"tcp://127.0.0.1:{free_port()}"
    logs = open(Path(folder) / "dask.log", "w")
    started = [subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                 "--no-dashboard"], stdout=logs, stderr=logs, env=trial_course.nbgrader_env(), cwd=folder)]
    try:
        started += [subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                      "--name", f"w{i}", "--local-directory", str(folder)], stdout=logs, stderr=logs,
                                     env=trial_course.nbgrader_env(), cwd=folder) for i in range(workers)]
        from distributed import Client
        with Client(address, timeout="120s") as client:
            client.wait_for_workers(workers)
        yield address, started[1:]
    finally:
        for proc in started:
            proc.kill()
            proc.wait()
        logs.close()
