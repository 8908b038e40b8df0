"""Autograde a class: every submission whose grading is missing or out of date, each one as a transaction.

    classroom autograde ASSIGNMENT [--force] [--student ID] [--notebook NAME] [--wait] [--no-sandbox]
                                  [--jobs N | --scheduler tcp://HOST:8786]
                                  [other nbgrader options, e.g. --CourseDirectory.db_url=postgresql://...]
    classroom autograde --help          (--help-all: every option of every class it configures)

An nbgrader-style application (ClassroomAutogradeApp, a traitlets Application like nbgrader's own): it reads
nbgrader_config.py as `nbgrader autograde` does, and each of its options can be set there as well as on the command
line, e.g. `c.ClassroomAutogradeApp.jobs = 4` or `c.ClassroomAutogradeApp.scheduler = "tcp://HOST:8786"`.

What a run grades, how and where: classroom.grading.driver, which this application runs in place of nbgrader's
converter. Before any grade is touched: the configuration is checked (classroom.grading.settings), the course's lock is
taken (classroom.bookkeeping.lock: a second run refuses, saying who holds it, or waits with --wait), and every student's
code must run in a bubblewrap sandbox (classroom.sandbox) unless --no-sandbox says, knowingly, to grade without one.
The run stops, as for Ctrl-C, when the process that started it ends (`make autograde` execs it, so killing make stops
it and frees the lock).

Exit status: 0 when every selected submission ends with a current grading (and for --help); 1 when some could not be
graded, or the assignment changed during the run (the summary says which and why; fix the cause and run it again:
finished work is not re-done); 2 when grading did not start (no sandbox, a configuration error or an option it cannot
read, the course is locked, no such assignment, student or notebook, a dropped student asked for, a quiz key other than
the handed-out one, no Dask scheduler at the address); 130 when interrupted.
"""
import signal
import sys

from nbgrader.apps.autogradeapp import AutogradeApp
from traitlets import Bool, Integer, Unicode, default

from .bookkeeping import lock
from .grading import pool, settings
from .grading.driver import Interrupted, Refused, run, say, stop
from .app.base import strict_loader
from .sandbox import launch


class ClassroomAutogradeApp(AutogradeApp):
    """`make autograde`: nbgrader's autograde application, with the driver (classroom.grading.driver) in place of its
    converter."""

    name = "classroom-autograde"
    description = "Autograde a class, each submission as a transaction, every student's code sandboxed."
    examples = """
        classroom autograde score_gradient --jobs 4
        classroom autograde score_gradient --student alice --force
        classroom autograde score_gradient --scheduler tcp://10.0.0.5:8786 --wait
        """
    aliases = {**AutogradeApp.aliases, "jobs": "ClassroomAutogradeApp.jobs",
               "scheduler": "ClassroomAutogradeApp.scheduler"}
    flags = {**{key: AutogradeApp.flags[key] for key in ("debug", "quiet", "force", "f")},
             "wait": ({"ClassroomAutogradeApp": {"wait": True}}, "Queue behind a grading run that holds the "
                      "course's lock, instead of refusing."),
             "no-sandbox": ({"Grader": {"launcher_class": "unsandboxed"}},
                            "Grade WITHOUT the bubblewrap sandbox, knowingly: "
                            "every student's code runs with your rights.")}

    jobs = Integer(1, min=1, help="Submissions staged at once, in processes of this machine.").tag(config=True)
    scheduler = Unicode("", help="The address of a Dask scheduler (tcp://HOST:8786) whose workers stage the "
                        "submissions; empty: this machine.").tag(config=True)
    wait = Bool(False, help="Wait for a grading run that holds the course's lock, instead of refusing.").tag(
        config=True)
    status = None  # the exit status, once started
    started_by = None  # the id of the process that started this one (main() reads it first thing)

    @default("classes")
    def _classes_default(self):
        from .preprocessors.execute_for_display import ExecuteForDisplay
        from .preprocessors.inert_content import InertContent
        from .preprocessors.trusted_grades import TrustedGrades
        from .sandbox.launchers import Grader

        return [*super()._classes_default(), Grader, ExecuteForDisplay, TrustedGrades, InertContent]

    def init_syspath(self):
        """The course directory is not put on sys.path: nothing of it is imported."""

    subcommand_name = "autograde"
    refused_means = "nothing was graded"

    def _create_loader(self, argv, aliases, flags, classes):
        """traitlets' command-line loader, refusing an option it does not know (traitlets only warns): a mistyped
        `--studnet alice` must not grade the whole class."""
        return strict_loader(self, argv, aliases, flags, classes)

    def start(self):
        named = [*self.extra_args, *([self.coursedir.assignment_id] if self.coursedir.assignment_id else [])]
        if len(named) != 1:
            say("name one assignment, e.g. `classroom autograde score_gradient` (--help says more)")
            self.status = 2
            return
        self.coursedir.assignment_id = assignment = named[0]
        refused = sandbox_refusal(self.config)
        problems = [] if refused else settings.problems(self.config)
        if refused or problems:
            say(refused or "the grading configuration has problems, so nothing was graded:")
            for problem in problems:
                say(f"  - {problem}")
            if problems:
                say("Fix them in nbgrader_config.py (or on the command line) and run this again.")
            self.status = 2
            return
        for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop)
        try:
            if not pool.signal_on_parent_death(signal.SIGTERM, self.started_by):
                stop(signal.SIGTERM, None)  # the process that started this one has already ended
            self.status = run(self, assignment, self.wait, {"jobs": self.jobs, "scheduler": self.scheduler or None})
        except (lock.Busy, pool.Unreachable, Refused) as exc:
            say(str(exc))
            self.status = 2
        except (KeyboardInterrupt, Interrupted) as exc:
            say(f"interrupted ({type(exc).__name__} {exc}): the submissions being graded keep their previous state; "
                "run `make autograde` again to finish")
            self.status = 130


def sandbox_refusal(config):
    """Why grading may not start with the configured launcher (bubblewrap missing), or None; says so when the
    configuration grades without the sandbox (--no-sandbox, or c.Grader.launcher_class = "unsandboxed")."""
    from .sandbox.launchers import Grader

    launcher = Grader(config=config).launcher_class(config=config)
    if not launcher.isolated:
        say("grading WITHOUT the sandbox (--no-sandbox, or c.Grader.launcher_class = \"unsandboxed\"): every "
            "student's code runs with your rights")
        return None
    try:
        launcher.require()
    except launch.SandboxUnavailable as exc:
        return str(exc)
    return None


def main(argv=None):
    """`python -m classroom.autograde ARGS` is `classroom autograde ARGS` (classroom.app.main); the exit status."""
    from .app.main import main as classroom

    return classroom(["autograde", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
